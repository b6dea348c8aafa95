"""A UDP DNS stand-in on 127.0.0.1, for nginx's ``resolver`` in the proxy tests and benchmarks."""

import socket
import struct
import threading

from bench.servers import LOOPBACK


class FakeDns:
    """A UDP DNS server on 127.0.0.1 answering A queries from ``records`` (name -> addresses).

    Stands in for Docker's embedded DNS (127.0.0.11) so that nginx's ``resolver``
    configuration can be exercised; unknown names get NXDOMAIN, other types no answer.
    """

    def __init__(self, records, ttl=1):
        self.records = {k.lower().rstrip("."): list(v) for k, v in records.items()}
        self.ttl = ttl
        self.queries = []
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self._sock.bind((LOOPBACK, 0))
        self._sock.settimeout(0.2)
        self.port = self._sock.getsockname()[1]
        self._stop = False
        self._thread = None

    def __enter__(self):
        self._thread = threading.Thread(target=self._serve, name="fake-dns", daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop = True
        self._thread.join(5)
        self._sock.close()

    def _serve(self):
        while not self._stop:
            try:
                packet, peer = self._sock.recvfrom(512)
            except TimeoutError:
                continue
            except OSError:
                return
            try:
                self._sock.sendto(self._answer(packet), peer)
            except (OSError, ValueError, IndexError):
                continue

    def _answer(self, packet):
        ident, _flags, _qdcount = struct.unpack("!HHH", packet[:6])
        labels, i = [], 12
        while packet[i]:
            labels.append(packet[i + 1 : i + 1 + packet[i]].decode("ascii", "replace"))
            i += 1 + packet[i]
        qtype, _qclass = struct.unpack("!HH", packet[i + 1 : i + 5])
        question = packet[12 : i + 5]
        name = ".".join(labels).lower()
        self.queries.append((name, qtype))
        addresses = self.records.get(name)
        if addresses is None:
            return struct.pack("!HHHHHH", ident, 0x8183, 1, 0, 0, 0) + question
        answers = b""
        if qtype == 1:  # A
            for address in addresses:
                answers += struct.pack("!HHHIH", 0xC00C, 1, 1, self.ttl, 4) + socket.inet_aton(address)
        count = len(addresses) if qtype == 1 else 0
        return struct.pack("!HHHHHH", ident, 0x8180, 1, count, 0, 0) + question + answers

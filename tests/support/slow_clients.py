"""Slow clients for tests and benchmarks: connections that each hold a request open, on loopback.

Three kinds, as an attacker or a phone on a bad network sends them (KINDS):

- ``stalled body``: a move's headers with ``Content-Length: 100`` and one byte of body, then nothing;
- ``endless headers``: a request line, then a header byte a second, the headers never ending;
- ``dribbled body``: ``Content-Length: 1000``, then one byte of body a second.

And two floods an attacker sends (FLOODS):

- ``chunk flood``: a chunked body of 30,000 one-byte chunks at once, then one more every 0.3 s;
- ``idle``: a connection that sends nothing.

Each connection is opened again whenever the server closes it, until the end; what the server
answered before closing one is kept (``answers``). ``source`` is the loopback address they come
from (127.0.0.2, say: another client than a player on 127.0.0.1).
"""

import socket
import threading
import time

from tests.support.servers import LOOPBACK

KINDS = ("stalled body", "endless headers", "dribbled body")
FLOODS = ("chunk flood", "idle")
FLOOD_CHUNKS, CHUNK_PAUSE = 30_000, 0.3


class SlowConnections:
    """``count`` connections to ``port`` that each hold a request open, reopened when the server closes
    them; of ``kinds`` in turn, from the loopback address ``source``."""

    def __init__(self, port, count, kinds=KINDS, source=LOOPBACK):
        self.port, self.count, self.source = port, count, source
        self.stop = threading.Event()
        self.opened, self.lifetimes, self.errors, self.answers = 0, [], [], []
        self.open_now = 0
        self._lock = threading.Lock()
        self._threads = [threading.Thread(target=self._hold, args=(kinds[n % len(kinds)],), daemon=True)
                         for n in range(count)]  # fmt: skip

    def __enter__(self):
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        for thread in self._threads:
            thread.join(5)

    def _hold(self, kind):
        while not self.stop.is_set():
            try:
                sock = socket.create_connection((LOOPBACK, self.port), timeout=5, source_address=(self.source, 0))
            except OSError as error:
                with self._lock:
                    self.errors.append(repr(error))
                self.stop.wait(0.5)
                continue
            opened = time.monotonic()
            with self._lock:
                self.opened += 1
                self.open_now += 1
            try:
                answer = self._dribble(sock, kind)
            except OSError as error:  # reset by the server
                answer = repr(error).encode()
            finally:
                sock.close()
                with self._lock:
                    self.open_now -= 1
            if not self.stop.is_set():
                with self._lock:
                    self.lifetimes.append(time.monotonic() - opened)
                    self.answers.append((kind, answer))

    def _dribble(self, sock, kind):
        """Send ``kind``'s request, a byte a second where it dribbles, until the server answers or
        closes the connection (what it sent is returned) or the end."""
        head = f"POST /api/game/moves HTTP/1.1\r\nHost: {LOOPBACK}:{self.port}\r\nContent-Type: application/json\r\n"
        pause = 1.0
        if kind == "endless headers":
            sock.sendall(head.encode())
            trickle = b"X-Slow: " + b"a" * 100_000
        elif kind == "idle":
            trickle = b""
        elif kind == "chunk flood":
            sock.sendall(f"{head}Transfer-Encoding: chunked\r\n\r\n".encode() + b"1\r\n \r\n" * FLOOD_CHUNKS)
            trickle, pause = b"1\r\n \r\n" * 100_000, CHUNK_PAUSE
        else:
            sock.sendall(f"{head}Content-Length: {100 if kind == 'stalled body' else 1000}\r\n\r\n{{".encode())
            trickle = b" " * 100_000 if kind == "dribbled body" else b""
        sock.settimeout(pause)
        sent, step = 0, 6 if kind == "chunk flood" else 1  # a chunk, or a byte, each pause
        while not self.stop.is_set():
            try:
                answer = sock.recv(65536)
            except TimeoutError:
                if trickle:
                    sock.sendall(trickle[sent : sent + step])
                    sent += step
                continue
            while answer and not answer.endswith(b"}") and not self.stop.is_set():  # the rest of it, if any
                try:
                    more = sock.recv(65536)
                except TimeoutError:
                    break
                if not more:
                    break
                answer += more
            return answer
        return b""

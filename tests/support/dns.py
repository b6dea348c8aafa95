"""A DNS stand-in on 127.0.0.1 (dnslib's server), for nginx's ``resolver`` in the proxy tests and benchmarks."""

from dnslib import QTYPE, RCODE, RR, A
from dnslib.server import BaseResolver, DNSLogger, DNSServer

from tests.support.servers import LOOPBACK


class FakeDns(BaseResolver):
    """A UDP DNS server answering A queries from ``records`` (name -> addresses).

    Stands in for Docker's embedded DNS (127.0.0.11) so that nginx's ``resolver``
    configuration can be exercised; unknown names get NXDOMAIN, other types no answer.
    """

    def __init__(self, records, ttl=1):
        self.records = {k.lower().rstrip("."): list(v) for k, v in records.items()}
        self.ttl = ttl
        self.queries = []
        self._server = DNSServer(self, port=0, address=LOOPBACK, logger=DNSLogger(logf=lambda _line: None))
        self.port = self._server.server.server_address[1]

    def resolve(self, request, handler):
        name, qtype = str(request.q.qname).lower().rstrip("."), request.q.qtype
        self.queries.append((name, qtype))
        reply = request.reply()
        addresses = self.records.get(name)
        if addresses is None:
            reply.header.rcode = RCODE.NXDOMAIN
        elif qtype == QTYPE.A:
            for address in addresses:
                reply.add_answer(RR(request.q.qname, QTYPE.A, ttl=self.ttl, rdata=A(address)))
        return reply

    def __enter__(self):
        self._server.start_thread()
        return self

    def __exit__(self, *exc):
        self._server.stop()

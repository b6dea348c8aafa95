"""The worker's reading of a request's framing (app/worker.py): a chunked body followed as it arrives,
however it is cut, and the address a connection is counted under."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.worker import BODY_LIMIT, MAX_CHUNKS, ChunkedBody, Refused, client_of, forwarded_client


def chunked(pieces, trailers=b""):
    return b"".join(b"%x\r\n%s\r\n" % (len(piece), piece) for piece in pieces) + b"0\r\n" + trailers + b"\r\n"


@settings(deadline=None)
@given(st.lists(st.binary(min_size=1, max_size=40), max_size=30), st.lists(st.integers(1, 50), max_size=60),
       st.sampled_from([b"", b"X-Checksum: 1\r\n"]))  # fmt: skip
def test_a_chunked_body_is_whole_exactly_when_its_last_byte_arrives_however_it_is_cut(pieces, cuts, trailers):
    body = chunked(pieces, trailers)
    follower, received, at = ChunkedBody(0), bytearray(), 0
    for cut in [*cuts, len(body)]:
        received += body[at : at + cut]
        at = min(len(body), at + cut)
        assert follower.whole(received) == (at == len(body))
        if at == len(body):
            break
    assert follower.size == sum(map(len, pieces)) and follower.chunks == len(pieces)


@pytest.mark.parametrize(("body", "status"), [
    (b"zz\r\n", 400), (b"3\r\nabcd\r\n", 400), (b"%x\r\n" % (BODY_LIMIT + 1), 413),
    (chunked([b"a"] * (MAX_CHUNKS + 1)), 413),
    (b"1;" + b"x" * 300, 400),  # a size line that never ends (its extensions)
    (b"0\r\n" + b"X-Trailer: y\r\n" * 1000, 431),  # trailers without end
])  # fmt: skip
def test_what_no_chunked_body_can_be_is_refused(body, status):
    with pytest.raises(Refused) as refused:
        ChunkedBody(0).whole(bytearray(body))
    assert refused.value.status == status


def test_each_piece_is_looked_at_once_not_again_with_every_arrival():
    """Thousands of one-byte chunks, a chunk an arrival: where the follower stands moves on, never back."""
    follower, received, body = ChunkedBody(0), bytearray(), chunked([b"x"] * 200)
    for start in range(0, len(body), 6):
        before = follower.at
        received += body[start : start + 6]
        follower.whole(received)
        assert follower.at >= before and follower.at >= len(received) - 6


def test_connections_are_counted_by_address_an_ipv6_one_by_its_64():
    assert client_of("127.0.0.2") == "127.0.0.2" and client_of("::ffff:127.0.0.3") == "127.0.0.3"
    assert client_of("2001:db8::1") == client_of("2001:db8::ffff") == "2001:db8::/64"


def test_behind_proxies_the_client_is_the_one_they_forward_for():
    head = b"GET / HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 127.0.0.5, 127.0.0.6\r\nX-Other: 1\r\n"
    assert forwarded_client(head, 1) == "127.0.0.6" and forwarded_client(head, 2) == "127.0.0.5"
    assert forwarded_client(head, 3) is None and forwarded_client(b"GET / HTTP/1.1\r\nHost: x\r\n", 1) is None
    # A proxy that adds a line of its own after the client's: the lines read as one list, as ProxyFix reads them.
    twice = b"GET / HTTP/1.1\r\nX-Forwarded-For: 127.0.0.66\r\nX-Forwarded-For: 127.0.0.7\r\n"
    assert forwarded_client(twice, 1) == "127.0.0.7" and forwarded_client(twice, 2) == "127.0.0.66"

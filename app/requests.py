"""Reading requests: a JSON body of known fields, a whole number in the query string.

Every malformed input is a 400 (or 413, 415) with a clear code, never a 500.
"""

import re

import msgspec
from flask import request
from werkzeug.exceptions import RequestEntityTooLarge

from .engine import CLASSIC, SIZES
from .errors import ApiError

NUMBER = re.compile(r"[0-9]{1,9}")
BODY = msgspec.json.Decoder()  # strict JSON in UTF-8 (RFC 8259: no NaN, no BOM), in a tenth of json's time


def json_object(required=frozenset(), optional=frozenset(), any_fields=False):
    """The request body as a JSON object holding exactly the given fields (or any).

    Parsed here rather than with request.get_json() so that every malformed body,
    including one nested too deeply for the parser, is a 400 and never a 500 (msgspec's errors are
    ValueErrors).
    """
    if not request.is_json:
        raise ApiError(415, "unsupported_media_type", "send the body as application/json")
    raw = request.get_data(cache=True)
    at_cap = len(raw) == request.max_content_length and request.content_length is None
    if at_cap and request.environ["wsgi.input"].read(1):
        raise RequestEntityTooLarge  # a chunked body is cut at the cap, not refused, by Werkzeug
    try:
        body = BODY.decode(raw)
    except (ValueError, RecursionError):
        raise ApiError(400, "invalid_json", "the body is not valid JSON") from None
    if not isinstance(body, dict):
        raise ApiError(400, "invalid_body", "the body must be a JSON object")
    if any_fields:
        return body
    missing = sorted(set(required) - body.keys())
    if missing:
        raise ApiError(400, "missing_field", f"missing field: {', '.join(missing)}")
    unexpected = sorted(body.keys() - set(required) - set(optional))
    if unexpected:
        raise ApiError(400, "unexpected_field", f"unexpected field: {', '.join(unexpected)}")
    return body


def query_flag(name, former=None):
    """The query argument ``name`` (or, when it is absent, its ``former`` name, still read) as
    0 or 1: True for 1."""
    asked = name if name in request.args or former is None else former
    value = request.args.get(asked, "0")
    if value not in ("0", "1"):
        raise ApiError(400, f"invalid_{asked}", f"{asked} must be 0 or 1")
    return value == "1"


def query_number(name, default, high, low=0):
    """The query argument ``name`` as a whole number from ``low`` to ``high`` (ASCII digits only:
    ``int()`` also reads other scripts' digits and refuses superscripts that ``str.isdigit`` lets by)."""
    value = request.args.get(name)
    if value is None:
        return default
    if not NUMBER.fullmatch(value) or not low <= int(value) <= high:
        raise ApiError(400, f"invalid_{name}", f"{name} must be a whole number from {low} to {high}")
    return int(value)


def query_size():
    """The board size ``?size=`` asks for (a 400 "invalid_size" outside SIZES), the classic's by default."""
    return query_number("size", CLASSIC.size, SIZES[-1], SIZES[0])

"""JSON answers, encoded by msgspec (Flask-Session's serializer already): a move's answer, its board
and animation, in a tenth of the time Python's json takes.

The JSON is Flask's (keys sorted, no spaces), with UTF-8 left as it is rather than escaped. Pages'
``tojson`` keep Flask's own encoder, and so does debug mode's indented output.
"""

import msgspec
from flask.json.provider import DefaultJSONProvider


class Answers(DefaultJSONProvider):
    """Flask's JSON provider but for its answers' encoder, which hands types it does not know to Flask's ``default``."""

    def __init__(self, app):
        super().__init__(app)
        self._encoder = msgspec.json.Encoder(enc_hook=self.default, order="sorted")

    def response(self, *args, **kwargs):
        if (self.compact is None and self._app.debug) or self.compact is False:
            return super().response(*args, **kwargs)
        body = self._encoder.encode(self._prepare_response_obj(args, kwargs))
        return self._app.response_class(body + b"\n", mimetype=self.mimetype)

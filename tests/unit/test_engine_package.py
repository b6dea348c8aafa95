"""The engine's public names are there (that it imports nothing of the product or the web is
import-linter's contract in pyproject.toml, run by tests/unit/test_parts.py)."""

import app.engine


def test_public_names_are_exported():
    for name in app.engine.__all__:
        assert hasattr(app.engine, name), name

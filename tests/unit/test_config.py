"""The configuration table of docs/deployment.md and app/config.py agree: every setting a host may
change is documented, with its true default."""

import json
import re
from datetime import timedelta

from app.config import DEFAULTS, SETTINGS
from tests.support.servers import PROJECT_ROOT

ROW = re.compile(r"\| `FLASK_([A-Z_]+)` \| (.*?) \| .* \|")


def documented():
    """{setting: its Default cell} of the app's own settings table."""
    text = (PROJECT_ROOT / "docs" / "deployment.md").read_text()
    table = text[text.index("## Configuration") :].split("\n\n| Variable")[1].split("\n\n")[0]
    return {match[1]: match[2] for match in map(ROW.match, table.splitlines()) if match}


def written(value):
    """A default as the table writes it."""
    if isinstance(value, timedelta):
        return str(int(value.total_seconds()))
    if isinstance(value, bool | list):
        return json.dumps(value)
    return str(value)


def test_every_host_setting_is_in_the_table_and_nothing_else():
    assert set(documented()) == set(SETTINGS)
    assert set(SETTINGS) <= set(DEFAULTS)


def test_the_table_gives_each_settings_true_default():
    for name, cell in documented().items():
        default = SETTINGS[name]
        if default is None:  # worked out at start (config.derive): the table says from what
            assert cell.strip(), name
        else:
            assert cell.startswith(f"`{written(default)}`"), (name, cell, written(default))

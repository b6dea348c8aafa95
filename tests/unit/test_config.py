"""The configuration table of docs/deployment.md and app/config.py agree: every setting a host may
change is documented, with its true default; and each is checked when the app starts."""

import json
import re
from datetime import timedelta

import pytest

from app import create_app
from app.config import DEFAULTS, SETTINGS, ConfigError, check
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
        default = SETTINGS[name].default
        if default is None:  # worked out at start (config.derive): the table says from what
            assert cell.strip(), name
        else:
            assert cell.startswith(f"`{written(default)}`"), (name, cell, written(default))


# A value of the wrong form for every setting in the table: the start stops, naming it.
BAD = {
    "SESSION_TYPE": "foo", "REDIS_URL": "localhost:6379", "PERMANENT_SESSION_LIFETIME": "-5",
    "SESSION_COOKIE_SECURE": "sometimes", "SESSION_STORE_LIMIT": "0", "UNPLAYED_SESSION_LIFETIME": "0",
    "SESSION_LOCK_TIMEOUT": "-1", "SESSION_LOCK_LEASE": "soon", "MAX_CONTENT_LENGTH": "0", "TRUSTED_PROXIES": "one",
    "CONNECTIONS_PER_ADDRESS": "0",
    "TRUSTED_HOSTS": "game example.org", "SECRET_KEY": "", "LOG_FORMAT": "xml", "LOG_CLIENT_ADDRESS": "maybe",
    "METRICS": "maybe", "METRICS_ALLOWED_FROM": "nowhere", "API_RATE_LIMIT": "lots", "NEW_SESSION_RATE_LIMIT": "lots",
    "NEW_SESSION_GLOBAL_LIMIT": "10 per fortnight", "HINT_RATE_LIMIT": "many", "WORK_TIME_LIMIT": "500",
    "RECORD_SESSION_LIMIT": "lots", "RECORD_ADDRESS_LIMIT": "lots", "REVIEW_RATE_LIMIT": "lots",
    "RATELIMIT_ENABLED": "maybe", "RATELIMIT_STORAGE_URI": "memory", "DAILY_ADDRESS_LIMIT": "abc",
    "DAILY_GAME_RATE_LIMIT": "lots", "DAILY_REVEAL_DELAY": "-1", "DAILY_PAR_BUDGET_MS": "abc",
    "SOLVER_BUDGET_MS": "abc", "REVIEW_RANGE": "0", "REVIEW_BUDGET_MS": "0", "SQLALCHEMY_DATABASE_URI": "records.db",
    "COMPRESS_REGISTER": "maybe", "COMPRESS_MIN_SIZE": "-1",
}  # fmt: skip


def start_with(monkeypatch, tmp_path, **environment):
    for name, value in environment.items():
        monkeypatch.setenv(f"FLASK_{name}", value)
    return create_app({"TESTING": True, "INSTANCE_PATH": tmp_path / "instance"})


@pytest.mark.parametrize("name", sorted(documented()))
def test_every_setting_in_the_table_stops_the_start_in_one_line_when_it_is_not_of_its_form(name, monkeypatch,
                                                                                             tmp_path):  # fmt: skip
    with pytest.raises(ConfigError) as stopped:
        start_with(monkeypatch, tmp_path, **{name: BAD[name]})
    said = stopped.value.message
    assert said.startswith(f"FLASK_{name}=") and f"{BAD[name]} is not " in said.replace("'", "") and "\n" not in said


def test_every_default_is_of_its_form():
    checked = dict(DEFAULTS)
    check(checked)
    assert checked == DEFAULTS


@pytest.mark.parametrize("hosts", ['["game.example.org", "www.example.org"]', "game.example.org, www.example.org"])
def test_trusted_hosts_are_read_as_a_json_list_or_split_by_commas_never_letter_by_letter(hosts, monkeypatch,
                                                                                          tmp_path):  # fmt: skip
    client = start_with(monkeypatch, tmp_path, TRUSTED_HOSTS=hosts).test_client()
    assert client.get("/healthz", base_url="http://game.example.org").status_code == 200
    assert client.get("/healthz", base_url="http://www.example.org").status_code == 200
    assert client.get("/healthz", base_url="http://g").status_code == 400


def test_an_empty_host_list_means_any_host_and_choices_take_any_case(monkeypatch, tmp_path):
    app = start_with(monkeypatch, tmp_path, TRUSTED_HOSTS="", SESSION_TYPE="SQLite", LOG_FORMAT="Text")
    assert app.test_client().get("/healthz", base_url="http://game.example.org").status_code == 200
    assert (app.config["SESSION_TYPE"], app.config["LOG_FORMAT"]) == ("sqlite", "text")


@pytest.mark.parametrize(("said", "meant"), [("yes", True), ("no", False), ("1", True), ("0", False), ("On", True),
                                              ("false", False)])  # fmt: skip
def test_switches_take_true_false_1_0_yes_no(said, meant, monkeypatch, tmp_path):
    assert start_with(monkeypatch, tmp_path, LOG_CLIENT_ADDRESS=said).config["LOG_CLIENT_ADDRESS"] is meant


def test_numbers_and_lifetimes_given_as_text_are_read_as_numbers(monkeypatch, tmp_path):
    app = start_with(monkeypatch, tmp_path, DAILY_ADDRESS_LIMIT="5", PERMANENT_SESSION_LIFETIME="3600",
                     API_RATE_LIMIT="10 per second", METRICS_ALLOWED_FROM="10.0.0.0/8, ::1/128")  # fmt: skip
    assert app.config["DAILY_ADDRESS_LIMIT"] == 5 and app.permanent_session_lifetime == timedelta(hours=1)
    assert app.config["METRICS_ALLOWED_FROM"] == ["10.0.0.0/8", "::1/128"]

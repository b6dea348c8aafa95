"""A setting that is not of its form stops gunicorn and the ``flask`` commands at start, with one line
that names it (app/config.py), never a traceback and never a server that starts and fails later."""

import subprocess
import sys

import pytest

from tests.support.servers import PROJECT_ROOT, gunicorn_command, server_env

pytestmark = pytest.mark.slow


def test_gunicorn_stops_before_any_worker_with_the_one_line(tmp_path):
    env = server_env({"FLASK_INSTANCE_PATH": tmp_path / "data", "FLASK_API_RATE_LIMIT": "lots"})
    ran = subprocess.run([*gunicorn_command(), "--bind", "127.0.0.1:0", "app:create_app()"], cwd=PROJECT_ROOT,
                         env=env, capture_output=True, text=True, timeout=120)  # fmt: skip
    said = ran.stdout + ran.stderr
    assert ran.returncode == 78, said
    assert "FLASK_API_RATE_LIMIT='lots' is not rate limits" in said and "Traceback" not in said, said
    assert "Booting worker" not in said


def test_a_flask_command_stops_with_the_one_line(tmp_path):
    env = server_env({"FLASK_INSTANCE_PATH": tmp_path / "data", "FLASK_DAILY_ADDRESS_LIMIT": "abc"})
    ran = subprocess.run([sys.executable, "-m", "flask", "--app", "app", "records", "export", "-"], cwd=tmp_path,
                         env=env, capture_output=True, text=True, timeout=120)  # fmt: skip
    assert ran.returncode == 1 and "Traceback" not in ran.stderr, ran.stderr
    said = ran.stderr.strip().splitlines()[-1]
    assert said == "Error: FLASK_DAILY_ADDRESS_LIMIT='abc' is not a whole number, 0 or more"

"""One data folder whatever the current folder: the checkout's copy of the app and the installed one
find the same, gunicorn says once where it is, and a backup run where no records are fails clearly."""

import subprocess
import sys

import pytest

from tests.support.servers import PROJECT_ROOT, gunicorn_server, http_status, server_env

pytestmark = pytest.mark.slow
WHERE = "from app import create_app; print(create_app().instance_path)"


@pytest.fixture
def home(tmp_path):
    """A user's home with nothing of the game in it yet, and an empty folder to run commands from."""
    (tmp_path / "home").mkdir()
    (tmp_path / "elsewhere").mkdir()
    return {"HOME": str(tmp_path / "home"), "XDG_DATA_HOME": "", "PYTHONPATH": ""}


def test_the_checkouts_app_and_the_installed_one_keep_their_data_in_one_folder(installed, home, tmp_path):
    def instance_path(python, cwd):
        return subprocess.run([python, "-c", WHERE], cwd=cwd, env=server_env(home), capture_output=True, text=True,
                              check=True, timeout=120).stdout.strip()  # fmt: skip

    found = {
        (python, cwd): instance_path(python, cwd)
        for python in (sys.executable, installed / "python")
        for cwd in (PROJECT_ROOT, tmp_path / "elsewhere")
    }
    assert set(found.values()) == {str(tmp_path / "home" / ".local" / "share" / "game2048")}, found


def test_two_servers_of_one_user_share_no_control_socket(tmp_path):
    """gunicorn's control socket would be one path per user (~/.gunicorn/gunicorn.ctl, or in
    $XDG_RUNTIME_DIR): stopping one server deleted the other's. gunicorn.conf.py makes none."""
    user = {"HOME": tmp_path / "home", "XDG_RUNTIME_DIR": tmp_path / "run"}
    for folder in user.values():
        folder.mkdir()
    with gunicorn_server(env={**user, "FLASK_INSTANCE_PATH": tmp_path / "one"}) as one:
        with gunicorn_server(env={**user, "FLASK_INSTANCE_PATH": tmp_path / "two"}) as two:
            assert http_status(two.url + "/healthz") == 200
        assert http_status(one.url + "/healthz") == 200
    assert [path for folder in user.values() for path in folder.rglob("*.ctl")] == []


def test_gunicorn_says_once_at_start_where_the_data_is(tmp_path):
    folder = tmp_path / "data"
    with gunicorn_server(env={"FLASK_INSTANCE_PATH": folder}, args=["--workers", "2"]) as server:
        server.wait_for_workers(2)
        said = [line for line in server.log().splitlines() if "the data folder" in line]
    assert len(said) == 1 and f"is {folder};" in said[0] and "FLASK_INSTANCE_PATH" in said[0]


def test_an_export_run_where_there_are_no_records_fails_clearly_and_writes_nothing(home, tmp_path):
    """The host's mistake of the issue: the command run in another folder, for another instance folder."""
    argv = [sys.executable, "-m", "flask", "--app", "app", "records", "export", "-"]
    done = subprocess.run(argv, cwd=tmp_path / "elsewhere", env=server_env(home), capture_output=True, text=True,
                          timeout=120)  # fmt: skip
    folder = tmp_path / "home" / ".local" / "share" / "game2048"
    assert done.returncode == 1 and done.stdout == "", "no backup of nothing"
    assert done.stderr.startswith(f"exporting the records of sqlite:///{folder}/records.db\n")
    assert "there is no records database here" in done.stderr and "Traceback" not in done.stderr
    assert not (folder / "records.db").exists()

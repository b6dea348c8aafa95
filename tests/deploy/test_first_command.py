"""The README's first command, as written, on a machine with only Debian's python3: a fresh clone,
a PATH that holds python3 and nothing else (no ``python``, no pip of the system's), and the game page
at the end of it."""

import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from tests.support.client import HttpClient
from tests.support.servers import LOOPBACK, PROJECT_ROOT, ManagedProcess, free_port, server_env, wait_until

pytestmark = pytest.mark.slow

DEBIAN_PYTHON = Path("/usr/bin/python3")
README_PORT = "127.0.0.1:8000"


def first_command(readme: str) -> str:
    """The first shell block of the README's "Two commands"."""
    section = readme[readme.index("## Two commands"):]
    return re.search(r"```sh\n(.+?)\n```", section, re.DOTALL)[1]


@pytest.mark.skipif(not DEBIAN_PYTHON.exists(), reason="needs Debian's /usr/bin/python3")
def test_the_readmes_first_command_serves_the_game_from_a_fresh_clone_with_only_python3(tmp_path):
    clone = tmp_path / "game2048"
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", PROJECT_ROOT, clone], check=True, timeout=120)
    command = first_command((clone / "README.md").read_text())
    assert README_PORT in command and "python3 " in command
    only_python3 = tmp_path / "bin"
    only_python3.mkdir()
    (only_python3 / "python3").symlink_to(DEBIAN_PYTHON)
    assert shutil.which("python", path=str(only_python3)) is None

    port = free_port()  # the command as written, on a port free here
    env = server_env({"PATH": str(only_python3)})
    env.pop("VIRTUAL_ENV", None)
    started = time.monotonic()
    process = ManagedProcess(["/bin/sh", "-c", command.replace(README_PORT, f"{LOOPBACK}:{port}")],
                             env=env, cwd=clone, log_path=tmp_path / "first-command.log", name="first command").start()
    try:
        page = wait_until(lambda: _game_page(process, port), timeout=900, interval=0.5, message="the game page")
        print(f"\nthe README's first command served the game page after {time.monotonic() - started:.0f} s")
        assert '<h1 class="title">2048</h1>' in page and 'data-testid="board"' in page
        assert (clone / ".venv" / "bin" / "gunicorn").exists()  # in the virtual environment it made
    finally:
        process.stop()


def _game_page(process, port):
    """The game page's HTML once it is served; a command that stopped fails the test with its output."""
    assert process.alive(), process.tail(40)
    try:
        reply = HttpClient(f"http://{LOOPBACK}:{port}", timeout=5).get("/")
    except OSError:
        return None
    return reply.body.decode() if reply.status == 200 else None

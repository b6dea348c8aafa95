"""The README's test command (scripts/test, which CI's .ci/run calls) on a fresh clone, with a PATH
whose only Python is Debian's python3: no ``python``, and a system pip it must not write to. It
makes the project's .venv and runs everything there."""

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support.servers import PROJECT_ROOT, server_env

pytestmark = pytest.mark.slow

DEBIAN_PYTHON = Path("/usr/bin/python3")
SYSTEM_PATH = "/usr/sbin:/usr/bin:/sbin:/bin"  # chromium, redis-server, nginx, node and npm; python3 alone


@pytest.mark.skipif(not DEBIAN_PYTHON.exists(), reason="needs Debian's /usr/bin/python3")
def test_the_test_command_runs_on_a_fresh_clone_with_only_python3(tmp_path):
    assert shutil.which("python", path=SYSTEM_PATH) is None and shutil.which("python3", path=SYSTEM_PATH)
    clone = tmp_path / "game2048"
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", PROJECT_ROOT, clone], check=True, timeout=120)
    system_packages = _packages()
    env = server_env({"PATH": SYSTEM_PATH})
    env.pop("VIRTUAL_ENV", None)
    ran = subprocess.run(["scripts/test", "tests/unit/test_engine_rules.py"], cwd=clone, env=env,
                         capture_output=True, text=True, timeout=1500)  # fmt: skip
    said = ran.stdout + ran.stderr
    assert ran.returncode == 0, said[-4000:]
    assert " passed" in said and "Using --randomly-seed=" in said, said[-2000:]
    assert (clone / ".venv" / "bin" / "pytest").exists()  # in the virtual environment it made
    assert _packages() == system_packages  # and nothing in the system's Python


LIST_PACKAGES = "import importlib.metadata as m; print(sorted(d.name for d in m.distributions()))"


def _packages():
    """The packages Debian's python3 sees."""
    return subprocess.run([DEBIAN_PYTHON, "-c", LIST_PACKAGES], capture_output=True, text=True, check=True).stdout

"""Fixtures that run what the Docker image runs: the package installed from its wheel in a Python
environment of its own, and the image's WORKDIR made from what the image copies."""

import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from tests.support import dockerfile
from tests.support.image import Image
from tests.support.servers import PROJECT_ROOT

IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc", "*.pyo")


@pytest.fixture(scope="session")
def wheel(tmp_path_factory):
    """The package built as the image's build stage builds it (and as `pip install .` would)."""
    dist = tmp_path_factory.mktemp("dist")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", dist, PROJECT_ROOT],
                   check=True, timeout=300)  # fmt: skip
    (built,) = dist.glob("game2048-*.whl")
    return built


@pytest.fixture(scope="session")
def installed(wheel, tmp_path_factory):
    """A new virtual environment holding the wheel and its dependencies (pip's cache has them): its bin folder."""
    environment = tmp_path_factory.mktemp("venv")
    venv.create(environment, with_pip=True)
    subprocess.run([environment / "bin" / "python", "-m", "pip", "install", "-q", "--disable-pip-version-check",
                    wheel], check=True, timeout=900)  # fmt: skip
    return environment / "bin"


@pytest.fixture(scope="session")
def built_image(installed, tmp_path_factory):
    """The image as it runs here: its WORKDIR, rebuilt from the COPY instructions of its stage, and
    the app installed from its wheel. Running from here, not from the checkout, proves the image
    holds everything the app needs; the tree is compared before/after to prove the app never writes to it.
    """
    root = tmp_path_factory.mktemp("image") / dockerfile.workdir().strip("/")
    root.mkdir(parents=True)
    for sources, destination in dockerfile.copies():
        dest = root / destination
        into_folder = destination.endswith("/") or destination in (".", "./") or len(sources) > 1
        for source in sources:
            src = dockerfile.PROJECT_ROOT / source
            if src.is_dir():  # like Docker: the folder's contents, not the folder itself
                shutil.copytree(src, dest, ignore=IGNORED, dirs_exist_ok=True)
            elif into_folder:
                dest.mkdir(parents=True, exist_ok=True)
                shutil.copy2(src, dest / src.name)
            else:
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(src, dest)
    return Image(root, installed)


def snapshot(root):
    """Every path under root with its size and mtime."""
    return {
        str(p.relative_to(root)): (p.stat().st_size, p.stat().st_mtime_ns)
        for p in Path(root).rglob("*")
    }

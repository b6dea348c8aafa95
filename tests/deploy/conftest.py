"""Fixtures that run what the Docker image runs, from a copy of what the image copies."""

import shutil
from pathlib import Path

import pytest

from tests.support import dockerfile

IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc", "*.pyo")


@pytest.fixture(scope="session")
def image_root(tmp_path_factory):
    """The image's WORKDIR, rebuilt from the Dockerfile's COPY instructions.

    Running from here (not from the checkout) proves the image copies everything the
    app needs; the tree is compared before/after to prove the app never writes to it.
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
    return root


def snapshot(root):
    """Every path under root with its size and mtime."""
    return {
        str(p.relative_to(root)): (p.stat().st_size, p.stat().st_mtime_ns)
        for p in Path(root).rglob("*")
    }

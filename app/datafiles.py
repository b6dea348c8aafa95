"""The data folder is the host's alone: it holds the server's key, today's seed (the records' database
keeps each day's, the SHA-256 of which is the day's public commitment) and every player's game.

So the folder is 0700 and every file the app or its commands write there is 0600, whatever the
umask: each file is made with that mode before anything opens it (SQLite gives its journals the mode
of their database), and at start, once the solver's machine code is compiled (numba writes its cache
with the umask), the folder and everything in it are tightened. A backup the host writes elsewhere
holds every seed too, so it is made 0600 as well.
"""

import logging
import os
import stat
from pathlib import Path

log = logging.getLogger(__name__)

FOLDER_MODE, FILE_MODE = 0o700, 0o600


def make_folder(folder) -> None:
    """The data folder, made 0700 if it is missing."""
    os.makedirs(folder, mode=FOLDER_MODE, exist_ok=True)


def tighten(folder) -> None:
    """``folder`` and every folder in it 0700, every file 0600 (links are left as they are). One that
    cannot be changed (another user's) is named in a warning: the app runs on."""
    _chmod(Path(folder), FOLDER_MODE)
    for parent, folders, files in os.walk(folder):
        for name in folders:
            _chmod(Path(parent, name), FOLDER_MODE)
        for name in files:
            _chmod(Path(parent, name), FILE_MODE)


def _chmod(path, mode):
    try:
        if not path.is_symlink():
            path.chmod(mode)
    except FileNotFoundError:
        pass  # gone meanwhile (a worker's temporary file)
    except OSError as error:
        log.warning("%s could not be made private to the data folder's user: %s", path, error.strerror or error)


def make_file(path) -> None:
    """The file at ``path``, made empty and 0600 if it is missing: before SQLite makes a database there
    (with its default mode, and its journals with the database's). One that is there is left as it is
    (``tighten`` saw to it at start)."""
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC, FILE_MODE))


def open_for_writing(path):
    """``path`` opened to be written anew as UTF-8 text, 0600 if it is a file (a backup holds every
    seed); a device (/dev/stdout) keeps its mode."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, FILE_MODE)
    try:
        if stat.S_ISREG(os.fstat(fd).st_mode):
            os.fchmod(fd, FILE_MODE)
        return os.fdopen(fd, "w", encoding="utf-8")
    except BaseException:
        os.close(fd)
        raise

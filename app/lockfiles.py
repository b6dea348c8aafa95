"""flock()ed lock files: the kernel lets go of one the moment the process holding it dies.

The embedded store locks sessions with them, and the hints lock the machine's one solver
slot with one. A folder that cannot hold a lock file is a fault of the one that asked (503), never a 500.
"""

import fcntl
import os
from contextlib import contextmanager
from pathlib import Path

OPEN_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC


def open_lock_file(path: Path, fault, folder_mode=None) -> int:
    """The lock file at ``path``, made if it is not there; with ``folder_mode``, its folder too (with
    that mode) the first time. A bare file descriptor: nothing is ever written to it, and a session
    opens one on every request, where open()'s file object costs more system calls than the lock. A
    folder that cannot hold it raises ``fault`` (an app.faults class: the store's, or the solver's)."""
    try:
        try:
            return os.open(path, OPEN_FLAGS, 0o600)
        except FileNotFoundError:
            if folder_mode is None:
                raise
            path.parent.mkdir(mode=folder_mode, exist_ok=True)
            return os.open(path, OPEN_FLAGS, 0o600)
    except OSError as error:
        raise fault(f"cannot open the lock file {path}: {error}") from error


@contextmanager
def closing_fd(fd: int):
    """``fd`` for a ``with`` block, closed at its end, which lets go of its lock."""
    try:
        yield fd
    finally:
        os.close(fd)


def try_flock(file, shared=False) -> bool:
    """Take ``file``'s lock (exclusive, or ``shared`` with other shared holders) if it is free, without waiting."""
    try:
        fcntl.flock(file, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False

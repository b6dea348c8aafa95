"""flock()ed lock files: the kernel lets go of one the moment the process holding it dies.

The embedded store locks sessions with them, and the hints lock the machine's one solver
slot with one. A folder that cannot hold a lock file is a fault of the one that asked (503), never a 500.
"""

import fcntl
from pathlib import Path


def open_lock_file(path: Path, fault, folder_mode=None):
    """The lock file at ``path``, made if it is not there; with ``folder_mode``, its folder too (with
    that mode) the first time. Unbuffered: nothing is ever written to it. A folder that cannot hold
    it raises ``fault`` (an app.faults class: the store's, or the solver's)."""
    try:
        try:
            return open(path, "ab", buffering=0)
        except FileNotFoundError:
            if folder_mode is None:
                raise
            path.parent.mkdir(mode=folder_mode, exist_ok=True)
            return open(path, "ab", buffering=0)
    except OSError as error:
        raise fault(f"cannot open the lock file {path}: {error}") from error


def try_flock(file, shared=False) -> bool:
    """Take ``file``'s lock (exclusive, or ``shared`` with other shared holders) if it is free, without waiting."""
    try:
        fcntl.flock(file, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False

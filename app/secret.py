"""The secret key every worker and every restart must agree on."""

import os
import secrets

FILE_NAME = "secret_key"


def load_or_create(instance_path):
    """Read the instance folder's key, creating it (mode 600) exactly once.

    The key is written to a private temporary file and hard-linked into place, which
    fails if another worker got there first; then that worker's key is read instead.
    """
    path = os.path.join(instance_path, FILE_NAME)
    try:
        return _read(path)
    except FileNotFoundError:
        pass
    tmp = f"{path}.{os.getpid()}.{secrets.token_hex(4)}"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_hex(32))
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass
    finally:
        os.unlink(tmp)
    return _read(path)


def _read(path):
    with open(path) as f:
        key = f.read().strip()
    if len(key) < 32:
        raise RuntimeError(f"{path} holds no usable secret key; delete it to make a new one")
    return key

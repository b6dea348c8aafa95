"""compose.yaml as compose reads it: PyYAML, then podman-compose's ${VARIABLE} interpolation.

podman-compose implements the compose specification's rules (a set but empty variable is kept
by ${NAME-default}, ``$$`` is a dollar sign, ${NAME?error} refuses to start without NAME).
"""

import yaml
from podman_compose import rec_subs

from tests.support.servers import PROJECT_ROOT

COMPOSE = PROJECT_ROOT / "compose.yaml"
NGINX_CONF = PROJECT_ROOT / "deploy" / "nginx.conf"


def load(variables, path=COMPOSE):
    """The file with its variables set from ``variables`` only (not this process's environment).

    ValueError when a variable the file requires is missing, as compose refuses to start.
    """
    with open(path) as f:
        return rec_subs(yaml.safe_load(f), variables)


def environment(service):
    """A service's environment as a dict (compose allows a mapping or KEY=VALUE list)."""
    env = service.get("environment") or {}
    if isinstance(env, list):
        env = dict(item.partition("=")[::2] for item in env)
    return {k: "" if v is None else str(v) for k, v in env.items()}

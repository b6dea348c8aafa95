"""compose.yaml, read with PyYAML, and its ${VARIABLE} interpolation.

The interpolation is compose's own rules (a set but empty variable is kept by ${NAME-default},
``$$`` is not a variable); expandvars, the library for shell-style expansion, differs on both.
"""

import re

import yaml

from bench.servers import PROJECT_ROOT

COMPOSE = PROJECT_ROOT / "compose.yaml"
NGINX_CONF = PROJECT_ROOT / "deploy" / "nginx.conf"
_VARIABLE = re.compile(r"\$\{(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?:(?P<op>:?[-?])(?P<arg>[^}]*))?\}")


def load(path=COMPOSE):
    with open(path) as f:
        return yaml.safe_load(f)


def environment(service):
    """A service's environment as a dict (compose allows a mapping or KEY=VALUE list)."""
    env = service.get("environment") or {}
    if isinstance(env, list):
        env = dict(item.partition("=")[::2] for item in env)
    return {k: "" if v is None else str(v) for k, v in env.items()}


class MissingVariable(Exception):
    pass


def interpolate(value, variables):
    """Compose's ${NAME}, ${NAME:-default}, ${NAME-default}, ${NAME:?error}, ${NAME?error}."""

    def replace(match):
        name, op, arg = match["name"], match["op"], match["arg"]
        present = name in variables
        value = variables.get(name, "")
        if op in (":-", ":?"):
            present = present and value != ""
        if present:
            return value
        if op in (":?", "?"):
            raise MissingVariable(f"{name}: {arg}")
        return arg if op in (":-", "-") else ""

    return _VARIABLE.sub(replace, value)

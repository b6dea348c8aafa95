"""compose's scale-out setup run on loopback: Redis, replicas configured like compose's app service,
and deploy/nginx.conf in front of them, run by a real nginx.

A stand-in for Docker's DNS answers "app" with 127.0.0.1, and the replicas listen on the
same 127.0.0.1 port (gunicorn --reuse-port), so that the kernel spreads nginx's connections
over them, as Docker's DNS answers spread them over the replicas' addresses.
"""

import re
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass

from tests.support import compose, image
from tests.support.dns import FakeDns
from tests.support.servers import LOOPBACK, free_port, nginx_proxy, redis_server

# What a host sets for compose (in .env): both passwords are required.
VARIABLES = {"POSTGRES_PASSWORD": "stand-in", "REDIS_PASSWORD": "standin0redis0password", "SECRET_KEY": "stand-in"}


def site_conf(dns_port, proxy_port, app_port):
    """deploy/nginx.conf with Docker's DNS, port 8080 and app:8000 moved to loopback ports, and its
    access log in nginx's own folder (access.log, beside the one tests/support/servers.py keeps)."""
    text = compose.NGINX_CONF.read_text()
    for pattern, replacement in (
        (r"resolver 127\.0\.0\.11\b", f"resolver 127.0.0.1:{dns_port}"),
        (r"listen 8080\b", f"listen 127.0.0.1:{proxy_port}"),
        (r"http://app:8000\b", f"http://app:{app_port}"),
        (r"/var/log/nginx/access\.log\b", "requests.log"),
    ):
        text, count = re.subn(pattern, replacement, text)
        assert count == 1, f"deploy/nginx.conf should have exactly one {pattern!r}"
    return text


def compose_app_env(redis_port):
    """The app service's environment from compose.yaml, its other variables left to their defaults.

    Redis is the one started here, with VARIABLES' password: the URL is compose's, password and
    all, with only its host moved. The records' PostgreSQL is not started, so each replica keeps
    its records in its own SQLite file (these setups play games, not records).
    """
    env = compose.environment(compose.load(VARIABLES)["services"]["app"])
    env["FLASK_REDIS_URL"], moved = re.subn(r"@redis:6379/", f"@{LOOPBACK}:{redis_port}/", env["FLASK_REDIS_URL"])
    assert moved == 1, env["FLASK_REDIS_URL"]
    database, password = env.pop("FLASK_SQLALCHEMY_DATABASE_URI"), env.pop("PGPASSWORD")
    assert database.startswith("postgresql") and password
    return env


@dataclass
class ProxiedApp:
    """What replicas_behind_nginx started: the app's environment, its servers and its proxy."""

    env: dict
    dns: FakeDns
    replicas: list
    proxy: object
    app_port: int
    url: str


@contextmanager
def replicas_behind_nginx(built_image, tmp_path, names, gunicorn_args="", **extra_env):
    """Replicas configured like compose's app service (and ``extra_env``), sharing a Redis, behind
    deploy/nginx.conf."""
    app_port, proxy_port = free_port(), free_port()
    with ExitStack() as stack:
        redis = stack.enter_context(redis_server(password=VARIABLES["REDIS_PASSWORD"]))
        dns = stack.enter_context(FakeDns({"app": ["127.0.0.1"]}))
        env = compose_app_env(redis.port) | extra_env
        replicas = [
            stack.enter_context(image.server(built_image, tmp_path / name, port=app_port,
                                             gunicorn_args=gunicorn_args, **env))
            for name in names
        ]
        proxy = stack.enter_context(nginx_proxy(site_conf(dns.port, proxy_port, app_port), proxy_port))
        yield ProxiedApp(env, dns, replicas, proxy, app_port, f"http://127.0.0.1:{proxy_port}")

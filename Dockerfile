# Self-hosted 2048: `docker run -p 8000:8000 -v game2048:/data IMAGE`
# The same image scales out behind a load balancer with Redis (see compose.yaml).

# The package built as a wheel, as `pip install .` builds it: templates, static files, compiled
# catalogs and migrations go inside it, so the image installs the app, not a copy of the checkout.
FROM python:3.12-slim AS build
WORKDIR /src
COPY pyproject.toml README.md ./
COPY app/ app/
COPY templates/ templates/
COPY static/ static/
RUN pip wheel --no-cache-dir --no-deps --wheel-dir /wheels .

FROM python:3.12-slim

# The version is pyproject.toml's (a test keeps them equal).
LABEL org.opencontainers.image.title="game2048" \
      org.opencontainers.image.description="Self-hostable 2048 (Flask + gunicorn)" \
      org.opencontainers.image.version="0.2.0"

# No .pyc files (the root filesystem may be read-only), unbuffered logs,
# the instance folder (embedded session store, records, the secret key) in the /data volume,
# numba's cache of the solver's machine code in it too (it must be writable),
# and gunicorn's worker count (gunicorn reads WEB_CONCURRENCY itself).
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_ROOT_USER_ACTION=ignore \
    FLASK_INSTANCE_PATH=/data \
    NUMBA_CACHE_DIR=/data/numba-cache \
    WEB_CONCURRENCY=2

WORKDIR /app

# Dependencies only, in their own cached layer: it is rebuilt when they change, not when the code does.
# requirements.lock pins every package to one version and its files to their hashes, so two builds
# of one commit install the same files, on amd64 and arm64 alike, and only as wheels (the slim
# image has no compiler); docs/deployment.md says how to refresh it. pyproject.toml's dependencies
# must then be met by what was installed, with no index to fall back on: a lock older than
# pyproject.toml stops the build here rather than ship an app without what it declares.
# Without byte-code (compiled below, for the modules the app imports) and without the
# packages' own test suites: together about 70 MB that a worker never reads.
COPY pyproject.toml requirements.lock ./
RUN pip install --no-cache-dir --no-compile --only-binary=:all: --require-hashes -r requirements.lock \
    && python -c "import tomllib; deps = tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']; open('/tmp/requirements.txt', 'w').write('\n'.join(deps))" \
    && pip install --no-cache-dir --no-index -q -r /tmp/requirements.txt \
    && rm /tmp/requirements.txt \
    && find "$(python -c 'import sysconfig; print(sysconfig.get_path("purelib"))')" -depth -type d -name tests -exec rm -rf {} +

# A numeric, unprivileged user that owns nothing but the /data volume.
RUN groupadd --gid 10001 app \
    && useradd --no-log-init --uid 10001 --gid 10001 --home-dir /nonexistent --shell /usr/sbin/nologin app \
    && mkdir /data \
    && chown 10001:10001 /data \
    && chmod 700 /data

# The app, from its wheel: owned by root and read-only for the app's user.
COPY --from=build /wheels /tmp/wheels
RUN pip install --no-cache-dir --no-compile --no-deps /tmp/wheels/*.whl && rm -rf /tmp/wheels
# gunicorn reads it from here: it brings the records' schema up to date before the workers start.
COPY gunicorn.conf.py ./

# Byte-code for every module the app imports, written now: at run time the root
# filesystem may be read-only, and PYTHONDONTWRITEBYTECODE keeps workers from trying.
# (numba's cache folder is made by the app's user below, so root's import uses another.)
RUN env -u PYTHONDONTWRITEBYTECODE NUMBA_CACHE_DIR=/tmp/numba-cache python -c "import app" \
    && rm -rf /tmp/numba-cache

USER 10001:10001

# Compile the solver now: a new named volume starts with this cache, so workers only load it.
# An empty /data (compose's tmpfs, a bind mount) makes each worker compile before it takes
# requests instead (docs/deployment.md says how long each takes).
RUN python -c "from app import hints; hints.warm_up()"

VOLUME ["/data"]
EXPOSE 8000

# Healthy means ready to serve players (/readyz: the session store, the records and the instance
# folder answer), which is what compose waits for before it starts the proxy. Slim images have no
# curl: ask with the standard library (any error or non-2xx exits 1).
HEALTHCHECK --interval=30s --timeout=5s --start-period=15s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/readyz', timeout=4)"]

# gunicorn faces the network here, with no proxy in front: gunicorn.conf.py gives it app/worker.py's
# BufferingWorker, which reads each request whole (within 10 s and 192 KiB) and sends each answer
# from an event loop before and after the app runs, so clients that send slowly, stall or read slowly hold no worker.
# Measured against the alternatives (bench.slow_clients, docs/benchmarks.md): the sync workers stop
# serving with 2 slow clients; gthread only while its threads outnumber them (a thread per slow
# client, for as long as the client likes); tornado's worker reads whole requests too but answers
# malformed ones without the API's JSON and costs more per request. gevent was left out: monkey-
# patching changes what the solver, SQLite and the lock files see. nginx inside the image would
# leave the README's command unprotected and need a second process kept alive beside gunicorn.
# gunicorn as PID 1: SIGTERM stops accepting, lets running requests finish for up to 5 s, then exits.
# Heartbeat files in /dev/shm and no control socket, so a read-only root filesystem works.
# Extra gunicorn options can be given at run time in GUNICORN_CMD_ARGS.
CMD ["gunicorn", "--bind", "0.0.0.0:8000", "--worker-tmp-dir", "/dev/shm", "--graceful-timeout", "5", "--no-control-socket", "app:create_app()"]

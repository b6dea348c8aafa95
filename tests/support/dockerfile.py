"""The Dockerfile, read with dockerfile-parse: what the image runs, to run it outside Docker."""

import json
import shlex
from fnmatch import fnmatch
from functools import cache

from dockerfile_parse import DockerfileParser

from tests.support.servers import PROJECT_ROOT

DOCKERFILE = PROJECT_ROOT / "Dockerfile"


@cache
def _parsed(path):
    return DockerfileParser(str(path), cache_content=True)


def instructions(path=DOCKERFILE):
    """The instructions in order (dicts with "instruction" upper case and "value"), comments dropped."""
    return [step for step in _parsed(path).structure if step["instruction"] != "COMMENT"]


def labels(path=DOCKERFILE):
    """The image's labels (LABEL), as a dict."""
    return _parsed(path).labels


def final_stage(path=DOCKERFILE):
    """The instructions of the stage that makes the image: from its FROM on (earlier stages build for it)."""
    steps = instructions(path)
    start = max(index for index, step in enumerate(steps) if step["instruction"] == "FROM")
    return steps[start:]


def only(keyword, path=DOCKERFILE):
    """The value of the single effective instruction of the image's stage (the last one, as Docker does)."""
    found = [step["value"] for step in final_stage(path) if step["instruction"] == keyword]
    assert found, f"no {keyword} in {path}"
    return found[-1]


def exec_form(text):
    """A JSON exec-form array, e.g. CMD ["gunicorn", ...]; AssertionError for shell form."""
    try:
        argv = json.loads(text)
    except ValueError:
        raise AssertionError(f"not exec form (JSON array): {text}") from None
    assert isinstance(argv, list) and argv and all(isinstance(a, str) for a in argv), text
    return argv


def cmd(path=DOCKERFILE):
    return exec_form(only("CMD", path))


def healthcheck(path=DOCKERFILE):
    """(options, argv) of HEALTHCHECK [--opt=value ...] CMD [...]."""
    options, _, array = only("HEALTHCHECK", path).partition(" CMD ")
    assert array, "HEALTHCHECK must run CMD [...]"
    pairs = (option[2:].partition("=") for option in options.split())
    return {name: value for name, _, value in pairs}, exec_form(array.strip())


def env(path=DOCKERFILE):
    """ENV key=value pairs, later ones winning."""
    return dict(_parsed(path).envs)


def _sources_and_destination(step):
    words = [w for w in shlex.split(step["value"]) if not w.startswith("--")]
    return words[:-1], words[-1]


def copies(path=DOCKERFILE):
    """(sources, destination) of each COPY of the image's stage from the build context, in order."""
    return [
        _sources_and_destination(step)
        for step in final_stage(path)
        if step["instruction"] == "COPY" and "--from=" not in step["value"]
    ]


def copied(step, context):
    """The files of the build ``context`` (paths relative to it) that a COPY step reads; none for other steps."""
    if step["instruction"] != "COPY" or "--from=" in step["value"]:
        return set()
    files = set()
    for source in _sources_and_destination(step)[0]:
        source = source.removeprefix("./").rstrip("/")
        files |= {p for p in context if source in (".", "") or p == source or p.startswith(source + "/")
                  or fnmatch(p, source)}
    return files


def workdir(path=DOCKERFILE):
    return only("WORKDIR", path)

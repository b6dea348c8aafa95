"""The Dockerfile, read with dockerfile-parse: what the image runs, to run it outside Docker."""

import json
import shlex
from functools import cache

from dockerfile_parse import DockerfileParser

from bench.servers import PROJECT_ROOT

DOCKERFILE = PROJECT_ROOT / "Dockerfile"


@cache
def _parsed(path):
    return DockerfileParser(str(path), cache_content=True)


def instructions(path=DOCKERFILE):
    """The instructions in order (dicts with "instruction" upper case and "value"), comments dropped."""
    return [step for step in _parsed(path).structure if step["instruction"] != "COMMENT"]


def only(keyword, path=DOCKERFILE):
    """The value of the single effective instruction (the last one, as Docker does)."""
    found = [step["value"] for step in instructions(path) if step["instruction"] == keyword]
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


def copies(path=DOCKERFILE):
    """(sources, destination) of each COPY from the build context, in order."""
    result = []
    for step in instructions(path):
        if step["instruction"] == "COPY":
            words = [w for w in shlex.split(step["value"]) if not w.startswith("--")]
            result.append((words[:-1], words[-1]))
    return result


def workdir(path=DOCKERFILE):
    return only("WORKDIR", path)

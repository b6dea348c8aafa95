"""Just enough of a Dockerfile parser to run what the image runs, outside Docker."""

import json
import shlex
from dataclasses import dataclass
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = PROJECT_ROOT / "Dockerfile"


@dataclass
class Instruction:
    keyword: str  # upper case: FROM, RUN, CMD, ...
    rest: str  # everything after the keyword, continuation lines joined
    line: int


def instructions(path=DOCKERFILE):
    """The instructions in order: comments dropped, backslash continuations joined."""
    result, pending, start = [], "", 0
    for number, raw in enumerate(Path(path).read_text().splitlines(), 1):
        stripped = raw.strip()
        if stripped.startswith("#") or (not stripped and not pending):
            continue
        if not pending:
            start = number
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        pending += stripped
        keyword, _, rest = pending.partition(" ")
        result.append(Instruction(keyword.upper(), rest.strip(), start))
        pending = ""
    return result


def only(keyword, path=DOCKERFILE):
    """The single effective instruction (the last one, as Docker does)."""
    found = [i for i in instructions(path) if i.keyword == keyword]
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
    return exec_form(only("CMD", path).rest)


def healthcheck(path=DOCKERFILE):
    """(options, argv) of HEALTHCHECK [--opt=value ...] CMD [...]."""
    rest = only("HEALTHCHECK", path).rest
    options = {}
    while rest.startswith("--"):
        option, _, rest = rest.partition(" ")
        name, _, value = option[2:].partition("=")
        options[name] = value
        rest = rest.lstrip()
    keyword, _, array = rest.partition(" ")
    assert keyword.upper() == "CMD", f"HEALTHCHECK must run CMD [...], got {rest}"
    return options, exec_form(array.strip())


def env(path=DOCKERFILE):
    """ENV key=value pairs, later ones winning."""
    values = {}
    for instruction in instructions(path):
        if instruction.keyword != "ENV":
            continue
        words = shlex.split(instruction.rest)
        if words and "=" not in words[0]:  # legacy "ENV KEY value"
            values[words[0]] = " ".join(words[1:])
            continue
        for word in words:
            key, _, value = word.partition("=")
            values[key] = value
    return values


def copies(path=DOCKERFILE):
    """(sources, destination) of each COPY from the build context, in order."""
    result = []
    for instruction in instructions(path):
        if instruction.keyword != "COPY":
            continue
        words = [w for w in shlex.split(instruction.rest) if not w.startswith("--")]
        result.append((words[:-1], words[-1]))
    return result


def workdir(path=DOCKERFILE):
    return only("WORKDIR", path).rest

"""The locks read as pip reads them (requirements.lock, the image's; requirements-test.lock, the
tests'): each pin with its environment marker, its hashes and what needs it (uv's "# via" lines),
and the pins one target platform installs."""

import re
import shlex
from dataclasses import dataclass

from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.support.servers import PROJECT_ROOT

LOCK = PROJECT_ROOT / "requirements.lock"
TEST_LOCK = PROJECT_ROOT / "requirements-test.lock"
REFRESH = PROJECT_ROOT / "scripts" / "lock"  # the one command that writes both
# Who needs a pin: a pinned package, or this project itself (its pyproject.toml).
PROJECT = "game2048 (pyproject.toml)"


@dataclass(frozen=True)
class Pin:
    name: str
    version: str
    marker: Marker | None
    hashes: tuple[str, ...]
    needed_by: tuple[str, ...]

    def applies(self, environment):
        return self.marker is None or self.marker.evaluate(environment)

    def line(self):
        """The pin as a requirements line without its marker, hashes kept (pip checks them)."""
        return " ".join([f"{self.name}=={self.version}", *(f"--hash={h}" for h in self.hashes)])


def header_command(text=None):
    """The command that wrote a lock (requirements.lock unless its ``text`` is given), as its header
    records it (uv writes it on the second line)."""
    text = LOCK.read_text() if text is None else text
    match = re.search(r"^#\s+(uv pip compile .*)$", text, re.MULTILINE)
    assert match, "the lock's header names the command that wrote it"
    return shlex.split(match[1])


def pins(text=None):
    """Every pin of the lock, in order."""
    text = LOCK.read_text() if text is None else text
    entries, current = [], None
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        if not line[0].isspace() and not stripped.startswith("#"):
            current = {"spec": stripped.removesuffix("\\").strip(), "hashes": [], "via": []}
            entries.append(current)
        elif current is None:
            continue  # the header
        elif stripped.startswith("--hash="):
            current["hashes"].append(stripped.removeprefix("--hash=").removesuffix("\\").strip())
        elif stripped.startswith("#"):
            words = stripped.lstrip("#").strip()
            if words.startswith("via"):
                words = words.removeprefix("via").strip()
            if words:
                current["via"].append(words if words == PROJECT else canonicalize_name(words))
    found = []
    for entry in entries:
        requirement = Requirement(entry["spec"])
        (specifier,) = requirement.specifier
        assert specifier.operator == "==", f"not pinned: {entry['spec']}"
        found.append(Pin(canonicalize_name(requirement.name), specifier.version, requirement.marker,
                         tuple(entry["hashes"]), tuple(entry["via"])))  # fmt: skip
    return found


def linux_environment(python="3.12", machine="x86_64"):
    """The marker environment of CPython ``python`` on Linux for ``machine`` (as the image's Python sees it)."""
    return {
        "implementation_name": "cpython",
        "implementation_version": f"{python}.0",
        "os_name": "posix",
        "platform_machine": machine,
        "platform_python_implementation": "CPython",
        "platform_release": "",
        "platform_system": "Linux",
        "platform_version": "",
        "python_full_version": f"{python}.0",
        "python_version": python,
        "sys_platform": "linux",
    }


def installed_on(environment, text=None):
    """The pins pip installs from the lock in ``environment``: one version of each package."""
    chosen = [pin for pin in pins(text) if pin.applies(environment)]
    names = [pin.name for pin in chosen]
    assert len(names) == len(set(names)), f"two versions of one package: {sorted(names)}"
    return chosen

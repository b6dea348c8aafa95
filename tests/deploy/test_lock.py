"""requirements.lock, what the image installs: current with pyproject.toml, nothing more, every file
checked against its hash, so two builds of one commit install the same versions."""

import re
import shlex
import shutil
import subprocess
import tomllib
from collections import defaultdict
from importlib import metadata

import pytest
from docker.utils.build import exclude_paths
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name

from tests.support import dockerfile
from tests.support.lockfile import LOCK, PROJECT, REFRESH, TEST_LOCK, header_command, pins
from tests.support.servers import PROJECT_ROOT

PYPROJECT = PROJECT_ROOT / "pyproject.toml"
DOCS = PROJECT_ROOT / "docs" / "deployment.md"


def project():
    return tomllib.loads(PYPROJECT.read_text())["project"]


def declared():
    return [Requirement(text) for text in project()["dependencies"]]


def by_name():
    found = defaultdict(list)
    for pin in pins():
        found[pin.name].append(pin)
    return found


def test_every_declared_dependency_is_pinned_to_a_version_it_allows():
    pinned = by_name()
    for requirement in declared():
        name = canonicalize_name(requirement.name)
        assert name in pinned, f"{requirement} is missing from the lock: refresh it (docs/deployment.md)"
        for pin in pinned[name]:
            assert requirement.specifier.contains(pin.version, prereleases=True), (str(requirement), pin.version)
            assert PROJECT in pin.needed_by, f"{name}: the lock does not know pyproject.toml asks for it"


def test_the_extras_asked_for_are_pinned():
    """redis[hiredis]: the packages an extra adds, as the installed distribution names them."""
    pinned = by_name()
    for requirement in declared():
        for extra in requirement.extras:
            added = [Requirement(text) for text in metadata.requires(requirement.name) or []]
            wanted = [r for r in added if r.marker and r.marker.evaluate({"extra": extra})]
            assert wanted, f"{requirement.name}[{extra}] adds nothing here"
            for dependency in wanted:
                assert canonicalize_name(dependency.name) in pinned, f"{requirement}: {dependency.name} is not pinned"


def test_nothing_is_pinned_that_nothing_needs():
    """Every pin is needed by pyproject.toml or by another pin, and the chain reaches pyproject.toml."""
    pinned = by_name()
    direct = {canonicalize_name(requirement.name) for requirement in declared()}
    needs = defaultdict(set)  # who -> what it needs
    for pin in pins():
        assert pin.needed_by, f"{pin.name}: nothing needs it"
        for who in pin.needed_by:
            assert who == PROJECT or who in pinned, f"{pin.name} is needed by {who}, which is not pinned"
            needs[who].add(pin.name)
        if PROJECT in pin.needed_by:
            assert pin.name in direct, f"{pin.name}: the lock says pyproject.toml asks for it, and it does not"
    reached, todo = set(), [PROJECT]
    while todo:
        for name in needs[todo.pop()] - reached:
            reached.add(name)
            todo.append(name)
    assert set(pinned) == reached, f"needed by nothing pyproject.toml needs: {sorted(set(pinned) - reached)}"


def test_every_pin_carries_the_hashes_of_its_files():
    for pin in pins():
        assert pin.hashes, f"{pin.name}: no hashes, and the image installs with --require-hashes"
        assert all(re.fullmatch(r"sha256:[0-9a-f]{64}", h) for h in pin.hashes), pin.name


def test_the_lock_was_written_by_the_documented_command_for_every_supported_python():
    """One command refreshes it, scripts/lock, which docs/deployment.md shows; it resolves for every
    platform (--universal) from the oldest Python pyproject.toml allows (3.12 in the image)."""
    command = header_command()
    assert command[:3] == ["uv", "pip", "compile"] and "pyproject.toml" in command
    assert "--universal" in command and "--generate-hashes" in command
    assert command[command.index("-o") + 1] == LOCK.name
    (floor,) = [s.version for s in SpecifierSet(project()["requires-python"]) if s.operator == ">="]
    assert command[command.index("--python-version") + 1] == floor
    assert shlex.join(command) in REFRESH.read_text().splitlines()
    assert "scripts/lock" in DOCS.read_text(), "docs/deployment.md shows the command that refreshes the locks"


def test_the_tests_install_the_test_extra_at_pinned_versions_and_the_app_at_the_images():
    """scripts/test installs with requirements-test.lock as constraints, written by the same
    scripts/lock from requirements.lock: a green run today is a green run next month."""
    command = header_command(TEST_LOCK.read_text())
    assert shlex.join(command) in REFRESH.read_text().splitlines()
    assert command[command.index("--extra") : command.index("--extra") + 2] == ["--extra", "test"]
    assert command[command.index("--constraint") + 1] == LOCK.name
    installs = [line for line in (PROJECT_ROOT / "scripts" / "test").read_text().splitlines() if "pip install" in line]
    assert installs and all(f"-c {TEST_LOCK.name}" in line for line in installs)
    tested = {(pin.name, pin.version, str(pin.marker)) for pin in pins(TEST_LOCK.read_text())}
    assert {(pin.name, pin.version, str(pin.marker)) for pin in pins()} <= tested, "the app tested as the image has it"
    pinned = defaultdict(list)
    for pin in pins(TEST_LOCK.read_text()):
        pinned[pin.name].append(pin.version)
    for requirement in map(Requirement, project()["optional-dependencies"]["test"]):
        versions = pinned.get(canonicalize_name(requirement.name))
        assert versions, f"{requirement} is not in {TEST_LOCK.name}: run scripts/lock"
        assert all(requirement.specifier.contains(v, prereleases=True) for v in versions), (str(requirement), versions)


def test_the_image_installs_the_lock_and_nothing_from_an_index_besides():
    steps = dockerfile.final_stage()
    runs = [step["value"] for step in steps if step["instruction"] == "RUN"]
    installs = [shlex.split(command) for run in runs for command in run.split("&&") if "pip install" in command]
    locked = [argv for argv in installs if LOCK.name in argv]
    assert len(locked) == 1, "the image installs its dependencies from the lock, once"
    (argv,) = locked
    assert argv[argv.index(LOCK.name) - 1] in ("-r", "--requirement")
    assert "--require-hashes" in argv, "each file checked against the lock's hashes"
    assert "--only-binary=:all:" in argv, "wheels only: the slim image has no compiler"
    for other in installs:
        if other is not argv:
            assert {"--no-deps", "--no-index"} & set(other), f"would fetch what the lock does not pin: {other}"
    # The lock is in the build context and copied before that step.
    context = exclude_paths(str(PROJECT_ROOT), [line.strip() for line in
                            (PROJECT_ROOT / ".dockerignore").read_text().splitlines()
                            if line.strip() and not line.startswith("#")])  # fmt: skip
    install = next(i for i, step in enumerate(steps) if step["instruction"] == "RUN" and LOCK.name in step["value"])
    copied = {path for step in steps[:install] for path in dockerfile.copied(step, context)}
    assert LOCK.name in copied, "requirements.lock must reach the image before it installs from it"


@pytest.mark.slow
def test_recompiling_gives_the_same_locks(tmp_path):
    """scripts/lock, run again on copies of pyproject.toml and the locks (uv keeps the pins a lock has
    while they still fit, as a refresh does), pins the same versions with the same hashes: a
    dependency added, removed or narrowed in pyproject.toml without a refresh fails here. Needs PyPI."""
    assert shutil.which("uv"), "uv is missing: pip install uv (the test extra has it)"
    (tmp_path / "scripts").mkdir()
    for name in ("pyproject.toml", LOCK.name, TEST_LOCK.name, "scripts/lock"):
        shutil.copy2(PROJECT_ROOT / name, tmp_path / name)
    result = subprocess.run([str(tmp_path / "scripts" / "lock")], cwd=tmp_path, capture_output=True, text=True,
                            timeout=600, check=False)  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]

    def substance(text):
        return {(p.name, p.version, str(p.marker)): (set(p.hashes), set(p.needed_by)) for p in pins(text)}

    for lock in (LOCK, TEST_LOCK):
        fresh, committed = substance((tmp_path / lock.name).read_text()), substance(lock.read_text())
        assert fresh.keys() == committed.keys(), (
            f"refresh {lock.name} (scripts/lock): now {sorted(fresh.keys() - committed.keys())}, "
            f"was {sorted(committed.keys() - fresh.keys())}"
        )
        changed = [pin for pin in fresh if fresh[pin] != committed[pin]]
        assert not changed, f"{lock.name}: hashes or what needs them changed, run scripts/lock: {changed}"

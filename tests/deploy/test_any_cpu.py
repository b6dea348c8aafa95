"""The image builds for linux/amd64 and linux/arm64 alike: no step of the Dockerfile is tied to one
processor, and every package the lock pins for the image's Python has a wheel for both."""

import re
import subprocess
import sys

import pytest

from tests.support import dockerfile
from tests.support.lockfile import installed_on, linux_environment

# The image's Python (its FROM tag; test_config checks it against requires-python).
PYTHON = re.fullmatch(r"(?:docker\.io/(?:library/)?)?python:(\d+\.\d+)[\w.-]*", dockerfile.only("FROM"))[1]
MACHINES = {"linux/amd64": "x86_64", "linux/arm64": "aarch64"}
# The C library the wheels may need at most: Debian bookworm's (2.36), the oldest the slim Python
# images are built on now, down to manylinux2014 (2.17), the oldest tag arm64 wheels have.
GLIBC = (2, 36)
ARCHITECTURES = re.compile(r"(?<![\w-])(amd64|x86[_-]64|x64|aarch64|arm64|armv\d\w*|armhf|arm/v\d|i[36]86|"
                           r"ppc64le|s390x|riscv64)(?![\w-])", re.IGNORECASE)  # fmt: skip


def platform_tags(machine):
    return ["manylinux2014_" + machine] + [f"manylinux_2_{minor}_{machine}" for minor in range(17, GLIBC[1] + 1)]


def test_no_step_of_the_dockerfile_is_tied_to_one_processor():
    """No architecture named, nothing downloaded (a URL, curl, wget), no FROM fixed to one platform: what
    a step fetches comes from pip, which picks each wheel for the processor the step runs on."""
    stages = set()
    for step in dockerfile.instructions():
        instruction, value = step["instruction"], step["value"]
        assert not ARCHITECTURES.search(value), f"{instruction} {value}"
        assert not re.search(r"\b(curl|wget)\b|https?://", value) or instruction in ("HEALTHCHECK", "LABEL"), value
        if instruction == "FROM":
            platform = re.search(r"--platform=(\S+)", value)
            assert not platform or platform[1] in ("$BUILDPLATFORM", "${BUILDPLATFORM}"), value
            image = re.sub(r"--\S+\s+", "", value).split()[0]
            assert image in stages or re.fullmatch(r"(docker\.io/(library/)?)?python:[\w.-]+", image), (
                f"{image}: an official Python image (published for amd64 and arm64) or an earlier stage"
            )
            stages.update(re.findall(r"\bAS\s+(\S+)", value, re.IGNORECASE))
        if instruction == "ADD":
            assert "://" not in value, value


@pytest.mark.slow
@pytest.mark.parametrize("platform", MACHINES)
def test_every_locked_package_has_a_wheel_for_the_platform(platform, tmp_path):
    """pip downloads, wheels only and checked against the lock's hashes, what the image installs on that
    platform: the lock's pins for the image's Python there. Needs PyPI."""
    machine = MACHINES[platform]
    # pip decides the lock's markers with the Python running it, not the target's: decided here instead.
    wanted = installed_on(linux_environment(PYTHON, machine))
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("\n".join(pin.line() for pin in wanted) + "\n")
    platforms = [option for tag in platform_tags(machine) for option in ("--platform", tag)]
    abi = "cp" + PYTHON.replace(".", "")
    argv = [sys.executable, "-m", "pip", "download", "--only-binary=:all:", "--no-deps", *platforms,
            "--python-version", PYTHON, "--implementation", "cp", "--abi", abi,
            "-r", requirements, "-d", tmp_path / "wheels", "--quiet", "--disable-pip-version-check"]  # fmt: skip
    result = subprocess.run(argv, capture_output=True, text=True, timeout=900, check=False)
    assert result.returncode == 0, result.stderr[-3000:]
    wheels = sorted(path.name for path in (tmp_path / "wheels").iterdir())
    assert all(name.endswith(".whl") for name in wheels), wheels
    assert len(wheels) == len(wanted), wheels
    for name in wheels:
        tags = name.removesuffix(".whl").split("-")[-1]
        assert tags == "any" or machine in tags, name

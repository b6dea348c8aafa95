"""The version this code is, as pyproject.toml names it (read from the installed package's metadata):
/healthz answers it, the pages' footer shows it, and the image's labels carry it (docs/deployment.md,
Upgrading)."""

from importlib import metadata

VERSION = metadata.version("game2048")

"""Every benchmark runs as ``python -m bench.<name>``: each module imports and has a ``main``."""

import importlib
import pkgutil

import pytest

import bench

SHARED = {"stats"}  # what the benchmarks share, no benchmark itself
NAMES = sorted(m.name for m in pkgutil.iter_modules(bench.__path__) if not m.ispkg and m.name not in SHARED)


def test_the_lab_has_its_benchmarks():
    assert {"engine", "solver", "feel", "delivery", "record_flood", "summary"} <= set(NAMES)
    assert bench.RESULTS.is_dir() and (bench.RESULTS / "benchmark.json").exists()


@pytest.mark.parametrize("name", NAMES)
def test_each_benchmark_imports_and_has_a_main(name):
    module = importlib.import_module(f"bench.{name}")
    assert callable(module.main) and module.__doc__

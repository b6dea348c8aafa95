"""The product, its tests and the lab stay apart (import-linter's contracts in pyproject.toml): the
app imports neither tests/ nor bench/, the tests do not import the lab, the engine imports nothing of the
product and nothing of the web, and no blueprint imports another."""

import shutil
import subprocess

from tests.support.servers import PROJECT_ROOT


def test_the_three_parts_import_each_other_only_as_allowed():
    linter = shutil.which("lint-imports")
    assert linter, "import-linter is missing: the test extra has it"
    result = subprocess.run([linter], cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "4 kept, 0 broken" in result.stdout

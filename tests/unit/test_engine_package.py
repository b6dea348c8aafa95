"""The engine stays a plain library: no web framework inside."""

import ast
from pathlib import Path

import app.engine

ENGINE_DIR = Path(app.engine.__file__).parent


def imported_modules(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names.add(node.module)
    return names


def test_engine_modules_import_no_flask():
    sources = sorted(ENGINE_DIR.glob("*.py"))
    assert len(sources) > 5
    for path in sources:
        top_level = {name.split(".")[0] for name in imported_modules(path)}
        assert "flask" not in top_level, path.name


def test_public_names_are_exported():
    for name in app.engine.__all__:
        assert hasattr(app.engine, name), name

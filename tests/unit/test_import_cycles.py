"""No module of the app or of the page imports itself through others: a circle of imports works
only in the order that happens to load it, and hides which module is the base of which."""

import re

import grimp

from tests.support.servers import PROJECT_ROOT


def circles(imports: dict[str, set[str]]) -> list[list[str]]:
    """Each circle of ``imports`` (a module's name to those it imports) found from one of its
    imports, as the modules it passes through, first and last the same."""
    found = []
    for importer, imported in sorted(imports.items()):
        for start in sorted(imported):
            path = _path(imports, start, importer)
            if path is not None:
                found.append([importer, *path])
    return found


def _path(imports, start, goal):
    """The shortest chain of imports from ``start`` to ``goal``, or None."""
    came_from, frontier = {start: None}, [start]
    while frontier:
        following = []
        for module in frontier:
            if module == goal:
                chain = [module]
                while came_from[chain[-1]] is not None:
                    chain.append(came_from[chain[-1]])
                return chain[::-1]
            for other in sorted(imports.get(module, ())):
                if other not in came_from:
                    came_from[other] = module
                    following.append(other)
        frontier = following
    return None


def python_imports(package: str) -> dict[str, set[str]]:
    """What each module of ``package`` imports of it (grimp, as import-linter reads it), counting the
    ``__init__`` of each package an import loads on the way (importing app.store.locking runs
    app/store/__init__.py first), but not the packages the importer is in: they are loading already."""
    graph = grimp.build_graph(package, cache_dir=None)

    def packages_of(module):
        parts = module.split(".")
        return {".".join(parts[:end]) for end in range(2, len(parts))}  # the top package's factory aside

    return {
        module: {
            loaded
            for imported in graph.find_modules_directly_imported_by(module)
            for loaded in {imported} | (packages_of(imported) - packages_of(module) - {module})
        }
        for module in graph.modules
    }


COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
JS_IMPORT = re.compile(r"""(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s*)['"]\./([\w-]+\.js)['"]""", re.M)


def js_imports(folder) -> dict[str, set[str]]:
    """What each of the page's modules imports, statically or when first needed (``import()``)."""
    return {path.name: set(JS_IMPORT.findall(COMMENT.sub("", path.read_text()))) for path in folder.glob("*.js")}


def test_the_readers_find_circles_and_the_imports_they_are_made_of(tmp_path, monkeypatch):
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}})[0] == ["a", "b", "c", "a"]
    assert circles({"a": {"b"}, "b": {"c"}, "d": {"a", "c"}}) == []
    sample = "import { a } from './a.js';\n// import('./no.js')\nconst b = () => import('./b-c.js');\n"
    assert set(JS_IMPORT.findall(COMMENT.sub("", sample))) == {"a.js", "b-c.js"}
    # The circle app/lockfiles.py once made: it imports a module of a package whose __init__
    # imports a module that imports it.
    package = tmp_path / "circled"
    (package / "store").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "lockfiles.py").write_text("from .store.locking import Fault\n")
    (package / "store" / "__init__.py").write_text("from .sqlite import Sessions\n")
    (package / "store" / "locking.py").write_text("class Fault(Exception): pass\n")
    (package / "store" / "sqlite.py").write_text("from ..lockfiles import Fault\nfrom .locking import Fault\n")
    monkeypatch.syspath_prepend(tmp_path)
    assert circles(python_imports("circled"))[0] == [
        "circled.lockfiles",
        "circled.store",
        "circled.store.sqlite",
        "circled.lockfiles",
    ]


def test_no_python_module_of_the_app_imports_itself_through_others():
    assert circles(python_imports("app")) == []


def test_no_module_of_the_page_imports_itself_through_others():
    imports = js_imports(PROJECT_ROOT / "static" / "js")
    assert {"main.js", "storage.js", "server.js"} <= imports.keys()
    assert circles(imports) == []

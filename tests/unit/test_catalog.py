"""The Czech catalog is complete and in sync with the code; catalogs compile safely."""

import os
import re
import shutil
import threading
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from app import i18n
from app.routes import language

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "app" / "translations"
CZECH_PO = TRANSLATIONS / "cs" / "LC_MESSAGES" / "messages.po"
PLACEHOLDER = re.compile(r"%\([a-z_]+\)s|\{[a-z_]+\}")
TAG = re.compile(r"</?[a-z]+\b[^>]*>")


def load(path):
    with path.open("rb") as f:
        return read_po(f)


def messages(catalog):
    return [m for m in catalog if m.id]


def extracted_ids():
    """What `pybabel extract -F babel.cfg` finds in the templates and the app."""
    with (ROOT / "babel.cfg").open() as f:
        method_map, options_map = parse_mapping_cfg(f)
    return {message for _, _, message, _, _ in extract_from_dir(str(ROOT), method_map, options_map)}


def test_every_czech_message_is_translated_and_not_fuzzy():
    catalog = load(CZECH_PO)
    assert not catalog.fuzzy, "the header is marked fuzzy"
    untranslated = [
        m.id for m in messages(catalog) if not m.string or (isinstance(m.string, tuple) and not all(m.string))
    ]
    fuzzy = [m.id for m in messages(catalog) if m.fuzzy]
    assert untranslated == [] and fuzzy == []
    assert not catalog.obsolete


def test_the_czech_catalog_has_three_plural_forms():
    catalog = load(CZECH_PO)
    assert catalog.num_plurals == 3
    assert "nplurals=3;" in catalog.plural_forms


def test_the_catalog_matches_what_the_code_uses():
    used = extracted_ids()
    assert used, "nothing extracted: is babel.cfg right?"
    assert {m.id for m in messages(load(CZECH_PO))} == used
    assert {m.id for m in messages(load(TRANSLATIONS / "messages.pot"))} == used


def test_translations_keep_placeholders_markup_and_quotes():
    problems = []
    for m in messages(load(CZECH_PO)):
        if sorted(PLACEHOLDER.findall(m.id)) != sorted(PLACEHOLDER.findall(m.string)):
            problems.append(f"placeholders: {m.id!r}")
        if sorted(TAG.findall(m.id)) != sorted(TAG.findall(m.string)):
            problems.append(f"markup: {m.id!r}")
        # Some messages land inside HTML attributes.
        if m.string.count('"') != m.id.count('"'):
            problems.append(f"quotes: {m.id!r}")
    assert problems == []
    assert list(load(CZECH_PO).check()) == []


def compiled(target):
    return target / "cs" / "LC_MESSAGES" / "messages.mo"


def test_compiling_writes_the_mo_beside_nothing_but_the_target(tmp_path):
    before = sorted(p.name for p in TRANSLATIONS.rglob("*"))
    i18n.compile_catalogs(TRANSLATIONS, tmp_path)
    assert sorted(p.name for p in TRANSLATIONS.rglob("*")) == before  # the source tree stays read-only
    with compiled(tmp_path).open("rb") as f:
        catalog = read_mo(f)
    assert catalog.get("New game").string == "Nová hra"
    assert [p.name for p in compiled(tmp_path).parent.iterdir()] == ["messages.mo"]


def test_compiling_again_only_when_the_po_changes(tmp_path):
    source = tmp_path / "src"
    shutil.copytree(TRANSLATIONS, source)
    po = source / "cs" / "LC_MESSAGES" / "messages.po"
    target = tmp_path / "out"
    i18n.compile_catalogs(source, target)
    first = compiled(target).stat()
    i18n.compile_catalogs(source, target)
    assert compiled(target).stat().st_ino == first.st_ino  # untouched
    # An older catalog put back (say, an older image on the same volume) compiles too.
    po.write_text(po.read_text(encoding="utf-8").replace('msgstr "Nová hra"', 'msgstr "Znovu"'), encoding="utf-8")
    os.utime(po, ns=(first.st_mtime_ns - 10**10, first.st_mtime_ns - 10**10))
    i18n.compile_catalogs(source, target)
    with compiled(target).open("rb") as f:
        assert read_mo(f).get("New game").string == "Znovu"


def test_workers_compiling_at_once_leave_one_whole_catalog(tmp_path):
    barrier = threading.Barrier(8)
    errors = []

    def worker():
        try:
            barrier.wait()
            i18n.compile_catalogs(TRANSLATIONS, tmp_path)
        except Exception as error:
            errors.append(error)

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert [p.name for p in compiled(tmp_path).parent.iterdir()] == ["messages.mo"]
    with compiled(tmp_path).open("rb") as f:
        assert read_mo(f).get("Game over!").string == "Konec hry!"


@pytest.mark.parametrize("bad", ["", "nonsense", "https://x", "//x"])
def test_safe_next_keeps_only_local_paths(bad):
    assert language.safe_next(bad) == "/"
    assert language.safe_next("/rules?x=1#goal") == "/rules?x=1#goal"

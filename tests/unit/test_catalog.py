"""The Czech catalog is complete, in sync with the code, and shipped compiled."""

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from app.routes import language

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "app" / "translations"
CZECH_PO = TRANSLATIONS / "cs" / "LC_MESSAGES" / "messages.po"
CZECH_MO = CZECH_PO.with_suffix(".mo")
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
        source = m.id[-1] if m.pluralizable else m.id  # a plural's forms each keep what its plural has
        for string in m.string if m.pluralizable else [m.string]:
            if sorted(PLACEHOLDER.findall(source)) != sorted(PLACEHOLDER.findall(string)):
                problems.append(f"placeholders: {m.id!r}")
            if sorted(TAG.findall(source)) != sorted(TAG.findall(string)):
                problems.append(f"markup: {m.id!r}")
            # Some messages land inside HTML attributes.
            if string.count('"') != source.count('"'):
                problems.append(f"quotes: {m.id!r}")
    assert problems == []
    assert list(load(CZECH_PO).check()) == []


def as_key(text):
    """A message's text, or a plural's texts as a tuple (the .mo reader gives lists)."""
    return tuple(text) if isinstance(text, list | tuple) else text


def test_the_shipped_catalog_is_its_source_compiled():
    """The app reads the .mo; after changing the .po, run `pybabel compile -d app/translations` (babel.cfg)."""
    with CZECH_MO.open("rb") as f:
        shipped = {as_key(m.id): as_key(m.string) for m in read_mo(f) if m.id}
    assert shipped == {as_key(m.id): as_key(m.string) for m in messages(load(CZECH_PO))}
    assert shipped["New game"] == "Nová hra" and shipped["Game over!"] == "Konec hry!"


# A "deska" (a plank, a game's physical board) in any of its forms.
DESKA = re.compile(r"\bdes(ka|ky|ce|ku|kou|kám|kách|kami|ek)\b", re.IGNORECASE)
# "pole" alone for a cell, beside "hrací pole" for the board: "všechna pole hracího pole".
CELL_AS_POLE = re.compile(r"\b(prázdn\w+|náhodn\w+|všechna|16|dvou prostředních) pol(e|i|ích|í)\b", re.IGNORECASE)


def test_the_czech_board_is_the_hraci_pole_and_its_cells_policka():
    """One word per idea, as the English has: the board is "hrací pole" on every page, a cell "políčko"."""
    strings = [text for m in messages(load(CZECH_PO)) for text in (m.string if m.pluralizable else [m.string])]
    assert [s for s in strings if DESKA.search(s)] == []
    assert [s for s in strings if CELL_AS_POLE.search(s)] == []


@pytest.mark.parametrize("bad", ["", "nonsense", "https://x", "//x"])
def test_safe_next_keeps_only_local_paths(bad):
    assert language.safe_next(bad) == "/"
    assert language.safe_next("/rules?x=1#goal") == "/rules?x=1#goal"

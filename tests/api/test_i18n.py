"""Which language a page is in: the switch's cookie, else the browser's, else English."""

import json
import re
from html.parser import HTMLParser

import pytest

PAGES = ["/", "/daily", "/rules", "/strategy", "/solver", "/stats"]
CZECH = "cs-CZ,cs;q=0.9,en;q=0.8"


def html_lang(reply):
    return re.search(r'<html lang="([^"]*)"', reply.get_data(as_text=True)).group(1)


@pytest.mark.parametrize("path", [*PAGES, "/no-such-page"])
@pytest.mark.parametrize(
    "accept, lang", [(CZECH, "cs"), ("en-US,en;q=0.9", "en"), ("de-DE,de;q=0.9", "en"), (None, "en")]
)
def test_every_page_follows_the_browser_language(client, path, accept, lang):
    reply = client.get(path, headers={"Accept-Language": accept} if accept else {})
    assert reply.status_code == (404 if path == "/no-such-page" else 200)
    assert html_lang(reply) == lang


@pytest.mark.parametrize(
    "accept, lang",
    [
        ("en-GB,cs;q=0.8", "en"),  # Werkzeug's best_match would say "cs"
        ("cs-CZ,en;q=0.5", "cs"),
        ("sk,cs;q=0.8,en;q=0.5", "cs"),
        ("CS", "cs"),
        ("cs;q=0,en;q=0.1", "en"),
        ("*", "en"),
        ("fr;q=0.9,*;q=0.5", "en"),
    ],
)
def test_the_supported_language_the_browser_ranks_highest_wins(client, accept, lang):
    assert html_lang(client.get("/rules", headers={"Accept-Language": accept})) == lang


def test_the_switch_cookie_beats_the_browser(client):
    client.set_cookie("lang", "en")
    assert html_lang(client.get("/", headers={"Accept-Language": CZECH})) == "en"
    client.set_cookie("lang", "cs")
    assert html_lang(client.get("/", headers={"Accept-Language": "en-US"})) == "cs"


@pytest.mark.parametrize("value", ["de", "CS", "cs-CZ", "", "../en"])
def test_other_cookie_values_are_ignored(client, value):
    client.set_cookie("lang", value)
    assert html_lang(client.get("/", headers={"Accept-Language": CZECH})) == "cs"


def test_the_switch_remembers_the_choice_and_returns_to_the_page(client):
    reply = client.get("/language/cs?next=/rules%3Fa%3D1", headers={"Accept-Language": "en"})
    assert reply.status_code == 303 and reply.headers["Location"] == "/rules?a=1"
    cookie = reply.headers["Set-Cookie"]
    assert cookie.startswith("lang=cs;") and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert "Max-Age=31536000" in cookie and "Path=/;" in cookie
    assert html_lang(client.get("/rules", headers={"Accept-Language": "en"})) == "cs"
    client.get("/language/en?next=/rules")
    assert html_lang(client.get("/rules", headers={"Accept-Language": CZECH})) == "en"


def test_the_switch_is_two_links_back_to_the_current_page(client):
    html = client.get("/rules?x=1", headers={"Accept-Language": CZECH}).get_data(as_text=True)
    switch = re.search(r'<nav class="language-switch".*?</nav>', html, re.DOTALL).group(0)
    assert 'href="/language/en?next=/rules?x%3D1" lang="en" hreflang="en"' in switch
    assert 'href="/language/cs?next=/rules?x%3D1" lang="cs" hreflang="cs"' in switch
    assert re.search(r'lang="cs"[^>]*aria-current="true">Čeština<', switch)
    assert "<script" not in switch and " on" not in switch


@pytest.mark.parametrize(
    "target",
    [
        None,
        "",
        "rules",
        "//evil.example/",
        "///evil.example/",
        "/\\evil.example",
        "\\\\evil.example",
        "https://evil.example/",
        "javascript:alert(1)",
        "/\t/evil.example",
        "/\r\nSet-Cookie: a=b",
    ],
)
def test_the_switch_never_sends_the_reader_off_the_site(client, target):
    reply = client.get("/language/cs", query_string={"next": target} if target is not None else {})
    assert reply.status_code == 303 and reply.headers["Location"] == "/"


def test_the_switch_knows_only_english_and_czech(client):
    reply = client.get("/language/de?next=/")
    assert reply.status_code == 404 and "Set-Cookie" not in reply.headers


def test_the_switch_works_under_a_path_prefix(client):
    reply = client.get("/language/cs?next=/rules", base_url="http://localhost/game")
    assert reply.headers["Location"] == "/game/rules"
    assert "Path=/game;" in reply.headers["Set-Cookie"]


@pytest.mark.parametrize("path", [*PAGES, "/no-such-page"])
def test_html_responses_vary_by_what_picks_the_language(client, path):
    vary = {v.strip().lower() for v in client.get(path).headers.get("Vary", "").split(",")}
    assert {"accept-language", "cookie"} <= vary


def test_numbers_are_formatted_for_the_locale(client):
    """Both in one app: the first request's locale must not stick to the template."""
    english = client.get("/rules", headers={"Accept-Language": "en"}).get_data(as_text=True)
    czech = client.get("/rules", headers={"Accept-Language": CZECH}).get_data(as_text=True)
    assert "about 20,480 points" in english and "probability of 90%" in english
    assert "zhruba 20\xa0480 bodů" in czech and "pravděpodobností 90\xa0%" in czech


def test_the_game_page_in_czech(client):
    html = client.get("/", headers={"Accept-Language": CZECH}).get_data(as_text=True)
    for text in ['aria-label="Hrací pole"', ">Nová hra<", ">Zkusit znovu<", ">Pokračovat<", ">Nápověda<", "Skóre"]:
        assert text in html
    raw = re.search(r'<script type="application/json" id="page-data">(.*?)</script>', html, re.DOTALL).group(1)
    messages = json.loads(raw)["messages"]
    assert messages["over"] == "Konec hry!" and messages["score"] == "Skóre: {score}."
    assert messages["directions"]["left"] == "doleva"


# Words that read the same in both languages: names, and what the keyboard says.
SAME_IN_BOTH = {
    *("2048", "English", "Čeština", "WASD", "Vim", "C++", "Python", "expectimax"),
    *("nneonneo/2048-ai", "ziap/2048-ai"),
}


class ReaderText(HTMLParser):
    """What a reader can meet on a page: text, titles and labels, the script's messages."""

    SKIPPED = frozenset({"script", "style", "code", "pre", "kbd"})  # code and key caps are not language

    def __init__(self):
        super().__init__()
        self.texts = []
        self.skipping = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in self.SKIPPED:
            self.skipping.append(tag)
        for name in ("aria-label", "title", "alt", "placeholder"):
            if attrs.get(name):
                self.texts.append(attrs[name])
        if tag == "meta" and attrs.get("name") == "description":
            self.texts.append(attrs["content"])
        if tag == "script" and attrs.get("type") == "application/json":
            self.skipping[-1] = "json"

    def handle_endtag(self, tag):
        if self.skipping and self.skipping[-1] in (tag, "json" if tag == "script" else None):
            self.skipping.pop()

    def handle_data(self, data):
        if self.skipping and self.skipping[-1] == "json":  # the page data: its messages are text, the rest addresses
            self.texts.extend(json_strings(json.loads(data).get("messages", {})))
        elif not self.skipping and data.strip():
            self.texts.append(data)


def json_strings(value):
    if isinstance(value, dict):
        return [s for v in value.values() for s in json_strings(v)]
    return [value] if isinstance(value, str) else []


def reader_text(html):
    parser = ReaderText()
    parser.feed(html)
    return {" ".join(text.split()) for text in parser.texts}


def words(text):
    return set(re.findall(r"[^\W\d_]{2,}", text)) - {w for name in SAME_IN_BOTH for w in re.findall(r"\w+", name)}


@pytest.mark.parametrize("path", [*PAGES, "/no-such-page"])
def test_no_english_is_left_on_a_czech_page(client, path):
    """Any text of the English page met again on the Czech one is English left untranslated."""
    english = reader_text(client.get(path, headers={"Accept-Language": "en"}).get_data(as_text=True))
    czech = reader_text(client.get(path, headers={"Accept-Language": CZECH}).get_data(as_text=True))
    assert len(czech) > 5
    untranslated = sorted(text for text in czech & english if words(text))
    assert untranslated == []
    assert "only available in English" not in " ".join(czech)


@pytest.mark.parametrize("path", ["/strategy", "/solver"])
def test_the_article_pages_are_written_in_czech(client, path):
    czech = client.get(path, headers={"Accept-Language": CZECH}).get_data(as_text=True)
    assert '<html lang="cs">' in czech and '<main class="container" id="main">' in czech
    assert re.search(r"<title>[^<]*(strategie|řešitel)[^<]*</title>", czech, re.IGNORECASE)
    assert re.search(r"\bdlaždic", czech)


def test_the_solver_page_formats_numbers_the_czech_way(client):
    czech = client.get("/solver", headers={"Accept-Language": CZECH}).get_data(as_text=True)
    english = client.get("/solver", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert re.search(r">\d+\xa0%<", czech) and not re.search(r">\d+%<", czech)  # table cells and chart labels
    assert re.search(r">\d+%<", english)
    assert re.search(r"\d+,\d\s+ms", czech)  # decimal comma


def test_the_error_page_speaks_the_readers_language(client):
    reply = client.get("/no-such-page", headers={"Accept-Language": CZECH})
    html = reply.get_data(as_text=True)
    assert reply.status_code == 404 and "Na této adrese nic není." in html and "Zpět ke hře" in html

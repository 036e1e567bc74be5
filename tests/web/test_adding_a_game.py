"""A third game needs its own folders and one entry in rulebook.GAMES, nothing else.

"Higher card" lives only in tests/tinygame/, laid out as the repository is (README "Adding a
game"). tests/conftest.py adds its folders to the packages' paths, its entry to
rulebook.GAMES and its strings to the test catalogs, so every test that loops over the
games checks it as well; tests/deploy/test_wheel.py copies it into the tree and installs
the wheel. Here: that it keeps the interface (rulebook/game.py, webapp/games/base.py), and
is refereed, translated and served like the others.
"""
from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

import rulebook
from rulebook.game import REQUEST_RULE, GamePackage, Rulebook, Section
from rulebook.i18n import LANGUAGES, translator
from rulebook.referee import referee
from webapp.games import GAMES as WEB
from webapp.games import Options, Terms, WebGame

ROOT = Path(__file__).resolve().parents[2]
TINYGAME = ROOT / "tests" / "tinygame"
NON_ENGLISH = [lang for lang in LANGUAGES if lang != "en"]


def test_the_toy_game_is_registered_as_a_game():
    assert rulebook.GAMES["tiny"].package == "rulebook.tiny"
    assert WEB["tiny"].slug == "tiny"


def test_the_toy_game_is_only_its_own_folders():
    """What README "Adding a game" lists, and no other file (the registry line is the
    test session's, tests/conftest.py)."""
    files = {p.relative_to(TINYGAME).as_posix() for p in TINYGAME.rglob("*")
             if p.is_file() and "__pycache__" not in p.parts}
    allowed = ("rulebook/tiny/", "webapp/games/tiny/", "webapp/templates/games/tiny/",
               "translations/incoming/tiny.json")
    assert files and all(f.startswith(allowed) for f in files), sorted(files)


@pytest.mark.parametrize("slug", sorted(rulebook.GAMES))
def test_every_game_keeps_the_interface(slug):
    """rulebook/game.py and webapp/games/base.py, checked on every registered game."""
    game = rulebook.GAMES[slug]
    module = game.module
    for name, declared in inspect.getmembers(GamePackage, inspect.isfunction):
        if not name.startswith("_"):
            wanted = list(inspect.signature(declared).parameters)[1:]  # without `self`
            assert list(inspect.signature(getattr(module, name)).parameters) == wanted, name
    assert all(len(spec) == 4 for spec in module.EXTRACT)
    rb = game.load()
    assert isinstance(rb, Rulebook)
    assert all(isinstance(section, Section) for section in rb.sections)
    assert {r for s in rb.sections for r in s.rules} == set(rb.rules)
    assert set(rb.titles) <= set(rb.rules) and rb.canonical_source in rb.sources
    assert REQUEST_RULE in rb.rules  # what the shared referee's refusals cite
    for kind in ("request", "response", "rulebook"):
        assert game.schema(kind)["$schema"].endswith("2020-12/schema")
    web = WEB[slug]
    assert isinstance(web, WebGame) and web.load() is rb
    options = web.options(rb, {})
    assert isinstance(options, Options)
    terms = web.terms(rb, "de", options)
    assert isinstance(terms, Terms)
    for rule_id in rb.rules:
        assert terms.rule(rule_id) and str(terms.rule_html(rule_id))
    assert web.example is not None and referee(web.example)["valid"]


@pytest.mark.rule("tiny", "play.show", "play.higher", "play.tie")
def test_a_registered_game_is_refereed():
    ruling = referee({"game": "tiny", "cards": {"a": 7, "b": 3}})
    assert ruling["result"] == {"status": "win", "winner": "a",
                                "message": "Player A shows the higher card and wins."}
    assert ruling["explanation"][0]["rule"] == "play.higher"
    shared = referee({"game": "tiny", "cards": {"a": 4, "b": 4}}, "fr")
    assert shared["result"]["status"] == "shared" and shared["explanation"][0]["rule"] == "play.tie"
    assert "partagent la victoire" in shared["result"]["message"]
    refused = referee({"game": "tiny", "cards": {"a": 11, "b": "3", "c": 1}, "x": 1}, "de")
    assert [(e["code"], e["path"], e["kind"]) for e in refused["errors"]] == [
        ("request.unknown-field", "/x", "malformed"), ("request.unknown-field", "/cards/c", "malformed"),
        ("card.value", "/cards/a", "illegal"), ("request.type", "/cards/b", "malformed")]
    assert refused["errors"][2]["message"] == "Eine Karte ist eine ganze Zahl von 1 bis 10, nicht 11."


@pytest.mark.parametrize("lang", NON_ENGLISH)
def test_its_strings_are_in_the_catalogs(lang):
    """Extracted by `make translations`' own configuration and translated (the test
    catalogs are the repository's with the toy game's strings merged in, conftest.py)."""
    from conftest import toy_game_messages

    t = translator(lang)
    messages = toy_game_messages()
    assert len(messages) > 10
    untranslated = []
    for context, message, _comments in messages:
        text = message[0] if isinstance(message, tuple) else message
        got = t.pgettext(context, text) if context else t.gettext(text)
        if got == text:
            untranslated.append((context, text))
    assert untranslated == [], untranslated
    assert ("play.higher", "The player who shows the higher card wins the game.") in {
        (c, m) for c, m, _ in messages}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_registered_game_has_its_rules_pages(client, lang):
    t = translator(lang)
    page = client.get(f"/{lang}/tiny/")
    assert page.status_code == 200
    rule = t.pgettext("play.higher", "The player who shows the higher card wins the game.")
    assert rule in page.text and 'id="play.higher"' in page.text
    assert 'href="#section-play"' in page.text
    home = client.get(f"/{lang}/").text
    assert f'href="/{lang}/tiny/"' in home and t.gettext("Higher card") in home
    assert client.get(f"/{lang}/tiny/disagreements").status_code == 200


def test_a_registered_game_is_searched(client):
    found = client.get("/en/tiny/search?q=equal")
    assert found.status_code == 200 and 'data-rule="play.tie"' in found.text
    everywhere = client.get("/de/search?q=Karte").text
    assert 'id="results-tiny"' in everywhere


@pytest.mark.rule("tiny", "referee.request")
def test_a_registered_game_has_its_api(client):
    ok = client.post("/api/v1/tiny/score", json={"cards": {"a": 2, "b": 2}})
    assert ok.status_code == 200 and ok.get_json()["result"]["status"] == "shared"
    assert client.post("/api/v1/tiny/score", json={"cards": {"a": 0, "b": 2}}).status_code == 422
    assert client.post("/api/v1/tiny/score", json={"cards": 5}).status_code == 400
    other = client.post("/api/v1/tiny/score", json={"game": "koikoi"})
    assert other.status_code == 422 and other.get_json()["errors"][0]["rule"] == REQUEST_RULE
    described = client.get("/api/v1/tiny/rulebook?lang=uk").get_json()
    assert described["sections"][0]["rules"][1]["id"] == "play.higher"
    assert described["sections"][0]["title"] == translator("uk").pgettext("section.play", "Playing")
    openapi = client.get("/api/v1/openapi.json").get_json()
    assert "/api/v1/tiny/score" in openapi["paths"] and "TinyRequest" in openapi["components"]["schemas"]


def test_a_registered_game_has_its_checker_and_example(client):
    page = client.get("/en/tiny/score?a=9&b=4")
    assert page.status_code == 200
    assert 'data-status="win"' in page.text and "The higher card wins" in page.text
    refused = client.get("/de/tiny/score?a=12&b=4").text
    assert 'aria-invalid="true"' in refused and "nicht 12" in refused
    assert client.get("/en/tiny/score?a=&b=").status_code == 303
    developers = client.get("/en/developers").text
    assert re.search(r'id="tiny".*?&#34;cards&#34;', developers, re.DOTALL)

"""A third game needs its folders and one entry in rulebook.GAMES, nothing else.

"Higher card" lives only in tests/tinygame/ (its rulebook package, schemas and YAML, and
`web.py` with its templates). Registered, it is refereed, served (rules page, search, API,
checker) and described in the OpenAPI document, with no change to shared code.
"""
from __future__ import annotations

from pathlib import Path

import pytest

import rulebook
from rulebook import Game
from rulebook.referee import referee
from webapp import create_app

TESTS = Path(__file__).resolve().parents[1]


@pytest.fixture()
def tiny(monkeypatch):
    monkeypatch.syspath_prepend(str(TESTS))
    monkeypatch.setitem(rulebook.GAMES, "tiny", Game("tiny", "tinygame", web="tinygame.web"))
    return create_app({"TESTING": True}).test_client()


def test_a_registered_game_is_refereed(tiny):
    ruling = referee({"game": "tiny", "cards": {"a": 7, "b": 3}})
    assert ruling["result"] == {"status": "win", "winner": "a"}
    assert ruling["explanation"][0]["rule"] == "play.higher"
    refused = referee({"game": "tiny", "cards": {"a": 11, "b": 3}})
    assert [e["code"] for e in refused["errors"]] == ["card.value"]


def test_a_registered_game_has_its_rules_pages(tiny):
    page = tiny.get("/en/tiny/")
    assert page.status_code == 200
    assert "The player who shows the higher card wins the game." in page.text
    assert 'id="play.higher"' in page.text
    home = tiny.get("/en/").text
    assert 'href="/en/tiny/"' in home
    found = tiny.get("/en/tiny/search?q=equal")
    assert found.status_code == 200 and "the players share the victory" in found.text


def test_a_registered_game_has_its_api(tiny):
    ok = tiny.post("/api/v1/tiny/score", json={"cards": {"a": 2, "b": 2}})
    assert ok.status_code == 200 and ok.get_json()["result"]["status"] == "shared"
    assert tiny.post("/api/v1/tiny/score", json={"cards": {"a": 0, "b": 2}}).status_code == 422
    assert tiny.post("/api/v1/tiny/score", json={"cards": 5}).status_code == 400
    described = tiny.get("/api/v1/tiny/rulebook").get_json()
    assert described["sections"][0]["rules"][1]["id"] == "play.higher"
    openapi = tiny.get("/api/v1/openapi.json").get_json()
    assert "/api/v1/tiny/score" in openapi["paths"] and "TinyRequest" in openapi["components"]["schemas"]


def test_a_registered_game_has_its_checker(tiny):
    page = tiny.get("/en/tiny/score?a=9&b=4")
    assert page.status_code == 200
    assert 'data-status="win"' in page.text and "The higher card wins" in page.text
    assert tiny.get("/en/tiny/score?a=&b=").status_code == 303

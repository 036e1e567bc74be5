"""The Koi-Koi JSON API: every referee error code in every language, rulings, schemas."""
from __future__ import annotations

import json

import pytest
from jsonschema import Draft202012Validator

from rulebook import GAMES
from rulebook.i18n import LANGUAGES
from rulebook.koikoi import referee
from rulebook.problems import MALFORMED_CODES

SCORE = "/api/v1/koikoi/score"
NONE = [{"winner": None}]


def kk(rounds=NONE, **extra):
    return {"game": "koikoi", "rounds": rounds, **extra}


# One request per Koi-Koi referee error code reachable over HTTP.
ERROR_CASES = {
    "request.unknown-field": kk(x=1),
    "request.type": kk("all of them"),
    "request.missing-field": kk([{"captured": {}}]),
    "ruleset.unknown": kk(ruleset="casino"),
    "option.unknown": kk(options={"jokers": True}),
    "option.value": kk(options={"viewings": True}),
    "rounds.empty": kk([]),
    "rounds.too-many": kk(NONE * 101),
    "round.after-end": kk(NONE * 4, options={"rounds": 3}),
    "winner.value": kk([{"winner": "c"}]),
    "card.unknown": kk([{"winner": None, "captured": {"a": [48, 0, 1]}}]),
    "card.duplicate": kk([{"winner": None, "captured": {"a": [0, 1, "pine-crane"]}}]),
    "card.both-piles": kk([{"winner": None, "captured": {"a": [0, 1], "b": [1, 0]}}]),
    "pile.month-count": kk([{"winner": None, "captured": {"b": [40, 41, 42]}}]),
    "koikoi.type": kk([{"winner": None, "koikoi": {"a": "once"}}]),
    "koikoi.too-many": kk([{"winner": None, "koikoi": {"a": 2}}]),
    "koikoi.no-yaku": kk([{"winner": None, "captured": {"b": []}, "koikoi": {"b": 1}}]),
    "winner.no-yaku": kk([{"winner": "a", "captured": {"a": [0, 1]}}]),
}


@pytest.fixture(scope="module")
def response_validator():
    return Draft202012Validator(GAMES["koikoi"].schema("response"))


def post(client, document, lang):
    return client.post(f"{SCORE}?lang={lang}", data=json.dumps(document),
                       content_type="application/json")


@pytest.mark.parametrize("code", sorted(ERROR_CASES))
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_error_code_in_every_language(client, code, lang, response_validator):
    r = post(client, ERROR_CASES[code], lang)
    expected = 400 if code in MALFORMED_CODES else 422  # malformed, or refused by the rules
    assert r.status_code == expected and r.mimetype == "application/problem+json", r.data
    assert r.headers["Content-Language"] == lang
    body = r.get_json()
    assert code in [e["code"] for e in body["errors"]], body
    response_validator.validate({"valid": False, "errors": body["errors"]})
    if lang != "en":
        english = [e["message"] for e in referee(ERROR_CASES[code], "en")["errors"]]
        assert [e["message"] for e in body["errors"]] != english, f"{code} not translated ({lang})"


@pytest.mark.parametrize("lang", ["es", "fr"])
def test_ruling_in_spanish_and_french(client, lang, response_validator):
    # Brights of pine, cherry and moon with their pairs: Sanko, 5 points under Nintendo.
    request = kk([{"winner": "a", "captured": {"a": [0, 2, 8, 10, 28, 30]}}])
    r = post(client, request, lang)
    assert r.status_code == 200 and r.headers["Content-Language"] == lang
    body = r.get_json()
    response_validator.validate(body)
    rnd = body["rounds"][0]
    assert [y["id"] for y in rnd["yaku"]] == ["sanko"] and rnd["score"]["a"] == 5
    assert body == referee(request, lang)

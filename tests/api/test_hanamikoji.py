"""The JSON API: status codes, problem+json, languages, schemas, and every error code."""
from __future__ import annotations

import json

import pytest
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate as validate_openapi

from rulebook import GAMES
from rulebook.i18n import LANGUAGES
from rulebook.problems import MALFORMED_CODES
from rulebook.referee import referee

SCORE = "/api/v1/hanamikoji/score"
BOARD = {"a": [2, 1, 0, 2, 2, 0, 1], "b": [0, 1, 2, 0, 0, 2, 3]}
VALID = {"game": "hanamikoji", "rounds": [{"board": BOARD}]}
LOG = [
    {"player": "a", "action": "secret", "cards": ["ruri"]},
    {"player": "b", "action": "tradeoff", "cards": ["ayane", "iroha"]},
    {"player": "a", "action": "gift", "cards": ["ruri", "ruri", "anju"], "taken": "anju"},
    {"player": "b", "action": "competition", "cards": [["anju", "anju"], ["yoko", "tomoyo"]], "taken": 0},
]
WON = {"a": [2, 1, 0, 2, 2, 0, 1], "b": [0, 1, 2, 0, 0, 2, 3]}


def hk(*rounds, **extra):
    return {"game": "hanamikoji", "rounds": list(rounds), **extra}


# One request per referee error code (the code it must produce).
ERROR_CASES = {
    "request.not-object": [1, 2],
    "request.unknown-field": hk({"board": BOARD}, colour="red"),
    "request.missing-field": {"game": "hanamikoji"},
    "request.type": hk({"board": BOARD}, players=[]),
    "game.unknown": {"game": "chess", "rounds": []},
    "edition.unknown": hk({"board": BOARD}, edition="bootleg"),
    "variant.unknown": hk({"board": BOARD}, variants={"turbo": True}),
    "variant.value": hk({"board": BOARD}, variants={"simultaneous_goal": "dice"}),
    "players.name": hk({"board": BOARD}, players={"a": ""}),
    "start.round": hk({"board": BOARD}, start={"round": 0}),
    "start.favor-length": hk({"board": BOARD}, start={"round": 2, "favor": ["a"]}),
    "start.favor-value": hk({"board": BOARD}, start={"round": 2, "favor": ["c"] + [None] * 6}),
    "start.favor-round1": hk({"board": BOARD}, start={"round": 1, "favor": ["a"] + [None] * 6}),
    "start.already-won": hk({"board": BOARD}, start={"round": 2, "favor": ["a"] * 4 + [None] * 3}),
    "rounds.empty": hk(),
    "rounds.too-many": hk(*[{"board": BOARD}] * 51),
    "round.mode": hk({"board": BOARD, "actions": []}),
    "round.mode-missing": hk({}),
    "round.after-win": hk({"board": WON}, {"board": WON}),
    "round.past-limit": hk({"board": BOARD}, start={"round": 4, "favor": [None] * 7},
                           variants={"round_limit": True}),
    "round.past-edition-limit": hk({"board": BOARD}, start={"round": 4, "favor": [None] * 7},
                                   edition="kosmos"),
    "board.length": hk({"board": {"a": [1, 2], "b": BOARD["b"]}}),
    "board.count": hk({"board": {"a": [2, 1, 0, 2, 2, 0, -1], "b": BOARD["b"]}}),
    "board.side-total": hk({"board": {"a": [2, 1, 0, 2, 2, 0, 0], "b": BOARD["b"]}}),
    "board.geisha-overflow": hk({"board": {"a": [3, 1, 0, 2, 2, 0, 0], "b": BOARD["b"]}}),
    "board.geisha-overflow-removed": hk({"board": {"a": [1, 1, 1, 1, 1, 1, 2],
                                                   "b": [1, 1, 1, 1, 1, 0, 3]}, "removed": "ruri"}),
    "card.unknown": hk({"board": BOARD, "removed": "sakura"}),
    "log.too-many-actions": None,  # built below from a full log
    "log.unknown-action": hk({"actions": [{"player": "a", "action": "steal", "cards": []}]}),
    "log.wrong-player": hk({"actions": [LOG[0], dict(LOG[1], player="a")]}),
    "log.wrong-starter-first": hk({"actions": [dict(LOG[0], player="b")]}),
    "log.wrong-starter": hk({"actions": [LOG[0]]}, start={"round": 2, "favor": [None] * 7}),
    "log.action-reused": hk({"actions": LOG[:2] + [dict(LOG[0], cards=["yoko"])]}),
    "log.card-count": hk({"actions": [dict(LOG[0], cards=["ruri", "yoko"])]}),
    "log.competition-split": hk({"actions": LOG[:3] + [dict(LOG[3], cards=[["anju"], ["yoko"]])]}),
    "log.taken-missing": hk({"actions": LOG[:2] + [{k: v for k, v in LOG[2].items() if k != "taken"}]}),
    "log.taken-not-offered": hk({"actions": LOG[:2] + [dict(LOG[2], taken="iroha")]}),
    "log.taken-set": hk({"actions": LOG[:3] + [dict(LOG[3], taken=2)]}),
    "log.taken-unexpected": hk({"actions": [dict(LOG[0], taken="ruri")]}),
    "log.card-overflow": hk({"actions": [dict(LOG[0], cards=["ayane"]),
                                         dict(LOG[1], cards=["ayane", "ayane"])]}),
    "log.removed-mismatch": None,
    "log.incomplete": hk({"actions": LOG}, {"board": BOARD}),
}
FULL_LOG = LOG + [
    {"player": "a", "action": "competition", "cards": [["yoko", "yoko"], ["chiharu", "tomoyo"]], "taken": 1},
    {"player": "b", "action": "secret", "cards": ["ruri"]},
    {"player": "a", "action": "tradeoff", "cards": ["ayane", "iroha"]},
    {"player": "b", "action": "gift", "cards": ["chiharu", "chiharu", "anju"], "taken": "chiharu"},
]
ERROR_CASES["log.too-many-actions"] = hk({"actions": FULL_LOG + [LOG[0]]})
ERROR_CASES["log.removed-mismatch"] = hk({"actions": FULL_LOG, "removed": "anju"})


def post(client, document, lang=None, **kwargs):
    url = SCORE + (f"?lang={lang}" if lang else "")
    return client.post(url, data=json.dumps(document), content_type="application/json", **kwargs)


@pytest.fixture(scope="module")
def response_validator():
    return Draft202012Validator(GAMES["hanamikoji"].schema("response"))


def test_score_valid_request(client, response_validator):
    r = post(client, VALID)
    assert r.status_code == 200 and r.mimetype == "application/json"
    assert r.headers["Content-Language"] == "en"
    body = r.get_json()
    assert body["result"]["winner"] == "b"
    response_validator.validate(body)


def test_game_taken_from_the_address(client):
    r = post(client, {"rounds": [{"board": BOARD}]})
    assert r.status_code == 200


@pytest.mark.parametrize("code", sorted(ERROR_CASES))
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_referee_error_code_in_every_language(client, code, lang, response_validator):
    document = ERROR_CASES[code]
    r = post(client, document, lang=lang)
    if code == "game.unknown":
        assert r.status_code == 422
        assert r.get_json()["errors"][0]["code"] == "game.mismatch"
        direct = referee(document, lang)
    else:
        direct = r.get_json()
    assert r.headers["Content-Language"] == lang
    codes = [e["code"] for e in direct["errors"]]
    assert code in codes, direct
    # A request shaped against its schema is malformed (400); one the rules refuse, 422.
    malformed = any(e["kind"] == "malformed" for e in direct["errors"])
    assert (code in MALFORMED_CODES) == malformed or code not in MALFORMED_CODES
    body = r.get_json()
    if malformed:
        assert r.status_code == 400 and body["type"] == "/api/v1/problems/malformed-request"
    else:
        assert r.status_code == 422 and body["type"] == "/api/v1/problems/invalid-request"
    assert r.mimetype == "application/problem+json"
    for error in direct["errors"]:
        assert error["message"] and error["rule"] and error["path"] is not None
    response_validator.validate({"valid": False, "errors": direct["errors"]})
    if lang != "en":
        english = referee(document, "en")["errors"]
        localized = direct["errors"]
        assert [e["message"] for e in localized] != [e["message"] for e in english], (
            f"{code}: messages not translated into {lang}")


def test_language_from_accept_language(client):
    r = post(client, {"game": "hanamikoji"}, headers={"Accept-Language": "uk,en;q=0.5"})
    assert r.headers["Content-Language"] == "uk"
    assert "Accept-Language" in r.headers.get("Vary", "")


def test_malformed_json_is_400(client):
    r = client.post(SCORE, data="{nope", content_type="application/json")
    assert r.status_code == 400 and r.mimetype == "application/problem+json"
    assert r.get_json()["type"] == "/api/v1/problems/malformed-json"


def test_oversized_body_is_413(client):
    r = client.post(SCORE, data="[" + "0," * 40000 + "0]", content_type="application/json")
    assert r.status_code == 413 and r.mimetype == "application/problem+json"


def test_wrong_content_type_is_415(client):
    r = client.post(SCORE, data=json.dumps(VALID), content_type="text/plain")
    assert r.status_code == 415 and r.mimetype == "application/problem+json"


def test_wrong_method_is_405(client):
    r = client.get(SCORE)
    assert r.status_code == 405 and r.mimetype == "application/problem+json"
    assert "POST" in r.headers["Allow"]


@pytest.mark.parametrize("path", ["/api/v1/nothing", "/api/v1/chess/score", "/api/v2/"])
def test_unknown_route_is_404(client, path):
    r = client.get(path)
    assert r.status_code == 404 and r.mimetype == "application/problem+json"
    assert b"<html" not in r.data


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.rule("hanamikoji", "scoring.tie-keeps-marker")
def test_rulebook_in_each_language(client, lang):
    r = client.get(f"/api/v1/hanamikoji/rulebook?lang={lang}")
    assert r.status_code == 200 and r.headers["Content-Language"] == lang
    body = r.get_json()
    assert [g["id"] for g in body["geishas"]] == ["ayane", "iroha", "tomoyo", "yoko", "chiharu",
                                                 "anju", "ruri"]
    assert {a["id"] for a in body["actions"]} == {"secret", "tradeoff", "gift", "competition"}
    assert {e["id"] for e in body["editions"]} >= {"deepwater", "geekach"}
    rule_ids = [rule["id"] for s in body["sections"] for rule in s["rules"]]
    assert "scoring.tie-keeps-marker" in rule_ids
    assert all("{" not in rule["text"] for s in body["sections"] for rule in s["rules"])


def test_openapi_document_is_valid(client):
    r = client.get("/api/v1/openapi.json")
    assert r.status_code == 200
    document = r.get_json()
    validate_openapi(document)
    assert document["openapi"].startswith("3.1")
    assert "/api/v1/hanamikoji/score" in document["paths"]


def test_problem_types_resolve(client):
    r = client.get("/api/v1/problems/invalid-request?lang=de")
    assert r.status_code == 200 and r.get_json()["status"] == 422

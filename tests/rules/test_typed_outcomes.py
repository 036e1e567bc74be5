"""Outcomes, statuses and kinds are enums in the code (rulebook/outcomes.py) and the same
strings in JSON: the referee's documents over a corpus are byte for byte those recorded
before the enums (tests/rules/outcomes.json).

When a ruling is meant to change (a rule fixed, a message reworded), record again:
    .venv/bin/python -m tests.rules.test_typed_outcomes
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulebook import jsonio
from rulebook.outcomes import Kind, Status
from rulebook.referee import referee

RECORDED = Path(__file__).with_name("outcomes.json")
BOARD = {"a": [2, 1, 0, 2, 2, 0, 1], "b": [0, 1, 2, 0, 0, 2, 3]}
LEVEL = {"a": [1, 1, 1, 1, 1, 2, 1], "b": [1, 1, 1, 1, 1, 2, 1]}
CORPUS = {
    "hanamikoji-charm": {"game": "hanamikoji", "rounds": [{"board": BOARD}]},
    "hanamikoji-clash": {"game": "hanamikoji",
                         "rounds": [{"board": {"a": [2, 2, 2, 2, 0, 0, 0], "b": [0, 0, 0, 1, 2, 2, 3]}}]},
    "hanamikoji-continue": {"game": "hanamikoji",
                            "rounds": [{"board": {"a": [1, 1, 1, 1, 1, 0, 3], "b": [1, 1, 1, 1, 1, 1, 2]}}]},
    "hanamikoji-shared": {"game": "hanamikoji", "edition": "geekach", "variants": {"round_limit": True},
                          "start": {"round": 3, "favor": ["a", "b", None, None, None, None, None]},
                          "rounds": [{"board": LEVEL}]},
    "hanamikoji-undecided": {"game": "hanamikoji", "edition": "kosmos",
                             "start": {"round": 3, "favor": ["a", None, None, "b", None, "b", "a"]},
                             "rounds": [{"board": LEVEL}]},
    "hanamikoji-in-progress": {"game": "hanamikoji", "rounds": [{"actions": [
        {"player": "a", "action": "secret", "cards": ["ruri"]}]}]},
    "hanamikoji-illegal": {"game": "hanamikoji", "edition": "bootleg", "rounds": [{"board": BOARD}]},
    "hanamikoji-malformed": {"game": "hanamikoji", "rounds": "all"},
    "koikoi-continue": {"game": "koikoi", "ruleset": "nintendo", "rounds": [
        {"winner": "a", "captured": {"a": [0, 2, 8, 10, 28, 30]}, "koikoi": {"a": 0, "b": 1}}]},
    "koikoi-win": {"game": "koikoi", "options": {"rounds": 3}, "start": {"round": 3},
                   "rounds": [{"winner": "b", "captured": {"b": [0, 2, 8, 10, 28, 30]}}]},
    "koikoi-draw": {"game": "koikoi", "options": {"rounds": 3}, "start": {"round": 3},
                    "rounds": [{"winner": None}]},
    "koikoi-illegal": {"game": "koikoi", "rounds": [{"winner": "a", "captured": {"a": [0, 4]}}]},
    "not-an-object": [1, 2],
}


def documents() -> dict[str, str]:
    return {f"{name} {lang}": jsonio.dumps(referee(request, lang)).decode()
            for name, request in CORPUS.items() for lang in ("en", "uk")}


@pytest.mark.parametrize("key", sorted(json.loads(RECORDED.read_text("utf-8"))))
def test_the_json_of_a_ruling_is_unchanged(key):
    recorded = json.loads(RECORDED.read_text("utf-8"))[key]
    name, lang = key.rsplit(" ", 1)
    assert jsonio.dumps(referee(CORPUS[name], lang)).decode() == recorded


def test_the_corpus_holds_every_status_and_kind():
    statuses, kinds = set(), set()
    for request in CORPUS.values():
        document = referee(request)
        if document["valid"]:
            statuses.add(document["result"]["status"])
        else:
            kinds |= {e["kind"] for e in document["errors"]}
    assert statuses == {s.value for s in Status} and kinds == {k.value for k in Kind}


if __name__ == "__main__":
    RECORDED.write_text(json.dumps(documents(), ensure_ascii=False, indent=1) + "\n", "utf-8")

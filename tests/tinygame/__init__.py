"""A third game defined only in the test folder: the rulebook side of "Higher card".

It has what rulebook/game.py asks of a game and nothing more, to show that a game added
to rulebook.GAMES is refereed, served and described without a change to shared code.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from rulebook.i18n import N_, translator
from rulebook.loader import collect_rules, collect_titles, load_yaml_checked
from rulebook.problems import SHARED, Problem, describe, kind_of
from rulebook.sources import Source, read_sources

FOLDER = Path(__file__).resolve().parent
EXTRACT = ()
CARD = N_("A card is a whole number from 1 to {cards}, not {value}.")
WINS = N_("{player} shows the higher card and wins.")
SHARED_WIN = N_("Both cards are equal: the players share the victory.")


@dataclass(frozen=True)
class Section:
    id: str
    title: str
    rules: dict[str, str]


@dataclass(frozen=True, eq=False)
class Rulebook:
    title: str
    canonical_source: str  # a key of `sources`
    sources: dict[str, Source]
    cards: int
    sections: tuple[Section, ...]
    rules: dict[str, str]
    titles: dict[str, str]
    disagreements: tuple = ()
    faq: tuple = ()
    asked: dict = field(default_factory=dict)  # no phrasings: the search still finds it
    cache: dict = field(default_factory=dict)


@cache
def _default() -> Rulebook:
    return load_rulebook(FOLDER / "rulebook.yaml")


def load_rulebook(path: Any = None) -> Rulebook:
    if path is None:
        return _default()
    data = load_yaml_checked(path, FOLDER / "schemas" / "rulebook.schema.json")
    rules, _ = collect_rules(data)
    return Rulebook(data["title"], data["canonical_source"], read_sources(data), data["cards"],
                    tuple(Section(s["id"], s["title"], {k: rules[k] for k in s["rules"]})
                          for s in data["sections"]),
                    rules, collect_titles(data))


def referee(request: Any, lang: str = "en", rulebook: Rulebook | None = None) -> dict[str, Any]:
    rb = rulebook or load_rulebook()
    problems = []
    cards = request.get("cards") if isinstance(request, dict) else None
    if not isinstance(cards, dict):
        problems.append(Problem("request.missing-field", "/cards", "play.show",
                                SHARED["request.missing-field"].format(field="cards"),
                                kind_of("request.missing-field")))
        cards = {}
    for player in ("a", "b"):
        value = cards.get(player)
        if not (type(value) is int and 1 <= value <= rb.cards) and cards:
            problems.append(Problem("card.value", f"/cards/{player}", "play.show",
                                    CARD.format(cards=rb.cards,
                                                value=describe(value, translator(lang)))))
    if problems:
        return {"valid": False, "errors": [p.as_dict() for p in problems]}
    a, b = cards["a"], cards["b"]
    winner = None if a == b else ("a" if a > b else "b")
    step = ({"rule": "play.tie", "message": SHARED_WIN} if winner is None else
            {"rule": "play.higher", "message": WINS.format(player=f"Player {winner.upper()}")})
    return {"valid": True, "game": "tiny", "cards": {"a": a, "b": b},
            "result": {"status": "shared" if winner is None else "win", "winner": winner},
            "explanation": [step]}


def document(lang: str) -> dict[str, Any]:
    rb = load_rulebook()
    return {"game": "tiny", "language": lang, "canonical_source": rb.canonical_source,
            "sections": [{"id": s.id, "title": s.title,
                          "rules": [{"id": r, "text": t} for r, t in s.rules.items()]}
                         for s in rb.sections]}

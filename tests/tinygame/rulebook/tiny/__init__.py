"""Higher card: each player shows a card, the higher one wins (the rulebook side).

A game written as README "Adding a game" says, and nothing more: the model of its YAML,
its referee and its JSON rulebook (the interface is rulebook/game.py). It lives in the
tests (tests/tinygame/ mirrors the repository's folders) to prove that a game added to
rulebook.GAMES is refereed, translated, served and packaged without a change to shared
code.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from rulebook.i18n import N_, translator
from rulebook.loader import collect_rules, collect_titles, load_yaml_checked
from rulebook.players import PLAYERS, Names
from rulebook.problems import EXPECTED, SHARED, Problem, describe, kind_of, pointer
from rulebook.sources import Source, read_sources, sources_document

FOLDER = Path(__file__).resolve().parent
EXTRACT = ()  # the shared extraction takes all it shows
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
    cards: int  # the highest card
    sections: tuple[Section, ...]
    rules: dict[str, str]
    titles: dict[str, str]
    disagreements: tuple[dict[str, Any], ...] = ()
    faq: tuple[dict[str, Any], ...] = ()
    asked: dict[str, tuple[str, ...]] = field(default_factory=dict)  # none: still found
    cache: dict[Any, Any] = field(default_factory=dict)


@cache
def _default() -> Rulebook:
    return load_rulebook(FOLDER / "rulebook.yaml")


def load_rulebook(path: Path | str | None = None) -> Rulebook:
    if path is None:
        return _default()
    data = load_yaml_checked(path, FOLDER / "schemas" / "rulebook.schema.json")
    rules, _ = collect_rules(data)
    sections = tuple(Section(s["id"], s["title"], {k: rules[k] for k in s["rules"]})
                     for s in data["sections"])
    return Rulebook(data["title"], data["canonical_source"], read_sources(data), data["cards"],
                    sections, rules, collect_titles(data))


def read_cards(request: object, rb: Rulebook, lang: str) -> tuple[dict[str, int], list[Problem]]:
    """The two cards of a request, or every problem with it."""
    t = translator(lang)

    def problem(code: str, path: str, rule: str, message: str, **values: Any) -> Problem:
        return Problem(code, path, rule, t.gettext(message).format(**values), kind_of(code))

    if not isinstance(request, dict):
        return {}, [problem("request.not-object", "", "referee.request", SHARED["request.not-object"])]
    problems = [problem("request.unknown-field", pointer(key), "referee.request",
                        SHARED["request.unknown-field"], field=key)
                for key in request if key not in ("game", "cards")]
    cards = request.get("cards")
    if "cards" not in request:
        problems.append(problem("request.missing-field", "/cards", "referee.request",
                                SHARED["request.missing-field"], field="cards"))
        return {}, problems
    if not isinstance(cards, dict):
        problems.append(problem("request.type", "/cards", "referee.request", SHARED["request.type"],
                                expected=t.gettext(EXPECTED["object"]), value=describe(cards, t)))
        return {}, problems
    problems += [problem("request.unknown-field", pointer("cards", key), "referee.request",
                         SHARED["request.unknown-field"], field=key)
                 for key in cards if key not in PLAYERS]
    shown = {}
    for player in PLAYERS:
        value = cards.get(player)
        where = pointer("cards", player)
        if player not in cards:
            problems.append(problem("request.missing-field", where, "referee.request",
                                    SHARED["request.missing-field"], field=player))
        elif type(value) is not int:
            problems.append(problem("request.type", where, "play.show", SHARED["request.type"],
                                    expected=t.gettext(EXPECTED["integer"]),
                                    value=describe(value, t)))
        elif not 1 <= value <= rb.cards:
            problems.append(problem("card.value", where, "play.show", CARD, cards=rb.cards,
                                    value=value))
        else:
            shown[player] = value
    return shown, problems


def referee(request: object, lang: str = "en", rulebook: Rulebook | None = None) -> dict[str, Any]:
    rb = rulebook or load_rulebook()
    cards, problems = read_cards(request, rb, lang)
    if problems:
        return {"valid": False, "errors": [p.as_dict() for p in problems]}
    t = translator(lang)
    names = Names(lang)
    a, b = cards["a"], cards["b"]
    if a == b:
        winner, rule, message = None, "play.tie", t.gettext(SHARED_WIN)
    else:
        winner = "a" if a > b else "b"
        rule, message = "play.higher", names.cap(t.gettext(WINS).format(player=names[winner]))
    return {"valid": True, "game": "tiny", "cards": cards,
            "result": {"status": "shared" if winner is None else "win", "winner": winner,
                       "message": message},
            "explanation": [{"rule": rule, "message": message}]}


def document(lang: str) -> dict[str, Any]:
    rb = load_rulebook()
    t = translator(lang)

    def section(s: Section) -> dict[str, Any]:
        context = "section." + s.id
        return {"id": s.id, "title": t.pgettext(context, s.title),
                "rules": [{"id": r, "text": t.pgettext(r, text)} for r, text in s.rules.items()]}

    return {"game": "tiny", "language": lang, "canonical_source": rb.canonical_source,
            "sources": sources_document(rb.sources, t), "cards": rb.cards,
            "sections": [section(s) for s in rb.sections]}

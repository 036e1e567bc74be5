"""Hanamikoji's editions side by side: for every key of Rulebook.compared(), its row label,
its group on the page and each edition's fact in words (webapp/pages/compare.py builds the
page; the sources come from Rulebook.provenance)."""
from __future__ import annotations

from typing import Any

from flask_babel import gettext, lazy_gettext
from markupsafe import Markup

from ..terms import language_name
from .options import round_limit_status
from .terms import Terms

ITEMS = "editions"  # the page's address: /<lang>/hanamikoji/editions
TITLE = lazy_gettext("Editions side by side")
NAV = lazy_gettext("All editions")  # its short name in the game's navigation
LEAD = lazy_gettext(
    "The same game is printed by several publishers. Here is every edition this site knows, "
    "fact by fact, with the source behind each and how it was read.")
PICK = lazy_gettext("Compare two editions")
UNKNOWN_ITEM = lazy_gettext("There is no edition “%(value)s” to compare; showing %(default)s.")
ITEM_PARAMETER = "edition"  # the rules page's option that selects one

THEMES = {
    "geishas": lazy_gettext("Geishas"),
    "dancers": lazy_gettext("Dancers"),
    "scholars": lazy_gettext("Scholars"),
}
FIRST_PLAYERS = {
    "youngest": lazy_gettext("The youngest player"),
    "birthday": lazy_gettext("Whoever most recently had a birthday"),
    "unknown": lazy_gettext("Not documented"),
}
ROW_LABELS = {
    "publisher": lazy_gettext("Publisher"),
    "language": lazy_gettext("Language"),
    "year": lazy_gettext("Year"),
    "theme": lazy_gettext("The seven figures"),
    "first_player": lazy_gettext("Who starts the game"),
    "round_limit": lazy_gettext("Three-round limit"),
    "tiebreak": lazy_gettext("Tie-break after the last round"),
}


def items(rb: Any) -> list[tuple[str, str]]:
    return [(e.id, e.name) for e in rb.editions.values()]


def rows(rb: Any) -> list[tuple[str, Any, list[str]]]:
    keys = rb.compared()
    groups = (
        ("box", lazy_gettext("The box"), ("publisher", "language", "year", "theme")),
        ("actions", lazy_gettext("Printed action names"),
         tuple(k for k in keys if k.startswith("actions."))),
        ("play", lazy_gettext("Starting and ending the game"),
         ("first_player", "round_limit", "tiebreak")),
    )
    out = [(gid, title, [k for k in wanted if k in keys]) for gid, title, wanted in groups]
    placed = {k for _, _, listed in out for k in listed}
    rest = [k for k in keys if k not in placed]
    if rest:
        out.append(("other", lazy_gettext("Other facts"), rest))
    return [row for row in out if row[2]]


def label(rb: Any, terms: Terms, key: str) -> str:
    kind, _, action = key.partition(".")
    if kind == "actions":
        return terms.action(action)
    return str(ROW_LABELS.get(key, key))


def rule(rb: Any, key: str) -> str:
    kind, _, action = key.partition(".")
    if kind == "actions":
        return rb.actions[action].rule
    return {"theme": "components.geishas", "first_player": "setup.first-player",
            "round_limit": "variant.round-limit", "tiebreak": "variant.round-limit",
            }.get(key, "edition.action-names")


def cell(rb: Any, terms: Terms, edition_id: str, key: str) -> tuple[Any, Any, bool]:
    """(a comparable value, the fact in words, whether the words already say "not
    documented") of one edition's fact."""
    e = rb.editions[edition_id]
    kind, _, action = key.partition(".")
    if key == "publisher":
        return e.publisher, e.publisher, False
    if key == "language":
        return e.language, language_name(e.language, terms.lang), False
    if key == "year":
        if e.year is None:
            return None, gettext("Not documented"), True
        return e.year, str(e.year), False
    if key == "theme":
        return e.theme, str(THEMES[e.theme]), False
    if kind == "actions":
        name = e.actions[action]
        if name is None:
            return None, gettext("Not found in our sources"), True
        return name, Markup('<span lang="{}">{}</span>').format(e.language, name), False
    if key == "first_player":
        return e.first_player, str(FIRST_PLAYERS[e.first_player]), e.first_player == "unknown"
    if key == "round_limit":
        status = e.round_limit.status
        return status, round_limit_status(rb, edition_id), status == "unknown"
    if key == "tiebreak":
        chain = e.round_limit.tiebreak
        if e.round_limit.status in ("none", "unknown") or chain == ("unknown",):
            return chain, gettext("None printed"), e.round_limit.status == "unknown"
        steps = [terms.rule_title(rb.tiebreak_rules[step]) for step in chain]
        return chain, " → ".join(steps), False
    raise KeyError(key)

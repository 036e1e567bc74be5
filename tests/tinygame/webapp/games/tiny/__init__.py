"""Higher card on the site: its terms and its checker (the web side; see
webapp/games/base.py for what a game's web package provides).

Its rules pages have no options; its checker reads the two cards from the query, asks the
referee and shows its answer. Its templates are in templates/games/tiny/.
"""
from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext
from markupsafe import Markup, escape
from rulebook.tiny import Rulebook, load_rulebook

from rulebook.players import PLAYERS
from rulebook.referee import referee

from ..base import Options, Query, Redirect, WebGame
from ..terms import GameTerms


class Terms(GameTerms):
    def rule(self, rule_id: str) -> str:
        return self.p(rule_id, self.rb.rules[rule_id])

    def rule_html(self, rule_id: str) -> Markup:
        return escape(self.rule(rule_id))


def checker(rb: Rulebook, args: Query, lang: str) -> Redirect | dict[str, Any]:
    """The page of `?a=7&b=3`: the referee's ruling on the two cards, or its problems."""
    raw = {p: args.get(p, "").strip() for p in PLAYERS}
    if all(p in args for p in PLAYERS) and not any(raw.values()):
        return Redirect("")  # an empty form sent: start again at the bare address
    ruling = None
    if any(raw.values()):
        cards = {p: int(v) if v.isdigit() else v for p, v in raw.items()}
        ruling = referee({"game": "tiny", "cards": cards}, lang)
    errors: dict[str, list[dict[str, Any]]] = {}
    for error in (ruling or {}).get("errors", []):
        errors.setdefault(error["path"].rsplit("/", 1)[-1], []).append(error)
    return {"raw": raw, "ruling": ruling, "field_errors": errors, "page_args": {}}


WEB = WebGame(
    slug="tiny",
    title=lazy_gettext("Higher card"),
    tagline=lazy_gettext("Each player shows a card; the higher one wins."),
    load=load_rulebook,
    options=lambda rb, args: Options({}, {}),
    terms=lambda rb, lang, options: Terms(rb, lang),
    checker=checker,
    checker_parameters=lambda rb: frozenset(PLAYERS),
    example={"game": "tiny", "cards": {"a": 7, "b": 3}},
)

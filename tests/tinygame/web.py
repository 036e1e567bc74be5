"""The web side of the test game "Higher card": its page options, terms and checker."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from markupsafe import Markup, escape

from rulebook.referee import referee
from webapp.games.base import Options, Redirect, WebGame
from webapp.games.terms import GameTerms

from . import load_rulebook


class Terms(GameTerms):
    def rule(self, rule_id: str) -> str:
        return self.p(rule_id, self.rb.rules[rule_id])

    def rule_html(self, rule_id: str) -> Markup:
        return escape(self.rule(rule_id))


def checker(rb: Any, args: Any, lang: str) -> Redirect | dict[str, Any]:
    raw = {p: args.get(p, "").strip() for p in ("a", "b")}
    if "a" in args and not raw["a"]:  # an empty form: start again at the bare address
        return Redirect("")
    request = None
    if any(raw.values()):
        cards = {p: int(v) if v.isdigit() else v for p, v in raw.items()}
        request = {"game": "tiny", "cards": cards}
    return {"raw": raw, "ruling": referee(request, lang) if request else None,
            "page_args": {}, "notices": []}


WEB = WebGame(
    slug="tiny",
    title="Higher card",
    tagline="Each player shows a card; the higher one wins.",
    load=load_rulebook,
    options=lambda rb, args: Options({}, {}),
    terms=lambda rb, lang, options: Terms(rb, lang),
    checker=checker,
    templates=str(Path(__file__).resolve().parent / "templates"),
    checker_parameters=lambda rb: frozenset({"a", "b"}),
)

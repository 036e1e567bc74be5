"""The Koi-Koi scoring checker, `/<lang>/koikoi/score`: pick piles, get the referee's ruling.

The whole state lives in the query string (a GET form), so every ruling has a permalink:
`a=0,2,8,10&b=1,3&winner=a&ka=0&kb=1&ruleset=nintendo&viewings=off`. Without
JavaScript the form submits and this view renders the ruling; with JavaScript
`static/js/koikoi_checker.js` asks the JSON API on every change. Both call the same
referee. Malformed values become field errors in the page's language, never a 500.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, g, redirect, render_template, request, url_for
from flask_babel import gettext, ngettext

from rulebook.koikoi import referee

from . import koikoi_site
from .games import GAMES
from .rules import _context

bp = Blueprint("koikoi_checker", __name__)

MAX_PILE_TEXT = 400  # characters of one pile parameter
MAX_TOKENS = 48
PLAYERS = ("a", "b")
WINNERS = {"a": "a", "b": "b", "none": None}
STATE_FIELDS = ("a", "b", "winner", "ka", "kb", "ruleset")
QUERY_PARAMETERS = {"koikoi_checker.score": (*STATE_FIELDS, *GAMES["koikoi"].option_keys)}


@dataclass
class State:
    """The checker form as typed, what could be read from it, and the field errors."""

    piles: dict[str, list[int]]
    raw: dict[str, str]  # field -> value as typed (for re-display)
    winner: str  # "a" | "b" | "none"
    calls: dict[str, Any]  # player -> int (or the raw text when it is not a number)
    table: koikoi_site.Table
    errors: dict[str, list[str]] = field(default_factory=dict)

    def error(self, name: str, message: str) -> None:
        self.errors.setdefault(name, []).append(message)

    @property
    def query(self) -> dict[str, str]:
        """The compact permalink query (same order every time)."""
        out = {p: ",".join(str(c) for c in self.piles[p]) for p in PLAYERS if self.piles[p]}
        out["winner"] = self.winner
        for p in PLAYERS:
            out[f"k{p}"] = str(self.calls[p])
        out["ruleset"] = self.table.ruleset
        for key, value in self.table.overrides.items():
            out[key] = koikoi_site.encode(value)
        return out


def parse_pile(rb: Any, values: list[str], name: str, state: State) -> list[int]:
    text = ",".join(v for v in values if v is not None)
    state.raw[name] = text[:MAX_PILE_TEXT]
    if len(text) > MAX_PILE_TEXT:
        state.error(name, ngettext("This pile is too long: list at most %(num)s card.",
                                     "This pile is too long: list at most %(num)s cards.", MAX_TOKENS))
        return []
    tokens = [t for t in text.replace(" ", ",").split(",") if t]
    if len(tokens) > MAX_TOKENS:
        state.error(name, ngettext("This pile is too long: list at most %(num)s card.",
                                     "This pile is too long: list at most %(num)s cards.", MAX_TOKENS))
        return []
    cards: list[int] = []
    bad: list[str] = []
    for token in tokens:
        if token.isascii() and token.isdigit() and int(token) < len(rb.cards):
            cards.append(int(token))
        elif token in rb.card_by_slug:
            cards.append(rb.card_by_slug[token])
        else:
            bad.append(koikoi_site.short(token))
    if bad:
        state.error(name, gettext(
            "“%(value)s” is not a card: use the numbers 0 to %(last)s shown on the chart.",
            value=bad[0], last=len(rb.cards) - 1))
    return cards


def parse_state(rb: Any, args: Any) -> State:
    table = koikoi_site.parse_table(rb, args)
    state = State({}, {}, "a", {"a": 0, "b": 0}, table)
    for key, message in table.errors.items():
        state.error(key, message)
    for p in PLAYERS:
        state.piles[p] = parse_pile(rb, args.getlist(p), p, state)
    winner = args.get("winner", "a").strip()
    state.raw["winner"] = winner[:koikoi_site.MAX_VALUE]
    if winner in WINNERS:
        state.winner = winner
    else:
        state.error("winner", gettext("“%(value)s” is not a choice here: pick player A, player B or nobody.",
                                      value=koikoi_site.short(winner)))
    for p in PLAYERS:
        value = args.get(f"k{p}", "").strip()
        state.raw[f"k{p}"] = value[:koikoi_site.MAX_VALUE]
        if not value:
            continue
        if value.isascii() and value.isdigit() and len(value) <= 3:
            state.calls[p] = int(value)
        else:
            state.error(f"k{p}", gettext("“%(value)s” is not a number of calls: enter 0, 1, 2 …",
                                         value=koikoi_site.short(value)))
    return state


def referee_request(state: State) -> dict[str, Any]:
    """The JSON request the checker sends (the same one the JavaScript builds)."""
    winner = WINNERS.get(state.winner)
    captured = {p: state.piles[p] for p in PLAYERS if state.piles[p] or p == winner}
    return {
        "game": "koikoi",
        "ruleset": state.table.ruleset,
        "options": dict(state.table.overrides),
        "rounds": [{"winner": winner, "captured": captured, "koikoi": dict(state.calls)}],
    }


def error_field(path: str) -> str:
    """The form field a referee error's JSON pointer belongs to."""
    parts = path.strip("/").split("/")
    if parts[0] == "ruleset":
        return "ruleset"
    if parts[0] == "options" and len(parts) > 1:
        return parts[1]
    if parts[0] == "rounds" and len(parts) > 2:
        if parts[2] == "captured" and len(parts) > 3 and parts[3] in PLAYERS:
            return parts[3]
        if parts[2] == "koikoi" and len(parts) > 3 and parts[3] in PLAYERS:
            return "k" + parts[3]
        if parts[2] == "winner":
            return "winner"
    return "form"


@bp.get("/<lang:lang>/koikoi/score")
def score():
    ctx = _context("koikoi")
    rb = ctx["rb"]
    args = request.args
    state = parse_state(rb, args)
    submitted = any(key in args for key in STATE_FIELDS)
    ruling = None
    req = referee_request(state)
    if submitted:
        # A plain form submit sends a=0&a=8 and every empty option: tidy it into the
        # compact permalink (only when nothing needs to be shown as typed).
        if not state.errors and sorted(args.items(multi=True)) != sorted(state.query.items()):
            return redirect(url_for("koikoi_checker.score", **state.query), 302)
        ruling = referee(req, g.lang)
        if not ruling["valid"]:
            unread = set(state.errors)  # fields already showing why they were not read
            for error in ruling["errors"]:
                name = error_field(error["path"])
                if name == "form" or name not in unread:
                    state.error(name, error["message"])
    ctx["notices"] = []  # option errors are shown next to their fields here
    scored: dict[str, int] = {}
    highlight: set[str] = set()
    round_ = None
    if ruling and ruling.get("valid") and not state.errors:
        round_ = ruling["rounds"][0]
        for y in round_["yaku"]:
            scored[y["id"]] = y["points"]
            highlight.update(y["cards"])
    rules_query = {"ruleset": state.table.ruleset,
                   **{k: koikoi_site.encode(v) for k, v in state.table.overrides.items()}}
    permalink = url_for("koikoi_checker.score", **state.query) if submitted else None
    return render_template(
        "koikoi_checker/score.html",
        page="koikoi-score",
        ck=state,
        submitted=submitted,
        ruling=ruling,
        round=round_,
        scored=scored,
        highlight=highlight,
        request_json=req,
        rules_query=rules_query,
        permalink=permalink,
        table=state.table,
        field_errors={k: " ".join(v) for k, v in state.errors.items()},
        **ctx,
    )

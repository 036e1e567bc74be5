"""The Koi-Koi checker's form <-> the referee's request, and the links it offers."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from flask_babel import gettext, ngettext

from rulebook.i18n import N_
from rulebook.players import PLAYERS

from ..base import short
from ..sheet import PARAMETER as SHEET
from .options import MAX_VALUE, Table, encode, parse_table
from .sheet import next_sheet

# -- the scoring checker ------------------------------------------------------------------------
# The whole state lives in the query string (a GET form), so every ruling has a permalink:
# `a=0,2,8,10&b=1,3&winner=a&ka=0&kb=1&ruleset=nintendo&viewings=off`, and the match around
# the round: `na=Olena&nb=Jonas&round=3&dealer=b&ta=15&tb=2` (names, the round of the match,
# who deals it, the points each player had before it; left out: round 1, the first dealer,
# no points). A stepper button without JavaScript sends `step=a:+1` (koi-koi calls), and
# "Score the round" `check=1`: a month with one or three cards ticked is a capture still
# being picked (a neutral hint), until the player asks for the ruling.
MAX_PILE_TEXT = 400  # characters of one pile parameter
MAX_TOKENS = 48
MAX_NAME = 40
WINNERS = {"a": "a", "b": "b", "none": None}
MATCH_FIELDS = ("na", "nb", "round", "dealer", "ta", "tb")
STATE_FIELDS = ("a", "b", "winner", "ka", "kb", "ruleset", "check", *MATCH_FIELDS, SHEET)
EVENTS = ("step",)


@dataclass
class State:
    """The checker form as typed, what could be read from it, and the field errors."""

    piles: dict[str, list[int]]
    raw: dict[str, str]  # field -> value as typed (for re-display)
    winner: str  # "a" | "b" | "none"
    calls: dict[str, Any]  # player -> int (or the raw text when it is not a number)
    table: Table
    errors: dict[str, list[str]] = field(default_factory=dict)
    match: dict[str, str] = field(default_factory=dict)  # MATCH_FIELDS as typed ("" = default)
    check: bool = False  # the player asked for the ruling: every problem is shown
    pending: dict[str, list[str]] = field(default_factory=dict)  # pairs still being picked
    sheet: str = ""  # the rounds played before this one (webapp/games/koikoi/sheet.py)

    def error(self, name: str, message: str) -> None:
        self.errors.setdefault(name, []).append(message)

    @property
    def query(self) -> dict[str, str]:
        """The compact permalink query (same order every time)."""
        out = {key: value for key, value in self.match.items() if value}
        if self.sheet:
            out[SHEET] = self.sheet
        out.update({p: ",".join(str(c) for c in self.piles[p]) for p in PLAYERS if self.piles[p]})
        out["winner"] = self.winner
        for p in PLAYERS:
            out[f"k{p}"] = str(self.calls[p])
        out["ruleset"] = self.table.ruleset
        for key, value in self.table.overrides.items():
            out[key] = encode(value)
        if self.table.house:
            out["house"] = self.table.house
        if self.check:
            out["check"] = "1"
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
            bad.append(short(token))
    if bad:
        state.error(name, gettext(
            "“%(value)s” is not a card: use the numbers 0 to %(last)s shown on the chart.",
            value=bad[0], last=len(rb.cards) - 1))
    return cards


def parse_match(rb: Any, args: Any) -> dict[str, str]:
    """The match fields as typed, a default value left out (round 1, the first dealer, 0)."""
    defaults = {"round": "1", "dealer": rb.first_dealer, "ta": "0", "tb": "0"}
    out = {}
    for key in MATCH_FIELDS:
        value = args.get(key, "").strip()[:MAX_VALUE * 2]
        out[key] = "" if value == defaults.get(key) else value
    return out


def parse_state(rb: Any, args: Any) -> State:
    table = parse_table(rb, args)
    state = State({}, {}, "a", {"a": 0, "b": 0}, table, match=parse_match(rb, args),
                  check=args.get("check", "") == "1", sheet=args.get(SHEET, "").strip())
    for key, message in table.errors.items():
        state.error(key, message)
    for p in PLAYERS:
        state.piles[p] = parse_pile(rb, args.getlist(p), p, state)
    winner = args.get("winner", "a").strip()
    state.raw["winner"] = winner[:MAX_VALUE]
    if winner in WINNERS:
        state.winner = winner
    else:
        state.error("winner", gettext("“%(value)s” is not a choice here: pick player A, player B or nobody.",
                                      value=short(winner)))
    for p in PLAYERS:
        value = args.get(f"k{p}", "").strip()
        state.raw[f"k{p}"] = value[:MAX_VALUE]
        if not value:
            continue
        if value.isascii() and value.isdigit() and len(value) <= 3:
            state.calls[p] = int(value)
        else:
            state.error(f"k{p}", gettext("“%(value)s” is not a number of calls: enter 0, 1, 2 …",
                                         value=short(value)))
    return state


def _whole(text: str) -> Any:
    """A whole number when the text is one (below zero too: totals taken from the other
    player, options.zero-sum), else the text (the referee says why not)."""
    digits = text.removeprefix("-")
    return int(text) if digits.isascii() and digits.isdigit() and len(digits) <= 7 else text


def referee_request(state: State) -> dict[str, Any]:
    """The JSON request the checker sends: the round, and where it stands in the match."""
    winner = WINNERS.get(state.winner)
    captured = {p: state.piles[p] for p in PLAYERS if state.piles[p] or p == winner}
    request: dict[str, Any] = {
        "game": "koikoi",
        "ruleset": state.table.ruleset,
        "options": dict(state.table.overrides),
    }
    match = state.match
    players = {p: match[f"n{p}"] for p in PLAYERS if match[f"n{p}"]}
    if players:
        request["players"] = players
    start: dict[str, Any] = {}
    if match["round"]:
        start["round"] = _whole(match["round"])
    if match["dealer"]:
        start["dealer"] = match["dealer"]
    totals = {p: _whole(match[f"t{p}"]) for p in PLAYERS if match[f"t{p}"]}
    if totals:
        start["totals"] = totals
    if start:
        request["start"] = start
    request["rounds"] = [{"winner": winner, "captured": captured, "koikoi": dict(state.calls)}]
    return request


def error_field(path: str) -> str:
    """The form field a referee error's JSON pointer belongs to."""
    head, key, player = (path.strip("/").split("/") + ["", "", ""])[:3]
    if head == "ruleset":
        return "ruleset"
    if head == "options" and key:
        return key
    if head == "players" and key in PLAYERS:
        return "n" + key
    if head == "start" and key:
        if key == "totals" and player in PLAYERS:
            return "t" + player
        return key if key in ("round", "dealer") else "form"
    if head == "rounds":
        return _round_field(path.strip("/").split("/")[2:])
    return "form"


def _round_field(parts: list[str]) -> str:
    """The field of an error inside the round: a pile, a player's calls, the winner."""
    key, player = (parts + ["", ""])[:2]
    if key in ("captured", "koikoi") and player in PLAYERS:
        return ("k" if key == "koikoi" else "") + player
    return "winner" if key == "winner" else "form"


def apply_step(state: State, value: str) -> bool:
    """`a:+1`: one koi-koi call more by A (never below 0); True when the value is one."""
    player, _, change = value.partition(":")
    if player not in PLAYERS or change not in ("+1", "-1") or not isinstance(
            state.calls[player], int):
        return False
    state.calls[player] = max(state.calls[player] + int(change), 0)
    return True


def next_round(rb: Any, state: State, ruling: dict[str, Any],
               request: dict[str, Any]) -> str | None:
    """The next round's query: the round after this one, dealt by whom the referee says,
    with the new totals and this round on the score sheet; names, ruleset and options
    kept. None once the match is over."""
    after = ruling["next"]
    if after is None:
        return None
    match = parse_match(rb, {"na": state.match["na"], "nb": state.match["nb"],
                             "round": str(after["round"]), "dealer": after["dealer"],
                             **{f"t{p}": str(ruling["totals"][p]) for p in PLAYERS}})
    query = {k: v for k, v in match.items() if v}
    query[SHEET] = next_sheet(rb, state.sheet, state.match, request["rounds"][0])
    query.update({"winner": "a", "ka": "0", "kb": "0", "ruleset": state.table.ruleset})
    query.update({key: encode(value) for key, value in state.table.overrides.items()})
    if state.table.house:
        query["house"] = state.table.house
    return "&".join(f"{k}={quote(v, safe=',')}" for k, v in query.items())


def permalink(state: State) -> str:
    return "&".join(f"{k}={quote(v, safe=',')}" for k, v in state.query.items())


def display_names(state: State, lang: str) -> dict[str, str]:
    """The players' names as typed (a valid one), else "Player A" / "Player B"."""
    from rulebook.i18n import translator

    t = translator(lang)
    out = {"a": t.gettext(N_("Player A")), "b": t.gettext(N_("Player B"))}
    for p in PLAYERS:
        name = state.match[f"n{p}"]
        if name and len(name) <= MAX_NAME:
            out[p] = name
    return out

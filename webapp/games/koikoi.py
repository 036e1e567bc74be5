"""Koi-Koi on the site: display names, the table options of the GET forms, the card chart,
and its scoring checker.

No game logic: values come from the rulebook, rulings from the referee.
"""
from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any
from urllib.parse import quote

from flask_babel import gettext, lazy_gettext, ngettext
from markupsafe import Markup, escape

from rulebook.i18n import N_
from rulebook.koikoi import load_rulebook, referee
from rulebook.players import PLAYERS

from ..terms import GameTerms
from .base import Options, Redirect, WebGame, short

MAX_VALUE = 40  # characters of a query value we look at (longer ones are refused)

KIND_LABELS = {
    "bright": N_("Bright"),
    "animal": N_("Animal"),
    "ribbon": N_("Ribbon"),
    "plain": N_("Plain"),
}
GROUP_LABELS = {
    "brights": N_("Brights"),
    "animals": N_("Animals"),
    "ribbons": N_("Ribbons"),
    "other": N_("Other"),
    "hand": N_("Dealt hand"),
}

# Option labels and choice labels (query value -> label), in the YAML's order.
OPTION_LABELS = {
    "viewings": lazy_gettext("Viewings"),
    "flower_viewing": lazy_gettext("Flower Viewing yaku"),
    "moon_viewing": lazy_gettext("Moon Viewing yaku"),
    "rain_man_spoils_viewings": lazy_gettext("Rain spoils the viewings"),
    "lightning_spoils_viewings": lazy_gettext("Lightning spoils the viewings"),
    "sake_cup_as_plain": lazy_gettext("Sake cup as a plain"),
    "tsukifuda": lazy_gettext("Cards of the Month"),
    "seven_point_double": lazy_gettext("Seven-point double"),
    "koikoi_multiplier": lazy_gettext("Koi-koi double"),
    "double_cap": lazy_gettext("Double cap"),
    "hand_yaku": lazy_gettext("Hand yaku"),
    "rounds": lazy_gettext("Match length"),
    "koikoi_limit": lazy_gettext("Koi-koi calls per player and round"),
    "dealer_rotation": lazy_gettext("Dealer rotation"),
    "draw_dealer": lazy_gettext("Dealer after a draw"),
    "draw_dealer_points": lazy_gettext("Dealer's points after a round without winner"),
}
CHOICE_LABELS = {
    ("viewings", "on"): lazy_gettext("Count as usual"),
    ("viewings", "off"): lazy_gettext("Never count"),
    ("viewings", "with_other"): lazy_gettext("Only with another yaku"),
    ("sake_cup_as_plain", "choose"): lazy_gettext("Whichever scores more"),
    ("koikoi_multiplier", "opponent_called"): lazy_gettext("When the opponent called"),
    ("koikoi_multiplier", "winner_called"): lazy_gettext("When the winner called"),
    ("koikoi_multiplier", "per_call"): lazy_gettext("Number of calls + 1"),
    ("dealer_rotation", "winner"): lazy_gettext("The winner deals"),
    ("dealer_rotation", "alternate"): lazy_gettext("Players alternate"),
    ("draw_dealer", "other"): lazy_gettext("The other player deals"),
    ("draw_dealer", "same"): lazy_gettext("The dealer deals again"),
}


def encode(value: Any) -> str:
    """An option value as it appears in a query string."""
    if value is True:
        return "1"
    if value is False:
        return "0"
    if value is None:
        return "none"
    return str(value)


def choice_label(option: str, value: Any) -> str:
    """A translated label for an option's value (in the page language)."""
    if value is True:
        return gettext("On")
    if value is False:
        return gettext("Off")
    if value is None:
        return gettext("No limit")
    label = CHOICE_LABELS.get((option, value))
    if label is not None:
        return str(label)
    if option == "rounds":
        return ngettext("%(num)s round", "%(num)s rounds", value)
    return str(value)


def decode(spec: Any, raw: str) -> tuple[bool, Any]:
    """(ok, typed value) for a query value of an option."""
    raw = raw.strip().lower()
    if spec.nullable and raw in ("none", "null", "no-limit"):
        return True, None
    if spec.choices is not None:
        for choice in spec.choices:
            if isinstance(choice, bool):
                if raw in (("1", "on", "true", "yes") if choice else ("0", "off", "false", "no")):
                    return True, choice
            elif raw == str(choice).lower():
                return True, choice
        return False, None
    if raw.isascii() and raw.isdigit() and len(raw) <= 6:
        value = int(raw)
        if spec.int_min <= value <= spec.int_max:
            return True, value
    return False, None


@dataclass(frozen=True)
class Table:
    """A ruleset and the table options chosen in a query string."""

    ruleset: str
    raw: dict[str, str]  # option -> query value as typed ("" when not set)
    overrides: dict[str, Any]  # option -> typed value, only the valid ones that were set
    errors: dict[str, str]  # field name -> translated message
    effective: dict[str, Any]  # every option, after ruleset defaults and overrides


def parse_table(rb: Any, args: Mapping[str, str]) -> Table:
    errors: dict[str, str] = {}
    ruleset = args.get("ruleset", "").strip()
    if ruleset not in rb.rulesets:
        if ruleset:
            errors["ruleset"] = gettext(
                "There is no ruleset “%(value)s”; showing the %(default)s rules.",
                value=short(ruleset), default=rb.rulesets[rb.default_ruleset].name,
            )
        ruleset = rb.default_ruleset
    raw: dict[str, str] = {}
    overrides: dict[str, Any] = {}
    for key, spec in rb.options.items():
        value = args.get(key, "").strip()
        raw[key] = value[: MAX_VALUE * 2]
        if not value:
            continue
        ok, typed = decode(spec, value) if len(value) <= MAX_VALUE else (False, None)
        if ok:
            overrides[key] = typed
        else:
            errors[key] = gettext(
                "“%(value)s” is not a value of “%(option)s”; the ruleset's value applies.",
                value=short(value), option=OPTION_LABELS[key],
            )
    return Table(ruleset, raw, overrides, errors, rb.effective_options(ruleset, overrides))


def koikoi_options(rb: Any, args: Mapping[str, str]) -> Any:
    """The rules page options: ruleset=<id> and the table options; bad values -> notices."""
    table = parse_table(rb, args)
    values = {"ruleset": table.ruleset}
    defaults = {"ruleset": rb.default_ruleset}
    for key in rb.options:
        values[key] = encode(table.overrides[key]) if key in table.overrides else ""
        defaults[key] = ""
    return Options(values, defaults, tuple(table.errors.values()), {"table": table})


def koikoi_highlights(rb: Any, options: Any) -> dict[str, Any]:
    table = options.table
    out: dict[str, Any] = {rb.rulesets[table.ruleset].rule: lazy_gettext("Selected ruleset")}
    ruleset_defaults = rb.effective_options(table.ruleset)
    for key, value in table.overrides.items():
        if value != ruleset_defaults[key] or type(value) is not type(ruleset_defaults[key]):
            out[rb.options[key].rule] = lazy_gettext("In use at this table")
    return out


class KoikoiTerms(GameTerms):
    """Koi-Koi names and rule texts in one language (used for compare mode as well)."""

    def __init__(self, rulebook: Any, lang: str, options: Any = None):
        super().__init__(rulebook, lang)

    def rule(self, rule_id: str) -> str:
        return self.p(rule_id, self.rb.rules[rule_id])

    def rule_html(self, rule_id: str) -> Markup:
        return escape(self.rule(rule_id))

    def search_extra(self, rule_id: str) -> list[str]:
        """Words that find a rule besides its text: the names of its yaku."""
        return [w for y in self.rb.yaku if y.rule == rule_id for w in (self.yaku(y.id), y.romaji)]

    # -- names -----------------------------------------------------------------------
    def card(self, card: Any) -> str:
        return self.p(f"koikoi.card.{card.slug}", card.name)

    def month(self, number: int) -> str:
        return self.p(f"koikoi.month.{number}", self.rb.month_by_number[number].name)

    def yaku(self, yaku_id: str) -> str:
        return self.p(f"koikoi.yaku.{yaku_id}", self.rb.yaku_by_id[yaku_id].name)

    def kind(self, card: Any) -> str:
        return self.gettext(KIND_LABELS[card.kind])

    def kind_name(self, kind: str) -> str:
        return self.gettext(KIND_LABELS[kind])

    def group(self, group_id: str) -> str:
        return self.gettext(GROUP_LABELS[group_id])

    @cached_property
    def months(self) -> list[tuple[Any, list[Any]]]:
        """(month, its four cards) in calendar order."""
        return [(m, [c for c in self.rb.cards if c.month == m.number]) for m in self.rb.months]

    def names_of(self, mask: int) -> list[str]:
        return [self.card(c) for c in self.rb.cards if (mask >> c.index) & 1]

    def needs(self, yaku: Any) -> str:
        """What a yaku needs, in words."""
        t = self._t
        if yaku.match == "cards":
            return ", ".join(
                t.gettext("%(card)s (%(month)s)") % {"card": self.card(c), "month": self.month(c.month)}
                for c in self.rb.cards if (yaku.cards >> c.index) & 1)
        if yaku.match == "round_month":
            return t.gettext("All four cards of the month the round is played in")
        if yaku.match == "hand":
            if yaku.hand_month_count:
                return t.ngettext(
                    "%(num)d cards of one month in the dealt hand",
                    "%(num)d cards of one month in the dealt hand", yaku.hand_month_count,
                ) % {"num": yaku.hand_month_count}
            return t.ngettext("%(num)d same-month pair in the dealt hand",
                              "%(num)d same-month pairs in the dealt hand",
                              yaku.hand_pairs) % {"num": yaku.hand_pairs}
        n = yaku.count_min
        counted = {
            "bright": t.ngettext("%(num)d bright", "%(num)d brights", n),
            "animal": t.ngettext("%(num)d animal", "%(num)d animals", n),
            "ribbon": t.ngettext("%(num)d ribbon", "%(num)d ribbons", n),
            "plain": t.ngettext("%(num)d plain", "%(num)d plains", n),
        }[yaku.count_kind] % {"num": n}
        if yaku.excluding:
            return t.gettext("%(count)s, not counting the %(cards)s") % {
                "count": counted, "cards": ", ".join(self.names_of(yaku.excluding))}
        if yaku.requires:
            return t.gettext("%(count)s, one of them the %(cards)s") % {
                "count": counted, "cards": ", ".join(self.names_of(yaku.requires))}
        return counted

    def stacking(self, ruleset: Any, yaku: Any) -> str:
        t = self._t
        if self.rb.groups[yaku.group] == "all":
            return t.gettext("Adds to every other yaku")
        partners = [self.yaku(y) for s in ruleset.stacks if yaku.id in s for y in sorted(s) if y != yaku.id]
        if partners:
            return t.gettext("Best of its group; scores together with %(yaku)s") % {
                "yaku": ", ".join(partners)}
        return t.gettext("Only the best yaku of its group scores")


def yaku_rows(rb: Any, terms: KoikoiTerms, ruleset_id: str, options: dict[str, Any]) -> list[dict]:
    """The yaku table of a ruleset under the table options (what the page shows)."""
    ruleset = rb.rulesets[ruleset_id]
    rows = []
    for y in rb.yaku:
        value = rb.table_value(ruleset_id, y.id)
        off = None
        if value is None:
            off = terms.gettext(N_("Not part of this ruleset"))
        elif value.points is None:
            off = terms.gettext(N_("Value not documented"))
        elif rb.yaku_off(y, options):
            off = terms.gettext(N_("Off at this table"))
        rows.append({
            "yaku": y,
            "name": terms.yaku(y.id),
            "needs": terms.needs(y),
            "points": value.points if value else None,
            "extra": bool(value and value.extra and y.extra),
            "extra_kind": terms.kind_name(y.extra) if y.extra else "",
            "group": terms.group(y.group),
            "stacking": terms.stacking(ruleset, y),
            "off": off,
        })
    return rows


# Presets offered in the option menus (query values); a valid value typed into the URL
# that is not a preset is added to the menu so the form shows it.
PRESETS = {
    "double_cap": ["none", "2", "4", "8", "16"],
    "koikoi_limit": ["none", "1", "2", "3"],
    "draw_dealer_points": ["0", "6"],
}


def option_label(option: str, value: Any) -> str:
    if option == "double_cap" and isinstance(value, int):
        return gettext("At most ×%(num)s", num=value)
    if option == "koikoi_limit" and isinstance(value, int):
        return str(value)
    if option == "draw_dealer_points" and isinstance(value, int):
        return ngettext("%(num)s point", "%(num)s points", value)
    return choice_label(option, value)


def option_choices(rb: Any, option: str, current: str = "") -> list[tuple[str, str, Any]]:
    """(query value, label, JSON value) for an option's menu."""
    spec = rb.options[option]
    if option in PRESETS:
        values = list(PRESETS[option])
        ok, typed = decode(spec, current) if current else (False, None)
        if ok and encode(typed) not in values:
            values.append(encode(typed))
    else:
        values = [encode(c) for c in spec.choices]
    out = []
    for v in values:
        typed = decode(spec, v)[1]
        out.append((v, option_label(option, typed), typed))
    return out


def options_in_force(rb: Any, table: Table) -> list[dict[str, Any]]:
    """Every option with its value at this table and whether the table changed it."""
    ruleset_defaults = rb.effective_options(table.ruleset)
    return [
        {"id": key, "rule": spec.rule, "label": OPTION_LABELS[key],
         "value": option_label(key, table.effective[key]),
         "changed": key in table.overrides and table.overrides[key] != ruleset_defaults[key]}
        for key, spec in rb.options.items()
    ]


# -- the scoring checker ------------------------------------------------------------------------
# The whole state lives in the query string (a GET form), so every ruling has a permalink:
# `a=0,2,8,10&b=1,3&winner=a&ka=0&kb=1&ruleset=nintendo&viewings=off`, and the match around
# the round: `na=Olena&nb=Jonas&round=3&dealer=b&ta=15&tb=2` (names, the round of the match,
# who deals it, the points each player had before it; left out: round 1, the first dealer,
# no points). A stepper button without JavaScript sends `step=a:+1` (koi-koi calls).
MAX_PILE_TEXT = 400  # characters of one pile parameter
MAX_TOKENS = 48
MAX_NAME = 40
WINNERS = {"a": "a", "b": "b", "none": None}
MATCH_FIELDS = ("na", "nb", "round", "dealer", "ta", "tb")
STATE_FIELDS = ("a", "b", "winner", "ka", "kb", "ruleset", *MATCH_FIELDS)
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

    def error(self, name: str, message: str) -> None:
        self.errors.setdefault(name, []).append(message)

    @property
    def query(self) -> dict[str, str]:
        """The compact permalink query (same order every time)."""
        out = {key: value for key, value in self.match.items() if value}
        out.update({p: ",".join(str(c) for c in self.piles[p]) for p in PLAYERS if self.piles[p]})
        out["winner"] = self.winner
        for p in PLAYERS:
            out[f"k{p}"] = str(self.calls[p])
        out["ruleset"] = self.table.ruleset
        for key, value in self.table.overrides.items():
            out[key] = encode(value)
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
    state = State({}, {}, "a", {"a": 0, "b": 0}, table, match=parse_match(rb, args))
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
    """A whole number when the text is one, else the text (the referee says why not)."""
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 7 else text


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
    parts = path.strip("/").split("/")
    if parts[0] == "ruleset":
        return "ruleset"
    if parts[0] == "options" and len(parts) > 1:
        return parts[1]
    if parts[0] == "players" and len(parts) > 1 and parts[1] in PLAYERS:
        return "n" + parts[1]
    if parts[0] == "start" and len(parts) > 1:
        if parts[1] == "totals" and len(parts) > 2 and parts[2] in PLAYERS:
            return "t" + parts[2]
        return parts[1] if parts[1] in ("round", "dealer") else "form"
    if parts[0] == "rounds" and len(parts) > 2:
        if parts[2] == "captured" and len(parts) > 3 and parts[3] in PLAYERS:
            return parts[3]
        if parts[2] == "koikoi" and len(parts) > 3 and parts[3] in PLAYERS:
            return "k" + parts[3]
        if parts[2] == "winner":
            return "winner"
    return "form"


def _step(state: State, value: str) -> bool:
    """`a:+1`: one koi-koi call more by A (never below 0); True when the value is one."""
    player, _, change = value.partition(":")
    if player not in PLAYERS or change not in ("+1", "-1") or not isinstance(
            state.calls[player], int):
        return False
    state.calls[player] = max(state.calls[player] + int(change), 0)
    return True


def next_round(rb: Any, state: State, ruling: dict[str, Any]) -> str | None:
    """The next round's query: the round after this one, dealt by whom the referee says,
    with the new totals; names, ruleset and options kept. None once the match is over."""
    after = ruling["next"]
    if after is None:
        return None
    match = parse_match(rb, {"na": state.match["na"], "nb": state.match["nb"],
                             "round": str(after["round"]), "dealer": after["dealer"],
                             **{f"t{p}": str(ruling["totals"][p]) for p in PLAYERS}})
    query = {k: v for k, v in match.items() if v}
    query.update({"winner": "a", "ka": "0", "kb": "0", "ruleset": state.table.ruleset})
    query.update({key: encode(value) for key, value in state.table.overrides.items()})
    return "&".join(f"{k}={quote(v, safe=',')}" for k, v in query.items())


def checker(rb: Any, args: Any, lang: str) -> Redirect | dict[str, Any]:
    """The checker page's context, or the compact permalink of a form as submitted."""
    state = parse_state(rb, args)
    submitted = any(key in args for key in STATE_FIELDS)
    if "step" in args and not state.errors and _step(state, args.get("step", "")):
        return Redirect(permalink(state))
    # A plain form submit sends a=0&a=8 and every empty option: tidy it into the compact
    # permalink (only when nothing needs to be shown as typed).
    if submitted and not state.errors and sorted(args.items(multi=True)) != sorted(
            state.query.items()):
        return Redirect(permalink(state))
    ruling = None
    req = referee_request(state)
    # The referee is asked once there is a round to score: cards ticked, or a round without
    # a winner. Before that, an empty pile is no mistake yet.
    asked = bool(state.piles["a"] or state.piles["b"]) or state.winner == "none"
    if asked:
        ruling = referee(req, lang)
        if not ruling["valid"]:
            unread = set(state.errors)  # fields already showing why they were not read
            for error in ruling["errors"]:
                name = error_field(error["path"])
                if name == "form" or name not in unread:
                    state.error(name, error["message"])
    scored: dict[str, int] = {}
    highlight: set[str] = set()
    round_ = None
    valid = bool(ruling and ruling.get("valid") and not state.errors)
    if valid:
        round_ = ruling["rounds"][0]
        for y in round_["yaku"]:
            scored[y["id"]] = y["points"]
            highlight.update(y["cards"])
    names = dict(ruling["players"]) if valid else _names(state, lang)
    return {
        "ck": state,
        "submitted": submitted,
        "asked": asked,
        "ruling": ruling,
        "round": round_,
        "result": ruling["result"] if valid else None,
        "totals": ruling["totals"] if valid else None,
        "names": names,
        "scored": scored,
        "highlight": highlight,
        "request_json": req,
        "table": state.table,
        "page_args": {"ruleset": state.table.ruleset,
                      **{k: encode(v) for k, v in state.table.overrides.items()}},
        "permalink_query": permalink(state) if asked else None,
        "next_query": next_round(rb, state, ruling) if valid else None,
        "clear_query": "&".join(f"{k}={quote(v, safe=',')}" for k, v in state.query.items()
                                if k in MATCH_FIELDS or k == "ruleset" or k in rb.options),
        "field_errors": {k: " ".join(v) for k, v in state.errors.items()},
        "error_count": sum(len(v) for v in state.errors.values()),
        "notices": [],  # option errors are shown next to their fields here
    }


def permalink(state: State) -> str:
    return "&".join(f"{k}={quote(v, safe=',')}" for k, v in state.query.items())


def _names(state: State, lang: str) -> dict[str, str]:
    """The players' names as typed (a valid one), else "Player A" / "Player B"."""
    from rulebook.i18n import translator

    t = translator(lang)
    out = {"a": t.gettext(N_("Player A")), "b": t.gettext(N_("Player B"))}
    for p in PLAYERS:
        name = state.match[f"n{p}"]
        if name and len(name) <= MAX_NAME:
            out[p] = name
    return out


WEB = WebGame(
    slug="koikoi",
    title=lazy_gettext("Koi-Koi"),
    tagline=lazy_gettext(
        "Two players capture Hanafuda cards month by month to build scoring sets, then stop "
        "or call koi-koi."
    ),
    load=load_rulebook,
    options=koikoi_options,
    terms=lambda rb, lang, options: KoikoiTerms(rb, lang, options),
    highlights=koikoi_highlights,
    labels=OPTION_LABELS,
    checker=checker,
    helpers=sys.modules[__name__],
    parameters=lambda rb: frozenset({"ruleset", *rb.options}),
    checker_parameters=lambda rb: frozenset({*STATE_FIELDS, *EVENTS, *rb.options}),
)

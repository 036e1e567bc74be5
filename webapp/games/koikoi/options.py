"""Koi-Koi's table options: the ruleset and options read from a query, their labels and
menus, and the helpers its templates call (`game.helpers`: the yaku table, options in force).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from flask_babel import get_locale, gettext, lazy_gettext, ngettext, pgettext

from rulebook.i18n import N_
from rulebook.koikoi.messages import ruleset_name

from ..base import Options, short
from ..house_name import read_house
from .terms import KoikoiTerms

MAX_VALUE = 40  # characters of a query value we look at (longer ones are refused)

# Option labels and choice labels (query value -> label), in the YAML's order.
OPTION_LABELS = {
    "viewings": lazy_gettext("Viewings"),
    "flower_viewing": lazy_gettext("Flower Viewing yaku"),
    "moon_viewing": lazy_gettext("Moon Viewing yaku"),
    "rain_man_spoils_viewings": lazy_gettext("Rain spoils the viewings"),
    "lightning_spoils_viewings": lazy_gettext("Lightning spoils the viewings"),
    "sake_cup_as_plain": lazy_gettext("Sake cup as a plain"),
    "tsukifuda": lazy_gettext("Cards of the Month"),
    "older_yaku": lazy_gettext("FudaWiki's older yaku"),
    "seven_point_double": lazy_gettext("Seven-point double"),
    "koikoi_multiplier": lazy_gettext("Koi-koi double"),
    "field_multiplier": lazy_gettext("Brights on the field"),
    "double_cap": lazy_gettext("Double cap"),
    "hand_yaku": lazy_gettext("Hand yaku"),
    "lucky_hands": lazy_gettext("What a hand yaku does"),
    "both_lucky_hands": lazy_gettext("Both players dealt a hand yaku"),
    "lucky_hands_stack": lazy_gettext("Both hand yaku in one hand"),
    "koikoi_minimum": lazy_gettext("Points needed to call koi-koi"),
    "rounds": lazy_gettext("Match length"),
    "match_target": lazy_gettext("Points to win the match"),
    "start_points": lazy_gettext("Points at the start"),
    "zero_sum": lazy_gettext("Points taken from the other player"),
    "end_at_zero": lazy_gettext("The match ends at 0 points"),
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
    ("koikoi_multiplier", "anyone_called"): lazy_gettext("When anyone called"),
    ("koikoi_multiplier", "per_call"): lazy_gettext("Number of calls + 1"),
    ("koikoi_multiplier", "none"): lazy_gettext("No koi-koi double"),
    ("field_multiplier", "none"): lazy_gettext("Not counted"),
    ("field_multiplier", "brights"): lazy_gettext("Number of brights"),
    ("field_multiplier", "brights_plus_one"): lazy_gettext("Number of brights + 1"),
    ("lucky_hands", "win"): lazy_gettext("Wins the round"),
    ("lucky_hands", "misdeal"): lazy_gettext("Misdeal"),
    ("both_lucky_hands", "draw"): lazy_gettext("Draw"),
    ("both_lucky_hands", "play_on"): lazy_gettext("Play on"),
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


# What "no value" means for the nullable options (the others: no limit).
NONE_LABELS = {
    "rounds": lazy_gettext("No fixed number"),
    "match_target": lazy_gettext("No target"),
    "koikoi_minimum": lazy_gettext("No minimum"),
}


def choice_label(option: str, value: Any) -> str:
    """A translated label for an option's value (in the page language)."""
    if value is True:
        return gettext("On")
    if value is False:
        return gettext("Off")
    if value is None:
        return str(NONE_LABELS.get(option, "")) or gettext("No limit")
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
    house: str = ""  # the name the table gives these settings (house=)
    house_notice: str | None = None  # why the name was shortened


def parse_table(rb: Any, args: Mapping[str, str]) -> Table:
    errors: dict[str, str] = {}
    ruleset = args.get("ruleset", "").strip()
    if ruleset not in rb.rulesets:
        if ruleset:
            # named first: Babel's extractor drops a message whose call holds `pgettext` bare
            default = ruleset_name(rb, rb.default_ruleset, pgettext)
            errors["ruleset"] = gettext(
                "There is no ruleset “%(value)s”; showing the %(default)s rules.",
                value=short(ruleset), default=default,
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
    house, house_notice = read_house(args)
    return Table(ruleset, raw, overrides, errors, rb.effective_options(ruleset, overrides),
                 house, house_notice)


def koikoi_options(rb: Any, args: Mapping[str, str]) -> Any:
    """The rules page options: ruleset=<id> and the table options; bad values -> notices."""
    table = parse_table(rb, args)
    values = {"ruleset": table.ruleset, "house": table.house}
    defaults = {"ruleset": rb.default_ruleset, "house": ""}
    for key in rb.options:
        values[key] = encode(table.overrides[key]) if key in table.overrides else ""
        defaults[key] = ""
    notices = (*table.errors.values(), *filter(None, [table.house_notice]))
    return Options(values, defaults, notices, {"table": table})


def koikoi_highlights(rb: Any, options: Any) -> dict[str, Any]:
    table = options.table
    out: dict[str, Any] = {rb.rulesets[table.ruleset].rule: lazy_gettext("Selected ruleset")}
    ruleset_defaults = rb.effective_options(table.ruleset)
    for key, value in table.overrides.items():
        if value != ruleset_defaults[key] or type(value) is not type(ruleset_defaults[key]):
            out[rb.options[key].rule] = lazy_gettext("In use at this table")
    return out


def yaku_rows(rb: Any, terms: KoikoiTerms, ruleset_id: str, options: dict[str, Any]) -> list[dict]:
    """The yaku table of a ruleset under the table options (what the page shows)."""
    ruleset = rb.rulesets[ruleset_id]
    stacks = rb.stacks_at(ruleset_id, options)
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
            "extra": bool(value and y.extra and rb.earns_extra(y.id, value, options)),
            "extra_kind": terms.kind_name(y.extra) if y.extra else "",
            "group": terms.group(y.group),
            "stacking": terms.stacking(ruleset, y, stacks),
            "off": off,
        })
    return rows


def together_pairs(rb: Any, ruleset_id: str, options: dict[str, Any]) -> list[tuple[list[Any], Any]]:
    """The yaku of one group that score together at this table (the ruleset's pairs and those
    of the options on, Rulebook.stacks_at), grouped by the yaku listed later in each pair:
    [([Akatan, Aotan], Tan), ...], in the yaku's order."""
    order = {y.id: n for n, y in enumerate(rb.yaku)}
    partners: dict[str, set[str]] = {}
    for pair in rb.stacks_at(ruleset_id, options):
        first, later = sorted(pair, key=order.get)
        partners.setdefault(later, set()).add(first)
    return [([rb.yaku_by_id[y] for y in sorted(firsts, key=order.get)], rb.yaku_by_id[later])
            for later, firsts in sorted(partners.items(), key=lambda item: min(order[y] for y in item[1]))]


# Presets offered in the option menus (query values); a valid value typed into the URL
# that is not a preset is added to the menu so the form shows it.
PRESETS = {
    "double_cap": ["none", "2", "4", "8", "16"],
    "koikoi_limit": ["none", "1", "2", "3"],
    "koikoi_minimum": ["none", "1", "3", "5"],
    "match_target": ["none", "30", "50", "100"],
    "start_points": ["0", "10", "30", "50"],
    # FudaWiki: the dealer's privilege is "typically 1 or 6" points.
    "draw_dealer_points": ["0", "1", "6"],
}
POINTS_OPTIONS = ("draw_dealer_points", "koikoi_minimum", "match_target", "start_points")


def option_label(option: str, value: Any) -> str:
    if option == "double_cap" and isinstance(value, int):
        return gettext("At most ×%(num)s", num=value)
    if option == "koikoi_limit" and isinstance(value, int):
        return str(value)
    if option in POINTS_OPTIONS and isinstance(value, int):
        return ngettext("%(num)s point", "%(num)s points", value)
    return choice_label(option, value)


def option_choices(rb: Any, option: str, current: str = "") -> tuple[tuple[str, str, Any], ...]:
    """(query value, label, JSON value) for an option's menu: the same for every request in
    a language, so made once (a Koi-Koi checker tap shows some twenty menus)."""
    return _option_choices(rb, str(get_locale()), option, current)


@lru_cache(maxsize=2048)
def _option_choices(rb: Any, locale: str, option: str,
                    current: str) -> tuple[tuple[str, str, Any], ...]:
    # `locale` is only the key: the labels below are in its language
    spec = rb.options[option]
    if option in PRESETS:
        values = list(PRESETS[option])
        ok, typed = decode(spec, current) if current else (False, None)
        if ok and encode(typed) not in values:
            values.append(encode(typed))
    else:
        values = [encode(c) for c in spec.choices] + (["none"] if spec.nullable else [])
    out = []
    for v in values:
        typed = decode(spec, v)[1]
        out.append((v, option_label(option, typed), typed))
    return tuple(out)


def options_in_force(rb: Any, table: Table) -> list[dict[str, Any]]:
    """Every option with its value at this table and whether the table changed it; an option
    about yaku the ruleset lacks is not in force (options.not-in-ruleset), and one at a value
    that adds no rule (its `idle` value, say no match target) is left out unless chosen here."""
    ruleset_defaults = rb.effective_options(table.ruleset)
    rows = []
    for key, spec in rb.options.items():
        value = table.effective[key]
        changed = key in table.overrides and table.overrides[key] != ruleset_defaults[key]
        if rb.applies(table.ruleset, key) and (changed or not spec.is_idle(value)):
            rows.append({"id": key, "rule": spec.rule, "label": OPTION_LABELS[key],
                         "value": option_label(key, value), "changed": changed})
    return rows

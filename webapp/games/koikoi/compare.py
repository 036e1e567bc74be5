"""Koi-Koi's rulesets side by side: for every key of Rulebook.compared(), its row label,
its group on the page and each ruleset's value in words (webapp/pages/compare.py builds
the page; the sources come from Rulebook.provenance)."""
from __future__ import annotations

from typing import Any

from flask_babel import gettext, lazy_gettext, pgettext

from rulebook.koikoi.messages import ruleset_name

from .options import OPTION_LABELS, option_label
from .terms import KoikoiTerms

ITEMS = "rulesets"  # the page's address: /<lang>/koikoi/rulesets
TITLE = lazy_gettext("Rulesets side by side")
NAV = lazy_gettext("All rulesets")  # its short name in the game's navigation
LEAD = lazy_gettext(
    "Koi-Koi has no single official rulebook. Here is every ruleset this site knows, value by "
    "value, with the source behind each and how it was read.")
PICK = lazy_gettext("Compare two rulesets")
UNKNOWN_ITEM = lazy_gettext("There is no ruleset “%(value)s” to compare; showing %(default)s.")
ITEM_PARAMETER = "ruleset"  # the rules page's option that selects one

# Rows in groups, in page order; an option not listed here is shown under "Other options".
GROUPS = (
    ("older", lazy_gettext("Animal and ribbon yaku"), ("older_yaku",)),
    ("scoring", lazy_gettext("Multipliers and calls"),
     ("koikoi_multiplier", "seven_point_double", "field_multiplier", "double_cap",
      "koikoi_limit", "koikoi_minimum")),
    ("viewings", lazy_gettext("Viewings, the sake cup and Cards of the Month"),
     ("viewings", "flower_viewing", "moon_viewing", "rain_man_spoils_viewings",
      "lightning_spoils_viewings", "sake_cup_as_plain", "tsukifuda")),
    ("hands", lazy_gettext("Hand yaku"),
     ("hand_yaku", "lucky_hands", "both_lucky_hands", "lucky_hands_stack")),
    ("match", lazy_gettext("The match and the deal"),
     ("rounds", "match_target", "start_points", "zero_sum", "end_at_zero", "dealer_rotation",
      "draw_dealer", "draw_dealer_points")),
)


def items(rb: Any) -> list[tuple[str, str]]:
    return [(r.id, ruleset_name(rb, r.id, pgettext)) for r in rb.rulesets.values()]


def rows(rb: Any) -> list[tuple[str, Any, list[str]]]:
    """(group id, group title, keys) in page order, every key of rb.compared() once."""
    keys = rb.compared()
    out: list[tuple[str, Any, list[str]]] = [
        ("yaku", lazy_gettext("Yaku and their points"), [k for k in keys if k.startswith("yaku.")]),
        ("groups", lazy_gettext("Which yaku of a group score together"),
         [k for k in keys if k.startswith("group.")]),
    ]
    placed: set[str] = set()
    for group_id, title, options in GROUPS:
        listed = [f"option.{o}" for o in options if f"option.{o}" in keys]
        placed.update(listed)
        out.append((group_id, title, listed))
    rest = [k for k in keys if k.startswith("option.") and k not in placed]
    if rest:
        out.append(("other", lazy_gettext("Other options"), rest))
    return [row for row in out if row[2]]


def label(rb: Any, terms: KoikoiTerms, key: str) -> str:
    kind, _, name = key.partition(".")
    if kind == "yaku":
        return terms.yaku(name)
    if kind == "group":
        return terms.group(name)
    return str(OPTION_LABELS[name])


def rule(rb: Any, key: str) -> str:
    """The rule a row explains (its anchor on the rules page)."""
    kind, _, name = key.partition(".")
    if kind == "yaku":
        return rb.yaku_by_id[name].rule
    if kind == "group":
        return "yaku.best-in-group"
    return rb.options[name].rule


def cell(rb: Any, terms: KoikoiTerms, ruleset_id: str, key: str) -> tuple[Any, str, bool]:
    """(a comparable value, the value in words, whether the words already say "not
    documented") of one ruleset's fact."""
    kind, _, name = key.partition(".")
    rs = rb.rulesets[ruleset_id]
    if kind == "yaku":
        value = rs.values.get(name)
        if value is None:
            return "absent", gettext("Not in this ruleset"), False
        if value.points is None:
            return "unknown", gettext("Value not documented"), True
        yaku = rb.yaku_by_id[name]
        if value.extra and yaku.extra:
            text = gettext("%(points)s, +1 per extra card", points=value.points)
        else:
            text = str(value.points)
        return (value.points, bool(value.extra and yaku.extra)), text, False
    if kind == "group":
        pairs = sorted(terms.together(sorted(terms.yaku(y) for y in pair)) for pair in rs.stacks
                       if rb.yaku_by_id[next(iter(pair))].group == name)
        if not pairs:
            return (), gettext("Only the best yaku scores"), False
        return tuple(pairs), gettext("Scoring together: %(pairs)s", pairs=gettext("; ").join(pairs)), False
    if not rb.applies(ruleset_id, name):
        return "n/a", gettext("Does not apply: the ruleset has none of these yaku"), False
    value = rb.effective_options(ruleset_id)[name]
    text = option_label(name, value)
    if rb.provenance(ruleset_id, key).basis == "unknown":
        return ("default", value), gettext(
            "Not documented; the referee applies: %(value)s", value=text), True
    return value, text, False

"""The options of Hanamikoji's rules pages (edition, three-round limit, clash reading):
read from the query, with a notice for a value no menu offers."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_babel import gettext, lazy_gettext

from ..base import Options, short
from ..house_name import read_house

LABELS = {
    "round_limit": lazy_gettext("Three-round limit"),
    ("round_limit", "1"): lazy_gettext("End the game after round %(rounds)s at the latest"),
    ("round_limit", "0"): lazy_gettext("Play on until someone reaches a goal"),
    # What an edition's book says about the limit (RoundLimitRule.status), naming the
    # edition: the sentence stands alone (a hint) and beside the edition's facts.
    ("round_limit_status", "normal"): lazy_gettext(
        "In the %(publisher)s edition the game ends after round %(rounds)s at the latest; "
        "playing on is the option."),
    ("round_limit_status", "final"): lazy_gettext(
        "In the %(publisher)s edition the game ends after round %(rounds)s at the latest."),
    ("round_limit_status", "unknown"): lazy_gettext(
        "Our sources do not settle whether the %(publisher)s edition ends the game after round "
        "%(rounds)s."),
    ("round_limit_status", "optional"): lazy_gettext(
        "The %(publisher)s edition offers the limit as an optional rule."),
    ("round_limit_status", "none"): lazy_gettext(
        "The %(publisher)s edition has no round limit: adding one is a house rule with no "
        "printed tie-break."),
    "simultaneous_goal": lazy_gettext("Clash reading"),
    ("simultaneous_goal", "charm"): lazy_gettext("Eleven charm points win (official)"),
    ("simultaneous_goal", "geishas"): lazy_gettext("Four geishas win (variant)"),
}
TRUE = ("1", "on", "true", "yes")
FALSE = ("0", "off", "false", "no")


def page_options(rb: Any, args: Mapping[str, str]) -> Options:
    """edition=<id>, round_limit=1|0 (left out: the edition's rule), simultaneous_goal=charm|
    geishas; bad values -> defaults, with a notice."""
    defaults = {
        "edition": rb.default_edition,
        "round_limit": "",  # the edition's own rule
        "simultaneous_goal": rb.variant_default("simultaneous_goal"),
        "house": "",  # the name the table gives these settings
    }
    values = dict(defaults)
    notices: list[str] = []
    values["house"], house_notice = read_house(args)
    if house_notice:
        notices.append(house_notice)

    edition = args.get("edition", "").strip()
    if edition in rb.editions:
        values["edition"] = edition
    elif edition:
        notices.append(gettext("There is no edition “%(value)s”; showing the %(default)s edition.",
                               value=short(edition),
                               default=rb.editions[rb.default_edition].publisher))

    limit = args.get("round_limit", "").strip().lower()
    if limit in TRUE:
        values["round_limit"] = "1"
    elif limit in FALSE:
        values["round_limit"] = "0"
    elif limit:
        notices.append(gettext(
            "“%(value)s” is not a valid value for the three-round limit; the edition's rule "
            "applies.", value=short(limit)))

    goal = args.get("simultaneous_goal", "").strip()
    if goal in rb.variants["simultaneous_goal"]["choices"]:
        values["simultaneous_goal"] = goal
    elif goal:
        notices.append(gettext("“%(value)s” is not a clash reading we know; showing the official one.",
                               value=short(goal)))
    own = "1" if rb.round_limit_default(values["edition"]) else "0"
    if values["round_limit"] == own:  # the edition's own rule: links leave it out
        values["round_limit"] = ""
    limit_on = (values["round_limit"] or own) == "1"
    return Options(values, defaults, tuple(notices), {"round_limit_on": limit_on})


def round_limit_status(rb: Any, edition_id: str) -> str:
    """What the edition's book says about the three-round limit, as a sentence."""
    edition = rb.editions[edition_id]
    # the edition's name: its publisher's, except a box such as Jixia Academy
    return str(LABELS[("round_limit_status", edition.round_limit.status)]) % {
        "publisher": edition.name, "rounds": rb.round_limit}


def round_limit_menu(rb: Any, edition_id: str) -> list[tuple[str, str]]:
    """(value, label) of the three-round limit's two choices, on and off; the edition's own
    rule says so (one control: the edition's rule is one of the two, not a third)."""
    own = "1" if rb.round_limit_default(edition_id) else "0"
    labels = {"1": str(LABELS[("round_limit", "1")]) % {"rounds": rb.round_limit},
              "0": str(LABELS[("round_limit", "0")])}
    edition = rb.editions[edition_id]
    # the rule first, the edition after: a label never follows a colon mid-sentence
    return [(value, gettext("%(rule)s (as the %(publisher)s edition says)",
                            publisher=edition.publisher, rule=label) if value == own else label)
            for value, label in labels.items()]


def highlights(rb: Any, options: Options) -> dict[str, Any]:
    out: dict[str, Any] = {f"edition.{options.edition}": lazy_gettext("Selected edition")}
    if options.round_limit_on:
        out["variant.round-limit"] = lazy_gettext("In use at this table")
    if options.simultaneous_goal != rb.variant_default("simultaneous_goal"):
        out["variant.simultaneous-goal"] = lazy_gettext("In use at this table")
        out["victory.clash"] = lazy_gettext("Your table plays another reading")
    return out

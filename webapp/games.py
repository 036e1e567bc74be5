"""The games the site knows: one registry entry per game, all game data from its YAML.

A game brings a rulebook loader, a parser for its page options (query parameters), a
`Terms` factory and a folder of partial templates (`games/<slug>/`):
`picture.html` (the drawing of the table), `options.html` (the toggles of the GET form)
and `extras.html` (what is shown in place beside particular rules). Koi-Koi is added by
writing those and one more entry in GAMES.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext, lazy_gettext

from rulebook.hanamikoji import load_rulebook as load_hanamikoji
from rulebook.koikoi import load_rulebook as load_koikoi

from . import koikoi_site
from .terms import Terms


@dataclass(frozen=True)
class Options:
    """The validated page options plus translated notices about rejected values."""

    values: dict[str, Any]
    defaults: dict[str, Any]
    notices: tuple[str, ...] = ()
    derived: dict[str, Any] = field(default_factory=dict)  # read from values; not in links

    def __getattr__(self, name: str) -> Any:
        for source in (self.values, self.derived):
            if name in source:
                return source[name]
        raise AttributeError(name)

    @property
    def query(self) -> dict[str, str]:
        """The options that differ from the defaults, as query parameters for links."""
        out = {}
        for key, value in self.values.items():
            if value != self.defaults[key]:
                out[key] = "1" if value is True else str(value)
        return out


def _short(value: str) -> str:
    return value if len(value) <= 40 else value[:40] + "…"


def hanamikoji_options(rb: Any, args: Mapping[str, str]) -> Options:
    """edition=<id>, round_limit=1|0 (left out: the edition's rule), simultaneous_goal=charm|
    geishas; bad values -> defaults."""
    defaults = {
        "edition": rb.default_edition,
        "round_limit": "",  # the edition's own rule
        "simultaneous_goal": rb.variant_default("simultaneous_goal"),
    }
    values = dict(defaults)
    notices: list[str] = []

    edition = args.get("edition", "").strip()
    if edition in rb.editions:
        values["edition"] = edition
    elif edition:
        notices.append(
            gettext(
                "There is no edition “%(value)s”; showing the %(default)s edition.",
                value=_short(edition),
                default=rb.editions[rb.default_edition].publisher,
            )
        )

    limit = args.get("round_limit", "").strip().lower()
    if limit in ("1", "on", "true", "yes"):
        values["round_limit"] = "1"
    elif limit in ("0", "off", "false", "no"):
        values["round_limit"] = "0"
    elif limit:
        notices.append(
            gettext(
                "“%(value)s” is not a valid value for the three-round limit; the edition's "
                "rule applies.",
                value=_short(limit),
            )
        )

    goal = args.get("simultaneous_goal", "").strip()
    choices = rb.variants["simultaneous_goal"]["choices"]
    if goal in choices:
        values["simultaneous_goal"] = goal
    elif goal:
        notices.append(
            gettext(
                "“%(value)s” is not a clash reading we know; showing the official one.",
                value=_short(goal),
            )
        )
    chosen = values["round_limit"]
    limit_on = rb.round_limit_default(values["edition"]) if chosen == "" else chosen == "1"
    return Options(values, defaults, tuple(notices), {"round_limit_on": limit_on})


def hanamikoji_highlights(rb: Any, options: Options) -> dict[str, Any]:
    out: dict[str, Any] = {f"edition.{options.edition}": lazy_gettext("Selected edition")}
    if options.round_limit_on:
        out["variant.round-limit"] = lazy_gettext("In use at this table")
    if options.simultaneous_goal != rb.variant_default("simultaneous_goal"):
        out["variant.simultaneous-goal"] = lazy_gettext("In use at this table")
        out["victory.clash"] = lazy_gettext("Your table plays another reading")
    return out


HANAMIKOJI_LABELS = {
    "round_limit": lazy_gettext("Three-round limit"),
    ("round_limit", "1"): lazy_gettext("End the game after round %(rounds)s at the latest"),
    ("round_limit", "0"): lazy_gettext("Play on until someone reaches a goal"),
    # What an edition's book says about the limit (RoundLimitRule.status).
    ("round_limit_status", "normal"): lazy_gettext(
        "In this edition the game ends after round %(rounds)s at the latest; playing on is the "
        "option."),
    ("round_limit_status", "optional"): lazy_gettext(
        "This edition offers the limit as an optional rule."),
    ("round_limit_status", "none"): lazy_gettext(
        "This edition has no round limit: adding one is a house rule with no printed "
        "tie-break."),
    "simultaneous_goal": lazy_gettext("Clash reading"),
    ("simultaneous_goal", "charm"): lazy_gettext("Eleven charm points win (official)"),
    ("simultaneous_goal", "geishas"): lazy_gettext("Four geishas win (variant)"),
}


@dataclass(frozen=True)
class Game:
    slug: str
    title: Any  # a lazy string: the game's display name
    tagline: Any
    load: Callable[[], Any]
    options: Callable[[Any, Mapping[str, str]], Options]
    terms: Callable[[Any, str, Options], Terms]
    option_keys: tuple[str, ...] = field(default=())
    # rule id -> label, for rules the current options put in force (highlighted in place)
    highlights: Callable[[Any, Options], dict[str, Any]] = lambda rb, options: {}
    labels: Mapping[Any, Any] = field(default_factory=dict)
    # The module of page helpers the game's partial templates call (`game.helpers.…`).
    helpers: Any = None

    def template(self, name: str) -> str:
        return f"games/{self.slug}/{name}"

    @property
    def rulebook(self) -> Any:
        return self.load()


GAMES: dict[str, Game] = {
    "hanamikoji": Game(
        slug="hanamikoji",
        title=lazy_gettext("Hanamikoji"),
        tagline=lazy_gettext(
            "Two players win the favour of seven geishas with four actions per round."
        ),
        load=load_hanamikoji,
        options=hanamikoji_options,
        terms=lambda rb, lang, options: Terms(rb, lang, options.edition),
        option_keys=("edition", "round_limit", "simultaneous_goal"),
        highlights=hanamikoji_highlights,
        labels=HANAMIKOJI_LABELS,
    ),
    "koikoi": Game(
        slug="koikoi",
        title=lazy_gettext("Koi-Koi"),
        tagline=lazy_gettext(
            "Two players capture Hanafuda cards month by month to build scoring sets, then stop "
            "or call koi-koi."
        ),
        load=load_koikoi,
        options=koikoi_site.koikoi_options,
        terms=lambda rb, lang, options: koikoi_site.KoikoiTerms(rb, lang, options),
        option_keys=("ruleset", *koikoi_site.OPTION_LABELS),
        highlights=koikoi_site.koikoi_highlights,
        labels=koikoi_site.OPTION_LABELS,
        helpers=koikoi_site,
    ),
}

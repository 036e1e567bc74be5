"""Koi-Koi on the site: its terms, the table options of its pages, and its scoring checker.

No game logic: values come from the rulebook, rulings from the referee.
  terms.py    card, month and yaku names and rule texts in the page's language
  options.py  the table options (ruleset and options from a query) and the templates' helpers
  form.py     the checker's form <-> the referee's request
  checker.py  the checker page
"""
from __future__ import annotations

from flask_babel import lazy_gettext

from rulebook.koikoi import load_rulebook

from ..base import WebGame
from . import options
from .checker import checker
from .finder import finder
from .form import EVENTS, STATE_FIELDS
from .options import OPTION_LABELS, koikoi_highlights, koikoi_options
from .terms import KoikoiTerms

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
    helpers=options,
    finder=finder,
    aid=True,
    parameters=lambda rb: frozenset({"ruleset", "house", *rb.options}),
    checker_parameters=lambda rb: frozenset({*STATE_FIELDS, *EVENTS, "house", *rb.options}),
    example={"game": "koikoi", "ruleset": "nintendo",
             "rounds": [{"winner": "a", "captured": {"a": [0, 2, 8, 10, 28, 30]},
                         "koikoi": {"a": 0, "b": 1}}]},
    summary=lambda round_: frozenset(y["rule"] for y in round_.get("yaku", [])),
)

"""Hanamikoji on the site: its terms, the options of its pages, and its scoring checker.

No rule is decided here: rule texts and names come from the rulebook and the catalogs,
every ruling from the referee. The checker turns the query of `/<lang>/hanamikoji/score`
into a referee request and the referee's answer into what the page shows.
  terms.py    rule texts, names and sources in the page's language
  options.py  the rules pages' options (the templates' `game.helpers`)
  form.py     the checker's form <-> the referee's request
  checker.py  the checker page
"""
from __future__ import annotations

from flask_babel import lazy_gettext

from rulebook.hanamikoji import load_rulebook

from ..base import WebGame
from . import options
from .checker import checker
from .finder import finder
from .form import PARAMETERS
from .options import LABELS, highlights, page_options
from .terms import Terms

WEB = WebGame(
    slug="hanamikoji",
    title=lazy_gettext("Hanamikoji"),
    tagline=lazy_gettext("Two players win the favour of seven geishas with four actions per round."),
    load=load_rulebook,
    options=page_options,
    terms=lambda rb, lang, chosen: Terms(rb, lang, chosen.edition),
    highlights=highlights,
    labels=LABELS,
    checker=checker,
    helpers=options,
    finder=finder,
    aid=True,
    parameters=lambda rb: frozenset({"edition", "round_limit", "simultaneous_goal", "house"}),
    checker_parameters=lambda rb: PARAMETERS,
    example={"game": "hanamikoji", "edition": "geekach", "variants": {"round_limit": True},
             "players": {"a": "Olena", "b": "Jonas"},
             "rounds": [{"board": {"a": [2, 1, 0, 2, 2, 0, 1], "b": [0, 1, 2, 0, 0, 2, 3]}}]},
    summary=lambda round_: frozenset({"scoring.charm-total"}),
)

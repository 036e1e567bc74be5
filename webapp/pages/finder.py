"""`/<lang>/<game>/which`: a table finds the ruleset (or edition) it plays.

Two ways in, both plain GET forms: name where you learned the game (a ruleset, or the box,
`learned=<id>`), or answer at most six questions chosen from the rulebook's data
(webapp/games/finding.py). The result names the ruleset, the options the answers set and
the differences no option changes, and links to the checker, the rules and the player aid
with exactly those settings (and the table's name for them, `house=`).
"""
from __future__ import annotations

from flask import Blueprint, abort, g, render_template, request
from flask_babel import gettext

from ..games import GAMES
from ..games.base import short
from ..games.finding import choose, nearest, read_answers
from ..games.house_name import PARAMETER as HOUSE
from .rules import page_context

bp = Blueprint("finder", __name__)
LEARNED = "learned"  # the query parameter of "where did you learn?"


# -- the page -----------------------------------------------------------------------------
def query_parameters() -> dict[str, frozenset[str]]:
    names: set[str] = {LEARNED, HOUSE}
    for web in GAMES.values():
        if web.finder is not None:
            names |= set(web.finder(web.rulebook, "en").keys())
    return {"finder.which": frozenset(names)}


@bp.get("/<lang:lang>/<game:game>/which")
def which(game: str):
    web = GAMES[game]
    if web.finder is None:
        abort(404)
    finder = web.finder(web.rulebook, g.lang)
    candidates = finder.candidates()
    asked = choose(finder.questions(), [c.id for c in candidates])
    notices: list[str] = []
    learned = request.args.get(LEARNED, "").strip()
    if learned and learned not in {c.id for c in candidates}:
        notices.append(gettext("There is no “%(value)s” to choose here; pick one from the list.",
                               value=short(learned)))
        learned = ""
    answers = read_answers(asked, request.args, notices)
    found = nearest(finder, asked, answers, learned or None) if learned or answers else None
    # The page's own options: the house name, and once found, the settings found (so the
    # game's menu and every link of the page open them).
    settings = {HOUSE: request.args.get(HOUSE, "")}
    if found is not None:
        settings.update(finder.query(found.candidate.id, found.settings))
    context = page_context(game, settings)
    context["notices"] = [*context["notices"], *notices]
    return render_template("finder/which.html", page="which", finder=finder, candidates=candidates,
                           questions=asked, answers=answers, learned=learned, found=found,
                           answered={key: a.token for key, a in answers.items()},
                           **context)

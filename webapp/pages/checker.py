"""The scoring checker of every game, `/<lang>/<game>/score`: a GET form around the referee.

The game's web module reads the query and asks the referee (`WebGame.checker`); this view
only renders what it answers, or follows the redirect a button pressed without
JavaScript asks for. static/js/live.js sends the same form without reloading the page.
"""
from __future__ import annotations

from flask import Blueprint, abort, g, redirect, render_template, request, url_for

from ..games import GAMES, Redirect
from .rules import page_context

bp = Blueprint("checker", __name__)


def query_parameters() -> dict[str, frozenset[str]]:
    """Every parameter some game's checker reads (see webapp/__init__.py)."""
    names: set[str] = set()
    for web in GAMES.values():
        names |= web.checker_parameters(web.rulebook)
    return {"checker.checker": frozenset(names)}


@bp.get("/<lang:lang>/<game:game>/score")
def checker(game: str):
    web = GAMES[game]
    if web.checker is None:
        abort(404)
    answer = web.checker(web.rulebook, request.args, g.lang)
    base = url_for("checker.checker", game=game)
    if isinstance(answer, Redirect):
        return redirect(base + ("?" + answer.query if answer.query else ""), code=303)
    context = page_context(game, answer.pop("page_args"))
    context.update(answer)
    return render_template(web.template("checker.html"), page="checker", base_url=base,
                           **context)

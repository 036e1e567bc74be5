"""`/<lang>/<game>/aid?...`: a one-page player aid for a table's settings, to print.

The same query as the rules pages (ruleset or edition, options, `house=`), read by the
same code, so the aid shows exactly what the rules pages and the checker apply. The game's
own template (templates/games/<slug>/aid.html) lays out its rules; this page adds the QR
code back to the checker with those settings. static/css/aid.css makes it one sheet of A4
or Letter when printed (tests/e2e/test_aid_e2e.py prints every aid to PDF and counts).
"""
from __future__ import annotations

from flask import Blueprint, abort, render_template, request

from ..games import GAMES
from .rules import page_context

bp = Blueprint("aid", __name__)


def query_parameters() -> dict[str, frozenset[str]]:
    names: set[str] = set()
    for web in GAMES.values():
        if web.aid:
            names |= web.parameters(web.rulebook)
    return {"aid.aid": frozenset(names)}


@bp.get("/<lang:lang>/<game:game>/aid")
def aid(game: str):
    if not GAMES[game].aid:
        abort(404)
    args = {key: value for key, value in request.args.items() if key != "compare"}
    return render_template("aid/aid.html", page="aid", **page_context(game, args))

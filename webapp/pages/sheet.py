"""The match's score sheet as CSV, `/<lang>/<game>/score/sheet.csv?<the checker's query>`.

The server reads the same query as the checker page and has the referee score every round
again (webapp/games/sheet.py): a file is never a copy of numbers the URL carried. A query
whose sheet cannot be read, or without a round to write, leads back to the checker page,
which says why in its language and keeps everything else that was entered."""
from __future__ import annotations

from flask import Blueprint, Response, abort, g, redirect, request, url_for

from ..games import GAMES, Redirect
from ..games.sheet import csv_bytes

bp = Blueprint("sheet", __name__)


@bp.get("/<lang:lang>/<game:game>/score/sheet.csv")
def sheet_csv(game: str):
    web = GAMES[game]
    if web.checker is None:
        abort(404)
    answer = web.checker(web.rulebook, request.args, g.lang)
    if isinstance(answer, Redirect):  # an untidy query: the file of its tidy form
        return redirect(url_for("sheet.sheet_csv", game=game) + "?" + answer.query, code=303)
    sheet = answer.get("sheet")
    if sheet is None or sheet.error or not sheet.rows:
        query = request.query_string.decode("utf-8", "replace")
        return redirect(url_for("checker.checker", game=game) + ("?" + query if query else "")
                        + "#sheet", code=303)
    response = Response(csv_bytes(sheet), content_type="text/csv; charset=utf-8")
    response.headers["Content-Disposition"] = f'attachment; filename="shinpan-{game}-{g.lang}.csv"'
    response.headers["Cache-Control"] = "no-store"  # a ruling of the moment, like the checker's
    return response

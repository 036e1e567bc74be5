"""The scoring checker of every game, `/<lang>/<game>/score`: a GET form around the referee.

The game's web module reads the query and asks the referee (`WebGame.checker`); this view
only renders what it answers, or follows the redirect a button pressed without
JavaScript asks for. static/js/live.js sends the same form without reloading the page,
with the header `Shinpan-Live: regions`: such a request gets the game's `live.html` (of the
tidy address the page would redirect to, named in `Shinpan-Live-Address`), the
parts live.js puts in place (the regions whole, the fields whose marks it follows by their
opening tags), each made by the macro that makes it on the full page, so it is the same
bytes there, without the rest of the page. The page keeps its own offline copy (live.js
hands it to static/js/sw.js).
"""
from __future__ import annotations

from urllib.parse import parse_qsl

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    g,
    redirect,
    render_template,
    request,
    url_for,
)

from ..games import GAMES, Redirect
from ..http.query import QueryArgs
from . import checker_parts, fragments
from .rules import page_context

bp = Blueprint("checker", __name__)
bp.add_app_template_global(fragments.kept, "kept")
bp.add_app_template_filter(fragments.marks, "marks")
bp.add_app_template_global(checker_parts.field_msg)
bp.add_app_template_global(checker_parts.described)
bp.add_app_template_global(checker_parts.has_problem)
bp.add_app_template_global(checker_parts.problems)
bp.add_app_template_global(checker_parts.rule_link)
LIVE_HEADER = "Shinpan-Live"  # for a live update; its value names what it replaces
ADDRESS_HEADER = "Shinpan-Live-Address"  # where a live update's answer stands (a tidier address)


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
    live = request.headers.get(LIVE_HEADER) == "regions"
    address = None
    if isinstance(answer, Redirect):
        address = base + ("?" + answer.query if answer.query else "")
        if not live:
            return redirect(address, code=303)
        # live.js would follow the 303 at once: the live parts of the address it leads to,
        # and that address in a header, save a round trip on every such tap
        answer = web.checker(web.rulebook, QueryArgs(
            parse_qsl(answer.query, keep_blank_values=True)), g.lang)
        if isinstance(answer, Redirect):  # the address leads on: let the browser follow
            return redirect(address, code=303)
    context = page_context(game, answer.pop("page_args"))
    context["rule_url"] = fragments.kept_rule_url(game, context["state"], context["rule_url"])
    context.update(answer)
    if live:
        response = live_regions(web.template("live.html"), page="checker", base_url=base,
                                **context)
        if address is not None:
            response.headers[ADDRESS_HEADER] = address
        return response
    return render_template(web.template("checker.html"), page="checker", base_url=base,
                           **context)


def live_regions(template_name: str, **context) -> Response:
    """The game's live parts alone, for the live update: never kept by a cache (the
    address is the full page's), and marked as varying with the header that asked."""
    app = current_app
    app.update_template_context(context)
    html = app.jinja_env.get_template(template_name).render(context)
    response = Response(html, content_type="text/html; charset=utf-8")
    response.headers["Cache-Control"] = "no-store"
    response.vary.add(LIVE_HEADER)
    return response

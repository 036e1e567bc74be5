"""The scoring checker of every game, `/<lang>/<game>/score`: a GET form around the referee.

The game's web module reads the query and asks the referee (`WebGame.checker`); this view
only renders what it answers, or follows the redirect a button pressed without
JavaScript asks for. static/js/live.js sends the same form without reloading the page.
A request with the header `Shinpan-Live: regions` (live.js sends it) gets only what lies
inside the page's `<main>`: the base template's `inside_main` block, rendered alone by the same
template code, so every region is the same bytes as in the full page, without the page around
it (head, header, menus, footer). The service worker (static/js/sw.js) keeps the offline copy
by putting that answer inside the `<main>` of the checker page it kept last.
"""
from __future__ import annotations

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
from .rules import page_context

bp = Blueprint("checker", __name__)
LIVE_HEADER = "Shinpan-Live"  # for a live update; its value names what it replaces
LIVE_BLOCK = "inside_main"  # base.html's block: all of <main>, every live region in it


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
    if request.headers.get(LIVE_HEADER) == "regions":
        return live_regions(web.template("checker.html"), page="checker", base_url=base,
                            **context)
    return render_template(web.template("checker.html"), page="checker", base_url=base,
                           **context)


def live_regions(template_name: str, **context) -> Response:
    """The template's LIVE_BLOCK alone, for the live update: never kept by a cache (the
    address is the full page's), and marked as varying with the header that asked."""
    template = current_app.jinja_env.get_template(template_name)
    current_app.update_template_context(context)
    env = template.new_context(context)
    # The template's top-level imports (`{% from ... import ... %}`) run in its root
    # function, which then registers the blocks of the page it extends and hands over to
    # it: run that far (the parent's first chunk of text), so the block sees the macros it
    # uses and the parent's blocks are known.
    root = template.root_render_func(env)
    next(root, None)
    root.close()
    html = "".join(env.blocks[LIVE_BLOCK][0](env))
    response = Response(html, content_type="text/html; charset=utf-8")
    response.headers["Cache-Control"] = "no-store"
    response.vary.add(LIVE_HEADER)
    return response

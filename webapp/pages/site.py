"""`/` (language negotiation), the home page `/<lang>/`, the search of every game, the
developer page, the offline page and service worker, and the error pages."""
from __future__ import annotations

import json

from flask import (
    Blueprint,
    current_app,
    g,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.globals import request_ctx
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from rulebook.i18n import LANGUAGES

from .. import api
from ..games import GAMES
from ..http.caching import send_static
from . import languages
from .meta import game_names
from .rules import DEVELOPER_SECTION, best_answer, best_game_first, did_you_mean, find, read_query

bp = Blueprint("site", __name__)


def query_parameters() -> dict[str, frozenset[str]]:
    """The parameters these pages read (webapp/__init__.py): only the search has one."""
    return {"site.search": frozenset({"q"})}


@bp.get("/")
def negotiate():
    response = redirect(url_for("site.home", lang=languages.negotiated()))
    response.vary.add("Accept-Language")
    return response


@bp.get("/<lang:lang>/")
def home():
    return render_template("site/home.html", page="home", games=GAMES.values())


@bp.get("/<lang:lang>/search")
def search():
    """The rules of every game, searched at once (the home page's search box)."""
    notices: list[str] = []
    query = read_query(request.args, notices)
    found = (best_game_first([find(slug, query, g.lang) for slug in GAMES], query, g.lang)
             if query else [])
    return render_template("rules/search.html", page="search", query=query, found=found,
                           suggestion=did_you_mean(found), best=best_answer(found),
                           notices=notices)


@bp.get("/<lang:lang>/developers")
def developers():
    """The referee for programs: the API, the command line and what a request holds."""
    games = []
    for web in GAMES.values():
        rb = web.rulebook
        terms = web.terms(rb, g.lang, web.options(rb, {}))
        section = next((s for s in rb.sections if s.id == DEVELOPER_SECTION), None)
        games.append({"game": web, "terms": terms, "section": section})
    examples = {slug: json.dumps(web.example, ensure_ascii=False, indent=2)
                if web.example else None for slug, web in GAMES.items()}
    first = games[0]  # a rule's address, as the answer's ids lead to it
    rule_id = next(r for s in first["game"].rulebook.sections if s.id != DEVELOPER_SECTION
                   for r in s.rules)
    rule_example = url_for("rules.rules", game=first["game"].slug, _anchor=rule_id)
    return render_template("site/developers.html", page="developers", games=games,
                           examples=examples, rule_example=rule_example,
                           game_names=game_names(g.lang))


@bp.get("/<lang:lang>/offline")
def offline():
    """What the service worker shows for a page it has not kept while there is no network."""
    return render_template("site/offline.html", page="offline", games=GAMES.values())


@bp.get("/sw.js")
def service_worker():
    """The service worker, from the site's root so that its scope is the whole site."""
    # without comments and compressed once per worker (webapp/http/caching.py); no-cache:
    # a new deploy's worker is found at once
    return send_static("js/sw.js", "no-cache")


def _error_language() -> str:
    """The language of an error page: the URL's (`/de/no-such-page`), else negotiated."""
    first = request.path.lstrip("/").split("/", 1)[0]
    if first in LANGUAGES:
        g.lang = first
    return languages.current()


@bp.app_errorhandler(400)
@bp.app_errorhandler(405)
@bp.app_errorhandler(413)
def client_error(error: HTTPException):
    """A request the site refuses, in the page's language (problem+json on the API)."""
    if api.is_api_request(request):
        return api.http_problem(request, error)
    if request_ctx.url_adapter is None:  # an untrusted Host: links without a host only
        request_ctx.url_adapter = current_app.url_map.bind(
            "host.invalid", script_name=request.script_root or "/", url_scheme=request.scheme)
    _error_language()
    response = make_response(render_template(f"errors/{error.code}.html", error_page=True),
                             error.code)
    if isinstance(error, MethodNotAllowed) and error.valid_methods:
        response.headers["Allow"] = ", ".join(sorted(error.valid_methods))
    return response


@bp.app_errorhandler(404)
def not_found(error):
    if api.is_api_request(request):  # e.g. /api/v2/: problem+json, never HTML
        return api.http_problem(request, error)
    lang = _error_language()
    # `/xx/hanamikoji/` -> offer `/<lang>/hanamikoji/` when that page exists.
    suggestion = None
    parts = request.path.lstrip("/").split("/", 1)
    if len(parts) == 2 and parts[0] not in LANGUAGES and len(parts[0]) <= 10:
        candidate = f"/{lang}/{parts[1]}"
        adapter = request.url_rule is None and _match(candidate)
        if adapter:
            suggestion = candidate
    return render_template("errors/404.html", suggestion=suggestion, error_page=True), 404


def _match(path: str) -> bool:
    from flask import current_app

    try:
        current_app.url_map.bind("localhost").match(path, method="GET")
    except Exception:  # noqa: BLE001 - any routing outcome but a match
        return False
    return True


@bp.app_errorhandler(500)
def server_error(error):
    if api.is_api_request(request):
        return api.problem(request, "internal")
    return render_template("errors/500.html", error_page=True), 500

"""`/` (language negotiation), the home page `/<lang>/` and the error pages."""
from __future__ import annotations

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

from . import api, languages
from .games import GAMES

bp = Blueprint("site", __name__)
QUERY_PARAMETERS = {"site.home": ()}


@bp.get("/")
def negotiate():
    response = redirect(url_for("site.home", lang=languages.negotiated()))
    response.vary.add("Accept-Language")
    return response


@bp.get("/<lang:lang>/")
def home():
    return render_template("site/home.html", games=GAMES.values())


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

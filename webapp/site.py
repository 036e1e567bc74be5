"""`/` (language negotiation), the home page `/<lang>/` and the error pages."""
from __future__ import annotations

from flask import Blueprint, g, redirect, render_template, request, url_for

from rulebook.i18n import LANGUAGES

from . import api, languages
from .games import GAMES

bp = Blueprint("site", __name__)


@bp.get("/")
def negotiate():
    response = redirect(url_for("site.home", lang=languages.negotiated()))
    response.vary.add("Accept-Language")
    return response


@bp.get("/<lang:lang>/")
def home():
    return render_template("site/home.html", games=GAMES.values())


@bp.app_errorhandler(404)
def not_found(error):
    if api.is_api_request(request):  # e.g. /api/v2/: problem+json, never HTML
        return api.http_problem(request, error)
    first = request.path.lstrip("/").split("/", 1)[0]
    if first in LANGUAGES:  # `/de/no-such-page`: the URL names the language
        g.lang = first
    lang = languages.current()
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

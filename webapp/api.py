"""The JSON API, `/api/v1/`: the referee and the rulebooks over HTTP.

Every answer is JSON. Errors follow RFC 9457 (`application/problem+json`) with a
stable `type`, a localized `title`, the `status` and, for requests the rules cannot
accept, the referee's `errors` list. The language comes from `?lang=` or
Accept-Language and is echoed in `Content-Language`.
"""
from __future__ import annotations

import copy
import json
from functools import lru_cache
from typing import Any

from flask import Blueprint, Response, request
from flask_babel import force_locale, gettext
from werkzeug.datastructures import LanguageAccept
from werkzeug.exceptions import HTTPException
from werkzeug.http import parse_accept_header

from rulebook.i18n import DEFAULT_LANGUAGE, LANGUAGES, N_, normalize_language
from rulebook.loader import load_schema
from rulebook.referee import GAMES, referee

from . import rulebook_json

bp = Blueprint("api", __name__, url_prefix="/api/v1")

MAX_BODY = 64 * 1024  # bytes; a 50-round match with full action logs is about 20 KB
PROBLEM_BASE = "/api/v1/problems/"
PROBLEMS = {
    # name: (status, title)
    "malformed-json": (400, N_("The request body is not valid JSON.")),
    "not-found": (404, N_("There is nothing at this address.")),
    "method-not-allowed": (405, N_("This address does not accept that method.")),
    "too-large": (413, N_("The request body is too large.")),
    "unsupported-media-type": (415, N_("Send the request as application/json.")),
    "invalid-request": (422, N_("The rules cannot accept this request.")),
    "internal": (500, N_("Something went wrong on our side.")),
}
STATUS_PROBLEM = {status: name for name, (status, _) in PROBLEMS.items()}


def api_language() -> str:
    """`?lang=` first, then Accept-Language, then English."""
    return _negotiate(request.args.get("lang"), request.headers.get("Accept-Language", ""))


@lru_cache(maxsize=512)
def _negotiate(asked: str | None, accept: str) -> str:
    # Clients send the same few headers over and over: parse each one once.
    return (normalize_language(asked)
            or parse_accept_header(accept, LanguageAccept).best_match(LANGUAGES)
            or DEFAULT_LANGUAGE)


def json_response(document: Any, status: int = 200, content_type: str = "application/json",
                  lang: str | None = None) -> Response:
    body = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    headers = {"Content-Language": lang or api_language()}
    if not request.args.get("lang"):
        headers["Vary"] = "Accept-Language"
    return Response(body, status=status, headers=headers,
                    content_type=f"{content_type}; charset=utf-8")


def problem(name: str, detail: str | None = None, **extra: Any) -> Response:
    status, title = PROBLEMS[name]
    lang = api_language()
    with force_locale(lang):
        document = {"type": PROBLEM_BASE + name, "title": gettext(title), "status": status}
        if detail:
            document["detail"] = detail
    document.update(extra)
    return json_response(document, status, "application/problem+json", lang)


def is_api_request() -> bool:
    return request.path == "/api" or request.path.startswith("/api/")


def http_problem(error: HTTPException) -> Response:
    """A routing or HTTP error on the API as problem+json (never HTML)."""
    name = STATUS_PROBLEM.get(error.code or 500, "internal")
    response = problem(name)
    if error.code == 405:
        allow = [m for m in getattr(error, "valid_methods", None) or []]
        if allow:
            response.headers["Allow"] = ", ".join(sorted(allow))
    return response


@bp.post("/<any(hanamikoji, koikoi):game>/score")
def score(game: str):
    if game not in GAMES:
        return problem("not-found")
    if request.content_length is not None and request.content_length > MAX_BODY:
        return problem("too-large")
    if not request.mimetype or not (request.mimetype == "application/json"
                                    or request.mimetype.endswith("+json")):
        return problem("unsupported-media-type")
    raw = request.get_data(cache=False)
    if len(raw) > MAX_BODY:
        return problem("too-large")
    lang = api_language()
    try:
        document = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        with force_locale(lang):
            detail = gettext("Parse error: %(reason)s", reason=getattr(exc, "msg", str(exc)))
        return problem("malformed-json", detail)
    if isinstance(document, dict) and "game" not in document:
        document["game"] = game  # the address names the game
    if isinstance(document, dict) and document.get("game") != game:
        with force_locale(lang):
            message = gettext("This address scores %(game)s requests.", game=game)
        errors = [{"code": "game.mismatch", "path": "/game", "rule": "referee.request",
                   "message": message}]
        return problem("invalid-request", errors=errors)
    response = referee(document, lang)
    if not response["valid"]:
        return problem("invalid-request", errors=response["errors"])
    return json_response(response, lang=lang)


@bp.get("/<any(hanamikoji, koikoi):game>/rulebook")
def rulebook(game: str):
    if game not in GAMES:
        return problem("not-found")
    lang = api_language()
    document = rulebook_json.document(game, lang)
    if document is None:
        return problem("not-found")
    return json_response(document, lang=lang)


@bp.get("/problems/<name>")
def problem_type(name: str):
    """What a problem `type` means: the URI is a reference that resolves here."""
    if name not in PROBLEMS:
        return problem("not-found")
    status, title = PROBLEMS[name]
    lang = api_language()
    with force_locale(lang):
        return json_response({"type": PROBLEM_BASE + name, "title": gettext(title), "status": status},
                             lang=lang)


@bp.get("/openapi.json")
def openapi():
    return json_response(openapi_document(), lang=DEFAULT_LANGUAGE)


def _inline(schema: dict[str, Any], prefix: str, components: dict[str, Any]) -> dict[str, Any]:
    """Move a JSON Schema's `$defs` into OpenAPI components and rewrite its `$ref`s."""
    schema = copy.deepcopy(schema)
    defs = schema.pop("$defs", {})
    schema.pop("$schema", None)
    schema.pop("$id", None)

    def rewrite(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                node = dict(node, **{"$ref": f"#/components/schemas/{prefix}_{ref[8:]}"})
            return {k: rewrite(v) for k, v in node.items()}
        if isinstance(node, list):
            return [rewrite(v) for v in node]
        return node

    for name, sub in defs.items():
        components[f"{prefix}_{name}"] = rewrite(sub)
    return rewrite(schema)


@lru_cache(maxsize=1)
def openapi_document() -> dict[str, Any]:
    components: dict[str, Any] = {}
    schemas = {}
    for game, title in (("hanamikoji", "Hanamikoji"), ("koikoi", "Koikoi")):
        for kind in ("request", "response"):
            try:
                raw = load_schema(f"{game}.{kind}.schema.json")
            except FileNotFoundError:
                continue
            name = f"{title}{kind.capitalize()}"
            schemas[name] = _inline(raw, name, components)
            if kind == "request":  # over HTTP the address names the game, so it may be left out
                schemas[name]["required"] = [f for f in schemas[name]["required"] if f != "game"]
    components.update(schemas)
    components["Problem"] = {
        "type": "object",
        "required": ["type", "title", "status"],
        "properties": {
            "type": {"type": "string", "format": "uri-reference"},
            "title": {"type": "string"},
            "status": {"type": "integer", "minimum": 400, "maximum": 599},
            "detail": {"type": "string"},
            "errors": {"type": "array", "items": {
                "type": "object", "required": ["code", "path", "rule", "message"],
                "properties": {"code": {"type": "string"}, "path": {"type": "string"},
                               "rule": {"type": "string"}, "message": {"type": "string"}}}},
        },
    }
    components["Rulebook"] = {
        "type": "object",
        "description": "A game's canonical rulebook in one language; the game-specific parts "
                       "(geishas and editions, or cards, yaku and rulesets) sit beside these.",
        "required": ["game", "language", "canonical_source", "sections"],
        "properties": {
            "game": {"enum": list(GAMES)},
            "language": {"enum": list(LANGUAGES)},
            "canonical_source": {"type": "string"},
            "sections": {"type": "array", "items": {
                "type": "object", "required": ["id", "title", "rules"],
                "properties": {
                    "id": {"type": "string"}, "title": {"type": "string"},
                    "rules": {"type": "array", "items": {
                        "type": "object", "required": ["id", "text"],
                        "properties": {"id": {"type": "string"}, "text": {"type": "string"}}}},
                }}},
        },
    }
    lang_param = {"name": "lang", "in": "query", "required": False,
                  "description": "Language of messages and texts: " + ", ".join(LANGUAGES)
                                 + ". Any other value falls back to Accept-Language, then English.",
                  "schema": {"type": "string", "examples": list(LANGUAGES)}}

    def problem_responses(*codes: int) -> dict[str, Any]:
        return {str(code): {"description": PROBLEMS[STATUS_PROBLEM[code]][1],
                            "content": {"application/problem+json": {
                                "schema": {"$ref": "#/components/schemas/Problem"}}}}
                for code in codes}

    paths: dict[str, Any] = {}
    for game, title in (("hanamikoji", "Hanamikoji"), ("koikoi", "Koikoi")):
        if f"{title}Request" not in schemas:
            continue
        paths[f"/api/v1/{game}/score"] = {"post": {
            "operationId": f"score_{game}",
            "summary": f"Validate and score a {title} request",
            "parameters": [lang_param],
            "requestBody": {"required": True, "content": {"application/json": {
                "schema": {"$ref": f"#/components/schemas/{title}Request"}}}},
            "responses": {
                "200": {"description": "The ruling", "content": {"application/json": {
                    "schema": {"$ref": f"#/components/schemas/{title}Response"}}}},
                **problem_responses(400, 413, 415, 422),
            },
        }}
        paths[f"/api/v1/{game}/rulebook"] = {"get": {
            "operationId": f"rulebook_{game}",
            "summary": f"The canonical {title} rulebook in a language",
            "parameters": [lang_param],
            "responses": {"200": {"description": "The rulebook", "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/Rulebook"}}}}},
        }}
    return {
        "openapi": "3.1.0",
        "info": {"title": "Shinpan referee API", "version": "1.0.0",
                 "description": "Validate and score rounds of Hanamikoji and Koi-Koi; read the "
                                "canonical rulebooks in English, German, Ukrainian, Spanish "
                                "and French. Errors are RFC 9457 problem documents."},
        "servers": [{"url": "/"}],
        "paths": paths,
        "components": {"schemas": components},
    }


@bp.record_once
def limit_bodies(state) -> None:
    # Werkzeug refuses larger bodies with 413 before any view reads them.
    state.app.config.setdefault("MAX_CONTENT_LENGTH", MAX_BODY)


@bp.app_errorhandler(405)
@bp.app_errorhandler(413)
@bp.app_errorhandler(415)
def api_http_error(error: HTTPException):
    if is_api_request():
        return http_problem(error)
    return error

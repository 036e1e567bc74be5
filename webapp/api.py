"""The JSON API, `/api/v1/`: the referee and the rulebooks over HTTP.

A small Werkzeug application mounted under the site (`mount()`), not a Flask blueprint:
an API call needs no templates, sessions or page hooks, and skipping them keeps a score
request close to the cost of the referee itself (see BENCHMARKS.md).

Every answer is JSON. Errors follow RFC 9457 (`application/problem+json`) with a
stable `type`, a localized `title`, the `status` and, for requests the rules cannot
accept, the referee's `errors` list. The language comes from `?lang=` or
Accept-Language and is echoed in `Content-Language`.
"""
from __future__ import annotations

import copy
import json
import logging
from functools import lru_cache
from typing import Any

from werkzeug.exceptions import HTTPException, MethodNotAllowed, RequestEntityTooLarge
from werkzeug.http import HTTP_STATUS_CODES
from werkzeug.middleware.dispatcher import DispatcherMiddleware
from werkzeug.routing import Map, Rule
from werkzeug.wrappers import Request

from rulebook import GAMES
from rulebook.i18n import DEFAULT_LANGUAGE, LANGUAGES, N_, normalize_language, translator
from rulebook.loader import load_schema
from rulebook.problems import MALFORMED, request_kind
from rulebook.referee import referee

from .languages import best_language

PREFIX = "/api/v1"
MAX_BODY = 64 * 1024  # bytes; a 50-round match with full action logs is about 20 KB
MAX_QUERY = 6 * 1024  # the same cap as the site's pages (webapp/security.py)
PROBLEM_BASE = PREFIX + "/problems/"
PROBLEMS = {
    # name: (status, title)
    "malformed-json": (400, N_("The request body is not valid JSON.")),
    "malformed-request": (400, N_("The request is not shaped as its schema says.")),
    "not-found": (404, N_("There is nothing at this address.")),
    "method-not-allowed": (405, N_("This address does not accept that method.")),
    "too-large": (413, N_("The request body is too large.")),
    "uri-too-long": (414, N_("The address is too long.")),
    "unsupported-media-type": (415, N_("Send the request as application/json.")),
    "invalid-request": (422, N_("The rules cannot accept this request.")),
    "internal": (500, N_("Something went wrong on our side.")),
}
STATUS_PROBLEM: dict[int, str] = {}  # the first problem of each status answers HTTP errors
for _name, (_status, _) in PROBLEMS.items():
    STATUS_PROBLEM.setdefault(_status, _name)
PARSE_ERROR = N_("Parse error: %(reason)s")
GAME_MISMATCH = N_("This address scores %(game)s requests.")
GAME_RULE = "<any(" + ", ".join(GAMES) + "):game>"
URLS = Map([
    Rule(f"/{GAME_RULE}/score", endpoint="score", methods=["POST"]),
    Rule(f"/{GAME_RULE}/rulebook", endpoint="rulebook", methods=["GET"]),
    Rule("/problems/<name>", endpoint="problem_type", methods=["GET"]),
    Rule("/openapi.json", endpoint="openapi", methods=["GET"]),
])
log = logging.getLogger(__name__)


class ApiRequest(Request):
    # Werkzeug stops reading a body (also a chunked one) past this: one byte above the
    # limit, so an oversized body is seen as too large rather than cut and misread.
    max_content_length = MAX_BODY + 1


def language(request: Request) -> str:
    """`?lang=` first, then Accept-Language as the site negotiates it, then English."""
    return (normalize_language(request.args.get("lang"))
            or best_language(request.headers.get("Accept-Language", "")))


class JsonResponse:
    """A finished JSON answer as a WSGI application: all an API response needs."""

    __slots__ = ("body", "headers", "status")

    def __init__(self, body: bytes, status: int, headers: list[tuple[str, str]]):
        self.status = f"{status} {HTTP_STATUS_CODES[status]}"
        self.body = body
        self.headers = headers + [("Content-Length", str(len(body)))]

    def __call__(self, environ: dict, start_response) -> list[bytes]:
        start_response(self.status, self.headers)
        return [] if environ.get("REQUEST_METHOD") == "HEAD" else [self.body]


def json_response(request: Request, document: Any, status: int = 200,
                  content_type: str = "application/json", lang: str | None = None) -> JsonResponse:
    body = json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode()
    headers = [("Content-Type", f"{content_type}; charset=utf-8"),
               ("Content-Language", lang or language(request))]
    if "lang" not in request.args:
        headers.append(("Vary", "Accept-Language"))
    return JsonResponse(body, status, headers)


def problem(request: Request, name: str, detail: str | None = None, **extra: Any) -> JsonResponse:
    status, title = PROBLEMS[name]
    lang = language(request)
    document: dict[str, Any] = {"type": PROBLEM_BASE + name,
                                "title": translator(lang).gettext(title), "status": status}
    if detail:
        document["detail"] = detail
    document.update(extra)
    return json_response(request, document, status, "application/problem+json", lang)


def is_api_request(request: Request) -> bool:
    return request.path == "/api" or request.path.startswith("/api/")


def http_problem(request: Request, error: HTTPException) -> JsonResponse:
    """An HTTP error on the API as problem+json (never HTML)."""
    response = problem(request, STATUS_PROBLEM.get(error.code or 500, "internal"))
    if isinstance(error, MethodNotAllowed) and error.valid_methods:
        response.headers.append(("Allow", ", ".join(sorted(error.valid_methods))))
    return response


def score(request: Request, game: str) -> JsonResponse:
    mimetype = request.mimetype
    if not (mimetype == "application/json" or mimetype.endswith("+json")):
        return problem(request, "unsupported-media-type")
    raw = request.get_data(cache=False)
    if len(raw) > MAX_BODY:
        return problem(request, "too-large")
    lang = language(request)
    try:
        document = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "msg", None) or str(exc)
        return problem(request, "malformed-json", translator(lang).gettext(PARSE_ERROR) % {"reason": reason})
    if isinstance(document, dict):
        document.setdefault("game", game)  # the address names the game
        if document["game"] != game:
            message = translator(lang).gettext(GAME_MISMATCH) % {"game": game}
            errors = [{"code": "game.mismatch", "path": "/game", "rule": "referee.request",
                       "message": message, "kind": "illegal"}]
            return problem(request, "invalid-request", errors=errors)
    response = referee(document, lang)
    if not response["valid"]:
        errors = response["errors"]
        name = "malformed-request" if request_kind(errors) == MALFORMED else "invalid-request"
        return problem(request, name, errors=errors)
    return json_response(request, response, lang=lang)


def rulebook(request: Request, game: str) -> JsonResponse:
    lang = language(request)
    return json_response(request, GAMES[game].document(lang), lang=lang)


def problem_type(request: Request, name: str) -> JsonResponse:
    """What a problem `type` means: the URI is a reference that resolves here."""
    if name not in PROBLEMS:
        return problem(request, "not-found")
    status, title = PROBLEMS[name]
    lang = language(request)
    return json_response(request, {"type": PROBLEM_BASE + name,
                                   "title": translator(lang).gettext(title), "status": status},
                         lang=lang)


def openapi(request: Request) -> JsonResponse:
    return json_response(request, openapi_document(), lang=DEFAULT_LANGUAGE)


VIEWS = {"score": score, "rulebook": rulebook, "problem_type": problem_type, "openapi": openapi}


def application(environ: dict, start_response) -> Any:
    """The API as a WSGI application (mounted at /api/v1)."""
    request = ApiRequest(environ)
    announced = environ.get("CONTENT_LENGTH", "")  # also when a chunked body announces one
    try:
        if len(environ.get("QUERY_STRING", "")) > MAX_QUERY:
            response = problem(request, "uri-too-long")
        elif announced.isdigit() and int(announced) > MAX_BODY:
            response = problem(request, "too-large")
        else:
            endpoint, args = URLS.bind_to_environ(environ).match()
            response = VIEWS[endpoint](request, **args)
    except RequestEntityTooLarge:
        response = problem(request, "too-large")
    except HTTPException as error:
        response = http_problem(request, error)
    except Exception:
        log.exception("API error on %s %s", request.method, request.path)
        response = problem(request, "internal")
    return response(environ, start_response)


def mount(flask_app) -> None:
    """Serve the API under /api/v1 beside the site (inside the site's header middleware)."""
    flask_app.wsgi_app = DispatcherMiddleware(flask_app.wsgi_app, {PREFIX: application})


def score_url(game: str, lang: str) -> str:
    """The score endpoint for the checker pages' scripts."""
    from flask import request

    return f"{request.script_root}{PREFIX}/{game}/score?lang={lang}"


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
                "type": "object", "required": ["code", "path", "rule", "message", "kind"],
                "properties": {"code": {"type": "string"}, "path": {"type": "string"},
                               "rule": {"type": "string"}, "message": {"type": "string"},
                               "kind": {"enum": ["malformed", "illegal"],
                                        "description": "malformed: HTTP 400; illegal: 422"}}}},
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
        paths[f"{PREFIX}/{game}/score"] = {"post": {
            "operationId": f"score_{game}",
            "summary": f"Validate and score a {title} request",
            "parameters": [lang_param],
            "requestBody": {"required": True, "content": {"application/json": {
                "schema": {"$ref": f"#/components/schemas/{title}Request"}}}},
            "responses": {
                "200": {"description": "The ruling", "content": {"application/json": {
                    "schema": {"$ref": f"#/components/schemas/{title}Response"}}}},
                **problem_responses(400, 413, 414, 415, 422),
            },
        }}
        paths[f"{PREFIX}/{game}/rulebook"] = {"get": {
            "operationId": f"rulebook_{game}",
            "summary": f"The canonical {title} rulebook in a language",
            "parameters": [lang_param],
            "responses": {"200": {"description": "The rulebook", "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/Rulebook"}}}},
                **problem_responses(414)},
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

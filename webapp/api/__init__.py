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
import logging
from functools import lru_cache
from typing import Any
from urllib.parse import parse_qsl

from werkzeug.exceptions import HTTPException, MethodNotAllowed
from werkzeug.http import HTTP_STATUS_CODES
from werkzeug.routing import Map, Rule

from rulebook import GAMES, jsonio
from rulebook.game import REQUEST_RULE
from rulebook.i18n import DEFAULT_LANGUAGE, LANGUAGES, N_, normalize_language, translator
from rulebook.problems import MALFORMED
from rulebook.referee import judge

from ..http.host import host_refused
from ..pages.languages import best_language

PREFIX = "/api/v1"
MAX_BODY = 64 * 1024  # bytes; a 50-round match with full action logs is about 20 KB
MAX_QUERY = 6 * 1024  # the same cap as the site's pages (webapp/http/security.py)
PROBLEM_BASE = PREFIX + "/problems/"
PROBLEMS = {
    # name: (status, title)
    "malformed-json": (400, N_("The request body is not valid JSON.")),
    "malformed-request": (400, N_("The request is not shaped as its schema says.")),
    "bad-host": (400, N_("The Host field of the request is missing or not a valid host name.")),
    "incomplete-body": (400, N_("The request body could not be read to its end.")),
    "not-found": (404, N_("There is nothing at this address.")),
    "method-not-allowed": (405, N_("This address does not accept that method.")),
    "request-timeout": (408, N_("The request body did not arrive in time.")),
    "too-large": (413, N_("The request body is too large.")),
    "uri-too-long": (414, N_("The address is too long.")),
    "unsupported-media-type": (415, N_("Send the request as application/json.")),
    "invalid-request": (422, N_("The rules cannot accept this request.")),
    "internal": (500, N_("Something went wrong on our side.")),
}
# status -> the problem an HTTP error of that status becomes (the first listed)
STATUS_PROBLEM = {status: name for name, (status, _) in reversed(PROBLEMS.items())}
GAME_MISMATCH = N_("This address scores %(game)s requests.")
log = logging.getLogger(__name__)


class Call:
    """What every API answer needs from a request: the language, and whether `?lang=`
    chose it (else the answer varies by Accept-Language). No Werkzeug Request object:
    a score call reads its body straight from the WSGI input (see BENCHMARKS.md)."""

    __slots__ = ("environ", "lang", "lang_given")

    def __init__(self, environ: dict) -> None:
        self.environ = environ
        given = _lang_parameter(environ.get("QUERY_STRING", ""))
        self.lang_given = given is not None
        self.lang = (normalize_language(given)
                     or best_language(environ.get("HTTP_ACCEPT_LANGUAGE", "")))


@lru_cache(maxsize=256)
def _lang_parameter(query: str) -> str | None:
    if not query:
        return None
    for key, value in parse_qsl(query, keep_blank_values=True):
        if key == "lang":
            return value
    return None


def _call(who: Any) -> Call:
    """A Call from a Call, or from a Flask request (the site's error handlers)."""
    return who if isinstance(who, Call) else Call(who.environ)


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


def json_response(who: Any, document: Any, status: int = 200,
                  content_type: str = "application/json", lang: str | None = None) -> JsonResponse:
    call = _call(who)
    headers = [("Content-Type", f"{content_type}; charset=utf-8"),
               ("Content-Language", lang or call.lang)]
    if not call.lang_given:
        headers.append(("Vary", "Accept-Language"))
    return JsonResponse(jsonio.dumps(document), status, headers)


def problem(who: Any, name: str, detail: str | None = None, **extra: Any) -> JsonResponse:
    """The problem document `name` in the caller's language (`who`: a Call or a request)."""
    call = _call(who)
    status, title = PROBLEMS[name]
    document: dict[str, Any] = {"type": PROBLEM_BASE + name,
                                "title": translator(call.lang).gettext(title), "status": status}
    if detail:
        document["detail"] = detail
    document.update(extra)
    return json_response(call, document, status, "application/problem+json")


def is_api_request(request: Any) -> bool:
    return request.path == "/api" or request.path.startswith("/api/")


def http_problem(who: Any, error: HTTPException) -> JsonResponse:
    """An HTTP error on the API as problem+json (never HTML)."""
    response = problem(who, STATUS_PROBLEM.get(error.code or 500, "internal"))
    if isinstance(error, MethodNotAllowed) and error.valid_methods:
        response.headers.append(("Allow", ", ".join(sorted(error.valid_methods))))
    return response


def read_body(call: Call) -> bytes | JsonResponse:
    """The whole body, or the problem: too large, or shorter than its Content-Length (a
    client that went away, a malformed chunk the server cut short)."""
    environ = call.environ
    announced = environ.get("CONTENT_LENGTH", "")
    stream = environ["wsgi.input"]
    try:
        if announced:
            if not announced.isdigit():
                return problem(call, "incomplete-body")
            if int(announced) > MAX_BODY:
                return problem(call, "too-large")
            raw = stream.read(int(announced)) if int(announced) else b""
            if len(raw) != int(announced):
                return problem(call, "incomplete-body")
        elif environ.get("wsgi.input_terminated") or "HTTP_TRANSFER_ENCODING" in environ:
            # a chunked body: read one byte past the cap, to tell "too large" from "cut"
            raw = stream.read(MAX_BODY + 1)
        else:
            raw = b""
    except Exception:  # noqa: BLE001 - the server's input stream failed: the body is unusable
        return problem(call, "incomplete-body")
    if len(raw) > MAX_BODY:
        return problem(call, "too-large")
    return raw


@lru_cache(maxsize=64)  # clients send the same few Content-Type values
def _is_json(content_type: str) -> bool:
    mimetype = content_type.split(";", 1)[0].strip().lower()
    return mimetype == "application/json" or mimetype.endswith("+json")


def score(call: Call, game: str) -> JsonResponse:
    if not _is_json(call.environ.get("CONTENT_TYPE", "")):
        return problem(call, "unsupported-media-type")
    raw = read_body(call)
    if not isinstance(raw, bytes):
        return raw
    lang = call.lang
    try:
        document = jsonio.loads(raw)
    except jsonio.JSONError as exc:
        return problem(call, "malformed-json", exc.translated(translator(lang)))
    if isinstance(document, dict):
        document.setdefault("game", game)  # the address names the game
        if document["game"] != game:
            t = translator(lang)  # the game by its name in the language, not its id
            message = t.gettext(GAME_MISMATCH) % {"game": t.gettext(GAMES[game].load().title)}
            errors = [{"code": "game.mismatch", "path": "/game", "rule": REQUEST_RULE,
                       "message": message, "kind": "illegal"}]
            return problem(call, "invalid-request", errors=errors)
    ruling = judge(document, lang)
    if not ruling.valid:
        name = "malformed-request" if ruling.kind == MALFORMED else "invalid-request"
        return problem(call, name, errors=ruling.errors)
    return json_response(call, ruling.document)


def rulebook(call: Call, game: str) -> JsonResponse:
    return json_response(call, GAMES[game].document(call.lang))


def problem_type(call: Call, name: str) -> JsonResponse:
    """What a problem `type` means: the URI is a reference that resolves here."""
    if name not in PROBLEMS:
        return problem(call, "not-found")
    status, title = PROBLEMS[name]
    return json_response(call, {"type": PROBLEM_BASE + name,
                                "title": translator(call.lang).gettext(title), "status": status})


def openapi(call: Call) -> JsonResponse:
    return json_response(call, openapi_document(tuple(GAMES)), lang=DEFAULT_LANGUAGE)


VIEWS = {"score": score, "rulebook": rulebook, "problem_type": problem_type, "openapi": openapi}


class Api:
    """The API as a WSGI application (mounted at /api/v1), for the games registered when
    the site is made (rulebook.GAMES)."""

    def __init__(self, games: tuple[str, ...]) -> None:
        game = "<any(" + ", ".join(games) + "):game>"
        self.urls = Map([
            Rule(f"/{game}/score", endpoint="score", methods=["POST"]),
            Rule(f"/{game}/rulebook", endpoint="rulebook", methods=["GET"]),
            Rule("/problems/<name>", endpoint="problem_type", methods=["GET"]),
            Rule("/openapi.json", endpoint="openapi", methods=["GET"]),
        ])
        self.score_paths = {f"/{g}/score": g for g in games}  # the hot path skips the map

    def __call__(self, environ: dict, start_response) -> Any:
        call = Call(environ)
        announced = environ.get("CONTENT_LENGTH", "")  # also when a chunked body announces one
        try:
            game = self.score_paths.get(environ.get("PATH_INFO", ""))
            if host_refused(environ):
                response = problem(call, "bad-host")
            elif len(environ.get("QUERY_STRING", "")) > MAX_QUERY:
                response = problem(call, "uri-too-long")
            elif announced.isdigit() and int(announced) > MAX_BODY:
                response = problem(call, "too-large")
            elif game is not None and environ.get("REQUEST_METHOD") == "POST":
                response = score(call, game)
            else:
                endpoint, args = self.urls.bind_to_environ(environ).match()
                response = VIEWS[endpoint](call, **args)
        except HTTPException as error:
            response = http_problem(call, error)
        except Exception:
            log.exception("API error on %s %s", environ.get("REQUEST_METHOD"),
                          environ.get("PATH_INFO"))
            response = problem(call, "internal")
        return response(environ, start_response)


class Mount:
    """The site, with the API under PREFIX: what Werkzeug's DispatcherMiddleware does for
    one mount (SCRIPT_NAME gains the prefix, PATH_INFO keeps the rest), in one comparison
    instead of a loop over the path's segments on every request."""

    def __init__(self, site, api) -> None:
        self.site = site
        self.api = api

    def __call__(self, environ: dict, start_response) -> Any:
        path = environ.get("PATH_INFO", "")
        if path.startswith(PREFIX) and (len(path) == len(PREFIX) or path[len(PREFIX)] == "/"):
            environ["SCRIPT_NAME"] = environ.get("SCRIPT_NAME", "") + PREFIX
            environ["PATH_INFO"] = path[len(PREFIX):]
            return self.api(environ, start_response)
        return self.site(environ, start_response)


def mount(flask_app) -> None:
    """Serve the API under /api/v1 beside the site (inside the site's header middleware)."""
    flask_app.wsgi_app = Mount(flask_app.wsgi_app, Api(tuple(GAMES)))


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


@lru_cache(maxsize=4)
def openapi_document(games: tuple[str, ...]) -> dict[str, Any]:
    """The OpenAPI 3.1 description of the API for these games (their schemas inlined)."""
    components: dict[str, Any] = {}
    schemas = {}
    titles = {game: game.capitalize() for game in games}  # component names: <Slug>Request
    for game, title in titles.items():
        for kind in ("request", "response"):
            try:
                raw = GAMES[game].schema(kind)
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
        "description": "A game's canonical rulebook in one language; what only that game "
                       "has (its editions or rulesets, cards, scoring tables) sits beside these.",
        "required": ["game", "language", "canonical_source", "sections"],
        "properties": {
            "game": {"enum": list(games)},
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

    names = {game: GAMES[game].load().title for game in games}  # the YAML's `title`
    paths: dict[str, Any] = {}
    for game, title in titles.items():
        if f"{title}Request" not in schemas:
            continue
        paths[f"{PREFIX}/{game}/score"] = {"post": {
            "operationId": f"score_{game}",
            "summary": f"Validate and score a {names[game]} request",
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
            "summary": f"The canonical {names[game]} rulebook in a language",
            "parameters": [lang_param],
            "responses": {"200": {"description": "The rulebook", "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/Rulebook"}}}},
                **problem_responses(414)},
        }}
    return {
        "openapi": "3.1.0",
        "info": {"title": "Shinpan referee API", "version": "1.0.0",
                 "description": f"Validate and score rounds of {' and '.join(names.values())}; "
                                "read the canonical rulebooks in English, German, Ukrainian, "
                                "Spanish and French. Errors are RFC 9457 problem documents: "
                                "400 for a request not shaped as its schema says, 422 for one "
                                "the rules refuse."},
        "servers": [{"url": "/"}],
        "paths": paths,
        "components": {"schemas": components},
    }

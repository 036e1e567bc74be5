"""The Shinpan web site: rules pages, scoring checker and JSON API (no game logic here).

`create_app()` wires configuration, Flask-Babel (locale from the URL's `/<lang>/`),
the URL converters, the blueprints and, for every game in rulebook.GAMES, its pages (its
web package and templates, see webapp/games/base.py). To add a feature, write a blueprint module
and list it in `BLUEPRINTS` below.
"""
from __future__ import annotations

from flask import Flask, Request, g

from rulebook.i18n import translations_dir

from .http.query import QueryArgs
from .pages import languages

# (module, attribute) of every blueprint, registered in this order. A module may also
# have query_parameters(), {endpoint: names of the query parameters its pages read}: the
# language links keep those, and the page cache ignores every other parameter. The JSON
# API is a small WSGI app of its own (webapp.api), mounted below.
BLUEPRINTS: list[tuple[str, str]] = [
    ("webapp.pages.site", "bp"),
    ("webapp.pages.rules", "bp"),
    ("webapp.pages.checker", "bp"),
    ("webapp.pages.sheet", "bp"),
    ("webapp.pages.compare", "bp"),
    ("webapp.pages.finder", "bp"),
    ("webapp.pages.aid", "bp"),
    ("webapp.pages.qr", "bp"),
]


class SiteRequest(Request):
    parameter_storage_class = QueryArgs  # request.args, with a cheap `get` of an absent name


class Site(Flask):
    request_class = SiteRequest

    def redirect(self, location: str, code: int = 302):
        """A redirect with an empty body: Werkzeug's would be an English page, never seen
        when the browser follows the Location, but read by tools and screen scrapers."""
        response = super().redirect(location, code)
        response.set_data(b"")
        return response


def create_app(test_config: dict | None = None) -> Flask:
    app = Site(__name__)
    app.config.from_mapping(
        JSON_AS_ASCII=False,
        BABEL_DEFAULT_LOCALE="en",
        BABEL_TRANSLATION_DIRECTORIES=str(translations_dir()),
        BABEL_DEFAULT_DOMAIN="messages",
    )
    if test_config:
        app.config.update(test_config)

    languages.init_app(app)
    _add_game_templates(app)

    import importlib

    parameters: dict[str, frozenset[str]] = {}
    for module_name, attr in BLUEPRINTS:
        module = importlib.import_module(module_name)
        app.register_blueprint(getattr(module, attr))
        if hasattr(module, "query_parameters"):
            for endpoint, names in module.query_parameters().items():
                parameters[endpoint] = frozenset(names)
    app.config.setdefault("PAGE_PARAMETERS", parameters)

    # The JSON API is a lean WSGI app of its own beside the site, under /api/v1.
    from . import api
    from .http import caching, compression, security
    from .pages import meta

    api.mount(app)
    meta.init_app(app)  # page_meta(): the description and Open Graph tags of a page

    # Production concerns for every route, from the inside out: compression of the
    # answers the page cache does not keep, the page cache (a hit is answered before any
    # other layer, already compressed), then headers, limits and proxies around everything.
    app.wsgi_app = compression.CompressionMiddleware(app.wsgi_app, skip=caching.STORE)
    caching.init_app(app, max_query=security.MAX_QUERY_STRING)
    security.init_app(app)

    @app.context_processor
    def page_language() -> dict:
        return {"lang": g.get("lang") or languages.negotiated()}

    return app


def _add_game_templates(app: Flask) -> None:
    """Templates beside every other folder of the `webapp` package: a package path may
    span folders (pkgutil's extend_path), and a game whose web side lives in one of them
    (the tests' toy game, tests/tinygame/) brings its templates/games/<slug>/ along."""
    from pathlib import Path

    from jinja2 import ChoiceLoader, FileSystemLoader

    own = Path(app.root_path).resolve()
    folders = [str(Path(path) / "templates") for path in __path__
               if Path(path).resolve() != own and (Path(path) / "templates").is_dir()]
    if folders and app.jinja_loader is not None:
        app.jinja_loader = ChoiceLoader([app.jinja_loader, *map(FileSystemLoader, folders)])

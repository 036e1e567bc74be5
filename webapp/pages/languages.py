"""Languages in URLs: `/<lang>/...`, negotiation for `/` and errors, switcher links."""
from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache, partial
from urllib.parse import urlencode

from babel.numbers import format_decimal
from flask import Flask, current_app, g, has_app_context, request, url_for
from flask_babel import Babel, get_locale, get_translations
from jinja2 import pass_context
from markupsafe import Markup
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header
from werkzeug.routing import BaseConverter, ValidationError

from rulebook.i18n import DEFAULT_LANGUAGE, LANGUAGES, normalize_language
from rulebook.sources import capitalized

from ..games import GAMES
from ..games.terms import language_name

# Embeddings, overrides and isolates (LRE..RLO, LRI..PDI): an unbalanced one in a user's
# text would reorder the rest of a title or sentence around it.
_BIDI_CONTROLS = dict.fromkeys([*range(0x202A, 0x202F), *range(0x2066, 0x206A)])


def isolate(text: object) -> str:
    """A user's text, echoed into a title or sentence, as its own bidi island:
    its directional controls removed, then wrapped in FSI ... PDI (Unicode UAX #9)."""
    value = str(text).translate(_BIDI_CONTROLS)
    return f"\u2068{value}\u2069" if value else value


class LanguageConverter(BaseConverter):
    """Matches only the languages we have; `/xx/...` is then a plain 404."""

    regex = "(?:" + "|".join(LANGUAGES) + ")"


def game_converter() -> type[BaseConverter]:
    """A game slug from the registry, as it is when the app is made: any other path is a
    plain 404 (no slash redirect)."""
    slugs = tuple(GAMES)

    class GameConverter(BaseConverter):
        regex = "(?:" + "|".join(re.escape(slug) for slug in slugs) + ")"

        def to_python(self, value: str) -> str:
            if value not in slugs:
                raise ValidationError()
            return value

    return GameConverter


def negotiated() -> str:
    """The best language for this request's Accept-Language header."""
    try:
        return best_language(request.headers.get("Accept-Language", ""))
    except RuntimeError:  # outside a request
        return DEFAULT_LANGUAGE


@lru_cache(maxsize=512)
def best_language(accept: str) -> str:
    """By quality, each tag reduced to its language: `fr-CA` beats `en;q=0.5` (werkzeug's
    best_match would prefer the exact `en`). Cached: clients send the same few headers."""
    for value, quality in parse_accept_header(accept, LanguageAccept):
        lang = normalize_language(value)
        if lang and quality > 0:
            return lang
    return DEFAULT_LANGUAGE


@lru_cache(maxsize=8192)
def _format_number(locale: str, number: object) -> str:
    return format_decimal(number, locale=locale)


def request_format_number() -> Callable[[object], str]:
    """Flask-Babel's format_number, memoized (pages format the same few numbers) and with
    the request's locale looked up once, for a page's context: a checker tap formats some
    thirty numbers, and Flask-Babel finds the locale anew each time."""
    return partial(_format_number, str(get_locale()))


def _bound_gettext(translations) -> dict:
    """Jinja's newstyle `_`, `gettext` and `ngettext` bound to one request's catalog.

    Flask-Babel's own look the catalog up in the request context on every call (a
    checker page makes hundreds); these do it once, when the template context is made.
    Same behaviour: always a format string, autoescaped (jinja2.ext newstyle gettext).
    """
    gettext_, ngettext_ = translations.ugettext, translations.ungettext

    @pass_context
    def gettext(context, string, /, **variables):
        rv = gettext_(string)
        if context.eval_ctx.autoescape:
            rv = Markup(rv)
        return rv % variables

    @pass_context
    def ngettext(context, singular, plural, num, /, **variables):
        variables.setdefault("num", num)
        rv = ngettext_(singular, plural, num)
        if context.eval_ctx.autoescape:
            rv = Markup(rv)
        return rv % variables

    return {"_": gettext, "gettext": gettext, "ngettext": ngettext}


def request_catalog():
    """The request's catalog, looked up once per language and request.

    Flask-Babel's own gettext looks it up on every call, and the macros a template imports
    without its context (the Koi-Koi card chart, the option menus) call the environment's
    gettext, not the bound ones above, hundreds of times per checker page.
    """
    if not has_app_context():
        return get_translations()
    kept = g.setdefault("catalogs", {})
    lang = g.get("lang")  # what the locale is chosen from (see `current`)
    found = kept.get(lang)
    if found is None:
        found = kept[lang] = get_translations()
    return found


def current() -> str:
    lang = g.get("lang")
    if lang in LANGUAGES:
        return lang
    g.negotiated = True
    return negotiated()


def init_app(app: Flask) -> None:
    app.url_map.converters["lang"] = LanguageConverter
    app.url_map.converters["game"] = game_converter()
    app.url_map.strict_slashes = True
    Babel(app, locale_selector=current)
    app.jinja_env.install_gettext_callables(  # as Flask-Babel installs them, one lookup each
        gettext=lambda s: request_catalog().ugettext(s),
        ngettext=lambda s, p, n: request_catalog().ungettext(s, p, n),
        newstyle=True,
        pgettext=lambda c, s: request_catalog().upgettext(c, s),
        npgettext=lambda c, s, p, n: request_catalog().unpgettext(c, s, p, n),
    )

    @app.url_value_preprocessor
    def pull_lang(endpoint, values):
        if values and values.get("lang") in LANGUAGES:
            g.lang = values.pop("lang")

    @app.url_defaults
    def add_lang(endpoint, values):
        if "lang" not in values and app.url_map.is_endpoint_expecting(endpoint, "lang"):
            values["lang"] = current()

    @app.after_request
    def vary(response):
        if g.get("negotiated"):
            response.vary.add("Accept-Language")
        return response

    app.jinja_env.filters["isolate"] = isolate
    # a source's description standing alone ("The English rulebook…"; it is written to follow
    # a colon, rulebook/sources.py)
    app.jinja_env.filters["capfirst"] = capitalized
    app.context_processor(lambda: _bound_gettext(get_translations()))
    app.jinja_env.globals.update(
        language_links=language_links,
        language_name=language_name,
        LANGUAGES=LANGUAGES,
    )


def kept_query() -> str:
    """The query parameters this page reads (PAGE_PARAMETERS), in the request's order.

    Only those: they never reach url_for as arguments (`?_anchor=`, `?endpoint=` are not
    link options), and a parameter no page reads (`utm_source`) leaves the page as it is,
    so the page cache can ignore it.
    """
    known = current_app.config["PAGE_PARAMETERS"].get(request.endpoint, ())
    pairs = [(k, v) for k, v in request.args.items(multi=True) if k in known]
    return "?" + urlencode(pairs) if pairs else ""


def _same_page(lang: str, query: str, external: bool = False) -> str:
    args = dict(request.view_args or {})
    args["lang"] = lang
    return url_for(request.endpoint, _external=external, **args) + query


def language_links() -> list[dict[str, str]]:
    """This page in every language: for the switcher and the hreflang alternates."""
    here = current()
    if request.endpoint is None or not (request.url_rule and "lang" in request.url_rule.arguments):
        # an error page: offer the home page in every language (no absolute links: an
        # error page has no alternates, and its Host may be the error)
        links = [{"lang": code, "href": url_for("site.home", lang=code), "abs": None}
                 for code in LANGUAGES]
    else:
        query = kept_query()
        links = [
            {"lang": code, "href": _same_page(code, query),
             "abs": _same_page(code, query, external=True)}
            for code in LANGUAGES
        ]
    for link in links:
        link["name"] = language_name(link["lang"], link["lang"])
        link["current"] = link["lang"] == here
    return links

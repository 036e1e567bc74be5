"""What a page says about itself to search engines and link previews, in its language.

`page_meta()` (a template global, see `init_app`) reads the page's context and gives its
title and description for `<meta name="description">` and the Open Graph tags: a rules
page describes its game, a search its query, and a ruling's permalink its verdict, so that
a link pasted into a group chat previews the referee's verdict and the round's totals in
the page's language. Every page of a game shows its picture (`image`: the game's name and
drawings in the page's language, drawn once by tools/og_images.py). Every sentence is in the catalogs; the
verdicts are the referee's own sentences.
"""
from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any

from babel.lists import format_list
from flask import url_for
from flask_babel import gettext
from jinja2 import pass_context

from rulebook.i18n import N_, translator
from rulebook.problems import quote

from ..games.base import no_summary
from ..http.caching import hashed_name

MAX_DESCRIPTION = 200  # characters; previews cut longer texts themselves, mid-word
DESCRIPTIONS = {
    "home": N_("Rules of two-player Japanese card games (%(games)s) in your language, and a "
               "referee that scores a finished round with the rules that decide it."),
    "rules": N_("%(game)s: the complete rules in plain words, with what each edition, ruleset "
                "and variant changes."),
    "disagreements": N_("%(game)s: where editions and rules guides disagree, and how this "
                        "site reads each point."),
    "search": N_("%(game)s: search the rules in your language."),
    "search.query": N_("%(game)s: the rules that match %(query)s."),
    "checker": N_("%(game)s: enter a finished round and get the official score, with the "
                  "rules that decide it."),
    "compare": N_("%(game)s: every ruleset or edition side by side, each value with its source."),
    "ruling": N_("A %(game)s round scored by Shinpan. %(verdict)s"),
    "developers": N_("The referee of this site's games (%(games)s) for programs: a JSON API "
                     "and a command line, with the rule behind every step of a ruling."),
}


@dataclass(frozen=True)
class PageMeta:
    title: str
    description: str
    locale: str  # Open Graph's form: de_DE is not needed, the language alone is valid
    image: str | None = None  # the link preview's picture, an absolute URL
    image_alt: str = ""
    image_size: tuple[int, int] = (1200, 630)  # px, what chats and social sites show whole


def preview_image(game: Any, lang: str) -> tuple[str, str] | None:
    """(absolute URL, text alternative) of a game's preview picture in `lang`; None for a
    game that has none (static/img/og/<game>-<lang>.png)."""
    name = hashed_name(f"img/og/{game.slug}-{lang}.png")
    if name is None:
        return None
    return (url_for("static", filename=name, _external=True),
            gettext("Rules of %(game)s", game=str(game.title)))


def shorten(text: str, limit: int = MAX_DESCRIPTION) -> str:
    """`text` cut at a word boundary to at most `limit` characters (with "…")."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1].rsplit(" ", 1)[0].rstrip(",;:")
    return cut + "…"


def verdict(ruling: Mapping[str, Any] | None,
            summary_rules: Callable[[Mapping[str, Any]], Collection[str]] = no_summary,
            ) -> tuple[str, str] | None:
    """(headline, summary) of a valid ruling: the referee's result, else the last round's
    last sentence; then the lines of the round that `summary_rules` (the game's
    `WebGame.summary`) names: its totals, its scoring combinations."""
    if not ruling or not ruling.get("valid") or not ruling.get("rounds"):
        return None
    last = ruling["rounds"][-1]
    lines = last.get("explanation") or []
    headline = (ruling.get("result") or {}).get("message") or (
        lines[-1]["message"] if lines else "")
    wanted = summary_rules(last)
    summary = " ".join(e["message"] for e in lines
                       if e.get("rule") in wanted and e["message"] != headline)
    return headline, summary


def describe(context: Mapping[str, Any], lang: str) -> PageMeta:
    """The title and description of the page rendered with `context`."""
    page = context.get("page") or ("error" if context.get("error_page") else "home")
    game = context.get("game")
    name = str(game.title) if game is not None else gettext("Shinpan")
    site = gettext("Shinpan")
    title = name if game is not None else site
    image = preview_image(game, lang) if game is not None else None
    picture = {"image": image[0], "image_alt": image[1]} if image else {}
    found = verdict(context.get("ruling"), game.summary) if page == "checker" and game else None
    if found and found[0]:
        headline, summary = found
        description = gettext(DESCRIPTIONS["ruling"], game=name, verdict=headline)
        return PageMeta(headline, shorten(f"{description} {summary}"), lang, **picture)
    if page == "search" and context.get("query"):
        text = gettext(DESCRIPTIONS["search.query"], game=name,
                       query=quote(context["query"], translator(lang)))
    elif page in DESCRIPTIONS and game is not None:
        text = gettext(DESCRIPTIONS[page], game=name)
    else:
        text = gettext(DESCRIPTIONS[page if page == "developers" else "home"],
                       games=game_names(lang))
    return PageMeta(title, shorten(text), lang, **picture)


def game_names(lang: str) -> str:
    """Every game's name, joined as the language joins a list ("Hanamikoji und Koi-Koi")."""
    from ..games import GAMES

    return format_list([str(web.title) for web in GAMES.values()], locale=lang)


@pass_context
def page_meta(context) -> PageMeta:
    return describe(context, context.get("lang") or "en")


def init_app(app) -> None:
    app.jinja_env.globals["page_meta"] = page_meta

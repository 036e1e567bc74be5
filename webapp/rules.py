"""The rules pages of a game: the whole rulebook, where sources disagree, and search.

Views only read the rulebook and the request, then render: the game's data comes from
its YAML (through the GAMES registry), names and texts from `Terms`.
"""
from __future__ import annotations

from typing import Any

from babel.lists import format_list
from flask import Blueprint, g, render_template, request, url_for
from flask_babel import gettext, ngettext
from markupsafe import Markup, escape

from rulebook.i18n import LANGUAGES

from . import search as searching
from .games import GAMES
from .languages import format_number

bp = Blueprint("rules", __name__)


def query_parameters() -> dict[str, frozenset[str]]:
    """The page options of every game and each page's own parameters (webapp/__init__.py)."""
    options: set[str] = {"compare"}
    for web in GAMES.values():
        options |= web.parameters(web.rulebook)
    return {"rules.rules": frozenset(options), "rules.disagreements": frozenset(options),
            "rules.search": frozenset(options | {"q"})}


def page_context(game_slug: str, args: Any) -> dict:
    """What every page of a game shows: its options, terms and links that keep them."""
    game = GAMES[game_slug]
    rb = game.rulebook
    lang = g.lang
    options = game.options(rb, args)
    notices = list(options.notices)

    compare = args.get("compare", "").strip()
    if compare and compare not in LANGUAGES:
        notices.append(
            gettext("There is no language “%(value)s” to compare with.", value=compare[:20])
        )
        compare = ""
    if compare == lang:
        compare = ""

    state = dict(options.query)
    if compare:
        state["compare"] = compare
    terms = game.terms(rb, lang, options)
    g.game = game

    def link(endpoint: str = "rules.rules", anchor: str | None = None, **extra) -> str:
        """A link inside this game that keeps the page options (edition, variants, compare)."""
        return url_for(endpoint, game=game.slug, _anchor=anchor, **{**state, **extra})

    def rule_url(rule_id: str | None) -> str:
        return link("rules.rules", anchor=rule_id)

    return {
        "game": game,
        "rb": rb,
        "options": options,
        "notices": notices,
        "terms": terms,
        "compare": compare,
        "compare_terms": game.terms(rb, compare, options) if compare else None,
        "state": state,
        "link": link,
        "rule_url": rule_url,
        "rule_list": rule_list,
        "highlights": game.highlights(rb, options),
        "format_number": format_number,
        "ngettext": ngettext,
    }


def rule_list(rule_ids, link) -> Markup:
    """Links to rules, joined as a list in the page's language ("a, b and c")."""
    rule_ids = list(rule_ids)
    if not rule_ids:
        return Markup("")
    marks = [f"\x00{i}\x00" for i in range(len(rule_ids))]
    pattern = str(escape(format_list(marks, locale=g.lang)))
    for mark, rule_id in zip(marks, rule_ids):
        anchor = Markup('<a href="{}">{}</a>').format(link("rules.rules", anchor=rule_id), rule_id)
        pattern = pattern.replace(mark, str(anchor), 1)
    return Markup(pattern)


@bp.get("/<lang:lang>/<game:game>/")
def rules(game: str):
    return render_template("rules/rules.html", page="rules", **page_context(game, request.args))


@bp.get("/<lang:lang>/<game:game>/disagreements")
def disagreements(game: str):
    return render_template("rules/disagreements.html", page="disagreements", **page_context(game, request.args))


@bp.get("/<lang:lang>/<game:game>/search")
def search(game: str):
    ctx = page_context(game, request.args)
    query = request.args.get("q", "")
    if len(query) > searching.MAX_QUERY:
        query = query[: searching.MAX_QUERY]
        ctx["notices"].append(
            ngettext(
                "Your search was shortened to %(num)s character.",
                "Your search was shortened to %(num)s characters.",
                searching.MAX_QUERY,
            )
        )
    query = query.strip()
    index = searching.build_index(game, g.lang, ctx["options"].values.get("edition", ""))
    hits = searching.search(index, query) if query else []
    return render_template(
        "rules/search.html", page="search", query=query, hits=hits, **ctx
    )

"""The rules pages of a game: the whole rulebook, where sources disagree, and search.

Views only read the rulebook and the request, then render: the game's data comes from
its YAML (through the GAMES registry), names and texts from `Terms`.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from babel.lists import format_list
from flask import Blueprint, g, render_template, request, url_for
from flask_babel import gettext, ngettext
from markupsafe import Markup, escape

from rulebook.i18n import LANGUAGES

from ..games import GAMES
from . import search as searching
from .languages import request_format_number
from .section_size import size_classes

bp = Blueprint("rules", __name__)
# The YAML section written for programs ("Using the referee"): shown on the developer page
# (/<lang>/developers), not among the rules; its rule ids there are `<game>.<rule id>`.
DEVELOPER_SECTION = "referee"


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
        return place_of(game.slug, rule_id, lambda anchor: link("rules.rules", anchor=anchor))

    def rule_list(rule_ids) -> Markup:
        """Links to rules by their titles, joined as the language joins a list."""
        return joined_links([(rule_url(i), terms.rule_title(i)) for i in rule_ids])

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
        "developer_rules": developer_rules(rb),
        "developer_section": DEVELOPER_SECTION,
        "highlights": game.highlights(rb, options),
        "format_number": request_format_number(),
        "ngettext": ngettext,
    }


def developer_rules(rb: Any) -> tuple[str, ...]:
    """The rule ids of the developer section, in page order."""
    return tuple(rule_id for section in rb.sections if section.id == DEVELOPER_SECTION
                 for rule_id in section.rules)


def place_of(game_slug: str, rule_id: str | None, rules_link: Callable[[str | None], str]) -> str:
    """Where a rule is read: its anchor on the rules page (`rules_link`), or on the
    developer page for the rules written for programs."""
    if rule_id in developer_rules(GAMES[game_slug].rulebook):
        return url_for("site.developers", _anchor=f"{game_slug}.{rule_id}")
    return rules_link(rule_id)


def joined_links(links: list[tuple[str, str]]) -> Markup:
    """(href, text) pairs as links, joined as a list in the page's language ("a, b and c")."""
    if not links:
        return Markup("")
    marks = [f"\x00{i}\x00" for i in range(len(links))]
    pattern = str(escape(format_list(marks, locale=g.lang)))
    for mark, (href, text) in zip(marks, links):
        pattern = pattern.replace(mark, str(Markup('<a href="{}">{}</a>').format(href, text)), 1)
    return Markup(pattern)


@dataclass(frozen=True)
class Result:
    """A search hit as the page shows it: in the edition and options in force, the words
    that matched marked."""

    rule_id: str
    kind: str  # rule, answer or note (webapp/pages/search.py)
    rule_title: Markup
    title: Markup  # its section's title
    text: Markup
    score: float


@dataclass(frozen=True)
class Found:
    """What a search found in one game's rules, best first, with their links."""

    game: Any
    terms: Any
    hits: list[Result]
    url: Callable[[str], str]  # rule id -> its place on the rules page
    suggestion: str | None = None  # "did you mean", when a word is not the rules' own
    answer: Result | None = None  # the hit that clearly answers the query (also in `hits`)
    knows_every_word: bool = False  # the rules use every word of the query as typed
    named: bool = False  # the query names the game ("koi koi", "花見小路")


def read_query(args: Mapping[str, str], notices: list[str]) -> str:
    """The search words of `?q=`, cut to MAX_QUERY characters (with a notice)."""
    query = args.get("q", "")
    if len(query) > searching.MAX_QUERY:
        query = query[: searching.MAX_QUERY]
        notices.append(ngettext(
            "Your search was shortened to %(num)s character.",
            "Your search was shortened to %(num)s characters.",
            searching.MAX_QUERY,
        ))
    return query.strip()


def find(game_slug: str, query: str, lang: str, options: Any = None,
         url: Callable[[str], str] | None = None) -> Found:
    """Search one game's rules in `lang` as `options` show them (default: the defaults)."""
    game = GAMES[game_slug]
    rb = game.rulebook
    options = options or game.options(rb, {})
    terms = game.terms(rb, lang, options)
    index = searching.build_index(game_slug, lang)
    if url is None:
        def url(rule_id: str) -> str:
            return place_of(game_slug, rule_id,
                            lambda anchor: url_for("rules.rules", game=game_slug, _anchor=anchor))
    hits = searching.search(index, query)
    sections = {section.id: terms.section_title(section) for section in rb.sections}

    def shown(hit: searching.Hit) -> Result:
        def marked(text: str) -> Markup:
            return searching.highlight(text, hit.marked, lang)

        return Result(hit.rule_id, hit.entry.kind, marked(terms.rule_title(hit.rule_id)),
                      marked(sections[hit.entry.section_id]), marked(terms.rule(hit.rule_id)),
                      hit.score)

    results = [shown(hit) for hit in hits]
    named = names_game(query, game)
    best = searching.answer(hits)
    if best and named and _first_without_name(index, query, game) != best.rule_id:
        best = None  # the card rested on the game's name
    return Found(game, terms, results, url, searching.suggest(index, query),
                 results[hits.index(best)] if best else None,
                 searching.knows_every_word(index, query), named)


def _first_without_name(index: Any, query: str, game: Any) -> str | None:
    """The first rule found for the query without the game's name ("how to play hanamikoji":
    "how to play"). An answer card must be that rule too: the name alone answers nothing (it
    stands in the titles of the editions compared, and Koi-Koi's call is named after the
    game, so "koi koi" is kept where the rest of the question points to the same rule)."""
    rest = query
    for name in _names(game):
        rest = _name_pattern(name).sub(" ", rest)
    hits = searching.search(index, rest) if searching.query_words(rest, index) else []
    return hits[0].rule_id if hits else None


def names_game(query: str, game: Any) -> bool:
    """Whether the query names the game, in the page's language or by its Latin name."""
    return any(_name_pattern(name).search(query) for name in _names(game))


def _names(game: Any) -> set[str]:
    return {game.slug, str(game.title)}  # the title in the page's language


@lru_cache(maxsize=64)
def _name_pattern(name: str) -> re.Pattern[str]:
    """A game's name as players type it: any case, its parts apart, joined or hyphenated
    ("koi koi", "Koi-Koi", "koikoi"); a whole word where words are spaced."""
    letters = "".join(char for char in name.casefold() if char.isalnum())
    body = r"[\s\-‐‑–·・]*".join(re.escape(char) for char in letters)
    if all(unicodedata.name(char, "").startswith(("LATIN", "CYRILLIC", "DIGIT"))
           for char in letters):
        body = rf"(?<![^\W_]){body}(?![^\W_])"
    return re.compile(body, re.IGNORECASE)


def best_game_first(found: list[Found], query: str, lang: str) -> list[Found]:
    """The games of a search over all of them, in the order a player expects: a game the
    query names first ("koi koi", "Кой-кой", "こいこい"; its name is common in its own rules,
    so it scores little there), then the one whose rules answer best. Each game's best score
    is weighed by how much the query's words are that game's (`searching.evidence`): scores
    of two games' searches do not compare alone ("combien vaut inoshikacho" scored higher in
    Hanamikoji's rules, on "combien"). The registry's order where they tie."""
    weights = searching.evidence(
        [searching.build_index(group.game.slug, lang) for group in found], query)

    def order(pair: tuple[Found, float]) -> tuple[bool, float, float]:
        group, weight = pair
        score = group.hits[0].score if group.hits else 0.0
        return not group.named, -score * weight, -score

    return [group for group, _ in sorted(zip(found, weights), key=order)]


def best_answer(found: list[Found]) -> tuple[Found, Result] | None:
    """The answer card of a search over one or more games: a game's answer, when no other
    game's best hit comes near it; only the game's, when the query names one game alone
    ("hanamikoji regeln" is not asking for Koi-Koi's flower viewing, "hanami")."""
    named = [group for group in found if group.named]
    if len(named) == 1:
        found = named
    answers = [group for group in found if group.answer]
    if len(answers) != 1:
        return None
    group = answers[0]
    others = [g.hits[0].score for g in found if g is not group and g.hits]
    if any(group.answer.score < searching.CLEAR * score for score in others):
        return None
    return group, group.answer


def did_you_mean(found: list[Found]) -> str | None:
    """The query as the rules would write it, when no game's rules use all its words as
    typed (a word one game uses is not a typo because the other lacks it)."""
    if any(group.knows_every_word for group in found):
        return None
    return next((group.suggestion for group in found if group.suggestion), None)


@bp.get("/<lang:lang>/<game:game>/")
def rules(game: str):
    return render_template("rules/rules.html", page="rules", section_size=size_classes,
                           **page_context(game, request.args))


@bp.get("/<lang:lang>/<game:game>/disagreements")
def disagreements(game: str):
    return render_template("rules/disagreements.html", page="disagreements", **page_context(game, request.args))


@bp.get("/<lang:lang>/<game:game>/search")
def search(game: str):
    ctx = page_context(game, request.args)
    query = read_query(request.args, ctx["notices"])
    found = [find(game, query, g.lang, ctx["options"], ctx["rule_url"])] if query else []
    return render_template("rules/search.html", page="search", query=query, found=found,
                           suggestion=did_you_mean(found), best=best_answer(found), **ctx)

"""The comparison pages: every ruleset or edition of a game side by side, each fact with
the source behind it and how it was read (printed, reported, inferred, unknown).

A game has one when its web package has a `compare` module (webapp/games/<slug>/compare.py:
ITEMS, the address segment, and the rows, labels and cells of its facts); the facts' sources
come from its rulebook's `provenance(item, key)` over `compared()`. Nothing here knows a
particular game. On a phone the reader picks two to compare (`?a=…&b=…`, a GET form); a
wide screen shows them all, the two picked ones first.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from flask import Blueprint, abort, g, render_template, request, url_for
from flask_babel import lazy_gettext

from rulebook import GAMES as RULEBOOK_GAMES

from ..games import GAMES
from .rules import page_context

bp = Blueprint("compare", __name__)
MAX_VALUE = 40  # characters of a query value we look at

# How a fact was read (rulebook/sources.py BASES), in words beside it, and what that means.
BASIS_WORDS = {
    "printed": lazy_gettext("printed in its own rules"),
    "reported": lazy_gettext("reported by others"),
    "guide": lazy_gettext("a guide's terms, not checked"),
    "inferred": lazy_gettext("inferred"),
    "unknown": lazy_gettext("not documented"),
}
BASIS_MEANING = {
    "printed": lazy_gettext("the edition's or ruleset's own rules, leaflet or help page say it."),
    "reported": lazy_gettext("a review, a wiki page or a players' guide describes it; we could "
                             "not read the game's own rules."),
    "guide": lazy_gettext("a guide's wording, which could not be checked against the edition."),
    "inferred": lazy_gettext("no source we could read says it; this site derives it from "
                             "related facts, as the note beside it explains."),
    "unknown": lazy_gettext("no source we could read says it. A yaku value that is not "
                            "documented cannot be scored; an option that is not documented "
                            "takes the rulebook's default."),
}


def compare_module(game_slug: str) -> ModuleType | None:
    """The game's comparison module, or None when it has no comparison page."""
    name = f"{RULEBOOK_GAMES[game_slug].web_module}.compare"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as missing:
        if missing.name != name:
            raise
        return None


def query_parameters() -> dict[str, frozenset[str]]:
    """The comparison reads the two picked items and keeps every game option in its links."""
    names: set[str] = {"a", "b"}
    for web in GAMES.values():
        names |= web.parameters(web.rulebook)
    return {"compare.comparison": frozenset(names)}


@dataclass
class Cell:
    item: str
    text: Any
    basis: str
    sources: list[Any]  # rulebook Source objects
    note: str | None
    says_unknown: bool  # the text already says it is not documented
    picked: bool
    differs: bool = False  # differs from the first picked item


@dataclass
class Row:
    key: str
    label: str
    rule: str
    cells: list[Cell]
    differs_all: bool = False
    differs_pair: bool = False


@dataclass
class Group:
    id: str
    title: Any
    rows: list[Row] = field(default_factory=list)


def picked_items(module: ModuleType, items: list[tuple[str, str]], args: Any,
                 notices: list[str]) -> tuple[str, str]:
    """The two items to compare: `a` and `b` from the query, else the table's own ruleset or
    edition (the page option) and the first other one."""
    ids = [i for i, _ in items]
    names = dict(items)
    own = args.get(module.ITEM_PARAMETER, "").strip()[:MAX_VALUE]
    first = own if own in ids else ids[0]
    second = next(i for i in ids if i != first)
    chosen: list[str] = []
    for key, fallback in (("a", first), ("b", second)):
        value = args.get(key, "").strip()[:MAX_VALUE]
        if value in ids and value not in chosen:
            chosen.append(value)
        else:
            pick = next(i for i in (fallback, *ids) if i not in chosen)
            if value and value not in ids:
                notices.append(str(module.UNKNOWN_ITEM) % {"value": value, "default": names[pick]})
            chosen.append(pick)
    return chosen[0], chosen[1]


def build(rb: Any, module: ModuleType, terms: Any, a: str, b: str) -> tuple[list, list, list]:
    """(items in column order, groups of rows, the sources cited, in order of first use)."""
    order = [a, b] + [i for i, _ in module.items(rb) if i not in (a, b)]
    names = dict(module.items(rb))
    cited: dict[str, Any] = {}
    groups = []
    for group_id, title, keys in module.rows(rb):
        group = Group(group_id, title)
        for key in keys:
            cells, values = [], []
            for item in order:
                value, text, says_unknown = module.cell(rb, terms, item, key)
                sourced = rb.provenance(item, key)
                sources = [rb.sources[s] for s in sourced.sources]
                for src in sources:
                    cited.setdefault(src.key, src)
                note = sourced.note and terms.p(f"note.{sourced.note}", rb.notes[sourced.note])
                cells.append(Cell(item, text, sourced.basis, sources, note, says_unknown,
                                  item in (a, b)))
                values.append(value)
            for cell, value in zip(cells, values):
                cell.differs = value != values[0]
            group.rows.append(Row(key, module.label(rb, terms, key), module.rule(rb, key), cells,
                                  differs_all=len({repr(v) for v in values}) > 1,
                                  differs_pair=values[0] != values[1]))
        groups.append(group)
    return [(i, names[i], i in (a, b)) for i in order], groups, list(cited.values())


@bp.get("/<lang:lang>/<game:game>/<any(rulesets, editions):kind>")
def comparison(game: str, kind: str):
    module = compare_module(game)
    if module is None or module.ITEMS != kind:
        abort(404)
    ctx = page_context(game, request.args)
    rb = ctx["rb"]
    items = module.items(rb)
    a, b = picked_items(module, items, request.args, ctx["notices"])
    columns, groups, cited = build(rb, module, ctx["terms"], a, b)
    return render_template("compare/compare.html", page="compare", module=module, columns=columns,
                           groups=groups, cited=cited, picked=(a, b), items=items,
                           basis_words=BASIS_WORDS, basis_meaning=BASIS_MEANING, **ctx)


def comparison_link(game: Any, link: Any = None) -> tuple[str, Any, Any] | None:
    """(address, title, short name) of a game's comparison page in the page's language; with
    the page's `link` (rules.page_context), the address keeps the page's options."""
    module = compare_module(game.slug)
    if module is None:
        return None
    if link is not None:
        return link("compare.comparison", kind=module.ITEMS), module.TITLE, module.NAV
    address = url_for("compare.comparison", lang=g.lang, game=game.slug, kind=module.ITEMS)
    return address, module.TITLE, module.NAV


@bp.record_once
def _register(state: Any) -> None:
    state.app.jinja_env.globals["comparison_link"] = comparison_link


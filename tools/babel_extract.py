"""Babel extraction method for rulebook YAML files (see babel.cfg).

`pybabel extract` calls `extract_rulebook` for every rulebook YAML. It yields
`(lineno, "pgettext", (context, message), comments)`; Babel's default keyword spec for
`pgettext` (`((1, 'c'), 2)`) turns the first element into the message context.

Rule texts (every `sections[*].rules`), their titles, the ways players ask for them
(`sections[*].asked`, one entry per rule, the phrasings joined by " | "), section titles and
what each source is (`sources[*].about`) are extracted for every game;
what else a game's YAML holds for the catalogs is its package's `EXTRACT` (see
rulebook/game.py), found through `rulebook.GAMES`.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import yaml

from rulebook import GAMES
from rulebook.loader import ASKED_SEPARATOR

RULE_COMMENT = (
    "Translators: rule text; the message context is the rule id. Keep placeholders such "
    "as {secret}, {tradeoff}, {gift} and {competition} unchanged: they become this site's "
    "action names in your language (an edition's printed names are shown beside them). "
    "Where a text quotes an option's value, quote its menu label exactly."
)
ASKED_COMMENT = (
    "Translators: not a translation. The ways players of your language ask for this rule "
    "(the message context is asked.<rule id>): short questions or phrases, as they would type "
    "them into a search, in their own words and the words of your language's editions, "
    "separated by \" | \". The search reads them; no page shows them. Write as many as help, "
    "not one per English phrase."
)
TITLE_COMMENT = (
    "Translators: the short name of a rule (the message context is title.<rule id>), shown "
    "in links, lists and rulings instead of its id. Keep placeholders unchanged."
)

SOURCE_COMMENT = ("Translators: what a source document is (its own title is shown beside, "
                  "untranslated)")

Message = tuple[int, str, tuple[str, str] | str, list[str]]


class _LineLoader(yaml.SafeLoader):
    """A SafeLoader that records the line of every mapping as `__line__`."""


def _construct_mapping(loader: _LineLoader, node: yaml.MappingNode) -> dict[str, Any]:
    mapping = loader.construct_mapping(node, deep=True)
    lines = {}
    for key_node, value_node in node.value:
        lines[loader.construct_object(key_node)] = value_node.start_mark.line + 1
    mapping["__line__"] = node.start_mark.line + 1
    mapping["__lines__"] = lines
    return mapping


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def _clean(text: Any) -> str:
    """Exactly as model.build_rulebook normalizes rule texts."""
    return " ".join(str(text).split())


def extract_rulebook(fileobj, keywords, comment_tags, options) -> Iterator[Message]:
    data = yaml.load(fileobj.read(), Loader=_LineLoader)
    if not isinstance(data, dict):
        return
    game = data.get("game", "")
    seen: set[tuple[str, str]] = set()

    def emit(line: int, context: str | None, message: Any, comment: str) -> Iterator[Message]:
        text = _clean(message)
        if text and (context, text) not in seen:
            seen.add((context, text))
            if context is None:  # the same entry as the pages' gettext() of this text
                yield line, "gettext", text, [comment]
            else:
                yield line, "pgettext", (context, text), [comment]

    for section in data.get("sections", []):
        yield from emit(
            section["__lines__"].get("title", section["__line__"]),
            f"section.{section['id']}",
            section["title"],
            "Translators: section title of the rules page",
        )
        titles = section.get("titles", {})
        for rule_id, title in titles.items():
            if not rule_id.startswith("__"):
                yield from emit(titles["__lines__"][rule_id], f"title.{rule_id}", title,
                                TITLE_COMMENT)
        rules = section.get("rules", {})
        for rule_id, text in rules.items():
            if rule_id.startswith("__"):
                continue
            yield from emit(rules["__lines__"][rule_id], rule_id, text, RULE_COMMENT)
        asked = section.get("asked", {})
        for rule_id, phrasings in asked.items():
            if not rule_id.startswith("__"):
                yield from emit(asked["__lines__"][rule_id], f"asked.{rule_id}",
                                ASKED_SEPARATOR.join(_clean(p) for p in phrasings), ASKED_COMMENT)

    # What a source is: the rules pages name their canonical source, so every game's.
    sources = data.get("sources", {})
    for key, source in sources.items():
        if not key.startswith("__") and isinstance(source, dict) and source.get("about"):
            yield from emit(source["__line__"], f"source.{key}", source["about"], SOURCE_COMMENT)

    spec = GAMES[game].module.EXTRACT if game in GAMES else ()
    for where, field, context, comment in spec:
        for line, values, message in _entries(data, where, field):
            yield from emit(line, context and context.format(**values), message, comment)


def _entries(data: dict, where: str, field: str | None) -> Iterator[tuple[int, dict, Any]]:
    """(line, the entry's values for the context, the message) at a dotted YAML path."""
    found: Any = data
    for part in where.format(**{k: v for k, v in data.items() if isinstance(v, str)}).split("."):
        found = found.get(part, {}) if isinstance(found, dict) else {}
    if isinstance(found, dict):
        items = [(key, value) for key, value in found.items() if not key.startswith("__")]
        lines = found.get("__lines__", {})
    else:
        items, lines = list(enumerate(found)), {}
    for key, entry in items:
        if field is None:  # a mapping of plain texts: the key names the entry
            if entry is not None:
                yield lines.get(key, 0), {"key": key}, entry
        elif isinstance(entry, dict) and entry.get(field) is not None:
            values = {k: v for k, v in entry.items() if not k.startswith("__")}
            yield entry["__line__"], {"key": key, **values}, entry[field]

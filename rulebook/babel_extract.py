"""Babel extraction method for rulebook YAML files (see babel.cfg).

`pybabel extract` calls `extract_rulebook` for every `rulebook/*.yaml`. It yields
`(lineno, "pgettext", (context, message), comments)`; Babel's default keyword spec for
`pgettext` (`((1, 'c'), 2)`) turns the first element into the message context.

What is extracted is declared per game in `GAMES` below, so a new game (Koi-Koi) only
adds its own table: which lists of the YAML hold translatable names and which message
context each gets. Rule texts (every `sections[*].rules`) and section titles are
extracted for every game.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import yaml

RULE_COMMENT = (
    "Translators: rule text; the message context is the rule id. Keep placeholders such "
    "as {secret}, {tradeoff}, {gift} and {competition} unchanged: they become the action "
    "names of the chosen edition."
)

# Per game: (YAML list or mapping, field to translate, context template, comment).
# The context template is formatted with the entry (so `{colour}` reads its colour; a
# mapping's entries also get their key as `{key}`).
GAMES: dict[str, list[tuple[str, str, str, str]]] = {
    "hanamikoji": [
        ("sources", "about", "source.{key}",
         "Translators: what a source document is (its own title is shown beside, untranslated)"),
        ("geishas", "name", "geisha.{id}", "Translators: geisha name"),
        ("geishas", "item", "item.{id}", "Translators: the item this geisha favours"),
        ("geishas", "colour", "colour.{colour}", "Translators: colour of a geisha card"),
    ],
    "koikoi": [
        ("cards", "name", "koikoi.card.{slug}", "Translators: Koi-Koi card name"),
        ("months", "name", "koikoi.month.{number}",
         "Translators: the flower of a Koi-Koi month (card suit)"),
        ("yaku", "name", "koikoi.yaku.{id}", "Translators: Koi-Koi scoring combination"),
    ],
}

# Games whose editions name the actions: the default edition's names, context action.<id>.
EDITION_ACTIONS = {"hanamikoji"}

Message = tuple[int, str, tuple[str, str], list[str]]


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

    def emit(line: int, context: str, message: Any, comment: str) -> Iterator[Message]:
        text = _clean(message)
        if text and (context, text) not in seen:
            seen.add((context, text))
            yield line, "pgettext", (context, text), [comment]

    for section in data.get("sections", []):
        yield from emit(
            section["__lines__"].get("title", section["__line__"]),
            f"section.{section['id']}",
            section["title"],
            "Translators: section title of the rules page",
        )
        rules = section.get("rules", {})
        for rule_id, text in rules.items():
            if rule_id.startswith("__"):
                continue
            yield from emit(rules["__lines__"][rule_id], rule_id, text, RULE_COMMENT)

    for list_name, field, context, comment in GAMES.get(game, []):
        found = data.get(list_name, [])
        if isinstance(found, dict):
            entries = [{**entry, "key": key} for key, entry in found.items()
                       if not key.startswith("__")]
        else:
            entries = found
        for entry in entries:
            if entry.get(field) is None:
                continue
            values = {k: v for k, v in entry.items() if not k.startswith("__")}
            yield from emit(entry["__line__"], context.format(**values), entry[field], comment)

    if game in EDITION_ACTIONS:
        default = data["editions"][data["default_edition"]]
        actions = default["actions"]
        for action_id, name in actions.items():
            if action_id.startswith("__"):
                continue
            yield from emit(
                actions["__lines__"][action_id],
                f"action.{action_id}",
                name,
                "Translators: action name on this site (the printed names of the editions "
                "are shown separately)",
            )

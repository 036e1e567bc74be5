"""Full-text search over the rendered rule texts of one language (built once, cached).

Matching is case- and accent-insensitive on both sides: NFKD, combining marks removed,
casefolded ("Compensacion" finds "Compensación", "ТАЄМНИЦЯ" finds "Таємниця").
Every word of the query must occur in the rule's text, its title, its section title or
its action names.
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from markupsafe import Markup, escape

MAX_QUERY = 200
MAX_WORDS = 20


def normalize(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def _normalize_with_map(text: str) -> tuple[str, list[int]]:
    """The normalized text and, for each of its characters, the index in `text`."""
    out: list[str] = []
    index: list[int] = []
    for i, char in enumerate(text):
        norm = normalize(char)
        out.append(norm)
        index.extend([i] * len(norm))
    return "".join(out), index


def query_words(query: str) -> list[str]:
    words = []
    for word in query.split():
        word = normalize(word).strip(".,;:!?()[]{}«»“”„\"'")
        if word and word not in words:
            words.append(word)
    return words[:MAX_WORDS]


def highlight(text: str, words: list[str]) -> Markup:
    """`text` escaped, with each occurrence of the (normalized) words in <mark>."""
    norm, index = _normalize_with_map(text)
    marked = [False] * len(text)
    for word in words:
        start = norm.find(word)
        while start != -1:
            for j in range(start, start + len(word)):
                marked[index[j]] = True
            start = norm.find(word, start + len(word))
    parts: list[str] = []
    i = 0
    while i < len(text):
        j = i
        while j < len(text) and marked[j] == marked[i]:
            j += 1
        chunk = str(escape(text[i:j]))
        parts.append(f"<mark>{chunk}</mark>" if marked[i] else chunk)
        i = j
    return Markup("".join(parts))


@dataclass(frozen=True)
class Entry:
    rule_id: str
    section_id: str
    section_title: str
    rule_title: str
    text: str
    haystack: str


@dataclass(frozen=True)
class Hit:
    entry: Entry
    text: Markup
    title: Markup  # the section's
    rule_title: Markup


@lru_cache(maxsize=64)
def build_index(game: str, lang: str, edition: str) -> tuple[Entry, ...]:
    """One entry per rule, in page order, in `lang` with `edition`'s action names."""
    from .games import GAMES, Options

    spec = GAMES[game]
    rb = spec.rulebook
    terms = spec.terms(rb, lang, Options({"edition": edition}, {"edition": edition}))
    actions = getattr(rb, "actions", {})  # Koi-Koi has none
    action_rules = {action.rule: action.id for action in actions.values()}
    search_extra = getattr(terms, "search_extra", None)  # e.g. Koi-Koi's yaku names
    entries = []
    for section in rb.sections:
        title = terms.section_title(section)
        for rule_id in section.rules:
            text = terms.rule(rule_id)
            rule_title = terms.rule_title(rule_id)
            extra = [rule_id, rule_title]
            if rule_id in action_rules:
                action_id = action_rules[rule_id]
                extra.append(terms.action(action_id))
                printed = terms.printed(action_id)  # shown on the action tile
                if printed:
                    extra.append(printed.name)
            if search_extra is not None:
                extra.extend(search_extra(rule_id))
            haystack = normalize(" ".join([title, text, *extra]))
            entries.append(Entry(rule_id, section.id, title, rule_title, text, haystack))
    return tuple(entries)


def search(index: tuple[Entry, ...], query: str) -> list[Hit]:
    words = query_words(query)
    if not words:
        return []
    return [
        Hit(entry, highlight(entry.text, words), highlight(entry.section_title, words),
            highlight(entry.rule_title, words))
        for entry in index
        if all(word in entry.haystack for word in words)
    ]

"""The players' default names, for every game: a label, and a form that fits a sentence.

A player who gives no name is "Player A". As a label (a form field, a heading, the API's
`players`) that is a name; inside a ruling it is a noun, which many languages give an
article or a lower-case initial: "el jugador A gana", "le joueur A distribue", "перемагає
гравець А". The catalogs hold both forms (the in-sentence one under the context "in a
sentence"), and every message is written so that a real name fits the same place.
`sentence_case` then capitalizes a name that opens a sentence ("El jugador A gana.").
"""
from __future__ import annotations

import re
from functools import cache

from .i18n import N_, translator

PLAYERS = ("a", "b")
OTHER = {"a": "b", "b": "a"}  # a player's opponent
PLAYER_LABELS = {"a": N_("Player A"), "b": N_("Player B")}
# A lower-case first letter of a message or of a sentence in it (after an opening ¿ ¡ or ():
# only those are matched, so a message that needs nothing costs one scan.
_SENTENCE_START = re.compile(r"(^|[.!?]\s+)([¿¡(]?)([a-zß-ÿа-яёіїєґ])")


@cache
def labels(lang: str) -> dict[str, str]:
    """The default names as labels: "Player A", "Jugador A", "Гравець А"."""
    t = translator(lang)
    return {p: t.gettext(PLAYER_LABELS[p]) for p in PLAYERS}


@cache
def in_sentence(lang: str) -> dict[str, str]:
    """The default names as a sentence uses them: "el jugador A", "le joueur A", "гравець А"."""
    t = translator(lang)
    # Translators: the default name inside a sentence, with the article or the lower-case
    # initial your language gives a noun there ("el jugador A", "le joueur A", "гравець А");
    # messages put it where a real name fits too, and a sentence's first letter is capitalized.
    return {"a": t.pgettext("in a sentence", "Player A"),
            "b": t.pgettext("in a sentence", "Player B")}


def sentence_case(text: str) -> str:
    """Each sentence of `text` starts with a capital letter (names and values inside stay)."""
    return _SENTENCE_START.sub(lambda m: m.group(1) + m.group(2) + m.group(3).upper(), text)


@cache
def lowered(lang: str) -> tuple[str, ...]:
    """The default names that start in lower case ("el jugador A"): only a message that
    holds one can need a capital (English and German need none: no cost there)."""
    return tuple(name for name in in_sentence(lang).values() if name[:1].islower())


class Names:
    """The two players of one request: given names, or the defaults of the language."""

    def __init__(self, lang: str):
        # The language's defaults, shared by every request (cached: never change them in
        # place); set() gives a request with a given name copies of its own.
        self.labels = labels(lang)  # for headings, fields and the response's `players`
        self.said = in_sentence(lang)  # for the sentences of messages and rulings
        self.lowered = lowered(lang)

    def set(self, player: str, name: str) -> None:
        self.labels = {**self.labels, player: name}
        self.said = {**self.said, player: name}

    def cap(self, text: str) -> str:
        """`text` with a default name that opens a sentence capitalized ("El jugador A gana.")."""
        if self.lowered and any(name in text for name in self.lowered):
            return sentence_case(text)
        return text

    def __getitem__(self, player: str) -> str:
        return self.said[player]

    def get(self, player: str | None, default: str | None = None) -> str | None:
        return self.said.get(player, default) if player is not None else default

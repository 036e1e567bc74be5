"""Parts of a page made once and kept, for the parts a checker tap renders again and again
unchanged (Koi-Koi's card chart: 48 cards per pile, in every answer).

A template wraps such a part in `{% call kept(key...) %}…{% endcall %}`: the key names
everything the part depends on besides the page's language, which `kept` adds. The copies
are bounded by their size: past KEPT_MOST characters they are all dropped and made again.
"""
from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from threading import Lock
from typing import Any

from flask import g
from markupsafe import Markup

KEPT_MOST = 4_000_000  # characters of kept parts (a Koi-Koi month of a pile: about 3,000)
_kept: dict[tuple[Hashable, ...], Markup] = {}
_size = 0
_lock = Lock()


def kept(*key: Hashable, caller: Callable[[], str]) -> Markup:
    """The part `caller` makes, made once per page language and `key`."""
    full = (g.lang, *key)
    part = _kept.get(full)
    if part is None:
        part = Markup(caller())
        _keep(full, part)
    return part


def _keep(key: tuple[Hashable, ...], part: Markup) -> None:
    global _size
    with _lock:
        if _size + len(part) > KEPT_MOST:
            _kept.clear()
            _size = 0
        if key not in _kept:
            _kept[key] = part
            _size += len(part)


def forget() -> None:
    """Drop every kept part (tests: a part made fresh must equal the kept one)."""
    global _size
    with _lock:
        _kept.clear()
        _size = 0


def marks(cards: Iterable[Any], selected: Any, highlight: Any) -> tuple[tuple[bool, bool], ...]:
    """Whether each card is ticked and lit: what a month of a card chart shows of a round."""
    return tuple((card.index in selected, card.slug in highlight) for card in cards)

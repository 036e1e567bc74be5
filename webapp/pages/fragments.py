"""Parts of a page made once and kept, for the parts a checker tap renders again and again
unchanged: Koi-Koi's card chart (48 cards per pile, in every answer), its table's fields
and its match's fields, Hanamikoji's setup fields, favour markers and board columns, the
share section (its QR code and links follow the settings alone).

A template wraps such a part in `{% call kept(key...) %}…{% endcall %}`: the key names
everything the part depends on besides the page's language, which `kept` adds (a list in
it counts as the tuple of its items). The copies
are bounded by their size: past KEPT_MOST characters they are all dropped and made again.
"""
from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from threading import Lock
from typing import Any

from flask import g, request
from markupsafe import Markup

KEPT_MOST = 4_000_000  # characters of kept parts (a Koi-Koi month of a pile: about 3,000)
_kept: dict[tuple[Hashable, ...], Markup] = {}
_size = 0
_lock = Lock()


def kept(*key: Hashable, caller: Callable[[], str]) -> Markup:
    """The part `caller` makes, made once per page language and `key`."""
    full = (g.lang, *(tuple(part) if isinstance(part, list) else part for part in key))
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


_urls: dict[tuple[Hashable, ...], str] = {}
URLS_MOST = 4096  # kept rule links (a ruling links a dozen rules)


def kept_rule_url(game: str, state: dict[str, str],
                  rule_url: Callable[[str | None], str]) -> Callable[[str | None], str]:
    """`rule_url` (webapp/pages/rules.py: a rule's link, keeping the page's options),
    remembered across requests: a link depends only on the site's root, the language, the
    game, the options it keeps and the rule."""
    base = (request.script_root, g.lang, game, tuple(sorted(state.items())))

    def url(rule_id: str | None) -> str:
        key = (*base, rule_id)
        found = _urls.get(key)
        if found is None:
            found = rule_url(rule_id)
            with _lock:
                if len(_urls) >= URLS_MOST:
                    _urls.clear()
                _urls[key] = found
        return found

    return url


def forget() -> None:
    """Drop every kept part (tests: a part made fresh must equal the kept one)."""
    global _size
    with _lock:
        _kept.clear()
        _urls.clear()
        _size = 0


def marks(cards: Iterable[Any], selected: Any, highlight: Any) -> tuple[tuple[bool, bool], ...]:
    """Whether each card is ticked and lit: what a month of a card chart shows of a round."""
    return tuple((card.index in selected, card.slug in highlight) for card in cards)

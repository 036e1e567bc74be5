"""A round with nothing wrong in it, read in one pass (the request check's common case).

`RequestCheck.check_round` (request.py) first asks `QuickRound.read`: it gives the round
as the full check would, or None when anything at all is off (a field it does not know,
a value of another type, a card twice, an odd month, a count out of range). The full
check then reads that round field by field and words every problem, so every refusal
still comes from one place, with the same code, pointer, rule and message. This pass only
spares a valid round the per-card, per-month loops: the cards become a bit mask with C
calls (`map`, `sum`), the months' parity is three shifts when the rulebook lays each
month out as four cards in a row, and the look-ups are made once per rulebook.
"""
from __future__ import annotations

from typing import Any

from ..players import PLAYERS
from .model import Rulebook

ROUND_KEYS = frozenset(("winner", "captured", "koikoi", "hand", "field_brights"))
SIDES = frozenset(PLAYERS)
CARD_TYPES = frozenset((int, str))
NO_CALLS = {"a": 0, "b": 0}


class QuickRound:
    """One rulebook's look-ups for reading a valid round quickly (cached on the rulebook)."""

    def __init__(self, rb: Rulebook) -> None:
        # a card by its index or its slug -> its bit (an int key is never a bool or a float:
        # read() lets only int and str through, as the full check does)
        self.bit_of: dict[int | str, int] = {c.index: c.bit for c in rb.cards}
        self.bit_of.update({c.slug: c.bit for c in rb.cards})
        self.hand_size = rb.hand_size
        self.most_brights = min(rb.kind_masks["bright"].bit_count(), rb.field_size)
        self.month_masks = tuple(rb.month_masks.values())
        # months as runs of four cards (bits 4k..4k+3): an odd month shows in `parity` below
        self.nibbles = 0
        if sorted(self.month_masks) == [0xF << 4 * k for k in range(len(self.month_masks))]:
            self.nibbles = sum(1 << 4 * k for k in range(len(self.month_masks)))

    def read(self, rnd: Any, koikoi_limit: int | None) -> dict[str, Any] | None:
        """The round as RequestCheck.check_round gives it, or None: read it in full."""
        if type(rnd) is not dict or not ROUND_KEYS.issuperset(rnd) or "winner" not in rnd:
            return None
        winner = rnd["winner"]
        if winner is not None and winner not in PLAYERS:  # a tuple: any value may be asked
            return None
        captured = rnd.get("captured")
        piles = {"a": 0, "b": 0}
        if "captured" in rnd:
            given = self.sides(captured, None)
            if given is None or not self.even_months(given):
                return None
            piles.update(given)
        hands: dict[str, int] = {}
        if "hand" in rnd:
            given = self.sides(rnd["hand"], self.hand_size)
            if given is None:
                return None
            hands = given
        calls = NO_CALLS
        if "koikoi" in rnd:
            calls = self.calls(rnd["koikoi"], koikoi_limit)
            if calls is None:
                return None
        brights = rnd.get("field_brights")
        if brights is not None and (type(brights) is not int
                                    or not 0 <= brights <= self.most_brights):
            return None
        return {
            "winner": winner,
            "piles": piles,
            # the players whose pile is listed: sides() let only "a" and "b" through
            "listed": frozenset(captured) if captured else frozenset(),
            "hands": hands,
            "calls": dict(calls),
            "field_brights": brights,
        }

    def sides(self, raw: Any, size: int | None) -> dict[str, int] | None:
        """{player: mask} of the players listed, each a list of distinct known cards (of
        `size` cards, if given), no card in both."""
        if type(raw) is not dict or not SIDES.issuperset(raw):
            return None
        bit_of = self.bit_of
        out: dict[str, int] = {}
        seen = 0
        for p in PLAYERS:
            if p not in raw:
                continue
            cards = raw[p]
            if type(cards) is not list or not CARD_TYPES.issuperset(map(type, cards)):
                return None
            try:  # distinct cards: the sum of their bits is their union
                mask = sum(map(bit_of.__getitem__, cards))
            except KeyError:  # not a card
                return None
            if (mask.bit_count() != len(cards) or mask & seen
                    or (size is not None and len(cards) != size)):
                return None
            seen |= mask
            out[p] = mask
        return out

    def even_months(self, piles: dict[str, int]) -> bool:
        """capture.pairs: every month's cards in a pile come two or four at a time."""
        for mask in piles.values():
            if self.nibbles:
                folded = mask ^ (mask >> 1)
                if (folded ^ (folded >> 2)) & self.nibbles:
                    return False
            elif any((mask & month).bit_count() & 1 for month in self.month_masks):
                return False
        return True

    def calls(self, raw: Any, limit: int | None) -> dict[str, int] | None:
        if type(raw) is not dict or not SIDES.issuperset(raw):
            return None
        most = self.hand_size if limit is None else min(limit, self.hand_size)
        for value in raw.values():
            if type(value) is not int or not 0 <= value <= most:
                return None
        return {**NO_CALLS, **raw} if raw else NO_CALLS


def quick_round(rb: Rulebook) -> QuickRound:
    found = rb.cache.get("quick-round")
    if found is None:
        found = rb.cache["quick-round"] = QuickRound(rb)
    return found

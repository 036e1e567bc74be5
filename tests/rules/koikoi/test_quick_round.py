"""The request check's one-pass reading of a valid round (rulebook/koikoi/quick.py) gives
exactly what the full check gives, and only for rounds the full check finds nothing wrong
with: so every refusal still comes from the full check, worded as before."""
from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rulebook.koikoi.model import load_rulebook
from rulebook.koikoi.quick import quick_round
from rulebook.koikoi.request import RequestCheck
from tests.budget import examples

RB = load_rulebook()
QUICK = quick_round(RB)
SLUGS = [card.slug for card in RB.cards]


class FullOnly:
    """Stands in for the quick reading: every round is read by the full check."""

    @staticmethod
    def read(rnd: Any, koikoi_limit: int | None) -> None:
        return None


def full_check(rnd: Any, options: dict[str, Any]) -> tuple[Any, list[dict]]:
    check = RequestCheck(RB, "en")
    check.quick = FullOnly()
    parsed = check.check_round(0, rnd, options)
    return parsed, [p.as_dict() for p in check.problems]


# Cards as a request gives them: mostly valid indexes and slugs, sometimes a value the
# check refuses (out of range, a bool, a float, an unknown name, a list).
cards = st.one_of(
    st.integers(0, 47), st.integers(0, 47), st.integers(0, 47).map(SLUGS.__getitem__),
    st.sampled_from([48, -1, True, False, 1.0, "no-such-card", None, [1]]),
)


def month_pairs(draw_pairs: list[tuple[int, int]]) -> list[int]:
    """Cards taken two at a time from a month (a pile the pairs rule accepts)."""
    return [4 * month + i for month, half in draw_pairs for i in ((0, 1) if half else (2, 3))]


pairs = st.lists(st.tuples(st.integers(0, 11), st.booleans()), max_size=8, unique_by=lambda p: p[0])
piles = st.one_of(pairs.map(month_pairs), pairs.map(month_pairs).map(lambda c: c[:-1]),
                  st.lists(cards, max_size=10), st.sampled_from([None, "ruri", {}, 3]))
players = st.sampled_from(["a", "b", "c", "A", ""])
sides = st.dictionaries(players, piles, max_size=3)
hands = st.one_of(st.dictionaries(players, st.lists(cards, min_size=7, max_size=9), max_size=2),
                  st.sampled_from([[], None]))
calls = st.one_of(st.dictionaries(players, st.one_of(st.integers(-1, 10), st.sampled_from(
    [True, 1.0, None, "1"])), max_size=2), st.sampled_from([[], 0]))
# Rounds the check accepts: each month's pairs to a pile or left, dealt hands of eight.
month_split = st.lists(st.sampled_from(["a", "b", None, None]), min_size=24, max_size=24)
deal = st.permutations(range(48)).map(lambda deck: {"a": deck[:8], "b": deck[8:16]})
valid = st.fixed_dictionaries({
    "winner": st.sampled_from(["a", "b", None]),
    "captured": month_split.map(lambda sides: {p: [4 * (k // 2) + 2 * (k % 2) + i
                                                   for k, side in enumerate(sides) if side == p
                                                   for i in (0, 1)] for p in ("a", "b")}),
}, optional={
    "koikoi": st.dictionaries(st.sampled_from(["a", "b"]), st.integers(0, 8)),
    "hand": st.one_of(deal, deal.map(lambda hands: {"b": hands["b"]})),
    "field_brights": st.one_of(st.none(), st.integers(0, 5)),
})
messy = st.fixed_dictionaries({}, optional={
    "winner": st.sampled_from(["a", "b", None, "c", 1, ["a"], {"a": 1}]),
    "captured": st.one_of(sides, sides, sides, st.sampled_from([[], None])),
    "koikoi": calls,
    "hand": hands,
    "field_brights": st.one_of(st.none(), st.integers(-1, 9), st.sampled_from([1.0, True, "2"])),
    "extra": st.just(1),
})
rounds = st.one_of(valid, valid, messy)
tables = st.fixed_dictionaries({"ruleset": st.sampled_from(sorted(RB.rulesets)),
                                "koikoi_limit": st.sampled_from([None, 0, 1, 3])})


@settings(max_examples=examples(400), deadline=None)
@given(rounds, tables)
def test_quick_round_reads_a_round_as_the_full_check_does(rnd, table):
    options = RB.effective_options(table["ruleset"], {})
    options["koikoi_limit"] = table["koikoi_limit"]
    parsed, problems = full_check(rnd, options)
    quick = QUICK.read(rnd, table["koikoi_limit"])
    if problems:
        assert quick is None, problems
    else:
        assert quick == parsed


def test_quick_round_takes_names_and_indexes_alike():
    rnd = {"winner": "a", "captured": {"a": [0, 1, SLUGS[2], "pine-plain-2"], "b": []},
           "koikoi": {"b": 1}, "field_brights": 0}
    options = RB.effective_options(RB.default_ruleset, {})
    assert QUICK.read(rnd, None) == full_check(rnd, options)[0]
    assert QUICK.read(rnd, None)["piles"]["a"] == 0xF

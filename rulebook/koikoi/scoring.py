"""Pure scoring: which yaku a pile (or a dealt hand) holds, and the round multipliers.

A `Scorer` is compiled once per (rulebook, ruleset, options) and cached on the rulebook;
scoring a pile is then a handful of integer operations on bit masks. A pile is scored for
the month of its round (Cards of the Month); without a month that yaku cannot be judged.
"""
from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations
from typing import Any, NamedTuple

from .model import Rulebook, Yaku, load_rulebook

# Why a complete yaku does not score.
DROPPED_BEST = "best-in-group"
DROPPED_SPOILED = "viewing-spoiled"
DROPPED_ALONE = "viewing-alone"


class Scored(NamedTuple):
    yaku: Yaku
    points: int
    cards: int  # mask of the pile's cards that make the yaku


class Dropped(NamedTuple):
    """A complete yaku that does not score, and why."""
    yaku: Yaku
    why: str  # DROPPED_*
    option: str | None = None  # DROPPED_SPOILED: the option whose card spoils it
    cards: int = 0  # DROPPED_SPOILED: the spoiling cards in the pile


class PileScore(NamedTuple):
    scored: tuple[Scored, ...]  # the yaku that score, in rulebook order
    dropped: tuple[Dropped, ...]  # complete yaku that do not score, with the reason
    # complete yaku whose value the ruleset does not document: the pile cannot be scored
    unknown: tuple[Yaku, ...] = ()

    @property
    def base(self) -> int:
        return sum(s.points for s in self.scored)

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(s.yaku.id for s in self.scored)


NO_YAKU = PileScore((), ())


class Multiplier(NamedTuple):
    reason: str
    factor: int
    rule: str
    calls: int = 0


class _Compiled(NamedTuple):
    """One yaku, ready to match against one kind-mask variant."""
    yaku: Yaku
    index: int
    points: int | None  # None: the ruleset does not document its value
    count_mask: int  # cards that count towards count_min
    extra_mask: int  # cards that add +1 beyond `need` (0: no extra points)
    need: int
    show_mask: int  # the cards to list as making the yaku


class Scorer:
    def __init__(self, rb: Rulebook, ruleset: str, options: dict[str, Any]):
        self.rb = rb
        self.viewings = options["viewings"]
        # The options switched on whose cards spoil the viewings.
        self.spoilers = tuple(
            (spec.id, spec.spoils) for spec in rb.options.values() if spec.spoils and options[spec.id]
        )
        self.spoil_mask = 0
        for _, cards in self.spoilers:
            self.spoil_mask |= cards
        active: list[tuple[Yaku, int | None, bool]] = []
        for y in rb.yaku:
            value = rb.table_value(ruleset, y.id)
            if value is None or rb.yaku_off(y, options):
                continue
            active.append((y, value.points, rb.earns_extra(y.id, value, options)))
        self.uses_month = any(y.match == "round_month" for y, _, _ in active)
        self.variants = [
            self._compile(active, masks) for masks in self._kind_variants(options["sake_cup_as_plain"])
        ]
        self.month_masks = rb.month_masks
        self.variant_tests = [self._tests(compiled) for compiled in self.variants]
        # Per group: the combinations of yaku allowed to score together, best first tried.
        stacks = rb.stacks_at(ruleset, options)
        self.groups: list[tuple[str, tuple[int, ...], tuple[frozenset[int], ...] | None]] = []
        for group, stacking in rb.groups.items():
            members = tuple(i for i, (y, _, _) in enumerate(active) if y.group == group)
            if not members:
                continue
            if stacking == "all":
                self.groups.append((group, members, None))
                continue
            combos = []
            for size in range(len(members), 0, -1):
                for combo in combinations(members, size):
                    ids = [active[i][0].id for i in combo]
                    if all(_union(stacks, p)
                           for p in combinations(ids, 2)):
                        combos.append(frozenset(combo))
            self.groups.append((group, members, tuple(combos)))
        # Each yaku's group, by its place in `groups`; -1: a group whose yaku all score.
        # (_resolve looks up only the yaku a pile holds instead of walking every group.)
        self.group_at = {i: (-1 if combos is None else g)
                         for g, (_, members, combos) in enumerate(self.groups) for i in members}
        self.hand_ids = frozenset(i for i, (y, _, _) in enumerate(active) if y.hand)

    def _kind_variants(self, sake: Any) -> list[dict[str, int]]:
        base = dict(self.rb.kind_masks)
        dual = self.rb.dual_masks
        if sake is False:
            return [base]
        both = {k: base[k] | dual[k] for k in base}
        if sake is True:
            return [both]
        # "choose": each dual card counts as its own kind or as its dual kind.
        swapped = {k: base[k] | dual[k] for k in base}
        moved = 0
        for k in base:
            moved |= dual[k]
        for c in self.rb.cards:
            if c.dual_kind and (moved >> c.index) & 1:
                swapped[c.kind] &= ~c.bit
        return [base, swapped]

    @staticmethod
    def _compile(active: list[tuple[Yaku, int | None, bool]], masks: dict[str, int]) -> list[_Compiled]:
        out = []
        for i, (y, points, extra) in enumerate(active):
            extra_mask = masks[y.extra] if (extra and y.extra) else 0
            if y.match == "cards":
                count_mask, need, show = 0, (y.cards & extra_mask).bit_count(), y.cards
            elif y.match == "count":
                count_mask = masks[y.count_kind] & ~y.excluding
                need = y.count_min if y.extra == y.count_kind else 0
                show = count_mask | y.requires
            else:
                count_mask, need, show = 0, 0, 0
            if extra_mask and y.match == "cards":
                show |= extra_mask
            out.append(_Compiled(y, i, points, count_mask, extra_mask, need, show))
        return out

    # -- piles -------------------------------------------------------------------------
    def score_pile(self, pile: int, month: int | None = None) -> PileScore:
        """The yaku of a pile captured in a round of `month` (None: Cards of the Month unknown)."""
        if len(self.variant_tests) == 1:  # most tables: no card counts as two kinds
            return self._score_variant(pile, self.variant_tests[0], month)
        best: PileScore | None = None
        for tests in self.variant_tests:
            result = self._score_variant(pile, tests, month)
            if best is None or result.base > best.base:
                best = result
        assert best is not None
        return best

    def could_call(self, pile: int, month: int | None = None) -> bool:
        """koikoi.call-time: whether the pile holds a yaku, or held one before a spoiler came."""
        score = self.score_pile(pile, month)
        if score.scored or score.unknown:
            return True
        if not pile & self.spoil_mask:
            return False
        before = self.score_pile(pile & ~self.spoil_mask, month)
        return bool(before.scored or before.unknown)

    def best_base(self, pile: int, month: int | None = None) -> int:
        """The most a pile can have been worth when a call was made (koikoi.minimum): its
        base score now, or before the cards that spoil the viewings came."""
        base = self.score_pile(pile, month).base
        if pile & self.spoil_mask:
            base = max(base, self.score_pile(pile & ~self.spoil_mask, month).base)
        return base

    @staticmethod
    def _tests(compiled: list[_Compiled]) -> tuple[tuple[_Compiled, int, int, int], ...]:
        """What holding each yaku asks of a pile, as plain numbers: (yaku, the cards it
        needs, the cards it counts, how many of them at least). A yaku of the round's month
        asks nothing here (_score_variant tests it); a hand yaku is no pile's (score_hand)."""
        out = []
        for c in compiled:
            y = c.yaku
            if y.match == "cards":
                out.append((c, y.cards, 0, 0))
            elif y.match == "count":
                out.append((c, y.requires, c.count_mask, y.count_min))
            elif y.match == "round_month":
                out.append((c, 0, 0, 0))
        return tuple(out)

    def _score_variant(self, pile: int, tests: tuple[tuple[_Compiled, int, int, int], ...],
                       month: int | None) -> PileScore:
        # The hot path: a test of plain numbers per yaku (most piles pass none; a month's
        # yaku always passes it and is tested below).
        matched: dict[int, Scored] = {}
        dropped: list[Dropped] = []
        unknown: list[Yaku] = []
        for c, needed, counted, least in tests:
            if pile & needed != needed or (least and (pile & counted).bit_count() < least):
                continue
            y = c.yaku
            if y.match == "round_month":
                if month is None:
                    continue
                show = self.month_masks[month]
                if pile & show != show:
                    continue
            else:
                show = c.show_mask
            if c.points is None:
                unknown.append(y)
                continue
            if y.viewing and pile & self.spoil_mask:
                option, cards = next((o, m) for o, m in self.spoilers if pile & m)
                dropped.append(Dropped(y, DROPPED_SPOILED, option, pile & cards))
                continue
            points = c.points
            if c.extra_mask:
                points += max(0, (pile & c.extra_mask).bit_count() - c.need)
            matched[c.index] = Scored(y, points, pile & show)
        if not (matched or dropped or unknown):
            return NO_YAKU  # most piles: one shared value (it is immutable)
        # a lone yaku has nothing to be chosen against (most piles that score hold one)
        scored = self._resolve(matched, dropped) if len(matched) > 1 else list(matched.values())
        if self.viewings == "with_other" and not any(not s.yaku.viewing for s in scored):
            dropped.extend(Dropped(s.yaku, DROPPED_ALONE) for s in scored if s.yaku.viewing)
            scored = [s for s in scored if not s.yaku.viewing]
        return PileScore(tuple(scored), tuple(dropped), tuple(unknown))

    def _resolve(self, matched: dict[int, Scored], dropped: list[Dropped]) -> list[Scored]:
        """The matched yaku that score together (`matched` in rulebook order): all of a
        group that stacks them all, the best allowed combination of the others' (the rest
        of those dropped, group by group, in rulebook order)."""
        chosen: list[int] = []
        contested: dict[int, list[int]] = {}  # a group's place in `groups` -> its yaku held
        for i in matched:
            g = self.group_at[i]  # every yaku has a group (the rulebook's load checks)
            if g < 0:
                chosen.append(i)
            else:
                contested.setdefault(g, []).append(i)
        for g in sorted(contested):
            present = contested[g]
            if len(present) == 1:
                chosen.extend(present)
                continue
            combos = self.groups[g][2]
            assert combos is not None
            have = frozenset(present)
            best_combo, best_points = None, -1
            for combo in combos:
                if combo <= have:
                    points = sum(matched[i].points for i in combo)
                    if points > best_points:
                        best_combo, best_points = combo, points
            assert best_combo is not None
            chosen.extend(best_combo)
            dropped.extend(Dropped(matched[i].yaku, DROPPED_BEST) for i in present if i not in best_combo)
        return [matched[i] for i in sorted(chosen)]

    # -- dealt hands -------------------------------------------------------------------
    def score_hand(self, hand: int) -> PileScore:
        if not self.hand_ids or not hand:
            return NO_YAKU
        counts = [(hand & m).bit_count() for m in self.rb.month_masks.values()]
        pairs = sum(n // 2 for n in counts)
        top = max(counts)
        matched: dict[int, Scored] = {}
        unknown: list[Yaku] = []
        for c in self.variants[0]:
            y = c.yaku
            if not y.hand:
                continue
            if y.hand_month_count and top < y.hand_month_count:
                continue
            if y.hand_pairs and pairs < y.hand_pairs:
                continue
            if c.points is None:
                unknown.append(y)
                continue
            matched[c.index] = Scored(y, c.points, hand)
        dropped: list[Dropped] = []
        return PileScore(tuple(self._resolve(matched, dropped)), tuple(dropped), tuple(unknown))


def _union(stacks: Iterable[frozenset[str]], pair: tuple[str, str]) -> frozenset[str]:
    """The stack declaration containing both ids of `pair`, if any (else empty)."""
    for s in stacks:
        if pair[0] in s and pair[1] in s:
            return s
    return frozenset()


def scorer_for(rb: Rulebook, ruleset: str, options: dict[str, Any]) -> Scorer:
    key = (ruleset, *map(options.__getitem__, rb.scorer_options))  # once per request: C calls
    found = rb.cache.get(key)
    if found is None:
        found = rb.cache[key] = Scorer(rb, ruleset, options)
    return found


def ruleset_scorer(rb: Rulebook, ruleset: str) -> Scorer:
    """The scorer of a ruleset as it comes, no table option chosen (most requests)."""
    found = rb.cache.get(("scorer", ruleset))
    if found is None:
        found = rb.cache[("scorer", ruleset)] = scorer_for(rb, ruleset, rb.effective_options(ruleset))
    return found


# Multiplier reasons, by whose koi-koi calls a mode counts (scoring.koikoi_modes).
KOIKOI_REASONS = {"opponent": "opponent-koikoi", "winner": "winner-koikoi", "both": "any-koikoi"}


def multipliers(
    rb: Rulebook, options: dict[str, Any], base: int, winner_calls: int, opponent_calls: int,
    field_brights: int | None = None,
) -> tuple[list[Multiplier], int, bool]:
    """The multipliers of a won round, the effective total factor, and whether it was capped.
    `field_brights`: the brights dealt to the field (None: a hand yaku's win, never
    multiplied by the field)."""
    out: list[Multiplier] = []
    if options["seven_point_double"] and base >= rb.seven_threshold:
        out.append(Multiplier("seven-points", rb.seven_factor, rb.seven_rule))
    mode = rb.koikoi_modes[options["koikoi_multiplier"]]
    calls = {"opponent": opponent_calls, "winner": winner_calls,
             "both": winner_calls + opponent_calls, "none": 0}[mode.calls]
    if calls and mode.by == "per_call":
        # scoring.koikoi-calls: x(1 + step * calls).
        out.append(Multiplier("koikoi-calls", 1 + rb.koikoi_call_step * calls, mode.rule, calls))
    elif calls:
        out.append(Multiplier(KOIKOI_REASONS[mode.calls], rb.koikoi_factor, mode.rule, calls))
    field = rb.field_modes[options["field_multiplier"]]
    if field.counts and field_brights is not None and field.factor(field_brights) != 1:
        out.append(Multiplier("field-brights", field.factor(field_brights), field.rule,
                              field_brights))
    total = 1
    for m in out:
        total *= m.factor
    cap = options["double_cap"]
    if cap is not None and total > cap:
        return out, cap, True
    return out, total, False


def to_mask(cards: Iterable[int | str], rb: Rulebook | None = None) -> int:
    """A bit mask from card indexes or slugs (no validation: use the referee for that)."""
    rb = rb or load_rulebook()
    mask = 0
    for card in cards:
        mask |= 1 << (card if isinstance(card, int) else rb.card_by_slug[card])
    return mask


def score_pile(
    cards: Iterable[int | str],
    ruleset: str | None = None,
    options: dict[str, Any] | None = None,
    rulebook: Rulebook | None = None,
    round_number: int | None = None,
) -> PileScore:
    """The yaku a captured pile scores under a ruleset and table options, in a round if given."""
    rb = rulebook or load_rulebook()
    rid = ruleset or rb.default_ruleset
    month = rb.round_month(round_number) if round_number else None
    scorer = scorer_for(rb, rid, rb.effective_options(rid, options))
    return scorer.score_pile(to_mask(cards, rb), month)

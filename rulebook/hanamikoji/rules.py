"""The Hanamikoji rules as functions: who starts, where markers go, what a standing means.

Pure and language-free: everything here reads the rulebook and returns values; the
sentences that explain them are in `explain.py`, the reading of requests in `request.py`.
"""
from __future__ import annotations

from typing import Any, NamedTuple

from ..outcomes import Status
from ..players import OTHER, PLAYERS
from .model import Rulebook


class Config(NamedTuple):
    """The reading in force: an edition plus the variants."""

    edition: str
    round_limit: bool  # in force (the table's choice, or else the edition's own rule)
    clash_winner: str  # "charm" (official) or "geishas"
    limit_chosen: bool = False  # the table set `round_limit` (else it follows the edition)

    @property
    def variants(self) -> dict[str, Any]:
        return {"round_limit": self.round_limit, "simultaneous_goal": self.clash_winner}


class Standing(NamedTuple):
    """Where a round leaves the markers: what every reading decides from."""

    round: int
    favor: list[str | None]
    geishas: dict[str, int]
    charm: dict[str, int]
    rb: Rulebook

    @property
    def values(self) -> dict[str, list[int]]:
        """Each player's geisha charm values, highest first (the highest-geisha tie-break)."""
        out: dict[str, list[int]] = {"a": [], "b": []}
        for geisha, holder in zip(self.rb.geishas, self.favor):
            if holder is not None:
                out[holder].append(geisha.charm)
        return {p: sorted(v, reverse=True) for p, v in out.items()}


Step = tuple[str, "str | None", dict[str, Any]]  # (explanation key, rule id, values)


class Decision(NamedTuple):
    status: Status
    winner: str | None
    reason: str | None
    rules: tuple[str, ...]
    steps: tuple[Step, ...]
    inferred: bool = False  # decided by a tie-break chain no source prints (basis: inferred)


def first_player(rb: Rulebook, round_number: int) -> str:
    """Who starts a round: the first player in round 1, then the other one in turn
    (refresh.switch-start: whoever went second starts the next round)."""
    return rb.first_player if round_number % 2 == 1 else OTHER[rb.first_player]


def turn_order(rb: Rulebook, round_number: int, count: int) -> list[str]:
    """Who takes each of a round's first `count` actions: the players alternate from the
    round's first player (turn.alternate)."""
    first = first_player(rb, round_number)
    return [first if k % 2 == 0 else OTHER[first] for k in range(count)]


def supply(rb: Rulebook, counts: dict[str, list[int]], removed: int | None = None) -> list[int]:
    """Per geisha: her item cards not on the table (nor put aside, when that card is known)."""
    return [g.cards - counts["a"][i] - counts["b"][i] - (rb.removed if removed == i else 0)
            for i, g in enumerate(rb.geishas)]


def count(rb: Rulebook, round_no: int, favor: list[str | None]) -> Standing:
    geishas = {"a": 0, "b": 0}
    charm = {"a": 0, "b": 0}
    for geisha, holder in zip(rb.geishas, favor):
        if holder is not None:
            geishas[holder] += 1
            charm[holder] += geisha.charm
    return Standing(round_no, favor, geishas, charm, rb)


def standing(rb: Rulebook, round_no: int, favor_before: list[str | None],
             board: dict[str, list[int]]) -> Standing:
    """The majority of each geisha takes her marker; a tie (or no cards) leaves it."""
    favor = list(favor_before)
    for i, (a, b) in enumerate(zip(board["a"], board["b"])):
        if a != b:
            favor[i] = "a" if a > b else "b"
    return count(rb, round_no, favor)


def decide(rb: Rulebook, s: Standing, config: Config) -> Decision:
    """What the standing after a round means under a reading."""
    reached = {p: (s.geishas[p] >= rb.goal_geishas, s.charm[p] >= rb.goal_charm) for p in PLAYERS}
    goal_players = [p for p in PLAYERS if any(reached[p])]
    if len(goal_players) == 2:
        return clash(rb, reached, config)
    if goal_players:
        winner = goal_players[0]
        by_charm = reached[winner][1]
        rule = "victory.charm" if by_charm else "victory.geishas"
        key = "goal.charm" if by_charm else "goal.geishas"
        return Decision(Status.WIN, winner, "charm" if by_charm else "geishas", (rule,),
                        ((key, rule, {"winner": winner}),))
    if config.round_limit and s.round >= rb.round_limit:
        return tiebreak(rb, s, config)
    return Decision(Status.CONTINUE, None, None, ("victory.immediate",),
                    (("goal.none", "victory.immediate", {}),))


def clash(rb: Rulebook, reached: dict[str, tuple[bool, bool]], config: Config) -> Decision:
    """One player reached the geisha goal and the other the charm goal in the same round."""
    wanted = 1 if config.clash_winner == "charm" else 0
    winners = [p for p in PLAYERS if reached[p][wanted]]
    rule = "victory.clash" if config.clash_winner == rb.clash_winner else "variant.simultaneous-goal"
    if len(winners) == 1:
        winner = winners[0]
        reason = "clash_charm" if wanted else "clash_geishas"
        key = "goal.clash-charm" if wanted else "goal.clash-geishas"
        return Decision(Status.WIN, winner, reason, (rule,), ((key, rule, {"winner": winner}),))
    return Decision(Status.SHARED, None, "limit_shared", (rule,), (("tiebreak.shared", rule, {}),))


def tiebreak(rb: Rulebook, s: Standing, config: Config) -> Decision:
    """The edition's rule for a game that ends after the last round without a goal."""
    edition = rb.editions[config.edition]
    limit = edition.round_limit
    edition_rule = f"edition.{edition.id}"
    if limit.status == "none":  # a house rule: nothing printed decides it
        return Decision(Status.UNDECIDED, None, "limit_house", ("variant.round-limit", edition_rule),
                        (("limit.house", "variant.round-limit", {}),))
    steps: list[Step] = [(f"limit.{limit.status}", "variant.round-limit", {})]
    rules = ["variant.round-limit"]
    inferred = limit.sourced.inferred
    if inferred:
        steps.append(("limit.inferred", edition_rule, {}))
        rules.append(edition_rule)
    measures = {"most_charm": s.charm, "highest_geisha": s.values}
    for step in limit.tiebreak:
        rule = rb.tiebreak_rules[step]
        rules.append(rule)
        if step == "shared":
            steps.append(("tiebreak.shared", rule, {}))
            return Decision(Status.SHARED, None, "limit_shared", tuple(rules), tuple(steps), inferred)
        if step == "unknown":
            steps.append(("tiebreak.unknown", rule, {}))
            return Decision(Status.UNDECIDED, None, "limit_unknown", tuple(rules), tuple(steps))
        a, b = measures[step]["a"], measures[step]["b"]
        if a == b:
            steps.append((f"tiebreak.{step}.level", rule, {"step": step}))
            continue
        winner = "a" if a > b else "b"
        steps.append((f"tiebreak.{step}.win", rule, {"step": step, "winner": winner}))
        return Decision(Status.WIN, winner, f"limit_{step}", tuple(rules), tuple(steps), inferred)
    # A chain that ends without a verdict is left open rather than invented.
    return Decision(Status.UNDECIDED, None, "limit_unknown", tuple(rules), tuple(steps))


def play_out(rb: Rulebook, standings: list[Standing], config: Config) -> tuple[Decision, int]:
    """The first decisive round under a reading (its index), or the last round's decision."""
    for i, s in enumerate(standings):
        decision = decide(rb, s, config)
        if decision.status != "continue":
            return decision, i
    return decision, len(standings) - 1


# -- other readings of the same rounds ------------------------------------------------------
class Reading(NamedTuple):
    config: Config
    label: str  # explanation key naming the reading
    edition: str | None = None  # set for "another edition"


class Alternative(NamedTuple):
    reading: Reading
    decision: Decision
    round: int  # the round it would be decided in


def readings(rb: Rulebook, config: Config) -> tuple[Reading, ...]:
    """Other readings worth comparing: every other edition, and each variant flipped."""
    found = rb.cache.get(("readings", config))
    if found is None:
        found = rb.cache[("readings", config)] = tuple(_readings(rb, config))
    return found


def _readings(rb: Rulebook, config: Config) -> list[Reading]:
    out = []
    for key in rb.editions:
        if key != config.edition:
            # another edition with the table's limit choice, or else that edition's own rule
            limit = config.round_limit if config.limit_chosen else rb.round_limit_default(key)
            out.append(Reading(Config(key, limit, config.clash_winner, config.limit_chosen),
                               "reading.edition", key))
    flipped = "geishas" if config.clash_winner == "charm" else "charm"
    out.append(Reading(config._replace(clash_winner=flipped), f"reading.clash-{flipped}"))
    out.append(Reading(config._replace(round_limit=not config.round_limit, limit_chosen=True),
                       "reading.limit-off" if config.round_limit else "reading.limit-on"))
    return out


def alternatives(rb: Rulebook, config: Config, standings: list[Standing],
                 chosen: Decision) -> list[Alternative]:
    """Where another edition or variant would have ruled differently on the same rounds."""
    last_round = standings[-1].round
    # A reading can only differ where a clash happened or the round limit was reached, and
    # editions differ only in their round-limit rule: compute each distinct reading once.
    clash_seen = any(
        sum(1 for p in PLAYERS if s.geishas[p] >= rb.goal_geishas or s.charm[p] >= rb.goal_charm) == 2
        for s in standings)
    limit_seen = last_round >= rb.round_limit
    if not clash_seen and not limit_seen:
        return []

    def reading_key(c: Config) -> tuple:
        limit = c.round_limit and limit_seen
        rule = rb.editions[c.edition].round_limit
        return (c.clash_winner if clash_seen else None, limit,
                (rule.status == "none", rule.tiebreak, rule.sourced.inferred) if limit else None)

    seen: dict[tuple, tuple[Decision, int]] = {reading_key(config): (chosen, len(standings) - 1)}
    out = []
    for reading in readings(rb, config):
        key = reading_key(reading.config)
        if key not in seen:
            seen[key] = play_out(rb, standings, reading.config)
        decision, index = seen[key]
        decided_round = standings[index].round
        same = (decision.status, decision.winner) == (chosen.status, chosen.winner)
        if (same and decided_round == last_round) or (
                decision.status == chosen.status == "undecided"):
            continue
        out.append(Alternative(reading, decision, decided_round))
    return out

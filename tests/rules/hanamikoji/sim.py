"""A small simulator of real Hanamikoji rounds, independent of the referee.

It plays random but legal rounds the way a table does: shuffle the 21 item cards, put
one aside unseen, deal 6 to each player, then 8 turns alternating from the round's
first player. On each turn the player draws one card, picks one of their unused
actions at random, and offers random cards from their hand; the opponent chooses at
random. The result is the action-log ROUND of a referee request, plus the board it
implies, computed here from the game's own rules (not by the referee):

- secret: the card counts for its owner;
- tradeoff: the cards are out of the round;
- gift: the taken card goes to the opponent, the other two to the offerer;
- competition: the taken set goes to the opponent, the other set to the offerer.

Everything is deterministic given a `random.Random`.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

# Table order and the number of item cards of each geisha (= her charm value).
GEISHAS = ("ayane", "iroha", "tomoyo", "yoko", "chiharu", "anju", "ruri")
CARDS = {"ayane": 2, "iroha": 2, "tomoyo": 2, "yoko": 3, "chiharu": 3, "anju": 4, "ruri": 5}
CHARM = dict(CARDS)
ACTIONS = ("secret", "tradeoff", "gift", "competition")
ACTION_CARDS = {"secret": 1, "tradeoff": 2, "gift": 3, "competition": 4}
PLAYERS = ("a", "b")
OTHER = {"a": "b", "b": "a"}
HAND = 6
REMOVED = 1
DRAW_PILE = 21 - REMOVED - 2 * HAND  # 8
TURNS = 2 * len(ACTIONS)  # 8


def deck() -> list[str]:
    return [g for g in GEISHAS for _ in range(CARDS[g])]


@dataclass
class SimRound:
    first: str
    removed: str
    hands: dict[str, list[str]]  # the dealt hands, before any draw
    pile: list[str]  # the draw pile, top first
    actions: list[dict[str, Any]] = field(default_factory=list)
    board: dict[str, list[int]] = field(default_factory=dict)

    def round(self, with_removed: bool = False, upto: int | None = None) -> dict[str, Any]:
        """The ROUND dict of a request in action-log mode (a prefix with `upto`)."""
        actions = [dict(a, cards=[list(c) if isinstance(c, list) else c for c in a["cards"]])
                   for a in self.actions[:upto]]
        out: dict[str, Any] = {"actions": actions}
        if with_removed:
            out["removed"] = self.removed
        return out

    def board_round(self, with_removed: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {"board": {p: list(self.board[p]) for p in PLAYERS}}
        if with_removed:
            out["removed"] = self.removed
        return out


def board_of(actions: list[dict[str, Any]]) -> dict[str, list[int]]:
    """The scored cards on each side after a complete log, by the rules alone."""
    side = {p: dict.fromkeys(GEISHAS, 0) for p in PLAYERS}
    for act in actions:
        player, kind, cards = act["player"], act["action"], act["cards"]
        opponent = OTHER[player]
        if kind == "secret":
            side[player][cards[0]] += 1
        elif kind == "tradeoff":
            pass
        elif kind == "gift":
            rest = list(cards)
            rest.remove(act["taken"])
            side[opponent][act["taken"]] += 1
            for c in rest:
                side[player][c] += 1
        elif kind == "competition":
            for i, group in enumerate(cards):
                for c in group:
                    side[opponent if i == act["taken"] else player][c] += 1
        else:  # pragma: no cover - the simulator only plays known actions
            raise ValueError(kind)
    return {p: [side[p][g] for g in GEISHAS] for p in PLAYERS}


def simulate_round(rng: random.Random, first: str = "a") -> SimRound:
    """One complete, legal round started by `first`."""
    cards = deck()
    rng.shuffle(cards)
    removed = cards.pop()
    hands = {first: cards[:HAND], OTHER[first]: cards[HAND:2 * HAND]}
    pile = cards[2 * HAND:]
    assert len(pile) == DRAW_PILE
    sim = SimRound(first, removed, {p: list(h) for p, h in hands.items()}, list(pile))
    left = {p: list(ACTIONS) for p in PLAYERS}
    player = first
    for _ in range(TURNS):
        hand = hands[player]
        hand.append(pile.pop(0))
        kind = rng.choice(left[player])
        left[player].remove(kind)
        n = ACTION_CARDS[kind]
        assert len(hand) >= n, "the card arithmetic always leaves enough cards"
        chosen = rng.sample(hand, n)
        for c in chosen:
            hand.remove(c)
        act: dict[str, Any] = {"player": player, "action": kind}
        if kind == "competition":
            act["cards"] = [chosen[:2], chosen[2:]]
            act["taken"] = rng.randrange(2)
        else:
            act["cards"] = chosen
            if kind == "gift":
                act["taken"] = rng.choice(chosen)
        sim.actions.append(act)
        player = OTHER[player]
    assert not pile and not hands["a"] and not hands["b"]
    sim.board = board_of(sim.actions)
    assert all(sum(sim.board[p]) == 8 for p in PLAYERS)
    return sim


def first_player(round_no: int) -> str:
    """Player a starts round 1; the starting player alternates."""
    return "a" if round_no % 2 == 1 else "b"


def favor_after(favor: list[str | None], board: dict[str, list[int]]) -> list[str | None]:
    """Markers after scoring a board: majority takes, a tie leaves the marker."""
    out = list(favor)
    for i in range(len(GEISHAS)):
        a, b = board["a"][i], board["b"][i]
        if a != b:
            out[i] = "a" if a > b else "b"
    return out


def totals(favor: list[str | None]) -> dict[str, tuple[int, int]]:
    """(geishas, charm) per player."""
    return {p: (sum(1 for h in favor if h == p),
                sum(CHARM[g] for g, h in zip(GEISHAS, favor) if h == p)) for p in PLAYERS}


def request(rounds: list[dict[str, Any]], *, start_round: int = 1,
            favor: list[str | None] | None = None, **extra: Any) -> dict[str, Any]:
    req: dict[str, Any] = {"game": "hanamikoji", "rounds": rounds}
    if start_round != 1 or favor is not None:
        req["start"] = {"round": start_round, "favor": favor or [None] * len(GEISHAS)}
    req.update(extra)
    return req

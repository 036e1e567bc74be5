"""The Hanamikoji referee: a request in, the ruling (or every problem) out.

`referee(request, lang)` takes the request document (schemas/request.schema.json) and
returns the response document (schemas/response.schema.json). It never raises on bad
input. Reading is in `request.py`, the rules in `rules.py`, the sentences in `explain.py`;
this module plays the rounds in order and assembles the answer.
"""
from __future__ import annotations

from typing import Any

from ..memo import Memo
from ..outcomes import Status
from ..players import OTHER
from .explain import REASONS, Explainer
from .model import Rulebook, load_rulebook
from .request import Reader, RoundInput, Start
from .rules import (
    Config,
    Decision,
    Standing,
    alternatives,
    count,
    decide,
    first_player,
    standing,
)

# Round explanations kept per rulebook (about 2 KB each): a checker tap sends every round
# of the game again, and the same boards come back.
EXPLANATIONS_KEPT = 4096
IN_PROGRESS = Decision("in_progress", None, None, ("turn.alternate",), ())


class Match:
    """The rounds played so far: their entries in the response, and what they decided."""

    __slots__ = ("decision", "favor", "in_progress", "rounds", "standings")

    def __init__(self, favor: list[str | None]) -> None:
        self.favor = favor
        self.rounds: list[dict[str, Any]] = []
        self.standings: list[Standing] = []
        self.decision: Decision | None = None  # the last scored round's, under the chosen reading
        self.in_progress = False


def referee(request: Any, lang: str = "en", rulebook: Rulebook | None = None) -> dict[str, Any]:
    """Validate and score a Hanamikoji request; the response document (never raises)."""
    rb = rulebook or load_rulebook()
    reader = Reader(rb, lang)
    read = reader.read_request(request)
    if read is None:
        return invalid(reader)
    config, start, rounds = read
    check_start(rb, reader, config, start)
    explainer = Explainer(rb, lang, reader.names, config.edition)
    match = play(rb, reader, explainer, config, start, rounds)
    if reader.problems:
        return invalid(reader)
    return response(rb, reader, explainer, config, match)


def check_start(rb: Rulebook, reader: Reader, config: Config, start: Start) -> None:
    """Markers that already meet a goal before the first listed round: nothing follows."""
    if start.round > 1 and any(start.favor):
        early = decide(rb, count(rb, start.round - 1, start.favor),
                       Config(config.edition, False, config.clash_winner))
        if early.status == "win":
            reader.error("start.already-won", "/start/favor", "victory.immediate",
                         player=reader.names[early.winner],
                         goal=reader.t.gettext(REASONS[early.reason]))


def play(rb: Rulebook, reader: Reader, explainer: Explainer, config: Config, start: Start,
         rounds: list[Any]) -> Match:
    """Each round in order, until the game ends, a round is still in progress, or the list does."""
    match = Match(start.favor)
    for k, raw in enumerate(rounds):
        path, number = f"/rounds/{k}", start.round + k
        if match.decision is not None and match.decision.status != "continue":
            ended = match.rounds[-1]["round"]
            reader.after_end(path, ended, match.decision.status, match.decision.winner, config)
            break
        if config.round_limit and number > rb.round_limit:
            reader.past_limit(path, config)
            break
        rnd = reader.read_round(raw, path, number, first_player(rb, number),
                                is_last=k == len(rounds) - 1)
        if rnd is None:
            continue
        entry = round_entry(rb, rnd, match.favor)
        if rnd.progress is not None:
            s = count(rb, number, match.favor)
            entry.update(favor=match.favor, geishas=s.geishas, charm=s.charm,
                         outcome={"status": Status.IN_PROGRESS, "winner": None, "reason": None},
                         progress=rnd.progress, explanation=explainer.progress(rnd.progress))
            match.rounds.append(entry)
            match.in_progress = True
            break
        s = standing(rb, number, match.favor, rnd.board)
        match.standings.append(s)
        match.decision = decide(rb, s, config)
        entry.update(favor=s.favor, geishas=s.geishas, charm=s.charm,
                     outcome={"status": match.decision.status, "winner": match.decision.winner,
                              "reason": match.decision.reason},
                     explanation=explain_round(explainer, config, rnd, match.favor, s,
                                               match.decision))
        match.rounds.append(entry)
        match.favor = s.favor
    return match


def round_entry(rb: Rulebook, rnd: RoundInput, favor_before: list[str | None]) -> dict[str, Any]:
    entry: dict[str, Any] = {"round": rnd.number, "first_player": rnd.first, "mode": rnd.mode,
                             "board": rnd.board, "favor_before": favor_before}
    if rnd.removed is not None:
        entry["removed"] = rb.geishas[rnd.removed].id
    if rnd.movers is not None:
        entry["movers"] = rnd.movers
    return entry


def explain_round(explainer: Explainer, config: Config, rnd: RoundInput,
                  favor_before: list[str | None], s: Standing,
                  decision: Decision) -> list[dict[str, Any]]:
    """The round's sentences: made once for the same inputs (the language, the names, the
    reading, the round and its board, the markers before it: the standing and the decision
    follow from those), then kept on the rulebook."""
    kept = explainer.rb.cache.get("round-explanations")
    if kept is None:
        kept = explainer.rb.cache["round-explanations"] = Memo(EXPLANATIONS_KEPT)
    names = explainer.names
    key = (explainer.lang, tuple(names.said.values()), tuple(names.labels.values()), config,
           rnd.number, rnd.first, rnd.removed, rnd.inferred_removed, tuple(favor_before),
           tuple(rnd.board["a"]), tuple(rnd.board["b"]))

    def make() -> tuple[tuple[str | None, str], ...]:
        out = [explainer.removed_inferred(rnd.removed)] if rnd.inferred_removed else []
        out += explainer.markers(favor_before, rnd.board)
        out += explainer.totals(s)
        out += explainer.decision(decision, s)
        if decision.status == "continue":
            out.append(explainer.next_start(rnd.first, rnd.number))
        return tuple((step["rule"], step["message"]) for step in out)

    return [{"rule": rule, "message": message}
            for rule, message in kept.get(key, make)]


def response(rb: Rulebook, reader: Reader, explainer: Explainer, config: Config,
             match: Match) -> dict[str, Any]:
    last = match.rounds[-1]
    final = IN_PROGRESS if match.in_progress else match.decision
    assert final is not None  # at least one round was read without problems
    nxt = None
    if final.status == "continue":
        nxt = {"round": last["round"] + 1, "first_player": OTHER[last["first_player"]],
               "favor": list(match.favor)}
    others = []
    if match.standings and not match.in_progress:
        last_round = match.standings[-1].round
        others = [alternative_entry(alt, explainer.alternative(alt, last_round))
                  for alt in alternatives(rb, config, match.standings, final)]
    return {
        "valid": True,
        "game": "hanamikoji",
        "edition": config.edition,
        "variants": config.variants,
        "players": dict(reader.names.labels),
        "rounds": match.rounds,
        "result": result_entry(final, last["round"],
                               None if match.in_progress else explainer.result(final)),
        "next": nxt,
        "alternatives": others,
    }


def result_entry(d: Decision, round_no: int, message: str | None) -> dict[str, Any]:
    out = {"status": d.status, "winner": d.winner, "round": round_no, "reason": d.reason,
           "rules": list(d.rules), "message": message}
    if d.inferred:
        out["inferred"] = True
    return out


def alternative_entry(alt, message: str) -> dict[str, Any]:
    d = alt.decision
    out = {"edition": alt.reading.config.edition, "variants": alt.reading.config.variants,
           "status": d.status, "winner": d.winner, "round": alt.round, "reason": d.reason,
           "rules": list(d.rules), "message": message}
    if d.inferred:
        out["inferred"] = True
    return out


def invalid(reader: Reader) -> dict[str, Any]:
    return {"valid": False, "errors": [p.as_dict() for p in reader.problems]}

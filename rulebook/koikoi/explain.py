"""Scoring a checked Koi-Koi match round by round: each round's yaku, multipliers and
score, who deals next, the match's result, every step explained with its rule."""
from __future__ import annotations

from typing import Any

from ..i18n import N_, Np_, listed
from ..outcomes import Status
from ..players import OTHER, PLAYERS
from ..problems import Problem, pointer
from .messages import Words
from .request import Match
from .scoring import (
    DROPPED_ALONE,
    DROPPED_BEST,
    DROPPED_SPOILED,
    Dropped,
    PileScore,
    multipliers,
)

# -- explanations of a valid round (translated at run time) -------------------------
MSG_DEALS = N_("{player} deals.")
MSG_DEALS_AGAIN = N_("{player} deals again, as the last round had no winner.")
MSG_DEALS_PASSED = N_("{player} deals, as the deal passes after a round without a winner.")
MSG_ROUND_MONTH = N_("Round {round} is played in the {month} month ({number}).")
MSG_YAKU = Np_(
        "{player} scores {yaku}: {points} point.",
        "{player} scores {yaku}: {points} points.",
    )
MSG_DROPPED_BEST = N_("{yaku} is also complete, but only the best yaku of its group scores.")
MSG_DROPPED_SPOILED = N_("{yaku} does not count: {cards} is in the pile.")
MSG_DROPPED_ALONE = N_("{yaku} does not count on its own at this table.")
MSG_SCORE_TOGETHER = N_("With the option “{option}”, {yaku} score together.")
MSG_SEVEN = Np_(
        "A base score of {threshold} point or more is multiplied by {factor}.",
        "A base score of {threshold} points or more is multiplied by {factor}.",
    )
MSG_OPPONENT_KOIKOI = N_("{opponent} called koi-koi, so {player}'s score is multiplied by {factor}.")
MSG_WINNER_KOIKOI = N_("{player} called koi-koi and then won, so the score is multiplied by {factor}.")
MSG_ANY_KOIKOI = N_("Koi-koi was called this round, so {player}'s score is multiplied by {factor}.")
MSG_FIELD = Np_(
        "{count} bright was dealt to the field, so the score is multiplied by {factor}.",
        "{count} brights were dealt to the field, so the score is multiplied by {factor}.",
    )
MSG_ZERO_SUM = Np_(
        "{player} loses the same {points} point.",
        "{player} loses the same {points} points.",
    )
MSG_HANDS_IGNORED = N_(
    "Both players were dealt a hand yaku; at this table both are ignored and the round is played."
)
MSG_SHORT_TSUKIFUDA = N_(
    "Cards of the Month is in play in a match of another length than 12 rounds; FudaWiki "
    "typically plays it only in full 12-round matches."
)
MSG_TARGET = N_("{player} has reached {target} points, so the match is over.")
MSG_AT_ZERO = N_("{player}'s total has fallen to {total}, so the match is over.")
MSG_ENDED = N_("The match was over after round {round}, so round {next} cannot be played.")
MSG_KOIKOI_CALLS = Np_(
        "{calls} koi-koi call was made this round, so the score is multiplied by {factor}.",
        "{calls} koi-koi calls were made this round, so the score is multiplied by {factor}.",
    )
MSG_CAP = N_("The total multiplier is capped at {cap}.")
MSG_ROUND_SCORE = Np_(
        "{player} scores {score} point this round.",
        "{player} scores {score} points this round.",
    )
MSG_HAND_WIN = N_("{player} shows {yaku} right after the deal and wins the round.")
MSG_DRAW = N_("The cards ran out before anyone stopped with a yaku: nobody wins the round.")
MSG_RAN_OUT = N_("The cards ran out before anyone stopped with a yaku, so no yaku scores.")
MSG_HANDS_DRAW = N_("Both players were dealt a hand yaku, so the round is a draw and nobody scores.")
MSG_DRAW_POINTS = Np_(
        "As the dealer, {player} scores {points} point.",
        "As the dealer, {player} scores {points} points.",
    )


class Explainer(Words):
    """The ruling of a checked match, in the run's language."""

    def yaku_entries(self, score: PileScore) -> list[dict[str, Any]]:
        cards = self.rb.cards
        return [
            {
                "id": s.yaku.id,
                "points": s.points,
                "cards": [c.slug for c in cards if (s.cards >> c.index) & 1],
                "rule": s.yaku.rule,
            }
            for s in score.scored
        ]

    def score(self, match: Match) -> dict[str, Any]:
        """The response document of a valid request (or every round listed after the end of a
        match played to a target, refused)."""
        ruleset, options, parsed = match.ruleset, match.options, match.rounds
        month_shown = match.scorer.uses_month
        totals = dict(match.start["totals"])
        out_rounds = []
        first = match.start["round"]
        dealer = match.start["dealer"]
        dealt_by = (MSG_DEALS, "deal.first-dealer" if first == 1 else "referee.start")
        ended: tuple[str, list[str]] | None = None  # why the match is over, and its rules
        for n, rnd in enumerate(parsed, start=first):
            if ended is not None:
                return self.refused(parsed, n - first, n)
            explanation = [self.step(dealt_by[1], dealt_by[0], player=self.names[dealer])]
            if month_shown:
                explanation.append(self.step("match.round-month", MSG_ROUND_MONTH, round=n,
                                             month=self.month_name(rnd["month"]), number=rnd["month"]))
                if n == first and options["rounds"] != len(self.rb.months):
                    explanation.append(self.step(self.rb.options["tsukifuda"].rule,
                                                 MSG_SHORT_TSUKIFUDA))
            if rnd["hands_ignored"]:
                explanation.append(self.step(self.rb.options["both_lucky_hands"].rule,
                                             MSG_HANDS_IGNORED))
            if rnd["winner"] is None:
                ruling = self.draw_ruling(rnd, dealer, options, explanation)
            else:
                ruling = self.won_ruling(rnd, options, explanation, ruleset)
            self.zero_sum(ruling, options, explanation)
            for p in PLAYERS:
                totals[p] += ruling["score"][p]
            ended = self.match_over(totals, options, explanation)
            out_rounds.append({"round": n, "month": rnd["month"], "dealer": dealer,
                               "winner": rnd["winner"], **ruling, "explanation": explanation})
            dealer, dealt_by = self.next_dealer(rnd, dealer, ruling["score"][dealer], options)
        played, total_rounds = first - 1 + len(parsed), options["rounds"]
        length = ["match.rounds"] if total_rounds is not None else []
        if ended is None and (total_rounds is None or played < total_rounds):
            result = {"status": Status.CONTINUE, "winner": None, "reason": "match.in-progress",
                      "rules": length or ["match.target"]}
        else:
            reason, rules = ended or ("match.higher-total", length)
            if totals["a"] == totals["b"]:
                result = {"status": Status.DRAW, "winner": None, "reason": "match.tied-totals",
                          "rules": [*rules, "match.tie"]}
            else:
                result = {"status": Status.WIN, "winner": "a" if totals["a"] > totals["b"] else "b",
                          "reason": reason, "rules": [*rules, "match.winner"]}
        over = result["status"] != Status.CONTINUE
        result.update({"rounds_played": played, "rounds_total": total_rounds})
        return {
            "valid": True,
            "game": "koikoi",
            "ruleset": ruleset,
            "options": options,
            "players": dict(self.names.labels),
            "rounds": out_rounds,
            "totals": totals,
            "result": result,
            # the round that follows, and who deals it (match.dealer, match.dealer-after-draw)
            "next": None if over else {"round": played + 1, "dealer": dealer},
        }

    def match_over(self, totals: dict[str, int], options: dict,
                   explanation: list) -> tuple[str, list[str]] | None:
        """match.target: whether a total has reached the target (or fallen to 0 where the
        match ends there), with the reason and rules of the result."""
        target = options["match_target"]
        leader = max(PLAYERS, key=lambda p: totals[p])
        if target is not None and totals[leader] >= target:
            explanation.append(self.step("match.target", MSG_TARGET, player=self.names[leader],
                                         target=target))
            return "match.target-reached", ["match.target"]
        trailer = min(PLAYERS, key=lambda p: totals[p])
        if options["end_at_zero"] and totals[trailer] <= 0:
            explanation.append(self.step(self.rb.options["end_at_zero"].rule, MSG_AT_ZERO,
                                         player=self.names[trailer], total=totals[trailer]))
            return "match.fell-to-zero", ["match.target"]
        return None

    def refused(self, parsed: list, index: int, number: int) -> dict[str, Any]:
        """Rounds listed after a match played to a target was over."""
        errors = [Problem("round.after-end", pointer("rounds", i), "match.target",
                          self.g(MSG_ENDED, round=number - 1, next=number + i - index)).as_dict()
                  for i in range(index, len(parsed))]
        return {"valid": False, "errors": errors}

    def zero_sum(self, ruling: dict, options: dict, explanation: list) -> None:
        """scoring.zero-sum: what a player scores is taken from the other player's total."""
        if not options["zero_sum"]:
            return
        for p in PLAYERS:
            points = ruling["score"][p]
            if points > 0:
                ruling["score"][OTHER[p]] -= points
                explanation.append({"rule": "scoring.zero-sum", "message": self.n(
                    MSG_ZERO_SUM, points, player=self.names[OTHER[p]], points=points)})

    def step(self, rule: str, template: str, **values: Any) -> dict[str, str]:
        return {"rule": rule, "message": self.g(template, **values)}

    def next_dealer(self, rnd: dict, dealer: str, dealer_points: int, options: dict) -> tuple:
        """Who deals the next round, and why (message, rule): match.dealer, -after-draw."""
        winner = rnd["winner"]
        if winner is not None:
            if options["dealer_rotation"] == "winner":
                return winner, (MSG_DEALS, "match.dealer")
            return OTHER[dealer], (MSG_DEALS, self.rb.options["dealer_rotation"].rule)
        if dealer_points:  # the dealer's privilege keeps the deal (FW)
            return dealer, (MSG_DEALS_AGAIN, self.rb.options["draw_dealer_points"].rule)
        if options["draw_dealer"] == "same":
            return dealer, (MSG_DEALS_AGAIN, "match.dealer-after-draw")
        return OTHER[dealer], (MSG_DEALS_PASSED, "match.dealer-after-draw")

    def draw_ruling(self, rnd: dict, dealer: str, options: dict, explanation: list) -> dict:
        """A round without a winner: the cards ran out, or both players held a hand yaku."""
        rb = self.rb
        score = {"a": 0, "b": 0}
        points = options["draw_dealer_points"]
        if rnd["hand_draw"]:
            explanation.append(self.step("round.both-hand-yaku", MSG_HANDS_DRAW))
        elif points:
            explanation.append(self.step("round.exhaustive", MSG_RAN_OUT))
        else:
            explanation.append(self.step("round.exhaustive", MSG_DRAW))
        if points:  # the dealer's privilege, after either kind of draw (FW "Draws")
            score[dealer] = points
            explanation.append({"rule": rb.options["draw_dealer_points"].rule, "message": self.n(
                MSG_DRAW_POINTS, points, player=self.names[dealer], points=points)})
        return {"yaku": [], "base": 0, "multipliers": [], "multiplier": 1, "capped": False,
                "score": score}

    def won_ruling(self, rnd: dict, options: dict, explanation: list, ruleset: str) -> dict:
        rb = self.rb
        winner = rnd["winner"]
        loser = OTHER[winner]
        won = rnd["hand_win"] or rnd["scores"][winner]
        if rnd["hand_win"] is not None:
            explanation.append(self.step("scoring.hand-yaku", MSG_HAND_WIN, player=self.names[winner],
                                         yaku=self.yaku_names(s.yaku.id for s in won.scored)))
        for s in won.scored:
            explanation.append({"rule": s.yaku.rule, "message": self.n(
                MSG_YAKU, s.points, player=self.names[winner],
                yaku=self.yaku_name(s.yaku.id), points=s.points)})
        explanation.extend(self.together_steps(won, options, ruleset))
        for d in won.dropped:
            explanation.append(self.dropped_step(d))
        base = won.base
        field = None if rnd["hand_win"] is not None else (rnd["field_brights"] or 0)
        factors, total_factor, capped = multipliers(
            rb, options, base, rnd["calls"][winner], rnd["calls"][loser], field
        )
        mults = []
        for m in factors:
            mults.append({"reason": m.reason, "factor": m.factor, "rule": m.rule})
            if m.reason == "seven-points":
                text = self.n(MSG_SEVEN, rb.seven_threshold, threshold=rb.seven_threshold, factor=m.factor)
            elif m.reason == "opponent-koikoi":
                text = self.g(MSG_OPPONENT_KOIKOI, opponent=self.names[loser],
                              player=self.names[winner], factor=m.factor)
            elif m.reason == "winner-koikoi":
                text = self.g(MSG_WINNER_KOIKOI, player=self.names[winner], factor=m.factor)
            elif m.reason == "any-koikoi":
                text = self.g(MSG_ANY_KOIKOI, player=self.names[winner], factor=m.factor)
            elif m.reason == "field-brights":
                text = self.n(MSG_FIELD, m.calls, count=m.calls, factor=m.factor)
            else:
                text = self.n(MSG_KOIKOI_CALLS, m.calls, calls=m.calls, factor=m.factor)
            explanation.append({"rule": m.rule, "message": text})
        if capped:
            explanation.append(self.step(rb.options["double_cap"].rule, MSG_CAP, cap=total_factor))
        score = {"a": 0, "b": 0}
        score[winner] = base * total_factor
        explanation.append({"rule": "scoring.winner-only", "message": self.n(
            MSG_ROUND_SCORE, score[winner], player=self.names[winner], score=score[winner])})
        return {"yaku": self.yaku_entries(won), "base": base, "multipliers": mults,
                "multiplier": total_factor, "capped": capped, "score": score}

    def together_steps(self, won: Any, options: dict, ruleset: str) -> list[dict[str, str]]:
        """An option switched on that lets yaku of one group score together, where they did
        and the ruleset alone would not have let them (options.older-yaku, ...)."""
        rb = self.rb
        scored = {s.yaku.id for s in won.scored}
        own = rb.rulesets[ruleset].stacks
        steps = []
        for spec in rb.options.values():
            if not spec.stacks or options.get(spec.id) is not True:
                continue
            together = {y for pair in spec.stacks if pair <= scored and pair not in own for y in pair}
            if together:
                steps.append(self.step(spec.rule, MSG_SCORE_TOGETHER, option=self.t.gettext(spec.label),
                                       yaku=self.yaku_names(y.id for y in rb.yaku if y.id in together)))
        return steps

    def dropped_step(self, d: Dropped) -> dict[str, str]:
        """Why a complete yaku does not score."""
        rb = self.rb
        name = self.yaku_name(d.yaku.id)
        if d.why == DROPPED_SPOILED:
            cards = listed((self.card_label(c.index) for c in rb.cards if (d.cards >> c.index) & 1),
                           self.t)
            return self.step(rb.options[d.option].rule, MSG_DROPPED_SPOILED, yaku=name, cards=cards)
        rule, template = {
            DROPPED_BEST: ("yaku.best-in-group", MSG_DROPPED_BEST),
            DROPPED_ALONE: (rb.options["viewings"].rule, MSG_DROPPED_ALONE),
        }[d.why]
        return self.step(rule, template, yaku=name)

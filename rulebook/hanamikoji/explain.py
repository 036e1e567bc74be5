"""The sentences of a Hanamikoji ruling, in the request's language.

Each sentence goes with the rule that decides it: `{"rule": <rule id>, "message": ...}`.
Templates are translated once per language and cached on the rulebook (`phrases`).
"""
from __future__ import annotations

from typing import Any

from ..i18n import N_, Np_, listed, translator
from ..players import OTHER, PLAYERS, Names
from .model import Rulebook
from .rules import Alternative, Decision, Standing
from .terms import action_name, geisha_name

E = {
    "marker.won": N_("{geisha} ({charm}): {a} – {b}. {player} has more of her items and takes her favour."),
    "marker.kept": N_("{geisha} ({charm}): {a} – {b}. Her favour stays with {player}."),
    "marker.tie-kept": N_("{geisha} ({charm}): {a} – {b}, a tie. Her marker stays with {player}."),
    "marker.tie-middle": N_("{geisha} ({charm}): {a} – {b}, a tie. Her marker stays in the middle."),
    "marker.empty-kept": N_("{geisha} ({charm}): no cards on either side. Her favour stays with {player}."),
    "marker.empty-middle": N_("{geisha} ({charm}): no cards on either side. Her marker stays in the middle."),
    "totals": N_("{player}: {geishas}, {charm}."),
    "goal.geishas": N_("{player} has the favour of {geishas} and wins."),
    "goal.charm": N_("{player} has {charm} and wins."),
    "goal.clash-charm": N_(
        "{other} reached {geishas} and {player} reached {charm} in the same round: the charm "
        "points win, so {player} wins."
    ),
    "goal.clash-geishas": N_(
        "{player} reached {geishas} and {other} reached {charm} in the same round: with the "
        "geishas-first reading, {player} wins."
    ),
    "goal.none": N_("Nobody has {geishas} or {charm} yet, so the game goes on."),
    "next.start": N_("The favour markers stay where they are, and {player} starts round {round}."),
    "limit.optional": N_(
        "Round {round} was the last under the optional three-round limit: the {edition} "
        "tie-break decides."
    ),
    "limit.normal": N_(
        "Round {round} ends the game: the {edition} edition plays at most {limit} rounds, and "
        "its tie-break decides."
    ),
    "limit.final": N_(
        "Round {round} ends the game: the {edition} edition plays at most {limit} rounds, and "
        "its tie-break decides."
    ),
    "limit.unknown": N_(
        "Round {round} was the last under the three-round limit your table set; our sources "
        "do not settle whether the {edition} edition has this limit."
    ),
    "limit.house": N_(
        "Round {round} was the last under a three-round limit, which the {edition} rulebook "
        "does not have: as a house rule it comes with no printed tie-break, so agree at your "
        "table who wins."
    ),
    "limit.inferred": N_(
        "This tie-break is inferred from the {source} edition, a translation of the same "
        "rulebook: the {edition} book's own wording of this optional rule could not be checked."
    ),
    "tiebreak.most_charm.win": N_("Most charm points: {a} against {b}. {player} wins."),
    "tiebreak.most_charm.level": N_("Most charm points: {a} against {b}, level."),
    "tiebreak.highest_geisha.win": N_("Highest-valued geishas: {a} against {b}. {player} wins."),
    "tiebreak.highest_geisha.level": N_("Highest-valued geishas: {a} against {b}, level."),
    "tiebreak.shared": N_("The players are still level and share the victory."),
    "tiebreak.unknown": N_(
        "The players are still level, and the sources we could read on the {edition} edition "
        "(reviews and summaries, not its rulebook) do not say what happens now: agree on it "
        "at your table."
    ),
    "removed.inferred": N_("The log uses every card but one {geisha} card: that is the card put aside."),
    "progress": N_("{player} plays next: action {number} of {total}."),
    "progress.left": N_("Actions left for {player}: {actions}."),
    "progress.none-left": N_("{player} has no actions left."),
    "alternative": N_("Under {reading}: {outcome}"),
    "outcome.win": N_("{player} would win ({reason})."),
    "result.win": N_("{player} wins ({reason})."),
    "result.shared": N_("The players share the victory."),
    "result.undecided": N_("The sources we could read on this edition leave the result open."),
    "result.house": N_("No printed rule decides the result: agree on it at your table."),
    "outcome.shared": N_("the victory would be shared."),
    "outcome.continue": N_("the game would go on."),
    "outcome.undecided": N_("the sources we could read would leave the result open."),
    "outcome.house": N_("no printed rule would decide the result."),
    "outcome.earlier": N_("{player} would already have won after round {round} ({reason})."),
    "reading.edition": N_("{edition} rules"),
    "reading.edition-inferred": N_("{edition} rules (tie-break inferred from the {source} edition)"),
    "reading.clash-geishas": N_("the geishas-first clash reading"),
    "reading.clash-charm": N_("the official clash rule"),
    "reading.limit-on": N_("the three-round limit"),
    "reading.limit-off": N_("no round limit"),
}
EP = {
    "geishas": Np_("{count} geisha", "{count} geishas"),
    "charm": Np_("{count} charm point", "{count} charm points"),
    "pile": Np_("{count} card left in the draw pile.", "{count} cards left in the draw pile."),
}
REASONS = {
    "geishas": N_("favour of enough geishas"),
    "charm": N_("enough charm points"),
    "clash_charm": N_("charm points beat geishas in a clash"),
    "clash_geishas": N_("geishas beat charm points in a clash"),
    "limit_most_charm": N_("most charm points after the last round"),
    "limit_highest_geisha": N_("highest-valued geisha after the last round"),
    "limit_shared": N_("level after the last round"),
    "limit_unknown": N_("level after the last round; the edition gives no further tie-break"),
    "limit_house": N_("three rounds played under a house rule with no printed tie-break"),
}


class Phrases:
    """A language's explanation templates and geisha names, translated once."""

    def __init__(self, rb: Rulebook, lang: str):
        t = translator(lang)
        self.explain = {key: t.gettext(text) for key, text in E.items()}
        self.reasons = {key: t.gettext(text) for key, text in REASONS.items()}
        self.geishas = [geisha_name(rb, g.id, lang) for g in rb.geishas]
        self.counted: dict[tuple[str, int], str] = {}  # "3 geishas", filled as needed


def phrases(rb: Rulebook, lang: str) -> Phrases:
    found = rb.cache.get(("phrases", lang))
    if found is None:
        found = rb.cache[("phrases", lang)] = Phrases(rb, lang)
    return found


class Explainer:
    """The sentences of one ruling: the players' names and the edition are fixed."""

    def __init__(self, rb: Rulebook, lang: str, names: Names, edition: str):
        self.rb, self.lang, self.names, self.edition = rb, lang, names, edition
        self.t = translator(lang)
        self.phrases = phrases(rb, lang)

    def say(self, key: str, rule: str | None, **values: Any) -> dict[str, Any]:
        message = self.phrases.explain[key].format(**values)
        return {"rule": rule, "message": self.names.cap(message)}

    def counted(self, key: str, count: int) -> str:
        cache = self.phrases.counted
        text = cache.get((key, count))
        if text is None:
            singular, plural = EP[key]
            text = cache[(key, count)] = self.t.ngettext(singular, plural, count).format(count=count)
        return text

    def edition_label(self, edition: str | None = None) -> str:
        return self.rb.editions[edition or self.edition].name

    # -- a scored round ---------------------------------------------------------------
    def markers(self, before: list[str | None], board: dict[str, list[int]]) -> list[dict]:
        explain, names, geishas = self.phrases.explain, self.names.said, self.phrases.geishas
        cap = self.names.cap
        out = []
        for i, (a, b) in enumerate(zip(board["a"], board["b"])):
            held = before[i]
            if a != b:
                winner = "a" if a > b else "b"
                key, rule, player = ("marker.kept" if held == winner else "marker.won",
                                     "scoring.majority", names[winner])
            else:
                empty = "empty" if a == 0 else "tie"  # 0 – 0 is no cards at all, not a tie
                key = f"marker.{empty}-middle" if held is None else f"marker.{empty}-kept"
                rule, player = "scoring.tie-keeps-marker", names.get(held)
            message = explain[key].format(geisha=geishas[i], charm=self.rb.geishas[i].charm,
                                          a=a, b=b, player=player)
            out.append({"rule": rule, "message": cap(message)})
        return out

    def totals(self, s: Standing) -> list[dict]:
        return [self.say("totals", "scoring.charm-total", player=self.names.labels[p],
                         geishas=self.counted("geishas", s.geishas[p]),
                         charm=self.counted("charm", s.charm[p])) for p in PLAYERS]

    def decision(self, d: Decision, s: Standing) -> list[dict]:
        return [self.step(key, rule, values, s) for key, rule, values in d.steps]

    def step(self, key: str, rule: str | None, values: dict[str, Any], s: Standing) -> dict:
        rb = self.rb
        winner = values.get("winner")
        if key.startswith("goal.clash"):
            return self.say(key, rule, player=self.names[winner], other=self.names[OTHER[winner]],
                            geishas=self.counted("geishas", rb.goal_geishas),
                            charm=self.counted("charm", rb.goal_charm))
        if key in ("goal.geishas", "goal.charm"):
            return self.say(key, rule, player=self.names[winner],
                            geishas=self.counted("geishas", s.geishas[winner]),
                            charm=self.counted("charm", s.charm[winner]))
        if key == "goal.none":
            return self.say(key, rule, geishas=self.counted("geishas", rb.goal_geishas),
                            charm=self.counted("charm", rb.goal_charm))
        if key.startswith("limit."):
            source = rb.editions[self.edition].round_limit.inferred_from
            return self.say(key, rule, round=s.round, limit=rb.round_limit,
                            edition=self.edition_label(),
                            source=self.edition_label(source) if source else "")
        if key == "tiebreak.unknown":
            return self.say(key, rule, edition=self.edition_label())
        if key == "tiebreak.shared":
            return self.say(key, rule)
        step = values["step"]
        measure = {"most_charm": s.charm, "highest_geisha": s.values}[step]
        a, b = measure["a"], measure["b"]
        if step == "highest_geisha":
            t = translator(self.lang)
            a, b = listed(map(str, a), t) or "–", listed(map(str, b), t) or "–"
        extra = {"player": self.names[winner]} if winner else {}
        return self.say(key, rule, a=a, b=b, **extra)

    def removed_inferred(self, index: int) -> dict:
        return self.say("removed.inferred", "deal.remove-one", geisha=self.phrases.geishas[index])

    def next_start(self, first: str, number: int) -> dict:
        return self.say("next.start", "refresh.switch-start", player=self.names[OTHER[first]],
                        round=number + 1)

    # -- a round in progress ------------------------------------------------------------
    def progress(self, progress: dict[str, Any]) -> list[dict]:
        out = [self.say("progress", "turn.alternate", player=self.names[progress["to_act"]],
                        number=progress["action_number"], total=2 * self.rb.actions_per_player)]
        for p in PLAYERS:
            left = progress["actions_left"][p]
            if left:
                names = listed((action_name(self.rb, a, self.lang, self.edition) for a in left),
                               translator(self.lang))
                out.append(self.say("progress.left", "turn.each-action-once",
                                    player=self.names[p], actions=names))
            else:
                out.append(self.say("progress.none-left", "turn.each-action-once",
                                    player=self.names[p]))
        out.append({"rule": "deal.hands", "message": self.counted("pile", progress["draw_pile"])})
        return out

    # -- the result ---------------------------------------------------------------------
    def result(self, d: Decision) -> str | None:
        if d.status == "win":
            return self.names.cap(self.phrases.explain["result.win"].format(
                player=self.names[d.winner], reason=self.phrases.reasons[d.reason]))
        key = "result.house" if d.reason == "limit_house" else f"result.{d.status}"
        return self.phrases.explain.get(key)

    def outcome(self, d: Decision, decided_round: int, last_round: int) -> str:
        explain = self.phrases.explain
        if d.status == "win":
            reason = self.phrases.reasons[d.reason]
            if decided_round < last_round:
                return explain["outcome.earlier"].format(player=self.names[d.winner],
                                                         round=decided_round, reason=reason)
            return explain["outcome.win"].format(player=self.names[d.winner], reason=reason)
        key = "outcome.house" if d.reason == "limit_house" else f"outcome.{d.status}"
        return explain[key]

    def alternative(self, alt: Alternative, last_round: int) -> str:
        explain, reading = self.phrases.explain, alt.reading
        label = reading.label
        if reading.edition is not None:
            source = self.rb.editions[reading.edition].round_limit.inferred_from
            if alt.decision.inferred and source:
                label = "reading.edition-inferred"
            text = explain[label].format(edition=self.edition_label(reading.edition),
                                         source=self.edition_label(source or reading.edition))
        else:
            text = explain[label]
        return self.names.cap(explain["alternative"].format(
            reading=text, outcome=self.outcome(alt.decision, alt.round, last_round)))

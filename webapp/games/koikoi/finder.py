"""Koi-Koi's side of the finder (webapp/pages/finder.py): the rulesets, and one question per
fact the rulebook compares: a yaku's points (`yaku.<id>`, and `yaku.<id>.extra` whether it
grows with extra cards), whether two yaku of one exclusive group both score
(`together.<yaku>.<yaku>`: the comparison's `group.<id>` rows, pair by pair) or a table
option (`option.<id>`).

Nothing here names a ruleset: values come from the rulebook, so a new ruleset (or a new
value) is asked about without code. Each question knows its value at a table (a ruleset
with options: `Question.at`), so an answer that differs from the ruleset becomes the option
that gives it: an option's own answer that option; a yaku "not played" the option that
switches it off or drops it; a yaku without extra points, or two yaku that both score, the
option that makes it so (FudaWiki's older yaku).
"""
from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import Any

from flask_babel import gettext, lazy_gettext, ngettext

from rulebook.koikoi import referee

from ..finding import UNKNOWN, Answer, Candidate, Question
from ..terms import LABELLED
from .options import OPTION_LABELS, encode, option_label
from .terms import KoikoiTerms

NOT_PLAYED = "none"  # a yaku's value where the ruleset does not have it (its query token)
EXTRA = ".extra"  # after a yaku's key: its question about points for extra cards
TOGETHER = "together"  # the key of a question about two yaku that may both score
# Bases of a fact (Rulebook.provenance) that say no source documents it.
UNDOCUMENTED = frozenset({"unknown"})

# The questions about options, as a player would ask them (an option without one is
# asked with its name).
QUESTIONS = {
    "viewings": lazy_gettext("Do Flower Viewing and Moon Viewing score at your table?"),
    "flower_viewing": lazy_gettext("Do you play Flower Viewing?"),
    "moon_viewing": lazy_gettext("Do you play Moon Viewing?"),
    "rain_man_spoils_viewings": lazy_gettext("Does the rain man spoil the viewings?"),
    "lightning_spoils_viewings": lazy_gettext("Does the lightning spoil the viewings?"),
    "sake_cup_as_plain": lazy_gettext("Does the sake cup also count as a plain?"),
    "tsukifuda": lazy_gettext("Do you play Cards of the Month?"),
    "seven_point_double": lazy_gettext("Is a score of 7 points or more doubled?"),
    "koikoi_multiplier": lazy_gettext("What does a koi-koi call do?"),
    "double_cap": lazy_gettext("How far can the multipliers go?"),
    "hand_yaku": lazy_gettext("Does a dealt hand of four cards of a month, or of four pairs, "
                              "win the round?"),
    "rounds": lazy_gettext("How many rounds make a match?"),
    "koikoi_limit": lazy_gettext("How often may a player call koi-koi in one round?"),
    "dealer_rotation": lazy_gettext("Who deals the next round?"),
    "draw_dealer": lazy_gettext("Who deals after a round that nobody won?"),
    "draw_dealer_points": lazy_gettext("What does the dealer score when the cards run out "
                                       "and nobody won?"),
    "field_multiplier": lazy_gettext("Do the brights dealt to the field multiply the score?"),
    "lucky_hands": lazy_gettext("What does a dealt hand of four cards of a month, or of four "
                                "pairs, do?"),
    "both_lucky_hands": lazy_gettext("What happens when both players are dealt such a hand?"),
    "lucky_hands_stack": lazy_gettext("Does a hand with both Four of a Month and Four Pairs "
                                      "score both?"),
    "koikoi_minimum": lazy_gettext("How many points must your yaku be worth before you may "
                                   "call koi-koi?"),
    "match_target": lazy_gettext("Is a match played to a number of points?"),
    "start_points": lazy_gettext("How many points does each player start with?"),
    "zero_sum": lazy_gettext("Does the winner of a round take the points from the other "
                             "player?"),
    "end_at_zero": lazy_gettext("Does the match end when a player's total falls to 0?"),
}
# Options whose numbers are points (the rest count rounds, calls or a factor).
POINTS = frozenset({"draw_dealer_points", "koikoi_minimum", "match_target", "start_points"})
# Answers that read better after their question than the option's menu label.
ANSWERS = {
    ("koikoi_multiplier", "opponent_called"): lazy_gettext(
        "The winner's score doubles if the other player had called"),
    ("koikoi_multiplier", "winner_called"): lazy_gettext(
        "The winner's score doubles if the winner had called"),
    ("koikoi_multiplier", "per_call"): lazy_gettext(
        "The score is multiplied by the number of calls plus one"),
    ("koikoi_multiplier", "anyone_called"): lazy_gettext(
        "The winner's score doubles if either player had called"),
    ("koikoi_multiplier", "none"): lazy_gettext("Nothing: the score is not doubled"),
    ("sake_cup_as_plain", "choose"): lazy_gettext("As an animal or a plain, whichever scores more"),
    ("field_multiplier", "none"): lazy_gettext("No"),
    ("field_multiplier", "brights"): lazy_gettext("Yes: times the number of those brights"),
    ("field_multiplier", "brights_plus_one"): lazy_gettext(
        "Yes: times the number of those brights plus one"),
    ("lucky_hands", "win"): lazy_gettext("It wins the round at once"),
    ("lucky_hands", "misdeal"): lazy_gettext("Nobody scores, and the cards are dealt again"),
    ("both_lucky_hands", "draw"): lazy_gettext("The round is a draw"),
    ("both_lucky_hands", "play_on"): lazy_gettext("Both hands are ignored and play goes on"),
    ("rounds", None): lazy_gettext("No set number: the match is played to a score"),
    ("match_target", None): lazy_gettext("No: a set number of rounds"),
    ("koikoi_minimum", None): lazy_gettext("No minimum"),
}


class KoikoiFinder:
    learned_question = lazy_gettext("Where did you learn to play?")
    learned_hint = lazy_gettext("The app, game, website or rules leaflet your table follows.")
    lead = lazy_gettext("Koi-Koi has no single official rulebook, and tables score it "
                        "differently. Say where you learned, or answer a few questions, and "
                        "the referee uses your rules.")

    def __init__(self, rb: Any, lang: str):
        self.rb = rb
        self.lang = lang

    def compared(self) -> list[str]:
        """The rulebook's compared facts this finder can ask about, in its order."""
        rb = self.rb
        compared = getattr(rb, "compared", None)
        keys = compared() if callable(compared) else [
            *(f"yaku.{y.id}" for y in rb.yaku), *(f"option.{key}" for key in rb.options)]
        return [key for key in keys if self._known(key)]

    def keys(self) -> list[str]:
        """The questions' keys: a yaku's points, and whether it grows with extra cards; for
        a group, each pair of its yaku that may both score; an option's value."""
        out = []
        for key in self.compared():
            kind, _, name = key.partition(".")
            if kind == "group":
                out.extend(_pair_key(pair) for pair in self.pairs(name))
                continue
            out.append(key)
            if kind == "yaku" and self.rb.yaku_by_id[name].extra:
                out.append(key + EXTRA)
        return out

    def _known(self, key: str) -> bool:
        kind, _, name = key.partition(".")
        return (kind == "yaku" and name in self.rb.yaku_by_id) or (
            kind == "group" and self.rb.groups.get(name) == "best") or (
            kind == "option" and name in self.rb.options)

    def pairs(self, group: str) -> list[tuple[str, str]]:
        """The pairs of a group's yaku that score together in a ruleset or with an option,
        in the rulebook's order of yaku. An option that does nothing else than let one pair
        score together is asked as itself (options.lucky-hands-stack)."""
        rb = self.rb
        found = [pair for r in rb.rulesets.values() for pair in r.stacks]
        found += [pair for spec in rb.options.values()
                  if spec.fixed or spec.drops or len(spec.stacks) > 1 for pair in spec.stacks]
        order = {y.id: i for i, y in enumerate(rb.yaku)}
        out: list[tuple[str, str]] = []
        for pair in found:
            a, b = sorted(pair, key=order.__getitem__)
            if rb.yaku_by_id[a].group == group and (a, b) not in out:
                out.append((a, b))
        return sorted(out, key=lambda p: (order[p[0]], order[p[1]]))

    @cached_property
    def terms(self) -> KoikoiTerms:
        return KoikoiTerms(self.rb, self.lang)

    def candidates(self) -> list[Candidate]:
        return [Candidate(r.id, self.terms.ruleset_name(r.id), self.terms.sources(r.sources))
                for r in self.rb.rulesets.values()]

    def questions(self) -> list[Question]:
        out = []
        for key in self.compared():
            kind, _, name = key.partition(".")
            if kind == "yaku":
                out.append(self._points(key, name))
                if self.rb.yaku_by_id[name].extra:
                    out.append(self._extra(key, name))
            elif kind == "group":
                out.extend(self._together(key, pair) for pair in self.pairs(name))
            else:
                out.append(self._option(key, name))
        return out

    def _documented(self, ruleset: str, key: str) -> bool:
        provenance = getattr(self.rb, "provenance", None)
        if not callable(provenance):
            return True
        return provenance(ruleset, key).basis not in UNDOCUMENTED

    # -- a yaku's points, and its extra points -------------------------------------------
    def _table(self, ruleset: str, settings: Mapping[str, Any]) -> dict[str, Any]:
        return self.rb.effective_options(ruleset, dict(settings))

    def _value_at(self, key: str, yaku_id: str, ruleset: str,
                  settings: Mapping[str, Any]) -> Any:
        """A yaku's value at a table: NOT_PLAYED, UNKNOWN or its YakuValue."""
        rb = self.rb
        yaku, value = rb.yaku_by_id[yaku_id], rb.table_value(ruleset, yaku_id)
        if value is None:
            return NOT_PLAYED
        undocumented = value.points is None or not self._documented(ruleset, key)
        # A yaku the ruleset lists without a documented value is not "not played" because
        # an option no source gives for it is off by default; a table that turns it off is.
        if rb.yaku_off(yaku, self._table(ruleset, settings)) and (
                not undocumented or not rb.yaku_off(yaku, self._table(ruleset, {}))):
            return NOT_PLAYED
        return UNKNOWN if undocumented else value

    def _turned_on(self, yaku_id: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """Its switches on, and every way a table turns the yaku on: those switches on and,
        for a viewing, the viewings played (where a ruleset has them off by default, its own
        points count)."""
        rb = self.rb
        on = dict.fromkeys(rb.switches.get(yaku_id, ()), True)
        ons = [on] if on else []
        if rb.yaku_by_id[yaku_id].viewing:
            ons += [{**on, "viewings": choice} for choice in rb.options["viewings"].choices
                    if choice != "off"]
        return on, ons

    def _turned_off(self, yaku_id: str) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
        """The options proposed to a table that answers "not played", and every way a table
        turns the yaku off (rb.yaku_off): a switch off, an option on that drops it
        (FudaWiki's older yaku), the viewings off (a viewing yaku)."""
        rb = self.rb
        switches = rb.switches.get(yaku_id, ())
        drops = [spec.id for spec in rb.options.values() if yaku_id in spec.drops]
        offs = ([{option: False} for option in switches] + [{option: True} for option in drops]
                + ([{"viewings": "off"}] if rb.yaku_by_id[yaku_id].viewing else []))
        proposed = ({option: False for option in switches} or {option: True for option in drops}
                    or (offs[0] if offs else None))
        return proposed, offs

    def _points(self, key: str, yaku_id: str) -> Question:
        rb, terms = self.rb, self.terms

        def at(ruleset: str, settings: Mapping[str, Any]) -> Any:
            value = self._value_at(key, yaku_id, ruleset, settings)
            return value.points if hasattr(value, "points") else value

        values = {r: at(r, {}) for r in rb.rulesets}
        (switched_on, ons), (not_played, offs) = self._turned_on(yaku_id), self._turned_off(yaku_id)
        # the values a table plays as its ruleset does, or when it turns the yaku on (the
        # ruleset's, where it lists the yaku off by default; else the option's), or off
        # ("not played", even where every ruleset plays the yaku)
        known = {at(r, table) for r in rb.rulesets for table in ({}, *ons, *offs)} - {UNKNOWN}
        answers = [Answer(str(p), p, ngettext("%(num)s point", "%(num)s points", p))
                   for p in sorted(v for v in known if v != NOT_PLAYED)]
        if NOT_PLAYED in known:
            answers.append(Answer(NOT_PLAYED, NOT_PLAYED, gettext("Not played")))

        def settle(candidate: str, answer: Answer) -> dict[str, Any] | None:
            if answer.value == NOT_PLAYED:
                return not_played
            # the first way of turning it on that gives these points
            return next((on for on in ons if at(candidate, on) == answer.value),
                        switched_on or None)

        return Question(key, gettext("How many points is %(yaku)s worth?",
                                     yaku=terms.yaku(yaku_id)),
                        tuple(answers), values, hint=terms.needs(rb.yaku_by_id[yaku_id]),
                        settle=settle, at=at)

    def _extra(self, key: str, yaku_id: str) -> Question:
        rb = self.rb

        def at(ruleset: str, settings: Mapping[str, Any]) -> Any:
            value = self._value_at(key, yaku_id, ruleset, settings)
            if not hasattr(value, "extra"):
                return UNKNOWN
            return rb.earns_extra(yaku_id, value, self._table(ruleset, settings))

        fixing = [spec.id for spec in rb.options.values() if yaku_id in spec.fixed]

        def settle(candidate: str, answer: Answer) -> dict[str, Any] | None:
            return {option: True for option in fixing} if answer.value is False and fixing \
                else None

        answers = (Answer("1", True, gettext("Yes")), Answer("0", False, gettext("No")))
        return Question(key + EXTRA, gettext(
            "Does %(yaku)s score a point more for each card beyond the ones it needs?",
            yaku=self.terms.yaku(yaku_id)), answers, {r: at(r, {}) for r in rb.rulesets},
            settle=settle, at=at)

    # -- two yaku of one group that may both score ------------------------------------------
    def _together(self, group_key: str, pair: tuple[str, str]) -> Question:
        rb = self.rb
        first, second = pair

        def at(ruleset: str, settings: Mapping[str, Any]) -> Any:
            if any(self._value_at(f"yaku.{y}", y, ruleset, settings) == NOT_PLAYED
                   for y in pair) or not self._documented(ruleset, group_key):
                return UNKNOWN  # a ruleset without one of them has no answer to give
            return frozenset(pair) in rb.stacks_at(ruleset, self._table(ruleset, settings))

        stacking = [spec.id for spec in rb.options.values() if frozenset(pair) in spec.stacks]

        def settle(candidate: str, answer: Answer) -> dict[str, Any] | None:
            return {option: True for option in stacking} if answer.value is True and stacking \
                else None

        answers = (Answer("1", True, gettext("Yes, both score")),
                   Answer("0", False, gettext("No, only the one worth more scores")))
        text = gettext("When a player has both “%(first)s” and “%(second)s”, do both score?",
                       first=self.terms.yaku(first), second=self.terms.yaku(second))
        return Question(_pair_key(pair), text, answers, {r: at(r, {}) for r in rb.rulesets},
                        settle=settle, at=at)

    # -- a table option -------------------------------------------------------------------
    def _option(self, key: str, option: str) -> Question:
        rb = self.rb
        spec = rb.options[option]

        def at(ruleset: str, settings: Mapping[str, Any]) -> Any:
            if option not in settings and not self._documented(ruleset, key):
                return UNKNOWN
            return self._table(ruleset, settings)[option]

        values = {r: at(r, {}) for r in rb.rulesets}
        if spec.choices is not None:
            offered = list(spec.choices) + ([None] if spec.nullable else [])
        else:  # a number: the values the rulesets play (documented or the referee's default),
            # then no limit
            used = {self._table(r, {})[option] for r in rb.rulesets}
            # no limit is an answer whenever the referee accepts it, used or not
            offered = sorted(v for v in used if v is not None) + (
                [None] if None in used or spec.nullable else [])
        answers = tuple(Answer(encode(v), v, str(ANSWERS.get((option, v)) or
                                                  _option_answer(option, v)))
                        for v in offered)
        text = QUESTIONS.get(option)
        if text is None:
            label = OPTION_LABELS.get(option) or spec.label
            text = (gettext("Do you play “%(option)s”?", option=label)
                    if set(spec.choices or ()) == {True, False}
                    else gettext("“%(option)s”: how does your table play it?", option=label))

        def settle(candidate: str, answer: Answer) -> dict[str, Any]:
            return {option: answer.value}

        return Question(key, str(text), answers, values, settle=settle, at=at)

    # -- what the finder's answers set ------------------------------------------------------
    def refused(self, candidate: str, settings: dict[str, Any]) -> set[str]:
        """Ask the referee about a round with these options: the ones it refuses."""
        answer = referee({"game": "koikoi", "ruleset": candidate, "options": settings,
                          "rounds": [{"winner": None, "koikoi": {"a": 0, "b": 0}}]},
                         self.lang, self.rb)
        refused = set()
        for error in answer.get("errors", ()):
            parts = error["path"].strip("/").split("/")
            if parts[0] == "options" and len(parts) > 1 and parts[1] in settings:
                refused.add(parts[1])
        return refused

    def query(self, candidate: str, settings: dict[str, Any]) -> dict[str, str]:
        return {"ruleset": candidate, **{key: encode(v) for key, v in settings.items()}}

    def named(self, settings: dict[str, Any]) -> str:
        """The options the answers set, by name and value, as the rules pages name them (an
        answer about yaku can set an option whose name it does not say: the older yaku);
        plain text, escaped where it is shown."""
        return self.terms.listed(
            self.terms.gettext(LABELLED) % {"label": OPTION_LABELS[key],
                                            "value": option_label(key, value)}
            for key, value in settings.items())


def _pair_key(pair: tuple[str, str]) -> str:
    return f"{TOGETHER}.{pair[0]}.{pair[1]}"


def _option_answer(option: str, value: Any) -> str:
    if value is True:
        return gettext("Yes")
    if value is False:
        return gettext("No")
    if option in POINTS and isinstance(value, int):
        return ngettext("%(num)s point", "%(num)s points", value)
    return option_label(option, value)


def finder(rb: Any, lang: str) -> KoikoiFinder:
    return KoikoiFinder(rb, lang)

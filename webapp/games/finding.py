"""Finding the ruleset (or edition) a table plays from a few answers; no Flask here.

A game's finder (`WebGame.finder`, in webapp/games/<slug>/finder.py) lists every fact its
rulebook compares as a `Question`, with each candidate's value; `choose` picks the ones
that split the candidates best, `nearest` names the candidate nearest the answers. An
answer that differs from it becomes a table option where an option can say it (and the
referee accepts it), else it is named as a difference no option changes. The page is
webapp/pages/finder.py.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Protocol

from flask_babel import gettext

from .base import short

MAX_QUESTIONS = 6
UNSURE = ""  # the answer "Not sure" (the field left as it is)


class _Unknown:
    """A candidate's value no source documents: an answer neither matches nor misses it."""

    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN: Any = _Unknown()


@dataclass(frozen=True)
class Answer:
    token: str  # its value in the query
    value: Hashable
    label: str


@dataclass(frozen=True)
class Question:
    """One fact the candidates may differ on, asked as a person would ask it."""

    key: str  # the query parameter, the rulebook's key ("yaku.sanko", "option.rounds")
    text: str
    answers: tuple[Answer, ...]
    values: Mapping[str, Any]  # candidate id -> its value (UNKNOWN: not documented)
    hint: str = ""
    # How an answer that differs from the candidate's value changes the settings:
    # (candidate, answer) -> table options, or None when no option can say it.
    settle: Any = None
    # The value at a table that plays the candidate with these options (None: options
    # change nothing this question asks, the value is `values[candidate]`).
    at: Callable[[str, Mapping[str, Any]], Any] | None = None

    def value_at(self, candidate: str, settings: Mapping[str, Any]) -> Any:
        if self.at is None or not settings:
            return self.values.get(candidate, UNKNOWN)
        return self.at(candidate, settings)

    def answer(self, token: str) -> Answer | None:
        return next((a for a in self.answers if a.token == token), None)

    def label_of(self, value: Any) -> str:
        return next((a.label for a in self.answers if a.value == value), str(value))


@dataclass(frozen=True)
class Candidate:
    id: str
    name: str
    about: Any = ""  # where it comes from (sources), in the page's language


class Finder(Protocol):
    """What a game gives the finder page (webapp/games/<slug>/finder.py)."""

    def keys(self) -> list[str]:
        """Every fact the rulebook compares (the questions' keys), in its order."""
        ...

    def candidates(self) -> list[Candidate]: ...

    def questions(self) -> list[Question]: ...

    def refused(self, candidate: str, settings: dict[str, Any]) -> set[str]:
        """The settings (keys) the referee refuses with this candidate."""
        ...

    def query(self, candidate: str, settings: dict[str, Any]) -> dict[str, str]:
        """The page options of the candidate with these settings (one link format)."""
        ...

    def named(self, settings: dict[str, Any]) -> str:
        """The settings as a reader names them, listed ("Brights on the field: Number of
        brights"), as plain text; empty when they set nothing a reader could name."""
        ...


# -- choosing the questions ---------------------------------------------------------------
def _splits(question: Question, a: str, b: str) -> bool:
    va, vb = question.values.get(a, UNKNOWN), question.values.get(b, UNKNOWN)
    return va is not UNKNOWN and vb is not UNKNOWN and va != vb


def _entropy(question: Question, ids: Sequence[str]) -> float:
    """How evenly the question splits the candidates (their values' Shannon entropy)."""
    counts: dict[Any, int] = {}
    for i in ids:
        value = question.values.get(i, UNKNOWN)
        key = ("unknown", i) if value is UNKNOWN else ("value", value)
        counts[key] = counts.get(key, 0) + 1
    total = len(ids)
    return -sum(n / total * math.log2(n / total) for n in counts.values())


def _pattern(question: Question, ids: Sequence[str]) -> tuple:
    """How the question splits the candidates, whatever its values are called."""
    names: dict[Any, int] = {}
    out = []
    for i in ids:
        value = question.values.get(i, UNKNOWN)
        out.append(None if value is UNKNOWN else names.setdefault(value, len(names)))
    return tuple(out)


def choose(questions: Sequence[Question], ids: Sequence[str],
           limit: int = MAX_QUESTIONS) -> list[Question]:
    """At most `limit` questions, in the rulebook's order, chosen one at a time: first those
    that tell apart the most pairs of candidates nothing asked so far tells apart (so k
    candidates that differ at all need at most k - 1 questions); then, for a "not sure"
    to cost less, those that split the candidates in a way no chosen question does, telling
    apart the pairs fewest questions split yet. Ties go to the more even split, then to
    the rulebook's order. A question every candidate answers alike is never asked."""
    pairs = [(a, b) for n, a in enumerate(ids) for b in ids[n + 1:]]
    split = {pair: 0 for pair in pairs}  # how many chosen questions split each pair
    useful = [(i, q) for i, q in enumerate(questions) if any(_splits(q, a, b) for a, b in pairs)]
    chosen: list[tuple[int, Question]] = []
    patterns: set[tuple] = set()

    def score(item: tuple[int, Question]) -> tuple:
        index, q = item
        apart = [pair for pair in pairs if _splits(q, *pair)]
        new = sum(1 for pair in apart if split[pair] == 0)
        spare = sum(1 / (1 + split[pair]) for pair in apart)
        return (new, _pattern(q, ids) not in patterns, spare, _entropy(q, ids), -index)

    while useful and len(chosen) < limit:
        best = max(useful, key=score)
        if score(best)[0] == 0 and not score(best)[1]:
            break  # only splits already asked for remain
        chosen.append(best)
        useful.remove(best)
        patterns.add(_pattern(best[1], ids))
        for pair in pairs:
            if _splits(best[1], *pair):
                split[pair] += 1
    return [q for _, q in sorted(chosen, key=lambda item: item[0])]


# -- reading the answers and naming the nearest candidate -------------------------------
@dataclass
class Found:
    candidate: Candidate
    settings: dict[str, Any]  # the table options the answers set
    changed: list[tuple[Question, Answer]]  # answers that became those options
    differences: list[tuple[Question, Answer, str]]  # answered, its value, no option says so
    ties: list[Candidate] = field(default_factory=list)  # as near as the one named
    learned: bool = False  # named by "where did you learn?"


def read_answers(questions: Sequence[Question], args: Mapping[str, str],
                 notices: list[str]) -> dict[str, Answer]:
    """The answers given (a token no answer has is named in a notice and left out)."""
    answers: dict[str, Answer] = {}
    for q in questions:
        token = args.get(q.key, UNSURE).strip()
        if token == UNSURE:
            continue
        answer = q.answer(token)
        if answer is None:
            notices.append(gettext("“%(value)s” is not an answer to “%(question)s”; it was left "
                                   "out.", value=short(token), question=q.text))
        else:
            answers[q.key] = answer
    return answers


def _fit(finder: Finder, questions: Sequence[Question], answers: Mapping[str, Answer],
         candidate: str) -> tuple[tuple[int, int], dict[str, Any], list, list]:
    """How far the candidate is from the answers: (twice the answers no option can bridge,
    plus the answers about facts no source gives for it: a ruleset we know little of is
    not nearer than one that agrees; then the answers an option bridges), the options, and
    which answers became options or stay differences.

    Each answer that differs proposes the options that could say it (`settle`); of those the
    referee accepts, the fewest that make the table give the most answers are kept: an
    option can say more than one answer (FudaWiki's older yaku fixes points and lets yaku
    score together), or contradict another answer."""
    given = [(q, answers[q.key]) for q in questions if q.key in answers]
    settings = _best_settings(given, candidate, _proposals(finder, given, candidate))
    open_ = _misses(given, candidate, settings)
    unknown = sum(1 for q, _ in given if q.values.get(candidate, UNKNOWN) is UNKNOWN)
    changed = [(q, a) for q, a in given if (q, a) not in open_
               and q.values.get(candidate, UNKNOWN) != a.value
               and q.value_at(candidate, settings) == a.value]
    differences = [(q, a, q.label_of(q.value_at(candidate, settings))) for q, a in open_]
    return (2 * len(open_) + unknown, len(changed)), settings, changed, differences


Given = list[tuple[Question, Answer]]


def _proposals(finder: Finder, given: Given, candidate: str) -> list[dict[str, Any]]:
    """The options each differing answer proposes (`settle`), without those the referee
    refuses with this candidate (they bridge nothing)."""
    proposals: list[dict[str, Any]] = []
    for q, answer in given:  # a fact no source gives for it is the table's to say
        if q.values.get(candidate, UNKNOWN) == answer.value or not q.settle:
            continue
        options = q.settle(candidate, answer)
        if options and options not in proposals:
            proposals.append(options)
    if proposals:
        refused = finder.refused(candidate, {k: v for p in proposals for k, v in p.items()})
        proposals = [p for p in proposals if not refused & set(p)]
    return proposals


def _misses(given: Given, candidate: str, settings: dict[str, Any]) -> Given:
    """The answers the table does not give (a fact an option makes unknown, say a yaku
    it drops, is not given either)."""
    return [(q, a) for q, a in given if (v := q.value_at(candidate, settings)) != a.value
            and (v is not UNKNOWN or q.values.get(candidate, UNKNOWN) is not UNKNOWN)]


def _best_settings(given: Given, candidate: str,
                   proposals: list[dict[str, Any]]) -> dict[str, Any]:
    """Of the proposals, the fewest options that make the table give the most answers
    (and leave the fewest unsaid)."""
    best: tuple[int, int, int] | None = None
    settings: dict[str, Any] = {}
    for size in range(len(proposals) + 1):
        for chosen in combinations(proposals, size):
            trial = {k: v for p in chosen for k, v in p.items()}
            if len(trial) != sum(len(p) for p in chosen):
                continue  # two proposals set one option differently
            unsaid = sum(1 for q, _ in given if q.value_at(candidate, trial) is UNKNOWN)
            rank = (len(_misses(given, candidate, trial)), unsaid, len(trial))
            if best is None or rank < best:
                best, settings = rank, trial
    return settings


def nearest(finder: Finder, questions: Sequence[Question], answers: Mapping[str, Answer],
            learned: str | None = None) -> Found:
    """The candidate nearest the answers (or the one named), in the rulebook's order on a tie."""
    candidates = finder.candidates()
    pool = [c for c in candidates if c.id == learned] or candidates
    fits = {c.id: _fit(finder, questions, answers, c.id) for c in pool}
    best = min(pool, key=lambda c: fits[c.id][0])
    distance, settings, changed, differences = fits[best.id]
    ties = [c for c in pool if c.id != best.id and fits[c.id][0] == distance]
    return Found(best, settings, changed, differences, ties, learned == best.id)



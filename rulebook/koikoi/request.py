"""Reading a Koi-Koi request: every problem at once, each with a stable code, a JSON
pointer into the request, the rule it breaks and a message; or the match, checked, as the
scoring (explain.py) takes it."""
from __future__ import annotations

from typing import Any, NamedTuple

from ..i18n import N_, Np_, listed, translator
from ..players import OTHER, PLAYERS, Names
from ..problems import SHARED, Problem, describe, kind_of, pointer, quoted_list, short
from .messages import Words
from .model import Rulebook
from .quick import quick_round
from .scoring import PileScore, Scorer, ruleset_scorer, scorer_for

MAX_NAME = 40
TOP_FIELDS = frozenset(("game", "ruleset", "options", "players", "start", "rounds"))
START_FIELDS = ("round", "dealer", "totals")
MAX_TOTAL = 10**6
ROUND_FIELDS = ("winner", "captured", "koikoi", "hand", "field_brights")
MAX_START_ROUND = 1000  # the first round listed, in a match without a fixed number of rounds


# -- messages (translated at run time) ---------------------------------------------
MSG_NOT_OBJECT = SHARED["request.not-object"]
MSG_UNKNOWN_FIELD = SHARED["request.unknown-field"]
MSG_MISSING = SHARED["request.missing-field"]
MSG_NOT_OBJECT_FIELD = N_('"{field}" must be an object, not {value}.')
MSG_NOT_LIST = N_('"{field}" must be a list, not {value}.')
MSG_NOT_TEXT = N_('"{field}" must be a text, not {value}.')
MSG_NOT_NUMBER = N_('"{field}" must be a whole number, not {value}.')
MSG_NAME = N_("A player's name must be a text of 1 to {max} characters, not {value}.")
MSG_GAME = SHARED["game.unknown"]
MSG_RULESET = N_("There is no ruleset {value}; choose one of: {choices}.")
MSG_OPTION_UNKNOWN = N_("There is no option {value}; the options are: {choices}.")
MSG_OPTION_VALUE = N_('The option "{option}" cannot be {value}; allowed: {choices}.')
MSG_OPTION_RANGE = N_('The option "{option}" must be a whole number from {min} to {max}{or_null}, not {value}.')
MSG_OR_NULL = N_(" or null")
MSG_OPTION_UNDOCUMENTED = N_(
    'The {ruleset} ruleset does not document the value of {yaku}, so "{option}" cannot be on.'
)
MSG_OPTION_NOT_IN_RULESET = N_(
    'The {ruleset} ruleset has no {yaku}, so "{option}" cannot be set for it.'
)
MSG_VALUE_UNKNOWN = N_(
    "{player}'s pile holds {yaku}, whose value the {ruleset} ruleset does not document, so the "
    "referee cannot score it."
)
MSG_FIELD_BRIGHTS = N_(
    "The number of brights dealt to the field must be a whole number from 0 to {max}, not {value}."
)
MSG_FIELD_BRIGHTS_MISSING = N_(
    "This table multiplies the score by the brights dealt to the field: say how many brights "
    "were dealt face up to the field in this round."
)
MSG_KOIKOI_MINIMUM = Np_(
    "{player} called koi-koi, but their yaku are worth {points} point, fewer than the {minimum} "
    "a call needs at this table.",
    "{player} called koi-koi, but their yaku are worth {points} points, fewer than the "
    "{minimum} a call needs at this table.",
)
MSG_MISDEAL = N_(
    "{player}'s dealt hand holds {yaku}: at this table that is a misdeal, so these cards were "
    "dealt again and never played. List the round as it was dealt again."
)
MSG_NO_ROUND_LIMIT = N_(
    "A match without a fixed number of rounds needs a target: set \"Points to win the match\"."
)
MSG_ROUNDS_EMPTY = N_("List at least one round.")
MSG_ROUNDS_TOO_MANY = Np_(
        "The referee checks at most {limit} round in one request.",
        "The referee checks at most {limit} rounds in one request.",
    )
MSG_AFTER_END = Np_(
        "The match was agreed at {total} round, so round {round} cannot be played.",
        "The match was agreed at {total} rounds, so round {round} cannot be played.",
    )
MSG_WINNER = N_('The winner must be "a", "b" or null (no winner), not {value}.')
MSG_CARD_UNKNOWN = N_(
    '{value} is not a card: give a number from 0 to {last} or a card name such as "{example}".'
)
MSG_CARD_DUPLICATE = N_("{card} is listed twice in {player}'s pile.")
MSG_HAND_DUPLICATE = N_("{card} is listed twice in {player}'s dealt hand.")
MSG_BOTH_PILES = N_("{card} cannot be in both piles: every card exists only once.")
MSG_BOTH_HANDS = N_("{card} cannot be dealt to both players: every card exists only once.")
MSG_MONTH_COUNT = Np_(
        "{player}'s pile holds {count} card of the {month} month ({number}), but captures "
        "always take a same-month pair or all four.",
        "{player}'s pile holds {count} cards of the {month} month ({number}), but captures "
        "always take a same-month pair or all four.",
    )
MSG_KOIKOI_TYPE = N_("A koi-koi count must be a whole number from 0 to {max}, not {value}.")
MSG_KOIKOI_TOO_MANY = Np_(
        "{player} may call koi-koi at most {limit} time in a round.",
        "{player} may call koi-koi at most {limit} times in a round.",
    )
MSG_KOIKOI_NO_YAKU = N_("{player} called koi-koi, but their pile holds no yaku.")
MSG_WINNER_NO_YAKU = N_("{player} is named the winner, but their pile holds no yaku.")
MSG_HAND_SIZE = Np_(
        "A dealt hand holds {size} card; this one lists {count}.",
        "A dealt hand holds {size} cards; this one lists {count}.",
    )
MSG_HAND_PLAYED = N_(
    "{player}'s dealt hand holds {yaku}, which wins the round at the deal, so no cards can "
    "have been captured."
)
MSG_HAND_OTHER_WON = N_(
    "{player}'s dealt hand holds {yaku}, which wins the round at the deal, so {other} cannot "
    "have won it."
)
MSG_HAND_RAN_OUT = N_(
    "{player}'s dealt hand holds {yaku}, which wins the round at the deal, so the cards cannot "
    "have run out."
)
MSG_HAND_NO_CALL = N_(
    "{player} cannot have called koi-koi: a hand yaku ended the round at the deal, before "
    "anyone played a card."
)
MSG_BOTH_HAND_YAKU = N_(
    "Both players were dealt a hand yaku, so the round is a draw: give no winner."
)
MSG_START_ROUND = N_(
    "The first round listed must be a round of the match: a whole number from 1 to {total}, "
    "not {value}."
)
MSG_START_DEALER = N_('The dealer is "a" or "b", not {value}.')
MSG_START_TOTAL = N_("A total so far is a whole number of points from 0 up, not {value}.")
MSG_START_TOTAL_SIGNED = N_(
    "A total so far is a whole number of points (below zero when points are taken from the "
    "other player), not {value}."
)


class Match(NamedTuple):
    """A checked request: what the scoring needs."""

    ruleset: str
    options: dict[str, Any]
    scorer: Scorer  # the ruleset's and options' yaku, as the checks used them
    start: dict[str, Any]  # round, dealer, totals
    rounds: list[dict[str, Any]]


def _listed(captured: Any) -> frozenset[str]:
    if not isinstance(captured, dict):
        return frozenset()
    return frozenset(p for p in PLAYERS if p in captured)


def _choices(values: Any, t: Any) -> str:
    """The allowed values of a field, each as a message shows a value."""
    return listed((describe(v, t) for v in values), t)


class RequestCheck(Words):
    """One request read: `run` gives the match, or None with `problems` filled in."""

    def __init__(self, rb: Rulebook, lang: str):
        super().__init__(rb, translator(lang), Names(lang), lang)
        self.problems: list[Problem] = []
        self.quick = quick_round(rb)

    def add(self, code: str, path: tuple[Any, ...], rule: str, template: str, **values: Any) -> None:
        message = self.g(template, **values)
        self.problems.append(Problem(code, pointer(*path), rule, message, kind_of(code)))

    def addn(self, code: str, path: tuple, rule: str, forms: tuple[str, str], n: int, **values: Any) -> None:
        text = self.n(forms, n, **values)
        self.problems.append(Problem(code, pointer(*path), rule, text, kind_of(code)))

    def run(self, request: Any) -> Match | None:
        rb = self.rb
        if not isinstance(request, dict):
            self.add("request.not-object", (), "referee.request", MSG_NOT_OBJECT)
            return None
        for key in request:
            if key not in TOP_FIELDS:
                self.add("request.unknown-field", (key,), "referee.request", MSG_UNKNOWN_FIELD,
                         field=short(key))
        self.check_game(request)
        ruleset = self.check_ruleset(request)
        options, options_ok = self.check_options(request, ruleset)
        self.check_players(request)
        self.check_start(request.get("start", {}), options)
        rounds = self.check_rounds_list(request, options)
        parsed = [self.check_round(i, rnd, options) for i, rnd in enumerate(rounds)]
        if not options_ok or self.problems:
            return None
        # A table that chose no option plays the ruleset's own: its scorer is found by the
        # ruleset alone (scorer_for would build a key of every option the scoring reads).
        scorer = scorer_for(rb, ruleset, options) if self.chosen else ruleset_scorer(rb, ruleset)
        self.ruleset = ruleset
        for i, rnd in enumerate(parsed):
            if rnd is not None:
                self.check_round_yaku(i, rnd, scorer, options)
        if self.problems:
            return None
        return Match(ruleset, options, scorer, self.start, parsed)

    def check_game(self, request: dict) -> None:
        if "game" not in request:
            self.add("request.missing-field", ("game",), "referee.request", MSG_MISSING, field="game")
        elif request["game"] != "koikoi":
            self.add("game.unknown", ("game",), "referee.request", MSG_GAME,
                     value=describe(request["game"], self.t), games=quoted_list(["koikoi"], self.t))

    def check_ruleset(self, request: dict) -> str:
        rb = self.rb
        if "ruleset" not in request:
            return rb.default_ruleset
        value = request["ruleset"]
        if not isinstance(value, str):
            self.add("request.type", ("ruleset",), "referee.request", MSG_NOT_TEXT, field="ruleset",
                     value=describe(value, self.t))
        elif value in rb.rulesets:
            return value
        else:
            self.add("ruleset.unknown", ("ruleset",), "referee.request", MSG_RULESET,
                     value=describe(value, self.t), choices=_choices(rb.rulesets, self.t))
        return rb.default_ruleset

    def check_options(self, request: dict, ruleset: str) -> tuple[dict[str, Any], bool]:
        rb = self.rb
        raw = request.get("options", {})
        ok = True
        if not isinstance(raw, dict):
            self.add("request.type", ("options",), "referee.request", MSG_NOT_OBJECT_FIELD,
                     field="options", value=describe(raw, self.t))
            raw, ok = {}, False
        chosen: dict[str, Any] = {}
        for key, value in raw.items():
            spec = rb.options.get(key)
            if spec is None:
                self.add("option.unknown", ("options", key), "referee.request",
                         MSG_OPTION_UNKNOWN, value=describe(key, self.t), choices=_choices(rb.options, self.t))
                ok = False
            elif not spec.accepts(value):
                ok = False
                if spec.choices is not None:
                    self.add("option.value", ("options", key), spec.rule, MSG_OPTION_VALUE, option=self.t.gettext(spec.label),
                             value=describe(value, self.t), choices=_choices(spec.choices, self.t))
                else:
                    self.add("option.value", ("options", key), spec.rule, MSG_OPTION_RANGE, option=self.t.gettext(spec.label),
                             min=spec.int_min, max=spec.int_max, value=describe(value, self.t),
                             or_null=self.g(MSG_OR_NULL) if spec.nullable else "")
            else:
                chosen[key] = value
        self.chosen = chosen
        if chosen:  # (the ruleset's own values need no check: most requests choose none)
            ok = self.check_not_in_ruleset(ruleset, chosen) and ok
        options = rb.effective_options(ruleset, chosen)
        if options["rounds"] is None and options["match_target"] is None:
            path = ("options", "rounds") if "rounds" in chosen else ("options", "match_target")
            self.add("option.value", path, rb.options["match_target"].rule, MSG_NO_ROUND_LIMIT)
            ok = False
        return options, (self.check_switches(ruleset, chosen) if chosen else True) and ok

    def check_not_in_ruleset(self, ruleset: str, chosen: dict[str, Any]) -> bool:
        """options.not-in-ruleset: an option about yaku the ruleset lacks keeps its value."""
        rb = self.rb
        ok = True
        for key, value in chosen.items():
            spec = rb.options[key]
            if rb.applies(ruleset, key) or value == spec.inapplicable:
                continue
            self.add("option.not-in-ruleset", ("options", key), "options.not-in-ruleset",
                     MSG_OPTION_NOT_IN_RULESET, ruleset=self.ruleset_name(ruleset),
                     yaku=self.yaku_names(spec.concerns), option=self.t.gettext(spec.label))
            ok = False
        return ok

    def check_switches(self, ruleset: str, chosen: dict[str, Any]) -> bool:
        """A table cannot switch on a yaku whose value the ruleset does not document (a
        ruleset's own default may: the referee then refuses a pile that holds it)."""
        rb = self.rb
        ok = True
        for key, value in chosen.items():
            spec = rb.options[key]
            if value is not True:
                continue
            for yaku_id in spec.switches:
                found = rb.table_value(ruleset, yaku_id)
                if found is not None and found.points is None:
                    self.add("option.value", ("options", key), spec.rule, MSG_OPTION_UNDOCUMENTED,
                             ruleset=self.ruleset_name(ruleset), yaku=self.yaku_name(yaku_id),
                             option=self.t.gettext(spec.label))
                    ok = False
                    break
        return ok

    def check_players(self, request: dict) -> None:
        if "players" not in request:
            return
        raw = request["players"]
        if not isinstance(raw, dict):
            self.add("request.type", ("players",), "referee.request", MSG_NOT_OBJECT_FIELD,
                     field="players", value=describe(raw, self.t))
            return
        for key, value in raw.items():
            if key not in PLAYERS:
                self.add("request.unknown-field", ("players", key), "referee.request", MSG_UNKNOWN_FIELD,
                         field=short(key))
            elif not isinstance(value, str) or not value.strip() or len(value) > MAX_NAME:
                self.add("request.type", ("players", key), "referee.request", MSG_NAME, max=MAX_NAME,
                         value=describe(value, self.t))
            else:
                self.names.set(key, value.strip())

    def check_start(self, raw: Any, options: dict[str, Any]) -> None:
        """Where the listed rounds begin: the round of the match, its dealer, the totals so
        far (a checker scoring one round of a longer match sends these)."""
        rb = self.rb
        points = options["start_points"]
        self.start = {"round": 1, "dealer": rb.first_dealer, "totals": {"a": points, "b": points}}
        if not isinstance(raw, dict):
            self.add("request.type", ("start",), "referee.start", MSG_NOT_OBJECT_FIELD,
                     field="start", value=describe(raw, self.t))
            return
        if not raw:  # nothing given: the match's first round, as above
            return
        for key in raw:
            if key not in START_FIELDS:
                self.add("request.unknown-field", ("start", key), "referee.start",
                         MSG_UNKNOWN_FIELD, field=short(key))
        number = raw.get("round", 1)
        last = options["rounds"] or MAX_START_ROUND
        if type(number) is not int:
            self.add("request.type", ("start", "round"), "referee.start", MSG_NOT_NUMBER,
                     field="round", value=describe(number, self.t))
        elif not 1 <= number <= last:
            self.add("start.round", ("start", "round"), "referee.start", MSG_START_ROUND,
                     total=last, value=describe(number, self.t))
        else:
            self.start["round"] = number
        dealer = raw.get("dealer", rb.first_dealer)
        if dealer in PLAYERS:
            self.start["dealer"] = dealer
        else:
            self.add("start.dealer", ("start", "dealer"), "referee.start", MSG_START_DEALER,
                     value=describe(dealer, self.t))
        totals = raw.get("totals", {})
        if not isinstance(totals, dict):
            self.add("request.type", ("start", "totals"), "referee.start", MSG_NOT_OBJECT_FIELD,
                     field="totals", value=describe(totals, self.t))
            return
        # Points taken from the other player can take a total below zero (options.zero-sum).
        lowest, message = (-MAX_TOTAL, MSG_START_TOTAL_SIGNED) if options["zero_sum"] else (
            0, MSG_START_TOTAL)
        for key, value in totals.items():
            if key not in PLAYERS:
                self.add("request.unknown-field", ("start", "totals", key), "referee.start",
                         MSG_UNKNOWN_FIELD, field=short(key))
            elif type(value) is not int:
                self.add("request.type", ("start", "totals", key), "referee.start",
                         MSG_NOT_NUMBER, field=key, value=describe(value, self.t))
            elif not lowest <= value <= MAX_TOTAL:
                self.add("start.total", ("start", "totals", key), "referee.start",
                         message, value=describe(value, self.t))
            else:
                self.start["totals"][key] = value

    def check_rounds_list(self, request: dict, options: dict[str, Any]) -> list[Any]:
        rb = self.rb
        if "rounds" not in request:
            self.add("request.missing-field", ("rounds",), "referee.request", MSG_MISSING, field="rounds")
            return []
        rounds = request["rounds"]
        if not isinstance(rounds, list):
            self.add("request.type", ("rounds",), "referee.request", MSG_NOT_LIST, field="rounds",
                     value=describe(rounds, self.t))
            return []
        if not rounds:
            self.add("rounds.empty", ("rounds",), "referee.request", MSG_ROUNDS_EMPTY)
            return []
        if len(rounds) > rb.max_rounds:
            self.addn("rounds.too-many", ("rounds",), "referee.limits", MSG_ROUNDS_TOO_MANY,
                      rb.max_rounds, limit=rb.max_rounds)
            return []
        total, first = options["rounds"], self.start["round"]
        if total is None:  # a match to a target ends when it is reached (explain.py checks)
            return rounds
        for i in range(max(0, total - first + 1), len(rounds)):
            self.addn("round.after-end", ("rounds", i), "match.rounds", MSG_AFTER_END, total,
                      total=total, round=first + i)
        return rounds

    def parse_cards(self, value: Any, path: tuple, field: str) -> list[tuple[int, int]] | None:
        """[(position, card index)] of the valid cards; None if `value` is not a list."""
        if not isinstance(value, list):
            self.add("request.type", path, "referee.request", MSG_NOT_LIST, field=field, value=describe(value, self.t))
            return None
        rb = self.rb
        out = []
        for j, item in enumerate(value):
            if type(item) is int and 0 <= item < len(rb.cards):
                out.append((j, item))
            elif isinstance(item, str) and item in rb.card_by_slug:
                out.append((j, rb.card_by_slug[item]))
            else:
                self.add("card.unknown", (*path, j), "referee.cards", MSG_CARD_UNKNOWN,
                         value=describe(item, self.t), last=len(rb.cards) - 1, example=rb.cards[0].slug)
        return out

    def check_round(self, i: int, rnd: Any, options: dict[str, Any]) -> dict[str, Any] | None:
        quick = self.quick.read(rnd, options["koikoi_limit"])  # a round with nothing wrong
        if quick is not None:
            return quick
        rb = self.rb
        before = len(self.problems)
        if not isinstance(rnd, dict):
            self.add("request.type", ("rounds", i), "referee.request", MSG_NOT_OBJECT_FIELD,
                     field=f"rounds[{i}]", value=describe(rnd, self.t))
            return None
        for key in rnd:
            if key not in ROUND_FIELDS:
                self.add("request.unknown-field", ("rounds", i, key), "referee.request", MSG_UNKNOWN_FIELD,
                         field=short(key))
        winner = rnd.get("winner")
        if "winner" not in rnd:
            self.add("request.missing-field", ("rounds", i, "winner"), "referee.request", MSG_MISSING, field="winner")
        elif winner is not None and winner not in PLAYERS:
            self.add("winner.value", ("rounds", i, "winner"), "round.winner-needs-yaku", MSG_WINNER,
                     value=describe(winner, self.t))
            winner = None
        piles = {p: (0, 0) for p in PLAYERS}
        if "captured" in rnd:
            piles = self.check_piles(i, rnd["captured"], "captured", MSG_CARD_DUPLICATE, MSG_BOTH_PILES)
        hands = None
        if "hand" in rnd:
            hands = self.check_piles(i, rnd["hand"], "hand", MSG_HAND_DUPLICATE, MSG_BOTH_HANDS)
            for p, cards in (hands or {}).items():
                if cards[1] != rb.hand_size:
                    self.addn("hand.size", ("rounds", i, "hand", p), "deal.hands", MSG_HAND_SIZE,
                              rb.hand_size, size=rb.hand_size, count=cards[1])
        if piles is not None:
            for p, (mask, _) in piles.items():
                for number, month_mask in rb.month_masks.items():
                    count = (mask & month_mask).bit_count()
                    if count % 2:
                        self.addn("pile.month-count", ("rounds", i, "captured", p), "capture.pairs",
                                  MSG_MONTH_COUNT, count, player=self.names[p], count=count,
                                  month=self.month_name(number), number=number)
        calls = {"a": 0, "b": 0}
        if "koikoi" in rnd:
            calls = self.check_koikoi(i, rnd["koikoi"], options)
        brights = rnd.get("field_brights")
        most = min(rb.kind_masks["bright"].bit_count(), rb.field_size)
        if brights is not None and (type(brights) is not int or not 0 <= brights <= most):
            self.add("round.field-brights", ("rounds", i, "field_brights"),
                     rb.options["field_multiplier"].rule, MSG_FIELD_BRIGHTS, max=most,
                     value=describe(brights, self.t))
        if len(self.problems) != before:
            return None
        return {
            "winner": winner,
            "piles": {p: piles[p][0] for p in PLAYERS} if piles else {"a": 0, "b": 0},
            # The players whose pile the request lists; an unlisted pile is unknown, not empty.
            "listed": _listed(rnd.get("captured")),
            "hands": {p: hands[p][0] for p in hands} if hands else {},
            "calls": calls,
            "field_brights": brights,
        }

    def check_piles(self, i: int, raw: Any, field: str, dup_msg: str, both_msg: str):
        """{player: (mask, number of listed cards)} or None when not an object."""
        if not isinstance(raw, dict):
            self.add("request.type", ("rounds", i, field), "referee.request", MSG_NOT_OBJECT_FIELD,
                     field=field, value=describe(raw, self.t))
            return None
        for key in raw:
            if key not in PLAYERS:
                self.add("request.unknown-field", ("rounds", i, field, key), "referee.request",
                         MSG_UNKNOWN_FIELD, field=short(key))
        out: dict[str, tuple[int, int]] = {}
        seen_by: dict[int, str] = {}
        for p in PLAYERS:
            if p not in raw:
                if field == "captured":
                    out[p] = (0, 0)
                continue
            cards = self.parse_cards(raw[p], ("rounds", i, field, p), p)
            if cards is None:
                continue
            mask = 0
            for j, index in cards:
                bit = 1 << index
                path = ("rounds", i, field, p, j)
                if mask & bit:
                    self.add("card.duplicate", path, "deck.months", dup_msg,
                             card=self.card_label(index), player=self.names[p])
                elif index in seen_by:
                    self.add("card.both-piles", path, "deck.months", both_msg, card=self.card_label(index))
                mask |= bit
                seen_by.setdefault(index, p)
            out[p] = (mask, len(raw[p]))
        return out

    def check_koikoi(self, i: int, raw: Any, options: dict[str, Any]) -> dict[str, int]:
        rb = self.rb
        calls = {"a": 0, "b": 0}
        if not isinstance(raw, dict):
            self.add("koikoi.type", ("rounds", i, "koikoi"), "koikoi.call", MSG_NOT_OBJECT_FIELD,
                     field="koikoi", value=describe(raw, self.t))
            return calls
        limit = options["koikoi_limit"]
        # A player makes at most one call per turn, and has `hand_size` turns in a round.
        hard = rb.hand_size
        for key, value in raw.items():
            path = ("rounds", i, "koikoi", key)
            if key not in PLAYERS:
                self.add("request.unknown-field", path, "referee.request", MSG_UNKNOWN_FIELD,
                         field=short(key))
            elif type(value) is not int or value < 0 or value > hard:
                if type(value) is int and value > hard:
                    self.addn("koikoi.too-many", path, "koikoi.call", MSG_KOIKOI_TOO_MANY, hard,
                              player=self.names[key], limit=hard)
                else:
                    self.add("koikoi.type", path, "koikoi.call", MSG_KOIKOI_TYPE, max=hard,
                             value=describe(value, self.t))
            elif limit is not None and value > limit:
                self.addn("koikoi.too-many", path, "koikoi.limit", MSG_KOIKOI_TOO_MANY, limit,
                          player=self.names[key], limit=limit)
            else:
                calls[key] = value
        return calls

    def check_round_yaku(self, i: int, rnd: dict[str, Any], scorer: Scorer, options: dict) -> None:
        rb = self.rb
        winner = rnd["winner"]
        piles = rnd["piles"]
        rnd["month"] = month = rb.round_month(self.start["round"] + i)
        rnd["scores"] = scores = {p: scorer.score_pile(piles[p], month) for p in PLAYERS}
        rnd["hand_win"], rnd["hand_draw"], rnd["hands_ignored"] = None, False, False
        lucky = {p: hs for p, hand in rnd["hands"].items()
                 if (hs := scorer.score_hand(hand)).scored} if rnd["hands"] else {}
        if lucky and options["lucky_hands"] == "misdeal":
            for p, hand_score in lucky.items():
                self.add("hand.misdeal", ("rounds", i, "hand", p), "options.lucky-hands",
                         MSG_MISDEAL, player=self.names[p],
                         yaku=self.yaku_names(s.yaku.id for s in hand_score.scored))
            return
        if len(lucky) == len(PLAYERS) and options["both_lucky_hands"] == "play_on":
            rnd["hands_ignored"], lucky = True, {}
        if lucky:
            self.check_hand_yaku(i, rnd, lucky)
            return
        if winner is not None and scores[winner].unknown:
            self.add("yaku.value-unknown", ("rounds", i, "captured", winner), "referee.request",
                     MSG_VALUE_UNKNOWN, player=self.names[winner],
                     yaku=self.yaku_names(y.id for y in scores[winner].unknown),
                     ruleset=self.ruleset_name(self.ruleset))
        elif winner is not None and not scores[winner].scored:
            self.add("winner.no-yaku", ("rounds", i, "winner"), "round.winner-needs-yaku",
                     MSG_WINNER_NO_YAKU, player=self.names[winner])
        elif winner is not None and rnd["field_brights"] is None and rb.field_modes[
                options["field_multiplier"]].counts:
            self.add("round.field-brights", ("rounds", i, "field_brights"),
                     rb.options["field_multiplier"].rule, MSG_FIELD_BRIGHTS_MISSING)
        minimum = options["koikoi_minimum"]
        for p in PLAYERS:
            # A call is checked against a pile only when the pile is given (referee.unlisted-pile),
            # and by the pile as it may have been at the call (koikoi.call-time).
            if not rnd["calls"][p] or p not in rnd["listed"]:
                continue
            if not scorer.could_call(piles[p], month):
                self.add("koikoi.no-yaku", ("rounds", i, "koikoi", p), "koikoi.needs-yaku",
                         MSG_KOIKOI_NO_YAKU, player=self.names[p])
            elif minimum is not None and not scores[p].unknown and (
                    worth := scorer.best_base(piles[p], month)) < minimum:
                self.addn("koikoi.minimum", ("rounds", i, "koikoi", p), "koikoi.minimum",
                          MSG_KOIKOI_MINIMUM, worth, player=self.names[p], points=worth,
                          minimum=minimum)

    def check_hand_yaku(self, i: int, rnd: dict[str, Any], lucky: dict[str, PileScore]) -> None:
        """scoring.hand-yaku, round.both-hand-yaku: a hand yaku ends the round at the deal."""
        winner = rnd["winner"]
        both = len(lucky) == len(PLAYERS)
        before = len(self.problems)
        if both and winner is not None:
            self.add("hand.both-lucky", ("rounds", i, "winner"), "round.both-hand-yaku",
                     MSG_BOTH_HAND_YAKU)
        played = any(rnd["piles"].values())
        for p, hand_score in lucky.items():
            path = ("rounds", i, "hand", p)
            names = {"player": self.names[p], "yaku": self.yaku_name(hand_score.scored[0].yaku.id)}
            if not both and winner is None:
                self.add("hand.round-played", path, "scoring.hand-yaku", MSG_HAND_RAN_OUT, **names)
            elif not both and winner != p:
                self.add("hand.round-played", path, "scoring.hand-yaku", MSG_HAND_OTHER_WON,
                         other=self.names[OTHER[p]], **names)
            elif played:
                self.add("hand.round-played", path, "scoring.hand-yaku", MSG_HAND_PLAYED, **names)
        for p in PLAYERS:
            if rnd["calls"][p]:
                self.add("hand.round-played", ("rounds", i, "koikoi", p), "scoring.hand-yaku",
                         MSG_HAND_NO_CALL, player=self.names[p])
        if len(self.problems) == before:
            rnd["hand_draw"] = both
            rnd["hand_win"] = None if both else lucky[winner]

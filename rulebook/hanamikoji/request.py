"""Reading a Hanamikoji request: every field checked, every problem collected at once.

`Reader.read_request()` turns the request document into the reading in force (`Config`),
the start and the raw rounds; `Reader.read_round()` reads one round (its board, or its
action log replayed card by card). Problems carry a code, a JSON pointer, the rule they
break and a message in the request's language (see rulebook/problems.py for the kinds).
"""
from __future__ import annotations

from typing import Any, NamedTuple

from ..i18n import N_, Np_, listed, translator
from ..players import OTHER, PLAYERS, Names
from ..problems import (
    EXPECTED,
    MALFORMED,
    SHARED,
    Problem,
    describe,
    kind_of,
    pointer,
    quote,
    quoted_list,
)
from .model import Action, Rulebook
from .rules import Config
from .terms import action_name, geisha_name

MAX_NAME = 40
REQUEST_FIELDS = {"game", "edition", "variants", "players", "start", "rounds"}
ROUND_FIELDS = {"board", "actions", "removed"}
ACTION_FIELDS = {"player", "action", "cards", "taken"}

# Error messages of this game, by code (the shared ones are in rulebook/problems.py).
M = {
    **SHARED,
    "edition.unknown": N_("Unknown edition {value}; choose one of {choices}."),
    "variant.unknown": N_("Unknown variant {value}; the variants are {choices}."),
    "variant.value": N_("The variant “{variant}” takes {choices}, not {value}."),
    "start.round": N_("The round number must be a whole number from 1 up, not {value}."),
    "start.favor-value": N_("A favour entry is “a”, “b” or null, not {value}."),
    "start.favor-round1": N_("Before round 1 every favour marker stands in the middle."),
    "start.already-won": N_(
        "With these favour markers {player} has already won ({goal}); no round follows."
    ),
    "rounds.empty": N_("Enter at least one round."),
    "round.mode": N_("Give either the board or the action log of the round, not both."),
    "round.mode-missing": N_("Give the board or the action log of the round."),
    "round.after-win": N_(
        "The game already ended after round {round}, won by {player}; no further round is played."
    ),
    "round.after-shared": N_(
        "The game already ended after round {round} with a shared victory; no further round "
        "is played."
    ),
    "round.past-limit": N_("With the three-round limit the game ends after round {limit}."),
    "round.past-edition-limit": N_(
        "The {edition} edition ends the game after round {limit}; switch the three-round limit "
        "off to play on until someone reaches a goal."
    ),
    "board.count": N_("A card count must be a whole number of 0 or more, not {value}."),
    "card.unknown": N_("Unknown card {value}; name a geisha: {choices}."),
    "log.unknown-action": N_("Unknown action {value}; the actions are {choices}."),
    "player.unknown": N_("A player is “a” or “b”, not {value}."),
    "log.wrong-player": N_("It is {expected}’s turn here, not {player}’s."),
    "log.wrong-starter-first": N_(
        "{expected} plays first in round 1, not {player}: the referee calls the player who "
        "starts the first round player A."
    ),
    "log.wrong-starter": N_(
        "{expected} starts round {round}, not {player}: {expected} went second in round "
        "{previous}, and whoever goes second in a round starts the next one."
    ),
    "log.action-reused": N_("{player} has already used {action} in this round."),
    "log.competition-split": N_(
        "{action} needs two sets of two cards, for example [[\"ruri\", \"ruri\"], "
        "[\"iroha\", \"anju\"]]."
    ),
    "log.taken-missing": N_("Say what the opponent took from this {action} in “taken”."),
    "log.taken-not-offered": N_("The opponent took {value}, but it was not offered: {offered}."),
    "log.taken-set": N_("For {action}, “taken” is 0 or 1: the first or the second set."),
    "log.taken-unexpected": N_("{action} gives nothing to the opponent: leave out “taken”."),
}
# Messages with a count in them: (singular, plural) chosen by the language's plural rules.
MP = {
    "players.name": Np_(
        "A player name must be text of 1 to {count} character.",
        "A player name must be text of 1 to {count} characters.",
    ),
    "start.favor-length": Np_(
        "Give the favour of every geisha in table order: {count} entry.",
        "Give the favour of every geisha in table order: {count} entries.",
    ),
    "rounds.too-many": Np_(
        "At most {count} round can be checked at once.",
        "At most {count} rounds can be checked at once.",
    ),
    "board.length": Np_(
        "Give one count per geisha in table order: {count} number.",
        "Give one count per geisha in table order: {count} numbers.",
    ),
    "board.geisha-overflow": Np_(
        "{geisha} has only {count} item card in all, but the table shows {total}.",
        "{geisha} has only {count} item cards in all, but the table shows {total}.",
    ),
    "board.geisha-overflow-removed": Np_(
        "One {geisha} card was put aside, so at most {count} can lie on the table, not {total}.",
        "One {geisha} card was put aside, so at most {count} can lie on the table, not {total}.",
    ),
    "log.too-many-actions": Np_(
        "A round has only {count} action; remove this one.",
        "A round has only {count} actions; remove this one.",
    ),
    "log.card-overflow": Np_(
        "Only {count} {geisha} card is in play this round, but the log has used {total} by here.",
        "Only {count} {geisha} cards are in play this round, but the log has used {total} by here.",
    ),
    "log.removed-mismatch": Np_(
        "The log already uses {count} {geisha} card, so the card put aside cannot be {geisha}.",
        "The log already uses {count} {geisha} cards, so the card put aside cannot be {geisha}.",
    ),
    "log.incomplete": Np_(
        "Round {round} has {given} of its {count} action; only the last round may still be in progress.",
        "Round {round} has {given} of its {count} actions; only the last round may still be in progress.",
    ),
    "board.side-total": Np_(
        "{player}’s side holds {count} card; after a round each side holds exactly {expected}.",
        "{player}’s side holds {count} cards; after a round each side holds exactly {expected}.",
    ),
    "log.card-count": Np_(
        "{action} uses exactly {count} card, not {given}.",
        "{action} uses exactly {count} cards, not {given}.",
    ),
}
GEISHA_IDS = N_("a list of geisha ids")


class Start(NamedTuple):
    round: int
    favor: list[str | None]


class RoundInput(NamedTuple):
    """One round as read: its board (cards per side after scoring), or its log replayed."""

    number: int
    first: str  # who started it
    mode: str  # "board" | "actions"
    board: dict[str, list[int]]
    movers: list[str] | None = None  # action-log rounds: who took each logged action
    removed: int | None = None  # the card put aside, given or inferred (geisha index)
    inferred_removed: bool = False
    progress: dict[str, Any] | None = None  # a log still in progress: whose turn, what is left


class Reader:
    """One request's reading: the problems found, and the names to use in messages."""

    def __init__(self, rb: Rulebook, lang: str):
        self.rb = rb
        self.lang = lang
        self.t = translator(lang)
        self.problems: list[Problem] = []
        self.names = Names(lang)
        self.edition = rb.default_edition

    # -- messages -------------------------------------------------------------------
    def error(self, code: str, path: str, rule: str, **values: Any) -> None:
        if code in MP:  # the message has a count in it: the language's plural form
            singular, plural = MP[code]
            template = self.t.ngettext(singular, plural, values["count"])
        else:
            template = self.t.gettext(M[code])
        message = self.names.cap(template.format(**values))
        self.problems.append(Problem(code, path, rule, message, kind_of(code)))

    def type_error(self, path: str, expected: str, value: Any, rule: str = "referee.request"):
        text = self.t.gettext(EXPECTED.get(expected, expected))
        self.error("request.type", path, rule, expected=text, value=describe(value, self.t))

    def geisha(self, index: int) -> str:
        return geisha_name(self.rb, self.rb.geishas[index].id, self.lang)

    def action(self, action_id: str) -> str:
        return action_name(self.rb, action_id, self.lang, self.edition)

    def edition_label(self, edition: str | None = None) -> str:
        return self.rb.editions[edition or self.edition].name

    @property
    def malformed(self) -> bool:
        return any(p.kind == MALFORMED for p in self.problems)

    # -- the request ----------------------------------------------------------------
    def read_request(self, req: Any) -> tuple[Config, Start, list[Any]] | None:
        if not isinstance(req, dict):
            self.error("request.not-object", "", "referee.request")
            return None
        for key in req:
            if key not in REQUEST_FIELDS:
                self.error("request.unknown-field", pointer(key), "referee.request", field=key)
        if "game" not in req:
            self.error("request.missing-field", "/game", "referee.request", field="game")
        elif req["game"] != "hanamikoji":
            self.error("game.unknown", "/game", "referee.request", value=describe(req["game"], self.t),
                       games=quoted_list(["hanamikoji"], self.t))
        config = self.read_config(req)
        self.read_players(req.get("players", {}))
        start = self.read_start(req.get("start", {}))
        return config, start, self.read_rounds_list(req)

    def read_config(self, req: dict) -> Config:
        rb = self.rb
        edition = req.get("edition", rb.default_edition)
        if not isinstance(edition, str):
            self.type_error("/edition", "text", edition, "edition.action-names")
            edition = rb.default_edition
        elif edition not in rb.editions:
            self.error("edition.unknown", "/edition", "edition.action-names",
                       value=describe(edition, self.t), choices=quoted_list(rb.editions, self.t))
            edition = rb.default_edition
        self.edition = edition
        round_limit = None  # not set by the table: the edition's own rule
        clash = rb.variant_default("simultaneous_goal")
        variants = req.get("variants", {})
        if not isinstance(variants, dict):
            self.type_error("/variants", "object", variants)
            variants = {}
        for name, value in variants.items():
            path = pointer("variants", name)
            spec = rb.variants.get(name)
            if spec is None:
                self.error("variant.unknown", path, "referee.request", value=describe(name, self.t),
                           choices=quoted_list(rb.variants, self.t))
            elif spec["type"] == "boolean" and not isinstance(value, bool):
                self.type_error(path, "boolean", value, spec["rule"])
            elif spec["type"] == "choice" and not isinstance(value, str):
                self.type_error(path, "text", value, spec["rule"])
            elif spec["type"] == "choice" and value not in spec["choices"]:
                self.error("variant.value", path, spec["rule"], variant=self.t.gettext(spec["label"]),
                           choices=quoted_list(spec["choices"], self.t), value=describe(value, self.t))
            elif name == "round_limit":
                round_limit = value
            elif name == "simultaneous_goal":
                clash = value
        return Config(edition,
                      rb.round_limit_default(edition) if round_limit is None else round_limit,
                      rb.clash_winner if clash == "charm" else clash,
                      limit_chosen=round_limit is not None)

    def read_players(self, players: Any) -> None:
        if not isinstance(players, dict):
            self.type_error("/players", "object", players)
            return
        for key, name in players.items():
            path = pointer("players", key)
            if key not in PLAYERS:
                self.error("request.unknown-field", path, "referee.request", field=key)
            elif not isinstance(name, str):
                self.type_error(path, "text", name)
            elif not name.strip() or len(name) > MAX_NAME:
                self.error("players.name", path, "referee.request", count=MAX_NAME)
            else:
                self.names.set(key, name.strip())

    def read_rounds_list(self, req: dict) -> list[Any]:
        rounds = req.get("rounds")
        if "rounds" not in req:
            self.error("request.missing-field", "/rounds", "referee.request", field="rounds")
        elif not isinstance(rounds, list):
            self.type_error("/rounds", "list", rounds)
        elif not rounds:
            self.error("rounds.empty", "/rounds", "referee.request")
        elif len(rounds) > self.rb.max_rounds:
            self.error("rounds.too-many", "/rounds", "referee.limits", count=self.rb.max_rounds)
        else:
            return rounds
        return []

    def read_start(self, start: Any) -> Start:
        n = len(self.rb.geishas)
        favor: list[str | None] = [None] * n
        if not isinstance(start, dict):
            self.type_error("/start", "object", start, "referee.start")
            return Start(1, favor)
        for key in start:
            if key not in ("round", "favor"):
                self.error("request.unknown-field", pointer("start", key), "referee.start", field=key)
        number = start.get("round", 1)
        if type(number) is not int:
            self.type_error("/start/round", "integer", number, "referee.start")
            number = 1
        elif not 1 <= number <= 10**6:
            self.error("start.round", "/start/round", "referee.start", value=describe(number, self.t))
            number = 1
        given = start.get("favor")
        if given is None:
            return Start(number, favor)
        if not isinstance(given, list):
            self.type_error("/start/favor", "list", given, "referee.start")
            return Start(number, favor)
        if len(given) != n:
            self.error("start.favor-length", "/start/favor", "referee.start", count=n)
            return Start(number, favor)
        for i, holder in enumerate(given):
            if holder in PLAYERS:
                favor[i] = holder
            elif holder is not None:
                self.error("start.favor-value", pointer("start", "favor", i), "referee.start",
                           value=describe(holder, self.t))
        if number == 1 and any(favor):
            self.error("start.favor-round1", "/start/favor", "setup.row")
        return Start(number, favor)

    # -- the end of the game --------------------------------------------------------------
    def after_end(self, path: str, ended: int, status: str, winner: str | None,
                  config: Config) -> None:
        """A round listed after the game ended (won, shared, or left open by the limit)."""
        if status == "win":
            self.error("round.after-win", path, "victory.immediate", round=ended,
                       player=self.names[winner])
        elif status == "shared":
            self.error("round.after-shared", path, "victory.immediate", round=ended)
        else:  # undecided: the round limit ended the game and the edition gives no verdict
            self.past_limit(path, config)

    def past_limit(self, path: str, config: Config) -> None:
        if config.limit_chosen:
            self.error("round.past-limit", path, "variant.round-limit", limit=self.rb.round_limit)
        else:  # the edition's own end of the game
            self.error("round.past-edition-limit", path, "variant.round-limit",
                       limit=self.rb.round_limit, edition=self.edition_label(config.edition))

    # -- one round ----------------------------------------------------------------------
    def read_round(self, rnd: Any, path: str, number: int, first: str,
                   is_last: bool) -> RoundInput | None:
        if not isinstance(rnd, dict):
            self.type_error(path, "object", rnd)
            return None
        for key in rnd:
            if key not in ROUND_FIELDS:
                self.error("request.unknown-field", pointer_join(path, key), "referee.request",
                           field=key)
        removed = None
        if "removed" in rnd:
            removed = self.read_card(rnd["removed"], f"{path}/removed")
            if removed is None:
                return None
        if ("board" in rnd) == ("actions" in rnd):
            self.error("round.mode" if "board" in rnd else "round.mode-missing", path,
                       "referee.request")
            return None
        if "board" in rnd:
            board = self.read_board(rnd["board"], f"{path}/board", removed)
            return None if board is None else RoundInput(number, first, "board", board,
                                                         removed=removed)
        return self.read_log(rnd["actions"], f"{path}/actions", number, first, removed, is_last)

    def read_board(self, board: Any, path: str, removed: int | None) -> dict[str, list[int]] | None:
        rb = self.rb
        n = len(rb.geishas)
        if not isinstance(board, dict):
            self.type_error(path, "object", board)
            return None
        for key in board:
            if key not in PLAYERS:
                self.error("request.unknown-field", pointer_join(path, key), "referee.request",
                           field=key)
        counts: dict[str, list[int]] = {}
        clean: dict[str, bool] = {}  # a side whose every count is a whole number >= 0
        for player in PLAYERS:
            side_path = f"{path}/{player}"
            if player not in board:
                self.error("request.missing-field", side_path, "referee.request", field=player)
                continue
            side = board[player]
            if not isinstance(side, list):
                self.type_error(side_path, "list", side)
                continue
            if len(side) != n:
                self.error("board.length", side_path, "referee.request", count=n)
                continue
            clean[player] = True
            for i, value in enumerate(side):
                if type(value) is not int:
                    self.type_error(f"{side_path}/{i}", "integer", value, "components.item-cards")
                    clean[player] = False
                elif value < 0:
                    self.error("board.count", f"{side_path}/{i}", "components.item-cards",
                               value=describe(value, self.t))
                    clean[player] = False
            counts[player] = [v if type(v) is int and v >= 0 else 0 for v in side]
        ok = len(clean) == 2 and all(clean.values())
        if len(counts) == 2:  # check the columns even when another count is bad
            ok = self.check_columns(counts, path, removed) and ok
        for player in PLAYERS:
            if clean.get(player):
                total = sum(counts[player])
                if total != rb.scored_per_side:
                    self.error("board.side-total", f"{path}/{player}", "scoring.eight-cards",
                               count=total, player=self.names[player], expected=rb.scored_per_side)
                    ok = False
        return counts if ok else None

    def check_columns(self, counts: dict[str, list[int]], path: str, removed: int | None) -> bool:
        """No geisha shows more item cards than exist (less the one put aside)."""
        ok = True
        for i, geisha in enumerate(self.rb.geishas):
            total = counts["a"][i] + counts["b"][i]
            limit = geisha.cards - (1 if removed == i else 0)
            if total <= limit:
                continue
            ok = False
            if removed == i:
                self.error("board.geisha-overflow-removed", f"{path}/a/{i}", "deal.remove-one",
                           geisha=self.geisha(i), count=limit, total=total)
            else:
                self.error("board.geisha-overflow", f"{path}/a/{i}", "components.item-cards",
                           geisha=self.geisha(i), count=geisha.cards, total=total)
        return ok

    def read_card(self, value: Any, path: str, rule: str = "components.item-cards") -> int | None:
        if not isinstance(value, str):
            self.type_error(path, "text", value, rule)
            return None
        index = self.rb.geisha_index.get(value)
        if index is None:
            self.error("card.unknown", path, rule, value=describe(value, self.t),
                       choices=quoted_list(self.rb.geisha_index, self.t))
        return index

    # -- an action log --------------------------------------------------------------------
    def read_log(self, log: Any, path: str, round_no: int, first: str, removed: int | None,
                 is_last: bool) -> RoundInput | None:
        """Replay an action log: the cards on each side, or the progress of the round."""
        if not isinstance(log, list):
            self.type_error(path, "list", log)
            return None
        replay = Replay(self, path, round_no, first, removed)
        for k, entry in enumerate(log):
            if not replay.play(k, entry):
                break
        if replay.failed:
            return None
        total_actions = 2 * self.rb.actions_per_player
        if len(log) < total_actions:
            if not is_last:
                self.error("log.incomplete", path, "turn.alternate", round=round_no,
                           given=len(log), count=total_actions)
                return None
            return RoundInput(round_no, first, "actions", replay.sides, replay.movers, removed,
                              progress=replay.progress(len(log)))
        inferred = replay.inferred_removed() if removed is None else None
        return RoundInput(round_no, first, "actions", replay.board(), replay.movers,
                          removed if inferred is None else inferred,
                          inferred_removed=inferred is not None)

    def wrong_starter(self, path: str, round_no: int, expected: str, player: str) -> None:
        """One error that says who starts this round and why (not one per action)."""
        names = {"expected": self.names[expected], "player": self.names[player]}
        if round_no == 1:
            self.error("log.wrong-starter-first", path, "referee.start", **names)
        else:
            self.error("log.wrong-starter", path, "refresh.switch-start", round=round_no,
                       previous=round_no - 1, **names)


class Replay:
    """An action log played card by card: who moved, what each side holds, what is left."""

    def __init__(self, reader: Reader, path: str, round_no: int, first: str,
                 removed: int | None):
        rb = reader.rb
        n = len(rb.geishas)
        self.reader, self.rb, self.path, self.round_no = reader, rb, path, round_no
        self.removed = removed
        self.used = [0] * n  # cards of each geisha seen so far (with the one put aside)
        if removed is not None:
            self.used[removed] += rb.removed
        self.overflowed: set[int] = set()
        self.sides = {"a": [0] * n, "b": [0] * n}
        self.secrets = {"a": [0] * n, "b": [0] * n}  # revealed at scoring
        self.done: dict[str, list[str]] = {"a": [], "b": []}
        self.movers: list[str] = []
        self.expected = first
        self.start_errors = len(reader.problems)

    @property
    def failed(self) -> bool:
        return len(self.reader.problems) > self.start_errors

    def play(self, k: int, entry: Any) -> bool:
        """Read and play action k; False when the log must stop here."""
        reader, rb = self.reader, self.rb
        entry_path = f"{self.path}/{k}"
        total_actions = 2 * rb.actions_per_player
        if k >= total_actions:
            reader.error("log.too-many-actions", entry_path, "turn.alternate", count=total_actions)
            return False
        mover = self.expected
        self.expected = OTHER[mover]
        if not isinstance(entry, dict):
            reader.type_error(entry_path, "object", entry)
            return True
        for key in entry:
            if key not in ACTION_FIELDS:
                reader.error("request.unknown-field", pointer_join(entry_path, key),
                             "referee.request", field=key)
        player = self.read_player(k, entry, entry_path, mover)
        self.movers.append(player)
        action = self.read_action(entry, entry_path, player)
        if action is None:
            return True
        cards = read_cards(reader, entry, entry_path, action)
        if cards is None:
            return True
        self.count_cards(cards, entry_path)
        taken = read_taken(reader, entry, entry_path, action, cards)
        if taken is False:
            return True
        self.place(player, action, cards, taken)
        return True

    def read_player(self, k: int, entry: dict, path: str, mover: str) -> str:
        reader = self.reader
        if "player" not in entry:  # whose turn it is
            return mover
        player = entry["player"]
        if player not in PLAYERS:
            if not isinstance(player, str):
                reader.type_error(f"{path}/player", "text", player, "turn.alternate")
            else:
                reader.error("player.unknown", f"{path}/player", "turn.alternate",
                             value=describe(player, reader.t))
            return mover
        if player != mover and k == 0:
            reader.wrong_starter(f"{path}/player", self.round_no, mover, player)
            self.expected = OTHER[player]  # judge the rest of the log by its own order
        elif player != mover:
            reader.error("log.wrong-player", f"{path}/player", "turn.alternate",
                         expected=reader.names[mover], player=reader.names[player])
        return player

    def read_action(self, entry: dict, path: str, player: str) -> Action | None:
        reader, rb = self.reader, self.rb
        action_id = entry.get("action")
        if "action" not in entry:
            reader.error("request.missing-field", f"{path}/action", "referee.request",
                         field="action")
            return None
        if not isinstance(action_id, str):
            reader.type_error(f"{path}/action", "text", action_id, "turn.each-action-once")
            return None
        action = rb.actions.get(action_id)
        if action is None:
            reader.error("log.unknown-action", f"{path}/action", "turn.each-action-once",
                         value=describe(action_id, reader.t), choices=quoted_list(rb.actions, reader.t))
            return None
        if action_id in self.done[player]:
            reader.error("log.action-reused", f"{path}/action", "turn.each-action-once",
                         player=reader.names[player], action=reader.action(action_id))
        else:
            self.done[player].append(action_id)
        return action

    def count_cards(self, cards: list[list[int]], path: str) -> None:
        """No geisha's cards may be used more often than they exist (less the one put aside)."""
        rb, reader = self.rb, self.reader
        for c in (c for group in cards for c in group):
            self.used[c] += 1
            available = rb.geishas[c].cards
            if self.used[c] <= available or c in self.overflowed:
                continue
            self.overflowed.add(c)
            in_log = self.used[c] - (rb.removed if self.removed == c else 0)
            if self.removed == c and in_log <= available:
                # The log is possible; the named card put aside is what conflicts.
                reader.error("log.removed-mismatch", self.path.rsplit("/", 1)[0] + "/removed",
                             "deal.remove-one", geisha=reader.geisha(c), count=in_log)
            else:
                reader.error("log.card-overflow", f"{path}/cards", "components.item-cards",
                             geisha=reader.geisha(c), total=in_log,
                             count=available - (rb.removed if self.removed == c else 0))

    def place(self, player: str, action: Action, cards: list[list[int]], taken: int | None):
        if action.chooser == "none":
            if action.scored:
                for c in (c for group in cards for c in group):
                    self.secrets[player][c] += 1
            return
        for g, group in enumerate(cards):
            for c in group:
                self.sides[OTHER[player] if g == taken else player][c] += 1

    def progress(self, played: int) -> dict[str, Any]:
        rb = self.rb
        return {
            "to_act": self.expected,
            "action_number": played + 1,
            "actions_left": {p: [a for a in rb.actions if a not in self.done[p]] for p in PLAYERS},
            "draw_pile": rb.draw_pile - played * rb.draw_per_turn,
            "unseen": [g.cards - used for g, used in zip(rb.geishas, self.used)],
        }

    def board(self) -> dict[str, list[int]]:
        """Each side after scoring: placed cards plus the revealed secrets."""
        return {p: [s + x for s, x in zip(self.sides[p], self.secrets[p])] for p in PLAYERS}

    def inferred_removed(self) -> int | None:
        """With every card but one accounted for, the missing one is the card put aside."""
        missing = [i for i, g in enumerate(self.rb.geishas) if self.used[i] < g.cards]
        return missing[0] if len(missing) == 1 and self.rb.removed == 1 else None


def read_cards(reader: Reader, entry: dict, path: str, action: Action) -> list[list[int]] | None:
    """The cards of an action as groups: one group, or one per competition set."""
    cards = entry.get("cards")
    cards_path = f"{path}/cards"
    if "cards" not in entry:
        reader.error("request.missing-field", cards_path, action.rule, field="cards")
        return None
    if not isinstance(cards, list):
        reader.type_error(cards_path, GEISHA_IDS, cards, action.rule)
        return None
    if action.split:
        shaped = len(cards) == len(action.split) and all(
            isinstance(g, list) and len(g) == size for g, size in zip(cards, action.split))
        if not shaped:
            reader.error("log.competition-split", cards_path, action.rule,
                         action=reader.action(action.id))
            return None
        groups = [[reader.read_card(c, f"{cards_path}/{g}/{i}") for i, c in enumerate(group)]
                  for g, group in enumerate(cards)]
    else:
        if len(cards) != action.cards:
            reader.error("log.card-count", cards_path, action.rule, count=action.cards,
                         action=reader.action(action.id), given=len(cards))
            return None
        groups = [[reader.read_card(c, f"{cards_path}/{i}") for i, c in enumerate(cards)]]
    if any(c is None for group in groups for c in group):
        return None
    return groups  # type: ignore[return-value]


def read_taken(reader: Reader, entry: dict, path: str, action: Action,
               cards: list[list[int]]) -> int | bool | None:
    """Which group went to the opponent: a group index, None for no choice, False if wrong."""
    taken = entry.get("taken")
    taken_path = f"{path}/taken"
    name = reader.action(action.id)
    if action.chooser == "none":
        if "taken" in entry:
            reader.error("log.taken-unexpected", taken_path, action.rule, action=name)
            return False
        return None
    if "taken" not in entry:
        reader.error("log.taken-missing", taken_path, action.rule, action=name)
        return False
    if action.split:
        if type(taken) is not int or not 0 <= taken < len(cards):
            reader.error("log.taken-set", taken_path, action.rule, action=name)
            return False
        return taken
    # A gift: the opponent takes one card; split it off into its own group.
    index = reader.rb.geisha_index.get(taken) if isinstance(taken, str) else None
    offered = cards[0]
    if index is None or index not in offered:
        shown = quote(reader.geisha(index), reader.t) if index is not None else describe(
            taken, reader.t)  # a geisha by her name, anything else as typed
        reader.error("log.taken-not-offered", taken_path, action.rule, value=shown,
                     offered=listed((reader.geisha(c) for c in offered), reader.t))
        return False
    rest = list(offered)
    rest.remove(index)
    cards[:] = [rest, [index]]
    return 1


def pointer_join(path: str, key: Any) -> str:
    return path + pointer(key)

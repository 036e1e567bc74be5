"""The Hanamikoji referee: validate a request, score its rounds, decide the match.

`referee(request, lang)` takes the request document (see
schemas/hanamikoji.request.schema.json) and returns the response document: either
the ruling, or every problem at once. It never raises on bad input. Every number
comes from the loaded rulebook; every decision in a ruling carries its rule id.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..i18n import N_, Np_, translator
from ..problems import Problem, describe, pointer
from .model import Rulebook, load_rulebook
from .terms import action_name, geisha_name, player_label

PLAYERS = ("a", "b")
OTHER = {"a": "b", "b": "a"}
MAX_ROUNDS = 50
MAX_NAME = 40
REQUEST_FIELDS = {"game", "edition", "variants", "players", "start", "rounds"}
ACTION_FIELDS = {"player", "action", "cards", "taken"}

# Error messages, by code. `{placeholders}` are filled in after translation.
M = {
    "request.not-object": N_("The request must be a JSON object."),
    "request.unknown-field": N_("Unknown field “{field}”."),
    "request.missing-field": N_("The field “{field}” is missing."),
    "request.type": N_("Expected {expected} here, not {value}."),
    "game.unknown": N_("Unknown game {value}; this referee knows {games}."),
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
# Names of JSON types in "expected ..." messages.
EXPECTED = {
    "object": N_("an object"),
    "list": N_("a list"),
    "text": N_("text"),
    "integer": N_("a whole number"),
    "boolean": N_("true or false"),
    "card list": N_("a list of geisha ids"),
}

# Explanation sentences.
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
        "The players are still level, and the {edition} rulebook does not say what happens "
        "now: agree on it at your table."
    ),
    "removed.inferred": N_("The log uses every card but one {geisha} card: that is the card put aside."),
    "progress": N_("{player} plays next: action {number} of {total}."),
    "progress.left": N_("Actions left for {player}: {actions}."),
    "progress.none-left": N_("{player} has no actions left."),
    "alternative": N_("Under {reading}: {outcome}"),
    "outcome.win": N_("{player} would win ({reason})."),
    "result.win": N_("{player} wins ({reason})."),
    "result.shared": N_("The players share the victory."),
    "result.undecided": N_("The rulebook of this edition leaves the result open."),
    "result.house": N_("No printed rule decides the result: agree on it at your table."),
    "outcome.shared": N_("the victory would be shared."),
    "outcome.continue": N_("the game would go on."),
    "outcome.undecided": N_("the rulebook would leave the result open."),
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
    "geishas": Np_(
        "{count} geisha",
        "{count} geishas",
    ),
    "charm": Np_(
        "{count} charm point",
        "{count} charm points",
    ),
    "pile": Np_(
        "{count} card left in the draw pile.",
        "{count} cards left in the draw pile.",
    ),
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


@dataclass(frozen=True, slots=True)
class Config:
    """The reading in force: an edition plus the variants."""

    edition: str
    round_limit: bool  # in force (the table's choice, or else the edition's own rule)
    clash_winner: str  # "charm" (official) or "geishas"
    limit_chosen: bool = False  # the table set `round_limit` (else it follows the edition)


@dataclass(slots=True)
class Standing:
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


@dataclass(frozen=True, slots=True)
class Decision:
    status: str  # win | shared | continue | undecided
    winner: str | None
    reason: str | None
    rules: tuple[str, ...]
    steps: tuple[tuple[str, str | None, dict[str, Any]], ...]  # (message key, rule, values)
    inferred: bool = False  # decided by a tie-break chain no source prints (basis: inferred)


class Phrases:
    """A language's explanation templates and geisha names, translated once."""

    def __init__(self, rb: Rulebook, lang: str):
        t = translator(lang)
        self.explain = {key: t.gettext(text) for key, text in E.items()}
        self.geishas = [geisha_name(rb, g.id, lang) for g in rb.geishas]
        self.players = {p: player_label(p, lang) for p in PLAYERS}
        self.counted: dict[tuple[str, int], str] = {}  # "3 geishas", filled as needed


def phrases(rb: Rulebook, lang: str) -> Phrases:
    found = rb.cache.get(("phrases", lang))
    if found is None:
        found = rb.cache[("phrases", lang)] = Phrases(rb, lang)
    return found


class Referee:
    """One request's work: collects problems, then scores and explains."""

    def __init__(self, rb: Rulebook, lang: str):
        self.rb = rb
        self.lang = lang
        self.t = translator(lang)
        self.phrases = phrases(rb, lang)
        self.problems: list[Problem] = []
        self.names = dict(self.phrases.players)
        self.edition = rb.default_edition

    # -- messages -----------------------------------------------------------------
    def error(self, code: str, path: str, rule: str, **values: Any):
        if code in MP:  # the message has a count in it: the language's plural form
            singular, plural = MP[code]
            template = self.t.ngettext(singular, plural, values["count"])
        else:
            template = self.t.gettext(M[code])
        self.problems.append(Problem(code, path, rule, template.format(**values)))

    def type_error(self, path: str, expected: str, value: Any, rule: str = "referee.request"):
        self.error("request.type", path, rule, expected=self.t.gettext(EXPECTED[expected]),
                   value=describe(value))

    def say(self, key: str, rule: str | None, **values: Any) -> dict[str, Any]:
        return {"rule": rule, "message": self.phrases.explain[key].format(**values)}

    def plural(self, key: str, count: int) -> str:
        cache = self.phrases.counted
        text = cache.get((key, count))
        if text is None:
            singular, plural = EP[key]
            text = cache[(key, count)] = self.t.ngettext(singular, plural, count).format(count=count)
        return text

    def geisha(self, index: int) -> str:
        return self.phrases.geishas[index]

    def action(self, action_id: str) -> str:
        return action_name(self.rb, action_id, self.lang, self.edition)

    def choices(self, values) -> str:
        return ", ".join(f"“{v}”" for v in values)

    # -- request ------------------------------------------------------------------
    def read_request(self, req: Any) -> tuple[Config, int, list[str | None], list] | None:
        rb = self.rb
        if not isinstance(req, dict):
            self.error("request.not-object", "", "referee.request")
            return None
        for key in req:
            if key not in REQUEST_FIELDS:
                self.error("request.unknown-field", pointer(key), "referee.request", field=key)
        game = req.get("game")
        if "game" not in req:
            self.error("request.missing-field", "/game", "referee.request", field="game")
        elif game != "hanamikoji":
            self.error("game.unknown", "/game", "referee.request", value=describe(game),
                       games=self.choices(["hanamikoji"]))

        edition = req.get("edition", rb.default_edition)
        if not isinstance(edition, str) or edition not in rb.editions:
            self.error("edition.unknown", "/edition", "edition.action-names",
                       value=describe(edition), choices=self.choices(rb.editions))
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
                self.error("variant.unknown", path, "referee.request", value=describe(name),
                           choices=self.choices(rb.variants))
            elif spec["type"] == "boolean" and not isinstance(value, bool):
                self.error("variant.value", path, spec["rule"], variant=name,
                           choices="true, false", value=describe(value))
            elif spec["type"] == "choice" and (not isinstance(value, str)
                                               or value not in spec["choices"]):
                self.error("variant.value", path, spec["rule"], variant=name,
                           choices=self.choices(spec["choices"]), value=describe(value))
            elif name == "round_limit":
                round_limit = value
            elif name == "simultaneous_goal":
                clash = value
        config = Config(edition,
                        rb.round_limit_default(edition) if round_limit is None else round_limit,
                        rb.clash_winner if clash == "charm" else clash,
                        limit_chosen=round_limit is not None)

        players = req.get("players", {})
        if not isinstance(players, dict):
            self.type_error("/players", "object", players)
            players = {}
        for key, name in players.items():
            if key not in PLAYERS:
                self.error("request.unknown-field", pointer("players", key), "referee.request",
                           field=key)
            elif not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
                self.error("players.name", pointer("players", key), "referee.request", count=MAX_NAME)
            else:
                self.names[key] = name.strip()

        start_round, favor = self.read_start(req.get("start", {}))
        rounds = req.get("rounds")
        if "rounds" not in req:
            self.error("request.missing-field", "/rounds", "referee.request", field="rounds")
            rounds = []
        elif not isinstance(rounds, list):
            self.type_error("/rounds", "list", rounds)
            rounds = []
        elif not rounds:
            self.error("rounds.empty", "/rounds", "referee.request")
        elif len(rounds) > MAX_ROUNDS:
            self.error("rounds.too-many", "/rounds", "referee.request", count=MAX_ROUNDS)
            rounds = []
        return config, start_round, favor, rounds

    def read_start(self, start: Any) -> tuple[int, list[str | None]]:
        n = len(self.rb.geishas)
        favor: list[str | None] = [None] * n
        if not isinstance(start, dict):
            self.type_error("/start", "object", start, "referee.start")
            return 1, favor
        for key in start:
            if key not in ("round", "favor"):
                self.error("request.unknown-field", pointer("start", key), "referee.start", field=key)
        number = start.get("round", 1)
        if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= 10**6:
            self.error("start.round", "/start/round", "referee.start", value=describe(number))
            number = 1
        given = start.get("favor")
        if given is None:
            return number, favor
        if not isinstance(given, list) or len(given) != n:
            self.error("start.favor-length", "/start/favor", "referee.start", count=n)
            return number, favor
        for i, holder in enumerate(given):
            if holder in PLAYERS:
                favor[i] = holder
            elif holder is not None:
                self.error("start.favor-value", pointer("start", "favor", i), "referee.start",
                           value=describe(holder))
        if number == 1 and any(favor):
            self.error("start.favor-round1", "/start/favor", "setup.row")
        return number, favor

    # -- one round ------------------------------------------------------------------
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
            side = board.get(player)
            side_path = f"{path}/{player}"
            if player not in board:
                self.error("request.missing-field", side_path, "referee.request", field=player)
                continue
            if not isinstance(side, list) or len(side) != n:
                self.error("board.length", side_path, "referee.request", count=n)
                continue
            clean[player] = True
            for i, value in enumerate(side):
                if type(value) is not int or value < 0:
                    self.error("board.count", f"{side_path}/{i}", "components.item-cards",
                               value=describe(value))
                    clean[player] = False
            counts[player] = [v if type(v) is int and v >= 0 else 0 for v in side]
        ok = len(clean) == 2 and all(clean.values())
        if len(counts) == 2:  # check the columns even when another count is bad
            for i, geisha in enumerate(rb.geishas):
                total = counts["a"][i] + counts["b"][i]
                limit = geisha.cards - (1 if removed == i else 0)
                if total > limit:
                    if removed == i:
                        self.error("board.geisha-overflow-removed", f"{path}/a/{i}",
                                   "deal.remove-one", geisha=self.geisha(i), count=limit,
                                   total=total)
                    else:
                        self.error("board.geisha-overflow", f"{path}/a/{i}", "components.item-cards",
                                   geisha=self.geisha(i), count=geisha.cards, total=total)
                    ok = False
        for player in PLAYERS:
            if clean.get(player):
                total = sum(counts[player])
                if total != rb.scored_per_side:
                    self.error("board.side-total", f"{path}/{player}", "scoring.eight-cards",
                               count=total, player=self.names[player], expected=rb.scored_per_side)
                    ok = False
        return counts if ok else None

    def read_card(self, value: Any, path: str) -> int | None:
        index = self.rb.geisha_index.get(value) if isinstance(value, str) else None
        if index is None:
            self.error("card.unknown", path, "components.item-cards", value=describe(value),
                       choices=self.choices(self.rb.geisha_index))
        return index

    def read_log(self, log: Any, path: str, first: str, removed: int | None, round_no: int,
                 is_last: bool) -> tuple[dict[str, list[int]] | None, dict[str, Any] | None, int | None]:
        """Replay an action log. Returns (board, progress or None, inferred removed index)."""
        rb = self.rb
        n = len(rb.geishas)
        if not isinstance(log, list):
            self.type_error(path, "list", log)
            return None, None, None
        total_actions = 2 * rb.actions_per_player
        used = [0] * n
        if removed is not None:
            used[removed] += rb.removed
        overflowed: set[int] = set()
        sides = {"a": [0] * n, "b": [0] * n}
        secrets = {"a": [0] * n, "b": [0] * n}
        done: dict[str, list[str]] = {"a": [], "b": []}
        expected = first
        start_errors = len(self.problems)
        for k, entry in enumerate(log):
            entry_path = f"{path}/{k}"
            if k >= total_actions:
                self.error("log.too-many-actions", entry_path, "turn.alternate", count=total_actions)
                break
            mover = expected
            expected = OTHER[expected]
            if not isinstance(entry, dict):
                self.type_error(entry_path, "object", entry)
                continue
            for key in entry:
                if key not in ACTION_FIELDS:
                    self.error("request.unknown-field", pointer_join(entry_path, key),
                               "referee.request", field=key)
            player = entry.get("player")
            if player not in PLAYERS:
                if "player" not in entry:
                    self.error("request.missing-field", f"{entry_path}/player", "referee.request",
                               field="player")
                else:
                    self.error("request.type", f"{entry_path}/player", "turn.alternate",
                               expected="“a”, “b”", value=describe(player))
                player = mover
            elif player != mover and k == 0:
                self.wrong_starter(f"{entry_path}/player", round_no, mover, player)
                expected = OTHER[player]  # judge the rest of the log by its own order
            elif player != mover:
                self.error("log.wrong-player", f"{entry_path}/player", "turn.alternate",
                           expected=self.names[mover], player=self.names[player])
            action_id = entry.get("action")
            action = rb.actions.get(action_id) if isinstance(action_id, str) else None
            if action is None:
                self.error("log.unknown-action", f"{entry_path}/action", "turn.each-action-once",
                           value=describe(action_id), choices=self.choices(rb.actions))
                continue
            if action_id in done[player]:
                self.error("log.action-reused", f"{entry_path}/action", "turn.each-action-once",
                           player=self.names[player], action=self.action(action_id))
            else:
                done[player].append(action_id)
            cards = self.read_action_cards(entry, entry_path, action)
            if cards is None:
                continue
            flat = [c for group in cards for c in group]
            for c in flat:
                used[c] += 1
                available = rb.geishas[c].cards
                if used[c] > available and c not in overflowed:
                    overflowed.add(c)
                    in_log = used[c] - (rb.removed if removed == c else 0)
                    if removed == c and in_log <= available:
                        # The log is possible; the named card put aside is what conflicts.
                        self.error("log.removed-mismatch", path.rsplit("/", 1)[0] + "/removed",
                                   "deal.remove-one", geisha=self.geisha(c), count=in_log)
                    else:
                        self.error("log.card-overflow", f"{entry_path}/cards",
                                   "components.item-cards", geisha=self.geisha(c), total=in_log,
                                   count=available - (rb.removed if removed == c else 0))
            taken = self.read_taken(entry, entry_path, action, cards)
            if taken is False:
                continue
            opponent = OTHER[player]
            if action.chooser == "none":
                if action.scored:
                    for c in flat:
                        secrets[player][c] += 1
                continue
            for g, group in enumerate(cards):
                for c in group:
                    sides[opponent if g == taken else player][c] += 1
        if len(self.problems) > start_errors:
            return None, None, None
        if len(log) < total_actions:
            if not is_last:
                self.error("log.incomplete", path, "turn.alternate", round=round_no,
                           given=len(log), count=total_actions)
                return None, None, None
            progress = {
                "to_act": expected,
                "action_number": len(log) + 1,
                "actions_left": {p: [a for a in rb.actions if a not in done[p]] for p in PLAYERS},
                "draw_pile": rb.draw_pile - len(log) * rb.draw_per_turn,
            }
            return sides, progress, None
        for p in PLAYERS:
            for i in range(n):
                sides[p][i] += secrets[p][i]
        inferred = None
        missing = [i for i in range(n) if used[i] < rb.geishas[i].cards]
        if removed is None and len(missing) == 1 and rb.removed == 1:
            inferred = missing[0]
        return sides, None, inferred

    def past_limit(self, path: str, config: Config) -> None:
        if config.limit_chosen:
            self.error("round.past-limit", path, "variant.round-limit", limit=self.rb.round_limit)
        else:  # the edition's own end of the game
            self.error("round.past-edition-limit", path, "variant.round-limit",
                       limit=self.rb.round_limit, edition=self.edition_label(config.edition))

    def wrong_starter(self, path: str, round_no: int, expected: str, player: str) -> None:
        """One error that says who starts this round and why (not one per action)."""
        names = {"expected": self.names[expected], "player": self.names[player]}
        if round_no == 1:
            self.error("log.wrong-starter-first", path, "referee.start", **names)
        else:
            self.error("log.wrong-starter", path, "refresh.switch-start", round=round_no,
                       previous=round_no - 1, **names)

    def read_action_cards(self, entry: dict, path: str, action) -> list[list[int]] | None:
        """The cards of an action as groups: one group, or one per competition set."""
        cards = entry.get("cards")
        cards_path = f"{path}/cards"
        if "cards" not in entry:
            self.error("request.missing-field", cards_path, action.rule, field="cards")
            return None
        if not isinstance(cards, list):
            self.type_error(cards_path, "card list", cards, action.rule)
            return None
        if action.split:
            shaped = (
                len(cards) == len(action.split)
                and all(isinstance(g, list) and len(g) == size for g, size in zip(cards, action.split))
            )
            if not shaped:
                self.error("log.competition-split", cards_path, action.rule,
                           action=self.action(action.id))
                return None
            groups = [[self.read_card(c, f"{cards_path}/{g}/{i}") for i, c in enumerate(group)]
                      for g, group in enumerate(cards)]
        else:
            if len(cards) != action.cards:
                self.error("log.card-count", cards_path, action.rule, count=action.cards,
                           action=self.action(action.id), given=len(cards))
                return None
            groups = [[self.read_card(c, f"{cards_path}/{i}") for i, c in enumerate(cards)]]
        if any(c is None for group in groups for c in group):
            return None
        return groups  # type: ignore[return-value]

    def read_taken(self, entry: dict, path: str, action, cards: list[list[int]]) -> int | bool | None:
        """Which group went to the opponent: a group index, None for no choice, False if wrong."""
        taken = entry.get("taken")
        taken_path = f"{path}/taken"
        if action.chooser == "none":
            if "taken" in entry:
                self.error("log.taken-unexpected", taken_path, action.rule, action=self.action(action.id))
                return False
            return None
        if "taken" not in entry:
            self.error("log.taken-missing", taken_path, action.rule, action=self.action(action.id))
            return False
        if action.split:
            if type(taken) is not int or not 0 <= taken < len(cards):
                self.error("log.taken-set", taken_path, action.rule, action=self.action(action.id))
                return False
            return taken
        # A gift: the opponent takes one card; split it off into its own group.
        index = self.rb.geisha_index.get(taken) if isinstance(taken, str) else None
        offered = cards[0]
        if index is None or index not in offered:
            self.error("log.taken-not-offered", taken_path, action.rule, value=describe(taken),
                       offered=", ".join(self.geisha(c) for c in offered))
            return False
        rest = list(offered)
        rest.remove(index)
        cards[:] = [rest, [index]]
        return 1

    # -- scoring and deciding -------------------------------------------------------
    def standing(self, round_no: int, favor_before: list[str | None],
                 board: dict[str, list[int]]) -> Standing:
        favor = list(favor_before)
        a_side, b_side = board["a"], board["b"]
        for i in range(len(favor)):
            if a_side[i] > b_side[i]:
                favor[i] = "a"
            elif b_side[i] > a_side[i]:
                favor[i] = "b"
        return self.count(round_no, favor)

    def count(self, round_no: int, favor: list[str | None]) -> Standing:
        geishas = {"a": 0, "b": 0}
        charm = {"a": 0, "b": 0}
        for geisha, holder in zip(self.rb.geishas, favor):
            if holder is not None:
                geishas[holder] += 1
                charm[holder] += geisha.charm
        return Standing(round_no, favor, geishas, charm, self.rb)

    def decide(self, s: Standing, config: Config, final: bool = True) -> Decision:
        """What the standing after a round means under a reading."""
        rb = self.rb
        reached = {p: (s.geishas[p] >= rb.goal_geishas, s.charm[p] >= rb.goal_charm) for p in PLAYERS}
        goal_players = [p for p in PLAYERS if any(reached[p])]
        if len(goal_players) == 2:
            wanted = 1 if config.clash_winner == "charm" else 0
            winners = [p for p in PLAYERS if reached[p][wanted]]
            rule = "victory.clash" if config.clash_winner == rb.clash_winner else "variant.simultaneous-goal"
            if len(winners) == 1:
                winner = winners[0]
                reason = "clash_charm" if wanted else "clash_geishas"
                key = "goal.clash-charm" if wanted else "goal.clash-geishas"
                return Decision("win", winner, reason, (rule,), ((key, rule, {"winner": winner}),))
            return Decision("shared", None, "limit_shared", (rule,), (("tiebreak.shared", rule, {}),))
        if goal_players:
            winner = goal_players[0]
            by_charm = reached[winner][1]
            rule = "victory.charm" if by_charm else "victory.geishas"
            key = "goal.charm" if by_charm else "goal.geishas"
            return Decision("win", winner, "charm" if by_charm else "geishas", (rule,),
                            ((key, rule, {"winner": winner}),))
        if config.round_limit and s.round >= rb.round_limit:
            return self.tiebreak(s, config)
        return Decision("continue", None, None, ("victory.immediate",),
                        (("goal.none", "victory.immediate", {}),))

    def tiebreak(self, s: Standing, config: Config) -> Decision:
        """The edition's rule for a game that ends after the last round without a goal."""
        rb = self.rb
        edition = rb.editions[config.edition]
        limit = edition.round_limit
        edition_rule = f"edition.{edition.id}"
        if limit.status == "none":  # a house rule: nothing printed decides it
            return Decision("undecided", None, "limit_house", ("variant.round-limit", edition_rule),
                            (("limit.house", "variant.round-limit", {}),))
        steps: list[tuple[str, str | None, dict[str, Any]]] = [
            (f"limit.{limit.status}", "variant.round-limit", {})]
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
                return Decision("shared", None, "limit_shared", tuple(rules), tuple(steps), inferred)
            if step == "unknown":
                steps.append(("tiebreak.unknown", rule, {}))
                return Decision("undecided", None, "limit_unknown", tuple(rules), tuple(steps))
            a, b = measures[step]["a"], measures[step]["b"]
            if a == b:
                steps.append((f"tiebreak.{step}.level", rule, {"step": step}))
                continue
            winner = "a" if a > b else "b"
            steps.append((f"tiebreak.{step}.win", rule, {"step": step, "winner": winner}))
            return Decision("win", winner, f"limit_{step}", tuple(rules), tuple(steps), inferred)
        # A chain that ends without a verdict is left open rather than invented.
        return Decision("undecided", None, "limit_unknown", tuple(rules), tuple(steps))

    def play_out(self, standings: list[Standing], config: Config) -> tuple[Decision, int]:
        """The first decisive round under a reading, or the last round's decision."""
        for i, s in enumerate(standings):
            decision = self.decide(s, config)
            if decision.status != "continue":
                return decision, i
        return decision, len(standings) - 1

    # -- explanation ------------------------------------------------------------------
    def explain_markers(self, before: list[str | None], board: dict[str, list[int]]) -> list[dict]:
        explain, names, geishas = self.phrases.explain, self.names, self.phrases.geishas
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
            out.append({"rule": rule, "message": message})
        return out

    def explain_totals(self, s: Standing) -> list[dict]:
        return [self.say("totals", "scoring.charm-total", player=self.names[p],
                         geishas=self.plural("geishas", s.geishas[p]),
                         charm=self.plural("charm", s.charm[p])) for p in PLAYERS]

    def explain_decision(self, d: Decision, s: Standing) -> list[dict]:
        out = []
        rb = self.rb
        for key, rule, values in d.steps:
            winner = values.get("winner")
            if key.startswith("goal.clash"):
                out.append(self.say(key, rule, player=self.names[winner],
                                    other=self.names[OTHER[winner]],
                                    geishas=self.plural("geishas", rb.goal_geishas),
                                    charm=self.plural("charm", rb.goal_charm)))
            elif key in ("goal.geishas", "goal.charm"):
                out.append(self.say(key, rule, player=self.names[winner],
                                    geishas=self.plural("geishas", s.geishas[winner]),
                                    charm=self.plural("charm", s.charm[winner])))
            elif key == "goal.none":
                out.append(self.say(key, rule, geishas=self.plural("geishas", rb.goal_geishas),
                                    charm=self.plural("charm", rb.goal_charm)))
            elif key.startswith("limit."):
                edition = self.rb.editions[self.edition]
                source = edition.round_limit.inferred_from
                out.append(self.say(key, rule, round=s.round, limit=rb.round_limit,
                                    edition=self.edition_label(),
                                    source=self.edition_label(source) if source else ""))
            elif key == "tiebreak.unknown":
                out.append(self.say(key, rule, edition=self.edition_label()))
            elif key == "tiebreak.shared":
                out.append(self.say(key, rule))
            else:
                step = values["step"]
                measure = {"most_charm": s.charm, "highest_geisha": s.values}[step]
                a, b = measure["a"], measure["b"]
                if step == "highest_geisha":
                    a, b = ", ".join(map(str, a)) or "–", ", ".join(map(str, b)) or "–"
                extra = {"player": self.names[winner]} if winner else {}
                out.append(self.say(key, rule, a=a, b=b, **extra))
        return out

    def edition_label(self, edition: str | None = None) -> str:
        return self.rb.editions[edition or self.edition].publisher

    def result_text(self, d: Decision) -> str | None:
        if d.status == "win":
            return self.t.gettext(E["result.win"]).format(
                player=self.names[d.winner], reason=self.t.gettext(REASONS[d.reason]))
        key = "result.house" if d.reason == "limit_house" else f"result.{d.status}"
        return self.t.gettext(E[key]) if key in E else None

    def outcome_text(self, d: Decision, decided_round: int, last_round: int) -> str:
        t = self.t
        if d.status == "win":
            reason = t.gettext(REASONS[d.reason])
            if decided_round < last_round:
                return t.gettext(E["outcome.earlier"]).format(
                    player=self.names[d.winner], round=decided_round, reason=reason)
            return t.gettext(E["outcome.win"]).format(player=self.names[d.winner], reason=reason)
        key = "outcome.house" if d.reason == "limit_house" else f"outcome.{d.status}"
        return t.gettext(E[key])


def pointer_join(path: str, key: Any) -> str:
    return path + pointer(key)


def _result(d: Decision, round_no: int, reason_text: str | None) -> dict[str, Any]:
    out = {"status": d.status, "winner": d.winner, "round": round_no, "reason": d.reason,
           "rules": list(d.rules), "message": reason_text}
    if d.inferred:
        out["inferred"] = True
    return out


def referee(request: Any, lang: str = "en", rulebook: Rulebook | None = None) -> dict[str, Any]:
    """Validate and score a Hanamikoji request; the response document (never raises)."""
    rb = rulebook or load_rulebook()
    ref = Referee(rb, lang)
    read = ref.read_request(request)
    if read is None:
        return invalid(ref)
    config, round_no, favor, rounds = read
    game_over: tuple[int, Decision] | None = None
    if round_no > 1 and any(favor):
        early = ref.decide(ref.count(round_no - 1, favor),
                           Config(config.edition, False, config.clash_winner))
        if early.status == "win":
            goal = ref.t.gettext(REASONS[early.reason])
            ref.error("start.already-won", "/start/favor", "victory.immediate",
                      player=ref.names[early.winner], goal=goal)
    first_player = rb.first_player
    out_rounds: list[dict[str, Any]] = []
    standings: list[Standing] = []
    decision: Decision | None = None  # the last scored round's, under the chosen reading
    progress = None
    for k, rnd in enumerate(rounds):
        path = f"/rounds/{k}"
        number = round_no + k
        first = first_player if number % 2 == 1 else OTHER[first_player]
        if game_over is not None:
            ended, d = game_over
            if d.status == "win":
                ref.error("round.after-win", path, "victory.immediate", round=ended,
                          player=ref.names[d.winner])
            elif d.status == "shared":
                ref.error("round.after-shared", path, "victory.immediate", round=ended)
            else:  # undecided: the round limit ended the game and the edition gives no verdict
                ref.past_limit(path, config)
            break
        if config.round_limit and number > rb.round_limit:
            ref.past_limit(path, config)
            break
        if not isinstance(rnd, dict):
            ref.type_error(path, "object", rnd)
            continue
        for key in rnd:
            if key not in ("board", "actions", "removed"):
                ref.error("request.unknown-field", pointer_join(path, key), "referee.request",
                          field=key)
        removed = None
        if "removed" in rnd:
            removed = ref.read_card(rnd["removed"], f"{path}/removed")
            if removed is None:
                continue
        if ("board" in rnd) == ("actions" in rnd):
            ref.error("round.mode" if "board" in rnd else "round.mode-missing", path, "referee.request")
            continue
        favor_before = favor
        inferred = None
        if "board" in rnd:
            board = ref.read_board(rnd["board"], f"{path}/board", removed)
            mode = "board"
        else:
            board, progress, inferred = ref.read_log(rnd["actions"], f"{path}/actions", first, removed,
                                                     number, k == len(rounds) - 1)
            mode = "actions"
        if board is None:
            continue
        entry: dict[str, Any] = {"round": number, "first_player": first, "mode": mode,
                                 "board": board, "favor_before": favor_before}
        if removed is not None or inferred is not None:
            entry["removed"] = rb.geishas[removed if removed is not None else inferred].id
        if progress is not None:
            s = ref.count(number, favor_before)
            explanation = [ref.say("progress", "turn.alternate", player=ref.names[progress["to_act"]],
                                   number=progress["action_number"],
                                   total=2 * rb.actions_per_player)]
            for p in PLAYERS:
                left = progress["actions_left"][p]
                if left:
                    explanation.append(ref.say("progress.left", "turn.each-action-once",
                                               player=ref.names[p],
                                               actions=", ".join(ref.action(a) for a in left)))
                else:
                    explanation.append(ref.say("progress.none-left", "turn.each-action-once",
                                               player=ref.names[p]))
            explanation.append({"rule": "deal.hands",
                                "message": ref.plural("pile", progress["draw_pile"])})
            entry.update(favor=favor_before, geishas=s.geishas, charm=s.charm,
                         outcome={"status": "in_progress", "winner": None, "reason": None},
                         progress=progress, explanation=explanation)
            out_rounds.append(entry)
            break
        s = ref.standing(number, favor_before, board)
        standings.append(s)
        decision = ref.decide(s, config)
        explanation = []
        if inferred is not None:
            explanation.append(ref.say("removed.inferred", "deal.remove-one", geisha=ref.geisha(inferred)))
        explanation += ref.explain_markers(favor_before, board)
        explanation += ref.explain_totals(s)
        explanation += ref.explain_decision(decision, s)
        if decision.status == "continue":
            explanation.append(ref.say("next.start", "refresh.switch-start",
                                       player=ref.names[OTHER[first]], round=number + 1))
        else:
            game_over = (number, decision)
        entry.update(favor=s.favor, geishas=s.geishas, charm=s.charm,
                     outcome={"status": decision.status, "winner": decision.winner,
                              "reason": decision.reason},
                     explanation=explanation)
        out_rounds.append(entry)
        favor = s.favor

    if ref.problems:
        return invalid(ref)

    last = out_rounds[-1]
    if progress is not None:
        final = Decision("in_progress", None, None, ("turn.alternate",), ())
        result = _result(final, last["round"], None)
        nxt = None
    else:
        final = decision  # the loop stopped at the first decisive round
        result = _result(final, last["round"], ref.result_text(final))
        nxt = None
        if final.status == "continue":
            nxt = {"round": last["round"] + 1, "first_player": OTHER[last["first_player"]],
                   "favor": list(favor)}
    response = {
        "valid": True,
        "game": "hanamikoji",
        "edition": config.edition,
        "variants": {"round_limit": config.round_limit,
                     "simultaneous_goal": "charm" if config.clash_winner == "charm" else "geishas"},
        "players": dict(ref.names),
        "rounds": out_rounds,
        "result": result,
        "next": nxt,
        "alternatives": alternatives(ref, config, standings, final) if standings and progress is None else [],
    }
    return response


def readings(rb: Rulebook, config: Config) -> list[tuple[Config, str, dict[str, Any]]]:
    """Other readings worth comparing: every other edition, and each variant flipped."""
    found = rb.cache.get(("readings", config))
    if found is None:
        found = rb.cache[("readings", config)] = _readings(rb, config)
    return found


def _readings(rb: Rulebook, config: Config) -> list[tuple[Config, str, dict[str, Any]]]:
    out = []
    for key in rb.editions:
        if key != config.edition:
            # another edition with the table's limit choice, or else that edition's own rule
            limit = config.round_limit if config.limit_chosen else rb.round_limit_default(key)
            out.append((Config(key, limit, config.clash_winner, config.limit_chosen),
                        "reading.edition", {"edition": key}))
    flipped = "geishas" if config.clash_winner == "charm" else "charm"
    out.append((replace(config, clash_winner=flipped), f"reading.clash-{flipped}", {}))
    out.append((replace(config, round_limit=not config.round_limit, limit_chosen=True),
                "reading.limit-off" if config.round_limit else "reading.limit-on", {}))
    return out


def alternatives(ref: Referee, config: Config, standings: list[Standing],
                 chosen: Decision) -> list[dict[str, Any]]:
    """Where another edition or variant would have ruled differently on the same rounds."""
    out = []
    last_round = standings[-1].round
    chosen_key = (chosen.status, chosen.winner)
    rb = ref.rb
    # A reading can only differ where a clash happened or the round limit was reached, and
    # editions differ only in their round-limit chain: compute each distinct reading once.
    clash_seen = any(
        sum(1 for p in PLAYERS if s.geishas[p] >= rb.goal_geishas or s.charm[p] >= rb.goal_charm) == 2
        for s in standings)
    limit_seen = last_round >= rb.round_limit
    if not clash_seen and not limit_seen:
        return []  # every reading decides these rounds alike

    def reading_key(c: Config) -> tuple:
        limit = c.round_limit and limit_seen
        rule = rb.editions[c.edition].round_limit
        return (c.clash_winner if clash_seen else None, limit,
                (rule.status == "none", rule.tiebreak, rule.sourced.inferred) if limit else None)

    seen: dict[tuple, tuple[Decision, int]] = {reading_key(config): (chosen, len(standings) - 1)}
    for other, label, values in readings(rb, config):
        key = reading_key(other)
        if key not in seen:
            seen[key] = ref.play_out(standings, other)
        d, index = seen[key]
        decided_round = standings[index].round
        if (d.status, d.winner) == chosen_key and decided_round == last_round:
            continue
        if d.status == "undecided" and chosen.status == "undecided":
            continue
        if "edition" in values:
            edition = rb.editions[values["edition"]]
            source = edition.round_limit.inferred_from
            if d.inferred and source:
                label = "reading.edition-inferred"
            reading = ref.t.gettext(E[label]).format(edition=ref.edition_label(edition.id),
                                                     source=ref.edition_label(source or edition.id))
        else:
            reading = ref.t.gettext(E[label])
        outcome = ref.outcome_text(d, decided_round, last_round)
        out.append({
            "edition": other.edition,
            "variants": {"round_limit": other.round_limit,
                         "simultaneous_goal": "charm" if other.clash_winner == "charm" else "geishas"},
            "status": d.status, "winner": d.winner, "round": decided_round, "reason": d.reason,
            "rules": list(d.rules),
            "message": ref.t.gettext(E["alternative"]).format(reading=reading, outcome=outcome),
            **({"inferred": True} if d.inferred else {}),
        })
    return out


def invalid(ref: Referee) -> dict[str, Any]:
    return {"valid": False, "errors": [p.as_dict() for p in ref.problems]}

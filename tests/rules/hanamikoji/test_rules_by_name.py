"""The Hanamikoji rules no other test named: each checked through the referee or a page."""
from __future__ import annotations

import re
from html import unescape

import pytest

from rulebook.hanamikoji import load_rulebook
from rulebook.hanamikoji.referee import referee

from .test_rules import CLASH_BOARD, EXAMPLE_BOARD, LOG

RB = load_rulebook()
GEISHAS = [g.id for g in RB.geishas]
SWAP = {"a": "b", "b": "a"}


def play(*logs, **extra):
    return referee({"game": "hanamikoji", "rounds": [{"actions": log} for log in logs], **extra})


def codes(response):
    assert response["valid"] is False, response
    return {(e["code"], e["rule"]) for e in response["errors"]}


def rule_text(client, rule_id, query=""):
    html = client.get(f"/en/hanamikoji/{query}").get_data(as_text=True)
    found = re.search(rf'id="{re.escape(rule_id)}".*?<p class="rule__text"[^>]*>(.*?)</p>', html,
                      re.DOTALL)
    assert found, rule_id
    return unescape(re.sub(r"<[^>]+>", "", found.group(1)))


@pytest.mark.rule("hanamikoji", "setup.first-player")
def test_player_a_starts_the_first_round():
    assert play(LOG[:1])["rounds"][0]["first_player"] == "a"
    assert codes(play([dict(LOG[0], player="b")])) == {("log.wrong-starter-first", "referee.start")}


@pytest.mark.rule("hanamikoji", "deal.hands", "turn.draw-first")
def test_six_cards_dealt_eight_in_the_pile_one_drawn_per_turn():
    assert RB.hand == 6 and RB.draw_per_turn == 1
    for done in range(1, 8):
        progress = play(LOG[:done])["rounds"][0]["progress"]
        assert progress["draw_pile"] == 21 - RB.removed - 2 * RB.hand - done


@pytest.mark.rule("hanamikoji", "action.any-cards")
def test_a_gift_or_a_competition_may_hold_one_geishas_cards():
    log = LOG[:2] + [dict(LOG[2], cards=["yoko", "yoko", "yoko"], taken="yoko")]
    assert play(log)["valid"]
    same = LOG[:3] + [dict(LOG[3], cards=[["anju", "anju"], ["anju", "yoko"]])]
    assert play(same)["valid"]


@pytest.mark.rule("hanamikoji", "cards.stay-with-geisha", "faq.move-card")
def test_every_card_counts_for_the_geisha_it_shows():
    """The board a log makes is each player's kept cards, counted per geisha they show."""
    kept = {"a": [0] * 7, "b": [0] * 7}
    for entry in LOG:
        me, you = entry["player"], SWAP[entry["player"]]
        cards = entry["cards"]
        if entry["action"] == "secret":
            kept[me][GEISHAS.index(cards[0])] += 1
        elif entry["action"] == "gift":  # the opponent takes one, the giver keeps two
            for card in cards:
                kept[me][GEISHAS.index(card)] += 1
            kept[me][GEISHAS.index(entry["taken"])] -= 1
            kept[you][GEISHAS.index(entry["taken"])] += 1
        elif entry["action"] == "competition":
            for number, pair in enumerate(cards):
                for card in pair:
                    kept[you if number == entry["taken"] else me][GEISHAS.index(card)] += 1
    assert play(LOG)["rounds"][0]["board"] == kept


@pytest.mark.rule("hanamikoji", "scoring.reveal-secrets")
def test_the_secret_card_counts_once_both_players_are_done():
    before = play(LOG[:7])["rounds"][0]  # A's secret (a Ruri) is still hidden
    after = play(LOG)["rounds"][0]
    ruri = GEISHAS.index("ruri")
    assert before["outcome"]["status"] == "in_progress"
    assert after["board"]["a"][ruri] == before["board"]["a"][ruri] + 1


@pytest.mark.rule("hanamikoji", "disagree.two-gifts")
def test_the_tradeoff_cards_are_never_scored():
    board = play(LOG)["rounds"][0]["board"]
    for geisha in ("ayane", "iroha"):  # only ever put away by the tradeoffs
        assert board["a"][GEISHAS.index(geisha)] == board["b"][GEISHAS.index(geisha)] == 0


@pytest.mark.rule("hanamikoji", "scoring.charm-total")
def test_each_side_adds_the_charm_of_its_geishas():
    rnd = referee({"game": "hanamikoji", "rounds": [{"board": EXAMPLE_BOARD}]})["rounds"][0]
    for player in ("a", "b"):
        won = [g for g, side in zip(RB.geishas, rnd["favor"]) if side == player]
        assert rnd["charm"][player] == sum(g.charm for g in won)
        assert rnd["geishas"][player] == len(won)
    totals = [e["message"] for e in rnd["explanation"] if e["rule"] == "scoring.charm-total"]
    assert totals == ["Player A: 3 geishas, 8 charm points.", "Player B: 3 geishas, 11 charm points."]


@pytest.mark.rule("hanamikoji", "refresh.collect", "faq.next-start")
def test_every_card_returns_for_the_next_round_which_the_other_player_starts():
    first = play(LOG)
    assert first["result"]["status"] == "continue" and first["next"]["first_player"] == "b"
    mirrored = [dict(entry, player=SWAP[entry["player"]]) for entry in LOG]
    both = play(LOG, mirrored)  # round 2 uses all 21 cards again, B first
    assert both["valid"] and both["rounds"][1]["first_player"] == "b"
    assert codes(play(LOG, LOG)) >= {("log.wrong-starter", "refresh.switch-start")}


@pytest.mark.rule("hanamikoji", "referee.limits")
def test_at_most_fifty_rounds_in_one_request():
    assert RB.max_rounds == 50
    r = referee({"game": "hanamikoji", "rounds": [{"board": EXAMPLE_BOARD}] * 51})
    assert codes(r) == {("rounds.too-many", "referee.limits")}


@pytest.mark.rule("hanamikoji", "edition.action-names")
@pytest.mark.parametrize("edition", sorted(RB.editions))
def test_each_edition_plays_the_same_actions_under_its_names(client, edition):
    printed = RB.editions[edition].actions
    assert set(printed) == set(RB.actions)  # the same four actions
    html = client.get(f"/en/hanamikoji/?edition={edition}").get_data(as_text=True)
    for name in printed.values():  # None: the edition's name is in none of our sources
        assert name is None or name in unescape(html), (edition, name)
    assert referee({"game": "hanamikoji", "edition": edition, "rounds": [{"actions": LOG}]})["valid"]


# After round 2: A holds Ayane (2) and Ruri (5), B Yoko (3) and Anju (4): 7 charm points
# each. Round 3 ties every geisha, so the markers stay and the score stays level.
LEVEL_FAVOR = ["a", None, None, "b", None, "b", "a"]
ROUND_THREE = {"a": [1, 1, 1, 1, 1, 2, 1], "b": [1, 1, 1, 1, 1, 2, 1]}


def after_round_three(edition, **extra):
    return referee({"game": "hanamikoji", "edition": edition, **extra,
                    "start": {"round": 3, "favor": LEVEL_FAVOR},
                    "rounds": [{"board": ROUND_THREE}]})


@pytest.mark.rule("hanamikoji", "edition.geekach", "disagree.round-limit-tiebreak")
def test_geekach_limit_is_optional_and_breaks_a_level_score_by_the_highest_geisha():
    plays_on = after_round_three("geekach")
    assert plays_on["result"]["status"] == "continue"
    limited = after_round_three("geekach", variants={"round_limit": True})
    rnd = limited["rounds"][0]
    assert rnd["charm"]["a"] == rnd["charm"]["b"]  # level: the next step decides
    assert limited["result"]["status"] == "win"
    ruri_side = rnd["favor"][GEISHAS.index("ruri")]
    assert limited["result"]["winner"] == ruri_side
    kosmos = after_round_three("kosmos")  # the same table under Kosmos: no source decides
    assert kosmos["result"]["status"] == "undecided"


@pytest.mark.rule("hanamikoji", "faq.how-many-rounds")
@pytest.mark.parametrize("edition, limit, stops", [
    ("kosmos", None, True), ("iello", None, True), ("emperors4", None, False),
    ("deepwater", None, False), ("geekach", None, False),
    ("deepwater", True, True), ("geekach", True, True)])
def test_how_many_rounds_depends_on_the_edition(edition, limit, stops):
    extra = {"variants": {"round_limit": True}} if limit else {}
    status = after_round_three(edition, **extra)["result"]["status"]
    assert (status != "continue") is stops, status


@pytest.mark.rule("hanamikoji", "disagree.competition-face-up", "faq.competition-visible")
def test_a_competition_names_all_four_cards():
    """The referee reads both sets card by card (they are face up): three cards are refused."""
    short = LOG[:3] + [dict(LOG[3], cards=[["anju", "anju"], ["yoko"]])]
    assert codes(play(short)) == {("log.competition-split", "action.competition")}
    assert play(LOG)["rounds"][0]["board"]["b"][GEISHAS.index("anju")] >= 2


@pytest.mark.rule("hanamikoji", "faq.clash")
def test_eleven_charm_points_beat_four_geishas_after_the_same_round():
    result = referee({"game": "hanamikoji", "rounds": [{"board": CLASH_BOARD}]})["result"]
    assert (result["winner"], result["reason"]) == ("b", "clash_charm")


@pytest.mark.rule("hanamikoji", "faq.look-at-cards")
@pytest.mark.parametrize("edition", sorted(RB.editions))
def test_the_question_names_the_actions_as_the_page_does(client, edition):
    text = rule_text(client, "faq.look-at-cards", f"?edition={edition}")
    assert "{" not in text and "card put aside" in text
    from webapp.games.hanamikoji.terms import Terms

    names = Terms(RB, "en", edition).action_names
    assert names["secret"] in text and names["tradeoff"] in text

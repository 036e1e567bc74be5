"""The scoring checker /<lang>/hanamikoji/score: board and log modes, rulings, permalinks."""
from __future__ import annotations

import html
import json
import re

import pytest
from werkzeug.datastructures import MultiDict

from rulebook import cli
from rulebook.hanamikoji import load_rulebook
from rulebook.i18n import LANGUAGES
from webapp.games.hanamikoji import form as web

URL = "/{lang}/hanamikoji/score"
EXAMPLE = "a=2,1,0,2,2,0,1&b=0,1,2,0,0,2,3"
LOG = ["secret:ruri", "tradeoff:ayane,iroha", "gift:ruri,ruri,anju:anju",
       "competition:anju,anju/yoko,tomoyo:1", "tradeoff:tomoyo,ayane",
       "secret:chiharu", "competition:chiharu,chiharu/yoko,yoko:2", "gift:ruri,ruri,iroha:ruri"]


def embedded(text: str, script_id: str = "ruling-data"):
    match = re.search(rf'<script type="application/json" id="{script_id}">(.*?)</script>', text, re.DOTALL)
    assert match, script_id
    return json.loads(html.unescape(match.group(1)))


def field_messages(text: str, key: str) -> list[str]:
    match = re.search(rf'<div class="field-msg" id="msg-{re.escape(key)}"[^>]*>(.*?)</div>', text, re.DOTALL)
    return re.findall(r'<p class="field-msg__text">(.*?)</p>', match.group(1), re.DOTALL) if match else []


def get(client, query: str = "", lang: str = "en", **kw):
    return client.get(URL.format(lang=lang) + ("?" + query if query else ""), **kw)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_empty_checker_renders_in_every_language(client, lang):
    for mode in ("", "mode=log"):
        response = get(client, mode, lang)
        assert response.status_code == 200
        assert f'<html lang="{lang}"' in response.text
        assert 'id="checker-form"' in response.text
    assert embedded(get(client, "", lang).text) is None


def test_rules_page_links_to_checker(client):
    page = client.get("/en/hanamikoji/?edition=geekach").text
    assert 'id="nav-checker" href="/en/hanamikoji/score?edition=geekach"' in page
    assert '<p id="checker-link"><a href="/en/hanamikoji/score?edition=geekach">' in page


@pytest.mark.rule("hanamikoji", "scoring.majority", "victory.charm")
def test_worked_example_board_mode(client):
    response = get(client, EXAMPLE + "&na=Olena&nb=Jonas")
    ruling = embedded(response.text)
    assert ruling["valid"] and ruling["result"]["winner"] == "b"
    assert ruling["rounds"][0]["charm"]["b"] == 11
    assert 'data-winner="b"' in response.text
    assert 'href="/en/hanamikoji/#victory.charm"' in response.text
    assert 'href="/en/hanamikoji/#scoring.majority"' in response.text
    assert 'id="next-round"' not in response.text  # the game is over


@pytest.mark.rule("hanamikoji", "victory.charm")
def test_rule_links_keep_edition_and_variants(client):
    text = get(client, EXAMPLE + "&edition=geekach&round_limit=1", "uk").text
    assert 'href="/uk/hanamikoji/?edition=geekach&amp;round_limit=1#victory.charm"' in text


def test_bad_board_shows_field_errors_and_keeps_values(client):
    text = get(client, "a=3,1,0,2,2,0,1&b=0,1,2,0,0,2,x").text
    assert embedded(text)["valid"] is False
    assert field_messages(text, "col-0")  # Ayane: 3 cards, only 2 exist
    assert field_messages(text, "col-6")  # "x" is not a count
    assert field_messages(text, "side-a")  # 9 cards on A's side
    assert 'id="a-0" name="a" min="0" max="2" step="1" inputmode="numeric" value="3"' in text
    assert 'aria-describedby="msg-col-0" aria-invalid="true"' in text
    assert 'value="x"' in text
    assert 'aria-invalid="true"' in text


def test_form_submission_with_per_field_values(client):
    query = "&".join([f"a={v}" for v in (2, 1, 0, 2, 2, 0, 1)] + [f"b={v}" for v in (0, 1, 2, 0, 0, 2, 3)]
                     + [f"f{i}=-" for i in range(7)] + ["edition=deepwater", "simultaneous_goal=charm"])
    text = get(client, query).text
    assert embedded(text)["result"]["winner"] == "b"
    # The permalink is the compact one, defaults left out.
    link = re.search(r'id="permalink" class="permalink-link" data-live-region href="([^"]+)"', text).group(1)
    assert html.unescape(link) == f"/en/hanamikoji/score?{EXAMPLE}"


def play(client, query: dict, lang: str = "de") -> str:
    """Press a button of the log form (a GET with its event), follow where it leads."""
    response = client.get(URL.format(lang=lang), query_string=query)
    if response.status_code == 303:
        return response.location
    assert response.status_code == 200
    return ""


def test_log_mode_adds_legal_actions_and_scores_eight(client):
    log: list[str] = []
    for token in LOG:
        action, cards, *taken = token.split(":")
        flat = [c for group in cards.split("/") for c in group.split(",")]
        query = {"mode": "log", "act": list(log), "c": flat, "do": action}
        if taken:
            query["take"] = taken[0]
        location = play(client, query)
        assert location, token
        log.append(token)
        assert location.endswith(web.query_string([("mode", "log")] + [("act", t) for t in log]))
        page = client.get(location).text
        ruling = embedded(page)
        assert ruling["valid"]
        if len(log) < 8:
            progress = ruling["rounds"][0]["progress"]
            assert progress["action_number"] == len(log) + 1
            assert progress["draw_pile"] == 8 - len(log)
            assert 'id="next-action"' in page
    assert ruling["rounds"][0]["outcome"]["status"] != "in_progress"
    assert 'id="ruling-totals"' in page and 'id="next-action"' not in page
    assert 'name="edit" value="7"' in page and 'name="drop" value="0"' in page


def test_log_mode_asks_what_the_opponent_took(client):
    query = {"mode": "log", "act": ["secret:ruri", "tradeoff:ayane,iroha"],
             "c": ["ruri", "ruri", "anju"], "do": "gift"}
    page = client.get(URL.format(lang="en"), query_string=query).text
    assert 'id="take-question"' in page and 'id="refused"' not in page
    assert page.count('name="take" value=') == 2  # Ruri and Anju: one button per card offered
    assert play(client, {**query, "take": "anju"}, "en")


def test_log_mode_pick_unpick_and_clear_without_javascript(client):
    base = {"mode": "log", "act": ["secret:ruri"]}
    location = play(client, {**base, "pick": "anju"}, "en")
    assert location.endswith("act=secret:ruri&c=anju")
    location = play(client, {**base, "c": ["anju", "yoko"], "unpick": "1"}, "en")
    assert location.endswith("act=secret:ruri&c=yoko")
    assert play(client, {**base, "c": ["anju"], "clear": "1"}, "en").endswith("act=secret:ruri")
    page = client.get(URL.format(lang="en"), query_string={**base, "c": ["anju", "anju"]}).text
    assert 'id="tile-anju"' in page and "2 left" in page  # Anju has 4 cards, 2 are chosen


def test_log_mode_edit_and_drop_any_action(client):
    base = {"mode": "log", "act": LOG[:4]}
    location = play(client, {**base, "edit": "1"}, "en")
    assert location.endswith("do=tradeoff&at=1")  # its marker chosen again, its cards to tap
    page = client.get(location).text
    assert 'id="editing-was"' in page and "Ayane, Iroha" in page
    assert ('id="do-tradeoff" name="mark" value="tradeoff" '
            'formaction="/en/hanamikoji/score#next-action" aria-pressed="true"') in page
    assert page.count('<input type="hidden" name="c" value="">') == 2  # a trade-off: two cards
    # One card so far: the page waits for the second.
    assert client.get(URL.format(lang="en"), query_string={
        **base, "at": "1", "c": ["tomoyo"], "do": "tradeoff"}).status_code == 200
    # Change the trade-off's cards: the log keeps its order.
    changed = play(client, {**base, "at": "1", "c": ["tomoyo", "iroha"], "do": "tradeoff"}, "en")
    assert "act=tradeoff:tomoyo,iroha" in changed and changed.index("secret:ruri") < changed.index(
        "tradeoff:tomoyo,iroha") < changed.index("gift:")
    dropped = play(client, {**base, "drop": "0"}, "en")
    assert dropped.endswith(web.query_string(
        [("mode", "log"), ("act", "-")] + [("act", t) for t in LOG[1:4]]
        + [("undo", "0:secret:ruri")]))  # a gap keeps its turn; the undo knows what it was
    assert play(client, {**base, "drop": "3"}, "en").endswith(web.query_string(
        [("mode", "log")] + [("act", t) for t in LOG[:3]] + [("undo", "3:" + LOG[3])]))


# The issue's round: removing or changing an action never gives another one to the other player.
ISSUE_LOG = ["secret:ayane", "secret:iroha", "tradeoff:ruri,ruri", "tradeoff:yoko,anju",
             "gift:ayane,anju,iroha:iroha", "gift:yoko,yoko,tomoyo:tomoyo",
             "competition:ruri,ruri/chiharu,tomoyo:2", "competition:chiharu,anju/chiharu,anju:1"]


def press(client, location: str, event: str) -> str:
    """Press a button on the page at `location` (its query plus the event): where it leads."""
    response = client.get(f"{location}&{event}")
    assert response.status_code == 303, event
    return response.location


def log_players(page: str) -> list[str]:
    return re.findall(r'<li id="log-\d+"[^>]*>\s*<p class="log__what"><span class="log__who">(.*?)</span>', page)


@pytest.mark.rule("hanamikoji", "turn.alternate")
@pytest.mark.parametrize("lang", LANGUAGES)
def test_log_mode_removal_leaves_a_gap_and_undo_puts_it_back(client, lang):
    base = {"mode": "log", "act": ISSUE_LOG, "na": "Olena", "nb": "Taras"}
    before = client.get(URL.format(lang=lang), query_string=base).text
    assert log_players(before) == ["Olena", "Taras"] * 4
    removed = play(client, {**base, "drop": "2"}, lang)
    page = client.get(removed).text
    assert log_players(page) == ["Olena", "Taras"] * 4  # every action keeps its player
    tokens = re.findall(r'<input type="hidden" name="act" value="([^"]*)">', page)
    assert tokens == ISSUE_LOG[:2] + ["-"] + ISSUE_LOG[3:]  # and its content
    assert 'class="log__entry is-editing log__entry--gap"' in page and 'id="log-2"' in page
    assert 'id="next-missing"' in page and 'id="undo"' in page
    assert 'data-status="gap"' in page
    # Only the markers Olena has not used elsewhere: the trade-off she removed.
    assert re.findall(r'id="do-(\w+)" name="mark"[^>]*aria-pressed="false">', page) == ["tradeoff"]
    assert embedded(page, "request-data")["rounds"][0]["actions"] == [
        web.parse_act(t) for t in ISSUE_LOG[:2]]  # ruled up to the gap only
    undone = press(client, removed, "revert=1")
    assert undone.endswith(web.query_string(
        [("mode", "log"), ("na", "Olena"), ("nb", "Taras")] + [("act", t) for t in ISSUE_LOG]))


def test_log_mode_fill_the_gap_then_undo_the_fill(client):
    gapped = {"mode": "log", "act": ISSUE_LOG[:2] + ["-"] + ISSUE_LOG[3:]}
    filled = play(client, {**gapped, "do": "tradeoff", "c": ["ruri", "ruri"]}, "en")
    assert filled.endswith(web.query_string(
        [("mode", "log")] + [("act", t) for t in ISSUE_LOG] + [("undo", "2:-")]))
    assert embedded(client.get(filled).text)["valid"]
    again = press(client, filled, "revert=1")
    assert re.findall(r"act=([^&]*)", again) == ISSUE_LOG[:2] + ["-"] + ISSUE_LOG[3:]


def test_log_mode_change_keeps_the_marker_and_says_what_is_missing(client):
    base = {"mode": "log", "act": ISSUE_LOG}
    editing = play(client, {**base, "edit": "5"}, "en")
    assert editing.endswith("do=gift&at=5")
    again = press(client, editing, "mark=gift")
    assert again.endswith("do=gift&at=5")  # tapping the chosen marker keeps it chosen
    page = client.get(editing).text
    # Taras (B) used his other three markers in other actions: only his gift is offered.
    assert re.findall(r'id="do-(\w+)" name="mark"[^>]*aria-pressed="(\w+)">', page) == [("gift", "true")]
    assert "Still to enter: 3 more cards." in page
    asked = client.get(URL.format(lang="en"), query_string={
        **base, "at": "5", "do": "gift", "c": ["yoko", "tomoyo", "yoko"]}).text
    assert 'id="take-question"' in asked and "Still to enter: what Player A took." in asked
    changed = play(client, {**base, "at": "5", "do": "gift", "c": ["yoko", "tomoyo", "yoko"],
                            "take": "yoko"}, "en")
    assert re.findall(r"act=([^&]*)", changed) == (
        ISSUE_LOG[:5] + ["gift:yoko,tomoyo,yoko:yoko"] + ISSUE_LOG[6:])
    assert changed.endswith("undo=5:" + ISSUE_LOG[5])
    back = press(client, changed, "revert=1")
    assert re.findall(r"act=([^&]*)", back) == ISSUE_LOG


@pytest.mark.rule("hanamikoji", "action.gift", "turn.each-action-once")
def test_log_mode_refuses_illegal_action_and_keeps_inputs(client):
    base = {"mode": "log", "act": ["secret:ruri", "tradeoff:ayane,iroha"]}
    # A reuses the secret: refused, with the referee's reason and rule.
    response = client.get(URL.format(lang="uk"), query_string={**base, "do": "secret", "c": "anju"})
    assert response.status_code == 200
    page = response.text
    assert 'id="refused"' in page
    assert any("turn.each-action-once" in m for m in field_messages(page, "next"))
    assert '<input type="hidden" name="c" value="anju">' in page  # the chosen card is kept
    # Too many cards for a gift (with fewer, the page waits for the rest).
    page = client.get(URL.format(lang="en"), query_string={**base, "do": "gift",
                                                           "c": ["anju", "anju", "yoko", "yoko"],
                                                           "take": "anju"}).text
    assert any("exactly 3 cards" in m and "action.gift" in m for m in field_messages(page, "next"))
    waiting = client.get(URL.format(lang="en"), query_string={**base, "do": "gift",
                                                              "c": ["anju", "anju"]}).text
    assert 'id="refused"' not in waiting and not field_messages(waiting, "next")
    assert waiting.count('<input type="hidden" name="c" value="">') == 1
    # The ruling still shows the log so far.
    assert embedded(page)["rounds"][0]["progress"]["action_number"] == 3


def test_log_mode_a_competition_typed_without_sets_still_says_a_set_was_taken(client):
    """A link typed by hand whose competition cards are not split in two sets: the log says
    which set the opponent took (never "took 1"), beside the referee's refusal."""
    page = html.unescape(client.get(URL.format(lang="en"), query_string={
        "mode": "log", "na": "Olena", "nb": "Pierre",
        "act": ["gift:ruri,ruri,anju:anju", "secret:ruri", "competition:iroha,iroha,yoko,yoko:1"],
    }).text)
    assert "Pierre took set 1" in page and "Pierre took 1" not in page


def test_log_mode_offers_only_the_actions_left(client):
    page = client.get(URL.format(lang="en"), query_string={"mode": "log", "act": ["secret:ruri", "tradeoff:ayane,iroha"]}).text
    markers = dict(re.findall(
        r'<button type="submit" class="marker-button[^"]*" id="do-(\w+)"([^>]*)>', page))
    assert set(markers) == {"secret", "tradeoff", "gift", "competition"}
    assert "disabled" in markers["secret"] and "disabled" not in markers["gift"]  # A used it


def test_log_mode_marker_first_then_cards_complete_the_action(client):
    base = {"mode": "log", "act": ["secret:ruri"]}
    location = play(client, {**base, "mark": "tradeoff"}, "en")
    assert location.endswith("act=secret:ruri&do=tradeoff")
    assert play(client, {**base, "do": "tradeoff", "mark": "tradeoff"}, "en").endswith(
        "act=secret:ruri&do=tradeoff")  # tapped again: still chosen (issue 19: it must not jam)
    assert play(client, {**base, "do": "tradeoff", "mark": "gift"}, "en").endswith(
        "act=secret:ruri&do=gift")  # another marker tapped: that one
    # the second card completes it: added without another tap
    added = play(client, {**base, "do": "tradeoff", "c": ["ayane", "iroha"]}, "en")
    assert added.endswith("act=secret:ruri&act=tradeoff:ayane,iroha")


def test_log_mode_implies_the_only_choice_left(client):
    # A's last action: only the competition is left, so its four cards complete it.
    location = play(client, {"mode": "log", "act": LOG[:6],
                             "c": ["chiharu", "chiharu", "yoko", "yoko"]}, "en")
    assert location == ""  # it waits for B's pick between the two sets
    page = client.get(URL.format(lang="en"), query_string={
        "mode": "log", "act": LOG[:6], "c": ["chiharu", "chiharu", "yoko", "yoko"]}).text
    assert 'id="take-question"' in page
    assert '<input type="hidden" name="do" value="competition">' in page
    # A gift of three Anju cards: the opponent can only take an Anju card.
    gift = play(client, {"mode": "log", "act": LOG[:2], "do": "gift",
                         "c": ["anju", "anju", "anju"]}, "en")
    assert gift.endswith("act=gift:anju,anju,anju:anju")


def test_log_mode_tiles_count_the_cards_left(client):
    page = client.get(URL.format(lang="en"), query_string={"mode": "log", "act": LOG[:7]}).text
    assert re.search(r'id="tile-ruri"[^>]*>.*?2 left<', page, re.DOTALL)  # 5 - 3 seen
    assert re.search(r'id="tile-ayane"[^>]*disabled>', page)  # both Ayane cards were used
    # changing an action of the finished round puts its cards back in play
    edit = client.get(URL.format(lang="en"), query_string={"mode": "log", "act": LOG,
                                                           "at": "0", "do": "secret"}).text
    assert re.search(r'id="tile-ruri"[^>]*>.*?1 left<', edit, re.DOTALL)
    assert re.search(r'id="tile-anju"[^>]*>.*?1 left<', edit, re.DOTALL)  # the card put aside


def test_live_address_is_the_tidy_state(client):
    page = client.get(URL.format(lang="en"), query_string=MultiDict(
        [("na", "Olena"), ("nb", ""), ("round", "1"), ("edition", "deepwater")]
        + [(p, v) for v in ("2", "1", "0", "2", "2", "0", "1") for p in ("a",)]
        + [("b", v) for v in ("0", "1", "2", "0", "0", "2", "3")])).text
    assert ('data-live-address="/en/hanamikoji/score?na=Olena&amp;a=2,1,0,2,2,0,1&amp;'
            'b=0,1,2,0,0,2,3"') in page


def test_next_round_link_carries_favor_and_round(client):
    text = get(client, "a=1,1,1,1,1,1,2&b=1,1,1,1,1,1,2&na=Olena&nb=Jonas&edition=geekach").text
    ruling = embedded(text)
    assert ruling["next"] == {"round": 2, "first_player": "b", "favor": [None] * 7}
    text = get(client, "a=2,0,0,3,0,0,3&b=0,2,2,0,3,0,1").text
    ruling = embedded(text)
    favor = "".join(v or "-" for v in ruling["next"]["favor"])
    # the round just ruled goes on the score sheet: A's counts, then B's; it lands on the board
    assert (f'id="next-round" href="/en/hanamikoji/score?round=2&amp;fav={favor}'
            '&amp;sheet=20030030220301#board"') in text


def follow_next(client, page: str) -> str:
    match = re.search(r'id="next-round" href="([^"]+)"', page)
    assert match, "no next-round link"
    return html.unescape(match.group(1)).split("#")[0]  # a browser never sends the anchor


@pytest.mark.rule("hanamikoji", "variant.round-limit")
def test_three_round_geekach_match_through_next_links(client):
    # Every round a 4-4 split of ties in the middle -> nobody wins; round 3 ends by tie-break.
    tie = "a=1,1,1,1,1,1,2&b=1,1,1,1,1,1,2"
    url = URL.format(lang="uk") + f"?na=Olena&nb=Jonas&edition=geekach&round_limit=1&{tie}"
    page = client.get(url).text
    url = follow_next(client, page)
    assert "round=2" in url and "edition=geekach" in url and "round_limit=1" in url and "na=Olena" in url
    page = client.get(url + "&" + "a=2,0,0,2,2,0,2&b=0,1,1,1,1,2,2").text
    ruling = embedded(page)
    assert ruling["valid"] and ruling["rounds"][0]["round"] == 2
    assert ruling["rounds"][0]["first_player"] == "b"
    url = follow_next(client, page)
    assert "round=3" in url
    page = client.get(url + "&" + tie).text
    ruling = embedded(page)
    assert ruling["result"]["status"] == "win" and ruling["result"]["reason"].startswith("limit_")
    assert 'id="next-round"' not in page
    assert any(e["rule"] == "variant.round-limit" for e in ruling["rounds"][0]["explanation"])


def test_permalink_reproduces_the_ruling(client):
    page = get(client, EXAMPLE + "&na=Olena&nb=Jonas&edition=kosmos&simultaneous_goal=geishas", "fr").text
    link = html.unescape(re.search(r'id="permalink" class="permalink-link" data-live-region href="([^"]+)"', page).group(1))
    assert embedded(client.get(link).text) == embedded(page)


def test_cli_page_and_api_agree(client, tmp_path, capsys):
    query = EXAMPLE + "&na=Olena&nb=Jonas&edition=geekach&round_limit=1&removed=chiharu"
    page = get(client, query, "uk").text
    request_doc = embedded(page, "request-data")
    api = client.post("/api/v1/hanamikoji/score?lang=uk", json=request_doc).get_json()
    path = tmp_path / "request.json"
    path.write_text(json.dumps(request_doc), encoding="utf-8")
    assert cli.main(["score", "--json", "--lang", "uk", str(path)]) == 0
    from_cli = json.loads(capsys.readouterr().out)
    assert embedded(page) == api == from_cli
    assert api["valid"] and api["players"] == {"a": "Olena", "b": "Jonas"}


def test_log_mode_cli_page_and_api_agree(client, tmp_path, capsys):
    page = client.get(URL.format(lang="de"), query_string={"mode": "log", "act": LOG}).text
    request_doc = embedded(page, "request-data")
    api = client.post("/api/v1/hanamikoji/score?lang=de", json=request_doc).get_json()
    path = tmp_path / "log.json"
    path.write_text(json.dumps(request_doc), encoding="utf-8")
    cli.main(["score", "--json", "--lang", "de", str(path)])
    assert embedded(page) == api == json.loads(capsys.readouterr().out)


def test_player_names_are_escaped(client):
    evil = "<script>alert(1)</script>"
    page = client.get(URL.format(lang="en"), query_string={"a": "2,1,0,2,2,0,1", "b": "0,1,2,0,0,2,3",
                                                            "na": evil, "nb": "</script><b>x"}).text
    assert "<script>alert(1)" not in page
    assert "</script><b>x" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert embedded(page)["players"]["a"] == evil


def test_long_name_is_a_field_error(client):
    page = get(client, EXAMPLE + "&na=" + "x" * 60).text
    assert field_messages(page, "name-a")


@pytest.mark.parametrize("query", [
    "a=" + "9," * 5000, "round=abc&" + EXAMPLE, "round=99999999999&" + EXAMPLE, "fav=zzz",
    "fav=abababa&round=2&" + EXAMPLE, "mode=log&act=" + "&act=".join(["x:y:z"] * 30),
    "mode=log&act=competition:a/b/c/d:9&do=competition&c1=ruri&take=ruri", "mode=nonsense",
    "edition=%00%ff&" + EXAMPLE, "round_limit=maybe&simultaneous_goal=both&" + EXAMPLE,
    "a=1&b=2", "removed=sakura&" + EXAMPLE, "mode=log&do=gift&take=7", "na=&nb=%20&" + EXAMPLE,
    "a=-1,0,0,0,0,0,0&b=%E2%82%AC,,,,,,", "mode=log&act=:::&act=secret",
])
def test_absurd_queries_never_fail(client, query):
    response = get(client, query)
    assert response.status_code in (200, 303, 414)


def test_huge_query_string_is_refused_cleanly(client):
    response = get(client, "na=" + "x" * 50_000)
    assert response.status_code in (200, 414)


def test_form_module_round_trip():
    rb = load_rulebook()
    form = web.read_form(rb, MultiDict([("mode", "log")] + [("act", t) for t in LOG[:4]]), "en")
    actions = web.round_request(form)["rounds"][0]["actions"]
    assert all("player" not in a for a in actions)  # the referee knows whose turn it is
    assert [web.act_token(a) for a in actions] == LOG[:4]
    assert web.field_for_path("/rounds/0/actions/4/cards/1", log_length=4) == "next"
    assert web.field_for_path("/rounds/0/actions/2/cards", log_length=4) == "log-2"
    assert web.field_for_path("/rounds/0/actions/2/cards", editing=2, log_length=4) == "next"
    assert web.field_for_path("/rounds/0/board/a/3") == "col-3"
    assert web.field_for_path("/rounds/0/board/b") == "side-b"
    assert web.field_for_path("/start/favor/2") == "col-2"
    assert web.field_for_path("/players/a") == "name-a"
    assert web.round_request(web.read_form(rb, MultiDict(), "en")) is None


def test_board_steppers_work_without_javascript(client):
    location = play(client, {"a": "2,1,0,2,2,0,1", "step": "a:2:+1"}, "en")
    assert location.endswith("a=2,1,1,2,2,0,1")
    # never above the cards a geisha has, never below zero
    assert play(client, {"a": "2,1,0,2,2,0,1", "step": "a:0:+1"}, "en").endswith("a=2,1,0,2,2,0,1")
    assert play(client, {"step": "b:6:-1"}, "en").endswith("score")


def test_board_errors_wait_until_a_side_is_complete(client):
    page = get(client, "a=2,1,0,0,0,0,0&b=0,1,0,0,0,0,0").text
    assert re.search(r'id="tally-a"[^>]*>\s*<span class="board__player">Player A</span>\s*'
                     r'<span class="board__count">3 of 8 cards<', page)
    assert not field_messages(page, "side-a") and not field_messages(page, "side-b")
    assert 'data-status="incomplete"' in page
    asked = get(client, "a=2,1,0,0,0,0,0&b=0,1,0,0,0,0,0&check=1").text
    assert field_messages(asked, "side-a") and 'data-status="invalid"' in asked
    over = get(client, "a=2,2,2,2,2,0,0&b=0,1,0,0,0,0,0").text  # 10 cards on A's side
    assert field_messages(over, "side-a") and not field_messages(over, "side-b")


def test_board_shows_the_supply_of_each_geisha(client):
    page = get(client, "a=2,1,0,2,2,0,1&b=0,1,2,0,0,2,3").text
    assert re.search(r'id="left-6"[^>]*>1 of 5 left<', page)  # Ruri: 1 + 3 on the table


def test_checker_round_limit_follows_the_edition(client):
    third = "round=3&fav=ab----b&a=1,1,1,1,1,1,2&b=1,1,1,1,1,1,2"
    kosmos = get(client, f"edition=kosmos&{third}").text
    assert 'data-status="win"' in kosmos and 'data-winner="b"' in kosmos
    played_on = get(client, f"edition=kosmos&round_limit=0&{third}").text
    assert 'data-status="continue"' in played_on


def test_a_choice_the_menus_lack_is_named_once_and_the_default_scores(client):
    """An edited address (edition=xyz): the page's notice in its language, the default
    edition's ruling, and no list of the API's ids."""
    html = client.get(f"/fr/hanamikoji/score?edition=xyz&simultaneous_goal=zz&{EXAMPLE}"
                      ).get_data(as_text=True)
    notices = re.findall(r'class="notice">([^<]*)', html)
    assert len(notices) == 2 and "xyz" in notices[0]
    assert 'data-status="win"' in html
    assert "«\u00a0deepwater\u00a0»" not in html and "emperors4\u00a0»" not in html


# A clash (A: four geishas, B: eleven charm points) with names of both genders per language.
CLASH = "a=2,2,2,2,0,0,0&b=0,0,0,0,2,3,3&check=1"
NAMES = {"en": ("Olena", "Jonas"), "de": ("Anke", "Jürgen"), "uk": ("Олена", "Тарас"),
         "es": ("María", "José"), "fr": ("Élodie", "Ayane"), "ja": ("美咲", "翔太")}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_clash_ruling_reads_with_real_names(client, lang):
    """Both readings of a clash, with a woman's and a man's name: the sentences name them,
    and none says a word twice in a row (French once read "Selon selon la variante…")."""
    a, b = NAMES[lang]
    ruling = embedded(get(client, f"{CLASH}&na={a}&nb={b}", lang).text)
    other = ruling["alternatives"][0]["message"]
    assert a in other and b in ruling["result"]["message"]
    sentences = [e["message"] for e in ruling["rounds"][0]["explanation"]]
    for text in [*sentences, ruling["result"]["message"], other]:
        doubled = re.search(r"\b(\w{3,})\W+\1\b", text, re.IGNORECASE)
        assert not doubled, text


def test_log_keeps_who_moved_when_a_later_action_is_refused(client):
    """The first action is valid, a later one breaks a rule: the log still says who took
    what, with the name inside the sentence ("Pierre se quedó con Anju", not "el rival")."""
    query = {"mode": "log", "na": "Olena", "nb": "Pierre",
             "act": ["gift:ruri,ruri,anju:anju", "secret:ruri", "secret:yoko"]}
    page = client.get(URL.format(lang="es"), query_string=query).text
    assert "Pierre se quedó con Anju" in html.unescape(page)
    assert "el rival" not in page
    first = re.search(r'<li id="log-0".*?</li>', page, re.DOTALL).group(0)
    assert '<span class="log__who">Olena</span>' in first


def test_board_says_how_many_cards_are_too_many(client):
    page = get(client, "a=5,1,1,2,2,1,1&b=1,0,0,0,0,3,9", "es").text
    assert re.search(r'id="left-0"[^>]*>4 de más<', page)  # Ayane has 2 cards, 6 are counted
    assert "-4" not in re.search(r'id="left-0"[^>]*>[^<]*<', page).group(0)


def test_rule_links_are_marked_as_rules(client):
    page = get(client, "a=1,1,1,1,1,1,2&b=1,0,1,2,1,2,1&check=1", "es").text  # the game goes on
    link = re.search(r'<a class="rule-link" href="[^"]*#victory\.immediate"[^>]*>.*?</a>', page)
    assert link and 'aria-label="Regla: La partida termina en el acto"' in link.group(0)
    assert '<span class="rule-link__mark" aria-hidden="true">§</span>&nbsp;La partida' in link.group(0)


THIRD_ROUND_TIE = "round=3&fav=ab----b&a=1,1,1,1,1,1,2&b=1,1,1,1,1,1,2"


@pytest.mark.rule("hanamikoji", "variant.round-limit")
@pytest.mark.parametrize("edition", list(load_rulebook().editions))
def test_round_limit_is_one_control_showing_the_editions_rule(client, edition):
    """Issue 19: two choices (on, off), the edition's own rule named on one of them and
    checked unless the table chose the other; choosing the edition's rule leaves it out of links."""
    rb = load_rulebook()
    own = "1" if rb.round_limit_default(edition) else "0"
    page = get(client, f"edition={edition}").text
    field = page[page.index('id="round-limit-field"'):]
    field = field[:field.index("</fieldset>")]
    assert re.findall(r'name="round_limit" value="(\w*)"', field) == ["1", "0"]
    assert re.findall(r'name="round_limit" value="(\w)" checked', field) == [own]
    assert field.count(f"(as the {rb.editions[edition].publisher} edition says)") == 1
    assert f'id="round_limit-{own}"' in field.split("edition says")[0]
    other = "0" if own == "1" else "1"
    chosen = get(client, f"edition={edition}&round_limit={other}").text
    assert re.findall(r'name="round_limit" value="(\w)" checked', chosen) == [other]
    same = get(client, f"edition={edition}&round_limit={own}&{EXAMPLE}").text
    assert "round_limit" not in re.search(r'id="permalink"[^>]*href="([^"]*)"', same).group(1)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_inferred_badge_says_what_was_inferred(client, lang):
    # Deep Water Games' tie-break under the limit is inferred from Geekach's book.
    page = get(client, f"edition=deepwater&round_limit=1&{THIRD_ROUND_TIE}", lang).text
    note = re.search(r'<details class="inferred-note" id="inferred-verdict">(.*?)</details>',
                     page, re.DOTALL)
    assert note, lang
    assert "<summary" in note.group(1) and "Geekach" in note.group(1)
    plain = get(client, f"edition=geekach&round_limit=1&{THIRD_ROUND_TIE}", lang).text
    assert 'id="inferred-verdict"' not in plain  # Geekach's own book: nothing inferred

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
from webapp import checker_form as cf

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


def test_worked_example_board_mode(client):
    response = get(client, EXAMPLE + "&na=Olena&nb=Jonas")
    ruling = embedded(response.text)
    assert ruling["valid"] and ruling["result"]["winner"] == "b"
    assert ruling["rounds"][0]["charm"]["b"] == 11
    assert 'data-winner="b"' in response.text
    assert 'href="/en/hanamikoji/#victory.charm"' in response.text
    assert 'href="/en/hanamikoji/#scoring.majority"' in response.text
    assert 'id="next-round"' not in response.text  # the game is over


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
    assert 'value="x"' in text
    assert 'aria-invalid="true"' in text


def test_form_submission_with_per_field_values(client):
    query = "&".join([f"a={v}" for v in (2, 1, 0, 2, 2, 0, 1)] + [f"b={v}" for v in (0, 1, 2, 0, 0, 2, 3)]
                     + [f"f{i}=-" for i in range(7)] + ["edition=deepwater", "simultaneous_goal=charm"])
    text = get(client, query).text
    assert embedded(text)["result"]["winner"] == "b"
    # The permalink is the compact one, defaults left out.
    link = re.search(r'id="permalink" class="permalink-link" href="([^"]+)"', text).group(1)
    assert html.unescape(link) == f"/en/hanamikoji/score?{EXAMPLE}"


def test_log_mode_adds_legal_actions_and_scores_eight(client):
    log: list[str] = []
    for token in LOG:
        action, cards, *taken = token.split(":")
        query = {"mode": "log", "act": list(log), "do": action}
        flat = [c for group in cards.split("/") for c in group.split(",")]
        for k, card in enumerate(flat, start=1):
            query[f"c{k}"] = card
        if taken:
            query["take"] = taken[0]
        response = client.get(URL.format(lang="de"), query_string=query)
        assert response.status_code == 303, token
        log.append(token)
        assert response.location.endswith(cf.query_string([("mode", "log")] + [("act", t) for t in log]))
        page = client.get(response.location).text
        ruling = embedded(page)
        assert ruling["valid"]
        if len(log) < 8:
            progress = ruling["rounds"][0]["progress"]
            assert progress["action_number"] == len(log) + 1
            assert progress["draw_pile"] == 8 - len(log)
            assert 'id="new-action"' in page
    assert ruling["rounds"][0]["outcome"]["status"] != "in_progress"
    assert 'id="ruling-totals"' in page and 'id="new-action"' not in page
    assert 'id="undo" href="/de/hanamikoji/score?mode=log&amp;' in page


def test_log_mode_refuses_illegal_action_and_keeps_inputs(client):
    base = {"mode": "log", "act": ["secret:ruri", "tradeoff:ayane,iroha"]}
    # A reuses the secret: refused, with the referee's reason and rule.
    text = client.get(URL.format(lang="uk"), query_string={**base, "do": "secret", "c1": "anju"})
    assert text.status_code == 200
    page = text.text
    assert 'id="refused"' in page
    assert any("turn.each-action-once" in m for m in field_messages(page, "do"))
    assert '<option value="anju" selected>' in page
    # The wrong number of cards for a gift.
    page = client.get(URL.format(lang="en"), query_string={**base, "do": "gift", "c1": "anju",
                                                           "c2": "anju", "take": "anju"}).text
    assert any("exactly 3 cards" in m and "action.gift" in m for m in field_messages(page, "cards"))
    assert 'value="gift" data-cards="3" data-split="0" data-chooser="opponent" selected' in page
    # The ruling still shows the log so far.
    assert embedded(page)["rounds"][0]["progress"]["action_number"] == 3


def test_log_mode_offers_only_the_actions_left(client):
    page = client.get(URL.format(lang="en"), query_string={"mode": "log", "act": ["secret:ruri", "tradeoff:ayane,iroha"]}).text
    select = re.search(r'<select id="do".*?</select>', page, re.DOTALL).group(0)
    assert 'value="secret"' not in select and 'value="gift"' in select


def test_next_round_link_carries_favor_and_round(client):
    text = get(client, "a=1,1,1,1,1,1,2&b=1,1,1,1,1,1,2&na=Olena&nb=Jonas&edition=geekach").text
    ruling = embedded(text)
    assert ruling["next"] == {"round": 2, "first_player": "b", "favor": [None] * 7}
    text = get(client, "a=2,0,0,3,0,0,3&b=0,2,2,0,3,0,1").text
    ruling = embedded(text)
    favor = "".join(v or "-" for v in ruling["next"]["favor"])
    assert f'id="next-round" href="/en/hanamikoji/score?round=2&amp;fav={favor}"' in text


def follow_next(client, page: str) -> str:
    match = re.search(r'id="next-round" href="([^"]+)"', page)
    assert match, "no next-round link"
    return html.unescape(match.group(1))


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
    link = html.unescape(re.search(r'id="permalink" class="permalink-link" href="([^"]+)"', page).group(1))
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
    parsed = cf.parse(MultiDict([("mode", "log")] + [("act", t) for t in LOG[:4]]), rb)
    actions = parsed.request["rounds"][0]["actions"]
    assert [a["player"] for a in actions] == ["a", "b", "a", "b"]
    assert [cf.act_token({k: v for k, v in a.items() if k != "player"}) for a in actions] == LOG[:4]
    assert cf.field_for_path("/rounds/0/actions/4/cards/1", 4) == "cards"
    assert cf.field_for_path("/rounds/0/actions/2/cards", 4) == "log-2"
    assert cf.field_for_path("/rounds/0/board/a/3") == "col-3"
    assert cf.field_for_path("/rounds/0/board/b") == "side-b"
    assert cf.field_for_path("/start/favor/2") == "col-2"
    assert cf.field_for_path("/players/a") == "name-a"
    assert cf.parse(MultiDict(), rb).request is None


def test_checker_round_limit_follows_the_edition(client):
    third = "round=3&fav=ab----b&a=1,1,1,1,1,1,2&b=1,1,1,1,1,1,2"
    kosmos = get(client, f"edition=kosmos&{third}").text
    assert 'data-status="win"' in kosmos and 'data-winner="b"' in kosmos
    played_on = get(client, f"edition=kosmos&round_limit=0&{third}").text
    assert 'data-status="continue"' in played_on

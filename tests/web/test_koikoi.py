"""Koi-Koi on the site through Flask's test client: rules pages, card chart, scoring checker, API rulebook."""
from __future__ import annotations

import json
import re
from html import unescape
from urllib.parse import parse_qsl, urlsplit

import pytest

from rulebook.i18n import LANGUAGES, translator
from rulebook.koikoi import load_rulebook, referee

RB = load_rulebook()
PAGES = ["/{lang}/koikoi/", "/{lang}/koikoi/disagreements", "/{lang}/koikoi/search?q=goko",
         "/{lang}/koikoi/score", "/{lang}/koikoi/score?a=0,2,8,10,28,30&winner=a&ka=0&kb=1&ruleset=nintendo"]
SANKO = [0, 2, 8, 10, 28, 30]  # ngs/go-koikoi {0,8,28} -> Sanko, padded to same-month pairs


def html_of(response) -> str:
    return response.get_data(as_text=True)


def ruling_of(html: str):
    match = re.search(r'<script type="application/json" id="ruling-data">(.*?)</script>', html, re.DOTALL)
    assert match, "no ruling-data"
    return json.loads(match.group(1))


def yaku_points(html: str) -> dict[str, str]:
    return dict(re.findall(r'id="yaku-row-([a-z_]+)".*?class="yaku-points" data-points="(\d*)"', html, re.DOTALL))


def checker_request(a, winner="a", b=None, calls=(0, 0), ruleset="nintendo", options=None):
    captured = {"a": a} if a or winner == "a" else {}
    if b:
        captured["b"] = b
    return {"game": "koikoi", "ruleset": ruleset, "options": options or {},
            "rounds": [{"winner": winner, "captured": captured, "koikoi": {"a": calls[0], "b": calls[1]}}]}


# -- every page in every language ----------------------------------------------------
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("page", PAGES)
def test_page_renders_in_language(client, lang, page):
    response = client.get(page.format(lang=lang))
    assert response.status_code == 200
    html = html_of(response)
    assert f'<html lang="{lang}"' in html
    assert 'class="skip-link" href="#main"' in html
    assert "<script>" not in html and " style=" not in html  # CSP-ready
    assert "css/koikoi." in html
    assert 'href="/' + lang + '/koikoi/score' in html  # the checker is in the game nav


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_rule_is_an_anchor_with_permalink(client, lang):
    html = html_of(client.get(f"/{lang}/koikoi/"))
    for rule_id in RB.rules:
        assert f'id="{rule_id}"' in html, rule_id
    shown = [s for s in RB.sections if s.id != "referee"]  # on the developer page
    for rule_id in (r for s in shown for r in s.rules):
        assert re.search(rf'class="permalink" href="#{re.escape(rule_id)}" aria-label="[^"]+"',
                         html), rule_id
    positions = [html.index(f'id="section-{s.id}"') for s in shown]
    assert positions == sorted(positions)


def test_yaku_table_names_rules_by_title(client):
    html = html_of(client.get("/en/koikoi/"))
    table = html[html.index('id="yaku-table"'):]
    table = table[: table.index("</table>")]
    assert 'class="yaku-id"' not in table
    for yaku in RB.yaku:
        assert re.search(rf'class="yaku-link" href="#{re.escape(yaku.rule)}" aria-label="Link to '
                         r'this rule: [^".]+"', table), yaku.id
    # each value carries its column's name for the one-card-per-yaku layout of phones
    assert table.count('data-label="Points"') == len(RB.yaku)


def test_disagreements_and_faq(client):
    html = html_of(client.get("/en/koikoi/disagreements"))
    for entry in RB.disagreements:
        assert f'id="{entry["id"]}"' in html
    assert "sake_cup_as_plain=0" in html  # the other reading is one link away
    rules = html_of(client.get("/en/koikoi/"))
    for entry in RB.faq:
        assert f'id="{entry["id"]}"' in rules


def test_search_finds_yaku_by_name_and_romaji(client):
    html = html_of(client.get("/en/koikoi/search?q=Goko"))
    assert 'data-rule="yaku.goko"' in html
    html = html_of(client.get("/en/koikoi/search?q=sake+cup"))
    assert 'data-rule="deck.sake-cup"' in html
    html = html_of(client.get("/en/koikoi/search?q=%3Cscript%3E"))
    assert "<script>" not in html


# -- ruleset and options -------------------------------------------------------------
@pytest.mark.parametrize("ruleset, goko, sanko", [("nintendo", "10", "5"), ("fudawiki", "15", "6"),
                                                   ("gamedesign", "15", "6"), ("yakuza", "10", "6")])
def test_ruleset_toggle_changes_yaku_values(client, ruleset, goko, sanko):
    html = html_of(client.get(f"/en/koikoi/?ruleset={ruleset}"))
    points = yaku_points(html)
    assert points["goko"] == goko and points["sanko"] == sanko
    assert f'<option value="{ruleset}" selected>' in html
    assert 'class="rule rule--active" id="ruleset.' + ruleset + '"' in html


def test_default_ruleset_is_nintendo(client):
    points = yaku_points(html_of(client.get("/fr/koikoi/")))
    assert points["goko"] == "10"
    assert len(points) == len(RB.yaku)


def test_options_in_force_and_bad_values(client):
    html = html_of(client.get("/en/koikoi/?ruleset=nintendo&viewings=off&seven_point_double=0"))
    block = html[html.index('id="options-in-force"'):]
    block = block[:block.index("</dl>")]
    assert block.count("is-changed") == 2
    assert 'data-option="viewings"' in block
    assert 'class="rule rule--active" id="options.viewings"' in html
    assert re.search(r'id="yaku-row-hanami" class="is-off"', html)
    bad = html_of(client.get("/en/koikoi/?ruleset=poker&viewings=%3Cb%3Emaybe"))
    assert 'id="notices"' in bad and "poker" in bad and "&lt;b&gt;maybe" in bad
    assert "<b>maybe" not in bad
    assert yaku_points(bad)["goko"] == "10"


def test_compare_mode(client):
    html = html_of(client.get("/en/koikoi/?compare=fr&ruleset=fudawiki"))
    assert 'class="rule__text rule__text--compare" lang="fr"' in html
    assert "compare=fr" in html and "ruleset=fudawiki" in html


# -- the card chart ------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "es", "uk"])
def test_chart_has_48_labelled_tiles(client, lang):
    html = html_of(client.get(f"/{lang}/koikoi/"))
    chart = html[html.index('id="card-figure"'):html.index("</figure>", html.index('id="card-figure"'))]
    tiles = re.findall(r'<li class="kk-card kk-card--(\w+)[^"]*" id="card-([a-z0-9-]+)" data-card="(\d+)"', chart)
    assert len(tiles) == 48
    assert [int(i) for _, _, i in tiles] == list(range(48))
    assert [kind for kind, _, _ in tiles] == [c.kind for c in RB.cards]
    assert chart.count('class="kk-month ') == 12
    t = translator(lang)
    for card in RB.cards:
        assert unescape(t.pgettext(f"koikoi.card.{card.slug}", card.name)) in unescape(chart)
    assert chart.count('aria-hidden="true"') >= 48  # drawings are decoration; the text labels them


# -- the scoring checker -------------------------------------------------------------
VECTORS = [
    ([0, 2, 8, 10, 28, 30, 40, 42, 44, 45], "goko", 20),    # 5 brights: 10, x2 for 7+
    ([0, 2, 8, 10, 28, 30, 44, 45], "shiko", 16),
    ([0, 2, 8, 10, 28, 30, 40, 43], "ameshiko", 14),
    (SANKO, "sanko", 5),
    ([8, 10, 32, 34], "hanami", 5),
    ([20, 22, 24, 26, 36, 38], "inoshikacho", 5),
    ([1, 2, 5, 6, 9, 10], "akatan", 5),
    ([1, 2, 5, 6, 9, 10, 21, 22, 33, 34, 37, 38], "akatan_aotan", 20),
]


@pytest.mark.parametrize("pile, yaku, score", VECTORS)
def test_checker_ruling_matches_referee(client, pile, yaku, score):
    url = "/en/koikoi/score?a=" + ",".join(map(str, pile)) + "&winner=a&ka=0&kb=0&ruleset=nintendo"
    response = client.get(url)
    assert response.status_code == 200
    html = html_of(response)
    ruling = ruling_of(html)
    assert ruling == referee(checker_request(pile), "en")
    assert yaku in [y["id"] for y in ruling["rounds"][0]["yaku"]]
    assert ruling["rounds"][0]["score"]["a"] == score
    assert f'id="score-a">{score}<' in html
    assert f'class="kk-yaku is-scored" id="yaku-{yaku}"' in html
    for slug in ruling["rounds"][0]["yaku"][0]["cards"]:
        assert f'is-yaku" id="pile-a-{slug}"' in html
    for step in ruling["rounds"][0]["explanation"]:
        assert f'href="/en/koikoi/#{step["rule"]}"' in html


def test_checker_goko_per_ruleset_and_options(client):
    pile = VECTORS[0][0]
    base = "/en/koikoi/score?a=" + ",".join(map(str, pile)) + "&winner=a&ka=0&kb=0"
    assert ruling_of(html_of(client.get(base + "&ruleset=fudawiki")))["rounds"][0]["score"]["a"] == 30
    off = ruling_of(html_of(client.get(base + "&ruleset=nintendo&seven_point_double=0")))
    assert off["rounds"][0]["score"]["a"] == 10 and off["options"]["seven_point_double"] is False


def test_checker_koikoi_call_without_pile_is_accepted(client):
    """referee.unlisted-pile: B called koi-koi; B's pile is not given, so the call stands."""
    html = html_of(client.get("/es/koikoi/score?a=0,2,8,10,28,30&winner=a&ka=0&kb=1&ruleset=nintendo"))
    ruling = ruling_of(html)
    assert ruling["valid"] and ruling["rounds"][0]["score"]["a"] == 10
    assert ruling == referee(checker_request(SANKO, calls=(0, 1)), "es")


def test_checker_draw_and_both_piles(client):
    html = html_of(client.get("/en/koikoi/score?a=0,2&b=8,10&winner=none&ka=0&kb=0&ruleset=nintendo"))
    ruling = ruling_of(html)
    assert ruling["valid"] and ruling["rounds"][0]["winner"] is None
    both = html_of(client.get("/en/koikoi/score?a=0,2,8,10,28,30&b=0,2&winner=a&ka=0&kb=0&ruleset=nintendo"))
    assert re.search(r'id="b-error" data-error-for="b" data-live-region>[^<]+<', both)


def test_permalink_reproduces_the_ruling(client):
    loose = ("/fr/koikoi/score?a=0&a=2&a=8&a=10&a=28&a=30&winner=a&ka=&kb=1&ruleset=fudawiki"
             "&viewings=&seven_point_double=0&double_cap=")
    response = client.get(loose)
    assert response.status_code == 303
    target = urlsplit(response.headers["Location"])
    assert target.path == "/fr/koikoi/score"
    assert dict(parse_qsl(target.query)) == {"a": "0,2,8,10,28,30", "winner": "a", "ka": "0", "kb": "1",
                                            "ruleset": "fudawiki", "seven_point_double": "0"}
    html = html_of(client.get(target.path + "?" + target.query))
    ruling = ruling_of(html)
    assert ruling["rounds"][0]["score"]["a"] == 12  # Sanko 6 (FudaWiki), x2 for B's call
    assert 'id="permalink" href="/fr/koikoi/score?a=0,2,8,10,28,30&amp;winner=a' in html
    assert client.get(target.path + "?" + target.query).status_code == 200  # no redirect loop


def test_errors_keep_typed_values(client):
    html = html_of(client.get("/de/koikoi/score?a=0,2,99,x&winner=q&ka=zz&kb=9&viewings=maybe&ruleset=poker"))
    for field in ("a", "winner", "ka", "kb", "viewings", "ruleset"):
        assert re.search(rf'data-error-for="{field}" data-live-region>[^<]+<', html), field
    assert 'name="ka" min="0" max="8" step="1" inputmode="numeric" value="zz"' in html
    assert re.search(r'data-error-for="a" data-live-region>[^<]*99', html)
    assert "maybe" in html and "poker" in html
    assert ruling_of(html) is None or not ruling_of(html)["valid"]
    assert 'id="result-score" hidden' in html


def test_odd_month_pile_is_a_field_error(client):
    # asked for the ruling (check=1): the referee's reason at the pile
    html = html_of(client.get("/en/koikoi/score?a=0,8,28&winner=a&ka=0&kb=0&ruleset=nintendo&check=1"))
    ruling = ruling_of(html)
    assert not ruling["valid"]
    assert {e["code"] for e in ruling["errors"]} == {"pile.month-count"}
    assert re.search(r'data-error-for="a" data-live-region>[^<]*Pine', html)
    # still picking: the same reason, as the hint beside "pick its pair"
    html = html_of(client.get("/en/koikoi/score?a=0,8,28&winner=a&ka=0&kb=0&ruleset=nintendo"))
    assert re.search(r'id="a-pending" data-live-region>[^<]*Pine', html)


MATCH = "na=Olena&nb=Jonas&round=3&dealer=b&ta=5&tb=2"


def next_link(html: str) -> str:
    match = re.search(r'id="next-round" href="([^"]+)"', html)
    assert match, "no next-round link"
    return unescape(match.group(1))


def test_checker_scores_a_round_of_a_match(client):
    """referee.start: names, the round of the match, its dealer and the totals so far."""
    html = html_of(client.get(f"/en/koikoi/score?{MATCH}&b=0,2,8,10,28,30&winner=b&ka=1&kb=0"
                              "&ruleset=nintendo"))
    ruling = ruling_of(html)
    assert ruling["valid"] and ruling["players"] == {"a": "Olena", "b": "Jonas"}
    assert ruling["rounds"][0]["round"] == 3 and ruling["rounds"][0]["dealer"] == "b"
    assert ruling["totals"] == {"a": 5, "b": 12}  # 2 + Sanko 5, x2 for Olena's call
    expected = {"game": "koikoi", "ruleset": "nintendo", "options": {},
                "players": {"a": "Olena", "b": "Jonas"},
                "start": {"round": 3, "dealer": "b", "totals": {"a": 5, "b": 2}},
                "rounds": [{"winner": "b", "captured": {"b": SANKO}, "koikoi": {"a": 1, "b": 0}}]}
    assert ruling == referee(expected, "en")
    assert "Jonas stopped with a yaku" in html and "Koi-koi calls by Olena" in html
    assert 'data-live-region data-status="continue" data-score-a="0" data-score-b="10"' in html
    # the next round: round 4, dealt by the winner (Nintendo), the new totals; no cards yet
    link = next_link(html)
    assert dict(parse_qsl(urlsplit(link).query)) == {
        "na": "Olena", "nb": "Jonas", "round": "4", "dealer": "b", "ta": "5", "tb": "12",
        "winner": "a", "ka": "0", "kb": "0", "ruleset": "nintendo",
        "sheet": "@3_b_5_2.b10-028ASU"}  # where the match started, and this round on its sheet
    following = client.get(link)
    assert following.status_code == 200  # already the tidy form: no redirect
    page = html_of(following)
    assert ruling_of(page) is None and 'class="kk-errors" id="errors" hidden' in page
    assert 'value="12"' in page and 'id="dealer-b" name="dealer" value="b" checked' in page


def test_checker_next_dealer_follows_the_ruleset(client):
    """match.dealer-after-draw: after a round without a winner FudaWiki's dealer deals again."""
    base = "/en/koikoi/score?round=2&dealer=b&winner=none&a=0,2&ka=0&kb=0"
    after = {ruleset: dict(parse_qsl(urlsplit(next_link(html_of(
        client.get(f"{base}&ruleset={ruleset}")))).query))
        for ruleset in ("fudawiki", "nintendo", "gamedesign")}
    assert after["fudawiki"]["dealer"] == "b" and "dealer" not in after["nintendo"]  # A: default
    assert after["fudawiki"]["round"] == after["nintendo"]["round"] == "3"
    # the dealer's 6 points after a draw, from Hanafuda Flash's 10, taken from A (zero-sum)
    assert after["gamedesign"]["tb"] == "16" and after["gamedesign"]["ta"] == "4"
    assert after["gamedesign"]["dealer"] == "b"  # and the deal it keeps


def test_checker_last_round_ends_the_match(client):
    html = html_of(client.get("/en/koikoi/score?round=12&ta=30&tb=10&a=0,2,8,10,28,30&winner=a"
                              "&ka=0&kb=0&ruleset=nintendo"))
    ruling = ruling_of(html)
    assert ruling["result"]["status"] == "win" and ruling["result"]["winner"] == "a"
    assert 'id="next-round"' not in html and 'data-status="win"' in html


@pytest.mark.parametrize("query, field", [
    ("round=13", "round"), ("round=zero", "round"), ("dealer=c", "dealer"), ("ta=-3", "ta"),
    ("tb=lots", "tb"), ("na=" + "x" * 41, "na"),
])
def test_checker_match_fields_explain_bad_values(client, query, field):
    html = html_of(client.get(f"/de/koikoi/score?{query}&a=0,2,8,10,28,30&winner=a&ka=0&kb=0"
                              "&ruleset=nintendo"))
    assert re.search(rf'data-error-for="{field}" data-live-region>[^<]+<', html), field
    assert not ruling_of(html)["valid"]
    assert 'id="match" open' in html or field.startswith("n")
    assert 'id="table-options" open' not in html  # folded: none of its options is wrong
    value = query.split("=", 1)[1]
    if field != "dealer":  # a choice of two: the message says what was wrong
        assert f'value="{value}"' in html  # what was typed stays in its field


def test_checker_calls_stepper_without_javascript(client):
    response = client.get(f"/en/koikoi/score?{MATCH}&a=0,2,8,10,28,30&winner=a&ka=0&kb=1"
                          "&ruleset=nintendo&step=b:%2B1")
    assert response.status_code == 303
    assert dict(parse_qsl(urlsplit(response.headers["Location"]).query))["kb"] == "2"
    down = client.get("/en/koikoi/score?a=0,2,8,10,28,30&winner=a&ka=0&kb=0&step=a:-1")
    assert dict(parse_qsl(urlsplit(down.headers["Location"]).query))["ka"] == "0"  # never below


def test_checker_waits_for_cards_before_ruling(client):
    html = html_of(client.get("/en/koikoi/score?winner=a&ka=0&kb=0&ruleset=nintendo"))
    assert ruling_of(html) is None and 'data-status="empty"' in html
    assert 'class="kk-errors" id="errors" hidden' in html


def test_checker_explanation_names_rules_not_ids(client):
    html = html_of(client.get("/en/koikoi/score?a=0,2,8,10,28,30&winner=a&ka=0&kb=1"
                              "&ruleset=nintendo"))
    steps = re.findall(r'<li data-rule="([^"]+)">(.*?)</li>', html, re.DOTALL)
    assert steps
    for rule, text in steps:
        assert f'#{rule}"' in text and f">{rule}<" not in text


def test_checker_cli_page_and_api_agree(client, tmp_path, capsys):
    from rulebook import cli

    html = html_of(client.get(f"/uk/koikoi/score?{MATCH}&a=0,2,8,10,28,30&winner=a&ka=0&kb=1"
                              "&ruleset=fudawiki"))
    request_doc = referee_request_of(html)
    api = client.post("/api/v1/koikoi/score?lang=uk", json=request_doc).get_json()
    path = tmp_path / "request.json"
    path.write_text(json.dumps(request_doc), encoding="utf-8")
    assert cli.main(["score", "--json", "--lang", "uk", str(path)]) == 0
    assert ruling_of(html) == api == json.loads(capsys.readouterr().out)
    assert api["valid"] and api["rounds"][0]["round"] == 3


def referee_request_of(html: str) -> dict:
    match = re.search(r'<script type="application/json" id="request-data">(.*?)</script>', html,
                      re.DOTALL)
    assert match, "no request-data"
    return json.loads(unescape(match.group(1)))


@pytest.mark.parametrize("query", [
    "a=%3Cscript%3Ealert(1)%3C/script%3E&winner=a", "ka=%22%3E%3Cimg%20src=x%3E&winner=b",
    "a=" + ",".join(["1"] * 500), "winner=" + "x" * 5000, "a=-1,1e3,%00,%E2%80%AE&winner=none",
    "ruleset=%00&double_cap=99999999999999&rounds=7", "b=" + "a" * 300 + "&kb=1",
])
def test_junk_queries_are_field_errors_never_500(client, query):
    response = client.get("/uk/koikoi/score?" + query)
    assert response.status_code in (200, 414)
    html = html_of(response)
    assert "<script>alert" not in html and "<img src=x>" not in html
    if response.status_code == 200:
        assert 'class="kk-errors" id="errors">' in html


# -- the API rulebook document -------------------------------------------------------
@pytest.mark.parametrize("lang", LANGUAGES)
def test_api_rulebook_document(client, lang):
    response = client.get(f"/api/v1/koikoi/rulebook?lang={lang}")
    assert response.status_code == 200
    doc = response.get_json()
    t = translator(lang)
    assert doc["game"] == "koikoi" and doc["language"] == lang
    assert [c["index"] for c in doc["cards"]] == list(range(48))
    assert doc["cards"][40]["slug"] == "willow-rain-man"
    assert doc["cards"][40]["name"] == t.pgettext("koikoi.card.willow-rain-man", "Rain man")
    assert [m["number"] for m in doc["months"]] == list(range(1, 13))
    assert doc["months"][0]["name"] == t.pgettext("koikoi.month.1", "Pine")
    yaku = {y["id"]: y for y in doc["yaku"]}
    assert yaku["goko"]["values"]["nintendo"]["points"] == 10
    assert yaku["goko"]["values"]["fudawiki"]["points"] == 15
    assert yaku["hanami"]["values"]["gamedesign"] is None
    assert yaku["teshi"]["values"]["yakuza"] == {"points": None, "extra": False}
    assert yaku["goko"]["name"] == t.pgettext("koikoi.yaku.goko", "Five Brights")
    assert {r["id"] for r in doc["rulesets"]} == set(RB.rulesets)
    assert {o["id"] for o in doc["options"]} == set(RB.options)
    rules = [r["id"] for s in doc["sections"] for r in s["rules"]]
    assert rules == list(RB.rules)
    assert all(r["text"] for s in doc["sections"] for r in s["rules"])


# -- rules fidelity on the site --------------------------------------------------------
NEW_OPTIONS = ["flower_viewing", "moon_viewing", "lightning_spoils_viewings", "tsukifuda", "draw_dealer"]


@pytest.mark.parametrize("page", ["/en/koikoi/", "/en/koikoi/score"])
def test_options_new_options_have_labels_and_menus(client, page):
    html = html_of(client.get(page))
    for key in NEW_OPTIONS:
        assert f'name="{key}" data-rule="{RB.options[key].rule}"' in html, key
    assert "Lightning spoils the viewings" in html and "Dealer after a draw" in html
    assert "The dealer deals again" in html and "Number of calls + 1" in html


@pytest.mark.rule("koikoi", "yaku.tsukifuda")
def test_yaku_tsukifuda_row_per_ruleset(client):
    """yaku.tsukifuda: 4 in FudaWiki; off at a Nintendo table unless the option is on."""
    html = html_of(client.get("/en/koikoi/?ruleset=fudawiki"))
    assert yaku_points(html)["tsukifuda"] == "4"
    assert "All four cards of the month the round is played in" in html
    nintendo = html_of(client.get("/en/koikoi/?ruleset=nintendo"))
    assert re.search(r'id="yaku-row-tsukifuda" class="is-off"', nintendo)
    on = html_of(client.get("/en/koikoi/?ruleset=nintendo&tsukifuda=1"))
    assert not re.search(r'id="yaku-row-tsukifuda" class="is-off"', on)
    assert not re.search(r'id="yaku-row-hanami" class="is-off"', on)
    flower_off = html_of(client.get("/en/koikoi/?ruleset=nintendo&flower_viewing=0"))
    assert re.search(r'id="yaku-row-hanami" class="is-off"', flower_off)
    assert not re.search(r'id="yaku-row-tsukimi" class="is-off"', flower_off)


def test_checker_tsukifuda_in_round_one(client):
    """The checker scores one round, round 1 (January): the pine cards are Cards of the Month."""
    html = html_of(client.get("/en/koikoi/score?a=0,1,2,3&winner=a&ka=0&kb=0&ruleset=fudawiki"))
    ruling = ruling_of(html)
    assert ruling["valid"] and ruling["rounds"][0]["month"] == 1
    assert [y["id"] for y in ruling["rounds"][0]["yaku"]] == ["tsukifuda"]
    assert 'data-rule="match.round-month"' in html


@pytest.mark.rule("koikoi", "scoring.koikoi-calls")
def test_api_rulebook_document_new_data(client):
    doc = client.get("/api/v1/koikoi/rulebook?lang=en").get_json()
    yaku = {y["id"]: y for y in doc["yaku"]}
    assert yaku["tsukifuda"]["round_month"] is True
    assert yaku["tsukifuda"]["values"]["fudawiki"] == {"points": 4, "extra": False}
    assert yaku["tsukifuda"]["values"]["nintendo"] is None
    options = {o["id"]: o for o in doc["options"]}
    assert options["tsukifuda"]["values"] == {"tsukifuda": {"points": 4, "extra": False}}
    assert options["lightning_spoils_viewings"]["spoils_viewings"] == ["willow-lightning"]
    assert doc["scoring"]["koikoi_calls"] == {"step": 1, "rule": "scoring.koikoi-calls"}
    assert doc["round_months"] == {"first": 1}


@pytest.mark.rule("koikoi", "capture.pairs")
@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_capture_half_picked_is_a_hint_until_the_player_asks(client, lang):
    """Issue 19: one card of a month is a state every pair passes through: a neutral hint
    and no warning, until "Score the round" (check=1) asks for the ruling."""
    picking = html_of(client.get(f"/{lang}/koikoi/score?a=0,2,8&winner=a",
                                 follow_redirects=True))
    assert 'data-status="pending"' in picking
    assert re.search(r'id="a-pending" data-live-region>[^<]+', picking)
    assert re.search(r'id="a-error" data-error-for="a" data-live-region hidden>', picking)
    assert 'id="errors" hidden' in picking and 'id="check-now"' in picking
    asked = client.get(f"/{lang}/koikoi/score?a=0,2,8&winner=a&check=1")
    assert asked.status_code == 303 and "check=1" in asked.location  # kept in the permalink
    asked_html = html_of(client.get(asked.location))
    assert 'data-status="invalid"' in asked_html
    assert re.search(r'id="a-pending" data-live-region hidden>', asked_html)
    assert re.search(r'id="a-error" data-error-for="a" data-live-region>[^<]+', asked_html)
    other = html_of(client.get(f"/{lang}/koikoi/score?a=0,2,8&winner=a&ka=x&kb=0&ruleset=nintendo"))
    assert 'data-status="invalid"' in other  # another problem: every problem is shown


def test_the_winners_pile_is_open(client):
    html = html_of(client.get("/en/koikoi/score?winner=b", follow_redirects=True))
    assert re.search(r'<details class="kk-panel kk-pile" id="field-b" data-live-attrs open>', html)
    assert re.search(r'<details class="kk-panel kk-pile" id="field-a" data-live-attrs>', html)

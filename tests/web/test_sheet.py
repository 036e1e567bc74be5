"""The match's score sheet: rounds carried by "Next round" in the URL, scored again by the
referee, shown under both checkers and downloaded as CSV, in every language; a sheet that
cannot be read says so and loses nothing else."""
from __future__ import annotations

import csv
import io
import re
from html import unescape
from urllib.parse import parse_qs, parse_qsl, urlencode, urlsplit

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulebook.hanamikoji import load_rulebook as load_hanamikoji
from rulebook.i18n import LANGUAGES, translator
from rulebook.koikoi import load_rulebook as load_koikoi
from webapp.games.hanamikoji import sheet as hanamikoji_sheet
from webapp.games.hanamikoji.form import query_string
from webapp.games.koikoi import sheet as koikoi_sheet
from webapp.games.sheet import Parts, join, split

SANKO = [0, 2, 8, 10, 28, 30]  # three Brights with their month's pairs: 5 points
TIE = "a=1,1,1,1,1,1,2&b=1,1,1,1,1,1,2"  # every geisha tied: nobody wins, the match goes on
SPLIT = "a=2,0,0,3,0,0,3&b=0,2,2,0,3,0,1"  # A: 3 geishas, 10 charm; B: 3 geishas, 7 charm
KK = load_koikoi()
HK = load_hanamikoji()


def page(client, url: str) -> str:
    response = client.get(url, follow_redirects=True)  # Koi-Koi tidies a query it was sent
    assert response.status_code == 200, url
    return response.get_data(as_text=True)


def next_link(html: str) -> str:
    found = re.search(r'id="next-round" href="([^"]+)"', html)
    assert found, "no next-round link"
    return unescape(found.group(1)).split("#")[0]  # the anchor (#board) is never sent


def sheet_rows(html: str) -> list[list[str]]:
    table = re.search(r'<table class="sheet__table" id="sheet-table">(.*?)</table>', html, re.DOTALL)
    assert table, "no score sheet"
    return [[unescape(re.sub(r"<[^>]+>", "", cell)).strip()
             for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.DOTALL)]
            for row in re.findall(r"<tr[^>]*>(.*?)</tr>", table.group(1), re.DOTALL)]


def csv_link(html: str) -> str:
    return unescape(re.search(r'id="sheet-csv" href="([^"]+)"', html).group(1))


def csv_rows(client, url: str, lang: str) -> list[list[str]]:
    response = client.get(url)
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "text/csv; charset=utf-8"
    assert response.headers["Content-Disposition"].startswith("attachment; filename=")
    assert response.data.startswith(b"\xef\xbb\xbf"), "a BOM: spreadsheet apps read UTF-8"
    return list(csv.reader(io.StringIO(response.data[3:].decode("utf-8"), newline="")))


def changed(url: str, **fields: str) -> str:
    """The link with some of its fields set as a player sets them on the page."""
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k not in fields]
    return f"{parts.path}?{urlencode(query + list(fields.items()), safe=',')}"


def koikoi_match(client, lang: str) -> str:
    """Three rounds of Koi-Koi through "Next round": Olena's Sanko, Jonas's Sanko with a
    call by Olena, then cards that ran out; the page of the third round, ruled."""
    url = (f"/{lang}/koikoi/score?na=Olena&nb=Jonas&a={','.join(map(str, SANKO))}"
           "&winner=a&ruleset=nintendo")
    second = next_link(page(client, url))
    third = next_link(page(client, changed(second, b=",".join(map(str, SANKO)), winner="b",
                                           ka="1")))
    return page(client, changed(third, winner="none"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_koikoi_sheet_three_rounds_in_every_language(client, lang):
    t = translator(lang)
    html = koikoi_match(client, lang)
    month = [t.pgettext(f"koikoi.month.{n}", KK.month_by_number[n].name) for n in (1, 2, 3)]
    sanko = t.pgettext("koikoi.yaku.sanko", KK.yaku_by_id["sanko"].name)
    nobody = t.gettext("Nobody")
    expected = [  # round, month, dealer, winner, yaku, points A, B, totals A, B
        ["1", month[0], "Olena", "Olena", sanko, "5", "0", "5", "0"],
        ["2", month[1], "Olena", "Jonas", sanko, "0", "10", "5", "10"],  # x2: Olena called
        ["3", month[2], "Jonas", nobody, "", "0", "0", "5", "10"],
    ]
    rows = sheet_rows(html)
    assert rows[0] == [t.pgettext("Koi-Koi", "Round"), t.gettext("Month"), t.gettext("Dealer"),
                       t.gettext("Winner"), t.gettext("Yaku"),
                       t.gettext("Points: %(player)s") % {"player": "Olena"},
                       t.gettext("Points: %(player)s") % {"player": "Jonas"},
                       t.gettext("Total: %(player)s") % {"player": "Olena"},
                       t.gettext("Total: %(player)s") % {"player": "Jonas"}]
    assert rows[1:] == [[*row[:4], row[4] or "—", *row[5:]] for row in expected]
    assert 'class="is-current"' in html  # the third round: on the sheet once it is ruled
    if lang != "en":
        assert rows[0][1] != "Month", "the header is translated"
    assert csv_rows(client, csv_link(html), lang) == [rows[0], *expected]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_hanamikoji_sheet_and_csv_in_every_language(client, lang):
    t = translator(lang)
    first = f"/{lang}/hanamikoji/score?na=Olena&nb=Jonas&edition=geekach&round_limit=1&{TIE}"
    second = next_link(page(client, first))
    assert "sheet=11111121111112" in second  # A's counts, then B's
    html = page(client, f"{second}&{SPLIT}")
    geisha = {g.id: t.pgettext(f"geisha.{g.id}", g.name) for g in HK.geishas}
    goes_on = t.gettext("The match goes on")
    comma = t.gettext(", ")  # the language's list separator (Japanese: 、)
    expected = [["1", "", "0", "", "0", goes_on],
                ["2", comma.join(geisha[i] for i in ("ayane", "yoko", "ruri")), "10",
                 comma.join(geisha[i] for i in ("iroha", "tomoyo", "chiharu")), "7", goes_on]]
    rows = sheet_rows(html)
    assert rows[0] == [t.gettext("Round"),
                       t.gettext("Geishas of %(player)s") % {"player": "Olena"},
                       t.gettext("Charm points of %(player)s") % {"player": "Olena"},
                       t.gettext("Geishas of %(player)s") % {"player": "Jonas"},
                       t.gettext("Charm points of %(player)s") % {"player": "Jonas"},
                       t.gettext("Result")]
    assert rows[1:] == [[cell or "—" for cell in row] for row in expected]
    assert csv_rows(client, csv_link(html), lang) == [rows[0], *expected]
    third = next_link(html)  # the sheet goes on, and the third round starts from its markers
    assert "sheet=11111121111112.20030030220301" in third and "fav=abbab-a" in third
    assert len(sheet_rows(page(client, third))) == 3  # no cards yet: the two rounds carried


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game, query", [
    ("koikoi", "na=Olena&round=2&ta=5&sheet=a00028ASU-.x99&a=0,2&winner=a"),
    ("koikoi", "na=Olena&sheet=@0_q_1_2.a00-&a=0,2&winner=a"),
    ("hanamikoji", "na=Olena&round=2&sheet=1111112111111&a=1,1,1,1,1,1,2&b=1,1,1,1,1,1,2"),
    ("hanamikoji", "na=Olena&round=2&sheet=11111121111112~nobody&a=1,1,1,1,1,1,2"),
])
def test_a_tampered_sheet_is_named_in_the_page_language_and_nothing_is_lost(
        client, lang, game, query):
    html = page(client, f"/{lang}/{game}/score?{query}")
    t = translator(lang)
    message = t.gettext("Round %(num)s of the score sheet in this link cannot be read: it was "
                        "changed or cut short. The rest of what you entered is kept.")
    shown = re.search(r'id="sheet-error">([^<]+)<', html)
    assert shown and re.fullmatch(re.escape(message).replace(r"%\(num\)s", r"\d+"),
                                  unescape(shown.group(1)))
    sheet = parse_qs(query)["sheet"][0]
    assert f'name="sheet" value="{sheet}"' in unescape(html), "the sheet as given stays"
    assert 'value="Olena"' in html
    # its CSV leads back to the page that says why
    csv_response = client.get(f"/{lang}/{game}/score/sheet.csv?{query}")
    assert csv_response.status_code == 303
    assert "#sheet" in csv_response.headers["Location"] or "sheet.csv" in csv_response.headers[
        "Location"]  # the page, or first the file's tidy address (which then leads there)
    assert 'id="sheet-error"' in page(client, csv_response.headers["Location"].replace(
        "/sheet.csv", ""))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_sheet_that_does_not_lead_to_the_round_says_so(client, lang):
    t = translator(lang)
    url = (f"/{lang}/koikoi/score?na=Olena&round=2&ta=50&sheet=a00028ASU-"
           f"&a={','.join(map(str, SANKO))}&winner=a&ruleset=nintendo")
    html = page(client, url)
    message = t.gettext("The score sheet does not lead to this round: its rounds end with other "
                        "points, another round or another dealer than the form holds. The form "
                        "is scored as it is.")
    assert unescape(re.search(r'id="sheet-error">([^<]+)<', html).group(1)) == message
    assert len(sheet_rows(html)) == 3  # the sheet's round and this one, as the referee rules
    assert 'data-score-a="5"' in html, "this round is ruled all the same"


def test_a_referee_refusal_in_the_sheet_names_its_round(client):
    # round 2 of the sheet: A's side holds 7 cards, B's 8
    html = page(client, "/en/hanamikoji/score?round=3&sheet=11111121111112.21111110000000")
    shown = unescape(re.search(r'id="sheet-error">([^<]+)<', html).group(1))
    assert shown.startswith("Round 2 of the score sheet: ")


def test_no_sheet_no_table_and_no_csv(client):
    html = page(client, "/en/koikoi/score")
    assert re.search(r'<section class="sheet panel" id="sheet"[^>]* hidden>', html)
    assert client.get("/en/koikoi/score/sheet.csv").status_code == 303
    assert client.get("/en/nogame/score/sheet.csv").status_code == 404


# -- the URL round trip --------------------------------------------------------------------
cards = st.lists(st.integers(0, len(KK.cards) - 1), max_size=24, unique=True)
koikoi_rounds = st.lists(st.fixed_dictionaries({
    "winner": st.sampled_from(["a", "b", None]),
    "koikoi": st.fixed_dictionaries({"a": st.integers(0, 8), "b": st.integers(0, 8)}),
    "captured": st.fixed_dictionaries({}, optional={"a": cards.filter(bool),
                                                    "b": cards.filter(bool)}),
}), min_size=1, max_size=12)
boards = st.lists(st.fixed_dictionaries({
    "board": st.fixed_dictionaries({p: st.lists(st.integers(0, 5), min_size=len(HK.geishas),
                                                max_size=len(HK.geishas)) for p in "ab"}),
}, optional={"removed": st.sampled_from([g.id for g in HK.geishas])}), min_size=1, max_size=8)


def through_the_url(text: str, quoted) -> str:
    """The sheet as a link holds it, read back by the server."""
    return parse_qs(urlsplit("/x?" + quoted([("na", "Олена"), ("sheet", text)])).query)["sheet"][0]


@settings(max_examples=60, deadline=None)
@given(rounds=koikoi_rounds, start=st.none() | st.tuples(
    st.integers(2, 12), st.sampled_from("ab"), st.integers(-50, 50), st.integers(-50, 50)))
def test_a_koikoi_sheet_survives_the_url_round_trip(app, rounds, start):
    start_text = "_".join(map(str, start)) if start else ""
    text = join(Parts(start_text, [koikoi_sheet.round_token(r) for r in rounds]))
    with app.test_request_context("/en/koikoi/score"):
        back_start, back_rounds = koikoi_sheet.read(KK, through_the_url(text, urlencode))
    assert back_rounds == rounds
    assert back_start == ({"round": start[0], "dealer": start[1],
                           "totals": {"a": start[2], "b": start[3]}} if start else {})


@settings(max_examples=60, deadline=None)
@given(rounds=boards, favor=st.lists(st.sampled_from(["", "a", "b"]), min_size=len(HK.geishas),
                                     max_size=len(HK.geishas)), round_number=st.integers(1, 9))
def test_a_hanamikoji_sheet_survives_the_url_round_trip(app, rounds, favor, round_number):
    text = ""
    for rnd in rounds:  # as "Next round" writes it, round after round
        text = hanamikoji_sheet.next_sheet(text, round_number, favor, rnd)
    assert split(text).rounds == [hanamikoji_sheet.round_token(r) for r in rounds]
    with app.test_request_context("/en/hanamikoji/score"):
        start, back = hanamikoji_sheet.read(HK, through_the_url(text, query_string))
    assert back == rounds
    moved = round_number != 1 or any(favor)
    assert start == ({"round": round_number, "favor": [v or None for v in favor]}
                     if moved else None)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_round_that_ends_the_match_ends_its_sheet(client, lang):
    log = ("act=secret:ayane&act=secret:iroha&act=tradeoff:ruri,ruri&act=tradeoff:yoko,anju"
           "&act=gift:ayane,anju,iroha:iroha&act=gift:yoko,yoko,tomoyo:tomoyo"
           "&act=competition:ruri,ruri/chiharu,tomoyo:2&act=competition:chiharu,anju/chiharu,anju:1")
    html = page(client, f"/{lang}/hanamikoji/score?mode=log&sheet=11111121111112&round=2&{log}")
    t = translator(lang)
    assert 'id="next-round"' not in html
    assert t.gettext("The match is over: this is its whole sheet.") in unescape(html)
    rows = sheet_rows(html)
    assert [row[0] for row in rows[1:]] == ["1", "2"]  # the round played action by action too
    # round 2 is B's to start: the same actions, one player over, win it for B
    assert rows[2][5] == t.gettext("%(player)s wins") % {"player": t.gettext("Player B")}


@pytest.mark.parametrize("game, token", [("koikoi", "n00-"), ("hanamikoji", "11111121111112")])
def test_a_sheet_longer_than_a_match_is_named_and_still_carried(client, game, token):
    sheet = ".".join([token] * 60)
    html = page(client, f"/de/{game}/score?na=Olena&sheet={sheet}")
    shown = unescape(re.search(r'id="sheet-error">([^<]+)<', html).group(1))
    assert shown == translator("de").ngettext(
        "The score sheet in this link is longer than a match can be: it holds at most %(num)s "
        "round.", "The score sheet in this link is longer than a match can be: it holds at most "
        "%(num)s rounds.", 48) % {"num": 48}
    assert f'name="sheet" value="{sheet}"' in html

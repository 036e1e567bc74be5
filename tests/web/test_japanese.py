"""Japanese, Koi-Koi's home language: Koi-Koi's cards and yaku by their Japanese names (kanji
with their reading in ruby on Japanese pages, romaji and kanji beside the name elsewhere),
from the rulebook and complete; Hanamikoji's own action names said to be ours; the page's
language and link previews."""
from __future__ import annotations

import re

import pytest

from rulebook import GAMES
from webapp.pages.japanese import HIRAGANA, normal_romaji, romaji


@pytest.fixture(scope="module")
def koikoi():
    return GAMES["koikoi"].load()


def page(client, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200, path
    return response.get_data(as_text=True)


def test_every_month_card_and_yaku_has_a_japanese_name_with_its_reading(koikoi):
    names = koikoi.japanese
    assert set(names.months) == {m.number for m in koikoi.months}
    assert set(names.cards) == {c.slug for c in koikoi.cards}
    assert set(names.yaku) == {y.id for y in koikoi.yaku}
    for name in [*names.months.values(), *names.cards.values(), *names.yaku.values()]:
        assert HIRAGANA.fullmatch(name.reading), name
        # the romaji spells the reading (macrons and hyphens aside)
        assert normal_romaji(name.romaji) == romaji(name.reading), name
    assert set(names.sources) <= set(koikoi.sources)


def test_japanese_pages_show_kanji_with_their_reading(client):
    html = page(client, "/ja/koikoi/")
    assert "<ruby>猪鹿蝶<rt>いのしかちょう</rt></ruby>" in html  # the yaku table
    assert "<ruby>松に鶴<rt>まつにつる</rt></ruby>" in html  # the card chart
    assert "<ruby>芒<rt>すすき</rt></ruby>" in html  # a month
    assert '<html lang="ja"' in html
    checker = page(client, "/ja/koikoi/score")
    assert "<ruby>三光<rt>さんこう</rt></ruby>" in checker
    # a Koi-Koi round is a 回戦 (Hanamikoji's stays a ラウンド), on the checker's link as well
    ruled = page(client, "/ja/koikoi/score?a=0,1,8,9,28,29&winner=a&ka=0&kb=0&ruleset=nintendo")
    assert re.search(r'id="next-round" href="[^"]+">次の回戦</a>', ruled)


def test_other_pages_give_the_romaji_and_the_kanji_beside_the_name(client):
    english = page(client, "/en/koikoi/")
    assert ('Boar, Deer and Butterflies (<span class="jp-name"><span lang="ja-Latn">'
            'Ino-shika-chō</span>, <span lang="ja">猪鹿蝶</span></span>)') in english
    assert '<span class="jp-name jp-name--line" lang="ja">柳に小野道風</span>' in english
    # a translation that gives the romaji already gets the kanji only, not the romaji twice
    spanish = page(client, "/es/koikoi/")
    assert ('Ino-shika-cho (jabalí, ciervo y mariposas) <span class="jp-name" lang="ja">猪鹿蝶'
            in spanish)


@pytest.mark.parametrize("lang, inferred", [("ja", "（推定）"), ("en", "(inferred)")])
def test_a_spelling_no_source_prints_is_shown_as_inferred(client, lang, inferred):
    html = page(client, f"/{lang}/koikoi/?tsukifuda=true")
    row = re.search(r'id="yaku-row-tsukifuda".*?</th>', html, re.DOTALL).group(0)
    assert "月札" in row and inferred in re.sub(r"<[^>]+>", "", row)


def test_the_sources_of_the_japanese_names_are_named(client):
    html = page(client, "/ja/koikoi/")
    line = re.search(r'<p class="hint" id="japanese-names">(.*?)</p>', html).group(1)
    assert "FudaWiki" in line and "hanafuda" not in line.casefold().replace("花札", "")


@pytest.mark.parametrize("lang, shown", [("ja", True), ("en", False), ("uk", False)])
def test_hanamikoji_says_where_the_action_names_are_its_own(client, lang, shown):
    html = page(client, f"/{lang}/hanamikoji/")
    assert ('id="own-action-names"' in html) is shown
    if lang == "ja":
        assert "秘密" in html and "芸妓" in html


def test_a_japanese_link_preview_is_japanese(client):
    html = page(client, "/ja/hanamikoji/score?na=Jonas&nb=Olena&a=2,2,2,0,0,0,2&b=0,0,0,3,3,2,0")
    tags = dict(re.findall(r'<meta (?:name|property)="([a-z:_]+)" content="([^"]*)"', html))
    assert tags["og:locale"] == "ja" and tags["og:title"].startswith("Jonasの勝利です")


def test_the_api_gives_the_japanese_names(client):
    body = client.get("/api/v1/koikoi/rulebook?lang=de").get_json()
    yaku = {y["id"]: y for y in body["yaku"]}
    assert yaku["inoshikacho"]["japanese"] == {"written": "猪鹿蝶", "reading": "いのしかちょう",
                                               "romaji": "Ino-shika-chō", "inferred": False}
    assert yaku["tsukifuda"]["japanese"]["inferred"] is True
    assert body["cards"][0]["japanese"]["written"] == "松に鶴"


@pytest.mark.parametrize("kana, typed", [
    ("しょうぶ", ["shobu", "shoubu", "syoubu", "Shōbu"]), ("かっぱ", ["kappa"]),
    ("まっち", ["matchi", "macchi"]), ("しんぶん", ["shinbun", "sinbun", "shimbun"]),
    ("ほうおう", ["hoo", "hōō", "houou"]), ("いのしかちょう", ["Ino-shika-chō", "inoshikachou"]),
])
def test_romaji_as_players_type_it_meets_the_reading(kana, typed):
    assert {normal_romaji(word) for word in typed} == {romaji(kana)}


# -- search: one word in kanji, kana or romaji ------------------------------------------------
def found(app, query: str, game: str = "koikoi") -> list[str]:
    from webapp.pages import search

    with app.app_context():
        index = search.build_index(game, "ja")
    return [hit.rule_id for hit in search.search(index, query)]


@pytest.mark.parametrize("query", ["猪鹿蝶", "いのしかちょう", "イノシカチョウ", "inoshikacho",
                                   "Ino-shika-chō", "inoshikachou"])
def test_a_yaku_in_kanji_kana_or_romaji_finds_its_rule(app, query):
    assert found(app, query)[0] == "yaku.inoshikacho"


@pytest.mark.parametrize("query, rule, game", [
    ("花見で一杯", "yaku.hanami", "koikoi"),  # the name a Japanese app gives the viewing
    ("てし", "yaku.teshi", "koikoi"), ("gokou", "yaku.goko", "koikoi"),
    ("きょうそう", "action.competition", "hanamikoji"),
    ("捨て札", "action.tradeoff", "hanamikoji"),  # a Japanese guide's name for the action
    ("芸者", "victory.geishas", "hanamikoji"), ("himitsi", "action.secret", "hanamikoji"),
])
def test_japanese_names_typos_and_guides_terms_find_their_rule(app, query, rule, game):
    assert rule in found(app, query, game)[:3]


def test_particles_and_question_words_are_not_words():
    from webapp.pages import analyzers

    words = [w.group(0) for w in analyzers.analyzer("ja").tokens("猪鹿蝶は何点ですか？")]
    assert words == ["猪鹿蝶", "点"]

"""Search (webapp/pages/search.py): inflected words, small typos, ranking, highlighting, "did you
mean", in every language, on the real rulebooks and catalogs; and through the page."""
from __future__ import annotations

import re
import sys
import time

import pytest

from webapp.pages import search

TIE = "scoring.tie-keeps-marker"
VICTORY = ("victory.geishas", "victory.charm", "victory.clash", "victory.immediate")


@pytest.fixture(scope="module")
def index(app):
    # An app context only while an index is built: one left open would be shared by the
    # test client's requests, and with it the first request's translations.
    def build(lang, game="hanamikoji", edition=""):
        with app.app_context():
            return search.build_index(game, lang, edition)

    return build


def found(index, lang, query, game="hanamikoji"):
    return [hit.entry.rule_id for hit in search.search(index(lang, game), query)]


# -- inflected forms find the same rule, in every language ----------------------------------
@pytest.mark.parametrize("lang, queries", [
    ("en", ["tie", "ties", "tied"]),
    ("de", ["Gleichstand", "Gleichstände", "Gleichstandes"]),
    ("uk", ["нічия", "нічиєї", "нічию"]),
    ("es", ["empate", "empates"]),
    ("fr", ["égalité", "égalités", "egalite"]),
])
def test_a_tie_finds_the_rule_that_a_tie_keeps_the_marker(index, lang, queries):
    for query in queries:
        assert TIE in found(index, lang, query)[:6], (lang, query)


@pytest.mark.parametrize("lang, queries", [
    ("en", ["wins", "victory", "won"]),
    ("de", ["gewinnt", "Sieg", "gewinnen"]),
    ("uk", ["перемога", "виграє", "перемагає", "переможець"]),
    ("es", ["gana", "victoria", "ganador"]),
    ("fr", ["gagne", "victoire", "vainqueur"]),
])
def test_words_of_winning_find_the_victory_rules(index, lang, queries):
    for query in queries:
        hits = found(index, lang, query)
        assert set(VICTORY) & set(hits[:8]), (lang, query, hits[:8])


@pytest.mark.parametrize("lang, typo, meant", [
    ("en", "markr", "components.markers"),
    ("de", "Gleichstnd", TIE),
    ("uk", "таємнйця", "action.secret"),
    ("es", "compensacon", "action.tradeoff"),
    ("fr", "égaltés", TIE),
])
@pytest.mark.rule("hanamikoji", "action.secret", "action.tradeoff", "components.markers")
def test_a_small_typo_still_finds_the_rule(index, lang, typo, meant):
    assert meant in found(index, lang, typo)


def test_every_word_must_match_but_common_words_need_not(index):
    assert found(index, "en", "tie keeps the marker")[0] == TIE
    assert found(index, "en", "discard zebra") == []
    assert found(index, "de", "der Gleichstand")[:6].count(TIE) == 1


@pytest.mark.rule("hanamikoji", "action.gift")
@pytest.mark.rule("koikoi", "yaku.goko")
def test_results_are_ranked_title_and_names_first(index):
    assert found(index, "en", "gift")[0] == "action.gift"  # the action's own rule
    assert found(index, "en", "Goko", "koikoi")[0] == "yaku.goko"  # the yaku's name


def test_matched_words_are_highlighted_and_the_rest_escaped(index):
    hits = search.search(index("de"), "Gleichstände")
    tie = next(hit for hit in hits if hit.entry.rule_id == TIE)
    assert re.search(r"<mark>Gleichstand</mark>", str(tie.text))
    rows = [("r.one", "s", "<Section>", "Title", "A tie <b>keeps</b> the marker", [])]
    hit = search.search(search.make_index("en", rows), "ties")[0]
    assert str(hit.text) == "A <mark>tie</mark> &lt;b&gt;keeps&lt;/b&gt; the marker"
    assert str(hit.title) == "&lt;Section&gt;"


@pytest.mark.parametrize("lang, query, suggestion", [
    ("en", "geishaaas secrte", "geishas secrets"),
    ("de", "Gleichstnd", "Gleichstand"),
    ("uk", "таємнииця", "Таємниця"),
    ("es", "compensasión", "Compensación"),
    ("fr", "égaltés", "égalité"),
])
def test_did_you_mean_for_a_near_miss(index, lang, query, suggestion):
    assert search.suggest(index(lang), query) == suggestion


def test_no_did_you_mean_for_words_the_rules_use_or_for_nonsense(index):
    assert search.suggest(index("en"), "tie keeps the marker") is None
    assert search.suggest(index("uk"), "нічиєї") is None  # an inflected form is a real word
    assert search.suggest(index("en"), "zebrra tie") is None  # nothing near "zebrra"


def test_a_query_is_fast_once_the_index_is_built(index):
    for lang in ("en", "de", "uk", "es", "fr"):
        idx = index(lang)
        search.search(idx, "warmup")
        start = time.perf_counter()
        for query in ("tie", "marker", "gift", "victory", "Gleichstand", "нічиєї"):
            search.search(idx, query)
        assert (time.perf_counter() - start) / 6 < 0.05, lang


def test_the_index_is_built_once_per_game_language_and_edition(index):
    assert index("fr") is index("fr")
    assert index("fr", edition="iello") is not index("fr")


# -- the page ------------------------------------------------------------------------
def test_the_page_shows_ranked_highlighted_results(client):
    html = client.get("/uk/hanamikoji/search?q=нічия").get_data(as_text=True)
    results = html[html.find('id="search-results"'):]
    rules = re.findall(r'data-rule="([^"]+)"', results)
    assert TIE in rules[:6]
    tie = re.search(rf'data-rule="{TIE}">(.*?)</li>', results, re.DOTALL).group(1)
    assert re.search(r"<mark>[Нн]ічиєї</mark>", tie)


def test_stemming_is_safe_from_the_servers_threads():
    """A Snowball stemmer keeps the word it works on in itself: threads must not share it
    unguarded (a search page under load answered 500 before)."""
    import threading

    import snowballstemmer

    words = [f"{stem}{end}" for stem in ("égal", "victoir", "jeton", "manch", "gagn")
             for end in ("ité", "ités", "es", "er", "eraient", "ements")] * 20
    expected = [snowballstemmer.stemmer("french").stemWord(w) for w in words]
    reduce, results = search.reducer("fr"), []

    def work():
        results.append([reduce(w) for w in words])

    # threads take turns every 10 µs instead of 5 ms: without the lock, a few hundred words
    # are enough to garble (or crash) the stemmer every time
    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    try:
        threads = [threading.Thread(target=work) for _ in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(switch)
    assert results == [expected] * 6


def test_the_page_offers_did_you_mean_and_its_link_finds_the_rules(client):
    page = client.get("/fr/hanamikoji/search?q=égaltés&edition=iello").get_data(as_text=True)
    link = re.search(r'<a id="search-suggestion" href="([^"]+)">([^<]+)</a>', page)
    assert link, "no 'did you mean' on a near miss"
    assert "Vouliez-vous dire" in link.group(2) and "égalité" in link.group(2)
    href = link.group(1).replace("&amp;", "&")
    assert "edition=iello" in href  # the page's options are kept
    followed = client.get(href).get_data(as_text=True)
    assert 'id="search-suggestion"' not in followed and f'data-rule="{TIE}"' in followed


def test_both_games_search_suggests_only_when_neither_game_uses_the_word(client):
    # "yaku" is a Koi-Koi word: Hanamikoji's rules lacking it is no typo
    assert 'id="search-suggestion"' not in client.get("/en/search?q=yaku").get_data(as_text=True)
    page = client.get("/de/search?q=Gleichstnd").get_data(as_text=True)
    assert re.search(r'id="search-suggestion" href="/de/search\?q=Gleichstand"', page)

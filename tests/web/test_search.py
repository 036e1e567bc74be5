"""Search (webapp/pages/search.py, analyzers.py): questions as players type them, inflected
words, small typos, numbers, stop words, ranking (BM25F, notes below rules, FAQ entries as
answers), phrasings, highlighting, "did you mean", the answer card, in every language, on the
real rulebooks and catalogs; and through the pages."""
from __future__ import annotations

import re
import statistics
import sys
import time

import pytest

from rulebook.i18n import LANGUAGES
from tools import search_quality
from webapp.pages import analyzers, search

TIE = "scoring.tie-keeps-marker"
VICTORY = ("victory.geishas", "victory.charm", "victory.clash", "victory.immediate")
FOUR = {"en": "four", "de": "vier", "uk": "чотири", "es": "cuatro", "fr": "quatre", "ja": "四"}


@pytest.fixture(scope="module")
def index(app):
    # An app context only while an index is built: one left open would be shared by the
    # test client's requests, and with it the first request's translations.
    def build(lang, game="hanamikoji"):
        with app.app_context():
            return search.build_index(game, lang)

    return build


def found(index, lang, query, game="hanamikoji"):
    return [hit.rule_id for hit in search.search(index(lang, game), query)]


@pytest.fixture(scope="module")
def outcomes(app):
    return search_quality.evaluate(app)


# -- the questions players type ---------------------------------------------------------
@pytest.mark.parametrize("lang", LANGUAGES)
def test_players_questions_find_the_rule_that_answers_them(outcomes, lang):
    """tests/web/search_questions.yaml: 90 % answered in the first three, 70 % first."""
    mine = [o for o in outcomes if o.lang == lang]
    assert len(mine) >= 15 and {o.game for o in mine} == {"hanamikoji", "koikoi"}
    first, top3 = search_quality.shares(mine)
    missed = [(o.question, o.ranked[:3]) for o in mine if o.rank is None or o.rank > 3]
    assert top3 >= search_quality.TOP3_TARGET, (lang, top3, missed)
    assert first >= search_quality.FIRST_TARGET, (lang, first)


@pytest.fixture(scope="module")
def games_first(app):
    return search_quality.games_first(app)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_search_of_every_game_shows_first_the_game_a_question_is_about(games_first, lang):
    """The home page's box searches both games: the game of each question of
    tests/web/search_questions.yaml comes first for 85 % of a language's questions (in
    the registry's order, Hanamikoji's came first for all)."""
    share, missed = games_first[lang]
    assert share >= search_quality.GAME_FIRST_TARGET, (lang, share, missed)


def test_evidence_shares_each_word_by_the_games_that_hold_it(index):
    games = [index("en", "hanamikoji"), index("en", "koikoi")]
    only_koikoi = search.evidence(games, "inoshikacho")
    assert only_koikoi[0] == 0 and only_koikoi[1] > 0
    only_hanamikoji = search.evidence(games, "geisha")
    assert only_hanamikoji[0] > 0 and only_hanamikoji[1] == 0
    shared = search.evidence(games, "points")
    assert shared[0] > 0 and shared[1] > 0
    assert search.evidence(games, "zzzqx") == [0.0, 0.0]


@pytest.mark.parametrize("lang, question, first", [
    ("en", "does the sake cup count as a plain", "koikoi"),
    ("de", "wer gewinnt bei gleichstand", "hanamikoji"),
    ("es", "cuántas cartas recibe cada jugador en koi koi", "koikoi"),
    # named: first, though Koi-Koi's "hanami" (flower viewing) scores more
    ("uk", "скільки раундів у ханамікоджі", "hanamikoji"),
    ("uk", "скільки разів можна казати кой-кой", "koikoi"),
    ("ja", "こいこいは何回までできますか", "koikoi"),
    # scored higher in Hanamikoji's rules, on "combien" and "punkte"
    ("fr", "combien vaut inoshikacho", "koikoi"),
    ("de", "wie viele punkte gibt inoshikacho", "koikoi"),
])
def test_the_home_search_shows_first_the_game_the_question_is_about(client, lang, question, first):
    html = client.get(f"/{lang}/search", query_string={"q": question}).get_data(as_text=True)
    assert re.findall(r'<h2 id="results-([a-z]+)-title"', html)[0] == first


@pytest.mark.parametrize("lang, question", [
    ("en", "what if both have 4 geishas"),
    ("de", "was passiert wenn beide 4 Geishas haben"),
    ("uk", "що якщо в обох по 4 гейші"),
    ("es", "qué pasa si los dos tienen 4 geishas"),
    ("fr", "que se passe-t-il si les deux ont 4 geishas"),
])
def test_a_question_is_not_lost_on_its_question_words(index, lang, question):
    hits = found(index, lang, question)
    assert set(hits[:3]) & {"victory.geishas", "victory.clash", "faq.clash"}, hits[:5]


# -- words: inflections, typos, numbers, stop words -----------------------------------
@pytest.mark.parametrize("lang, queries", [
    ("en", ["tie", "ties", "tied"]),
    ("de", ["Gleichstand", "Gleichstände", "Gleichstandes"]),
    ("uk", ["нічия", "нічиєї", "нічию"]),
    ("es", ["empate", "empates"]),
    ("fr", ["égalité", "égalités", "egalite"]),
])
def test_a_tie_finds_the_rule_that_a_tie_keeps_the_marker(index, lang, queries):
    for query in queries:
        assert TIE in found(index, lang, query)[:6], (lang, query)  # tie-breaks are ties too


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
    assert meant in found(index, lang, typo)[:5]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_digits_and_number_words_are_the_same_word(index, lang):
    lang_analyzer = analyzers.analyzer(lang)
    assert lang_analyzer.keys(FOUR[lang]) == lang_analyzer.keys("4") == frozenset({"4"})
    by_digit = found(index, lang, "4 geishas")
    assert by_digit[:3] == found(index, lang, f"{FOUR[lang]} geishas")[:3]
    assert "victory.geishas" in by_digit[:3]


def test_inflected_and_ordinal_number_words_are_numbers():
    assert analyzers.analyzer("uk").keys("чотирьох") == frozenset({"4"})
    assert analyzers.analyzer("de").keys("dritten") == frozenset({"3"})
    assert analyzers.analyzer("fr").keys("troisième") == frozenset({"3"})
    assert analyzers.analyzer("en").keys("eleven") == frozenset({"11"})
    # "un" is the French article as often as the number: a stop word, not 1
    assert analyzers.analyzer("fr").is_stop("un")


@pytest.mark.parametrize("word, number", [
    ("двоє", "2"), ("двох", "2"), ("троє", "3"), ("трьом", "3"), ("четверо", "4"),
    ("п'ятеро", "5"), ("п’ятьох", "5"), ("шестеро", "6"), ("семеро", "7"), ("восьмеро", "8"),
    ("дванадцятеро", "12"), ("перший", "1"), ("першого", "1"), ("першому", "1"),
    ("першої", "1"), ("другою", "2"), ("третій", "3"), ("третього", "3"), ("шостого", "6"),
    ("дванадцятий", "12"), ("дванадцятого", "12"),
])
def test_ukrainian_collective_and_ordinal_number_words_are_numbers(word, number):
    """Collective numerals (двоє, четверо, п'ятеро) and every case of an ordinal have the
    digits' key, as the cardinals do; "перший" is no article, so it is 1 too."""
    assert analyzers.analyzer("uk").keys(word) == frozenset({number})


def test_ukrainian_collective_numeral_finds_what_digits_find(index):
    by_digit = found(index, "uk", "4 гейші")
    assert "victory.geishas" in by_digit[:3]
    assert found(index, "uk", "четверо гейш")[:3] == by_digit[:3]
    assert found(index, "uk", "перший раунд")[:3] == found(index, "uk", "1 раунд")[:3]


@pytest.mark.parametrize("lang, filler, only_stop_words", [
    ("en", "what if", "if it is the"), ("de", "was wenn", "und der die"),
    ("uk", "що якщо", "і в на"), ("es", "qué pasa si", "el de la"),
    ("fr", "que se passe-t-il si", "le de la"),
])
def test_words_that_carry_no_meaning_are_ignored(index, lang, filler, only_stop_words):
    assert found(index, lang, only_stop_words) == []
    # a question's frame hardly moves its answer (a stop word the rules use counts a little)
    best = found(index, lang, f"{FOUR[lang]} geishas")[0]
    assert best in found(index, lang, f"{filler} {FOUR[lang]} geishas")[:3]


def test_no_word_is_required_but_unknown_words_find_nothing(index):
    assert found(index, "en", "discard zebra")[0] == "action.tradeoff"  # zebra is not required
    assert found(index, "en", "zebra xylophone") == []


def test_every_language_has_an_analyzer():
    """A new language is a catalog, an analyzer (analyzers.ANALYZERS) and one line."""
    assert set(LANGUAGES) <= set(analyzers.ANALYZERS)


# -- ranking ------------------------------------------------------------------------
@pytest.mark.rule("hanamikoji", "action.gift")
@pytest.mark.rule("koikoi", "yaku.goko")
def test_results_are_ranked_title_and_names_first(index):
    assert found(index, "en", "gift")[0] == "action.gift"  # the action's own rule
    assert found(index, "en", "Goko", "koikoi")[0] == "yaku.goko"  # the yaku's name
    assert found(index, "de", "Tausch")[0] == "action.competition"  # Kosmos' name for it


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_note_ranks_below_the_rule_it_is_about(index, lang, outcomes):
    for game in ("hanamikoji", "koikoi"):
        idx = index(lang, game)
        for outcome in outcomes:
            if outcome.lang != lang or outcome.game != game:
                continue
            hits = search.search(idx, outcome.question)
            place = {hit.rule_id: i for i, hit in enumerate(hits)}
            for hit in hits:
                if hit.entry.kind == "note":
                    for rule in hit.entry.about:
                        assert place.get(rule, -1) < place[hit.rule_id], (outcome.question, rule)


def test_the_tie_rule_before_the_note_about_it(index):
    assert found(index, "de", "Gleichstand Geisha")[0] == TIE  # not the sources' note
    hits = search.search(index("uk"), "хто виграє")
    assert hits[0].entry.kind != "note"  # an edition's description is a note


@pytest.mark.parametrize("lang", LANGUAGES)
def test_faq_entries_are_answers_found_by_their_question(index, lang, app):
    with app.app_context():
        from webapp.games import GAMES

        for game in ("hanamikoji", "koikoi"):
            web = GAMES[game]
            terms = web.terms(web.rulebook, lang, web.options(web.rulebook, {}))
            for entry in web.rulebook.faq:
                assert terms.search_kind(entry["id"])[0] == "answer"
                question = terms.rule_title(entry["id"])
                assert entry["id"] in found(index, lang, question, game)[:3], (game, question)


# -- phrasings ---------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_rule_is_found_by_the_ways_players_ask_for_it(index, lang, app):
    """Every phrasing of a rule, in every language, puts that rule in the first three (the
    phrasings are the language's own: a catalog entry `asked.<rule id>`)."""
    from webapp.games import GAMES

    missed = []
    with app.app_context():
        for game in ("hanamikoji", "koikoi"):
            web = GAMES[game]
            terms = web.terms(web.rulebook, lang, web.options(web.rulebook, {}))
            for rule_id in web.rulebook.asked:
                phrasings = terms.asked(rule_id)
                assert phrasings, (game, rule_id)
                if lang != "en":  # written by us in the language, not the English ones
                    assert phrasings != list(web.rulebook.asked[rule_id]), (game, rule_id)
                missed += [(rule_id, p) for p in phrasings
                           if rule_id not in found(index, lang, p, game)[:3]]
    assert len(missed) <= 0.1 * sum(len(v) for g in ("hanamikoji", "koikoi")
                                    for v in GAMES[g].rulebook.asked.values()), missed


@pytest.mark.parametrize("lang", LANGUAGES)
def test_phrasings_are_shown_nowhere(client, app, lang):
    """No page shows a phrasing (one that is not also words of a rule, a title or a name)."""
    from webapp.games import GAMES

    web = GAMES["koikoi"]
    rb = web.rulebook
    with app.app_context():
        terms = web.terms(rb, lang, web.options(rb, {}))
        shown = " ".join(part.casefold() for rule_id in rb.rules for part in (
            terms.rule(rule_id), terms.rule_title(rule_id), *terms.search_names(rule_id)))
        phrasings = [p for rule_id in rb.asked for p in terms.asked(rule_id)
                     if p.casefold() not in shown]
    pages = "".join(client.get(url).get_data(as_text=True).casefold() for url in (
        f"/{lang}/koikoi/", f"/{lang}/koikoi/search?q=sake", f"/{lang}/koikoi/disagreements",
        f"/{lang}/search?q=koikoi"))
    assert len(phrasings) > 20 and not [p for p in phrasings if p.casefold() in pages]


def test_a_rule_without_phrasings_is_still_found(index):
    rows = [search.Document("r.one", "s", "rule", (), "Title", (), (), "Section",
                            "Both players reveal a card")]
    hits = search.search(search.make_index("en", rows), "what if both reveal")
    assert [hit.rule_id for hit in hits] == ["r.one"]


# -- highlighting, did you mean ----------------------------------------------------------
def test_matched_words_are_highlighted_and_the_rest_escaped(index):
    hits = search.search(index("de"), "Gleichstände")
    tie = next(hit for hit in hits if hit.rule_id == TIE)
    assert re.search(r"<mark>Gleichstand</mark>", str(search.highlight(
        "Bei Gleichstand bleibt es.", tie.marked, "de")))
    rows = [search.Document("r.one", "s", "rule", (), "Title", (), (), "<Section>",
                            "A tie <b>keeps</b> the marker")]
    hit = search.search(search.make_index("en", rows), "ties")[0]
    assert str(search.highlight("A tie <b>keeps</b> the marker", hit.marked, "en")) == \
        "A <mark>tie</mark> &lt;b&gt;keeps&lt;/b&gt; the marker"


@pytest.mark.parametrize("lang, query, suggestion", [
    ("en", "geishaaas secrte", "geishas secret"),
    ("de", "Gleichstnd", "Gleichstand"),
    ("uk", "таємнииця", "Таємниця"),
    ("es", "compensasión", "Compensación"),
    ("fr", "égaltés", "égalité"),
])
def test_did_you_mean_for_a_near_miss(index, lang, query, suggestion):
    assert search.suggest(index(lang), query) == suggestion


def test_did_you_mean_counts_a_swap_as_one_typo(index):
    assert search.suggest(index("en", "koikoi"), "is the sake cup an animal or a plian") == \
        "is the sake cup an animal or a plain"


def test_no_did_you_mean_for_words_the_rules_use_or_for_nonsense(index):
    assert search.suggest(index("en"), "tie keeps the marker") is None
    assert search.suggest(index("de"), "was passiert wenn beide 4 Geishas haben") is None
    assert search.suggest(index("en"), "what if both have 4 geishas") is None  # stop words
    assert search.suggest(index("uk"), "нічиєї") is None  # an inflected form is a real word
    assert search.suggest(index("en"), "zebrra tie") is None  # nothing near "zebrra"


# -- speed and the index -------------------------------------------------------------
def test_a_query_takes_under_5_ms_in_process(index, app):
    """The median of every question of the test set, each with a cold cache of matched keys:
    the CPU time of the thread that answers, which the other tests and browsers sharing
    the two cores do not lengthen (their time slices fell inside a wall-clock measure:
    one query in two read 25 ms at load 16). `make bench` times queries by the clock."""
    questions = search_quality.load_questions()
    times = []
    for lang, asked in questions.items():
        for entry in asked:
            idx = index(lang, entry["game"])
            search._close_keys.cache_clear()
            start = time.thread_time()
            search.search(idx, entry["q"])
            search.suggest(idx, entry["q"])
            times.append(time.thread_time() - start)
    assert statistics.median(times) < 0.005, statistics.median(times)


def test_the_index_is_built_once_per_game_and_language(index):
    assert index("fr") is index("fr")
    assert index("fr", "koikoi") is not index("fr")


# -- the page ------------------------------------------------------------------------
def test_the_page_shows_ranked_highlighted_results(client):
    html = client.get("/uk/hanamikoji/search?q=нічия").get_data(as_text=True)
    results = html[html.find('id="search-results"'):]
    rules = re.findall(r'data-rule="([^"]+)"', results)
    assert TIE in rules[:3]
    tie = re.search(rf'data-rule="{TIE}">(.*?)</li>', results, re.DOTALL).group(1)
    assert re.search(r"<mark>[Нн]ічиєї</mark>", tie)


@pytest.mark.parametrize("lang, game, question, answers, term", [
    ("en", "hanamikoji", "can i look at my discarded cards", {"action.tradeoff"}, "Discard"),
    ("de", "hanamikoji", "sind beim tausch alle karten offen",
     {"action.competition", "faq.competition-visible"}, "Tausch"),
    ("uk", "koikoi", "скільки очок дає гоко", {"yaku.goko"}, "10"),
    ("es", "koikoi", "cuantos puntos vale goko", {"yaku.goko"}, "10"),
    ("fr", "koikoi", "l'eclair annule les contemplations?", {"options.lightning"}, "novembre"),
])
def test_a_clear_answer_is_a_card_above_the_list(client, lang, game, question, answers, term):
    html = client.get(f"/{lang}/{game}/search", query_string={"q": question}).get_data(as_text=True)
    card = re.search(r'<section class="search-answer" id="search-answer"[^>]*data-rule="([^"]+)"'
                     r'(.*?)</section>', html, re.DOTALL)
    assert card and card.group(1) in answers, question
    assert term in re.sub(r"<[^>]+>", "", card.group(2))
    assert html.find('id="search-answer"') < html.find('id="search-results"')


def test_the_card_shows_a_yakus_points_in_the_ruleset_in_force(client):
    def facts(query):
        html = client.get(f"/en/koikoi/search?{query}").get_data(as_text=True)
        card = re.search(r'id="search-answer".*?</section>', html, re.DOTALL).group(0)
        return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", card))

    assert "Nintendo ruleset" in facts("q=goko points") and "Points: 10" in facts("q=goko points")
    assert "Points: 15" in facts("q=goko points&ruleset=fudawiki")


def test_the_card_shows_the_text_of_the_edition_in_force(client):
    page = client.get("/en/hanamikoji/search?q=what happens to discarded cards&edition=emperors4")
    card = re.search(r'id="search-answer".*?</section>', page.get_data(as_text=True), re.DOTALL)
    assert card and "Trade-off" in card.group(0)
    page = client.get("/en/hanamikoji/search?q=what happens to discarded cards")
    card = re.search(r'id="search-answer".*?</section>', page.get_data(as_text=True), re.DOTALL)
    assert card and "Discard" in card.group(0) and "Trade-off" not in card.group(0)


def test_no_card_when_no_rule_stands_out(client):
    html = client.get("/en/hanamikoji/search?q=card").get_data(as_text=True)
    assert 'id="search-results"' in html and 'id="search-answer"' not in html


@pytest.mark.parametrize("address", [
    "/en/hanamikoji/search?q=how to play hanamikoji",  # was: the editions compared
    "/en/search?q=hanamikoji",
    "/de/search?q=hanamikoji regeln",  # was: Koi-Koi's flower viewing ("hanami…")
    "/uk/search?q=як грати в ханамікоджі",
    "/ja/search?q=花見小路のルール",
])
def test_no_card_on_a_games_name_alone(client, address):
    """A question that names a game and asks nothing the rules answer gets no card: the
    name is in the titles of the editions compared, and begins Koi-Koi's "hanami"."""
    html = client.get(address).get_data(as_text=True)
    assert 'id="search-results"' in html and 'id="search-answer"' not in html


def test_a_card_that_rests_on_more_than_the_games_name_stays(client):
    """Koi-Koi's call is named after the game: where the rest of the question finds the
    same rule first, the card stays."""
    html = client.get("/es/koikoi/search",
                      query_string={"q": "clubhouse games solo se puede cantar koi koi una vez"})
    assert 'id="search-answer"' in html.get_data(as_text=True)
    assert re.search(r'class="search-answer"[^>]*data-rule="koikoi.limit"',
                     html.get_data(as_text=True))


def test_the_search_keeps_the_pages_options_and_suggests_nothing(client):
    html = client.get("/fr/hanamikoji/search?q=jetons&edition=iello").get_data(as_text=True)
    form = re.search(r'<form class="search-form" id="search-form".*?</form>', html, re.DOTALL).group(0)
    assert '<input type="hidden" name="edition" value="iello">' in form
    assert 'autocomplete="off"' in form and " list=" not in form and "<datalist" not in html
    links = re.findall(r'<p class="search-result__title"><a href="(/fr/hanamikoji/[^"]*)"', html)
    assert links and all("edition=iello" in link for link in links)  # the rules page's links


def test_stemming_is_safe_from_the_servers_threads():
    """A Snowball stemmer keeps the word it works on in itself: threads must not share it
    unguarded (a search page under load answered 500 before)."""
    import threading

    import snowballstemmer

    words = [f"{stem}{end}" for stem in ("égal", "victoir", "jeton", "manch", "gagn")
             for end in ("ité", "ités", "es", "er", "eraient", "ements")] * 20
    expected = [snowballstemmer.stemmer("french").stemWord(w) for w in words]
    reduce, results = analyzers.analyzer("fr").reduce, []

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


# -- the phrasings in the rulebooks ------------------------------------------------------
def test_phrasings_for_no_rule_of_their_section_are_refused(tmp_path):
    import yaml

    from rulebook import GAMES
    from rulebook.hanamikoji import load_rulebook
    from rulebook.loader import RulebookError

    data = yaml.safe_load((GAMES["hanamikoji"].folder / "rulebook.yaml").read_text("utf-8"))
    data["sections"][0]["asked"] = {"victory.geishas": ["how many geishas to win"]}
    path = tmp_path / "rulebook.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with pytest.raises(RulebookError, match="phrasings for no rule"):
        load_rulebook(path)


def test_the_extractor_gives_each_rules_phrasings_one_catalog_entry():
    from rulebook import GAMES
    from tools.babel_extract import extract_rulebook

    with open(GAMES["koikoi"].folder / "rulebook.yaml", "rb") as handle:
        messages = list(extract_rulebook(handle, [], [], {}))
    asked = {m[2][0]: m[2][1] for m in messages if m[1] == "pgettext"
             and m[2][0].startswith("asked.")}
    assert set(asked) == {f"asked.{rule_id}" for rule_id in GAMES["koikoi"].load().asked}
    assert asked["asked.yaku.goko"] == " | ".join(GAMES["koikoi"].load().asked["yaku.goko"])

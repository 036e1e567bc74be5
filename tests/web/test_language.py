"""Every page wholly in its language: no English sentence on a translated page (every page
type; a page's description and Open Graph tags count once the templates carry them), default
player names that fit the sentence (page, API and CLI alike), people's words instead of the
program's (quotes, values, labels, the game's name, the parser's and the system's reasons),
the sources by name, page descriptions, and no sentence copied from the seed documents."""
from __future__ import annotations

import difflib
import functools
import json
import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo
from flask import template_rendered

from rulebook import GAMES
from rulebook.i18n import LANGUAGES, translations_dir
from webapp.pages import meta

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
BOARD = "a=2,2,2,0,0,0,2&b=0,0,0,3,3,2,0"  # A: 4 geishas and 11 charm points
KOIKOI_ROUND = ("a=pine-crane,pine-poetry-ribbon,cherry-curtain,cherry-poetry-ribbon,"
                "susuki-moon,susuki-geese&winner=a")
PAGES = [
    "/{lang}/", "/{lang}/hanamikoji/", "/{lang}/koikoi/",
    "/{lang}/hanamikoji/disagreements", "/{lang}/koikoi/disagreements",
    "/{lang}/hanamikoji/search?q=geisha", "/{lang}/koikoi/search?q=goko",
    "/{lang}/hanamikoji/score", "/{lang}/hanamikoji/score?" + BOARD,
    "/{lang}/hanamikoji/score?mode=log&act=gift:ruri,ruri,anju:anju",
    "/{lang}/koikoi/score", "/{lang}/koikoi/score?" + KOIKOI_ROUND,
    "/{lang}/no-such-page",
]
WORD = re.compile(r"[^\W\d_]+(?:['’.\-][^\W\d_]+)*")  # an id such as faq.move-card is one word
VOID = {"br", "img", "input", "meta", "link", "hr", "source", "wbr", "col", "area", "base"}
BLOCKS = {"p", "li", "h1", "h2", "h3", "h4", "dd", "dt", "td", "th", "div", "label", "legend",
          "option", "button", "a", "summary", "caption", "figcaption", "title", "section"}
ATTRIBUTES = ("aria-label", "title", "alt", "placeholder")


class PageText(HTMLParser):
    """The text a person reads or hears, block by block, without what is marked as being in
    another language (`lang="en"` on a title of a work, a printed action name)."""

    def __init__(self, lang: str):
        super().__init__()
        self.lang, self.stack, self.chunks, self.current = lang, [], [], []

    def foreign(self) -> bool:
        return any(foreign for _, foreign in self.stack)

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        if tag == "meta" and (values.get("name") == "description"
                              or values.get("property", "").startswith("og:")):
            self.chunks.append(values.get("content") or "")
        if tag in VOID:
            return
        other = values.get("lang") not in (None, self.lang) or tag in ("script", "style", "code")
        self.stack.append((tag, other))
        if not self.foreign():
            self.chunks.extend(values[name] for name in ATTRIBUTES if values.get(name))
        if tag in BLOCKS:
            self.flush()

    def handle_endtag(self, tag):
        while self.stack and tag not in VOID:
            if self.stack.pop()[0] == tag:
                break
        self.flush()

    def handle_data(self, data):
        if not self.foreign():
            self.current.append(data)

    def flush(self):
        text = " ".join("".join(self.current).split())
        if text:
            self.chunks.append(text)
        self.current = []


def sentences(html: str, lang: str) -> set[str]:
    """Every sentence of five or more words on the page, casefolded."""
    parser = PageText(lang)
    parser.feed(html)
    parser.flush()
    out = set()
    for chunk in parser.chunks:
        for sentence in re.split(r"(?<=[.!?;:])\s+", chunk):
            words = WORD.findall(sentence)
            if len(words) >= 5:
                out.add(" ".join(words).casefold())
    return out


@functools.cache
def english_sentences(app, page: str) -> frozenset[str]:
    """The sentences of the English page (read once for the five languages compared to it)."""
    english = app.test_client().get(page.format(lang="en")).get_data(as_text=True)
    return frozenset(sentences(english, "en"))


@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.parametrize("page", PAGES)
def test_no_english_sentence_on_a_translated_page(app, page, lang):
    client = app.test_client()
    english = english_sentences(app, page)
    response = client.get(page.format(lang=lang))
    shown = sentences(response.get_data(as_text=True), lang)
    assert sorted(shown & english) == [], f"English on {page.format(lang=lang)}"


def test_the_page_text_leaves_out_what_is_marked_as_another_language():
    html = ('<p>Ein Satz mit genau fünf Wörtern hier. <cite lang="en">Five English words '
            'stay aside</cite></p><a aria-label="Link to this rule right here">#</a>')
    assert sentences(html, "de") == {"ein satz mit genau fünf wörtern hier",
                                     "link to this rule right here"}


# -- default player names that fit the sentence -------------------------------------
HANAMIKOJI = [
    {"game": "hanamikoji", "rounds": [{"board": {"a": [2, 2, 2, 0, 0, 0, 2],
                                                 "b": [0, 0, 0, 3, 3, 2, 0]}}]},
    {"game": "hanamikoji", "variants": {"round_limit": True},
     "start": {"round": 3, "favor": ["a", "b", None, "a", "b", None, None]},
     "rounds": [{"board": {"a": [1, 1, 1, 1, 1, 1, 2], "b": [1, 1, 1, 2, 2, 1, 0]}}]},
    {"game": "hanamikoji", "rounds": [{"actions": [
        {"action": "gift", "cards": ["ruri", "ruri", "anju"], "taken": "anju"},
        {"action": "gift", "cards": ["yoko", "yoko", "iroha"], "taken": "iroha"}]}]},
    {"game": "hanamikoji", "rounds": [{"board": {"a": [9, 0, 0, 0, 0, 0, 0], "b": [0] * 7}}]},
]
KOIKOI = [
    {"game": "koikoi", "rounds": [
        {"winner": "a", "captured": {"a": [0, 1, 8, 9, 28, 29, 40, 41, 44, 45]}, "koikoi": {"b": 1}},
        {"winner": None}, {"winner": "b", "captured": {"b": [20, 21, 33, 32, 36, 37]}}]},
    {"game": "koikoi", "rounds": [{"winner": "a", "captured": {"a": [0, 0, 1]}}]},
]
# What a default name must never look like inside a sentence, per language.
BROKEN = {
    "de": [r"\bSpieler [AB]s\b", r"\bdes Spieler [AB]\b"],  # no genitive s on a name
    "uk": [r"(?<![.!?]\s)(?<!^)Гравець [АБ](?!:)"],  # a capital mid-sentence
    "es": [r"\b[Dd]e el jugador", r"\ba el jugador", r"(?<![.!?]\s)(?<!^)\bJugador [AB]\b(?!:)"],
    "fr": [r"\b[Dd]e le joueur", r"\bà le joueur", r"(?<![.!?]\s)(?<!^)\bJoueur [AB]\b(?!\s?:)"],
    # no space between a name and its particle, no gendered pronoun for a player
    "ja": [r"プレイヤー[AB] [はがのをにも]", r"彼女?[はがのをに]"],
}


def messages(document) -> list[str]:
    if isinstance(document, dict):
        own = [document["message"]] if isinstance(document.get("message"), str) else []
        return own + [m for key, value in document.items() if key != "message"
                      for m in messages(value)]
    if isinstance(document, list):
        return [m for item in document for m in messages(item)]
    return []


def referee(request, lang):
    return GAMES[request["game"]].referee(json.loads(json.dumps(request)), lang)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_default_names_read_naturally_in_every_ruling_and_message(lang):
    said = []
    for request in HANAMIKOJI + KOIKOI:
        said += messages(referee(request, lang))
    assert len(said) > 40
    broken = [(pattern, text) for text in said for pattern in BROKEN[lang]
              if re.search(pattern, text)]
    assert broken == []
    default = {"de": "Spieler", "uk": "гравець", "es": "el jugador", "fr": "le joueur",
               "ja": "プレイヤー"}[lang]
    assert any(default in text for text in said)  # the sentence form is used
    assert all(text[0] == text[0].upper() for text in said if text[0].isalpha())


@pytest.mark.parametrize("lang, wins", [("es", "Gana el jugador A"), ("fr", "Le joueur A"),
                                        ("uk", "гравець А"), ("de", "Spieler A gewinnt"),
                                        ("ja", "プレイヤーAの勝利です")])
def test_a_ruling_with_default_names_is_the_same_on_the_page_in_the_api_and_the_cli(
        client, lang, wins):
    request = HANAMIKOJI[0]
    result = referee(request, lang)["result"]["message"]
    assert wins in result
    api = client.post(f"/api/v1/hanamikoji/score?lang={lang}", data=json.dumps(request),
                      content_type="application/json").get_json()
    assert api["result"]["message"] == result
    page = client.get(f"/{lang}/hanamikoji/score?{BOARD}").get_data(as_text=True)
    assert result in page.replace("&#39;", "'").replace("&#x27;", "'")
    cli = run_cli("score", "--lang", lang, "-", stdin=json.dumps(request))
    assert result in cli.stdout


@pytest.mark.parametrize("lang", TRANSLATED)
def test_real_names_fit_the_same_sentences(lang):
    request = {**HANAMIKOJI[0], "players": {"a": "Jonas", "b": "Olena"}}
    said = messages(referee(request, lang))
    assert any(text.startswith("Jonas") or " Jonas" in text for text in said)
    assert not any(re.search(r"\b(el|le) (Jonas|Olena)", text) for text in said)


# -- people's words, not the program's --------------------------------------------------
QUOTED = {"de": "„{}“", "uk": "«{}»", "es": "«{}»", "fr": "«\u00a0{}\u00a0»", "en": "“{}”",
          "ja": "「{}」"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_values_are_quoted_in_the_languages_quotes_and_never_as_python(lang):
    said = messages(referee({"game": "hanamikoji", "edition": "xyz",
                             "variants": {"round_limit": None, "simultaneous_goal": "maybe"},
                             "players": {"c": "Ann"},
                             "rounds": [{"actions": [{"action": ["ruri", "ruri"]}]}]}, lang))
    text = " ".join(said)
    assert QUOTED[lang].format("xyz") in text and QUOTED[lang].format("deepwater") in text
    assert QUOTED[lang].format("ruri") in text  # a list, item by item
    assert "null" in text
    for python in ("['", "None", "True", "False", '"xyz"', "u'"):
        assert python not in text, python


@pytest.mark.parametrize("lang, label", [("en", "Clash reading"),
                                         ("es", "Victorias simultáneas"),
                                         ("fr", "Victoires simultanées"),
                                         ("ja", "同時達成の解釈")])
def test_a_variant_is_named_by_its_label_not_its_key(lang, label):
    said = messages(referee({"game": "hanamikoji", "variants": {"simultaneous_goal": "x"},
                             "rounds": [HANAMIKOJI[0]["rounds"][0]]}, lang))
    assert any(label in text for text in said)
    assert not any("simultaneous_goal" in text for text in said)


def test_a_table_option_is_named_by_its_label_not_its_key():
    said = messages(referee({"game": "koikoi", "options": {"viewings": "maybe"},
                             "rounds": [{"winner": None}]}, "de"))
    assert any("Schau-Yaku" in text for text in said)
    assert not any("viewings" in text for text in said)


@pytest.mark.parametrize("lang, name", [("uk", "Ханамікоджі"), ("de", "Hanamikoji"),
                                        ("ja", "花見小路")])
def test_the_game_is_named_not_its_id(client, lang, name):
    body = client.post(f"/api/v1/hanamikoji/score?lang={lang}",
                       data=json.dumps({"game": "koikoi", "rounds": []}),
                       content_type="application/json").get_json()
    message = body["errors"][0]["message"]
    assert name in message and "hanamikoji" not in message


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_json_parsers_english_stays_out_of_the_api(client, lang):
    body = client.post(f"/api/v1/hanamikoji/score?lang={lang}", data=b'{"game": ',
                       content_type="application/json").get_json()
    assert "Expecting" not in body["detail"] and re.search(r"(?<!\d)1(?!\d)", body["detail"])


def run_cli(*args, stdin=""):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "rulebook.cli", *args], check=False, input=stdin,
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=60)


@pytest.mark.parametrize("lang, says", [("de", "diese Datei gibt es nicht"),
                                        ("uk", "такого файлу немає"),
                                        ("es", "ese archivo no existe"),
                                        ("fr", "ce fichier n’existe pas"),
                                        ("ja", "そのファイルはありません")])
def test_file_errors_in_the_users_language(tmp_path, lang, says):
    missing = run_cli("score", "--lang", lang, str(tmp_path / "none.json"))
    folder = run_cli("score", "--lang", lang, str(tmp_path))
    assert missing.returncode == 2 and says in missing.stderr
    assert folder.returncode == 2 and "directory" not in folder.stderr.lower()
    assert "No such file" not in missing.stderr and "Traceback" not in missing.stderr


@pytest.mark.parametrize("lang, says", [("de", "Zeile 2, Spalte 7"), ("uk", "рядка 2, стовпця 7"),
                                        ("es", "línea 2, columna 7"), ("fr", "ligne 2, colonne 7"),
                                        ("ja", "2行7列目")])
def test_yaml_errors_say_where_in_the_users_language(lang, says):
    broken = run_cli("score", "--lang", lang, "-", stdin="game: [hanamikoji\nrounds: 1\n")
    assert broken.returncode == 2 and says in broken.stderr, broken.stderr
    assert "while parsing" not in broken.stderr and "expected" not in broken.stderr


def test_the_problem_lines_of_the_cli_take_the_languages_punctuation():
    out = run_cli("score", "--lang", "fr", "-", stdin=json.dumps(HANAMIKOJI[3])).stdout
    assert "/rounds/0/board/a\u00a0: " in out


# -- sources by name, in the page's language ----------------------------------------------
def test_koikoi_names_its_sources_by_key_with_translated_descriptions(client):
    rb = GAMES["koikoi"].load()
    assert rb.canonical_source in rb.sources
    assert all(set(r.sources) <= set(rb.sources) for r in rb.rulesets.values())
    document = client.get("/api/v1/koikoi/rulebook?lang=es").get_json()
    english = client.get("/api/v1/koikoi/rulebook?lang=en").get_json()
    abouts = {s["id"]: s["about"] for s in document["sources"]}
    assert abouts["nintendo"] != {s["id"]: s["about"] for s in english["sources"]}["nintendo"]
    assert all(r["sources"] for r in document["rulesets"])
    text = json.dumps(document, ensure_ascii=False)
    for key in ("NIN:", "FW:", "GD:", "YAK:"):
        assert key not in text


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", ["hanamikoji", "koikoi"])
def test_no_internal_source_key_on_a_page(client, lang, game):
    html = client.get(f"/{lang}/{game}/").get_data(as_text=True)
    for key in ("NIN:", "FW:", "GD:", "YAK:", "SID:"):
        assert key not in html


def test_a_sources_title_keeps_its_language_and_is_marked(app):
    from webapp.games import GAMES as WEB

    web = WEB["koikoi"]
    options = web.options(web.rulebook, {})
    shown = str(web.terms(web.rulebook, "uk", options).sources(["fudawiki", "nintendo"]))
    assert '<cite lang="en">Koi-Koi</cite>' in shown and "FudaWiki" in shown
    assert "; " in shown and "Nintendo" in shown
    french = str(web.terms(web.rulebook, "fr", options).sources(["fudawiki", "nintendo"]))
    assert "\u00a0; " in french


# -- page descriptions --------------------------------------------------------------------
def described(app, client, url):
    found = []

    def grab(sender, template, context, **extra):
        found.append(meta.describe(context, context.get("lang") or "en"))

    app.extensions["shinpan.page_cache"].clear()  # a kept page is not rendered again
    with template_rendered.connected_to(grab, app):
        client.get(url, follow_redirects=True)
    return found[-1]


META_PAGES = ["/{lang}/", "/{lang}/hanamikoji/", "/{lang}/koikoi/disagreements",
              "/{lang}/hanamikoji/search?q=geisha", "/{lang}/koikoi/score",
              "/{lang}/hanamikoji/score"]


@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.parametrize("page", META_PAGES)
def test_every_page_type_has_a_description_in_its_language(app, client, page, lang):
    english = described(app, client, page.format(lang="en"))
    mine = described(app, client, page.format(lang=lang))
    assert mine.description and mine.description != english.description
    assert mine.locale == lang and len(mine.description) <= meta.MAX_DESCRIPTION


@pytest.mark.parametrize("lang, verdict", [("en", "Jonas wins"), ("de", "Jonas gewinnt"),
                                           ("es", "Gana Jonas"), ("fr", "Jonas gagne"),
                                           ("uk", "Перемагає Jonas"), ("ja", "Jonasの勝利です")])
def test_a_rulings_permalink_previews_its_verdict(app, client, lang, verdict):
    page = described(app, client, f"/{lang}/hanamikoji/score?na=Jonas&nb=Olena&{BOARD}")
    assert page.title.startswith(verdict) and verdict in page.description
    assert "Olena" in page.description  # the totals of both players follow


def test_a_koikoi_rulings_permalink_previews_the_round_score(app, client):
    page = described(app, client, "/de/koikoi/score?" + KOIKOI_ROUND)
    assert "Punkte" in page.title and "Koi-Koi" in page.description


def test_the_page_carries_its_description_and_open_graph_tags(client):
    """What a chat app reads from the permalink: the tags, not the template's context."""
    html = client.get(f"/fr/hanamikoji/score?na=Jonas&nb=Olena&{BOARD}").get_data(as_text=True)
    tags = dict(re.findall(r'<meta (?:name|property)="([a-z:_]+)" content="([^"]*)"', html))
    assert tags["og:title"].startswith("Jonas gagne")
    assert tags["og:description"] == tags["description"] and "Jonas gagne" in tags["description"]
    assert tags["og:locale"] == "fr" and tags["og:url"].startswith("http://localhost/fr/")
    home = client.get("/uk/").get_data(as_text=True)
    assert re.search(r'<meta name="description" content="[^"]*Ханамікоджі', home)


def test_descriptions_are_cut_at_a_word():
    assert meta.shorten("word " * 100, 30) == "word word word word word…"
    assert meta.shorten("short text") == "short text"


# -- no sentence copied from the seed documents ---------------------------------------------
SEEDS = ROOT.parent / "shared" / "seeds"
RUN = 6  # words in a row that a catalog sentence may not share with a seed sentence
CLOSE = 0.75  # nor may the two read this much alike, word by word


def seed_sentences(text: str) -> list[list[str]]:
    out = []
    for sentence in re.split(r"(?<=[.!?;:])\s+|\n+", text):
        words = re.findall(r"\w+(?:['’]\w+)*", sentence.casefold())
        if len(words) >= 5:
            out.append(words)
    return out


def test_no_catalog_sentence_is_a_near_copy_of_a_seed_sentence():
    if not SEEDS.is_dir():
        pytest.skip("the seed documents (shared/seeds) are not beside this checkout")
    seeds = [w for path in sorted(SEEDS.glob("0*.txt")) for w in seed_sentences(path.read_text())]
    runs = {tuple(w[i:i + RUN]) for w in seeds for i in range(len(w) - RUN + 1)}
    holding: dict[str, set[int]] = {}  # word -> the seed sentences that hold it
    for number, words in enumerate(seeds):
        for word in set(words):
            holding.setdefault(word, set()).add(number)

    def alike(words: list[str]) -> bool:
        """A seed sentence that reads much like this one (only those sharing most words are
        compared in full)."""
        counts: dict[int, int] = {}
        for word in set(words):
            for number in holding.get(word, ()):
                counts[number] = counts.get(number, 0) + 1
        return any(difflib.SequenceMatcher(None, words, seeds[n], autojunk=False).ratio() >= CLOSE
                   for n, shared in counts.items() if shared >= CLOSE * len(set(words)))

    copies = []
    for lang in TRANSLATED:
        with open(translations_dir() / lang / "LC_MESSAGES" / "messages.mo", "rb") as handle:
            catalog = read_mo(handle)
        for message in catalog:
            forms = message.string if isinstance(message.string, (list, tuple)) else [message.string]
            for words in (w for form in forms for w in seed_sentences(form or "")):
                shared = any(tuple(words[i:i + RUN]) in runs for i in range(len(words) - RUN + 1))
                if shared or (len(words) > RUN and alike(words)):
                    copies.append((lang, message.context, " ".join(words)))
    assert copies == []


def test_the_seed_check_catches_a_copy_with_a_word_changed():
    seed = seed_sentences("Votre adversaire en choisit une et la place de son côté sous la Geisha.")
    ours = seed_sentences("Votre adversaire en prend une et la place de son côté sous la geisha.")
    runs = {tuple(seed[0][i:i + RUN]) for i in range(len(seed[0]) - RUN + 1)}
    assert any(tuple(ours[0][i:i + RUN]) in runs for i in range(len(ours[0]) - RUN + 1))


@pytest.mark.parametrize("lang", ["en", *TRANSLATED])
def test_koikoi_rulesets_name_their_sources_on_the_page(client, lang):
    page = client.get(f"/{lang}/koikoi/").get_data(as_text=True)
    lines = re.findall(r'<p class="ruleset-source">(.*?)</p>', page)
    assert len(lines) >= 4
    assert all(word_count(re.sub(r"<[^>]+>", "", line), lang) >= 4 for line in lines), lines


def word_count(text: str, lang: str) -> int:
    """Words that carry meaning: Japanese has no spaces, so its analyzer counts them."""
    if lang == "ja":
        from webapp.pages import analyzers

        return sum(1 for _ in analyzers.analyzer("ja").tokens(text))
    return len(text.split())

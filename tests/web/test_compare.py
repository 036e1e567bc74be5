"""The comparison pages (/<lang>/koikoi/rulesets, /<lang>/hanamikoji/editions) and the forms'
options a ruleset lacks, in every language (test client)."""
from __future__ import annotations

import os
import re
from html import unescape

import pytest

from rulebook.hanamikoji.model import load_rulebook as load_hanamikoji
from rulebook.i18n import LANGUAGES
from rulebook.koikoi.model import load_rulebook as load_koikoi
from webapp.games import GAMES

from .test_language import sentences

KOIKOI, HANAMIKOJI = load_koikoi(), load_hanamikoji()
PAGES = {"koikoi": ("rulesets", KOIKOI, KOIKOI.rulesets), "hanamikoji": ("editions", HANAMIKOJI, HANAMIKOJI.editions)}
TITLES = {"en": ("Rulesets side by side", "Editions side by side"),
          "de": ("Regelwerke im Vergleich", "Ausgaben im Vergleich"),
          "uk": ("Набори правил поруч", "Видання поруч"),
          "es": ("Los reglamentos, uno al lado de otro", "Las ediciones, una al lado de otra"),
          "fr": ("Les jeux de règles côte à côte", "Les éditions côte à côte"),
          "ja": ("ルールを並べて比較", "版を並べて比較")}


def html_of(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.get_data(as_text=True)


def row(html: str, key: str) -> str:
    start = html.index(f'id="row-{key}"')
    return html[start:html.index("</tr>", start)]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", list(PAGES))
def test_comparison_page_in_every_language(client, lang, game):
    """ruleset.compare, edition.compare: every item and every fact, in the page's language."""
    kind, rb, items = PAGES[game]
    html = html_of(client.get(f"/{lang}/{game}/{kind}"))
    assert f'<html lang="{lang}"' in html
    title = TITLES[lang][0 if game == "koikoi" else 1]
    assert f">{title}</h1>" in unescape(html)
    # the pick form comes first, works without script (GET), and offers every item twice
    assert html.index('id="compare-pick"') < html.index('class="cmp"')
    assert 'method="get"' in html and html.count("<option value=") == 2 * len(items)
    if game == "koikoi":  # the rulesets by the names the page's language gives them
        nintendo = {"ja": "任天堂"}.get(lang, "Nintendo")
        assert f'<option value="nintendo" selected>{nintendo}</option>' in html
        if lang == "ja":  # Japanese typography: a full-width plus and slash, no spaced "+"
            ribbons = unescape(row(html, "group.ribbons"))
            assert "タン＋赤短／タン＋青短" in ribbons and " + " not in ribbons
    for key in rb.compared():
        cells = re.findall(r'<td data-item="([a-z0-9]+)"', row(html, key))
        assert sorted(cells) == sorted(items), key
    # every cited source is listed with what it is, linked where it has an address
    for key in set(re.findall(r'href="#source-([a-z0-9-]+)"', html)):
        assert f'id="source-{key}"' in html
        if rb.sources[key].url:
            assert f'href="{rb.sources[key].url}"' in html


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
@pytest.mark.parametrize("game", list(PAGES))
def test_comparison_page_has_no_english_sentence(client, lang, game):
    kind = PAGES[game][0]
    english = sentences(html_of(client.get(f"/en/{game}/{kind}")), "en")
    shown = sentences(html_of(client.get(f"/{lang}/{game}/{kind}")), lang)
    assert sorted(shown & english) == []


def test_comparison_picks_two_and_marks_what_differs(client):
    """On a phone the two picked columns show (CSS hides the rest); their cells say how each
    value was read and whether it differs from the first."""
    html = html_of(client.get("/en/koikoi/rulesets?a=bga&b=clubhouse"))
    head = html[html.index("<thead>"):html.index("</thead>")]
    assert re.findall(r'data-item="([a-z]+)"', head)[:2] == ["bga", "clubhouse"]
    assert head.count("is-picked") == 2
    goko = row(html, "yaku.goko")
    assert 'data-item="bga" class="cmp__cell is-picked" data-basis="unknown"' in goko
    assert "Value not documented" in goko and "10" in goko and "differs" in goko
    assert "data-differs" in goko
    ribbons = row(html, "group.ribbons")
    assert "inferred" in ribbons and "referee" in ribbons  # the note says whose reading it is
    koikoi = row(html, "option.koikoi_multiplier")
    assert "Soft Koi" in unescape(koikoi)
    draw = row(html, "option.draw_dealer")  # neither source documents it
    assert "Not documented; the referee applies" in draw


def test_comparison_unknown_pick_is_a_notice(client):
    html = html_of(client.get("/de/koikoi/rulesets?a=skat&b=bga"))
    assert "„skat“" in unescape(html) and 'class="notice"' in html
    head = html[html.index("<thead>"):html.index("</thead>")]
    assert re.findall(r'data-item="([a-z]+)"', head)[:2] == ["nintendo", "bga"]


@pytest.mark.parametrize("game, own, query", [("koikoi", "bga", "ruleset=bga&rounds=9"),
                                              ("hanamikoji", "geekach", "edition=geekach&round_limit=1")])
def test_comparison_starts_from_the_tables_own_and_keeps_its_options(client, game, own, query):
    """Opened from a page with a ruleset or edition chosen, the comparison puts it first, and
    every link to it and from it keeps the table's options."""
    kind = PAGES[game][0]
    rules = html_of(client.get(f"/en/{game}/?{query}"))
    assert f'id="nav-compare" href="/en/{game}/{kind}?{query.replace("&", "&amp;")}"' in rules
    html = html_of(client.get(f"/en/{game}/{kind}?{query}"))
    head = html[html.index("<thead>"):html.index("</thead>")]
    assert re.findall(r'data-item="([a-z0-9]+)"', head)[0] == own
    assert f'href="/en/{game}/disagreements?{query.replace("&", "&amp;")}"' in html
    for hidden in query.split("&"):
        name, value = hidden.split("=")
        assert f'<input type="hidden" name="{name}" value="{value}">' in html


def test_comparison_editions_show_unknown_and_printed_names(client):
    html = html_of(client.get("/fr/hanamikoji/editions?a=msedizioni&b=kosmos"))
    assert '<span lang="it">Segreto</span>' in html and '<span lang="de">Ablage</span>' in html
    assert "Introuvable dans nos sources" in unescape(html)
    assert "Celui dont l’anniversaire est le plus récent" in unescape(html)


@pytest.mark.parametrize("path", ["/en/koikoi/editions", "/en/hanamikoji/rulesets"])
def test_comparison_only_where_a_game_compares(client, path):
    assert client.get(path).status_code == 404


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game, page", [("koikoi", ""), ("koikoi", "disagreements"),
                                        ("hanamikoji", ""), ("hanamikoji", "disagreements")])
def test_rules_and_disagreements_link_the_comparison(client, lang, game, page):
    kind = PAGES[game][0]
    html = html_of(client.get(f"/{lang}/{game}/{page}"))
    assert f'id="nav-compare" href="/{lang}/{game}/{kind}"' in html
    anchor = "compare-link" if page else ("ruleset-compare-link" if game == "koikoi" else "edition-compare-link")
    assert f'id="{anchor}"' in html
    if not page:  # the question the comparison answers links it too
        faq = "faq-which-rules" if game == "koikoi" else "faq-how-many-rounds"
        assert f'id="{faq}-compare-link"><a href="/{lang}/{game}/{kind}"' in html


# -- options.not-in-ruleset in the forms ---------------------------------------------------------
@pytest.mark.parametrize("path", ["/en/koikoi/?ruleset=gamedesign", "/en/koikoi/score?ruleset=gamedesign"])
def test_options_not_in_ruleset_not_offered(client, path):
    """options.not-in-ruleset: the forms offer no option about yaku Hanafuda Flash lacks."""
    html = html_of(client.get(path, follow_redirects=True))
    for key in ("hand_yaku", "viewings", "flower_viewing", "rain_man_spoils_viewings"):
        assert f'name="{key}"' not in html, key
    assert 'name="tsukifuda"' in html and 'name="match_target"' in html
    if path.startswith("/en/koikoi/?"):
        assert 'data-option="hand_yaku"' not in html  # nor listed as in force


def test_options_not_in_ruleset_refused_in_the_checker(client):
    html = html_of(client.get("/en/koikoi/score?ruleset=gamedesign&hand_yaku=1&winner=none",
                              follow_redirects=True))
    assert "Hanafuda Flash (gamedesign.jp) ruleset has no" in unescape(html)


def _menu(html: str, key: str) -> str:
    """An option's menu, from its name to the end of its choices."""
    menu = html[html.index(f'name="{key}"'):]
    return menu[:menu.index("</select>")]


def test_options_draw_points_offers_fudawikis_values(client):
    """options.draw-points: the menu offers 0, 1 and 6 points (FudaWiki: typically 1 or 6)."""
    html = html_of(client.get("/en/koikoi/?ruleset=fudawiki"))
    menu = _menu(html, "draw_dealer_points")
    assert re.findall(r'<option value="(\d+)"', menu) == ["0", "1", "6"]


def test_options_rounds_offers_nine_and_no_fixed_number(client):
    html = html_of(client.get("/en/koikoi/?ruleset=yakuza"))
    menu = _menu(html, "rounds")
    assert re.findall(r'<option value="([a-z0-9]+)"', menu) == ["12", "9", "6", "4", "3", "none"]
    assert "3 rounds (as the ruleset says)" in menu


def _own_choice(html: str, key: str) -> str:
    """The text of an option menu's first choice: the ruleset's own value."""
    return unescape(re.search(r'<option value=""[^>]*>([^<]*)</option>', _menu(html, key)).group(1))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_value_no_source_gives_is_not_said_to_be_the_rulesets(client, lang):
    """A ruleset's own choice says how sure it is: documented, inferred (marked so), or no
    source gives it and the referee's default stands in (Clubhouse Games' match length)."""
    rb = GAMES["koikoi"].rulebook
    basis = {(r, key): rb.provenance(r, f"option.{key}").basis
             for r, key in (("clubhouse", "rounds"), ("clubhouse", "zero_sum"), ("nintendo", "rounds"))}
    assert basis == {("clubhouse", "rounds"): "unknown", ("clubhouse", "zero_sum"): "inferred",
                     ("nintendo", "rounds"): "printed"}
    assert rb.effective_options("clubhouse")["rounds"] == rb.effective_options("nintendo")["rounds"]
    clubhouse = html_of(client.get(f"/{lang}/koikoi/?ruleset=clubhouse"))
    unknown, inferred = _own_choice(clubhouse, "rounds"), _own_choice(clubhouse, "zero_sum")
    sourced = _own_choice(html_of(client.get(f"/{lang}/koikoi/?ruleset=nintendo")), "rounds")
    # the same value, then three different notes
    value = len(os.path.commonprefix([unknown, sourced]))
    notes = {unknown[value:], sourced[value:]}
    assert len(notes) == 2 and not any(inferred.endswith(note) for note in notes), (unknown, sourced, inferred)
    if lang == "en":
        assert unknown == "12 rounds (not documented; the referee's default)"
        assert sourced == "12 rounds (as the ruleset says)"
        assert inferred.endswith(" (inferred)")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_edition_action_names_and_footer_agree(client, lang):
    """edition.action-names: the footer's canonical source and the rule name the same book."""
    html = unescape(html_of(client.get(f"/{lang}/hanamikoji/")))
    footer = html[html.index('<footer class="site-footer">'):]
    assert "EmperorS4" in footer
    start = html.index('id="edition.action-names"')
    assert "EmperorS4" in html[start:start + 2000]  # the rule's text follows its anchor


# -- options.older-yaku and idle options on the pages ---------------------------------------------
@pytest.mark.rule("koikoi", "options.older-yaku")
@pytest.mark.parametrize("lang", LANGUAGES)
def test_options_older_yaku_on_the_rules_page_and_the_aid(client, lang):
    """With FudaWiki's older yaku, Poetry and Blue Ribbons is off, the ribbons score together,
    and the aid lists what scores together and that the table chose the option."""
    html = html_of(client.get(f"/{lang}/koikoi/?ruleset=fudawiki&older_yaku=1"))
    assert '<tr id="yaku-row-akatan_aotan" class="is-off"' in html
    assert '<tr id="yaku-row-akatan" class=""' in html
    aid = html_of(client.get(f"/{lang}/koikoi/aid?ruleset=fudawiki&older_yaku=1"))
    together = aid[aid.index('id="aid-together"'):]
    if lang == "ja":  # the yaku by their Japanese names, as in the table above, not romaji
        assert "猪鹿蝶＋タネ" in together and "赤短、青短＋タン" in together
        assert "ja-Latn" not in together[:together.index("</p>")]
    else:
        romaji = {y.id: y.romaji for y in KOIKOI.yaku}
        assert f"{romaji['inoshikacho']} + {romaji['tane']}" in together
        assert f"{romaji['akatan']}, {romaji['aotan']} + {romaji['tan']}" in together
    assert 'is-changed" data-option="older_yaku"' in aid
    plain = html_of(client.get(f"/{lang}/koikoi/aid?ruleset=nintendo"))
    assert 'id="aid-together"' not in plain


@pytest.mark.parametrize("query, shown", [("ruleset=nintendo", False), ("ruleset=nintendo&match_target=50", True),
                                          ("ruleset=bga", True), ("ruleset=gamedesign", True)])
def test_options_in_force_leave_out_what_adds_no_rule(client, query, shown):
    """A match target, a start total and zero-sum are listed where they are rules, not at 'none'."""
    html = html_of(client.get(f"/en/koikoi/aid?{query}"))
    assert ('data-option="match_target"' in html or 'data-option="start_points"' in html) is shown


@pytest.mark.rule("hanamikoji", "edition.msedizioni")
def test_edition_msedizioni_printed_name_is_searchable(client):
    """The Italian edition's one known action name finds its action (and no edition's missing
    name breaks the search index)."""
    html = html_of(client.get("/en/hanamikoji/search?q=Segreto"))
    assert re.findall(r'data-rule="([^"]+)"', html)[0] == "action.secret"

"""The player aid, /<lang>/<game>/aid: the table's settings read as the rules pages read
them, the yaku points of the ruleset (Koi-Koi) or the edition's action names (Hanamikoji),
and the QR code back to the checker with the same settings. (That it prints on one sheet:
tests/e2e/test_aid_e2e.py.)"""
from __future__ import annotations

import re
from html import unescape
from urllib.parse import parse_qs, urlsplit

import pytest

from rulebook.i18n import LANGUAGES
from webapp.games import GAMES


def page(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return response.get_data(as_text=True)


# The rulesets a language names its own way; the others keep their own (English) names.
OWN_NAMES = {"ja": {"nintendo": "任天堂", "yakuza": "龍が如く", "gamedesign": "Hanafuda Flash（gamedesign.jp）",
                    "clubhouse": "だれでもアソビ大全（Clubhouse Games、DS）",
                    "bga": "ボードゲームアリーナ（BGA）"}}


def aid_link(html: str) -> str:
    return unescape(re.search(r'<a id="aid-link" href="([^"]+)"', html).group(1))


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("ruleset", list(GAMES["koikoi"].rulebook.rulesets))
def test_koikoi_aid_has_the_rulesets_points(client, lang, ruleset):
    rb = GAMES["koikoi"].rulebook
    html = page(client, f"/{lang}/koikoi/aid?ruleset={ruleset}&house=Oma")
    shown = dict(re.findall(r'<tr data-yaku="([a-z_]+)">.*?data-points="(\d+)"', html, re.DOTALL))
    options = rb.effective_options(ruleset)
    for yaku in rb.yaku:
        value = rb.table_value(ruleset, yaku.id)
        if value is None or value.points is None or rb.yaku_off(yaku, options):
            assert yaku.id not in shown, yaku.id
        else:
            assert shown[yaku.id] == str(value.points), yaku.id
    # the options in force, less those about yaku the ruleset lacks (options.not-in-ruleset)
    # and those at a value that adds no rule
    assert len(re.findall(r'data-option="', html)) == len(
        [o for o, spec in rb.options.items() if rb.applies(ruleset, o) and not spec.is_idle(options[o])])
    # the ruleset by the name the page's language gives it (Japanese: 任天堂, 龍が如く)
    name = OWN_NAMES.get(lang, {}).get(ruleset, rb.rulesets[ruleset].name)
    label = html[html.index('id="aid-ruleset"'):]
    assert name in unescape(label[:label.index("</p>")]) and 'id="aid-house">Oma<' in html
    link = aid_link(html)
    assert urlsplit(link).path == f"/{lang}/koikoi/score"
    assert parse_qs(urlsplit(link).query).get("house") == ["Oma"]


def test_koikoi_aid_follows_the_table_options(client):
    html = page(client, "/en/koikoi/aid?ruleset=nintendo&tsukifuda=1&hand_yaku=0")
    assert 'data-yaku="tsukifuda"' in html and 'data-yaku="teshi"' not in html
    assert re.search(r'aid-options__row is-changed" data-option="tsukifuda"', html)  # set here
    query = parse_qs(urlsplit(aid_link(html)).query)
    assert query["tsukifuda"] == ["1"] and query["hand_yaku"] == ["0"]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("edition", list(GAMES["hanamikoji"].rulebook.editions))
def test_hanamikoji_aid_has_the_editions_action_names(client, lang, edition):
    rb = GAMES["hanamikoji"].rulebook
    html = page(client, f"/{lang}/hanamikoji/aid?edition={edition}&round_limit=1")
    actions = re.findall(r'data-action="([a-z]+)"', html)
    assert actions == list(rb.actions)
    e = rb.editions[edition]
    if e.language == lang:  # the book's own words in its own language
        for name in e.actions.values():
            assert name is None or name in html  # None: no source gives the printed name
    for rule in ("scoring.majority", "victory.geishas", "victory.charm"):
        assert f'data-rule="{rule}"' in html
    assert 'id="aid-round-limit"' in html
    query = parse_qs(urlsplit(aid_link(html)).query)
    assert query.get("edition", [rb.default_edition]) == [edition]
    # the limit in force: the link's, or left out where it is the edition's own rule
    own = "1" if rb.round_limit_default(edition) else "0"
    assert query.get("round_limit", [own]) == ["1"]


def test_hanamikoji_aid_shows_the_clash_reading_the_table_plays(client):
    html = page(client, "/en/hanamikoji/aid?simultaneous_goal=geishas")
    assert 'data-rule="variant.simultaneous-goal"' in html
    assert 'data-rule="victory.clash"' not in html


def test_aid_reports_a_bad_setting_and_shows_the_default(client):
    html = page(client, "/fr/koikoi/aid?ruleset=nowhere")
    assert 'class="notice"' in html and "nowhere" in html
    assert 'id="aid-yaku"' in html

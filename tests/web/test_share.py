"""A table's name for its settings (`house=`) and the QR code of their link: kept by every
link of the rules pages and the checkers, escaped, cut to length, and the code drawn here
(segno) of exactly the link the page shows as text."""
from __future__ import annotations

import re
from html import unescape
from urllib.parse import parse_qs, unquote_plus, urlsplit

import pytest
import segno

from rulebook.i18n import LANGUAGES
from webapp.games.house_name import MAX_HOUSE

HOUSE = "Oma's rules & more"
PAGES = {
    "koikoi-rules": "/{lang}/koikoi/?ruleset=yakuza&viewings=off",
    "koikoi-disagreements": "/{lang}/koikoi/disagreements?ruleset=yakuza&viewings=off",
    "koikoi-checker": "/{lang}/koikoi/score?a=0,2,8,10,28,30&winner=a&ka=0&kb=0&ruleset=yakuza&viewings=off",
    "hanamikoji-rules": "/{lang}/hanamikoji/?edition=kosmos&round_limit=0",
    "hanamikoji-checker": "/{lang}/hanamikoji/score?edition=kosmos&round_limit=0"
                          "&a=2,1,0,2,2,0,1&b=0,1,2,0,0,2,3",
}
SETTINGS = {"koikoi": {"ruleset": "yakuza", "viewings": "off"},
            "hanamikoji": {"edition": "kosmos", "round_limit": "0"}}
GAME_PAGE = re.compile(r"^/(?:en|de|uk|es|fr)/(koikoi|hanamikoji)/(?:|score|disagreements|aid|which)$")


def page(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return response.get_data(as_text=True)


def links(html: str) -> list[str]:
    return [unescape(h).split("#")[0] for h in re.findall(r'href="([^"]*)"', html)]


def href_of(html: str, element_id: str) -> str:
    tag = re.search(rf'<a [^>]*id="{element_id}"[^>]*>', html).group(0)
    return unescape(re.search(r'href="([^"]*)"', tag).group(1))


def args(url: str) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlsplit(url).query).items()}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", sorted(PAGES))
def test_every_link_of_the_game_keeps_the_house_name_and_settings(client, name, lang):
    game = name.split("-")[0]
    html = page(client, PAGES[name].format(lang=lang) + "&house=Oma%27s+rules+%26+more")
    kept = [url for url in links(html) if GAME_PAGE.match(urlsplit(url).path)
            and not urlsplit(url).path.endswith("/which")]
    assert len(kept) >= 3, kept
    for url in kept:
        values = args(url)
        assert values.get("house") == HOUSE, url
    # the game's menu and the share block keep the settings too (other links may switch
    # the ruleset or edition on purpose: "other rulesets", "this edition")
    nav = html[html.index('id="game-nav"'):html.index("</nav>", html.index('id="game-nav"'))]
    share = html[html.find('<section class="share"'):] if 'class="share"' in html else ""
    share = share[:share.find("</section>")]
    for url in links(nav) + links(share):
        if GAME_PAGE.match(urlsplit(url).path) and not urlsplit(url).path.endswith("/which"):
            for key, value in SETTINGS[game].items():
                assert args(url).get(key) == value, (url, key)


@pytest.mark.parametrize("name", [name for name in sorted(PAGES) if "disagreements" not in name])
def test_the_qr_code_is_the_link_shown_as_text(client, name):
    html = page(client, PAGES[name].format(lang="de") + "&house=Oma%27s+rules+%26+more")
    share = html[html.index('<section class="share"'):]
    link = re.search(r'<a id="share-link" href="([^"]+)">([^<]+)</a>', share)
    shown = unescape(link.group(1))
    assert unquote_plus(unescape(link.group(2))) == unquote_plus(shown)  # the same link
    assert shown.startswith("http://localhost/de/")
    assert args(shown).get("house") == HOUSE
    path = urlsplit(PAGES[name]).path.format(lang="de")
    assert urlsplit(shown).path == path  # the page it is on, with its settings only
    assert set(args(shown)) == {"house", *SETTINGS[name.split("-")[0]]}
    svg = re.search(r"<svg .*?</svg>", share, re.DOTALL).group(0)
    assert 'role="img"' in svg and "aria-label=" in svg
    expected = segno.make(shown, error="m", micro=False)
    assert re.search(r' d="([^"]+)"', expected.svg_inline(border=4, dark="#000", light=None,
                                                         omitsize=True)).group(1) in svg


def test_house_name_is_text_never_markup(client):
    html = page(client, '/en/koikoi/?house=<script>alert(1)</script>"x')
    assert "<script>alert(1)" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_a_long_house_name_is_shortened_with_a_notice(client):
    html = page(client, "/en/koikoi/?house=" + "x" * (MAX_HOUSE + 20))
    assert 'class="notice"' in html and str(MAX_HOUSE) in html
    main = html[html.index("<main"):]  # the language links keep the address as it was typed
    assert "x" * MAX_HOUSE in main and "x" * (MAX_HOUSE + 1) not in main


def test_control_characters_and_bidi_overrides_are_dropped(client):
    html = page(client, "/en/hanamikoji/?house=Oma%E2%80%AE%0As+rules")
    assert "Oma s rules" in html and "\u202e" not in html


@pytest.mark.parametrize("game", ["koikoi", "hanamikoji"])
def test_the_forms_carry_the_house_name(client, game):
    for url in (f"/en/{game}/?house=Oma", f"/en/{game}/score?house=Oma"):
        html = page(client, url)
        assert re.search(r'<input type="text" id="[a-z]+-house" name="house" maxlength="40"'
                         r' autocomplete="off" value="Oma"', html), url


def test_checker_next_round_and_permalink_keep_the_house_name(client):
    html = page(client, "/en/koikoi/score?a=0,2,8,10,28,30&winner=a&ka=0&kb=0&ruleset=nintendo&house=Oma")
    for element in ("permalink", "next-round", "reset"):
        assert args(href_of(html, element)).get("house") == "Oma", element
    html = page(client, "/en/hanamikoji/score?a=2,1,0,2,2,0,1&b=0,1,2,0,0,2,3&house=Oma")
    for element in ("permalink", "mode-log"):
        assert args(href_of(html, element)).get("house") == "Oma", element


def test_the_page_cache_tells_house_names_apart(client):
    first = page(client, "/en/koikoi/?house=Zanzibar")
    second = page(client, "/en/koikoi/?house=Quetzal")
    assert "Zanzibar" in first and "Quetzal" in second and "Quetzal" not in first


def test_the_link_text_reads_as_words_and_stays_the_same_link():
    from webapp.pages.qr import readable_url

    url = "http://x/uk/koikoi/?house=%D0%91%D0%B0%D0%B1%D1%83%D1%81%D0%B8%D0%BD%D1%96+%26+%2B1"
    assert readable_url(url) == "http://x/uk/koikoi/?house=Бабусині+%26+%2B1"
    assert parse_qs(urlsplit(readable_url(url)).query) == parse_qs(urlsplit(url).query)

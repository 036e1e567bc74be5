"""Link previews: every page of a game names a picture of the game in the page's language
(og:image, 1200x630 PNG, an absolute content-hashed URL) and asks for a large card."""
from __future__ import annotations

import re
import struct
from urllib.parse import urlsplit

import pytest

from rulebook.i18n import LANGUAGES
from webapp.games import GAMES

PAGES = {
    "hanamikoji": ["/{lang}/hanamikoji/", "/{lang}/hanamikoji/score",
                   "/{lang}/hanamikoji/score?a=2,1,0,2,2,0,1&b=0,1,2,0,0,2,3"],
    "koikoi": ["/{lang}/koikoi/?ruleset=fudawiki", "/{lang}/koikoi/score",
               "/{lang}/koikoi/score?a=0,2,8,10,28,30&winner=a&ka=0&kb=1&ruleset=nintendo"],
}


def meta(html: str, key: str) -> str | None:
    found = re.search(rf'<meta (?:property|name)="{re.escape(key)}" content="([^"]*)">', html)
    return found.group(1) if found else None


def png_size(body: bytes) -> tuple[int, int]:
    assert body[:8] == b"\x89PNG\r\n\x1a\n" and body[12:16] == b"IHDR"
    return struct.unpack(">II", body[16:24])


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", ["hanamikoji", "koikoi"])
def test_every_game_page_previews_its_picture(client, game, lang):
    pictures = set()
    for path in PAGES[game]:
        html = client.get(path.format(lang=lang)).get_data(as_text=True)
        image, page = meta(html, "og:image"), urlsplit(meta(html, "og:url"))
        assert image and image.startswith(f"{page.scheme}://{page.netloc}/static/img/og/"), path
        assert re.search(rf"/{game}-{lang}\.[0-9a-f]+\.png$", image), image  # hashed, this language
        assert meta(html, "twitter:card") == "summary_large_image"
        assert (meta(html, "og:image:width"), meta(html, "og:image:height")) == ("1200", "630")
        assert meta(html, "og:image:alt")
        pictures.add(image)
    assert len(pictures) == 1, "rules, checker and ruling share the game's picture"
    answer = client.get(urlsplit(pictures.pop()).path)
    assert answer.status_code == 200 and answer.mimetype == "image/png"
    assert png_size(answer.get_data()) == (1200, 630)
    assert "immutable" in answer.headers["Cache-Control"]


def test_pages_without_a_game_have_no_picture(client):
    for path in ("/en/", "/de/developers", "/uk/search?q=round", "/fr/no-such-page"):
        assert meta(client.get(path).get_data(as_text=True), "og:image") is None, path


def test_a_picture_for_every_game_and_language():
    """tools/og_images.py drew them all (run it again when a title or drawing changes)."""
    from pathlib import Path

    folder = Path(__file__).resolve().parents[2] / "webapp" / "static" / "img" / "og"
    for slug in GAMES:
        if slug in PAGES:  # the toy game of the tests has none (and so no og:image)
            for lang in LANGUAGES:
                assert png_size((folder / f"{slug}-{lang}.png").read_bytes()) == (1200, 630)

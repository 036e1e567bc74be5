"""Draw the link-preview pictures (`og:image`, 1200x630 PNG) of each game in each language
into webapp/static/img/og/<game>-<lang>.png, with Debian's Chromium (the browser tests'
own), from the template site/og_image.html and the site's style sheets.

Run it again when a game's title, tagline or drawings change, and commit the pictures:

    .venv/bin/python -m tools.og_images

The pages link them by content-hashed names (webapp/pages/meta.py), so a new picture is
fetched again by the services that cache previews.
"""
from __future__ import annotations

import shutil
from pathlib import Path

from flask import render_template

from webapp.pages.meta import PageMeta

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "webapp" / "static"
OUT = STATIC / "img" / "og"
SIZE = dict(zip(("width", "height"), PageMeta.image_size))
# the picture's own layout: a card in the site's colours, the title in the page's language
STYLE = """
body.og { margin: 0; width: 1200px; height: 630px; box-sizing: border-box; display: grid;
  grid-template-columns: 1fr 500px; align-items: center; gap: 40px; padding: 56px 64px;
  background: #2b2320; color: #ffffff; overflow: hidden; color-scheme: light; }
.og__brand { margin: 0 0 28px; font-size: 34px; font-weight: 700; color: #ffd45c; }
.og__title { margin: 0 0 24px; font-size: 64px; line-height: 1.12; border: 0; padding: 0; hyphens: auto; }
.og__tagline { margin: 0 0 28px; font-size: 30px; line-height: 1.35; color: #f1e9e0; }
.og__more { display: inline-block; margin: 0; padding: 10px 26px; border-radius: 10px;
  background: #8c1c13; font-size: 28px; font-weight: 700; }
.og__cards { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 18px; justify-content: center; }
.og__cards .kk-art { width: 140px; height: 196px; }
.og__geishas { list-style: none; margin: 0; padding: 0; display: grid; grid-template-columns: repeat(2, 1fr); gap: 14px; }
.og__geishas .geisha { display: flex; align-items: center; gap: 14px; padding: 10px 14px;
  border-radius: 10px; border-top-width: 10px; border-top-style: solid; background: #fbf8f3; color: #1b1b1b; }
.og__geishas .geisha__name { font-size: 30px; font-weight: 700; }
.og__geishas .geisha__charm { display: grid; place-items: center; width: 44px; height: 44px;
  border-radius: 50%; font-size: 26px; font-weight: 700; }
"""


def pages() -> list[tuple[str, str, str]]:
    """(game, language, the page's HTML) for every game and language."""
    from rulebook.i18n import LANGUAGES
    from webapp import create_app
    from webapp.games import GAMES
    from webapp.pages.rules import page_context

    app = create_app()
    out = []
    for slug in GAMES:
        for lang in LANGUAGES:
            with app.test_request_context(f"/{lang}/{slug}/"):
                app.preprocess_request()
                out.append((slug, lang, render_template("site/og_image.html",
                                                        **page_context(slug, {}))))
    return out


def main() -> None:
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    sheets = [STATIC / "css" / "site.css", STATIC / "css" / "koikoi.css"]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=shutil.which("chromium"),
                                             args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport=SIZE, color_scheme="light")
        for slug, lang, html in pages():
            page.set_content(html)
            for sheet in sheets:
                page.add_style_tag(path=str(sheet))
            page.add_style_tag(content=STYLE)
            page.screenshot(path=str(OUT / f"{slug}-{lang}.png"))
            print(OUT / f"{slug}-{lang}.png")
        browser.close()


if __name__ == "__main__":
    main()

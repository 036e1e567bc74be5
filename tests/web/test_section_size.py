"""Each rules section carries its estimated height per band of width (issue 19), and the
stylesheet holds those classes. Whether the estimates fit the laid-out sections is measured
in Chromium: tests/e2e/test_site_e2e.py::test_the_page_is_about_as_long_on_arrival_as_laid_out."""
from __future__ import annotations

import re
import unicodedata

import pytest

from rulebook.i18n import LANGUAGES
from webapp.pages import section_size
from webapp.pages.section_size import BANDS, RULES_CSS, step_height, step_of

SECTION = re.compile(r'<section class="rules-section ([^"]+)" id="section-[^"]+"')
CLASS = re.compile(r"cis-([a-z])(\d+)")


def test_the_stylesheet_holds_every_size_class_as_made():
    css = RULES_CSS.read_text(encoding="utf-8")
    assert section_size.BEGIN + section_size.stylesheet() + section_size.END in css
    for band in BANDS:
        assert f".cis-{band.name}0 " in css and f".cis-{band.name}{section_size.STEPS - 1} " in css


def test_a_step_is_the_smallest_at_least_as_tall():
    for height in (1, 256, 257, 1000, 5000, 12000):
        step = step_of(height)
        assert step_height(step) >= height
        assert step == 0 or step_height(step - 1) < height
    assert step_of(10 ** 6) == section_size.STEPS - 1


def test_longer_text_more_rows_and_a_picture_never_shrink_the_estimate():
    short = "<h2>T</h2><p>" + "word " * 20 + "</p>"
    longer = "<h2>T</h2><p>" + "word " * 400 + "</p>"
    table = short + "<table>" + "<tr><td>a</td><td>b</td></tr>" * 12 + "</table>"
    picture = short + "<figure><p>x</p></figure>"
    for band in BANDS:
        base = section_size.estimate(band, section_size.features(short))
        assert section_size.estimate(band, section_size.features(longer)) > base
        assert section_size.estimate(band, section_size.features(table)) > base
        assert section_size.estimate(band, section_size.features(picture)) > base


def test_wide_characters_count_double_and_a_folded_chart_counts_its_summary_only(client):
    assert section_size.features("<p>ab</p>")[0] == 2
    assert section_size.features("<p>猪鹿</p>")[0] == 4
    # as wide as Unicode says, for every character of the Japanese pages
    for game in ("hanamikoji", "koikoi"):
        text = " ".join(re.sub(r"<[^>]+>", " ", client.get(f"/ja/{game}/").get_data(as_text=True)).split())
        assert section_size.features(f"<p>{text}</p>")[0] == len(text) + sum(
            unicodedata.east_asian_width(ch) in "WF" for ch in text)
    folded = '<details class="figure-fold"><summary>Cards</summary><p>' + "x " * 500 + "</p></details>"
    assert section_size.features(folded) == section_size.features("<summary>")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("path", ["/{lang}/hanamikoji/", "/{lang}/koikoi/",
                                  "/{lang}/koikoi/?ruleset=fudawiki&compare={other}"])
def test_every_section_carries_one_size_per_band(client, lang, path):
    other = "ja" if lang != "ja" else "de"
    page = client.get(path.format(lang=lang, other=other))
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert re.search(r'<link rel="stylesheet" href="/static/css/rules\.[0-9a-f]{12}\.css">', html)
    sections = SECTION.findall(html)
    assert len(sections) >= 10
    for classes in sections:
        steps = dict(CLASS.findall(classes))
        assert sorted(steps) == sorted(band.name for band in BANDS), classes
        assert all(int(step) < section_size.STEPS for step in steps.values())


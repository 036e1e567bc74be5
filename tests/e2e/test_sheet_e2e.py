"""The match's score sheet as players use it: three rounds of Koi-Koi on a phone, each
ended with "Next round", the sheet under the checker after every round, downloaded as
CSV and printed on one page; and Hanamikoji's, round after round."""
from __future__ import annotations

import csv
import io

import pytest

from rulebook.i18n import translator
from rulebook.koikoi import load_rulebook

from .conftest import closed_after

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
SANKO = [0, 2, 8, 10, 28, 30]  # three Brights with their month's pairs: 5 points
A4 = {"width": 794, "height": 1123}  # CSS pixels of an A4 page


@pytest.fixture()
def phone(browser):
    context = browser.new_context(locale="de-DE", **PHONE)
    yield from closed_after(context.new_page())


def settled(page) -> None:
    page.wait_for_function("() => !document.querySelector('form[data-live][aria-busy]')")


def table(page) -> list[list[str]]:
    return page.eval_on_selector_all(
        "#sheet-table tr", "rows => rows.map(r => [...r.cells].map(c => c.textContent.trim()))")


def next_round(page, number: int) -> None:
    page.locator("#next-round").tap()
    page.wait_for_url(f"**round={number}**")


def test_three_koikoi_rounds_on_the_sheet(phone, live_server, tmp_path):
    page = phone
    t = translator("de")
    rb = load_rulebook()
    month = [t.pgettext(f"koikoi.month.{n}", rb.month_by_number[n].name) for n in (1, 2, 3)]
    sanko = t.pgettext("koikoi.yaku.sanko", rb.yaku_by_id["sanko"].name)
    page.goto(f"{live_server}/de/koikoi/score")
    assert page.locator("#sheet").is_hidden(), "no round yet: no sheet"
    page.fill("#name-a", "Olena")
    page.fill("#name-b", "Jonas")
    for index in SANKO:  # round 1: Olena's Sanko
        page.locator(f'label[for="pile-a-{index}"]').tap()
        settled(page)
    page.wait_for_selector('#verdict[data-score-a="5"]')
    assert table(page)[1] == ["1", month[0], "Olena", "Olena", sanko, "5", "0", "5", "0"]
    next_round(page, 2)
    assert table(page)[1:] == [["1", month[0], "Olena", "Olena", sanko, "5", "0", "5", "0"]]
    # round 2: Jonas's Sanko after a koi-koi call by Olena (doubled)
    page.locator('label[for="winner-b"]').tap()
    page.wait_for_selector("#field-b[open]")  # the winner's pile opens with the answer
    settled(page)
    for index in SANKO:
        page.locator(f'label[for="pile-b-{index}"]').tap()
        settled(page)
    page.locator('#field-ka button[data-step="+1"]').tap()
    page.wait_for_selector('#verdict[data-score-b="10"]')
    next_round(page, 3)
    page.locator('label[for="winner-none"]').tap()  # round 3: the cards ran out
    page.wait_for_selector('#verdict[data-score-a="0"][data-score-b="0"]')
    rows = table(page)
    assert rows[1:] == [
        ["1", month[0], "Olena", "Olena", sanko, "5", "0", "5", "0"],
        ["2", month[1], "Olena", "Jonas", sanko, "0", "10", "5", "10"],
        ["3", month[2], "Jonas", t.gettext("Nobody"), "—", "0", "0", "5", "10"],
    ]
    assert rows[0][0] == t.pgettext("Koi-Koi", "Round") and rows[0][5] == "Punkte: Olena"
    assert page.locator("#sheet tr.is-current th").text_content() == "3"
    # the CSV the server writes from the same address
    with page.expect_download() as download:
        page.locator("#sheet-csv").tap()
    path = tmp_path / "sheet.csv"
    download.value.save_as(path)
    data = path.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf")
    assert list(csv.reader(io.StringIO(data[3:].decode(), newline=""))) == [
        rows[0], *[[cell if cell != "—" else "" for cell in row] for row in rows[1:]]]
    # printed: the sheet alone, on one page
    page.set_viewport_size(A4)
    page.emulate_media(media="print")
    assert page.locator("#sheet-table").is_visible()
    for other in ("#kk-form", "#share", "h1"):
        assert page.locator(other).is_hidden(), f"{other} is printed with the sheet"
    assert page.evaluate("document.documentElement.scrollHeight") <= A4["height"]


def test_hanamikoji_rounds_on_the_sheet(phone, live_server):
    page = phone
    page.goto(f"{live_server}/uk/hanamikoji/score?na=Olena&nb=Jonas&edition=geekach&round_limit=1")
    for p, counts in {"a": [1, 1, 1, 1, 1, 1, 2], "b": [1, 1, 1, 1, 1, 1, 2]}.items():
        for i, count in enumerate(counts):  # round 1: every geisha tied
            page.fill(f"#{p}-{i}", str(count))
    page.wait_for_selector('#verdict[data-status="continue"]')
    next_round(page, 2)
    for p, counts in {"a": [2, 0, 0, 3, 0, 0, 3], "b": [0, 2, 2, 0, 3, 0, 1]}.items():
        for i, count in enumerate(counts):
            page.fill(f"#{p}-{i}", str(count))
    page.wait_for_selector('#verdict[data-status="continue"]')
    next_round(page, 3)
    rows = table(page)
    t = translator("uk")
    assert [row[0] for row in rows[1:]] == ["1", "2"]
    assert rows[2][2] == "10" and rows[2][4] == "7" and rows[2][5] == t.gettext("The match goes on")
    assert page.locator("#sheet tr.is-current").count() == 0, "round 3 has no cards yet"

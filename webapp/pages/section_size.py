"""How tall a rules section will be, told to the browser before it lays the section out.

A rules section is laid out only once it comes near the screen (`content-visibility: auto`,
rules.css); until then the browser takes its height from `contain-intrinsic-size`. One
estimate for every section (12,000 px, above the tallest) made the German Koi-Koi page
135,259 px long on a phone's arrival against about 36,000 laid out (issue 19). So the
server estimates each section's own height from its HTML, in three bands of width, and
names it by classes (`cis-n14 cis-p13 cis-w8`): the CSP forbids inline styles.

Each estimate stays *above* the section's real height: a section measured before it is
rendered (Lighthouse's and axe's target-size checks) must not reach into the next one's
links, which an estimate below the real height did. The coefficients were fitted (least
squares) on every section of both rules pages in six languages, with and without
`?compare=`, at each band's narrowest width (320, 384 and 1,024 px: the tallest in the
band); MARGIN covers the largest measured excess over the fit (24 % beside the contents,
17 % on phones). tests/e2e/test_site_e2e.py checks that every section fits its estimate
and that the page on arrival is not much longer than laid out; tests/web/test_section_size.py
that rules.css holds the classes this module names.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path

from markupsafe import Markup


@dataclass(frozen=True)
class Band:
    """px per unit of each feature at the band's narrowest width, and the media query."""
    name: str
    media: str  # "" for the band that holds where no other does
    per_char: float  # per character of text (a wide East Asian character counts two)
    per_block: float  # per paragraph, list item, heading, term or description
    per_figure: float  # a picture (the table picture: seven drawn geishas)
    per_row: float  # per table row
    per_cell: float  # per table cell (on a phone the yaku table is a card of cells)
    base: float  # the section's heading, padding and "Back to the contents" link
    margin: float


# The phone band first and without a media query: no width falls between the bands.
BANDS = (
    Band("p", "", 0.739, 22.6, 363.0, 11.0, 51.6, 95.0, 1.2),  # 24rem to 64rem
    Band("n", "(max-width: 23.99rem)", 0.933, 20.6, 289.0, 11.6, 54.6, 90.0, 1.2),
    Band("w", "(min-width: 64rem)", 0.403, 20.1, 144.0, 4.3, 20.1, 109.0, 1.3),
)
# Sizes come in steps of STEP from SMALLEST: a few classes serve every section, and the
# step rounds each estimate up by at most 15 %.
SMALLEST = 256
STEP = 1.15
STEPS = 31  # up to 256 * 1.15 ** 30 = 16,928 px, above the tallest section's estimate

RULES_CSS = Path(__file__).resolve().parents[1] / "static" / "css" / "rules.css"

# What a closed fold holds is not laid out (the Koi-Koi card chart): its summary line is.
_FOLD = re.compile(r'<details class="figure-fold".*?</details>', re.DOTALL)
_TAG = re.compile(r"<[^>]+>")
_BLOCK = re.compile(r"<(?:p|li|h2|h3|h4|dt|dd|figure|table|summary)\b")
_FIGURE = re.compile(r"<figure\b")
_ROW = re.compile(r"<tr\b")
_CELL = re.compile(r"<td\b")
# East Asian wide and full-width characters (Hangul, CJK, kana, full-width forms): each
# takes two columns; one pattern is a tenth of the time of asking unicodedata per character
_WIDE = re.compile("[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff"
                   "\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]")


def step_height(step: int) -> int:
    """The height in px that a size class's step stands for."""
    return math.ceil(SMALLEST * STEP ** step)


def features(html: str) -> tuple[int, int, int, int, int]:
    """(characters, blocks, figures, rows, cells) of a section's HTML as a browser shows it."""
    html = _FOLD.sub("<summary>", html)
    text = " ".join(_TAG.sub(" ", html).split())
    chars = len(text) + len(_WIDE.findall(text))
    return (chars, len(_BLOCK.findall(html)), len(_FIGURE.findall(html)),
            len(_ROW.findall(html)), len(_CELL.findall(html)))


def estimate(band: Band, counted: tuple[int, int, int, int, int]) -> float:
    """A section's height in px in this band from its `features`, with the margin: above
    the real one."""
    chars, blocks, figures, rows, cells = counted
    return band.margin * (band.base + band.per_char * chars + band.per_block * blocks
                          + band.per_figure * figures + band.per_row * rows
                          + band.per_cell * cells)


def step_of(height: float) -> int:
    """The smallest step at least `height` tall (the last one for anything taller)."""
    for step in range(STEPS):
        if step_height(step) >= height:
            return step
    return STEPS - 1


def size_classes(html: str) -> Markup:
    """The classes that give a section (its rendered HTML) its estimated height per band."""
    counted = features(str(html))  # once for the three bands
    return Markup(" ".join(f"cis-{band.name}{step_of(estimate(band, counted))}" for band in BANDS))


def stylesheet() -> str:
    """The CSS of every size class (rules.css holds it between its markers)."""
    lines = []
    for band in BANDS:
        indent = "  " if band.media else ""
        if band.media:
            lines.append(f"@media {band.media} {{")
        lines += [f"{indent}.cis-{band.name}{step} {{ contain-intrinsic-size: auto {step_height(step)}px; }}"
                  for step in range(STEPS)]
        if band.media:
            lines.append("}")
    return "\n".join(lines) + "\n"


BEGIN = "/* size classes: made by `python -m webapp.pages.section_size`, do not edit by hand */\n"
END = "/* end of size classes */\n"


def write(path: Path = RULES_CSS) -> None:
    """Put the size classes into rules.css between their markers."""
    css = path.read_text(encoding="utf-8")
    head, _, rest = css.partition(BEGIN)
    _, _, tail = rest.partition(END)
    path.write_text(head + BEGIN + stylesheet() + END + tail, encoding="utf-8")


if __name__ == "__main__":
    write()

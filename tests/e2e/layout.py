"""What a finished page looks like, measured in the browser: the checkers' browser tests
share these checks (nothing runs on import)."""
from __future__ import annotations

from rulebook.i18n import LANGUAGES


def screenshot_languages(size: str) -> tuple[str, ...]:
    """Phones in every language (where long words break and lines wrap); the wide screen in
    English and in German, the longest words (`make test` stays under five minutes)."""
    return tuple(LANGUAGES) if size == "phone" else ("en", "de")

# Words wider than the element that holds them: the browser would break them mid-word
# ("Butterflie/s"). Hidden text and visually hidden labels are not looked at; Japanese text,
# which breaks between characters, only for its runs of Latin letters and digits.
BROKEN_WORDS = """sel => {
  const ctx = document.createElement('canvas').getContext('2d');
  const bad = new Set();
  document.querySelectorAll(sel).forEach(e => {
    if (!e.offsetParent || e.clientWidth <= 1) return;
    const copy = e.cloneNode(true);
    copy.querySelectorAll('.visually-hidden, [hidden]').forEach(h => h.remove());
    const s = getComputedStyle(e);
    ctx.font = `${s.fontStyle} ${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
    const room = e.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
    // Japanese and Chinese characters are each a place a line may break: only the runs of
    // other letters between them are words that must fit
    for (const word of copy.textContent.trim().split(/[\\s\u3000-\u9fff\uff00-\uffef]+/)) {
      if (word && ctx.measureText(word).width > room + 0.5) bad.add(word);
    }
  });
  return [...bad];
}"""


def broken_words(page, selector: str) -> list[str]:
    return page.evaluate(BROKEN_WORDS, selector)


def overflow(page) -> int:
    """How far the page is wider than the screen (a sideways scroll), in CSS px."""
    return page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")


def verdict_in_view(page) -> bool:
    """The verdict (#verdict) is on screen: inside the viewport's height."""
    return page.evaluate("""() => {
        const r = document.getElementById('verdict').getBoundingClientRect();
        return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight; }""")


def small_targets(page, selector: str) -> list[list[float]]:
    """The visible targets smaller than 44 x 44 CSS px (WCAG 2.5.8, the house rule)."""
    boxes = page.locator(selector).evaluate_all(
        "els => els.filter(e => e.offsetParent).map(e => e.getBoundingClientRect())"
        ".map(r => [r.width, r.height])")
    return [box for box in boxes if box[0] < 44 or box[1] < 44]


def tappable_on_arrival(page, selector: str) -> dict:
    """Where the first element matching `selector` lies on the screen as the page opens,
    and whether a tap at its centre reaches it (not the sticky header or verdict bar)."""
    return page.evaluate("""sel => {
        const e = document.querySelector(sel);
        const r = e.getBoundingClientRect();
        const x = r.left + r.width / 2, y = r.top + r.height / 2;
        const inside = r.top >= 0 && r.bottom <= innerHeight;
        const hit = inside ? document.elementFromPoint(x, y) : null;
        return {top: r.top, bottom: r.bottom, height: innerHeight,
                reached: !!hit && (hit === e || e.contains(hit) || hit.control === e)}; }""",
                         selector)

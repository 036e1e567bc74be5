"""A translation's placeholders and markup must be its source's: the check `make
translations` runs before it compiles, tools/po_incoming.py before it writes, and the
catalog tests on the catalogs the tests read.

The site fills its messages in two ways: `str.format` (`{player}`, `{count}`: rule texts,
the referee's messages) and gettext's percent form (`%(game)s`, `%(num)d`). A translation
that drops, renames or adds a placeholder, or whose braces no longer parse, shows a raw
`{player}` or loses a value on the page (or, for a percent form, raises), so it is refused.
For a plural entry every form is checked against the singular and plural source together;
a form may spell its number out instead of the count ("one card", "eine Karte").

Markup is checked the same way: the HTML tags (with their attributes) and character
references (`&amp;`, `&#160;`) of every form must be those of its source, no more and no
fewer, in any order (a lost `</strong>` or a stray `&nbsp;` shows on the page).

    python tools/po_check.py      # every catalog; exit status 1 on any problem
"""
from __future__ import annotations

import re
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from string import Formatter

ROOT = Path(__file__).resolve().parents[1]
# %(name)s, %(num)d, %s, %5.2f; `%%` is a percent sign
PERCENT = re.compile(r"%(?:\((?P<name>[^)]*)\))?[#0\- +]*(?:\d+|\*)?(?:\.\d+)?(?P<type>[a-zA-Z%])")
# HTML a message may carry: a tag (with its attributes) or a character reference
MARKUP = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>"
                    r"|&(?:[A-Za-z][A-Za-z0-9]*|#\d+|#[xX][0-9A-Fa-f]+);")
# What may go from a plural form: the number, which a form may spell out.
COUNTS = frozenset({"{count}", "{num}", "{n}", "%(count)", "%(num)", "%(n)", "%d", "%s"})


def brace_fields(text: str) -> Counter[str] | None:
    """The `{fields}` of a str.format text (`{a.b}` and `{a[0]}` count as `{a}`); None when
    its braces do not parse."""
    found: Counter[str] = Counter()
    try:
        for _literal, field, _spec, _conversion in Formatter().parse(text):
            if field is not None:
                found["{" + re.split(r"[.\[]", field, maxsplit=1)[0] + "}"] += 1
    except ValueError:
        return None
    return found


def percent_fields(text: str) -> Counter[str]:
    """The percent placeholders: `%(name)` by name, unnamed ones by type (`%d`, `%s`)."""
    found: Counter[str] = Counter()
    for match in PERCENT.finditer(text):
        if match["type"] == "%":
            continue
        found[f"%({match['name']})" if match["name"] is not None else "%" + match["type"]] += 1
    return found


def placeholders(text: str) -> tuple[Counter[str], bool]:
    """(the placeholders of `text`, whether its braces parse). A named one counts once (a
    translation may name a value twice, or once where the source names it twice); an
    unnamed `%s` as often as it stands, since they are filled in order."""
    braces = brace_fields(text)
    found = Counter(dict.fromkeys(braces or (), 1))
    for name, count in percent_fields(text).items():
        found[name] = 1 if name.startswith("%(") else count
    return found, braces is not None


def markup(text: str) -> Counter[str]:
    """The tags and character references of `text` (whitespace inside a tag normalized)."""
    return Counter(" ".join(found.split()) for found in MARKUP.findall(text))


def problems(source: str | Sequence[str], translation: str | Sequence[str]) -> list[str]:
    """What is wrong with the placeholders of `translation` (a text, or a plural entry's
    forms) given its `source` (msgid, or msgid and msgid_plural); [] when nothing is."""
    ids = [source] if isinstance(source, str) else list(source)
    forms = [translation] if isinstance(translation, str) else list(translation)
    wanted: Counter[str] = Counter()
    parses = True
    for text in ids:
        found, ok = placeholders(text)
        wanted |= found
        parses = parses and ok
    plural = len(ids) > 1
    tags = [markup(text) for text in ids]  # a form has its singular's or its plural's
    out = []
    for number, form in enumerate(forms):
        if not form:
            continue  # untranslated: the completeness check's business
        got, ok = placeholders(form)
        label = f"form {number}: " if plural else ""
        if parses and not ok:
            out.append(f"{label}its braces do not parse (a single {{ or }}): {form!r}")
            continue
        extra, missing = set(got - wanted), set(wanted - got)
        if plural:
            missing -= COUNTS  # a form may spell its number out
        if extra:
            out.append(f"{label}placeholders the source lacks: {sorted(extra)}")
        if missing:
            out.append(f"{label}placeholders left out: {sorted(missing)}")
        if markup(form) not in tags:
            out.append(f"{label}markup differs from the source's: "
                       f"{sorted(markup(form).elements())} vs {sorted(tags[-1].elements())}")
    return out


def catalog_problems(catalog) -> list[str]:
    """Every broken entry of a Babel catalog, as `context msgid: problem`."""
    out = []
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        for problem in problems(message.id, message.string):
            first = message.id if isinstance(message.id, str) else message.id[0]
            out.append(f"{message.context or ''} {first[:60]!r}: {problem}")
    return out


def main() -> int:
    from babel.messages.pofile import read_po

    failed = 0
    for path in sorted((ROOT / "translations").glob("*/LC_MESSAGES/messages.po")):
        with open(path, "rb") as handle:
            found = catalog_problems(read_po(handle))
        for line in found:
            print(f"{path.relative_to(ROOT)}: {line}")
        failed += len(found)
    if failed:
        print(f"{failed} translation(s) whose placeholders or markup differ from their source")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

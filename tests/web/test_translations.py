"""The catalogs: complete, never fuzzy, placeholders intact, plurals right in every language.

`pybabel compile` silently skips a catalog whose header is fuzzy and falls back to the
English text for fuzzy or empty entries, so these checks are what keeps a page from
quietly showing English.
"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from rulebook.i18n import LANGUAGES, translator

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
BRACES = re.compile(r"(?<!\{)\{([a-z_]+)\}(?!\})")
PERCENT = re.compile(r"%\(([a-z_]+)\)[sd]")


def catalog(lang):
    """The catalog as the integrator's merge will make it: the .po file with the translations
    a branch delivers in translations/incoming/*.json applied (tools/po_incoming.py)."""
    from tools.po_incoming import apply_entries, load_entries

    with open(ROOT / "translations" / lang / "LC_MESSAGES" / "messages.po", "rb") as handle:
        cat = read_po(handle)
    apply_entries(cat, lang, load_entries()[1], add=True)
    return cat


def placeholders(text: str) -> set[str]:
    return set(BRACES.findall(text)) | {f"%({p})" for p in PERCENT.findall(text)}


@pytest.fixture(scope="module")
def extracted_ids(tmp_path_factory):
    """Extract afresh, exactly as `make translations` does, to catch strings never merged."""
    pot = tmp_path_factory.mktemp("pot") / "messages.pot"
    bin_dir = Path(sys.executable).parent
    subprocess.run(
        [str(bin_dir / "pybabel"), "extract", "-F", "babel.cfg", "-k", "N_", "-k", "Np_:1,2",
         "-k", "lazy_gettext", "-k", "_l", "-o", str(pot), "."],
        cwd=ROOT, check=True, capture_output=True)
    with open(pot, "rb") as handle:
        return {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in read_po(handle) if m.id}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_entry_translated_none_fuzzy(lang):
    cat = catalog(lang)
    assert not cat.fuzzy, f"{lang}: the catalog header is fuzzy, so compile would skip it"
    problems = []
    for message in cat:
        if not message.id:
            continue
        forms = message.string if isinstance(message.string, (list, tuple)) else [message.string]
        if message.fuzzy:
            problems.append(f"fuzzy: {message.context or ''} {message.id!r}")
        if not all(forms) or len(forms) < (cat.num_plurals if message.pluralizable else 1):
            problems.append(f"untranslated: {message.context or ''} {message.id!r}")
    assert not problems, f"{lang}: " + "\n".join(problems[:20])


@pytest.mark.parametrize("lang", TRANSLATED)
def test_catalog_holds_every_extracted_string(lang, extracted_ids):
    have = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in catalog(lang) if m.id}
    missing = extracted_ids - have
    assert not missing, f"{lang}: run `make translations`; missing {sorted(missing, key=str)[:10]}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_placeholders_intact(lang):
    problems = []
    for message in catalog(lang):
        if not message.id or message.fuzzy:
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        forms = message.string if isinstance(message.string, (list, tuple)) else [message.string]
        wanted = set().union(*(placeholders(i) for i in ids))
        for form in forms:
            got = placeholders(form)
            # A singular form may spell the number out ("one card"): only a count may go.
            if got - wanted or (wanted - got) - {"count", "%(num)", "%(count)"}:
                problems.append(f"{message.context or ''} {ids[0]!r}: {sorted(got)} vs {sorted(wanted)}")
        if message.context and "{" in "".join(forms):
            for form in forms:  # rule texts go through str.format: no stray braces
                assert form.count("{") == form.count("}"), form
    assert not problems, f"{lang}: " + "\n".join(problems[:20])


UK_GEISHAS = {1: "гейша", 2: "гейші", 5: "гейш", 11: "гейш", 21: "гейша", 22: "гейші", 25: "гейш",
              111: "гейш"}
UK_POINTS = {1: "очко", 2: "очки", 5: "очок", 11: "очок", 21: "очко", 22: "очки", 25: "очок",
             111: "очок"}


@pytest.mark.parametrize("n", sorted(UK_GEISHAS))
def test_ukrainian_three_plural_forms(n):
    t = translator("uk")
    geishas = t.ngettext("{count} geisha", "{count} geishas", n).format(count=n)
    points = t.ngettext("{count} charm point", "{count} charm points", n).format(count=n)
    assert geishas.split()[1] == UK_GEISHAS[n], geishas
    assert points.split()[1] == UK_POINTS[n], points


@pytest.mark.parametrize("lang", ["de", "es", "fr"])
@pytest.mark.parametrize("n", [1, 2, 5, 11, 21, 22, 25, 111])
def test_two_plural_forms(lang, n):
    t = translator(lang)
    one = t.ngettext("{count} geisha", "{count} geishas", 1).format(count=1)
    many = t.ngettext("{count} geisha", "{count} geishas", 5).format(count=5)
    got = t.ngettext("{count} geisha", "{count} geishas", n).format(count=n)
    assert one != many.replace("5", "1")
    assert got == (one if n == 1 else many).replace("1" if n == 1 else "5", str(n), 1)


def test_french_counts_zero_as_singular():
    t = translator("fr")
    assert t.ngettext("{count} geisha", "{count} geishas", 0) == t.ngettext(
        "{count} geisha", "{count} geishas", 1)

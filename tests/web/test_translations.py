"""The catalogs: complete, never fuzzy, placeholders and markup intact, plurals right, one
term per concept in every language.

`pybabel compile` silently skips a catalog whose header is fuzzy and falls back to the
English text for fuzzy or empty entries, so these checks are what keeps a page from
quietly showing English. The catalogs are read as the merge will make them: with a branch's
translations/incoming/*.json applied (tools/po_incoming.py), as tests/conftest.py compiles them.
"""
from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml
from babel.messages.pofile import read_po

from rulebook.i18n import LANGUAGES, translator
from tools.po_incoming import apply_entries, load_entries

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
BRACES = re.compile(r"(?<!\{)\{([a-z_]+)\}(?!\})")
PERCENT = re.compile(r"%\(([a-z_]+)\)[sd]")
# HTML a message may carry: tags (with their attributes) and character references
MARKUP = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>|&(?:[A-Za-z][A-Za-z0-9]*|#\d+|#x[0-9A-Fa-f]+);")
GLOSSARY = ROOT / "translations" / "glossary.yaml"


def catalog(lang):
    with open(ROOT / "translations" / lang / "LC_MESSAGES" / "messages.po", "rb") as handle:
        cat = read_po(handle, locale=lang)
    apply_entries(cat, lang, load_entries()[1], add=True)
    return cat


def placeholders(text: str) -> set[str]:
    return set(BRACES.findall(text)) | {f"%({p})" for p in PERCENT.findall(text)}


def markup(text: str) -> Counter:
    """The tags and character references of a text, whitespace inside a tag normalized."""
    return Counter(" ".join(m.split()) for m in MARKUP.findall(text))


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


@pytest.mark.parametrize("lang", TRANSLATED)
def test_markup_intact(lang):
    """Every form of every entry carries the tags and entities of its source, no more and
    no fewer (a page renders them: a lost </strong> or a stray &nbsp; shows)."""
    problems = []
    for message in catalog(lang):
        if not message.id or message.fuzzy:
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        forms = message.string if isinstance(message.string, (list, tuple)) else [message.string]
        wanted = markup(ids[-1])
        assert all(markup(i) == wanted for i in ids), f"singular and plural differ: {ids}"
        for form in forms:
            if markup(form) != wanted:
                problems.append(f"{message.context or ''} {ids[0]!r}: {sorted(markup(form).elements())}"
                                f" vs {sorted(wanted.elements())}")
    assert not problems, f"{lang}: " + "\n".join(problems[:20])


def test_markup_check_sees_a_lost_tag():
    assert markup('Pick <strong>one</strong> &amp; go') == markup('Elige <strong>una</strong> &amp; ve')
    assert markup('<strong>one</strong>') != markup('<strong>una')
    assert markup('one') != markup('una&nbsp;')
    assert markup('<a href="#x">a</a>') != markup('<a href="#y">a</a>')
    assert not markup("Q&A: 4 < 5 and 6 > 5, /api/v1/{game}/score")


def glossary() -> dict[str, Any]:
    with open(GLOSSARY, encoding="utf-8") as handle:
        return yaml.safe_load(handle)


# What holds a player's name in a message (names and the default "el jugador A" alike).
NAME = r"(?:\{(?:player|other|opponent|expected|winner)\}|%\((?:player|name|winner)\)s)"
PLAYER = re.compile(NAME)


def extracted_messages(lang: str, extracted_ids: set) -> list[tuple[tuple, list[str]]]:
    """((context, msgid), forms) of the catalog's messages that the code still uses."""
    out = []
    for message in catalog(lang):
        key = (message.context, message.id if isinstance(message.id, str) else message.id[0])
        if message.id and key in extracted_ids:
            forms = message.string if isinstance(message.string, (list, tuple)) else [message.string]
            out.append((key, [message.id] if isinstance(message.id, str) else list(message.id), forms))
    return out


@pytest.mark.parametrize("lang", TRANSLATED)
def test_one_term_per_concept(lang, extracted_ids):
    """A variant the glossary (translations/glossary.yaml) rules out appears in no message
    that the site, the API or the CLI uses."""
    terms = glossary().get(lang, [])
    banned = [(re.compile(variant), term) for term in terms for variant in term["not"]]
    problems = []
    for key, _ids, forms in extracted_messages(lang, extracted_ids):
        for form in forms:
            for pattern, term in banned:
                found = pattern.search(form)
                if found:
                    problems.append(f"{key[0] or ''} {key[1][:50]!r}: {found.group(0)!r}, "
                                    f"use {term['use']!r} ({term['why']})")
    assert not problems, f"{lang}: " + "\n".join(problems[:20])


@pytest.mark.parametrize("lang", TRANSLATED)
def test_sentences_with_a_name_fit_any_name(lang, extracted_ids):
    """A message that holds a player's name has no form that agrees with the name's gender
    (`gendered` in translations/glossary.yaml): "Олена вже переміг" is what it prevents."""
    patterns = [re.compile(p.replace("NAME", NAME)) for p in glossary()["gendered"].get(lang, [])]
    problems = []
    for key, ids, forms in extracted_messages(lang, extracted_ids):
        if not any(PLAYER.search(i) for i in ids):
            continue
        for form in forms:
            for pattern in patterns:
                found = pattern.search(form)
                if found:
                    problems.append(f"{key[1][:50]!r}: {found.group(0)!r} in {form!r}")
    assert not problems, f"{lang}: " + "\n".join(problems[:20])


def test_glossary_is_well_formed():
    entries = dict(glossary())
    gendered = entries.pop("gendered")
    assert set(entries) <= set(TRANSLATED) and set(gendered) <= set(TRANSLATED)
    for patterns in gendered.values():
        for pattern in patterns:
            assert "NAME" in pattern, pattern  # a form is gendered next to a name
            re.compile(pattern.replace("NAME", NAME))
    for lang, terms in entries.items():
        for term in terms:
            assert set(term) == {"use", "not", "why"}, term
            for variant in term["not"]:
                pattern = re.compile(variant)
                assert not pattern.search(term["use"]), f"{lang}: {variant!r} bans {term['use']!r}"


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

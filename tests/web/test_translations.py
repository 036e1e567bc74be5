"""The catalogs: complete, never fuzzy, placeholders and markup intact, plurals right, one
term per concept and no sentence that depends on a player's gender, in every language.

`pybabel compile` silently skips a catalog whose header is fuzzy and falls back to the
English text for fuzzy or empty entries, so these checks are what keeps a page from
quietly showing English. They read the catalogs the tests read (tests/conftest.py: the
repository's, with the translations delivered as JSON applied and the toy game's strings
merged in), so a branch's new strings, and a new game's, are checked before they merge.
"""
from __future__ import annotations

import fcntl
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from babel.messages.pofile import read_po

from rulebook.i18n import LANGUAGES, translator
from tools import po_check
from tools.po_incoming import entry_problems

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
GLOSSARY = ROOT / "translations" / "glossary.yaml"


def catalog(lang):
    path = Path(os.environ["SHINPAN_TRANSLATIONS"]) / lang / "LC_MESSAGES" / "messages.po"
    with open(path, "rb") as handle:
        return read_po(handle, locale=lang)


@pytest.fixture(scope="module")
def extracted_ids():
    """Extract afresh, exactly as `make translations` does, to catch strings never merged;
    with the toy game's strings (extracted as the repository's, conftest.py)."""
    from conftest import toy_game_messages

    pot = extracted_once()
    with open(pot, "rb") as handle:
        found = {(m.context, m.id if isinstance(m.id, str) else m.id[0])
                 for m in read_po(handle) if m.id}
    toy = {(context, m if isinstance(m, str) else m[0]) for context, m, _ in toy_game_messages()}
    return found | toy


def extracted_once() -> Path:
    """The repository's strings, extracted once per test run (about 3 s of CPU) in a folder
    beside the run's catalogs (tests/conftest.py; not in it: the wheel's test packs that
    one), whichever pytest-xdist worker asks first; the others wait on the lock and read
    the file it wrote."""
    folder = Path(os.environ["SHINPAN_TEST_CATALOGS"] + ".extracted")
    folder.mkdir(exist_ok=True)
    pot = folder / "extracted.pot"
    with open(folder / "extracted.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not pot.exists():
            partial = folder / "extracted.pot.part"
            subprocess.run(
                [sys.executable, "-m", "babel.messages.frontend", "extract", "-F", "babel.cfg",
                 "-k", "N_", "-k", "Np_:1,2", "-k", "lazy_gettext", "-k", "_l",
                 "-o", str(partial), "."], cwd=ROOT, check=True, capture_output=True)
            partial.replace(pot)
    return pot


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
    problems = po_check.catalog_problems(catalog(lang))
    assert not problems, f"{lang}: " + "\n".join(problems[:20])


@pytest.mark.parametrize("source, translation, wrong", [
    ("{player} wins.", "{player} gewinnt.", None),
    ("{player} wins.", "{spieler} gewinnt.", "{spieler}"),  # renamed
    ("{player} wins {points}.", "{player} gewinnt.", "left out"),
    ("Both tie.", "Gleichstand {player}.", "the source lacks"),  # added
    ("{a} and {b}", "{a} und {b", "parse"),  # a brace lost
    ("{a} and {b}", "{a} und }{b}", "parse"),
    ("%(game)s: the rules", "%(game)s : les règles", None),
    ("%(game)s: the rules", "Die Regeln", "left out"),
    ("%(num)d rounds", "%(num)s Runden", None),  # the same name, another conversion
    ("%(num)d rounds", "%(count)d Runden", "%(count)"),
    ("%s of %s", "%s von", "left out"),
    ("100%% sure, %(name)s", "%(name)s, sicher", None),
    (("{count} geisha", "{count} geishas"), ("eine Geisha", "{count} Geishas"), None),
    (("{count} geisha", "{count} geishas"), ("{count} Geisha", "{cuont} Geishas"), "form 1"),
    (("%(num)d rule for %(game)s", "%(num)d rules for %(game)s"),
     ("%(num)d правило", "%(num)d правила для %(game)s", "%(num)d правил для %(game)s"),
     "form 0: placeholders left out: ['%(game)']"),
    (("%(num)d card", "%(num)d cards"), ("une carte", "%(num)d cartes"), None),
    # markup: the source's tags and entities, in any order, no more and no fewer
    ("Pick <strong>one</strong> &amp; go", "Elige <strong>una</strong> &amp; ve", None),
    ("<a href=\"#x\">this</a> rule", "la règle <a href=\"#x\">ceci</a>", None),
    ("Pick <strong>one</strong>", "Elige <strong>una", "markup"),  # a tag lost
    ("Pick one", "Elige <em>una</em>", "markup"),  # a tag added
    ("Score: %(num)s", "Puntos:&nbsp;%(num)s", "markup"),  # an entity added
    ("<a href=\"#x\">rule</a>", "<a href=\"#y\">regla</a>", "markup"),  # an attribute changed
    (("<b>%(num)d</b> card", "<b>%(num)d</b> cards"), ("<b>%(num)d</b> Karte", "%(num)d Karten"),
     "form 1: markup"),
    ("4 < 5 & 6 > 5, Q&A", "4 < 5 y 6 > 5", None),  # comparison signs, a bare & are text
])
def test_the_placeholder_check_catches_what_breaks_a_page(source, translation, wrong):
    found = po_check.problems(source, translation)
    if wrong is None:
        assert found == []
    else:
        assert found and wrong in " ".join(found), found


def test_incoming_translations_are_checked_before_they_are_written():
    """tools/po_incoming.py refuses, before writing any catalog, an entry that would break."""
    entry = {"context": None, "msgid": "{count} geisha", "msgid_plural": "{count} geishas",
             "de": ["{count} Geisha", "{count} Geishas"],
             "uk": ["{count} гейша", "{count} гейші"], "fr": ["{count} geisha", "{nombre} geishas"]}
    found = entry_problems([entry], {"de": 2, "uk": 3, "es": 2, "fr": 2})
    assert len(found) == 2
    assert "needs 3 forms" in found[0] and found[0].startswith("uk:")
    assert "{nombre}" in found[1] and found[1].startswith("fr:")


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


@pytest.mark.parametrize("n", [0, 1, 2, 5, 11, 21, 111])
def test_japanese_has_one_form_for_every_count(n):
    t = translator("ja")
    assert t.ngettext("{count} geisha", "{count} geishas", n).format(count=n) == f"芸妓{n}人"
    assert t.ngettext("%(num)d card", "%(num)d cards", n) % {"num": n} == f"{n}枚"


JAPANESE = r"[\u3040-\u30ff\u4e00-\u9fff々]"
JAPANESE_TYPOGRAPHY = {
    "a space between Japanese words": re.compile(rf"{JAPANESE} +{JAPANESE}"),
    "a half-width bracket or mark beside Japanese": re.compile(
        rf"{JAPANESE}[(),:;!?]|[(),:;!?]{JAPANESE}"),
    "Latin quotation marks (「」 in Japanese)": re.compile(r"[“”‘’]"),
    "a half-width space after 。、：？": re.compile(r"[。、：？] "),
}


def test_japanese_typography():
    """No spaces between words, full-width punctuation, 「」 quotes (a JSON example aside)."""
    problems = []
    for message in catalog("ja"):
        forms = message.string if isinstance(message.string, (list, tuple)) else [message.string]
        for form in forms:
            for name, pattern in JAPANESE_TYPOGRAPHY.items():
                if message.id and pattern.search(form.replace('"ruri"', "")):
                    problems.append(f"{name}: {form[:60]}")
    assert not problems, "\n".join(problems[:20])


def test_french_counts_zero_as_singular():
    t = translator("fr")
    assert t.ngettext("{count} geisha", "{count} geishas", 0) == t.ngettext(
        "{count} geisha", "{count} geishas", 1)


# -- one term per concept, and sentences that fit any player's name -------------------------
# What holds a player's name in a message (a real one, or the default "el jugador A").
NAME = r"(?:\{(?:player|other|opponent|expected|winner)\}|%\((?:player|name|winner)\)s)"


def glossary() -> dict[str, Any]:
    with open(GLOSSARY, encoding="utf-8") as handle:
        return yaml.safe_load(handle)


def used_messages(lang: str, extracted_ids: set) -> list[tuple[tuple, list[str], list[str]]]:
    """((context, msgid), source texts, forms) of the messages the code still uses."""
    out = []
    for message in catalog(lang):
        key = (message.context, message.id if isinstance(message.id, str) else message.id[0])
        if message.id and key in extracted_ids:
            ids = [message.id] if isinstance(message.id, str) else list(message.id)
            forms = message.string if isinstance(message.string, (list, tuple)) else [message.string]
            out.append((key, ids, list(forms)))
    return out


@pytest.mark.parametrize("lang", TRANSLATED)
def test_one_term_per_concept(lang, extracted_ids):
    """No message the site, the API or the CLI uses holds a variant that
    translations/glossary.yaml rules out ("conflicto" where Spanish says "victorias
    simultáneas", "Blattkarte" where German says "einfache Karte")."""
    banned = [(re.compile(variant), term) for term in glossary().get(lang, [])
              for variant in term["not"]]
    problems = []
    for key, _ids, forms in used_messages(lang, extracted_ids):
        if (key[0] or "").startswith("asked."):
            continue  # the ways players ask for a rule: never shown, in the words they type
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
    (`gendered` in translations/glossary.yaml): "Олена вже переміг", "María figura como
    ganador" and "Élodie est désigné vainqueur" are what it keeps out."""
    patterns = [re.compile(p.replace("NAME", NAME)) for p in glossary()["gendered"].get(lang, [])]
    problems = []
    for key, ids, forms in used_messages(lang, extracted_ids):
        if not any(re.search(NAME, text) for text in ids):
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
                assert not re.search(variant, term["use"]), f"{lang}: {variant!r} bans {term['use']!r}"

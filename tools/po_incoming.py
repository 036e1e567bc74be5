"""Apply translations delivered as JSON to the catalogs, after `make translations`.

Work done on a branch adds new messages; its translations travel in
`translations/incoming/<name>.json` instead of edits to the .po files (which every
extraction rewrites, so two branches' .po edits never merge cleanly). Each file is a
list of entries:

    {"context": "yaku.tsukifuda" | null, "msgid": "...", "msgid_plural": "..." | null,
     "de": "..." | ["...", "..."], "uk": ..., "es": ..., "fr": ..., "ja": ...}

A plural entry gives every form of the language (uk has three, ja one). An entry
may leave a language out (a branch that does not write it): that catalog keeps its entry
as it is, and the catalog tests say what is still untranslated. Run
`python tools/po_incoming.py` after `make translations`: it fills each catalog (also
replacing a fuzzy or older translation), fails on an entry the catalog does not hold,
and removes the applied files. `make translations` then compiles again. An entry whose
placeholders differ from its source's, or with the wrong number of plural forms, is
refused before any catalog is written (tools/po_check.py).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from babel.messages.pofile import read_po, write_po

from rulebook.i18n import DEFAULT_LANGUAGE, LANGUAGES

try:
    from tools import po_check
except ImportError:  # run as a script: tools/ is this file's folder
    import po_check  # type: ignore[no-redef]

ROOT = Path(__file__).resolve().parents[1]
INCOMING = ROOT / "translations" / "incoming"
LANGS = tuple(lang for lang in LANGUAGES if lang != DEFAULT_LANGUAGE)  # every catalog


def load_entries(folder: Path = INCOMING) -> tuple[list[Path], list[dict]]:
    files = sorted(folder.glob("*.json")) if folder.is_dir() else []
    entries: list[dict] = []
    for path in files:
        entries.extend(json.loads(path.read_text(encoding="utf-8")))
    return files, entries


def apply_entries(catalog, lang: str, entries: list[dict], add: bool = False) -> list[str]:
    """Fill `catalog` with the entries' `lang` translations; the ones it lacks are listed
    (or, with `add`, added, as the next extraction would add them)."""
    missing = []
    for entry in entries:
        if lang not in entry:
            continue
        key = (entry["msgid"], entry["msgid_plural"]) if entry.get("msgid_plural") else entry["msgid"]
        message = catalog.get(entry["msgid"], context=entry.get("context"))
        if message is None and add:
            message = catalog.add(key, context=entry.get("context"))
        if message is None:
            missing.append(f"{lang}: {entry.get('context')!r} {entry['msgid'][:60]!r}")
            continue
        value = entry[lang]
        message.string = tuple(value) if isinstance(value, list) else value
        message.flags.discard("fuzzy")
        message.id = key
    return missing


def entry_problems(entries: list[dict], plural_forms: dict[str, int]) -> list[str]:
    """What is wrong with the entries' translations: placeholders that differ from the
    source's, a plural entry without every form of its language (`plural_forms`)."""
    out = []
    for entry in entries:
        source = ((entry["msgid"], entry["msgid_plural"]) if entry.get("msgid_plural")
                  else entry["msgid"])
        for lang, forms in plural_forms.items():
            if lang not in entry:
                continue
            value = entry[lang]
            where = f"{lang}: {entry.get('context')!r} {entry['msgid'][:60]!r}"
            if entry.get("msgid_plural") and (not isinstance(value, list) or len(value) != forms):
                out.append(f"{where}: a plural entry needs {forms} forms in {lang}")
                continue
            out.extend(f"{where}: {problem}" for problem in po_check.problems(source, value))
    return out


def read_catalog(lang: str):
    with open(ROOT / "translations" / lang / "LC_MESSAGES" / "messages.po", "rb") as handle:
        return read_po(handle, locale=lang)


def apply(lang: str, entries: list[dict]) -> list[str]:
    po_path = ROOT / "translations" / lang / "LC_MESSAGES" / "messages.po"
    catalog = read_catalog(lang)
    missing = apply_entries(catalog, lang, entries)
    with open(po_path, "wb") as handle:
        write_po(handle, catalog, width=0, ignore_obsolete=True)
    return missing


def compiled_with_incoming() -> str | None:
    """The catalogs compiled with every incoming entry applied (added where the catalog lacks
    it, as the next extraction will add it), in a new temporary folder, or None when nothing
    is incoming. Set SHINPAN_TRANSLATIONS to it to read them (tests/conftest.py, the search
    quality tool) before the integrator folds the JSON into the .po files."""
    import os
    import tempfile

    from babel.messages.mofile import write_mo

    _files, entries = load_entries()
    if not entries:
        return None
    out = tempfile.mkdtemp(prefix="shinpan-catalogs-")
    for lang in LANGS:
        with open(ROOT / "translations" / lang / "LC_MESSAGES" / "messages.po", "rb") as handle:
            catalog = read_po(handle, locale=lang)
        apply_entries(catalog, lang, entries, add=True)
        folder = os.path.join(out, lang, "LC_MESSAGES")
        os.makedirs(folder)
        with open(os.path.join(folder, "messages.mo"), "wb") as handle:
            write_mo(handle, catalog)
    return out


def main() -> int:
    files, entries = load_entries()
    if not entries:
        print("no incoming translations")
        return 0
    broken = entry_problems(entries, {lang: read_catalog(lang).num_plurals for lang in LANGS})
    if broken:
        print("refused, no catalog written:", *broken, sep="\n  ")
        return 1
    missing = [m for lang in LANGS for m in apply(lang, entries)]
    if missing:
        print("not in the catalogs (run `make translations` first?):", *missing, sep="\n  ")
        return 1
    for path in files:
        path.unlink()
    print(f"applied {len(entries)} entries from {len(files)} file(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

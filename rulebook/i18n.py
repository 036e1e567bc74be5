"""Gettext catalogs shared by the referee, the CLI and the web app.

`translations/` holds one catalog per language (domain `messages`), compiled into
`rulebook/translations/`; the web app's Flask-Babel reads the same files. Rule texts use the rule id as message context.
"""
from __future__ import annotations

import gettext
import os
from collections.abc import Iterable
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

# The one list of languages: a new language is its catalog, its search analyzer
# (webapp/pages/search.py) and its code here.
LANGUAGES = ("en", "de", "uk", "es", "fr", "ja")
DEFAULT_LANGUAGE = "en"


def translations_folder() -> str:
    """The folder of compiled catalogs: `rulebook/translations/`, where `make catalogs`
    compiles translations/*.po (and so inside the installed package too), or where
    SHINPAN_TRANSLATIONS says (the tests' catalogs, see tests/conftest.py). Text, not a
    Path: the CLI reads a catalog without importing pathlib (~5 ms of a cold process)."""
    chosen = os.environ.get("SHINPAN_TRANSLATIONS")
    if chosen:
        return chosen
    return os.path.join(os.path.dirname(os.path.realpath(__file__)), "translations")


def translations_dir() -> Path:
    """translations_folder() as a Path (the site and the tests)."""
    from pathlib import Path

    return Path(translations_folder())


def N_(message: str) -> str:
    """Mark a string for extraction; it is translated later, where the language is known."""
    return message


def Np_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a singular/plural pair for extraction as one plural entry (for `ngettext`)."""
    return singular, plural


# Translators: what stands between the items of a list of names or values (Japanese: 、)
LIST_SEPARATOR = N_(", ")


def listed(items: Iterable[str], t: gettext.NullTranslations) -> str:
    """Names or values one after the other, with the language's separator (`t`: a catalog)."""
    return t.gettext(LIST_SEPARATOR).join(items)


@cache
def translator(lang: str) -> gettext.NullTranslations:
    """The catalog for `lang` (English, the source language, needs none). The standard
    library reads the .mo files Flask-Babel reads (importing babel would cost the CLI
    ~40 ms); a missing catalog gives the English texts."""
    if lang not in LANGUAGES or lang == DEFAULT_LANGUAGE:
        return gettext.NullTranslations()
    try:
        with open(os.path.join(translations_folder(), lang, "LC_MESSAGES", "messages.mo"),
                  "rb") as handle:
            return gettext.GNUTranslations(handle)
    except OSError:
        return gettext.NullTranslations()


def normalize_language(value: str | None) -> str | None:
    """`de-AT` -> `de`; None for a language we do not have."""
    if not value:
        return None
    code = value.strip().replace("_", "-").split("-")[0].lower()
    return code if code in LANGUAGES else None

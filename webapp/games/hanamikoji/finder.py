"""Hanamikoji's side of the finder (webapp/pages/finder.py): which box is on the table?

The editions are told apart by what is on each box, fields every edition has: its
publisher, its language, its year and who the seven figures are (`box.<field>`; the
theme tells Jixia Academy's scholars from Deep Water's own geishas). A fact no source
gives (Rulebook.provenance says `unknown`) is neither matched nor missed. A new edition
needs no code here; a new theme needs its name below.
"""
from __future__ import annotations

from functools import cached_property
from typing import Any

from flask_babel import lazy_gettext

from ..finding import UNKNOWN, Answer, Candidate, Question
from ..terms import language_name
from .terms import Terms

BOX_FIELDS = {
    "publisher": lazy_gettext("Who published your box?"),
    "language": lazy_gettext("In which language are your box and rulebook?"),
    "year": lazy_gettext("Which year is printed on your box?"),
    "theme": lazy_gettext("Whose favour do the players win on your cards?"),
}
THEMES = {  # Edition.theme: what the seven figures are
    "geishas": lazy_gettext("Seven geishas"),
    "dancers": lazy_gettext("Seven dancers"),
    "scholars": lazy_gettext("Seven scholars"),
}


class HanamikojiFinder:
    learned_question = lazy_gettext("Which box do you have?")
    learned_hint = lazy_gettext("Its publisher, language and year are printed on the box.")
    lead = lazy_gettext("The editions of Hanamikoji name the actions differently and end the "
                        "game in different ways. Say which box you have, or answer what is "
                        "printed on it, and the referee uses its rules.")

    def __init__(self, rb: Any, lang: str):
        self.rb = rb
        self.lang = lang

    def keys(self) -> list[str]:
        return [f"box.{name}" for name in BOX_FIELDS]

    @cached_property
    def terms(self) -> Terms:
        return Terms(self.rb, self.lang)

    def candidates(self) -> list[Candidate]:
        terms = self.terms
        out = []
        for e in self.rb.editions.values():
            # the box as players know it, where that is more than its publisher
            name = getattr(e, "name", e.publisher)
            label = terms.edition_label(e) if name == e.publisher else name
            out.append(Candidate(e.id, label, terms.sources(e.action_names.sources)))
        return out

    def _value(self, edition: Any, name: str) -> Any:
        value = getattr(edition, name, None)
        provenance = getattr(self.rb, "provenance", None)
        if value is None or (callable(provenance) and provenance(edition.id, name).basis
                             == "unknown"):
            return UNKNOWN
        return value

    def questions(self) -> list[Question]:
        out = []
        for name, text in BOX_FIELDS.items():
            if not all(hasattr(e, name) for e in self.rb.editions.values()):
                continue  # a field this rulebook's editions do not have
            values = {e.id: self._value(e, name) for e in self.rb.editions.values()}
            known = []
            for value in values.values():
                if value is not UNKNOWN and value not in known:
                    known.append(value)
            if name == "year":
                known.sort()
            answers = tuple(Answer(str(v), v, self._label(name, v)) for v in known)
            out.append(Question(f"box.{name}", str(text), answers, values))
        return out

    def _label(self, name: str, value: Any) -> str:
        if name == "language":
            return language_name(value, self.lang)
        if name == "theme":
            return str(THEMES.get(value, value))
        return str(value)

    def refused(self, candidate: str, settings: dict[str, Any]) -> set[str]:
        return set()  # a box's facts set no option

    def query(self, candidate: str, settings: dict[str, Any]) -> dict[str, str]:
        return {"edition": candidate}

    def named(self, settings: dict[str, Any]) -> str:
        return ""  # a box's facts set no option


def finder(rb: Any, lang: str) -> HanamikojiFinder:
    return HanamikojiFinder(rb, lang)

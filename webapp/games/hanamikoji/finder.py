"""Hanamikoji's side of the finder (webapp/pages/finder.py): which box is on the table?

The editions are told apart by what is printed on each box, fields every edition has: its
publisher, its language and its year (`box.<field>`). An edition whose year no source
gives is neither matched nor missed by a year. A new edition needs no code here.
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
}


class HanamikojiFinder:
    learned_question = lazy_gettext("Which box do you have?")
    learned_hint = lazy_gettext("Its publisher, language and year are printed on the box.")

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
        return [Candidate(e.id, terms.edition_label(e), terms.sources(e.action_names.sources))
                for e in self.rb.editions.values()]

    def questions(self) -> list[Question]:
        out = []
        for name, text in BOX_FIELDS.items():
            values = {e.id: UNKNOWN if getattr(e, name) is None else getattr(e, name)
                      for e in self.rb.editions.values()}
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
        return language_name(value, self.lang) if name == "language" else str(value)

    def refused(self, candidate: str, settings: dict[str, Any]) -> set[str]:
        return set()  # a box's facts set no option

    def query(self, candidate: str, settings: dict[str, Any]) -> dict[str, str]:
        return {"edition": candidate}


def finder(rb: Any, lang: str) -> HanamikojiFinder:
    return HanamikojiFinder(rb, lang)

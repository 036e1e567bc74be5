"""Koi-Koi (Hanafuda): the rulebook model, the scorer, the referee and the JSON document."""
from .document import document
from .model import Rulebook, load_rulebook
from .referee import referee
from .scoring import PileScore, score_pile

# What the catalogs take from the YAML besides the rule texts and section titles
# (see rulebook/hanamikoji/__init__.py for the form).
EXTRACT = (
    ("sources", "about", "source.{key}",
     "Translators: what a source document is (its own title is shown beside, untranslated)"),
    ("cards", "name", "koikoi.card.{slug}", "Translators: Koi-Koi card name"),
    ("months", "name", "koikoi.month.{number}",
     "Translators: the flower of a Koi-Koi month (card suit)"),
    ("yaku", "name", "koikoi.yaku.{id}", "Translators: Koi-Koi scoring combination"),
    ("options", "label", None, "Translators: the name of a table option (menus and messages)"),
    ("notes", None, "note.{key}",
     ("Translators: a remark on how a ruleset's fact was read, shown beside it on the "
      "comparison page")),
)

__all__ = ["EXTRACT", "PileScore", "Rulebook", "document", "load_rulebook", "referee",
           "score_pile"]

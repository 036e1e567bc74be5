"""Hanamikoji: the rulebook model, the referee and the rulebook as a JSON document."""
from .document import document
from .model import Rulebook, load_rulebook
from .referee import referee

# What the catalogs take from the YAML besides the rule texts and section titles:
# (where in the YAML: a list, or a mapping whose keys become `{key}`; the field of each
# entry, or None for the entry itself; the message context, or None for a name that the
# pages' own code also uses without one; a comment for translators).
EXTRACT = (
    ("sources", "about", "source.{key}",
     "Translators: what a source document is (its own title is shown beside, untranslated)"),
    ("geishas", "name", "geisha.{id}", "Translators: geisha name"),
    ("variants", "label", None, "Translators: the name of a variant (menus and messages)"),
    ("geishas", "item", "item.{id}", "Translators: the item this geisha favours"),
    ("geishas", "colour", "colour.{colour}", "Translators: colour of a geisha card"),
    ("editions.{default_edition}.actions", None, "action.{key}",
     ("Translators: action name on this site (the printed names of the editions are shown "
      "separately)")),
)

__all__ = ["EXTRACT", "Rulebook", "document", "load_rulebook", "referee"]

"""Display names in a language: geishas, items, actions (edition-aware), players.

One place for these lookups, shared by the referee's messages, the rules pages and
the checker, so an action is called the same thing everywhere on a page.
"""
from __future__ import annotations

from ..i18n import translator
from ..players import labels
from .model import Rulebook


def geisha_name(rb: Rulebook, geisha_id: str, lang: str) -> str:
    geisha = rb.geishas[rb.geisha_index[geisha_id]]
    return translator(lang).pgettext(f"geisha.{geisha_id}", geisha.name)


def action_name(rb: Rulebook, action_id: str, lang: str, edition: str | None = None) -> str:
    """The page language's term; an edition printed in that language uses its own names."""
    chosen = rb.editions.get(edition or rb.default_edition)
    if chosen is not None and chosen.language == lang and chosen.actions[action_id]:
        return chosen.actions[action_id]
    default_name = rb.editions[rb.default_edition].actions[action_id]
    return translator(lang).pgettext(f"action.{action_id}", default_name)


def action_names(rb: Rulebook, lang: str, edition: str | None = None) -> dict[str, str]:
    """All action names, keyed by action id: the placeholders of the rule texts."""
    return {action_id: action_name(rb, action_id, lang, edition) for action_id in rb.actions}


def player_labels(rb: Rulebook, lang: str) -> dict[str, str]:
    """The default names of both players in `lang`, as labels (see rulebook/players.py)."""
    return labels(lang)


def rule_text(rb: Rulebook, rule_id: str, lang: str, edition: str | None = None) -> str:
    """A rule's text in `lang`, with the action names of the chosen edition filled in."""
    text = translator(lang).pgettext(rule_id, rb.rules[rule_id])
    return text.format(**action_names(rb, lang, edition))

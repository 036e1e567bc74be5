"""The rulebook as a JSON document in one language (built once per language)."""
from __future__ import annotations

from functools import cache
from typing import Any

from ..i18n import translator
from ..sources import sources_document
from .model import load_rulebook
from .terms import action_name, geisha_name, rule_text


@cache
def document(lang: str) -> dict[str, Any]:
    """The Hanamikoji rulebook as a JSON document in `lang` (the API's /rulebook)."""
    rb = load_rulebook()
    t = translator(lang)
    return {
        "game": "hanamikoji",
        "language": lang,
        "canonical_source": rb.canonical_source,
        "geishas": [
            {"id": g.id, "name": geisha_name(rb, g.id, lang), "charm": g.charm, "cards": g.cards,
             "colour": t.pgettext(f"colour.{g.colour}", g.colour),
             "item": t.pgettext(f"item.{g.id}", g.item)}
            for g in rb.geishas
        ],
        "actions": [
            {"id": a.id, "name": action_name(rb, a.id, lang), "rule": a.rule, "cards": a.cards,
             "split": list(a.split) if a.split else None, "face": a.face, "chooser": a.chooser,
             "scored": a.scored}
            for a in rb.actions.values()
        ],
        "round": {"removed": rb.removed, "hand": rb.hand, "draw_per_turn": rb.draw_per_turn,
                  "actions_per_player": rb.actions_per_player, "first_player": rb.first_player,
                  "scored_per_side": rb.scored_per_side},
        "victory": {"geishas": rb.goal_geishas, "charm": rb.goal_charm,
                    "clash_winner": rb.clash_winner},
        "round_limit": {"rounds": rb.round_limit},
        "default_edition": rb.default_edition,
        "sources": sources_document(rb.sources, t),
        "editions": [
            {"id": e.id, "publisher": e.publisher, "language": e.language, "year": e.year,
             "actions": dict(e.actions),
             "action_names": {"basis": e.action_names.basis,
                              "sources": list(e.action_names.sources)},
             "round_limit": {"status": e.round_limit.status,
                             "tiebreak": list(e.round_limit.tiebreak),
                             "basis": e.round_limit.sourced.basis,
                             "inferred_from": e.round_limit.inferred_from,
                             "sources": list(e.round_limit.sourced.sources)},
             "rule": f"edition.{e.id}"}
            for e in rb.editions.values()
        ],
        "variants": {key: dict(spec) for key, spec in rb.variants.items()},
        "sections": [
            {"id": s.id, "title": t.pgettext(f"section.{s.id}", s.title),
             "rules": [{"id": rid, "text": rule_text(rb, rid, lang)} for rid in s.rules]}
            for s in rb.sections
        ],
    }

"""A game's canonical rulebook as a JSON document in one language (for the API)."""
from __future__ import annotations

from functools import cache
from typing import Any

from rulebook.hanamikoji.model import load_rulebook as load_hanamikoji
from rulebook.hanamikoji.terms import action_name, geisha_name, rule_text
from rulebook.i18n import translator


def hanamikoji(lang: str) -> dict[str, Any]:
    rb = load_hanamikoji()
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
        "editions": [
            {"id": e.id, "publisher": e.publisher, "language": e.language, "year": e.year,
             "source": e.source, "actions": dict(e.actions),
             "round_limit_tiebreak": list(e.round_limit_tiebreak),
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


def koikoi(lang: str) -> dict[str, Any] | None:
    try:
        from rulebook.koikoi.api import rulebook_document
    except ImportError:
        return None
    return rulebook_document(lang)


@cache
def document(game: str, lang: str) -> dict[str, Any] | None:
    """Built once per game and language; the rulebooks do not change while serving."""
    return {"hanamikoji": hanamikoji, "koikoi": koikoi}[game](lang)

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
        "sources": [
            {"id": src.key, "title": src.title, "lang": src.lang,
             "about": t.pgettext(f"source.{src.key}", src.about), "where": src.where}
            for src in rb.sources.values()
        ],
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


def koikoi(lang: str) -> dict[str, Any]:
    """The Koi-Koi rulebook: cards, months, yaku with their value in every ruleset, options."""
    from rulebook.koikoi import load_rulebook as load_koikoi

    rb = load_koikoi()
    t = translator(lang)

    def value(ruleset: Any, yaku_id: str) -> dict[str, Any] | None:
        v = ruleset.values.get(yaku_id)
        return None if v is None else {"points": v.points, "extra": v.extra}

    return {
        "game": "koikoi",
        "language": lang,
        "canonical_source": rb.canonical_source,
        "months": [
            {"number": m.number, "id": m.id, "name": t.pgettext(f"koikoi.month.{m.number}", m.name)}
            for m in rb.months
        ],
        "cards": [
            {"index": c.index, "slug": c.slug, "month": c.month, "kind": c.kind, "ribbon": c.ribbon,
             "dual_kind": c.dual_kind, "name": t.pgettext(f"koikoi.card.{c.slug}", c.name)}
            for c in rb.cards
        ],
        "deal": {"hand": rb.hand_size, "field": rb.field_size, "first_dealer": rb.first_dealer},
        "groups": [{"id": gid, "stacking": stacking} for gid, stacking in rb.groups.items()],
        "yaku": [
            {"id": y.id, "name": t.pgettext(f"koikoi.yaku.{y.id}", y.name), "romaji": y.romaji,
             "group": y.group, "rule": y.rule, "viewing": y.viewing,
             "cards": [c.slug for c in rb.cards if (y.cards >> c.index) & 1],
             "count": ({"kind": y.count_kind, "min": y.count_min,
                        "excluding": [c.slug for c in rb.cards if (y.excluding >> c.index) & 1],
                        "requires": [c.slug for c in rb.cards if (y.requires >> c.index) & 1]}
                       if y.match == "count" else None),
             "hand": ({"month_count": y.hand_month_count or None, "pairs": y.hand_pairs or None}
                      if y.hand else None),
             "round_month": y.match == "round_month",
             "extra": y.extra,
             "values": {rid: value(r, y.id) for rid, r in rb.rulesets.items()}}
            for y in rb.yaku
        ],
        "scoring": {
            "seven_point": {"threshold": rb.seven_threshold, "factor": rb.seven_factor,
                            "rule": rb.seven_rule},
            "koikoi": {"factor": rb.koikoi_factor, "rule": rb.koikoi_rule},
            "koikoi_calls": {"step": rb.koikoi_call_step, "rule": rb.koikoi_calls_rule},
        },
        "round_months": {"first": rb.first_month},
        "options": [
            {"id": o.id, "rule": o.rule, "default": o.default,
             "choices": list(o.choices) if o.choices is not None else None,
             "min": o.int_min, "max": o.int_max, "nullable": o.nullable,
             "switches": list(o.switches),
             "values": {y: {"points": v.points, "extra": v.extra} for y, v in o.values.items()},
             "spoils_viewings": [c.slug for c in rb.cards if (o.spoils >> c.index) & 1]}
            for o in rb.options.values()
        ],
        "default_ruleset": rb.default_ruleset,
        "rulesets": [
            {"id": r.id, "name": r.name, "rule": r.rule, "source": r.source,
             "stacks": [sorted(s) for s in r.stacks],
             "options": rb.effective_options(r.id)}
            for r in rb.rulesets.values()
        ],
        "limits": {"max_rounds": rb.max_rounds},
        "sections": [
            {"id": s.id, "title": t.pgettext(f"section.{s.id}", s.title),
             "rules": [{"id": rid, "text": t.pgettext(rid, rb.rules[rid])} for rid in s.rules]}
            for s in rb.sections
        ],
    }


@cache
def document(game: str, lang: str) -> dict[str, Any] | None:
    """Built once per game and language; the rulebooks do not change while serving."""
    return {"hanamikoji": hanamikoji, "koikoi": koikoi}[game](lang)

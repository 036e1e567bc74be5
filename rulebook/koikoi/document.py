"""The rulebook as a JSON document in one language (built once per language)."""
from __future__ import annotations

from functools import cache
from typing import Any

from ..i18n import translator
from ..sources import sources_document
from .japanese import JapaneseName
from .model import load_rulebook


@cache
def document(lang: str) -> dict[str, Any]:
    """The Koi-Koi rulebook: cards, months, yaku with their value in every ruleset, options."""
    rb = load_rulebook()
    t = translator(lang)

    def value(ruleset: Any, yaku_id: str) -> dict[str, Any] | None:
        v = ruleset.values.get(yaku_id)
        return None if v is None else {"points": v.points, "extra": v.extra}

    return {
        "game": "koikoi",
        "language": lang,
        "canonical_source": rb.canonical_source,
        "sources": sources_document(rb.sources, t),
        "months": [
            {"number": m.number, "id": m.id, "name": t.pgettext(f"koikoi.month.{m.number}", m.name),
             "japanese": japanese(rb.japanese.months.get(m.number))}
            for m in rb.months
        ],
        "cards": [
            {"index": c.index, "slug": c.slug, "month": c.month, "kind": c.kind, "ribbon": c.ribbon,
             "dual_kind": c.dual_kind, "name": t.pgettext(f"koikoi.card.{c.slug}", c.name),
             "japanese": japanese(rb.japanese.cards.get(c.slug))}
            for c in rb.cards
        ],
        "deal": {"hand": rb.hand_size, "field": rb.field_size, "first_dealer": rb.first_dealer},
        "groups": [{"id": gid, "stacking": stacking} for gid, stacking in rb.groups.items()],
        "yaku": [
            {"id": y.id, "name": t.pgettext(f"koikoi.yaku.{y.id}", y.name), "romaji": y.romaji,
             "japanese": japanese(rb.japanese.yaku.get(y.id)),
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
            {"id": r.id, "name": r.name, "rule": r.rule, "sources": list(r.sources),
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


def japanese(name: JapaneseName | None) -> dict[str, Any] | None:
    """A Japanese name as written, its reading and romaji (`inferred`: no source spells it so)."""
    if name is None:
        return None
    return {"written": name.written, "reading": name.reading, "romaji": name.romaji,
            "inferred": name.inferred}

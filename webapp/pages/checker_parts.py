"""The checkers' smallest repeated parts, made in Python: a field's message, the attributes
that tie a field to it (and whether it has a problem), and a link to the rule that decides
a step.

They were Jinja macros (templates/checker/_macros.html keeps the larger ones). A checker
tap renders some fifty of them (templates/games/hanamikoji/live.html), and a macro call
costs several times the few lines below; a template that imports macros with its context
also builds that module again on every render. Same HTML as the macros made: the golden
pages (tools/golden.py, tests/web/test_golden.py) compare whole pages byte for byte.

Each takes the template's context (`pass_context`): `field_errors` (field key -> list of
{"message", "rule"}), `terms` (rule titles) and `rule_url` (a rule's address).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup, escape

from rulebook.i18n import N_

from .languages import request_catalog

RULE_LABEL = N_("Rule: %(action)s")  # a rule link's name for a screen reader


def _errors(context: Context, key: str) -> Sequence[Mapping[str, Any]]:
    return context["field_errors"].get(key) or ()


def has_problem(field_errors: Mapping[str, Sequence[Any]], key: str) -> bool:
    """Whether the field has a message (for the key of a kept part that shows it). Takes
    `field_errors` itself: a function given the context is given a copy of it when it is
    called inside a loop, which costs more than this whole test."""
    return bool(field_errors.get(key))


def problems(field_errors: Mapping[str, Sequence[Mapping[str, Any]]],
             *keys: str) -> tuple[tuple[str, tuple[tuple[str, str | None], ...]], ...]:
    """What the fields' messages say and which rules they link (for the key of a kept part
    that shows them)."""
    return tuple((key, tuple((error["message"], error.get("rule"))
                             for error in field_errors.get(key) or ())) for key in keys)


@pass_context
def field_msg(context: Context, key: str) -> Markup:
    """The referee's (or the form's) words next to the field they concern: a live region
    (static/js/live.js puts the server's new version in place), empty when all is well."""
    name = escape(key)
    html = [f'<div class="field-msg" id="msg-{name}" data-field="{name}" data-live-region>']
    for error in _errors(context, key):
        link = f" {rule_link(context, error['rule'])}" if error.get("rule") else ""
        html.append(f'\n  <p class="field-msg__text">{escape(error["message"])}{link}</p>')
    html.append("</div>")
    return Markup("".join(html))


@pass_context
def described(context: Context, key: str, hint: str | None = None) -> Markup:
    """A field's message (and hint) as its description, and aria-invalid while it has a
    problem. The element needs an id: static/js/live.js keeps these attributes up to date."""
    also = f" {escape(hint)}" if hint else ""
    invalid = ' aria-invalid="true"' if _errors(context, key) else ""
    return Markup(f'data-live-attrs aria-describedby="msg-{escape(key)}{also}"{invalid}')


@pass_context
def rule_link(context: Context, rule_id: str) -> Markup:
    """A link to a rule, named by the rule (not its id). Marked as a rule (§, and "Rule: …"
    for a screen reader) so that its title does not read as one more sentence of the
    ruling ("…the game goes on. The game ends at once")."""
    title = context["terms"].rule_title(rule_id)
    label = Markup(request_catalog().ugettext(RULE_LABEL)) % {"action": title}
    return Markup(f'<a class="rule-link" href="{escape(context["rule_url"](rule_id))}" '
                  f'aria-label="{label}"><span class="rule-link__mark" aria-hidden="true">'
                  f'§</span>&nbsp;{escape(title)}</a>')

"""The interactive scoring checker, `/<lang>/hanamikoji/score`: a GET form around the referee.

Board mode (the default) checks a scored round from the cards on each side; log mode
(`?mode=log`) enters a round action by action. The view converts the query to a
request (webapp.checker_form), asks the referee, and renders its answer: no game logic
here. static/js/checker.js does the same through the JSON API without reloading.
"""
from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, g, redirect, render_template, request, url_for
from flask_babel import gettext, ngettext

from rulebook.referee import referee

from . import checker_form as cf
from .games import GAMES
from .languages import format_number, isolate

bp = Blueprint("checker", __name__)
QUERY_PARAMETERS = {"checker.checker": cf.PARAMETERS}


def _names(parsed: cf.Parsed) -> dict[str, str]:
    names = {"a": gettext("Player A"), "b": gettext("Player B")}
    for p, name in parsed.state.names.items():
        if name.strip() and len(name.strip()) <= cf.MAX_NAME:
            names[p] = isolate(name.strip())
    return names


_BUNDLES: dict[tuple, tuple[Any, dict[str, Any]]] = {}


def _i18n(rb: Any, terms: Any, names: dict[str, str]) -> dict[str, Any]:
    """Strings the script needs to redraw the ruling in this language (made once per
    language, edition and rulebook: the same for every page)."""
    key = (terms.lang, terms.edition.id, id(rb))
    kept = _BUNDLES.get(key)
    if kept is None or kept[0] is not rb:
        kept = _BUNDLES[key] = (rb, _make_i18n(rb, terms))
    return kept[1]


def _make_i18n(rb: Any, terms: Any) -> dict[str, Any]:
    return {
        "geishas": {n: ngettext("%(num)d geisha", "%(num)d geishas", n)
                    for n in range(len(rb.geishas) + 1)},
        "charm": {n: ngettext("%(num)d charm point", "%(num)d charm points", n)
                  for n in range(rb.total_cards + 1)},
        "geisha_names": [terms.geisha(geisha) for geisha in rb.geishas],
        "geisha_ids": [geisha.id for geisha in rb.geishas],
        "check": gettext("Check the round"),
        "actions": {aid: terms.action(aid) for aid in rb.actions},
        "players": {"a": gettext("Player A"), "b": gettext("Player B")},
        "totals": gettext("%(player)s: %(geishas)s, %(charm)s"),
        "continue": gettext("Nobody has won yet: round %(round)s follows, and %(player)s starts it."),
        "marker": {
            "a": gettext("Favour marker on %(player)s's side"),
            "b": gettext("Favour marker on %(player)s's side"),
            "": gettext("Favour marker in the middle"),
        },
        "side_cards": gettext("%(player)s: %(num)s"),
        "check_fields": gettext("Correct the fields marked above to see the ruling."),
        "empty": gettext("Enter the cards on each side, and the ruling appears here."),
        "turn": gettext("Action %(number)s of %(total)s: %(player)s's turn."),
        "set": gettext("set %(num)s"),
        "log_entry": gettext("%(player)s: %(action)s"),
        "took": gettext("%(player)s took %(what)s"),
        "cards_label": gettext("%(player)s's %(geisha)s cards"),
        "turn_legend": gettext("Action %(number)s of %(total)s: %(player)s's turn"),
        "chose": gettext("What %(player)s chose"),
        "action_option": gettext("%(action)s (%(count)s)"),
        "cards_n": {n: ngettext("%(num)d card", "%(num)d cards", n) for n in range(1, 5)},
        "choose": gettext("Choose…"),
        "undo": gettext("Remove the last action"),
        "action_info": {aid: {"cards": a.cards, "split": 1 if a.split else 0, "chooser": a.chooser}
                        for aid, a in rb.actions.items()},
        "why": gettext("Why"),
        "alternatives": gettext("Where another edition or variant would change the result"),
        "next": gettext("Next round: round %(round)s"),
        "ruling_board": gettext("Where each favour marker ends"),
        "do_missing": gettext(cf.MESSAGES["do-missing"]),
        "copied": gettext("The link is copied."),
        "offline": gettext("The referee could not be reached; submit the form to check the round."),
    }


def _log_entries(parsed: cf.Parsed, response: dict | None, rb: Any, terms: Any,
                 names: dict[str, str]) -> list[dict[str, Any]]:
    """The actions logged so far, described for the page (names only; no judgement)."""
    req = parsed.request or {}
    rounds = req.get("rounds") or [{}]
    out = []
    for entry in rounds[0].get("actions", []):
        player = entry.get("player", "a")
        action_id = entry.get("action", "")
        action = terms.action(action_id) if action_id in rb.actions else action_id

        def card(c: Any) -> str:
            return terms.geisha(rb.geishas[rb.geisha_index[c]]) if c in rb.geisha_index else str(c)

        cards = entry.get("cards") or []
        if cards and isinstance(cards[0], list):
            shown = " | ".join(", ".join(card(c) for c in group) for group in cards)
        else:
            shown = ", ".join(card(c) for c in cards)
        taken = None
        if "taken" in entry:
            t = entry["taken"]
            what = gettext("set %(num)s", num=format_number(t + 1)) if isinstance(t, int) else card(t)
            taken = gettext("%(player)s took %(what)s", player=names["b" if player == "a" else "a"],
                            what=what)
        out.append({"player": names.get(player, player), "action": action, "cards": shown,
                    "taken": taken, "token": cf.act_token(entry)})
    return out


@bp.get("/<lang:lang>/<game:game>/score")
def checker(game: str):
    if game != "hanamikoji":
        abort(404)
    the_game = GAMES[game]
    rb = the_game.rulebook
    lang = g.lang
    parsed = cf.parse(request.args, rb, lang)
    state = parsed.state
    base = url_for("checker.checker", game=game)

    response = referee(parsed.request, lang) if parsed.request is not None else None
    errors = list(response["errors"]) if response and not response["valid"] else []
    refused = False
    if parsed.pending_request is not None:
        pending_response = referee(parsed.pending_request, lang)
        if pending_response["valid"]:
            # Accepted: append it, and show the round at its clean permalink.
            entry = parsed.pending_request["rounds"][0]["actions"][-1]
            log = state.log + [cf.act_token(entry)]
            return redirect(base + "?" + cf.query_string(cf.query(state, log=log)), code=303)
        refused = True
        seen = {(e["code"], e["path"]) for e in errors}
        errors += [e for e in pending_response["errors"] if (e["code"], e["path"]) not in seen]

    field_errors: dict[str, list[dict[str, Any]]] = {
        key: [{"message": m, "rule": None} for m in messages]
        for key, messages in parsed.errors.items()
    }
    for key, items in cf.errors_by_field(errors, len(state.log)).items():
        field_errors.setdefault(key, []).extend(items)

    # The page options (edition, variants) as the rules pages read them, for rule links.
    option_args = {"edition": state.edition, "round_limit": state.round_limit,
                   "simultaneous_goal": state.simultaneous_goal}
    options = the_game.options(rb, option_args)
    terms = the_game.terms(rb, lang, options)
    names = _names(parsed)
    nav_state = dict(options.query)

    def link(endpoint: str = "rules.rules", anchor: str | None = None, **extra) -> str:
        return url_for(endpoint, game=game, _anchor=anchor, **{**nav_state, **extra})

    def rule_url(rule_id: str | None) -> str:
        return link("rules.rules", anchor=rule_id) if rule_id else link("rules.rules")

    permalink = base + ("?" + cf.query_string(cf.query(state)) if cf.query(state) else "")
    ruling = response if response and response["valid"] else None
    next_items = cf.next_round_items(state, ruling) if ruling else None
    progress = None
    if ruling and ruling["rounds"][-1].get("progress"):
        progress = ruling["rounds"][-1]["progress"]
    first = cf.first_player(parsed.request["start"]["round"], rb) if parsed.request else "a"
    mover = first if len(state.log) % 2 == 0 else ("b" if first == "a" else "a")
    if progress:
        mover = progress["to_act"]
    actions_left = progress["actions_left"][mover] if progress else list(rb.actions)

    return render_template(
        "checker/checker.html",
        page="checker",
        game=the_game,
        rb=rb,
        terms=terms,
        options=options,
        state=nav_state,
        form=state,
        link=link,
        rule_url=rule_url,
        parsed=parsed,
        request_doc=parsed.request,
        response=response,
        ruling=ruling,
        progress=progress,
        mover=mover,
        actions_left=actions_left,
        refused=refused,
        field_errors=field_errors,
        names=names,
        permalink=permalink,
        base_url=base,
        next_url=base + "?" + cf.query_string(next_items) if next_items else None,
        undo_url=(base + "?" + cf.query_string(cf.query(state, log=state.log[:-1])))
        if state.mode == "log" and state.log else None,
        board_url=base + ("?" + cf.query_string(cf.query(state, mode="board"))
                          if cf.query(state, mode="board") else ""),
        log_url=base + "?" + cf.query_string(cf.query(state, mode="log")),
        log_entries=_log_entries(parsed, response, rb, terms, names) if state.mode == "log" else [],
        i18n=_i18n(rb, terms, names),
        format_number=format_number,
        ngettext=ngettext,
        notices=[],
        max_name=cf.MAX_NAME,
    )

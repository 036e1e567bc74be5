"""The finders, /<lang>/<game>/which: questions chosen from the rulebook's data, the
nearest ruleset (or edition) named, the remaining answers turned into options, and links
that open the checker and the rules with exactly those settings.

The property tests answer the finder with a ruleset's (an edition's) own values and must
get it back: for the shipped rulebooks, and for rulebooks hypothesis makes up (any number
of rulesets up to seven, any values), since a new ruleset must need no code.
"""
from __future__ import annotations

import copy
import re
from html import unescape
from itertools import combinations, product
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
import yaml
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rulebook.hanamikoji.model import DEFAULT_PATH as HANAMIKOJI_YAML
from rulebook.hanamikoji.model import build_rulebook as build_hanamikoji
from rulebook.i18n import LANGUAGES
from rulebook.koikoi.model import DEFAULT_PATH as KOIKOI_YAML
from rulebook.koikoi.model import build_rulebook as build_koikoi
from tests.budget import examples
from tests.rules.copies import LOADER
from webapp.games import GAMES
from webapp.games.finding import MAX_QUESTIONS, UNKNOWN, choose, nearest
from webapp.games.hanamikoji.finder import HanamikojiFinder
from webapp.games.koikoi.finder import NOT_PLAYED, KoikoiFinder
from webapp.games.koikoi.options import encode, parse_table

GAME_SLUGS = ("koikoi", "hanamikoji")
KOIKOI_DATA = yaml.load(Path(KOIKOI_YAML).read_text(encoding="utf-8"), Loader=LOADER)
HANAMIKOJI_DATA = yaml.load(Path(HANAMIKOJI_YAML).read_text(encoding="utf-8"), Loader=LOADER)


def html_of(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.get_data(as_text=True)


def hrefs(html: str, element_id: str) -> str:
    match = re.search(rf'id="{element_id}" href="([^"]+)"', html)
    assert match, element_id
    return unescape(match.group(1))


def query(url: str) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlsplit(url).query, keep_blank_values=True).items()}


def own_answers(finder, questions, candidate: str) -> dict[str, str]:
    """The query that answers every question with the candidate's own value."""
    out = {}
    for q in questions:
        value = q.values[candidate]
        if value is UNKNOWN:
            continue
        out[q.key] = next(a.token for a in q.answers if a.value == value)
    return out


@pytest.fixture()
def ctx(app):
    with app.test_request_context("/en/koikoi/which"):
        from flask import g
        g.lang = "en"
        yield


# -- the pages ----------------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAME_SLUGS)
def test_finder_page_asks_where_you_learned_and_at_most_six_questions(client, lang, game):
    html = html_of(client.get(f"/{lang}/{game}/which"))
    rb = GAMES[game].rulebook
    candidates = rb.rulesets if game == "koikoi" else rb.editions
    for cid in candidates:
        assert f'id="learned-{cid}" name="learned" value="{cid}"' in html
    questions = re.findall(r'<fieldset class="finder__question" id="q-\d+" data-key="([^"]+)"', html)
    assert 1 <= len(questions) <= MAX_QUESTIONS
    assert html.count('method="get"') >= 3  # both finder forms work without JavaScript
    assert f'<html lang="{lang}"' in html
    # every question offers "Not sure", checked until answered
    assert len(re.findall(r'id="q-\d+-unsure" name="[^"]+" value="" checked', html)) == len(questions)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_where_you_learned_opens_that_ruleset_everywhere(client, lang):
    html = html_of(client.get(f"/{lang}/koikoi/which?learned=fudawiki&house=Oma%27s+rules"))
    assert "FudaWiki" in html and 'id="result"' in html
    for element in ("result-checker", "result-rules", "result-aid"):
        link = query(hrefs(html, element))
        assert link == {"ruleset": "fudawiki", "house": "Oma's rules"}, (element, link)


def test_hanamikoji_box_names_the_edition(client, app):
    rb = GAMES["hanamikoji"].rulebook
    finder = HanamikojiFinder(rb, "en")
    with app.test_request_context("/en/hanamikoji/which"):
        asked = choose(finder.questions(), list(rb.editions))
    for edition in rb.editions.values():
        args = own_answers(finder, asked, edition.id)  # what the box says
        html = html_of(client.get("/en/hanamikoji/which", query_string=args))
        for element in ("result-checker", "result-rules", "result-aid"):
            # a link leaves out what is the default (the rules pages' format)
            chosen = query(hrefs(html, element)).get("edition", rb.default_edition)
            assert chosen == edition.id, (element, edition.id)


def test_answers_that_no_ruleset_gives_become_options_the_checker_applies(client, app):
    """Every answer Nintendo's but one option's, which no question needs to name Nintendo:
    the nearest is Nintendo, with that option set to the answer."""
    finder = KoikoiFinder(GAMES["koikoi"].rulebook, "en")
    with app.test_request_context("/en/koikoi/which"):
        asked = choose(finder.questions(), list(finder.rb.rulesets))
        answers = own_answers(finder, asked, "nintendo")
    key = next(q.key for q in asked if q.key.startswith("option."))
    option = key.removeprefix("option.")
    spec = finder.rb.options[option]
    other = next(v for v in (spec.choices or ()) if v != finder.rb.effective_options("nintendo")[option])
    answers[key] = encode(other)
    html = html_of(client.get("/en/koikoi/which", query_string=answers))
    link = hrefs(html, "result-checker")
    assert query(link).get(option) == encode(other)
    # the checker reads exactly that: ruleset and option in force
    table = parse_table(finder.rb, query(link))
    assert table.ruleset == "nintendo" and table.overrides == {option: other} and not table.errors
    assert f'data-key="{key}"' in html  # named among the options set


def test_a_value_no_option_changes_is_named_as_a_difference(client, app):
    """Two answers no ruleset gives together, one of them a fact no option sets (a yaku's
    points, two yaku scoring together): the page names the one the nearest ruleset does
    not share."""
    finder = KoikoiFinder(GAMES["koikoi"].rulebook, "en")
    with app.test_request_context("/en/koikoi/which"):
        asked = choose(finder.questions(), list(finder.rb.rulesets))
        combos = ({q.key: a for q, a in zip(qs, given)} for n in (2, 3)
                  for qs in combinations(asked, n)
                  for given in product(*(q.answers for q in qs)))
        found = next((result, c) for c in combos
                     if (result := nearest(finder, asked, c)).differences)
    (result, answers) = found
    html = html_of(client.get("/en/koikoi/which", query_string={
        key: a.token for key, a in answers.items()}))
    assert 'id="result-differences"' in html
    for q, _answer, _value in result.differences:
        assert f'data-key="{q.key}"' in html


def test_bad_answers_are_named_and_left_out(client):
    key = re.search(r'data-key="([^"]+)"', html_of(client.get("/de/koikoi/which"))).group(1)
    html = html_of(client.get(f"/de/koikoi/which?{key}=99&learned=nowhere"))
    assert html.count('class="notice"') == 2
    assert "99" in html and "nowhere" in html
    assert 'id="result"' not in html


def test_house_name_is_escaped(client):
    html = html_of(client.get('/en/koikoi/which?learned=nintendo&house=<b>"x"</b>'))
    assert "<b>" not in html and "&lt;b&gt;" in html


# -- the property: a ruleset's own answers give it back -------------------------------------
@pytest.mark.parametrize("ruleset", list(GAMES["koikoi"].rulebook.rulesets))
def test_own_values_give_the_ruleset_back_over_http(client, app, ruleset):
    finder = KoikoiFinder(GAMES["koikoi"].rulebook, "en")
    with app.test_request_context("/en/koikoi/which"):
        asked = choose(finder.questions(), list(finder.rb.rulesets))
        answers = own_answers(finder, asked, ruleset)
    html = html_of(client.get("/en/koikoi/which", query_string=answers))
    table = parse_table(finder.rb, query(hrefs(html, "result-checker")))
    assert table.ruleset == ruleset and table.overrides == {} and not table.errors
    assert 'id="result-differences"' not in html and 'id="result-changed"' not in html


def _synthetic_koikoi(draw) -> object:
    """The shipped Koi-Koi rulebook with 2 to 7 made-up rulesets (any values)."""
    data = KOIKOI_DATA
    templates = list(data["rulesets"].values())
    yaku = [y["id"] for y in data["yaku"]]
    switched = {y for spec in data["options"].values() for y in spec.get("switches", [])}
    count = draw(st.integers(min_value=2, max_value=7))
    rulesets = {}
    for n in range(count):
        values = {}
        for y in yaku:
            kind = draw(st.sampled_from(["absent", "points", "extra", "unknown"]))
            if kind == "points":
                values[y] = draw(st.integers(1, 15))
            elif kind == "extra":
                values[y] = {"points": draw(st.integers(1, 15)), "extra": True}
            elif kind == "unknown" and y not in switched:
                values[y] = "unknown"
        options = {}
        for key, spec in data["options"].items():
            if draw(st.booleans()):
                continue
            if "choices" in spec:
                options[key] = draw(st.sampled_from(spec["choices"]))
            else:
                options[key] = draw(st.integers(spec["integer"]["min"], spec["integer"]["max"]))
        # a shipped ruleset with made-up values: its rule, sources and the rest stay
        rulesets[f"r{n}"] = {**templates[n % len(templates)], "name": f"Ruleset {n}",
                             "values": values, "stacks": [], "options": options,
                             "provenance": {}}
    # every source the shipped rulesets name is still named (the rulebook checks it)
    named = [key for r in templates for key in r["sources"]]
    rulesets["r0"]["sources"] = list(dict.fromkeys(named))
    data = {**data, "rulesets": rulesets}
    data["default_ruleset"] = "r0"
    return build_koikoi(data, "synthetic")


@settings(max_examples=examples(160), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_own_values_give_the_ruleset_back_for_any_rulesets(ctx, data):
    rb = data.draw(st.composite(_synthetic_koikoi)())
    own_values_find_each(KoikoiFinder(rb, "en"), list(rb.rulesets))


def own_values_find_each(finder, ids: list[str]) -> None:
    """Every candidate answered with its own values (a fact no source gives left at "not
    sure") is named, with no option set and no difference, by at most six questions."""
    questions = finder.questions()
    # candidates that no question tells apart are one candidate for any finder
    assume(all(any(_apart(q, a, b) for q in questions) for i, a in enumerate(ids)
               for b in ids[i + 1:]))
    asked = choose(questions, ids)
    assert len(asked) <= MAX_QUESTIONS
    for candidate in ids:
        answers = {q.key: next(a for a in q.answers if a.value == q.values[candidate])
                   for q in asked if q.values[candidate] is not UNKNOWN}
        found = nearest(finder, asked, answers)
        assert found.candidate.id == candidate, (candidate, found.candidate.id)
        assert found.settings == {} and found.differences == []


def _apart(q, a, b) -> bool:
    va, vb = q.values[a], q.values[b]
    return va is not UNKNOWN and vb is not UNKNOWN and va != vb


def _synthetic_hanamikoji(draw) -> object:
    data = copy.deepcopy(HANAMIKOJI_DATA)
    template = copy.deepcopy(data["editions"])
    boxes = draw(st.lists(st.tuples(st.sampled_from(["Kosmos", "Iello", "EmperorS4", "Geekach"]),
                                    st.sampled_from(["en", "de", "fr", "uk", "it", "ko"]),
                                    st.one_of(st.none(), st.integers(2013, 2025))),
                          min_size=2, max_size=5, unique_by=lambda box: box))
    editions = {}
    for (key, edition), (publisher, language, year) in zip(template.items(), boxes):
        editions[key] = {**edition, "publisher": publisher, "language": language, "year": year}
    data["editions"] = editions
    data["default_edition"] = next(iter(editions))
    for edition in editions.values():  # an inferred chain names an edition still there
        if edition["round_limit"].get("inferred_from") not in (None, *editions):
            edition["round_limit"]["inferred_from"] = next(iter(editions))
    return build_hanamikoji(data, "synthetic")


@settings(max_examples=examples(160), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_box_gives_its_edition_back_for_any_editions(ctx, data):
    rb = data.draw(st.composite(_synthetic_hanamikoji)())
    own_values_find_each(HanamikojiFinder(rb, "en"), list(rb.editions))


def test_each_shipped_edition_is_found_from_its_box(ctx):
    rb = GAMES["hanamikoji"].rulebook
    finder = HanamikojiFinder(rb, "en")
    asked = choose(finder.questions(), list(rb.editions))
    assert {"box.publisher", "box.language", "box.year"} <= {q.key for q in asked}
    for edition in rb.editions:
        answers = {q.key: next(a for a in q.answers if a.value == q.values[edition])
                   for q in asked if q.values[edition] is not UNKNOWN}
        assert nearest(finder, asked, answers).candidate.id == edition


def test_questions_split_k_rulesets_with_k_minus_one_at_most(ctx):
    """The first questions each tell apart a pair nothing asked before tells apart."""
    finder = KoikoiFinder(GAMES["koikoi"].rulebook, "en")
    ids = list(finder.rb.rulesets)
    asked = choose(finder.questions(), ids, limit=len(ids) - 1)
    for i, a in enumerate(ids):
        for b in ids[i + 1:]:
            assert any(_apart(q, a, b) for q in asked), (a, b)


# -- options: a table that plays a ruleset with an option is found as such -----------------
def _variants(rb):
    """(ruleset, {option: value}) for every option value the referee accepts in a ruleset
    other than the ruleset's own (a number: the values some ruleset uses)."""
    used = {key: {rb.effective_options(r)[key] for r in rb.rulesets} for key in rb.options}
    for ruleset in rb.rulesets:
        own = rb.effective_options(ruleset)
        for key, spec in rb.options.items():
            offered = list(spec.choices) if spec.choices is not None else sorted(
                v for v in used[key] if v is not None)
            for value in offered + ([None] if spec.nullable else []):
                if rb.applies(ruleset, key) and value != own[key]:
                    yield ruleset, {key: value}


def table_answers(questions, candidate: str, settings: dict) -> dict:
    """Every question answered as a table playing the candidate with these options would."""
    out = {}
    for q in questions:
        value = q.value_at(candidate, settings)
        if value is not UNKNOWN:
            out[q.key] = next(a for a in q.answers if a.value == value)
    return out


def test_own_values_with_an_option_give_the_ruleset_and_the_option_back(ctx):
    """A table that plays a ruleset with one option (FudaWiki's older yaku, another match
    length...) answers as it plays: see `option_found`."""
    finder = KoikoiFinder(GAMES["koikoi"].rulebook, "en")
    rb = finder.rb
    asked = choose(finder.questions(), list(rb.rulesets))
    told = sum(option_found(finder, asked, ruleset, option) for ruleset, option in _variants(rb))
    assert told >= len(rb.rulesets)  # the older yaku, the match length... are told


@settings(max_examples=examples(80), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_own_values_with_an_option_give_them_back_for_any_rulesets(ctx, data):
    rb = data.draw(st.composite(_synthetic_koikoi)())
    finder = KoikoiFinder(rb, "en")
    variants = list(_variants(rb))
    assume(variants)
    ruleset, option = data.draw(st.sampled_from(variants))
    option_found(finder, choose(finder.questions(), list(rb.rulesets)), ruleset, option)


def test_a_viewing_played_where_the_ruleset_has_the_viewings_off_is_offered(ctx):
    """A ruleset that lists Moon Viewing at points of its own but plays the viewings off by
    default: a table playing it with the viewings on answers those points, so the points
    question offers them, and the finder names that ruleset with the viewings on
    (Hypothesis found it: before, the question offered only the other ruleset's points)."""
    data = KOIKOI_DATA
    template = next(iter(data["rulesets"].values()))
    named = [key for r in data["rulesets"].values() for key in r["sources"]]
    rulesets = {
        "r0": {**template, "name": "Ruleset 0", "values": {"tsukimi": 8}, "stacks": [],
               "options": {"viewings": "off"}, "provenance": {},
               "sources": list(dict.fromkeys(named))},
        "r1": {**template, "name": "Ruleset 1", "values": {"tsukimi": 1}, "stacks": [],
               "options": {}, "provenance": {}},
    }
    rb = build_koikoi({**data, "rulesets": rulesets, "default_ruleset": "r0"}, "synthetic")
    finder = KoikoiFinder(rb, "en")
    points = next(q for q in finder.questions() if q.key == "yaku.tsukimi")
    assert {a.value for a in points.answers} >= {8, 1, NOT_PLAYED}
    assert option_found(finder, choose(finder.questions(), list(rb.rulesets)), "r0",
                        {"viewings": "on"})


def option_found(finder, asked, ruleset: str, option: dict) -> bool:
    """Answer the asked questions as a table playing the ruleset with the option would;
    where an answer tells the option, the finder names a table that gives every one of
    those answers, with no difference: that ruleset with that option (or, where its own
    question was not asked, with options that answer alike), or a ruleset just as
    near (named beside it), or nearer: its own values need fewer options, or the sources
    leave one of the facts asked open for the ruleset played. Whether an answer told the option."""
    if finder.refused(ruleset, option):
        return False
    answers = table_answers(asked, ruleset, option)
    own = table_answers(asked, ruleset, {})
    if all(own.get(key) == answer for key, answer in answers.items()):
        return False  # no asked question tells this option
    found = nearest(finder, asked, answers)
    assert found.differences == [], (ruleset, option)
    for q in asked:
        if q.key in answers:
            assert q.value_at(found.candidate.id, found.settings) == answers[q.key].value, (
                ruleset, option, q.key)
    if found.candidate.id == ruleset:
        # that option; or, when its own question was not asked, any options that give the
        # same answer to every question asked (checked above): nothing asked tells them
        # apart (Flower Viewing switched off, or both viewings)
        asked_itself = any(f"option.{key}" in answers for key in option)
        assert found.settings == option or (not asked_itself and found.settings), (
            ruleset, option, found.settings)
    else:  # another ruleset is as near, or nearer: it gives these answers with fewer options
        played = nearest(finder, asked, answers, learned=ruleset)
        assert ruleset in {c.id for c in found.ties} or any(
            q.values[ruleset] is UNKNOWN for q in asked if q.key in answers) or (
            len(found.changed) < len(played.changed)), (ruleset, option, found.candidate.id)
    return True


@pytest.mark.rule("koikoi", "options.older-yaku", "yaku.best-in-group")
def test_older_yaku_is_found_from_two_yaku_that_both_score(client, app):
    """Nintendo's values, but Poetry Ribbons and Blue Ribbons both score (FudaWiki's older
    yaku): Nintendo with options.older-yaku, which the checker applies."""
    finder = KoikoiFinder(GAMES["koikoi"].rulebook, "en")
    with app.test_request_context("/en/koikoi/which"):
        asked = choose(finder.questions(), list(finder.rb.rulesets))
        answers = {key: a.token for key, a in
                   table_answers(asked, "nintendo", {"older_yaku": True}).items()}
    assert answers["together.akatan.aotan"] == "1"
    html = html_of(client.get("/en/koikoi/which", query_string=answers))
    table = parse_table(finder.rb, query(hrefs(html, "result-checker")))
    assert table.ruleset == "nintendo" and table.overrides == {"older_yaku": True}
    assert 'data-key="together.akatan.aotan"' in html and 'id="result-differences"' not in html
    # the option is named, which the answers about yaku do not say
    options = re.search(r'<p id="result-options">(.*?)</p>', html).group(1)
    assert "FudaWiki&#39;s older yaku" in options and "&amp;" not in options


@pytest.mark.parametrize("ruleset", list(GAMES["koikoi"].rulebook.rulesets))
@pytest.mark.rule("koikoi", "ruleset.compare")
def test_every_difference_the_comparison_shows_is_asked(ctx, ruleset):
    """Wherever the comparison page shows two rulesets' documented facts differ (a yaku's
    points, which yaku score together, an option), some question of the finder tells them
    apart, so the six asked can be chosen from all of them."""
    from webapp.games.koikoi import compare
    finder = KoikoiFinder(GAMES["koikoi"].rulebook, "en")
    rb, terms = finder.rb, finder.terms
    questions = finder.questions()
    for other in rb.rulesets:
        if other == ruleset:
            continue
        for key in rb.compared():
            if "unknown" in (rb.provenance(ruleset, key).basis, rb.provenance(other, key).basis):
                continue
            mine, theirs = (compare.cell(rb, terms, r, key)[0] for r in (ruleset, other))
            if mine != theirs and "unknown" not in (mine, theirs):
                assert any(_apart(q, ruleset, other) for q in questions), (key, ruleset, other)


def test_a_ruleset_just_as_near_opens_with_the_same_answers(client, app):
    """A table's answers that leave two rulesets as near (say Yakuza's with another match
    length, as near to Hanafuda Flash): the link to the other one keeps the answers, so it
    opens with its options set to them too."""
    finder = KoikoiFinder(GAMES["koikoi"].rulebook, "en")
    with app.test_request_context("/en/koikoi/which"):
        asked = choose(finder.questions(), list(finder.rb.rulesets))
        variants = [(r, o) for r, o in _variants(finder.rb) if not finder.refused(r, o)]
        for ruleset, option in variants:
            answers = table_answers(asked, ruleset, option)
            found = nearest(finder, asked, answers)
            if found.ties:
                break
        else:
            pytest.skip("no answers leave two rulesets as near")
    tokens = {key: a.token for key, a in answers.items()}
    html = html_of(client.get("/en/koikoi/which", query_string=tokens))
    tie = found.ties[0]
    link = re.search(r'<p class="finder-ties">.*?href="([^"]+)"', html, re.DOTALL)
    assert link, html
    args = query(unescape(link.group(1)))
    assert args == {"learned": tie.id, **tokens}
    html = html_of(client.get(urlsplit(unescape(link.group(1))).path, query_string=args))
    table = parse_table(finder.rb, query(hrefs(html, "result-checker")))
    assert table.ruleset == tie.id and 'id="result-differences"' not in html

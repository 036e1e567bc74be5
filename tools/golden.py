"""Rulings and pages byte for byte, before and after a change to the request path (issue 21).

A corpus of requests (pages of every type, checkers with boards, errors and button
presses, and JSON rulings of both games, in every language) is answered in-process by
`webapp.create_app()` with the repository's compiled catalogs, and each answer's status,
type and body are hashed. `tests/golden/answers.json` holds the hashes made from the
commit before the change (`python -m tools.golden --write`); `--check` (run by
tests/web/test_golden.py) answers the same corpus with today's code and names every answer
that differs. Static file names carry a hash of the file (`live.<hash>.js`): a changed
script must not count as a changed page, so those hashes are blanked before hashing.

When a page's content changes on purpose (a translation, a template), the file is made
again from the commit before the change to the request path, never from the change itself.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GOLDEN = ROOT / "tests" / "golden" / "answers.json"
LANGUAGES = ("en", "de", "uk", "es", "fr", "ja")
STATIC_HASH = re.compile(rb"(/static/[^\"'\s]+?\.)[0-9a-f]{12}(\.[A-Za-z0-9]+)")

HANAMIKOJI_QUERIES = (
    "",
    "a=2,1,0,2,2,0,1&b=0,1,2,0,0,2,3&na=Olena&nb=Jonas",
    "a=2,1,0,2,2,0,1&b=0,1,2,0,0,2,3",
    "na=J%C3%BCrgen",
    "a=2,2,2,0,0,0,2&b=0,0,0,3,3,2,0&na=Jonas&nb=Olena",
    "a=2,1,0,2,2,0,1&b=0,1,2,0,0,2,3&round=2&f0=a&f3=b",
    "a=0,2,99,x&b=1&round=q",
    "edition=geekach",
    "edition=xyz&simultaneous_goal=zz&a=2,1,0,2,2,0,1&b=0,1,2,0,0,2,3",
    "mode=log",
    "mode=log&na=A&nb=B&act=zz&removed=9",
    "a=2,1,0,2,2,0,1&b=0,1,2,0,0,2,2&check=1",
)
KOIKOI_QUERIES = (
    "",
    "a=0,2,8,10,28,30&winner=a&ka=0&kb=1&ruleset=nintendo",
    "a=0,2,8,10,28,30&winner=a&ka=0&kb=0",
    "a=0,2&b=8,10&winner=none&ka=0&kb=0&ruleset=nintendo",
    "a=0,1,2,3&winner=a&ka=0&kb=0&ruleset=fudawiki",
    "round=12&ta=30&tb=10&a=0,2,8,10,28,30&winner=a",
    "round=2&dealer=b&winner=none&a=0,2&ka=0&kb=0",
    "a=0,2,99,x&winner=q&ka=zz&kb=9&viewings=maybe&ruleset=poker",
    "ruleset=gamedesign&hand_yaku=1&winner=none",
    "b=0,2,8,10,28,30&winner=b&ka=1&kb=0",
)


def page_paths(languages: tuple[str, ...] = LANGUAGES) -> list[str]:
    paths = []
    for lang in languages:
        paths += [f"/{lang}/", f"/{lang}/hanamikoji/", f"/{lang}/koikoi/"]
        paths += [f"/{lang}/hanamikoji/score" + ("?" + q if q else "") for q in HANAMIKOJI_QUERIES]
        paths += [f"/{lang}/koikoi/score" + ("?" + q if q else "") for q in KOIKOI_QUERIES]
    return paths


def api_bodies(languages: tuple[str, ...] = LANGUAGES) -> list[tuple[str, str]]:
    """(path with ?lang=, JSON body) of score requests, valid and refused."""
    from tools.bench_referee import board_requests

    koikoi = [
        {"game": "koikoi", "rounds": [{"winner": "a", "captured": {"a": [0, 2, 8, 10, 28, 30]}}]},
        {"game": "koikoi", "rounds": [{"winner": None}] * 3},
        {"game": "koikoi", "rounds": [{"winner": "b", "captured": {"b": [0, 4, 8, 12]},
                                       "koikoi": {"a": 1}}], "ruleset": "nintendo"},
        {"game": "koikoi", "rounds": [{"winner": None, "captured": {"a": [48, 0, 1]}}]},
        {"game": "koikoi", "rounds": [{"winner": "a", "captured": {"a": [0, 1]}}]},
    ]
    hanamikoji = [json.loads(body) for body in board_requests(12)]
    hanamikoji.append({"game": "hanamikoji", "rounds": [{"board": {"a": [9] * 7}}]})
    out = []
    for lang in languages:
        out += [(f"/api/v1/hanamikoji/score?lang={lang}", json.dumps(d)) for d in hanamikoji]
        out += [(f"/api/v1/koikoi/score?lang={lang}", json.dumps(d)) for d in koikoi]
    return out


def digest(status: int, mimetype: str, body: bytes) -> str:
    body = STATIC_HASH.sub(rb"\1-\2", body)
    return hashlib.sha256(f"{status} {mimetype}\n".encode() + body).hexdigest()


# the language of an answer's key: a page's first folder, a ruling's ?lang=
KEY_LANGUAGE = re.compile(r"^GET /(\w+)/|^POST \S*[?&]lang=(\w+)")


def key_language(key: str) -> str | None:
    found = KEY_LANGUAGE.search(key)
    return (found.group(1) or found.group(2)) if found else None


def answers(languages: tuple[str, ...] = LANGUAGES) -> dict[str, str]:
    os.environ.setdefault("SHINPAN_ACCESS_LOG", "0")
    from webapp import create_app

    client = create_app().test_client()
    out = {}
    for path in page_paths(languages):
        r = client.get(path)
        out["GET " + path] = digest(r.status_code, r.mimetype or "", r.data)
    for path, body in api_bodies(languages):
        r = client.post(path, data=body, content_type="application/json")
        out["POST " + path + " " + body] = digest(r.status_code, r.mimetype or "", r.data)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"write {GOLDEN.relative_to(ROOT)}")
    parser.add_argument("--check", action="store_true", help="compare with it (exit 1 if not)")
    parser.add_argument("--lang", choices=LANGUAGES, action="append",
                        help="check only the answers in this language (repeatable)")
    args = parser.parse_args(argv)
    if args.write and args.lang:
        parser.error("--write makes the whole corpus: leave out --lang")
    languages = tuple(args.lang or LANGUAGES)
    now = answers(languages)
    if args.write:
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_text(json.dumps(now, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
        print(f"{len(now)} answers written to {GOLDEN}")
        return 0
    before = {key: digest for key, digest in json.loads(GOLDEN.read_text()).items()
              if key_language(key) in languages}
    differ = sorted(key for key in before if now.get(key) != before[key])
    missing = sorted(set(now) ^ set(before))
    for key in differ:
        print("differs:", key)
    for key in missing:
        print("not in both corpora:", key)
    print(f"{len(before) - len(differ)} of {len(before)} answers byte-identical")
    return 1 if differ or missing else 0


if __name__ == "__main__":
    sys.exit(main())

"""`make bench`: referee throughput, measured as ratios in one run.

These machines are shared and noisy, so absolute numbers drift; the ratio to a
`json.loads` + `json.dumps` round trip of the same requests, measured in the same
run, is the honest figure.
"""
from __future__ import annotations

import json
import random
import statistics
import time

from rulebook import jsonio
from rulebook.hanamikoji.referee import referee

LOG = [
    {"player": "a", "action": "secret", "cards": ["ruri"]},
    {"player": "b", "action": "tradeoff", "cards": ["ayane", "iroha"]},
    {"player": "a", "action": "gift", "cards": ["ruri", "ruri", "anju"], "taken": "anju"},
    {"player": "b", "action": "competition", "cards": [["anju", "anju"], ["yoko", "tomoyo"]], "taken": 0},
    {"player": "a", "action": "competition", "cards": [["yoko", "yoko"], ["chiharu", "tomoyo"]], "taken": 1},
    {"player": "b", "action": "secret", "cards": ["ruri"]},
    {"player": "a", "action": "tradeoff", "cards": ["ayane", "iroha"]},
    {"player": "b", "action": "gift", "cards": ["chiharu", "chiharu", "anju"], "taken": "chiharu"},
]


def board_requests(count: int, seed: int = 7) -> list[str]:
    """Valid one-round board requests with varied boards, as JSON text."""
    rng = random.Random(seed)
    cards = [g for g, n in zip(range(7), (2, 2, 2, 3, 3, 4, 5)) for _ in range(n)]
    out = []
    for _ in range(count):
        deck = cards[:]
        rng.shuffle(deck)
        board = {"a": [0] * 7, "b": [0] * 7}
        for c in deck[:8]:
            board["a"][c] += 1
        for c in deck[8:16]:
            board["b"][c] += 1
        out.append(json.dumps({"game": "hanamikoji", "rounds": [{"board": board}]}))
    return out


def koikoi_requests(count: int, seed: int = 7) -> list[str]:
    """Valid one-round Koi-Koi requests (Nintendo's ruleset): captures come in pairs of a
    month, so each month's four cards go two by two to a pile or stay on the table; won by
    whoever has a yaku (a drawn round when neither has one)."""
    from rulebook.referee import referee as any_referee

    rng = random.Random(seed)
    out: list[str] = []
    while len(out) < count:
        piles: dict[str, list[int]] = {"a": [], "b": []}
        for month in range(12):
            cards = [4 * month + i for i in range(4)]
            rng.shuffle(cards)
            for pair in (cards[:2], cards[2:]):
                side = rng.choice(("a", "b", None, None))
                if side:
                    piles[side] += pair
        piles = {p: sorted(cards) for p, cards in piles.items()}
        for winner in ("a", "b", None):
            document = {"game": "koikoi", "ruleset": "nintendo",
                        "rounds": [{"winner": winner, "captured": piles}]}
            if any_referee(document, "en")["valid"]:
                out.append(json.dumps(document))
                break
    return out


def log_requests(count: int) -> list[str]:
    return [json.dumps({"game": "hanamikoji", "rounds": [{"actions": LOG}]})] * count


def rate(func, payloads: list[str], repeat: int = 5) -> float:
    """Best of `repeat` runs, in requests per second."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for text in payloads:
            func(text)
        best = min(best, time.perf_counter() - start)
    return len(payloads) / best


def median_us(func, payloads: list, repeat: int = 9) -> float:
    """Median of `repeat` runs over every payload, in microseconds of this process's CPU per
    payload (CPU time: on a shared machine the wall clock also counts the other processes)."""
    runs = []
    for _ in range(repeat):
        start = time.process_time()
        for payload in payloads:
            func(payload)
        runs.append((time.process_time() - start) / len(payloads) * 1e6)
    return statistics.median(runs)


def koikoi_check_us(count: int = 500) -> tuple[float, float]:
    """The Koi-Koi request check (rulebook/koikoi/request.py: reading every field, the
    piles' cards and months, each round's yaku as the checks need them) and the whole
    referee (check + scoring + explanation), per one-round request, over `count` different
    valid requests, each once per run (nothing is kept between requests); medians of 9 runs."""
    from rulebook.koikoi.model import load_rulebook
    from rulebook.koikoi.referee import referee as koikoi_referee
    from rulebook.koikoi.request import RequestCheck

    rb = load_rulebook()
    documents = [json.loads(text) for text in koikoi_requests(count)]

    def check(document: dict) -> None:
        assert RequestCheck(rb, "en").run(document) is not None

    return median_us(check, documents), median_us(lambda d: koikoi_referee(d, "en"), documents)


def json_only(text: str) -> str:
    return json.dumps(json.loads(text))


def scored(text: str) -> str:
    response = referee(json.loads(text))
    assert response["valid"], response
    return json.dumps(response)


def main() -> None:
    print("Referee benchmark (one core, best of 5, one round per request)")
    print("  'referee' = validate + score + explain a parsed request; 'with JSON' adds")
    print("  json.loads of the request and json.dumps of the response; the ratio compares")
    print("  'with JSON' to a bare json.loads + json.dumps of the same requests.")
    for label, payloads in (("board mode", board_requests(2000)), ("action-log mode", log_requests(2000))):
        parsed = [json.loads(text) for text in payloads]
        core = rate(referee, parsed)
        baseline = rate(json_only, payloads)
        full = rate(scored, payloads)
        print(f"  {label:16s} referee {1e6 / core:6.1f} us/round ({core:7.0f}/s)   "
              f"with JSON {1e6 / full:6.1f} us ({full:7.0f}/s)   "
              f"json only {1e6 / baseline:5.1f} us   ratio {full / baseline:.3f}")
    check, whole = koikoi_check_us()
    print(f"  Koi-Koi          request check {check:6.1f} us/round (median of 9; target <= 25)   "
          f"referee {whole:6.1f} us/round (check + scoring + explanation)")
    answers = [referee(json.loads(text)) for text in board_requests(2000)]
    stdlib = rate(lambda a: json.dumps(a, ensure_ascii=False, separators=(",", ":")).encode(),
                  answers)
    fast = rate(jsonio.dumps, answers)
    same = all(jsonio.dumps(a) == json.dumps(a, ensure_ascii=False, separators=(",", ":")).encode()
               for a in answers)
    print(f"  response JSON    json.dumps {1e6 / stdlib:5.1f} us, orjson (rulebook/jsonio) "
          f"{1e6 / fast:5.1f} us per one-round answer; byte-identical: {'yes' if same else 'NO'}")


if __name__ == "__main__":
    main()

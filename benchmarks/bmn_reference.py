"""Straightforward string-based Beggar-My-Neighbour reference simulator.

Deliberately naive (packs are Python strings, one loop iteration per card) so it
can serve both as an independent oracle for the engine and as a speed baseline.

Rules (two players, A plays first):
  * a number card ('-') passes the turn;
  * a pay card (J=1, Q=2, K=3, A=4) makes the other player pay up to that many
    cards; a pay card among them switches roles (the payer becomes the challenger);
  * if all owed cards are paid without a pay card, the challenger takes the pile
    (put under their pack, first-played card first out) and leads the next trick;
  * ``cards`` counts cards played, ``tricks`` counts piles taken;
  * the game ends as soon as one player holds every card: when a pile is taken and
    the other player has no cards, or when the player due to play or pay has no
    cards -- then the other player takes the pile as a last (counted) trick;
  * loop detection at the start of each trick: (pack A, pack B, leader) seen
    before -> status "loop" (cards/tricks are the totals played up to that point).

Usage:
  python benchmarks/bmn_reference.py A B        # prints {"status","cards","tricks"}
  python benchmarks/bmn_reference.py --check    # compare with tools/harness/bmn_published.json
  python benchmarks/bmn_reference.py --bench    # cards/s on the longest published deal
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

PAY = {"J": 1, "Q": 2, "K": 3, "A": 4}
DATA = Path(__file__).resolve().parent.parent / "tools" / "harness" / "bmn_published.json"


def play(a: str, b: str) -> dict:
    """Play the deal (a, b) -- top card first -- and return status/cards/tricks."""
    packs = [a, b]
    leader = 0
    cards = 0
    tricks = 0
    seen = set()
    while True:
        state = (packs[0], packs[1], leader)
        if state in seen:
            return {"status": "loop", "cards": cards, "tricks": tricks}
        seen.add(state)

        pile = ""
        turn = leader
        owed = 0  # cards still owed to the challenger; 0 = no pay card pending
        challenger = -1
        while True:
            pack = packs[turn]
            if not pack:
                # The player due to play or pay is out: the other takes the pile.
                packs[1 - turn] += pile
                tricks += 1
                return {"status": "finished", "cards": cards, "tricks": tricks}
            card = pack[0]
            packs[turn] = pack[1:]
            pile += card
            cards += 1
            if card in PAY:
                owed = PAY[card]
                challenger = turn
                turn = 1 - turn
            elif owed:
                owed -= 1
                if owed == 0:
                    packs[challenger] += pile
                    tricks += 1
                    leader = challenger
                    if not packs[1 - challenger]:
                        return {"status": "finished", "cards": cards, "tricks": tricks}
                    break
            else:
                turn = 1 - turn


def _load_published() -> list[dict]:
    return json.loads(DATA.read_text())


def check() -> int:
    """Compare play() with every published deal; return the number of mismatches."""
    bad = 0
    for deal in _load_published():
        got = play(deal["a"], deal["b"])
        want = {k: deal[k] for k in ("status", "cards", "tricks")}
        ok = got == want
        bad += not ok
        print(f"{'ok  ' if ok else 'DIFF'} {deal['name']:<28} got={got} published={want}")
    return bad


def bench(target_seconds: float = 1.0) -> float:
    """Cards played per second on the longest published finished deal."""
    finished = [d for d in _load_published() if d["status"] == "finished"]
    deal = max(finished, key=lambda d: d["cards"])
    a, b = deal["a"], deal["b"]
    per_game = play(a, b)["cards"]
    reps = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < target_seconds:
        play(a, b)
        reps += 1
        elapsed = time.perf_counter() - start
    rate = reps * per_game / elapsed
    print(
        json.dumps(
            {
                "deal": deal["name"],
                "cards_per_game": per_game,
                "games": reps,
                "seconds": round(elapsed, 3),
                "cards_per_second": round(rate),
            }
        )
    )
    return rate


def main(argv: list[str]) -> int:
    if argv[:1] == ["--"]:  # allow `-- A B` for deals that start with '-'
        argv = argv[1:]
    elif argv == ["--bench"]:
        bench()
        return 0
    elif argv == ["--check"]:
        return 1 if check() else 0
    if len(argv) == 2:
        print(json.dumps(play(argv[0], argv[1])))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

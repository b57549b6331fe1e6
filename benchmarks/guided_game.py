#!/usr/bin/env python3
"""The guided first game (practice, slow CPUs, three strikes) against human-like players of several speeds:
how often they win, the share of slapped piles they take, and how long they sit with no cards (issue 21: a
650-780 ms player must not watch for minutes). Printed side by side, one row per median reaction.

    nice python benchmarks/guided_game.py [--seeds 200] [--medians 550,650,700,780,850]

The player is tests/players.py's HumanLikePlayer (lognormal reactions around the median, ~10% of patterns
missed, a near miss slapped now and then, flips ~400 ms after its turn shows). Every row plays the same deals.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from players import HumanLikePlayer, play  # noqa: E402

from ewar.game import Game  # noqa: E402

GUIDED = {"speed": "slow", "lenient": True}  # web/js/app/games.js: GUIDED


def one_game(seed: int, median_ms: int) -> dict:
    """One guided game: won, your share of slapped piles, your longest and total stretch with no cards (ms)."""
    game = Game(seed, **GUIDED)
    events: list[dict] = []
    play(
        game,
        HumanLikePlayer(median_ms, seed * 7919 + median_ms),
        lambda g: events.extend(g.take_events()),
    )
    events.extend(game.take_events())
    slapped = [e for e in events if e["type"] == "slap_won"]
    yours = sum(1 for e in slapped if e["seat"] == "south")
    out_since = None
    stretches = []
    for e in events:
        if e.get("seat") != "south":
            continue
        if e["type"] == "player_out":
            out_since = e["t"]
        elif e["type"] in ("player_back", "player_eliminated") and out_since is not None:
            stretches.append(e["t"] - out_since)
            out_since = None
    end = game.view()["clock"]
    if out_since is not None:  # out of cards at the end (the rest played out for you)
        stretches.append(end - out_since)
    return {
        "won": game.view()["result"]["won"],
        "share": yours / len(slapped) if slapped else 0.0,
        "longest_out": max(stretches, default=0),
        "out": sum(stretches),
        "duration": end,
    }


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--seeds", type=int, default=200)
    options.add_argument("--medians", default="550,650,700,780,850")
    args = options.parse_args()
    medians = [int(value) for value in args.medians.split(",")]
    print(f"guided game ({GUIDED}), {args.seeds} deals per row")
    print(
        f"{'median':>8}{'won':>8}{'piles slapped':>15}{'longest with no cards':>24}{'no cards, share':>17}"
    )
    for median in medians:
        games = [one_game(seed, median) for seed in range(args.seeds)]
        won = sum(g["won"] for g in games) / len(games)
        share = statistics.mean(g["share"] for g in games)
        longest = sorted(g["longest_out"] for g in games)
        p90 = longest[int(0.9 * (len(longest) - 1))] / 1000
        out_share = sum(g["out"] for g in games) / sum(g["duration"] for g in games)
        print(
            f"{median:>6}ms{won:>8.0%}{share:>15.0%}"
            f"{statistics.median(longest) / 1000:>13.1f} s (p90 {p90:4.0f} s){out_share:>12.0%}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

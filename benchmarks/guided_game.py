#!/usr/bin/env python3
"""The guided first game (practice, slow CPUs, three strikes) against human-like players of several speeds:
how often they win, the share of slapped piles they take, and how long they sit with no cards (issue 21: a
650-780 ms player must not watch for minutes). Printed side by side, one row per median reaction.

    nice python benchmarks/guided_game.py [--seeds 200] [--medians 700,900] [--models lognormal,exgauss]

The player is tools/harness/players.py's HumanLikePlayer (lognormal reactions around the median, ~10% of patterns
missed, a near miss slapped now and then, flips ~400 ms after its turn shows), its taps unstoppable in their
last 200 ms. Every row plays the same deals.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from ewar.game import Game  # noqa: E402
from tools.harness.players import ExGaussianPlayer, HumanLikePlayer, play  # noqa: E402

GUIDED = {"speed": "slow", "lenient": True}  # web/js/app/games.js: GUIDED
MODELS = {"lognormal": HumanLikePlayer, "exgauss": ExGaussianPlayer}
COMMIT_MS = 200  # a newcomer's tap cannot be stopped in its last 200 ms either (issue 30)


def one_game(seed: int, median_ms: int, model: str = "lognormal") -> dict:
    """One guided game: won, eliminated, your share of slapped piles, your longest and total stretch with no
    cards (ms)."""
    game = Game(seed, **GUIDED)
    events: list[dict] = []
    play(
        game,
        MODELS[model](median_ms, seed * 7919 + median_ms, commit_ms=COMMIT_MS),
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
        "eliminated": game.outcome.reason == "eliminated",
        "share": yours / len(slapped) if slapped else 0.0,
        "longest_out": max(stretches, default=0),
        "out": sum(stretches),
        "duration": end,
    }


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--seeds", type=int, default=200)
    options.add_argument("--medians", default="700,900")
    options.add_argument("--models", default=",".join(MODELS))
    args = options.parse_args()
    medians = [int(value) for value in args.medians.split(",")]
    print(
        f"guided game ({GUIDED}), {args.seeds} deals per row, taps committed in their last {COMMIT_MS} ms"
    )
    print(
        f"{'model':>10}{'median':>8}{'won':>6}{'eliminated':>12}{'piles slapped':>15}"
        f"{'longest with no cards: median, p90, max':>42}{'no cards, share':>17}"
    )
    for model in args.models.split(","):
        for median in medians:
            games = [one_game(seed, median, model) for seed in range(args.seeds)]
            won = sum(g["won"] for g in games) / len(games)
            eliminated = sum(g["eliminated"] for g in games)
            share = statistics.mean(g["share"] for g in games)
            longest = sorted(g["longest_out"] for g in games)
            p90 = longest[int(0.9 * (len(longest) - 1))] / 1000
            out_share = sum(g["out"] for g in games) / sum(g["duration"] for g in games)
            print(
                f"{model:>10}{median:>6}ms{won:>6.0%}{eliminated:>8} of {len(games)}{share:>15.0%}"
                f"{statistics.median(longest) / 1000:>24.1f} s, {p90:4.0f} s, {longest[-1] / 1000:4.0f} s"
                f"{out_share:>12.0%}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())

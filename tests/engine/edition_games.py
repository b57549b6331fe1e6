"""Dailies played by human-like players on whichever engine comes first on the path, as JSON, so a
test can set the kept 3.1.0 wheel (netlify/engines/) beside the checkout's engine.

    PYTHONPATH=WHEEL:. python tests/engine/edition_games.py 2026-12-05 2026-12-07 ...

prints {"engine_version", "games": [{"date", "median_ms", "seed", "replay", "outcome"}...]}: each date
played by players of 450, 650 and 900 ms whose taps are unstoppable in their last 200 ms (the taps that
land just after a card covers a pattern, where the editions' rules differ).
"""

from __future__ import annotations

import json
import sys

from ewar import __version__
from ewar.game import Game
from ewar.replay import Replay
from tools.harness.players import HumanLikePlayer, play

PLAYERS = ((450, 11), (650, 12), (900, 13))


def outcome_of(game: Game) -> dict:
    outcome = game.outcome
    return {
        "reason": str(outcome.reason.value),
        "duration_ms": outcome.duration_ms,
        "score": outcome.score.total,
        "wrong_slaps": game.wrong_slaps,
        "late_slaps": game.late_slaps,
    }


def games(dates: list[str]) -> list[dict]:
    found = []
    for date in dates:
        for median_ms, seed in PLAYERS:
            game = play(Game.daily(date), HumanLikePlayer(median_ms, seed, commit_ms=200))
            found.append(
                {
                    "date": date,
                    "median_ms": median_ms,
                    "seed": seed,
                    "replay": Replay.of(game).to_dict(),
                    "outcome": outcome_of(game),
                }
            )
    return found


if __name__ == "__main__":
    print(json.dumps({"engine_version": __version__, "games": games(sys.argv[1:])}))

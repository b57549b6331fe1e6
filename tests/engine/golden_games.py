"""Golden games: a few pinned deals played by scripted players, with a digest of each whole
event stream, so that any change in the rules' outcome shows at once.

    python tests/engine/golden_games.py          # rewrite tests/engine/data/golden_games.json

Regenerate only for a deliberate change of behaviour, together with a new engine version
(``ewar/__init__.py``): replays of the old version then stop being accepted, as they must.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a script: the checkout's engine and test helpers first
    sys.path[:0] = [
        str(Path(__file__).resolve().parents[2]),
        str(Path(__file__).resolve().parents[1]),
    ]

from ewar import __version__
from ewar.errors import GameOverError, NotYourTurnError
from ewar.game import Game
from ewar.rng import Rng
from tools.harness.players import play_simulated_human

DATA = Path(__file__).resolve().parent / "data" / "golden_games.json"
REGENERATE = "python tests/engine/golden_games.py"

# (name, how to make the game, player, its setting)
CASES = [
    ("exact-slow-1", lambda: Game(1, speed="slow"), "exact", 380),
    ("exact-normal-2", lambda: Game(2, speed="normal"), "exact", 330),
    ("exact-fast-3", lambda: Game(3, speed="fast"), "exact", 260),
    # the 3.1.0 edition's daily (ewar/editions.py): pinned as engine 3.1.0 played it, digest and all
    ("exact-daily-2026-11-30", lambda: Game.daily("2026-11-30"), "exact", 300),
    # the 4.0.0 edition's first date (its deal kept when the later dates were chosen again)
    ("exact-daily-2026-12-08", lambda: Game.daily("2026-12-08"), "exact", 300),
    ("careless-normal-4-lenient", lambda: Game(4, speed="normal", lenient=True), "careless", 4),
    ("careless-fast-5", lambda: Game(5, speed="fast"), "careless", 5),
]


def careless_play(game: Game, seed: int) -> Game:
    """A careless human drawn from the engine's own generator (fixed for ever, unlike
    ``random``'s): flips after a random delay, slaps at random moments."""
    rng = Rng.from_seed(seed)
    while not game.over:
        upcoming = game.next_event_time()
        roll = rng.below(100)
        try:
            if game.human_must_flip and (upcoming is None or roll < 70):
                game.flip(game.clock + rng.below(900))
            elif roll < 8:
                game.slap(game.clock + rng.below(600))
            else:
                game.advance_to(game.clock + 1000 if upcoming is None else upcoming + 1)
        except (NotYourTurnError, GameOverError):
            game.advance_to(game.clock + 1)  # the game moved on before the action
    return game


def play(make, player: str, setting: int) -> Game:
    if player == "exact":
        return play_simulated_human(make(), reaction_ms=setting, flip_ms=300)
    return careless_play(make(), setting)


def digest(events: list[dict]) -> str:
    text = json.dumps(events, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()


def golden_game(name: str, make, player: str, setting: int) -> dict:
    """What is pinned of one game: its deal, outcome and a digest of every event."""
    game = play(make, player, setting)
    events = game.take_events()
    outcome = game.outcome
    return {
        "name": name,
        "seed": game.seed,
        "speed": game.speed,
        "lenient": game.lenient,
        "deal": str(game.deal),
        "player": player,
        "setting": setting,
        "actions": len(game.actions),
        "outcome": {
            "reason": outcome.reason,
            "duration_ms": outcome.duration_ms,
            "score": outcome.score.total,
        },
        "events": len(events),
        "events_sha256": digest(events),
    }


def golden_games() -> dict:
    """The golden file's content, as this engine plays it."""
    return {
        "engine_version": __version__,
        "regenerate": REGENERATE,
        "games": [golden_game(*case) for case in CASES],
    }


def main() -> int:
    DATA.write_text(json.dumps(golden_games(), indent=1) + "\n")
    print(f"wrote {DATA} (engine {__version__}, {len(CASES)} games)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

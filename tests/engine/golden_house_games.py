"""Golden games of the house rules: one pinned deal for each house rule and one with them all,
played by the scripted players of ``golden_games.py``, with a digest of each whole event stream.

    python tests/engine/golden_house_games.py    # rewrite tests/engine/data/golden_house_games.json

Regenerate only for a deliberate change of behaviour, together with a new engine version.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a script: the checkout's engine and test helpers first
    sys.path[:0] = [
        str(Path(__file__).resolve().parents[2]),
        str(Path(__file__).resolve().parents[1]),
    ]

from golden_games import golden_game

from ewar import __version__
from ewar.game import Game
from ewar.house_rules import HOUSE_RULES

DATA = Path(__file__).resolve().parent / "data" / "golden_house_games.json"
REGENERATE = "python tests/engine/golden_house_games.py"


def _case(index: int, rules: tuple[str, ...], speed: str, player: str, setting: int):
    name = f"{player}-{speed}-{index}-{'+'.join(rules)}"
    return name, lambda: Game(index, speed=speed, house_rules=rules), player, setting, rules


# (name, how to make the game, player, its setting, the house rules)
CASES = [
    _case(31, ("top_and_bottom",), "normal", "exact", 330),
    _case(32, ("tens",), "fast", "exact", 280),
    _case(37, ("four_in_a_row",), "slow", "exact", 380),
    _case(35, ("marriage",), "normal", "exact", 310),
    _case(35, ("divorce",), "fast", "exact", 300),
    _case(36, ("jokers",), "normal", "exact", 350),
    _case(39, HOUSE_RULES, "normal", "exact", 290),
    _case(38, HOUSE_RULES, "slow", "exact", 400),
]


def golden_house_game(name: str, make, player: str, setting: int, rules) -> dict:
    """What is pinned of one game: that of ``golden_game`` and the house rules it was played with."""
    return {**golden_game(name, make, player, setting), "house_rules": list(rules)}


def golden_house_games() -> dict:
    """The golden file's content, as this engine plays it."""
    return {
        "engine_version": __version__,
        "regenerate": REGENERATE,
        "games": [golden_house_game(*case) for case in CASES],
    }


def main() -> int:
    DATA.write_text(json.dumps(golden_house_games(), indent=1) + "\n")
    print(f"wrote {DATA} (engine {__version__}, {len(CASES)} games)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

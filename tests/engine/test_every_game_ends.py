"""Every game ends (docs/rules.md "The end"): seeded games with a simulated player in the human's seat
all finish within the time limit, with all 52 cards on the table after every single happening.

This is a fast sample of 300 games; `python benchmarks/engine_every_game_ends.py` plays 10,000.
"""

from ewar.cpu import SPEEDS
from ewar.game import TIME_LIMIT_MS, Game
from tools.harness.players import mixed_pace_player, play

SAMPLE = range(300)


def all_cards_on_the_table(game: Game) -> None:
    assert game.table.card_count() == 52


def test_a_sample_of_seeded_games_all_end_with_52_cards_on_the_table():
    reasons = {}
    for seed in SAMPLE:
        game = play(
            Game(seed, speed=SPEEDS[seed % 3]), mixed_pace_player(seed), all_cards_on_the_table
        )
        assert game.outcome.duration_ms <= TIME_LIMIT_MS
        reasons[game.outcome.reason] = reasons.get(game.outcome.reason, 0) + 1
    assert sum(reasons.values()) == len(SAMPLE)
    assert reasons.get("won", 0) > 0 and reasons.get("cpu_won", 0) > 0


def test_a_human_who_sits_out_still_sees_the_game_end():
    for seed in range(200):
        game = Game(seed, speed="normal")
        game.advance_to(TIME_LIMIT_MS + 1)
        assert game.over
        assert game.table.card_count() == 52
        if game.outcome.reason == "time_limit":
            counts = [len(pack) for pack in game.table.packs]
            assert counts[game.outcome.winner] == max(counts)

"""Every game ends: 10,000 seeded games with a bot in the human's seat all finish,
with all 52 cards on the table after every single happening."""

from players import next_human_action

from ewar.game import TIME_LIMIT_MS, Game

GAMES = 10_000
SPEEDS = ("slow", "normal", "fast")


def play_checking_cards(game: Game, reaction_ms: int) -> Game:
    slapped = None
    steps = 0
    while not game.over:
        plan = next_human_action(game, reaction_ms, 250, slapped)
        upcoming = game.next_event_time()
        if plan is not None and (upcoming is None or plan[0] <= upcoming):
            if plan[1] == "s":
                slapped = game.last_flip_ms
                game.slap(plan[0], atomic=False)
            else:
                game.flip(plan[0], atomic=False)
        else:
            game.advance_to(upcoming + 1)
        assert game.table.card_count() == 52
        steps += 1
        assert steps < 200_000
    return game


def test_ten_thousand_bot_games_all_end_with_52_cards_on_the_table():
    reasons = {}
    for seed in range(GAMES):
        game = play_checking_cards(Game(seed, speed=SPEEDS[seed % 3]), 250 + (seed * 37) % 450)
        assert game.outcome.duration_ms <= TIME_LIMIT_MS
        reasons[game.outcome.reason] = reasons.get(game.outcome.reason, 0) + 1
    assert sum(reasons.values()) == GAMES
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

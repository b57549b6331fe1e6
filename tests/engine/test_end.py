"""The end (docs/rules.md "The end"): a player holding all 52 cards wins; for the human the game ends
when they win, are eliminated, or a computer player has won; and every game ends."""

from __future__ import annotations

import random

import pytest
from support import (
    EAST,
    NORTH,
    SOUTH,
    WEST,
    events_of,
    make_game,
    make_table,
    random_human,
    run_until,
)

from ewar.cards import card_name, full_deck
from ewar.errors import GameOverError
from ewar.game import TIME_LIMIT_MS, Ending, Game
from tools.harness.players import play_simulated_human

ALL_BUT_7C_7D = " ".join(card_name(c) for c in full_deck() if card_name(c) not in ("7C", "7D"))


def human_wins_game(**settings) -> Game:
    """South holds 51 cards and flips 7C; West flips its only card, 7D; South slaps."""
    game = make_game("7C " + ALL_BUT_7C_7D, "7D", "", "", first=SOUTH, **settings)
    game.flip(100)
    run_until(game, lambda g: g.table.pattern() is not None)
    game.slap(game.clock)
    return game


class TestAllTheCardsWin:
    """A player who holds all the cards wins."""

    def test_taking_the_last_cards_wins_on_the_table(self):
        table = make_table("7C 2C", "7D", "", "")
        table.flip()
        table.flip()
        table.slap(NORTH)
        assert table.winner is None  # South still holds 2C
        table = make_table("7C", "7D", "", "")
        table.flip()
        table.flip()
        table.slap(NORTH)
        assert table.winner == NORTH and table.turn is None

    def test_the_human_holding_all_52_cards_wins(self):
        game = human_wins_game()
        assert game.over
        assert game.outcome.won and game.outcome.winner == SOUTH and game.outcome.reason == "won"
        view = game.view()
        assert view["seats"][0]["cards"] == 52 and view["over"]
        assert view["result"]["won"] is True and view["result"]["winner"] == "south"
        over = events_of(game.take_events(), "game_over")
        assert over == [
            {
                "t": game.clock,
                "type": "game_over",
                "won": True,
                "winner": "south",
                "score": view["result"]["score"],
                "reason": "won",
            }
        ]

    def test_a_computer_player_holding_all_52_cards_ends_the_game(self):
        game = make_game("", ALL_BUT_7C_7D, "7C", "7D", first=WEST)
        run_until(game, lambda g: g.over)
        outcome, view = game.outcome, game.view()
        assert outcome.reason == "cpu_won" and not outcome.won
        assert outcome.winner in (WEST, NORTH, EAST)
        assert view["seats"][outcome.winner]["cards"] == 52
        assert view["result"]["winner"] == view["seats"][outcome.winner]["seat"]


class TestHumanEliminated:
    """The game ends for the human when they are eliminated."""

    def test_a_wrong_slap_with_no_cards_ends_the_game(self):
        game = make_game("", "2D 3D", "4H 5H", "6S 8S", first=WEST)
        game.slap(0)
        assert game.over and game.outcome.reason == "eliminated"
        assert not game.outcome.won and game.outcome.winner is None
        view = game.view()
        assert view["seats"][0]["status"] == "eliminated" and view["result"]["won"] is False

    def test_an_out_human_is_not_finished_and_may_slap_back_in(self):
        game = make_game("7C", "7D 2D", "3H 9H", "4S 9S", first=SOUTH)
        game.flip(0)
        assert not game.over and game.view()["seats"][0]["status"] == "out"
        run_until(game, lambda g: g.table.pattern() is not None)
        game.slap(game.clock)
        view = game.view()
        assert not game.over and view["seats"][0]["status"] == "playing"
        assert view["seats"][0]["cards"] == 2 and view["your_turn"]
        assert events_of(game.take_events(), "player_back") != []


class TestOnceOver:
    """Once over, nothing more happens and the human can no longer act."""

    def test_nothing_is_scheduled_after_the_end(self):
        game = human_wins_game()
        end = game.clock
        assert game.next_event_time() is None and game.view()["wake_at"] is None
        game.advance_to(end + 10 * TIME_LIMIT_MS)
        assert game.view()["result"]["duration_ms"] == end and game.outcome.reason == "won"
        assert game.view()["turn"] is None and not game.view()["your_turn"]

    @pytest.mark.parametrize("action", ["flip", "slap"])
    def test_actions_after_the_end_are_refused(self, action):
        game = human_wins_game()
        with pytest.raises(GameOverError):
            getattr(game, action)(game.clock + 1)


class TestTimeLimit:
    """Every game ends: the engine bounds a game's length with a stated outcome."""

    def test_an_idle_human_cannot_keep_a_game_going_forever(self):
        game = Game(3)  # whoever starts, the human never acts
        game.advance_to(TIME_LIMIT_MS + 1)
        assert game.over
        assert game.outcome.duration_ms <= TIME_LIMIT_MS

    def test_the_time_limit_ends_the_game_at_the_bound(self):
        game = make_game("2C 3C", "2D", "2H", "2S", first=SOUTH)  # the human never flips
        game.advance_to(TIME_LIMIT_MS)
        assert not game.over
        game.advance_to(TIME_LIMIT_MS + 1)
        outcome = game.outcome
        assert outcome.reason == "time_limit" and outcome.duration_ms == TIME_LIMIT_MS
        counts = [seat["cards"] for seat in game.view()["seats"]]
        assert counts[outcome.winner] == max(counts)
        assert game.view()["result"]["reason"] == "time_limit"


class TestEveryGameEnds:
    """The tests prove that every game ends, over many seeds and kinds of human."""

    @pytest.mark.parametrize("speed", ["slow", "normal", "fast"])
    def test_a_quick_human_always_reaches_an_end(self, speed):
        for seed in range(40):
            game = play_simulated_human(Game(seed, speed=speed), reaction_ms=200, flip_ms=250)
            assert game.over and game.outcome.duration_ms <= TIME_LIMIT_MS
            assert game.table.card_count() == 52

    def test_a_slow_human_always_reaches_an_end(self):
        for seed in range(40):
            game = play_simulated_human(Game(seed, speed="fast"), reaction_ms=900, flip_ms=800)
            assert game.over and game.outcome.duration_ms <= TIME_LIMIT_MS

    def test_a_careless_human_always_reaches_an_end(self):
        reasons = set()
        for seed in range(60):
            game = random_human(Game(seed, lenient=seed % 2 == 1), random.Random(seed))
            assert game.outcome.duration_ms <= TIME_LIMIT_MS
            reasons.add(game.outcome.reason)
        assert "eliminated" in reasons

    def test_daily_games_of_a_month_end(self):
        for day in range(1, 31):
            game = play_simulated_human(Game.daily(f"2026-11-{day:02d}"))
            assert game.over and game.outcome.duration_ms <= TIME_LIMIT_MS


class TestHowItEnded:
    """The outcome names how the game ended with an enum; the page and records read its text."""

    def test_a_resigned_game_ends_resigned(self):
        game = Game(3)
        game.resign(100)
        assert game.outcome.reason is Ending.RESIGNED
        assert game.outcome.to_dict()["reason"] == "resigned"
        assert type(game.outcome.to_dict()["reason"]) is str

    def test_every_ending_is_a_word_the_page_knows(self):
        assert [ending.value for ending in Ending] == [
            "won",
            "cpu_won",
            "eliminated",
            "time_limit",
            "resigned",
        ]

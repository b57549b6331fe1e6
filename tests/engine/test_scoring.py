"""Scoring (docs/rules.md "Your score"): a win scores 2,000, minus 2 for each whole
second of play, minus 20 for each wrong slap, and never less than 500; a loss scores 25
for each pile the human won by slapping first."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import SOUTH, make_game, run_until

from ewar.cards import card_name, full_deck
from ewar.game import Game
from ewar.scoring import Score
from tools.harness.players import play_simulated_human


class TestWinScore:
    """2,000 − 2 × whole seconds − 20 × wrong slaps, never below 500."""

    @pytest.mark.parametrize(
        "duration_ms, wrong, expected",
        [
            (0, 0, 2000),
            (999, 0, 2000),  # not yet a whole second
            (1000, 0, 1998),
            (1999, 0, 1998),
            (61_999, 2, 1838),  # 61 whole seconds and 2 wrong slaps
            (300_000, 5, 1300),  # five minutes
            (700_000, 0, 600),
            (750_000, 0, 500),  # exactly the floor
            (750_999, 0, 500),
            (751_000, 0, 500),  # 498 would be below the floor
            (3_600_000, 0, 500),
            (0, 75, 500),  # 2000 − 1500 = 500
            (0, 76, 500),
        ],
    )
    def test_worked_examples(self, duration_ms, wrong, expected):
        assert Score.for_win(duration_ms, wrong).total == expected

    @given(st.integers(0, 4_000_000), st.integers(0, 200))
    def test_never_less_than_500(self, duration_ms, wrong):
        assert Score.for_win(duration_ms, wrong).total >= 500

    @given(st.integers(0, 700_000), st.integers(0, 20))
    def test_each_whole_second_costs_two_points(self, duration_ms, wrong):
        base = duration_ms - duration_ms % 1000
        assert Score.for_win(base, wrong).total == Score.for_win(base + 999, wrong).total
        if Score.for_win(base + 1000, wrong).total > 500:
            assert Score.for_win(base, wrong).total - Score.for_win(base + 1000, wrong).total == 2

    @given(st.integers(0, 700_000), st.integers(0, 20))
    def test_each_wrong_slap_costs_twenty_points(self, duration_ms, wrong):
        before, after = Score.for_win(duration_ms, wrong), Score.for_win(duration_ms, wrong + 1)
        if after.total > 500:
            assert before.total - after.total == 20

    def test_the_breakdown_adds_up(self):
        score = Score.for_win(61_999, 2)
        breakdown = score.breakdown
        assert breakdown == {
            "base": 2000,
            "seconds": 61,
            "seconds_penalty": 122,
            "wrong_slaps": 2,
            "wrong_slap_penalty": 40,
            "floor": 500,
            "floor_applied": False,
        }

    def test_the_breakdown_says_when_the_floor_applied(self):
        assert Score.for_win(1_000_000, 0).breakdown["floor_applied"] is True
        assert Score.for_win(749_999, 0).breakdown["floor_applied"] is False


class TestLossScore:
    """25 for each pile the human won by slapping first."""

    @pytest.mark.parametrize("piles, expected", [(0, 0), (1, 25), (7, 175), (40, 1000)])
    def test_25_per_pile_slapped(self, piles, expected):
        score = Score.for_loss(piles)
        assert score.total == expected
        assert score.breakdown == {"piles_slapped": piles, "per_pile": 25, "piles_score": expected}


ALL_BUT = " ".join(
    card_name(c) for c in full_deck() if card_name(c) not in ("7C", "7D", "3S", "4S")
)


class TestScoreOfAGame:
    """The score in the view and the result follows the rules from the game's own numbers."""

    def test_a_win_counts_whole_seconds_and_wrong_slaps(self):
        game = make_game("3S 4S 7C " + ALL_BUT, "7D", "", "", first=SOUTH)
        game.slap(500)  # wrong: the pile is empty (burns 3S)
        game.slap(900)  # wrong: one face-down card is no pattern (burns 4S)
        game.flip(5_400)  # 7C; West then flips its 7D
        run_until(game, lambda g: g.table.pattern() is not None)
        end = game.clock + 10
        game.slap(end)
        result = game.view()["result"]
        assert result["won"] and result["duration_ms"] == end
        assert result["score"] == max(500, 2000 - 2 * (end // 1000) - 20 * 2)
        assert result["breakdown"]["wrong_slaps"] == 2
        assert game.view()["wrong_slaps"] == 2

    def test_a_loss_counts_piles_slapped_first(self):
        game = make_game("7C", "7D 2D 5D", "3H 9H", "4S 10S", first=SOUTH)
        game.flip(0)
        run_until(game, lambda g: g.table.pattern() is not None)
        game.slap(game.clock)  # the human wins the Double: one pile slapped
        assert game.view()["piles_slapped"] == 1
        while game.table.packs[SOUTH]:  # the human flips both cards: 7C ... 7D
            game.flip(game.clock)
            run_until(game, lambda g: g.human_must_flip or not g.table.packs[SOUTH])
        assert game.view()["seats"][0]["status"] == "out" and game.table.pattern() is None
        game.slap(game.clock)  # wrong, with no cards: eliminated
        result = game.view()["result"]
        assert result["won"] is False and result["reason"] == "eliminated"
        assert result["score"] == 25 and result["breakdown"]["piles_slapped"] == 1

    def test_simulated_games_score_by_the_rules(self):
        for seed in range(30):
            game = play_simulated_human(Game(seed, speed="fast"), reaction_ms=260, flip_ms=300)
            outcome, view = game.outcome, game.view()
            if outcome.won:
                expected = max(
                    500, 2000 - 2 * (outcome.duration_ms // 1000) - 20 * view["wrong_slaps"]
                )
            else:
                expected = 25 * view["piles_slapped"]
            assert view["result"]["score"] == outcome.score.total == expected

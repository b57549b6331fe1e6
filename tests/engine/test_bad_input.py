"""Bad input: an action the rules do not allow raises a narrow, typed error with a clear
message, and changes nothing at all (view, actions, clock, schedule and generator)."""

from __future__ import annotations

import copy
import json

import pytest
from support import WEST, make_game, run_until, scheduled

from ewar import bridge
from ewar.errors import (
    EwarError,
    GameOverError,
    IllegalActionError,
    InvalidModeError,
    InvalidSpeedError,
    NotYourTurnError,
    TimeBeforeClockError,
)
from ewar.game import TIME_LIMIT_MS, Game


def snapshot(game) -> tuple:
    """Everything an action could change."""
    table = game.table
    return (
        json.dumps(game.view(), sort_keys=True),
        list(game.actions),
        game.clock,
        list(game._queue),
        game.rng.state,
        copy.deepcopy(game._events),
        [list(pack) for pack in table.packs],
        list(table.pile),
        table.burned,
        table.turn,
        table.challenger,
        table.owed,
        table.collector,
        list(table.strikes),
        list(table.eliminated),
        game.wrong_slaps,
        game.outcome,
    )


def west_to_flip():
    return make_game("2C 3C", "4D 5D", "6H 7H", "8S 9S", first=WEST)


def over_by_elimination():
    game = make_game("", "2D 3D", "4H 5H", "6S 8S", first=WEST)
    game.slap(10)
    assert game.over
    return game


def refused(game, call, error_type) -> str:
    """Call, expect ``error_type`` and an unchanged game; return the message."""
    before = snapshot(game)
    with pytest.raises(error_type) as caught:
        call()
    assert snapshot(game) == before
    message = str(caught.value)
    assert message and len(message) < 200
    return message


class TestFlipOutOfTurn:
    """The human flips only on their turn or when paying."""

    def test_a_flip_on_a_computers_turn_is_refused(self):
        game = west_to_flip()
        message = refused(game, lambda: game.flip(1), NotYourTurnError)
        assert "west" in message

    def test_a_refused_flip_undoes_the_happenings_it_waited_for(self):
        game = west_to_flip()
        ((west_flip, _),) = scheduled(game, "flip")
        message = refused(game, lambda: game.flip(west_flip + 1), NotYourTurnError)
        assert "north" in message  # West had flipped by then; it was North's turn
        game.advance_to(west_flip + 1)  # and the game goes on as if nothing was tried
        assert game.view()["pile"]["top"] == ["4D"]

    def test_a_flip_with_no_cards_is_refused(self):
        game = make_game("", "2D 3D", "4H 5H", "6S 8S", first=WEST)
        message = refused(game, lambda: game.flip(0), NotYourTurnError)
        assert "west" in message or "no cards" in message

    def test_a_flip_during_a_payment_by_someone_else_is_refused(self):
        game = make_game("2C 3C", "KD 5D", "6H 7H 8H 9H", "8S 9S", first=WEST)
        run_until(game, lambda g: g.table.challenger is not None)
        message = refused(game, lambda: game.flip(game.clock), NotYourTurnError)
        assert "north" in message

    def test_the_error_is_narrow(self):
        assert issubclass(NotYourTurnError, IllegalActionError)
        assert issubclass(IllegalActionError, EwarError) and issubclass(EwarError, ValueError)
        assert NotYourTurnError.code == "not_your_turn"


class TestTimeBeforeTheClock:
    """Time only moves forward: an action or frame earlier than the clock is refused."""

    @pytest.mark.parametrize("call", ["flip", "slap", "advance_to"])
    def test_an_earlier_time_is_refused(self, call):
        game = make_game("2C 3C", "4D 5D", "6H 7H", "8S 9S")
        game.advance_to(1000)
        message = refused(game, lambda: getattr(game, call)(999), TimeBeforeClockError)
        assert "999" in message and "1000" in message

    def test_the_same_time_as_the_clock_is_fine(self):
        game = make_game("2C 3C", "4D 5D", "6H 7H", "8S 9S")
        game.advance_to(1000)
        game.flip(1000)
        assert game.actions == [(1000, "f")]

    def test_a_negative_time_is_refused(self):
        game = make_game("2C 3C", "4D 5D", "6H 7H", "8S 9S")
        refused(game, lambda: game.slap(-1), TimeBeforeClockError)


class TestNonIntegerTimes:
    """Times are integer milliseconds; anything else is refused with a clear message."""

    @pytest.mark.parametrize("bad", [1.5, 2.0, "100", None, True, float("nan"), float("inf"), [5]])
    @pytest.mark.parametrize("call", ["flip", "slap", "advance_to"])
    def test_a_non_integer_time_is_refused(self, call, bad):
        game = make_game("2C 3C", "4D 5D", "6H 7H", "8S 9S")
        game.advance_to(10)
        message = refused(game, lambda: getattr(game, call)(bad), EwarError)
        assert "integer" in message


class TestActionsAfterTheEnd:
    """Once the game is over, every action is refused."""

    @pytest.mark.parametrize("call", ["flip", "slap"])
    def test_an_action_after_the_end_is_refused(self, call):
        game = over_by_elimination()
        message = refused(game, lambda: getattr(game, call)(game.clock + 5), GameOverError)
        assert "over" in message

    def test_an_action_at_a_time_after_the_game_would_have_ended_is_refused(self):
        game = make_game("2C 3C", "4D 5D", "6H 7H", "8S 9S")  # the human's turn; idle
        refused(game, lambda: game.slap(TIME_LIMIT_MS + 1), GameOverError)
        assert not game.over  # refused actions change nothing, not even the clock


class TestTheBridgeAnswersErrors:
    """The page gets {"ok": false, "error": {code, message}} and an unchanged view."""

    def session_on_wests_turn(self):
        return bridge.GameSession(west_to_flip())

    def test_not_your_turn(self):
        session = self.session_on_wests_turn()
        before = session.view()
        answer = json.loads(session.flip(1))
        assert answer["ok"] is False and answer["error"]["code"] == "not_your_turn"
        assert answer["error"]["message"]
        assert answer["view"] == json.loads(before) and session.view() == before

    def test_time_before_clock(self):
        session = self.session_on_wests_turn()
        session.frame(500)
        before = session.view()
        answer = json.loads(session.slap(400))
        assert answer["ok"] is False and answer["error"]["code"] == "time_before_clock"
        assert session.view() == before
        answer = json.loads(session.frame(100))
        assert answer["error"]["code"] == "time_before_clock" and session.view() == before

    def test_game_over(self):
        session = bridge.GameSession(over_by_elimination())
        answer = json.loads(session.slap(session.game.clock + 1))
        assert answer["ok"] is False and answer["error"]["code"] == "game_over"

    @pytest.mark.parametrize("bad", [float("nan"), None, float("inf")])
    def test_a_time_that_is_not_a_number_gets_an_error_answer(self, bad):
        session = self.session_on_wests_turn()
        before = session.view()
        answer = json.loads(session.slap(bad))
        assert answer["ok"] is False and answer["error"]["message"]
        assert session.view() == before


class TestBadSettings:
    """A bad mode or speed gets its own error and code, not a seed's."""

    @pytest.mark.parametrize("mode", ["ranked", "", None, "Daily"])
    def test_an_unknown_mode_is_refused(self, mode):
        with pytest.raises(InvalidModeError, match="unknown mode") as refused:
            Game(1, mode=mode)
        assert refused.value.code == "invalid_mode"

    def test_an_unknown_speed_is_refused_with_its_code(self):
        with pytest.raises(InvalidSpeedError, match="unknown speed") as refused:
            Game(1, speed="turbo")
        assert refused.value.code == "invalid_speed"

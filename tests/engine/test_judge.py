"""The score judge (``ewar.judge``): a daily record is accepted only when it is this engine's
game, the standard daily deal of the date it was sent for, finished, scored as claimed and
humanly possible; each refusal carries the code the scores function answers with."""

from __future__ import annotations

import hashlib
import json

import pytest
from players import play_simulated_human

from ewar import __version__
from ewar.bridge import judge_daily
from ewar.deal import daily_seed
from ewar.errors import (
    DateMismatchError,
    EngineVersionError,
    ImpossiblePlayError,
    NotDailyError,
    NotStandardError,
    RecordRefused,
    ReplayError,
    ScoreMismatchError,
    UnfinishedError,
)
from ewar.game import Game
from ewar.judge import MIN_REACTION_MS, actions_sha256, judge
from ewar.replay import Replay

DATE = "2026-11-30"


def daily_record(reaction_ms: int = 300, reactions: dict[int, int] | None = None) -> dict:
    game = play_simulated_human(
        Game.daily(DATE), reaction_ms=reaction_ms, flip_ms=300, reactions=reactions
    )
    return Replay.of(game).to_dict()


@pytest.fixture(scope="module")
def honest() -> dict:
    return daily_record()


@pytest.fixture(scope="module")
def honest_game(honest) -> Game:
    return Replay.from_dict(honest).play()


def verdict(record: dict, date: str = DATE, score: int | None = None) -> dict:
    """What the bridge answers (the call the scores function makes)."""
    return json.loads(judge_daily(json.dumps(record), date, score))


def refused_with(record: dict, code: str, date: str = DATE, score: int | None = None) -> str:
    answer = verdict(record, date, score)
    assert answer["ok"] is False, answer
    assert answer["error"]["code"] == code, answer
    assert answer["error"]["message"]
    return answer["error"]["message"]


class TestAnHonestRecord:
    """A finished daily game of the right date, scored as claimed, is accepted with its facts."""

    def test_it_is_accepted_with_the_facts_the_board_keeps(self, honest, honest_game):
        outcome = honest_game.outcome
        answer = verdict(honest, score=outcome.score.total)
        assert answer["ok"] is True
        assert answer["score"] == outcome.score.total and answer["won"] is outcome.won
        assert answer["reason"] == outcome.reason
        assert answer["duration_ms"] == outcome.duration_ms
        assert answer["wrong_slaps"] == honest_game.wrong_slaps
        assert answer["piles_slapped"] == honest_game.table.slaps_won[0]
        assert answer["engine_version"] == __version__
        assert answer["date"] == DATE and answer["seed"] == daily_seed(DATE)
        assert answer["slaps"] == len(honest_game.reactions) > 0
        assert answer["actions"] == len(honest["actions"])

    def test_without_a_claim_the_score_is_reported(self, honest, honest_game):
        assert verdict(honest)["score"] == honest_game.outcome.score.total

    def test_a_lost_game_is_accepted_with_its_loss_score(self):
        record = daily_record(reaction_ms=900)
        game = Replay.from_dict(record).play()
        assert not game.outcome.won
        answer = verdict(record, score=game.outcome.score.total)
        assert answer["ok"] is True and answer["won"] is False

    def test_a_score_sent_as_a_whole_javascript_number_is_fine(self, honest, honest_game):
        assert verdict(honest, score=float(honest_game.outcome.score.total))["ok"] is True

    def test_a_slap_exactly_at_the_bound_is_humanly_possible(self, honest_game):
        card = pattern_card(honest_game, 1)
        record = daily_record(reactions={card: MIN_REACTION_MS})
        game = Replay.from_dict(record).play()
        assert game.fastest_slap_ms == MIN_REACTION_MS
        assert verdict(record)["ok"] is True


class TestActionsDigest:
    """``actions_sha256`` identifies the action list (the board's duplicate check)."""

    def test_it_is_the_sha256_of_the_compact_action_list(self, honest):
        text = json.dumps(honest["actions"], separators=(",", ":"))
        assert verdict(honest)["actions_sha256"] == hashlib.sha256(text.encode()).hexdigest()

    def test_other_fields_do_not_change_it_and_other_actions_do(self, honest):
        actions = tuple((t, a) for t, a in honest["actions"])
        moved = ((actions[0][0] + 1, actions[0][1]), *actions[1:])
        assert actions_sha256(actions) == verdict(dict(honest, format=1))["actions_sha256"]
        assert actions_sha256(moved) != actions_sha256(actions)


def pattern_card(game: Game, number: int) -> int:
    """The time of the card that made the ``number``-th pattern the human slapped (from 1)."""
    replayed = Replay.of(game).game()
    for time_ms, action in game.actions:
        (replayed.flip if action == "f" else replayed.slap)(time_ms, atomic=False)
        if action == "s" and len(replayed.reactions) == number:
            return time_ms - replayed.reactions[-1]
    raise AssertionError(f"the human slapped fewer than {number} patterns")


class TestRefusals:
    """Each refusal fires with its code and says what is wrong."""

    @pytest.mark.parametrize(
        "text",
        ["", "{", "[]", "null", "1e999", '{"engine": "1.0.0"}', '{"actions": []}', "\x00\xff"],
    )
    def test_not_a_game_record(self, text):
        answer = json.loads(judge_daily(text, DATE, None))
        assert answer["ok"] is False and answer["error"]["code"] == "invalid_replay"

    def test_a_malformed_field(self, honest):
        message = refused_with(dict(honest, actions=[[1.5, "f"]]), "invalid_replay")
        assert "action 0" in message

    def test_an_action_the_rules_refuse(self, honest):
        actions = [list(a) for a in honest["actions"]]
        actions.append([actions[-1][0] + 60 * 60 * 1000, "f"])
        assert "over" in refused_with(dict(honest, actions=actions), "invalid_replay")

    @pytest.mark.parametrize("engine", ["0.9.0", "2.0.0-beta", ""])
    def test_another_engine_version(self, honest, engine):
        assert "engine" in refused_with(dict(honest, engine=engine), "engine_version")

    def test_the_engine_version_is_checked_before_anything_else(self, honest):
        old = {"engine": "0.1.0", "actions": [], "shape": "of an older record"}
        refused_with(old, "engine_version")

    def test_a_practice_game(self):
        game = play_simulated_human(Game(daily_seed(DATE)), reaction_ms=300, flip_ms=300)
        refused_with(Replay.of(game).to_dict(), "not_daily")

    def test_a_daily_record_with_another_seed(self, honest):
        assert "not the daily deal" in refused_with(dict(honest, seed=42), "not_daily")

    def test_a_record_of_another_day(self, honest):
        assert "2026-12-01" in refused_with(honest, "date_mismatch", date="2026-12-01")

    @pytest.mark.parametrize("date", ["2026-02-30", "yesterday", ""])
    def test_a_date_that_is_no_date(self, honest, date):
        refused_with(honest, "date_mismatch", date=date)

    @pytest.mark.parametrize("changes", [{"speed": "fast"}, {"speed": "slow"}, {"lenient": True}])
    def test_not_the_standard_rules(self, honest, changes):
        refused_with(dict(honest, **changes), "not_standard")

    def test_an_unfinished_game(self, honest):
        cut = next(i for i, (_, a) in enumerate(honest["actions"]) if i > 4 and a == "f")
        message = refused_with(dict(honest, actions=honest["actions"][:cut]), "unfinished")
        assert "not over" in message

    def test_a_score_that_is_not_the_games(self, honest, honest_game):
        claimed = honest_game.outcome.score.total + 2
        message = refused_with(honest, "score_mismatch", score=claimed)
        assert str(claimed) in message and str(honest_game.outcome.score.total) in message

    @pytest.mark.parametrize("claim", ["1500", True, 12.5])
    def test_a_score_that_is_not_a_whole_number(self, honest, claim):
        refused_with(honest, "score_mismatch", score=claim)

    def test_one_slap_faster_than_a_person_anywhere_in_the_game(self, honest_game):
        """Every valid slap is checked, not only the first or the fastest the old check saw."""
        slaps = honest_game.reactions
        assert len(slaps) >= 3
        # make the third slap too fast: the others stay at a human 300 ms
        card = pattern_card(honest_game, 3)
        record = daily_record(reactions={card: MIN_REACTION_MS - 1})
        game = Replay.from_dict(record).play()
        assert game.fastest_slap_ms == MIN_REACTION_MS - 1
        message = refused_with(record, "impossible_play")
        assert f"{MIN_REACTION_MS - 1} ms" in message


class TestNarrowErrors:
    """``judge`` raises one narrow error per refusal; all but a bad record are RecordRefused."""

    @pytest.mark.parametrize(
        "changes, date, error",
        [
            ({"engine": "0.9.0"}, DATE, EngineVersionError),
            ({"mode": "practice"}, DATE, NotDailyError),
            ({}, "2026-12-01", DateMismatchError),
            ({"speed": "fast"}, DATE, NotStandardError),
            ({"actions": []}, DATE, UnfinishedError),
        ],
    )
    def test_each_kind(self, honest, changes, date, error):
        with pytest.raises(error):
            judge(json.dumps(dict(honest, **changes)), date)

    def test_refusals_of_a_replaying_record_share_a_base(self, honest):
        with pytest.raises(RecordRefused):
            judge(json.dumps(honest), DATE, score=-1)
        with pytest.raises(ScoreMismatchError):
            judge(json.dumps(honest), DATE, score=-1)

    def test_an_impossible_slap_is_a_record_refused(self):
        assert issubclass(ImpossiblePlayError, RecordRefused)
        assert issubclass(EngineVersionError, ReplayError)

"""The page's way into watching (ewar.bridge.watch): JSON answers like GameSession's, the same
table as the engine's Watch, bad moments answered with an error, bad records refused."""

from __future__ import annotations

import json

import pytest

from ewar import bridge
from ewar.errors import ReplayError
from ewar.game import Game
from ewar.replay import Replay
from ewar.watch import Watch
from tools.harness.players import HumanLikePlayer, play


def finished_record() -> Replay:
    return Replay.of(play(Game(11), HumanLikePlayer(520, 11)))


def test_timeline_is_the_engines_as_json() -> None:
    record = finished_record()
    session = bridge.watch(record.to_json())
    assert json.loads(session.timeline()) == Watch(record).timeline()


def test_frames_and_seeks_answer_the_engines_views() -> None:
    record = finished_record()
    session, engine = bridge.watch(record.to_json()), Watch(record)
    middle = engine.duration_ms // 2
    forward = json.loads(session.frame(middle))
    assert forward == engine.frame(middle)
    assert forward["events"], "half a game has happenings to tell"
    back = json.loads(session.seek(1000))
    assert back == {"view": Watch(record).seek(1000)["view"], "events": []}
    # a JavaScript number arrives as a float: a whole one is accepted
    assert json.loads(session.frame(2000.0))["view"] == Watch(record).seek(2000)["view"]


def test_a_moment_that_is_no_whole_number_is_an_error_that_changes_nothing() -> None:
    record = finished_record()
    session = bridge.watch(record.to_json())
    before = json.loads(session.frame(3000))["view"]
    for bad in (2.5, "soon", None, True):
        answer = json.loads(session.frame(bad))
        assert answer["error"]["code"] == ReplayError.code, bad
        assert answer["error"]["message"]
        assert answer["view"] == before and answer["events"] == []
        assert json.loads(session.seek(bad))["view"] == before


@pytest.mark.parametrize(
    "record_json",
    ["not json", "{}", json.dumps({"format": 1, "actions": "none"})],
)
def test_a_malformed_record_raises_replay_error(record_json: str) -> None:
    with pytest.raises(ReplayError):
        bridge.watch(record_json)


def test_an_unfinished_game_cannot_be_watched() -> None:
    game = Game(3)
    game.advance_to(2000)
    with pytest.raises(ReplayError, match="finished"):
        bridge.watch(Replay.of(game).to_json())

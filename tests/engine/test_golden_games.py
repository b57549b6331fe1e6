"""Golden games (tests/engine/data/golden_games.json): pinned deals whose every event is pinned
by a digest. A failure here means the engine now plays differently: if that is an accident,
fix it; if it is deliberate, bump the engine version and regenerate the file."""

from __future__ import annotations

import json

import pytest
from golden_games import CASES, DATA, REGENERATE, golden_game

from ewar import __version__

PINNED = json.loads(DATA.read_text())


def test_the_file_is_of_this_engine_version():
    assert PINNED["engine_version"] == __version__, (
        f"the golden games were pinned by engine {PINNED['engine_version']}, this is {__version__}: "
        f"check that every change since is deliberate, then regenerate with `{REGENERATE}`"
    )


def test_every_case_is_pinned():
    assert [game["name"] for game in PINNED["games"]] == [case[0] for case in CASES]


@pytest.mark.parametrize("case", CASES, ids=[case[0] for case in CASES])
def test_the_game_plays_as_pinned(case):
    pinned = next(game for game in PINNED["games"] if game["name"] == case[0])
    now = golden_game(*case)
    changed = [key for key in pinned if pinned[key] != now[key]]
    assert not changed, (
        f"golden game {case[0]} changed ({', '.join(changed)}): the engine no longer plays this deal "
        f"as engine {PINNED['engine_version']} did.\n  pinned: {pinned}\n  now:    {now}\n"
        f"An accident? Find the change. Deliberate? Bump ewar.__version__ (replays of the old version "
        f"must stop being accepted) and regenerate with `{REGENERATE}`."
    )

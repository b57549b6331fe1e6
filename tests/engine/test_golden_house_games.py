"""Golden games of the house rules (tests/engine/data/golden_house_games.json): a pinned deal for
each house rule and for them all together. A failure means the engine now plays house rules
differently: an accident is to be fixed; a deliberate change bumps the engine version and
regenerates the file."""

from __future__ import annotations

import json

import pytest
from golden_games import play
from golden_house_games import CASES, DATA, REGENERATE, golden_house_game

from ewar import __version__
from ewar.house_rules import HOUSE_RULES

PINNED = json.loads(DATA.read_text())


def test_the_file_is_of_this_engine_version():
    assert PINNED["engine_version"] == __version__, (
        f"pinned by engine {PINNED['engine_version']}, this is {__version__}: regenerate with "
        f"`{REGENERATE}` once every change since is known to be deliberate"
    )


def test_every_rule_has_a_golden_game_of_its_own_and_one_with_all():
    alone = {case[4][0] for case in CASES if len(case[4]) == 1}
    assert alone == set(HOUSE_RULES)
    assert any(tuple(case[4]) == HOUSE_RULES for case in CASES)
    assert [game["name"] for game in PINNED["games"]] == [case[0] for case in CASES]


@pytest.mark.parametrize("case", CASES, ids=[case[0] for case in CASES])
def test_the_game_plays_as_pinned(case):
    pinned = next(game for game in PINNED["games"] if game["name"] == case[0])
    now = golden_house_game(*case)
    changed = [key for key in pinned if pinned[key] != now[key]]
    assert not changed, (
        f"golden game {case[0]} changed ({', '.join(changed)}).\n  pinned: {pinned}\n  now: {now}\n"
        f"Deliberate? Bump ewar.__version__ and regenerate with `{REGENERATE}`."
    )


@pytest.mark.parametrize("case", [case for case in CASES if len(case[4]) == 1], ids=lambda c: c[0])
def test_each_rules_golden_game_slaps_its_pattern(case):
    name, make, player, setting, (rule,) = case
    game = play(make, player, setting)
    slapped = {event["pattern"] for event in game.take_events() if event["type"] == "slap_won"}
    assert rule in slapped

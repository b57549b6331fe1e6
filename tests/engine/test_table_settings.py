"""bridge.table_settings(): the names and settings the page takes from the engine (it keeps no copy): the
seats in play order with the human's, the CPU speeds, the daily's speed and rule, the largest deal number."""

from __future__ import annotations

import json

import pytest

from ewar import bridge
from ewar.deal import MAX_SEED, check_seed
from ewar.errors import InvalidModeError, InvalidSeedError
from ewar.game import DAILY, Game

SETTINGS = json.loads(bridge.table_settings())


def test_the_seats_go_round_from_the_human_s():
    assert SETTINGS["seats"][0] == SETTINGS["you"]
    game = Game(7)
    assert [info["seat"] for info in game.view()["seats"]] == SETTINGS["seats"]


def test_every_speed_named_plays_and_no_other():
    for speed in SETTINGS["speeds"]:
        assert Game(7, speed=speed).speed == speed
    with pytest.raises(Exception, match="unknown speed"):
        Game(7, speed="sluggish")


def test_practice_plays_at_the_default_speed_unless_told_another():
    assert SETTINGS["default_speed"] in SETTINGS["speeds"]
    assert Game(7).speed == SETTINGS["default_speed"]
    assert json.loads(bridge.new_game("practice", 7).view())["speed"] == SETTINGS["default_speed"]


def test_the_daily_plays_only_at_its_settings():
    daily = SETTINGS["daily"]
    game = Game(0, mode=DAILY, date="2026-12-03", speed=daily["speed"], lenient=daily["lenient"])
    assert (game.speed, game.lenient) == (daily["speed"], daily["lenient"])
    other = next(speed for speed in SETTINGS["speeds"] if speed != daily["speed"])
    with pytest.raises(InvalidModeError):
        Game(0, mode=DAILY, date="2026-12-03", speed=other)
    with pytest.raises(InvalidModeError):
        Game(0, mode=DAILY, date="2026-12-03", lenient=not daily["lenient"])


def test_the_largest_deal_number_is_the_engine_s_bound():
    assert SETTINGS["max_seed"] == MAX_SEED
    assert check_seed(SETTINGS["max_seed"]) == MAX_SEED
    with pytest.raises(InvalidSeedError):
        check_seed(SETTINGS["max_seed"] + 1)

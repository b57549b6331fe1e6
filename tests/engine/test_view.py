"""The view and the events (team contract, VIEW and EVENT): the page only ever sees what a
player at the table could see — never the contents of a pack or a face-down card — and
each event carries the fields the contract lists."""

from __future__ import annotations

import json
import random
import re

import pytest
from support import EAST, SOUTH, WEST, events_of, make_game, random_human, run_until, step

from ewar.cards import card_name
from ewar.game import Game
from ewar.patterns import LATE_MS, TOO_LATE_WINDOW_MS
from tools.harness.players import play_simulated_human

SEATS = ["south", "west", "north", "east"]
CARD = re.compile(r"(10|[2-9JQKA])[CDHS]")
VIEW_KEYS = {
    "seed",
    "mode",
    "date",
    "speed",
    "lenient",
    "house_rules",
    "clock",
    "wake_at",
    "seats",
    "pile",
    "turn",
    "challenge",
    "collecting",
    "your_turn",
    "wrong_slaps",
    "piles_slapped",
    "score",
    "over",
    "result",
}
PAY = {"J": 1, "Q": 2, "K": 3, "A": 4}
WRONG_SLAP_REASONS = {"no_pattern", "too_late", "covered", "burned_cards", "empty_pile"}
RESULT_KEYS = {"won", "winner", "reason", "duration_ms", "score", "breakdown", "stats"}


def strings_in(value) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(strings_in(v) for v in value)) if value else set()
    return set()


def hidden_cards(game: Game) -> set[str]:
    """Cards nobody at the table can see: every pack, and the burned cards face down."""
    table = game.table
    hidden = {card_name(c) for pack in table.packs for c in pack}
    return hidden | {card_name(c) for c in table.pile[: table.burned]}


def check_view(game: Game) -> dict:
    view = game.view()
    json.dumps(view)  # JSON-ready
    assert set(view) == VIEW_KEYS
    assert [seat["seat"] for seat in view["seats"]] == SEATS
    assert all(set(seat) == {"seat", "cards", "status", "strikes"} for seat in view["seats"])
    assert set(view["pile"]) == {"top", "size", "burned"}
    assert not strings_in(view) & hidden_cards(game)
    if view["result"] is not None:
        assert set(view["result"]) == RESULT_KEYS
    return view


def check_event(event: dict) -> None:
    seat, kind = event.get("seat"), event["type"]
    assert isinstance(event["t"], int) and event["t"] >= 0
    if kind in (
        "flip",
        "pay_card",
        "slap_won",
        "wrong_slap",
        "pile_taken",
        "player_out",
        "player_back",
        "player_eliminated",
    ):
        assert seat in SEATS
    if kind == "flip":
        assert CARD.fullmatch(event["card"])
    elif kind == "pay_card":
        assert CARD.fullmatch(event["card"]) and event["payer"] in SEATS
        assert event["owed"] == PAY[event["card"][:-1]] and event["payer"] != seat
    elif kind == "challenge_passed":
        assert event["from"] in SEATS and event["to"] in SEATS and event["from"] != event["to"]
        assert 1 <= event["left"] <= 3
    elif kind == "slap_won":
        assert event["pattern"] in ("double", "sandwich")
        assert isinstance(event["reaction_ms"], int) and event["reaction_ms"] >= 0
    elif kind == "wrong_slap":
        assert isinstance(event["burned"], bool)  # face down: never which card
        assert event["out_of_cards"] is not event["burned"]
        assert len(event["cards"]) <= 3 and all(CARD.fullmatch(card) for card in event["cards"])
        assert event["reason"] in WRONG_SLAP_REASONS
        if event["reason"] in ("too_late", "covered"):
            assert event["by"] in SEATS and event["pattern"] in ("double", "sandwich")
            assert 0 <= event["ms"] <= LATE_MS
    elif kind == "late_slap":
        assert event["by"] in SEATS and event["pattern"] in ("double", "sandwich")
        assert event["reason"] in ("too_late", "covered")
        if event["reason"] == "too_late":  # taken by another player's slap
            assert event["by"] != seat and "card" not in event
        else:  # covered by the card still on top, whoever flipped it
            assert CARD.fullmatch(event["card"])
        assert 0 <= event["ms"] <= TOO_LATE_WINDOW_MS
    elif kind == "pile_taken":
        assert event["cards"] >= 1 and event["how"] in ("challenge", "slap", "last_card")
    elif kind == "game_over":
        assert isinstance(event["won"], bool) and isinstance(event["score"], int)
        assert event["winner"] in SEATS or event["winner"] is None
    else:
        assert kind in ("player_out", "player_back", "player_eliminated"), kind


class TestOnlyWhatAPlayerCanSee:
    """No pack's contents and no face-down card ever reach the view."""

    def test_throughout_many_games(self):
        for seed in range(8):
            game = Game(seed, speed="fast")
            while not game.over:
                check_view(game)
                if game.human_must_flip:
                    game.flip(game.clock)
                elif not step(game):
                    break
            check_view(game)

    def test_a_wrong_slap_names_only_the_face_up_cards(self):
        reasons = set()
        for seed in range(40):
            game, chooser = Game(seed, speed="fast"), random.Random(seed)
            while not game.over:
                if game.human_must_flip:
                    game.flip(game.clock)
                elif chooser.random() < 0.1:
                    game.slap(game.clock)
                elif not step(game):
                    break
                top = game.view()["pile"]["top"]
                for event in events_of(game.take_events(), "wrong_slap"):
                    reasons.add(event["reason"])
                    if event["reason"] != "too_late":  # a late slap's pile is gone
                        assert event["cards"] == top
                    assert not set(event["cards"]) & hidden_cards(game)
        assert reasons >= {"no_pattern", "burned_cards", "empty_pile"}

    def test_a_burned_card_is_not_shown(self):
        game = make_game("KS 2C", "3D", "4H", "5S", first=SOUTH)
        game.slap(0)  # South burns KS face down
        view = check_view(game)
        assert view["pile"] == {"top": [], "size": 1, "burned": 1}
        assert "KS" not in json.dumps(view)

    def test_the_view_does_not_hold_the_deal(self):
        game = Game(99)
        view = check_view(game)
        assert all(seat["cards"] == 13 for seat in view["seats"])
        assert view["pile"] == {"top": [], "size": 0, "burned": 0}


class TestPile:
    """The top three face-up cards are always shown (bottom → top), with size and burned."""

    def test_the_top_three_face_up_cards_bottom_to_top(self):
        game = make_game("2C 6C", "3D 7D", "4H 8H", "5S 9S", first=SOUTH)
        game.flip(0)
        run_until(game, lambda g: len(g.table.pile) == 4)
        view = check_view(game)
        assert view["pile"] == {"top": ["3D", "4H", "5S"], "size": 4, "burned": 0}

    @pytest.mark.parametrize("flips, top", [(1, ["2C"]), (2, ["2C", "3D"])])
    def test_fewer_than_three_cards(self, flips, top):
        game = make_game("2C 6C", "3D 7D", "4H 8H", "5S 9S", first=SOUTH)
        game.flip(0)
        run_until(game, lambda g: len(g.table.pile) == flips)
        assert check_view(game)["pile"]["top"] == top

    def test_burned_cards_are_counted_but_not_shown(self):
        game = make_game("9C 8C 2C", "3D 7D", "4H 8H", "5S 9S", first=SOUTH)
        game.slap(0)
        game.slap(1)
        game.flip(2)
        run_until(game, lambda g: len(g.table.pile) == 4)
        view = check_view(game)
        assert view["pile"] == {"top": ["2C", "3D"], "size": 4, "burned": 2}


class TestSeatsAndTurn:
    """Seats show cards, status and strikes; turn and your_turn show who flips."""

    def test_statuses(self):
        game = make_game("", "2D 3D", "4H 5H", "6S", first=WEST, lenient=True)
        view = check_view(game)
        assert [s["status"] for s in view["seats"]] == ["out", "playing", "playing", "playing"]
        assert view["turn"] == "west" and view["your_turn"] is False
        game.slap(0)
        view = check_view(game)
        assert view["seats"][0]["strikes"] == 1 and view["seats"][0]["status"] == "out"
        for t in (1, 2):
            game.slap(t)
        view = check_view(game)
        assert view["seats"][0]["status"] == "eliminated" and view["seats"][0]["strikes"] == 3

    def test_your_turn_when_you_flip(self):
        game = make_game("2C 6C", "3D 7D", "4H 8H", "5S 9S", first=SOUTH)
        view = check_view(game)
        assert view["turn"] == "south" and view["your_turn"] is True

    def test_your_turn_when_you_pay(self):
        game = make_game("2C 6C 7C", "3D 7D", "4H 8H", "KS 9S", first=EAST)
        run_until(game, lambda g: g.table.pile != [])
        view = check_view(game)
        assert view["your_turn"] is True
        assert view["challenge"] == {"challenger": "east", "payer": "south", "owed": 3, "left": 3}
        game.flip(game.clock)
        assert check_view(game)["challenge"]["left"] == 2

    def test_no_challenge_no_collecting_by_default(self):
        view = check_view(make_game("2C", "3D", "4H", "5S"))
        assert view["challenge"] is None and view["collecting"] is None and view["result"] is None

    def test_during_the_pause_nobody_has_the_turn(self):
        game = make_game("JC 2C", "3D 4D", "5H", "6S", first=SOUTH)
        game.flip(0)
        run_until(game, lambda g: g.table.collector is not None)
        view = check_view(game)
        assert view["turn"] is None and view["your_turn"] is False
        assert view["collecting"]["by"] == "south" and view["collecting"]["at"] >= game.clock

    def test_settings_are_shown(self):
        game = Game(12, speed="slow", lenient=True)
        view = check_view(game)
        assert (view["seed"], view["mode"], view["date"], view["speed"], view["lenient"]) == (
            12,
            "practice",
            None,
            "slow",
            True,
        )
        daily = check_view(Game.daily("2026-11-30"))
        assert daily["mode"] == "daily" and daily["date"] == "2026-11-30"


class TestEvents:
    """Every event has its time, its type and the contract's fields."""

    def test_every_event_type_and_its_fields(self):
        seen = set()
        for seed in range(60):
            game = random_human(
                Game(seed, speed="fast", lenient=seed % 3 == 0), random.Random(seed)
            )
            events = game.take_events()
            assert [e["t"] for e in events] == sorted(e["t"] for e in events)
            assert events[-1]["type"] == "game_over" and len(events_of(events, "game_over")) == 1
            for event in events:
                check_event(event)
                seen.add(event["type"])
        for seed in range(10):
            events = play_simulated_human(Game(seed), reaction_ms=150).take_events()
            for event in events:
                check_event(event)
                seen.add(event["type"])
        assert seen == {
            "flip",
            "pay_card",
            "challenge_passed",
            "slap_won",
            "wrong_slap",
            "late_slap",
            "pile_taken",
            "player_out",
            "player_back",
            "player_eliminated",
            "game_over",
        }

    def test_a_flip_and_a_pay_card(self):
        game = make_game("QC 2C", "3D 4D", "5H", "6S", first=SOUTH)
        game.flip(40)
        assert game.take_events() == [
            {"t": 40, "type": "flip", "seat": "south", "card": "QC"},
            {
                "t": 40,
                "type": "pay_card",
                "seat": "south",
                "card": "QC",
                "owed": 2,
                "payer": "west",
            },
        ]

    def test_a_challenge_passed_on(self):
        game = make_game("2C 9C 8C", "KD", "3H", "4S 5S 6S", first=WEST)
        run_until(game, lambda g: g.table.turn == EAST and g.table.challenger == WEST)
        passed = events_of(game.take_events(), "challenge_passed")
        assert [(e["from"], e["to"], e["left"]) for e in passed] == [("north", "east", 2)]

    def test_a_wrong_slap_and_a_player_out(self):
        game = make_game("9C", "3D", "5H", "6S", first=WEST)
        game.slap(5)
        assert game.take_events() == [
            {
                "t": 5,
                "type": "wrong_slap",
                "seat": "south",
                "burned": True,
                "out_of_cards": False,
                "cards": [],
                "reason": "empty_pile",
            },
            {"t": 5, "type": "player_out", "seat": "south"},
        ]

    def test_an_elimination_and_the_end(self):
        game = make_game("", "3D", "5H", "6S", first=WEST)
        game.slap(5)
        events = game.take_events()
        assert events[:2] == [
            {
                "t": 5,
                "type": "wrong_slap",
                "seat": "south",
                "burned": False,
                "out_of_cards": True,
                "cards": [],
                "reason": "empty_pile",
            },
            {"t": 5, "type": "player_eliminated", "seat": "south"},
        ]
        assert events[2]["type"] == "game_over" and events[2]["won"] is False
        assert events[2]["winner"] is None and events[2]["score"] == 0

    def test_a_slap_won_pile_taken_and_player_back(self):
        game = make_game("7C", "7D 2D", "3H 4H", "5S 6S", first=SOUTH)
        game.flip(0)
        run_until(game, lambda g: g.table.pattern() is not None)
        game.take_events()
        west_flipped_at = game.last_flip_ms
        game.slap(game.clock)
        t = game.clock
        assert game.take_events() == [
            {
                "t": t,
                "type": "slap_won",
                "seat": "south",
                "pattern": "double",
                "reaction_ms": t - west_flipped_at,
            },
            {"t": t, "type": "pile_taken", "seat": "south", "cards": 2, "how": "slap"},
            {"t": t, "type": "player_back", "seat": "south"},
        ]

    def test_events_are_handed_over_once(self):
        game = make_game("2C", "3D", "4H", "5S")
        game.flip(0)
        assert game.take_events() != [] and game.take_events() == []


class TestRunningScore:
    """The view carries the running score: what a win would score at this moment."""

    def test_the_running_score_falls_two_points_a_second_and_twenty_a_wrong_slap(self):
        game = Game(5, speed="normal")
        game.advance_to(10_999)
        assert not game.over and game.view()["score"] == 2000 - 2 * 10
        assert game.table.pattern() is None  # so the slap below is a wrong one
        game.slap(10_999)
        assert game.wrong_slaps == 1 and game.view()["score"] == 2000 - 2 * 10 - 20

    def test_the_running_score_never_drops_below_the_floor(self):
        game = Game(5, speed="normal")
        game.advance_to(900_000)
        assert game.over or game.view()["score"] == 500

"""House rules (docs/rules.md "House rules"): Top-and-Bottom, Tens, Four-in-a-row, Marriage,
Divorce and Jokers add slap patterns to a practice game, in any combination; never to a daily."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import SOUTH, WEST, cards, events_of, make_deal, make_table, run_until

from ewar import bridge
from ewar.cards import JOKERS, card_name, parse_card
from ewar.deal import daily_seed
from ewar.errors import InvalidModeError, NotStandardError, ReplayError
from ewar.game import TIME_LIMIT_MS, Game
from ewar.house_rules import HOUSE_RULES, HouseRules, check_house_rules, ten_value
from ewar.judge import judge
from ewar.replay import Replay, verify
from ewar.watch import Watch
from tools.harness.players import ExactPlayer, HumanLikePlayer, play

ALL = list(HOUSE_RULES)


def top_of(pile: str, rules, *, burned: str = "") -> str | None:
    """The pattern a table with these house rules finds on ``pile`` (bottom → top, face up)
    over ``burned`` face-down cards."""
    table = make_table("9S", "9C", "9D", "9H", first=SOUTH)
    table.house = HouseRules(rules)
    table.pile = cards(burned) + cards(pile)
    table.burned = len(cards(burned))
    return table.pattern()


def near_miss(pile: str, rules) -> bool:
    table = make_table("9S", "9C", "9D", "9H", first=SOUTH)
    table.house = HouseRules(rules)
    table.pile = cards(pile)
    return table.near_miss()


class TestChoosingRules:
    def test_any_order_comes_back_in_the_menus_order(self):
        assert check_house_rules(["jokers", "tens", "marriage"]) == ("tens", "marriage", "jokers")
        assert check_house_rules(None) == check_house_rules([]) == ()

    @pytest.mark.parametrize(
        "bad", [["tens", "tens"], ["sevens"], "tens", 5, [None], ["Tens"]], ids=repr
    )
    def test_anything_but_distinct_known_names_is_refused(self, bad):
        with pytest.raises(InvalidModeError):
            check_house_rules(bad)

    def test_a_daily_never_has_house_rules(self):
        with pytest.raises(InvalidModeError, match="standard rules"):
            Game(0, mode="daily", date="2026-11-30", house_rules=["tens"])

    def test_a_past_daily_played_again_has_none_either(self):
        with pytest.raises(InvalidModeError, match="standard rules"):
            Game(0, date="2026-11-30", house_rules=["marriage"])

    def test_the_view_names_the_rules(self):
        assert Game(3, house_rules=["divorce", "marriage"]).view()["house_rules"] == [
            "marriage",
            "divorce",
        ]
        assert Game(3).view()["house_rules"] == []


# (rules on, face-up pile bottom → top, the pattern expected)
PATTERNS = [
    # Top-and-Bottom: the top card's rank is the lowest face-up card's
    (["top_and_bottom"], "7H 2C 9D 7S", "top_and_bottom"),
    (["top_and_bottom"], "7H 2C 9D 4C 8D 7S", "top_and_bottom"),
    (["top_and_bottom"], "7H 2C 9D 8S", None),
    (["top_and_bottom"], "7H", None),  # one card is the top and the bottom: no pattern
    ([], "7H 2C 9D 7S", None),
    # Tens: two cards in a row, or with one between, adding to ten; an Ace is one
    (["tens"], "4H 6S", "tens"),
    (["tens"], "4H JC 6S", "tens"),
    (["tens"], "AH 9S", "tens"),
    (["tens"], "9H AS", "tens"),
    (["tens"], "3C 7D", "tens"),
    (["tens"], "4H 2C 3D 6S", None),  # two cards between
    (["tens"], "KH 10S", None),  # a face card counts nothing
    (["tens"], "QH 8D", None),
    (["tens"], "5H 3C 5S", "sandwich"),  # 5 + 5: the standard pattern is named first
    (["tens"], "5H 5S", "double"),
    # Four-in-a-row: four ranks in order, up or down, K-A-2 wrapping
    (["four_in_a_row"], "3H 4C 5D 6S", "four_in_a_row"),
    (["four_in_a_row"], "6H 5C 4D 3S", "four_in_a_row"),
    (["four_in_a_row"], "10H JC QD KS", "four_in_a_row"),
    (["four_in_a_row"], "QH KC AD 2S", "four_in_a_row"),
    (["four_in_a_row"], "KH AC 2D 3S", "four_in_a_row"),
    (["four_in_a_row"], "3H 2C AD KS", "four_in_a_row"),
    (["four_in_a_row"], "3H 4C 6D 5S", None),
    (["four_in_a_row"], "4C 5D 6S", None),  # three only
    (["four_in_a_row"], "3H 4C 5D 4S", "sandwich"),
    (["four_in_a_row"], "4C 5D 6H 5S", "sandwich"),
    # Marriage: a King and a Queen together, either on top
    (["marriage"], "KH QS", "marriage"),
    (["marriage"], "QH KS", "marriage"),
    (["marriage"], "KH 3C QS", None),
    (["marriage"], "KH JS", None),
    # Divorce: a King and a Queen with one card between
    (["divorce"], "KH 3C QS", "divorce"),
    (["divorce"], "QH JD KS", "divorce"),
    (["divorce"], "KH QS", None),
    # Jokers: a Joker on top
    (["jokers"], "JKR", "jokers"),
    (["jokers"], "5H JKB", "jokers"),
    (["jokers"], "JKB 5H", None),
    (["jokers"], "JKR JKB", "double"),  # the two Jokers are a Double too
    # combined: each rule adds its pattern; one of several showing is named in a fixed order
    (["marriage", "divorce"], "KH QD QS", "double"),
    (ALL, "6H 2C 3D 4S 5D 6C", "tens"),  # 6 + 4 = 10, 3-4-5-6 in a row, 6 at the bottom
    (["four_in_a_row", "top_and_bottom"], "6H 2C 3D 4S 5D 6C", "four_in_a_row"),
    (["top_and_bottom"], "6H 2C 3D 4S 5D 6C", "top_and_bottom"),
    (["marriage", "tens", "jokers"], "KH QS JKR", "jokers"),
]


@pytest.mark.parametrize(("rules", "pile", "expected"), PATTERNS, ids=lambda value: str(value))
def test_the_pattern_on_top(rules, pile, expected):
    assert top_of(pile, rules) == expected


class TestBurnedCardsNeverCount:
    """Burned cards lie face down under the pile: no house pattern reaches them."""

    @pytest.mark.parametrize(
        ("rules", "burned", "pile"),
        [
            (["top_and_bottom"], "7D", "2C 9D 7S"),  # the lowest face-up card is the 2
            (["tens"], "4H", "6S"),
            (["tens"], "4H", "JC 6S"),
            (["four_in_a_row"], "3H", "4C 5D 6S"),
            (["marriage"], "KH", "QS"),
            (["divorce"], "KH", "3C QS"),
            (["jokers"], "JKR", "5H"),
        ],
    )
    def test_a_burned_card_makes_no_pattern(self, rules, burned, pile):
        assert top_of(burned + " " + pile, rules) is not None or rules == ["jokers"]
        assert top_of(pile, rules, burned=burned) is None

    def test_the_bottom_of_top_and_bottom_is_the_lowest_face_up_card(self):
        assert top_of("2C 9D 2S", ["top_and_bottom"], burned="7D") == "sandwich"
        assert top_of("2C 9D 4H 2S", ["top_and_bottom"], burned="7D") == "top_and_bottom"


class TestNearMisses:
    """The computer players and the human models slap a near miss now and then."""

    @pytest.mark.parametrize(
        ("rules", "pile"),
        [
            (["tens"], "3H 8S"),  # eleven
            (["tens"], "AH 8S"),  # nine
            (["marriage"], "JH KS"),
            (["divorce"], "JH 3C KS"),
            (["top_and_bottom"], "9H 2C 5D 8S"),
        ],
    )
    def test_a_near_miss_of_each_rule(self, rules, pile):
        assert near_miss(pile, rules)
        assert not near_miss(pile, [])

    def test_ten_values(self):
        assert [ten_value(rank) for rank in range(14)] == [
            *range(2, 11),
            None,
            None,
            None,
            1,
            None,
        ]


class TestJokers:
    def test_joker_cards_round_trip(self):
        assert [card_name(card) for card in JOKERS] == ["JKR", "JKB"]
        assert [parse_card(name) for name in ("JKR", "jkb")] == list(JOKERS)

    def test_a_jokers_game_deals_54_cards(self):
        game = Game(11, house_rules=["jokers"])
        dealt = [card for pack in game.deal.packs for card in pack]
        assert sorted(dealt) == list(range(54))
        assert game.table.total == 54
        assert Game(11).table.total == 52

    def test_a_joker_is_no_pay_card(self):
        game = Game(
            1,
            deal_override=make_deal("JKR 2C", "3D 4H", "5C 6D", "7H 8S", first=SOUTH),
            house_rules=["jokers"],
        )
        game.flip(10)
        assert game.table.turn == WEST and game.table.challenger is None


def marriage_game(**settings) -> Game:
    """South flips a King, West a Queen on it: a Marriage shows once West has flipped."""
    deal = make_deal("KH 2C 3C 4C", "QS 5D 6D 7D", "9C 10C 2D 3D", "4S 5S 6S 7S", first=SOUTH)
    game = Game(2, deal_override=deal, house_rules=["marriage"], **settings)
    game.flip(100)
    run_until(game, lambda g: len(g.table.pile) == 2)
    return game


class TestInAGame:
    def test_the_human_slaps_a_marriage(self):
        game = marriage_game()
        game.slap(game.last_flip_ms + 300)
        won = events_of(game.take_events(), "slap_won")
        assert [(e["seat"], e["pattern"]) for e in won] == [("south", "marriage")]
        assert len(game.table.packs[SOUTH]) == 3 + 2

    def test_without_the_rule_a_king_and_queen_are_a_wrong_slap(self):
        deal = make_deal("KH 2C 3C 4C", "QS 5D 6D 7D", "9C 10C 2D 3D", "4S 5S 6S 7S", first=SOUTH)
        game = Game(2, deal_override=deal)
        game.flip(100)
        run_until(game, lambda g: len(g.table.pile) == 2)
        game.slap(game.last_flip_ms + 300)
        wrong = events_of(game.take_events(), "wrong_slap")
        assert [(e["seat"], e["reason"]) for e in wrong] == [("south", "no_pattern")]
        assert "house_rules" not in wrong[0]

    def test_a_wrong_slap_with_house_rules_says_none_of_them_showed(self):
        deal = make_deal("KH 2C 3C 4C", "JS 5D 6D 7D", "9C 10C 2D 3D", "4S 5S 6S 7S", first=SOUTH)
        game = Game(2, deal_override=deal, house_rules=["marriage", "tens"])
        game.flip(100)
        run_until(game, lambda g: len(g.table.pile) == 2)
        game.slap(game.last_flip_ms + 300)
        (wrong,) = events_of(game.take_events(), "wrong_slap")
        assert (wrong["reason"], wrong["house_rules"], wrong["cards"]) == (
            "no_pattern",
            True,
            ["KH", "JS"],
        )


def covered_marriage_game() -> Game:
    """A Marriage no computer player slaps before North covers it (a seed found by search)."""
    deal = make_deal("KH 2C 3C 4C", "QS 5D 6D 7D", "9C 10C 2D 3D", "4S 5S 6S 7S", first=SOUTH)
    for seed in range(200):
        game = Game(seed, deal_override=deal, house_rules=["marriage"])
        game.flip(100)
        run_until(game, lambda g: len(g.table.pile) != 1)
        run_until(game, lambda g: len(g.table.pile) != 2)
        if len(game.table.pile) == 3:
            return game
    raise AssertionError("no seed lets the Marriage be covered")


def test_a_slap_just_after_the_marriage_was_covered_is_only_too_late():
    game = covered_marriage_game()
    covered_at = game.last_flip_ms
    game.take_events()
    cards_before = len(game.table.packs[SOUTH])
    game.slap(covered_at + 200)
    (late,) = events_of(game.take_events(), "late_slap")
    assert (late["reason"], late["pattern"], late["by"], late["ms"]) == (
        "covered",
        "marriage",
        "north",
        200,
    )
    assert late["card"] == card_name(game.table.pile[-1])  # the card that covered it, still on top
    assert len(game.table.packs[SOUTH]) == cards_before and game.wrong_slaps == 0


def cpu_took_marriage_game() -> Game:
    """A Marriage a computer player slaps (a seed found by search)."""
    deal = make_deal("KH 2C 3C 4C", "QS 5D 6D 7D", "9C 10C 2D 3D", "4S 5S 6S 7S", first=SOUTH)
    for seed in range(200):
        game = Game(seed, deal_override=deal, house_rules=["marriage"])
        game.flip(100)
        run_until(game, lambda g: len(g.table.pile) != 1)
        run_until(game, lambda g: len(g.table.pile) != 2)
        if not game.table.pile:
            return game
    raise AssertionError("no computer player ever slaps the Marriage")


def test_a_slap_just_after_a_computer_took_the_marriage_is_only_too_late():
    game = cpu_took_marriage_game()
    (taken,) = events_of(game.take_events(), "slap_won")
    assert taken["pattern"] == "marriage" and taken["seat"] != "south"
    cards_before = len(game.table.packs[SOUTH])
    game.slap(taken["t"] + 120)
    (late,) = events_of(game.take_events(), "late_slap")
    assert (late["pattern"], late["by"], late["ms"]) == ("marriage", taken["seat"], 120)
    assert len(game.table.packs[SOUTH]) == cards_before  # too late costs nothing


@pytest.mark.parametrize("rule", HOUSE_RULES)
def test_the_computer_players_slap_each_rules_pattern(rule):
    slapped = set()
    for seed in range(12):
        game = play(Game(seed, house_rules=[rule]), HumanLikePlayer(900, seed))
        slapped |= {
            e["pattern"] for e in events_of(game.take_events(), "slap_won") if e["seat"] != "south"
        }
        if rule in slapped:
            break
    assert rule in slapped


def test_computer_players_slap_house_patterns_at_their_speeds_timing():
    """A CPU's delay on a house pattern comes from its speed's table, as on a Double."""
    delays = {"slow": [], "fast": []}
    for speed, found in delays.items():
        for seed in range(6):
            game = play(Game(seed, speed=speed, house_rules=["tens"]), ExactPlayer(5000, 300))
            found += [
                e["reaction_ms"]
                for e in events_of(game.take_events(), "slap_won")
                if e["pattern"] == "tens" and e["seat"] != "south"
            ]
    assert delays["slow"] and delays["fast"]
    assert min(delays["fast"]) >= 265 * 700 // 1000
    assert max(delays["fast"]) <= (347 + 2 * 188) * 1300 // 1000
    assert (
        sorted(delays["fast"])[len(delays["fast"]) // 2]
        < sorted(delays["slow"])[len(delays["slow"]) // 2]
    )


class TestRecords:
    def test_the_record_names_the_rules_and_replays_the_same_game(self):
        game = play(Game(21, house_rules=["tens", "jokers"]), HumanLikePlayer(600, 21))
        events = game.take_events()
        record = Replay.of(game)
        assert json.loads(record.to_json())["house_rules"] == ["tens", "jokers"]
        again = Replay.from_json(record.to_json()).play()
        assert again.take_events() == events
        report = verify(record)
        assert report["house_rules"] == ["tens", "jokers"]
        assert report["result"] == game.outcome.to_dict()

    def test_a_standard_record_has_no_house_rules_field(self):
        game = Game(21)
        game.resign(500)
        assert "house_rules" not in json.loads(Replay.of(game).to_json())

    @pytest.mark.parametrize(
        "bad", [[], ["tens", "tens"], ["sevens"], "tens", ["jokers", "tens"], None], ids=repr
    )
    def test_a_record_with_bad_house_rules_is_refused(self, bad):
        game = Game(21, house_rules=["tens"])
        game.resign(500)
        data = Replay.of(game).to_dict()
        data["house_rules"] = bad
        with pytest.raises(ReplayError, match="house"):
            Replay.from_dict(data)

    def test_the_judge_refuses_a_daily_with_house_rules(self):
        game = Game.daily("2026-11-30")
        game.resign(500)
        data = Replay.of(game).to_dict()
        data["house_rules"] = ["tens"]
        with pytest.raises(NotStandardError):
            judge(json.dumps(data), "2026-11-30")
        refused = json.loads(bridge.judge_daily(json.dumps(data), "2026-11-30", None))
        assert refused["error"]["code"] == "not_standard"

    def test_watching_carries_the_rules(self):
        game = play(Game(5, house_rules=["divorce"]), HumanLikePlayer(600, 5))
        watch = Watch(Replay.of(game))
        assert watch.timeline()["house_rules"] == ["divorce"]
        assert watch.seek(watch.duration_ms)["view"] == game.view()

    def test_the_bridge_lists_the_rules_and_starts_a_game_with_them(self):
        assert json.loads(bridge.house_rule_names()) == list(HOUSE_RULES)
        session = bridge.new_game("practice", 4, "fast", False, None, ["marriage", "tens"])
        assert json.loads(session.view())["house_rules"] == ["tens", "marriage"]
        with pytest.raises(InvalidModeError):
            bridge.new_game("practice", 4, "fast", False, None, ["nope"])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=st.sets(st.sampled_from(HOUSE_RULES)),
    seed=st.integers(0, 2**53 - 1),
    speed=st.sampled_from(("slow", "normal", "fast")),
    median=st.integers(250, 1200),
    lenient=st.booleans(),
)
def test_every_game_with_any_rules_ends_with_all_its_cards(rules, seed, speed, median, lenient):
    game = Game(seed, speed=speed, lenient=lenient, house_rules=rules)
    deck = 54 if "jokers" in rules else 52

    def conserved(game: Game) -> None:
        assert game.table.card_count() == deck

    play(game, HumanLikePlayer(median, seed % 1000), conserved)
    assert game.over and game.outcome.duration_ms <= TIME_LIMIT_MS


def test_a_past_daily_played_again_is_that_dailys_game():
    """The date's deal and its computer players' reactions: the same actions, the same game."""
    daily = play(Game.daily("2026-11-30"), ExactPlayer(420, 300))
    again = play(Game(0, date="2026-11-30"), ExactPlayer(420, 300))
    assert again.mode == "practice" and again.seed == daily.seed
    assert again.take_events() == daily.take_events()
    with pytest.raises(InvalidModeError):
        Game(0, date="2026-11-30", speed="fast")
    record = Replay.of(again).to_dict()
    record["seed"] += 1
    with pytest.raises(ReplayError, match="not the daily deal"):
        Replay.from_dict(record).play()


def test_a_game_with_house_rules_resumes_as_it_was():
    game = Game(8, speed="fast", house_rules=["jokers", "divorce"])
    player = HumanLikePlayer(500, 8)
    while game.clock < 40_000 and not game.over:
        plan = player.plan(game)
        upcoming = game.next_event_time()
        if plan is not None and (upcoming is None or plan[0] <= upcoming):
            game.act(plan[0], plan[1], atomic=False)
            player.acted(game, plan[1])
        else:
            game.advance_to(upcoming + 1)
    session = bridge.resume(Replay.of(game).to_json(), game.clock)
    assert json.loads(session.view()) == json.loads(json.dumps(game.view()))
    assert session.game.table.total == 54


def test_the_bridge_plays_a_past_daily_again():
    session = bridge.new_game("practice", 0, "normal", False, "2026-12-01", None)
    view = json.loads(session.view())
    assert (view["mode"], view["date"], view["seed"]) == (
        "practice",
        "2026-12-01",
        daily_seed("2026-12-01"),
    )
    with pytest.raises(InvalidModeError):
        bridge.new_game("practice", 0, "normal", False, "2026-12-01", ["tens"])


# For each rule, a deal whose first flips make its pattern (South flips first; only ranks 2-10 where a pay card
# would start a challenge, but for the King and Queen of Marriage and Divorce).
FIRST_PATTERN_DEALS = {
    "top_and_bottom": ("7H 2D 3S 4S", "2C 5C 6C 8C", "9D 10C 10D 9C", "7S 5H 6H 8H"),
    "tens": ("4H 2D 3S 5S", "6S 5C 7C 8C", "9D 10C 10D 9C", "3H 5H 2H 8H"),
    "four_in_a_row": ("3H 9H 3S 10S", "4C 5C 6C 8C", "5D 10C 10D 9C", "6S 2H 7H 8H"),
    "marriage": ("KH 2C 3C 4C", "QS 5D 6D 7D", "9C 10C 2D 3D", "4S 5S 6S 7S"),
    "divorce": ("KH 2C 3C 4C", "3H QS 6D 7D", "9C 10C 2D 3D", "4S 5S 6S 7S"),
    "jokers": ("JKR 2C 3C 4C", "5D 6D 7D 8D", "9C 10C 2D 3D", "4S 5S 6S 7S"),
}


def first_pattern_ends(rule: str, seed: int) -> tuple[Game, object]:
    """The deal of ``rule`` played with the human flipping on its turn, until the first pattern
    ends: the game and that pattern's window (a computer player's wrong slap on a near miss may burn the
    card that was to make it: then another pattern may come first)."""
    deal = make_deal(*FIRST_PATTERN_DEALS[rule], first=SOUTH)
    game = Game(seed, deal_override=deal, house_rules=[rule])
    flip_at = None
    while not game.patterns.windows and not game.over:
        upcoming = game.next_event_time()
        if game.human_must_flip:
            # at once, or (odd seeds) slowly enough for a computer player to slap first
            flip_at = flip_at or game.clock + (1500 if seed % 2 else 50)
            if upcoming < flip_at:
                game.advance_to(upcoming + 1)
                continue
            game.flip(flip_at)
        else:
            game.advance_to(upcoming + 1)
        flip_at = None
    return game, game.patterns.windows[0]


@pytest.mark.parametrize("rule", HOUSE_RULES)
def test_a_covered_or_taken_house_pattern_is_only_too_late_just_after(rule):
    found = set()
    for seed in range(300):
        game, window = first_pattern_ends(rule, seed)
        end, ended_at = window.end, window.ended_at
        if window.pattern != rule or end in found or game.over or game.clock > ended_at + 100:
            continue
        game.take_events()
        cards = len(game.table.packs[SOUTH])
        if end == "covered":
            game.slap(ended_at + 100)
            (late,) = events_of(game.take_events(), "late_slap")
            assert (late["reason"], late["pattern"], late["ms"]) == ("covered", rule, 100)
            assert len(game.table.packs[SOUTH]) == cards  # a tap under way costs nothing
        elif end == "slapped":
            game.slap(ended_at + 100)
            (late,) = events_of(game.take_events(), "late_slap")
            assert (late["pattern"], late["ms"]) == (rule, 100)
            assert len(game.table.packs[SOUTH]) == cards
        found.add(end)
        if found == {"covered", "slapped"}:
            return
    pytest.fail(f"{rule}: only {found} in 300 seeds")

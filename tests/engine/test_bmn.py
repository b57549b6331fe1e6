"""Beggar-My-Neighbour: the engine's pay-card rules for two players with no slapping
(``ewar.bmn``, ``python -m ewar bmn A B``). Published record deals pin its results, and an
independent reference (``benchmarks/bmn_reference.py``) agrees on random deals."""

from __future__ import annotations

import importlib.util
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import REPO, run_python

from ewar.bmn import BmnResult, parse_pack, play
from ewar.errors import InvalidCardError

PUBLISHED = json.loads((REPO / "tools" / "harness" / "bmn_published.json").read_text())
ONE_DECK = "-" * 36 + "JJJJQQQQKKKKAAAA"


def _reference():
    spec = importlib.util.spec_from_file_location(
        "bmn_reference", REPO / "benchmarks" / "bmn_reference.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


reference = _reference()


def engine(a: str, b: str) -> dict:
    return play(parse_pack(a), parse_pack(b)).to_dict()


class TestPublishedDeals:
    """Every published deal reproduces its published status, cards and tricks."""

    @pytest.mark.parametrize("deal", PUBLISHED, ids=[d["name"] for d in PUBLISHED])
    def test_the_engine_reproduces_the_published_result(self, deal):
        assert engine(deal["a"], deal["b"]) == {
            "status": deal["status"],
            "cards": deal["cards"],
            "tricks": deal["tricks"],
        }

    def test_the_data_holds_the_longest_known_deal_and_a_loop(self):
        assert max(d["cards"] for d in PUBLISHED) == 8344
        assert any(d["status"] == "loop" for d in PUBLISHED)
        for deal in PUBLISHED:
            assert sorted(deal["a"] + deal["b"]) == sorted(ONE_DECK)


class TestSmallDealsByHand:
    """Small deals worked out by hand from the rules."""

    @pytest.mark.parametrize(
        "a, b, expected",
        [
            ("J", "-", ("finished", 2, 1)),  # B pays one card; A takes both
            ("-", "-", ("finished", 2, 1)),  # A must play again with none: B takes the pile
            ("- - J", "- - -", ("finished", 6, 1)),
            ("Q", "- J", ("finished", 3, 1)),  # B's jack stops the payment; A has nothing to pay
            ("K-", "--A", ("finished", 5, 1)),  # A's king; B pays -, -, A; A pays -, then is out
            ("--", "J-", ("finished", 3, 1)),  # B's jack; A pays its last card: B takes all
        ],
    )
    def test_worked_examples(self, a, b, expected):
        assert play(parse_pack(a), parse_pack(b)) == BmnResult(*expected)


class TestCardTokens:
    """Tokens 2-10, J, Q, K, A and - (any number card), with or without spaces."""

    def test_each_token_with_spaces(self):
        assert parse_pack("2 3 4 5 6 7 8 9 10 J Q K A -") == [0] * 9 + [1, 2, 3, 4, 0]

    def test_each_token_run_together(self):
        assert parse_pack("2345678910JQKA-") == [0] * 9 + [1, 2, 3, 4, 0]

    def test_mixed_spacing_gives_the_same_pack(self):
        assert parse_pack("K-10 A") == parse_pack("K - 10 A") == [3, 0, 0, 4]

    def test_number_cards_all_play_alike(self):
        assert engine("2345", "6789") == engine("----", "----")

    @pytest.mark.parametrize("bad", ["1", "0", "11", "B", "J*", "1J", "Z-", "10 X", "Jo"])
    def test_bad_tokens_are_refused(self, bad):
        with pytest.raises(InvalidCardError):
            parse_pack(bad)

    def test_a_pack_is_text(self):
        with pytest.raises(InvalidCardError):
            parse_pack(["J", "Q"])


class TestCommandLine:
    """``python -m ewar bmn A B`` prints the result as JSON; bad packs exit non-zero."""

    @pytest.mark.parametrize("deal", PUBLISHED, ids=[d["name"] for d in PUBLISHED])
    def test_every_published_deal_with_the_double_dash(self, deal):
        out = run_python("-m", "ewar", "bmn", "--", deal["a"], deal["b"])
        assert out.returncode == 0, out.stderr
        assert json.loads(out.stdout) == {
            "status": deal["status"],
            "cards": deal["cards"],
            "tricks": deal["tricks"],
        }

    def test_packs_with_spaces_and_tens(self):
        out = run_python("-m", "ewar", "bmn", "K 10 A 2", "J 9 Q 3")
        assert out.returncode == 0, out.stderr
        assert json.loads(out.stdout) == engine("K-A-", "J-Q-")

    def test_a_published_deal_as_written(self):
        deal = next(d for d in PUBLISHED if d["name"] == "Paulhus 1999")
        out = run_python("-m", "ewar", "bmn", deal["a"], deal["b"])
        assert out.returncode == 0, out.stderr
        assert json.loads(out.stdout)["cards"] == 4791

    @pytest.mark.parametrize("a, b", [("J1Q", "2 3"), ("JQK", "X"), ("J Q", "11")])
    def test_bad_tokens_exit_non_zero_with_a_reason(self, a, b):
        out = run_python("-m", "ewar", "bmn", a, b)
        assert out.returncode != 0 and out.stdout == ""
        assert "not a card token" in out.stderr

    def test_missing_packs_exit_non_zero(self):
        assert run_python("-m", "ewar", "bmn", "JQK").returncode != 0

    def test_it_imports_only_the_game_it_plays(self):
        """Start-up as a plain script's (benchmarks/cli_startup.py): no argparse, json, judge or game."""
        out = run_python("-X", "importtime", "-m", "ewar", "bmn", "K-A-", "J-Q-")
        assert out.returncode == 0, out.stderr
        imported = {
            line.rsplit("|", 1)[1].strip() for line in out.stderr.splitlines() if "|" in line
        }
        assert {"ewar.bmn", "ewar.cards"} <= imported
        assert imported.isdisjoint({"argparse", "json", "ewar.judge", "ewar.game", "ewar.replay"})

    @pytest.mark.parametrize("a, status", [("J", 0), ("J1", 1)])
    def test_the_process_ends_without_the_interpreters_teardown(self, a, status):
        """The answer written, the process exits at once (benchmarks/cli_startup.py): an exit handler
        registered before the run never runs, and the line still arrives whole through a pipe."""
        start = (
            "import atexit, runpy, sys; atexit.register(print, 'teardown ran');"
            f"sys.argv = ['ewar', 'bmn', {a!r}, '-']; runpy.run_module('ewar', run_name='__main__')"
        )
        out = run_python("-c", start)
        assert out.returncode == status, out.stderr
        assert "teardown ran" not in out.stdout
        if status == 0:
            assert out.stdout == '{"status": "finished", "cards": 2, "tricks": 1}\n'
        else:
            assert out.stdout == "" and "not a card token" in out.stderr

    @pytest.mark.parametrize("deal", PUBLISHED, ids=[d["name"] for d in PUBLISHED])
    def test_its_line_is_what_json_would_write(self, deal):
        result = play(parse_pack(deal["a"]), parse_pack(deal["b"]))
        assert result.to_json() == json.dumps(result.to_dict())


deck_strings = st.permutations(list(ONE_DECK)).map("".join)


class TestAgreesWithTheReference:
    """The engine and the independent string-based reference agree on random deals."""

    @settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(deck_strings)
    def test_random_one_deck_deals(self, deck):
        a, b = deck[:26], deck[26:]
        assert engine(a, b) == reference.play(a, b)

    def test_random_deals_of_several_decks_and_odd_sizes(self):
        rng = random.Random(20261130)
        for _ in range(60):
            decks = rng.choice([1, 2, 3])
            cards = list(ONE_DECK * decks)
            rng.shuffle(cards)
            cut = rng.randrange(1, len(cards))  # packs of unequal lengths
            a, b = "".join(cards[:cut]), "".join(cards[cut:])
            assert engine(a, b) == reference.play(a, b)

    def test_a_two_deck_deal_runs(self):
        rng = random.Random(7)
        cards = list(ONE_DECK * 2)
        rng.shuffle(cards)
        result = engine("".join(cards[:52]), "".join(cards[52:]))
        assert result["status"] in ("finished", "loop") and result["cards"] >= 52 // 2

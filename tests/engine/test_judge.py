"""The score judge (``ewar.judge``): a daily record is accepted only when it is this engine's
game, the standard daily deal of the date it was sent for, finished, scored as claimed and
humanly possible; each refusal carries the code the scores function answers with."""

from __future__ import annotations

import contextlib
import hashlib
import json

import pytest

from ewar import __version__
from ewar.bridge import judge_daily
from ewar.deal import DAY_MS, daily_seed
from ewar.errors import (
    DateMismatchError,
    EngineVersionError,
    EwarError,
    ImplausiblePlayError,
    ImpossiblePlayError,
    NotDailyError,
    NotStandardError,
    RecordRefused,
    ReplayError,
    ScoreMismatchError,
    TooSoonError,
    UnfinishedError,
)
from ewar.game import TIME_LIMIT_MS, Game
from ewar.judge import (
    MIN_REACTION_MS,
    actions_sha256,
    day_start_ms,
    game_sha256,
    judge,
    lucky_taps,
)
from ewar.plausibility import PlayTimes, check
from ewar.replay import Replay
from ewar.stats import median_ms
from tools.harness.players import ForeknowledgeBot, HumanLikePlayer, play, play_simulated_human

DATE = "2026-11-30"


def daily_record(median_ms: int = 330, reactions: dict[int, int] | None = None) -> dict:
    """A daily game of DATE played by a human-like player (the same one for the same median)."""
    game = play(Game.daily(DATE), HumanLikePlayer(median_ms, seed=median_ms, reactions=reactions))
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
        record = daily_record(median_ms=800)
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
        ["", "{", "[]", "null", "1e999", '{"engine": "2.0.0"}', '{"actions": []}', "\x00\xff"],
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
        game = play(Game(daily_seed(DATE)), HumanLikePlayer(330, seed=1))
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

    def test_an_unfinished_game(self, honest, honest_game):
        cut = next(i for i, (_, a) in enumerate(honest["actions"]) if i > 4 and a == "f")
        claimed = honest_game.outcome.score.total
        message = refused_with(
            dict(honest, actions=honest["actions"][:cut]), "unfinished", score=claimed
        )
        assert "not over" in message and str(claimed) in message

    def test_a_game_left_alone_until_the_hour_is_up_ends_there(self, honest):
        # nobody flips for South: the deal waits for its first flip, or the game for South's
        # next one, until the one-hour limit ends it (a tie on cards, so lost, scoring 0)
        left_alone = dict(honest, actions=[])
        answer = verdict(left_alone, DATE, 0)
        assert answer["ok"] is True, answer
        assert answer["reason"] == "time_limit" and answer["duration_ms"] == TIME_LIMIT_MS
        assert answer["won"] is False and answer["score"] == 0

    def test_a_score_that_is_not_the_games(self, honest, honest_game):
        claimed = honest_game.outcome.score.total + 2
        message = refused_with(honest, "score_mismatch", score=claimed)
        assert str(claimed) in message and str(honest_game.outcome.score.total) in message

    @pytest.mark.parametrize("claim", ["1500", True, 12.5])
    def test_a_score_that_is_not_a_whole_number(self, honest, claim):
        refused_with(honest, "score_mismatch", score=claim)

    def test_lucky_taps_are_accepted_and_more_are_not(self, honest_game):
        """A tap under way may land just after a card made a pattern a few times in a game
        (luck: ``lucky_taps``); more valid slaps under MIN_REACTION_MS are a machine's."""
        reactions, number, verdicts = {}, 3, []
        while True:  # one more fast slap each time, from the third valid slap on
            game = Replay.from_dict(daily_record(reactions=reactions)).play()
            fast = sum(r < MIN_REACTION_MS for r in game.reactions)
            record = daily_record(reactions=reactions)
            verdicts.append((fast, lucky_taps(len(game.reactions)), verdict(record)))
            if fast > lucky_taps(len(game.reactions)):
                break
            reactions[pattern_card(game, number)] = MIN_REACTION_MS - 1 if number % 2 else 40
            number += 1
        assert [answer["ok"] for fast, allowed, answer in verdicts] == [True] * (
            len(verdicts) - 1
        ) + [False]
        assert verdicts[-2][0] >= 2  # two lucky taps or more were accepted
        fast, allowed, refused = verdicts[-1]
        assert fast == allowed + 1 and refused["error"]["code"] == "impossible_play"
        assert f"{MIN_REACTION_MS - 1} ms" in refused["error"]["message"]
        assert "40 ms" in refused["error"]["message"]


class TestPlausiblePlay:
    """Whole-game rules refuse machine-timed play (``implausible_play``) and never a person's:
    honest human-like players of every pace are accepted, never-missing bots refused."""

    @pytest.mark.parametrize("median_ms", range(250, 901, 50))
    def test_human_like_players_of_every_pace_are_accepted(self, median_ms):
        for day in range(1, 7):
            date = f"2026-03-{day:02}"
            player = HumanLikePlayer(median_ms, seed=median_ms * 100 + day)
            record = Replay.of(play(Game.daily(date), player)).to_json()
            answer = json.loads(judge_daily(record, date, None))
            assert answer["ok"] is True, (median_ms, date, answer)

    @pytest.mark.parametrize("reaction_ms", [100, 120, 150, 180])
    @pytest.mark.parametrize("flip_ms", [0, 420])
    def test_never_missing_bots_are_refused(self, reaction_ms, flip_ms):
        for day in range(1, 5):
            date = f"2026-03-{day:02}"
            game = play_simulated_human(Game.daily(date), reaction_ms=reaction_ms, flip_ms=flip_ms)
            answer = json.loads(judge_daily(Replay.of(game).to_json(), date, None))
            assert answer["ok"] is False, (reaction_ms, flip_ms, date)
            assert answer["error"]["code"] == "implausible_play"

    def test_the_refusal_says_which_rule(self):
        game = play_simulated_human(Game.daily(DATE), reaction_ms=150, flip_ms=420)
        message = refused_with(Replay.of(game).to_dict(), "implausible_play")
        assert "valid slaps came 150 ms after their cards" in message and "a person" in message
        game = play_simulated_human(Game.daily(DATE), reaction_ms=150, flip_ms=0)
        refused_with(Replay.of(game).to_dict(), "implausible_play")

    def test_the_accepted_answer_reports_the_timings(self, honest, honest_game):
        answer = verdict(honest)
        slaps = sorted(honest_game.reactions)
        assert answer["slap_median_ms"] == median_ms(slaps)
        assert 50 <= answer["slap_spread_permille"] <= 600
        assert answer["flips"] > 10 and answer["flip_spread_ms"] > 20


class TestPlausibilityRules:
    """Each rule on its own, on made-up timings (``ewar.plausibility``)."""

    PERSON_FLIPS = (380, 420, 350, 510, 300, 460, 395, 440, 610, 330, 405)

    def test_regular_slaps(self):
        with pytest.raises(ImplausiblePlayError, match="4 valid slaps"):
            check(PlayTimes((240, 240, 241, 240), self.PERSON_FLIPS))
        check(PlayTimes((240, 250, 232, 262), self.PERSON_FLIPS))  # a person's 4 slaps
        check(PlayTimes((240, 240, 240), self.PERSON_FLIPS))  # too few to judge

    def test_the_more_slaps_the_more_spread_a_person_shows(self):
        jittered = tuple(200 + (7 * i) % 17 for i in range(20))  # 200-216 ms: a frame's jitter
        with pytest.raises(ImplausiblePlayError):
            check(PlayTimes(jittered, self.PERSON_FLIPS))
        check(PlayTimes(jittered[:5], self.PERSON_FLIPS))

    def test_quick_slaps(self):
        quick = (120, 180, 140, 150, 135, 160, 170, 125, 145, 155)
        with pytest.raises(ImplausiblePlayError, match="median 147 ms"):
            check(PlayTimes(quick, self.PERSON_FLIPS))
        check(PlayTimes(quick[:9], self.PERSON_FLIPS))  # too few to judge on speed alone

    def test_regular_flips(self):
        slaps = (240, 250, 232, 262, 300)
        with pytest.raises(ImplausiblePlayError, match="flips"):
            check(PlayTimes(slaps, (1,) * 10))
        with pytest.raises(ImplausiblePlayError, match="flips"):
            check(PlayTimes(slaps, (300, 305, 298, 301, 300, 299, 302, 300, 296, 303)))
        check(PlayTimes(slaps, (1,) * 9))  # too few to judge
        check(PlayTimes(slaps, self.PERSON_FLIPS))


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
    def test_each_kind(self, honest, honest_game, changes, date, error):
        with pytest.raises(error):
            judge(json.dumps(dict(honest, **changes)), date, honest_game.outcome.score.total)

    def test_refusals_of_a_replaying_record_share_a_base(self, honest):
        with pytest.raises(RecordRefused):
            judge(json.dumps(honest), DATE, score=-1)
        with pytest.raises(ScoreMismatchError):
            judge(json.dumps(honest), DATE, score=-1)

    def test_an_impossible_slap_is_a_record_refused(self):
        assert issubclass(ImpossiblePlayError, RecordRefused)
        assert issubclass(EngineVersionError, ReplayError)


def shifted(record: dict, index: int, by_ms: int = 1) -> dict:
    """The record with its action ``index`` moved ``by_ms`` later (and any later action that
    would then come before it, with it)."""
    actions = [list(action) for action in record["actions"]]
    moved = actions[index][0] + by_ms
    for action in actions[index:]:
        action[0] = max(action[0], moved)
    return dict(record, actions=actions)


class TestGameDigest:
    """One game path, one digest: the same plays and outcomes a millisecond apart are one game."""

    def test_a_millisecond_apart_is_the_same_game(self, honest):
        first = verdict(honest)
        same = [
            answer
            for index in range(len(honest["actions"]))
            if (answer := verdict(shifted(honest, index)))["ok"]
            and answer["actions_sha256"] != first["actions_sha256"]
            and answer["game_sha256"] == first["game_sha256"]
        ]
        # most single actions can move by 1 ms without changing what happens
        assert len(same) > len(honest["actions"]) // 2

    def test_a_free_late_tap_added_is_the_same_game(self, honest, honest_game):
        # a slap just after a computer player's valid slap costs nothing: added to a copy, it must
        # not make the copy another entry
        events = Replay.from_dict(honest).play().take_events()
        times = [time_ms for time_ms, _ in honest["actions"]]
        taken = next(
            e["t"]
            for e in events
            if e["type"] == "slap_won"
            and e["seat"] != "south"
            and not any(e["t"] <= t <= e["t"] + 6 for t in times)
        )
        actions = sorted([*honest["actions"], [taken + 5, "s"]], key=lambda action: action[0])
        copy = verdict(dict(honest, actions=actions), DATE, honest_game.outcome.score.total)
        first = verdict(honest)
        assert copy["ok"] and copy["actions"] == first["actions"] + 1
        assert copy["actions_sha256"] != first["actions_sha256"]
        assert copy["game_sha256"] == first["game_sha256"]

    def test_another_path_is_another_game(self, honest):
        first = verdict(honest)
        other = verdict(daily_record(median_ms=420))
        assert other["ok"] and other["game_sha256"] != first["game_sha256"]
        assert len(first["game_sha256"]) == 64 and int(first["game_sha256"], 16) >= 0

    def test_another_play_is_another_path(self, honest):
        def path(actions: list) -> str:
            game = Replay.from_dict(dict(honest, actions=actions)).play()
            return game_sha256(game.seed, game.take_events())

        actions = honest["actions"]
        slap = next(index for index, (_, action) in enumerate(actions) if action == "s")
        # up to the first slap and on until the human must flip: with it, and letting it go
        assert path(actions[: slap + 1]) != path(actions[:slap])
        assert path(actions[: slap + 1]) == path(shifted(honest, slap)["actions"][: slap + 1])


class TestRealTime:
    """A daily record must fit in its day: its game no longer than the day had run on arrival."""

    DAY_START_MS = 1_795_996_800_000  # 2026-11-30 00:00 UTC

    def test_the_day_start(self):
        assert day_start_ms(DATE) == self.DAY_START_MS
        assert day_start_ms("1970-01-02") == 86_400_000

    def test_a_game_longer_than_the_day_so_far_is_too_soon(self, honest, honest_game):
        duration = honest_game.outcome.duration_ms
        with pytest.raises(TooSoonError, match="had run only") as refusal:
            judge(json.dumps(honest), DATE, received_ms=self.DAY_START_MS + duration - 1)
        assert refusal.value.code == "too_soon"
        fits = judge(json.dumps(honest), DATE, received_ms=self.DAY_START_MS + duration)
        assert fits.duration_ms == duration

    def test_a_day_not_begun_is_too_soon(self, honest):
        with pytest.raises(TooSoonError, match="has not begun"):
            judge(json.dumps(honest), DATE, received_ms=self.DAY_START_MS - 1000)

    def test_the_bridge_passes_it_through(self, honest):
        answer = json.loads(judge_daily(json.dumps(honest), DATE, None, self.DAY_START_MS + 1000))
        assert answer["ok"] is False and answer["error"]["code"] == "too_soon"
        late = json.loads(
            judge_daily(json.dumps(honest), DATE, None, self.DAY_START_MS + 2 * DAY_MS)
        )
        assert late["ok"] is True
        # a JavaScript number arrives as a whole float
        fits = json.loads(
            judge_daily(json.dumps(honest), DATE, None, float(self.DAY_START_MS + DAY_MS))
        )
        assert fits["ok"] is True

    @pytest.mark.parametrize("received", ["1796169600000", True, 1.5])
    def test_a_bad_arrival_time_is_refused(self, honest, received):
        with pytest.raises(EwarError, match="epoch milliseconds"):
            judge(json.dumps(honest), DATE, received_ms=received)


def test_a_long_game_may_hold_more_lucky_taps():
    assert [lucky_taps(slaps) for slaps in (0, 1, 7, 8, 15, 16, 80)] == [1, 1, 1, 2, 2, 3, 11]


class TestForeknowledge:
    """A player who wins many races with computer slaps by a few ms knew when they were due."""

    @pytest.mark.parametrize(
        ("margins", "refused"),
        [
            ((3, 1, 8, 10, 2, 5, 300, 140, 90, 60), True),  # 6 close of 10
            ((3, 1, 8, 11, 2, 5, 300, 140, 90, 60), False),  # 5 close: a person's luck
            ((3, 1, 8, 10, 2, 5, *range(100, 1100, 100)), False),  # 6 of 16: under 40%
        ],
    )
    def test_the_rule(self, margins, refused):
        times = PlayTimes(slaps=(400, 520, 610, 700, 480), flips=(), races=margins)
        if refused:
            with pytest.raises(ImplausiblePlayError, match="knew when each computer slap"):
                check(times)
        else:
            check(times)

    def test_the_foreknowledge_bot_is_refused_and_says_why(self):
        refused = 0
        for day in range(1, 9):
            date = f"2026-05-{day:02}"
            record = Replay.of(play(Game.daily(date), ForeknowledgeBot(day))).to_json()
            with contextlib.suppress(ImplausiblePlayError):
                judge(record, date)
                continue
            refused += 1
        assert refused >= 3  # the benchmark measures the share (docs/scores.md)

    def test_the_races_are_reported(self, honest):
        answer = verdict(honest)
        assert 0 <= answer["close_races"] <= answer["races"] <= answer["slaps"]

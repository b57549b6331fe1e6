"""Daily editions (ewar/editions.py): a deploy changes nobody's daily. The dailies of an earlier
edition play as the engine of that edition played them (the kept 3.1.0 wheel, netlify/engines/,
set beside this engine), and nothing a daily that may have begun depends on ever changes
(tests/engine/data/editions.json, written by tools/published_dailies.py)."""

from __future__ import annotations

import datetime
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from edition_games import games

from ewar import __version__, editions
from ewar.deal import daily_seed
from ewar.game import Game
from ewar.judge import judge
from tools.published_dailies import RECORD, begun_through, changed_begun, current_record

REPO = Path(__file__).resolve().parents[2]
KEPT = REPO / "netlify" / "engines"
WHEEL_3_1 = KEPT / "ewar-3.1.0-py3-none-any.whl"
# dates of the 3.1.0 edition: before the deal table, on it, and the edition's last day
EARLIER = ["2026-11-28", "2026-12-05", "2026-12-07"]
FIRST_OF_4 = "2026-12-08"  # the 4.0.0 edition's first date


def played_on_wheel(wheel: Path, dates: list[str]) -> dict:
    """``edition_games.py`` run with ``wheel``'s engine first on the path (a process of its own)."""
    script = REPO / "tests" / "engine" / "edition_games.py"
    path = os.pathsep.join(
        [str(wheel), str(REPO)]
    )  # the wheel's ewar first; tools/harness/ from the checkout
    output = subprocess.run(
        [sys.executable, str(script), *dates],
        env={**os.environ, "PYTHONPATH": path},
        cwd=REPO / "tests",
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return json.loads(output)


@pytest.fixture(scope="module")
def on_3_1() -> dict:
    assert json.loads((KEPT / "kept.json").read_text())["engines"][0]["version"] == "3.1.0"
    return played_on_wheel(WHEEL_3_1, [*EARLIER, FIRST_OF_4])


def test_the_editions_take_turns_by_date():
    assert editions.edition_of("2026-12-07").engine == "3.1.0"
    assert editions.edition_of(FIRST_OF_4) is editions.NEWEST
    assert [e.starts for e in editions.EDITIONS] == sorted(e.starts for e in editions.EDITIONS)
    assert Game.daily("2026-12-07").form == 1050 and Game.daily(FIRST_OF_4).form == 1040


def test_practice_plays_the_newest_edition():
    game = Game(7)
    assert game.edition is editions.NEWEST and game.patterns.covered_too_late


def test_a_past_daily_played_again_plays_its_own_edition():
    again = Game(0, date="2026-12-05")
    assert again.edition.engine == "3.1.0" and again.seed == daily_seed("2026-12-05")
    assert not again.patterns.covered_too_late and again.form == 1050


def test_the_earlier_edition_s_dailies_play_as_engine_3_1_0_played_them(on_3_1):
    """The same players make the same records, to the action, and end the same way: the same
    game. The covered-too-late taps of these players (the rule that differs) are in them."""
    assert on_3_1["engine_version"] == "3.1.0"
    old = [game for game in on_3_1["games"] if game["date"] in EARLIER]
    new = games(EARLIER)
    assert len(old) == len(new) == 3 * len(EARLIER)
    assert sum(game["outcome"]["wrong_slaps"] for game in old) > 0
    for before, now in zip(old, new, strict=True):
        assert now["replay"]["engine"] == __version__ != before["replay"]["engine"]
        assert {**now["replay"], "engine": "3.1.0"} == before["replay"], before["date"]
        assert now["outcome"] == before["outcome"], before["date"]


def test_records_played_on_3_1_0_are_judged_to_the_same_score_by_this_engine(on_3_1):
    for game in on_3_1["games"]:
        if game["date"] not in EARLIER:
            continue
        record = {**game["replay"], "engine": __version__}  # this engine refuses other versions
        verdict = judge(json.dumps(record), game["date"])
        assert verdict.score == game["outcome"]["score"], game["date"]
        assert verdict.reason.value == game["outcome"]["reason"]


def test_the_new_edition_is_another_game(on_3_1):
    """The comparison above can fail: from the 4.0.0 edition's first date the games differ."""
    old = [game for game in on_3_1["games"] if game["date"] == FIRST_OF_4]
    new = games([FIRST_OF_4])
    assert any(
        {**now["replay"], "engine": "3.1.0"} != before["replay"]
        for before, now in zip(old, new, strict=True)
    )


class TestPublished:
    """Nothing a daily that may have begun depends on changes: its edition's rules, its deal."""

    record = json.loads(RECORD.read_text())

    def test_every_edition_and_deal_begun_is_as_recorded(self):
        changes = changed_begun(self.record, current_record(), begun_through())
        assert not changes, (
            f"a daily that may have begun would change ({', '.join(changes)}): an edition in "
            "effect and a begun date's deal never change; add a new edition from a date to come"
        )

    def test_the_record_reaches_past_the_dates_begun(self):
        """Every begun date is guarded: past the deal table a date plays its first candidate, and
        extending the table (a yearly task) must not reach a date begun by then."""
        assert max(self.record["daily_seeds"]) > begun_through()
        assert min(self.record["daily_seeds"]) < editions.NEWEST.starts

    def test_a_change_to_an_edition_in_effect_is_caught(self):
        changed = current_record()
        changed["editions"][0]["form_permille"] += 10
        assert changed_begun(self.record, changed, begun_through()) == [
            "the edition from 0001-01-01"
        ]

    def test_a_new_deal_for_a_begun_date_is_caught_but_not_for_a_date_to_come(self):
        through = begun_through(datetime.datetime(2027, 3, 1, 12, tzinfo=datetime.UTC))
        assert through == "2027-03-03"
        changed = current_record()
        changed["daily_seeds"]["2027-03-03"] += 1
        changed["daily_seeds"]["2027-03-04"] += 1
        assert changed_begun(self.record, changed, through) == ["the deal of 2027-03-03"]

    def test_a_new_edition_may_only_start_on_a_date_to_come(self):
        changed = current_record()
        changed["editions"].append(dict(changed["editions"][-1], starts="2027-03-02"))
        through = begun_through(datetime.datetime(2027, 3, 1, 12, tzinfo=datetime.UTC))
        assert changed_begun(self.record, changed, through) == ["the edition from 2027-03-02"]
        changed["editions"][-1]["starts"] = "2027-03-04"
        assert changed_begun(self.record, changed, through) == []

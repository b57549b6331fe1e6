"""The scores function (the judge in Pyodide, in Node) agrees with the judge in CPython on every record.

A record made in CPython is accepted by the function with the same score; the same record with one action
moved by a millisecond is accepted only with the score CPython's judge gives it, or refused with the judge's
code -- never accepted with the old score when the move changed it. Most 1 ms moves change nothing, so the last
test builds ones that do: a slap tying a computer player's slap to the millisecond (ties go to the human) and
the same slap 1 ms late.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import uuid
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tools.harness.replays import daily_play, judged, race_pairs, shifted

ROOT = Path(__file__).resolve().parents[2]
NODE_SCRIPT = Path(__file__).with_name("function_verify.mjs")
OWN_NODE = (
    ROOT / "node_modules" / ".bin" / "node"
)  # Node 22 from npm (package.json); the system's may be older
NODE = str(OWN_NODE) if OWN_NODE.is_file() else shutil.which("node")
# (median_ms, seed) of human-like players (tools/harness/players.py): honest games the judge accepts.
PLAYS = [(250, 1), (450, 2), (300, 3)]
RACE_PLAYS = [(450, 1), (500, 2), (450, 3), (550, 4)]

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        NODE is None or not (ROOT / "node_modules" / "pyodide").is_dir(),
        reason="needs node and node_modules/pyodide (npm ci)",
    ),
]


def today() -> str:
    return datetime.now(UTC).date().isoformat()


def submission(record: dict, score: int | None) -> dict:
    return {
        "id": uuid.uuid4().hex,
        "name": "Tester",
        "date": record["date"],
        "score": 0 if score is None else score,
        "replay": record,
    }


def run_function(submissions: list[dict]) -> list[dict]:
    """POST each submission to the function, in order; its answers and its own verdicts."""
    completed = subprocess.run(
        [NODE, str(NODE_SCRIPT)],
        input=json.dumps({"submissions": submissions}),
        text=True,
        capture_output=True,
        cwd=ROOT,
        timeout=300,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    return json.loads(completed.stdout)


def accepted_score(record: dict) -> int | None:
    """The score CPython's judge lets on the board for ``record`` (no claim), else None."""
    verdict = judged(record, record["date"])
    return verdict["score"] if verdict["ok"] else None


def assert_function_agrees(answer: dict, submission: dict) -> None:
    """The function's verdict is CPython's, and its answer is the one that verdict calls for."""
    verdict = judged(submission["replay"], submission["date"], submission["score"])
    assert answer["verdict"] == verdict
    if verdict["ok"]:
        assert answer["status"] == 201 and answer["body"]["score"] == verdict["score"], answer
    else:
        assert answer["status"] == 422 and answer["body"]["error"] == verdict["error"]["code"], (
            answer
        )


def one_ms_variants(record: dict) -> list[dict]:
    """The record with single actions moved by +1 ms or -1 ms, kept in time order."""
    actions = record["actions"]
    picks = {0, 1, 2, len(actions) // 3, len(actions) // 2, len(actions) - 2, len(actions) - 1}
    slaps = [i for i, (_, kind) in enumerate(actions) if kind == "s"][:4]
    variants = []
    for index in sorted(picks | set(slaps)):
        for delta in (-1, 1):
            time_ms = actions[index][0] + delta
            if time_ms < 0:
                continue
            if index > 0 and time_ms < actions[index - 1][0]:
                continue
            if index + 1 < len(actions) and time_ms > actions[index + 1][0]:
                continue
            variants.append(shifted(record, index, delta))
    return variants


@pytest.fixture(scope="module")
def originals() -> list[dict]:
    return [daily_play(today(), median, seed) for median, seed in PLAYS]


def test_engine_records_are_judged_in_the_function_to_the_same_score(originals):
    sent = [submission(play["replay"], play["score"]) for play in originals]
    answers = run_function(sent)
    for play, one, answer in zip(originals, sent, answers):
        assert play["verdict"]["ok"], play["verdict"]
        assert_function_agrees(answer, one)
        assert answer["status"] == 201 and answer["body"]["score"] == play["score"]


def test_a_one_millisecond_change_is_never_accepted_with_the_old_score(originals):
    cases = []
    for play in originals:
        for record in one_ms_variants(play["replay"]):
            cases.append((record, play["score"], accepted_score(record)))
    assert len(cases) >= 20
    # Each variant with the old score, and (when the move changed it) with its own: a record judged once per claim.
    submissions = []
    for record, old_score, expected in cases:
        submissions.append(submission(record, old_score))
        if expected != old_score:
            submissions.append(submission(record, expected))
    answers = run_function(submissions)
    for one, answer in zip(submissions, answers):
        assert_function_agrees(answer, one)
    with_old_scores = iter(zip(submissions, answers))
    changed = 0
    for _, old_score, expected in cases:
        _, with_old = next(with_old_scores)
        if expected != old_score:
            changed += 1
            assert with_old["status"] == 422, with_old
            next(with_old_scores)  # the same record with its own score: checked above
    print(f"{len(cases)} one-millisecond variants, {changed} of them change the outcome")


def check_one_ms_pairs(pairs: list[tuple[dict, dict]]) -> int:
    """POST each changed record with the original's score and with its own; returns how many changed it."""
    submissions = []
    for original, changed in pairs:
        submissions.append(submission(original, accepted_score(original)))
        submissions.append(submission(changed, accepted_score(original)))
        submissions.append(submission(changed, accepted_score(changed)))
    answers = run_function(submissions)
    for one, answer in zip(submissions, answers):
        assert_function_agrees(answer, one)
    outcome_changed = 0
    for (original, changed), index in zip(pairs, range(0, len(answers), 3)):
        as_original, changed_old, _ = answers[index : index + 3]
        old, new = accepted_score(original), accepted_score(changed)
        assert as_original["status"] == 201 and as_original["body"]["score"] == old, as_original
        if new != old:
            outcome_changed += 1
            assert changed_old["status"] == 422, changed_old
    return outcome_changed


def test_a_slap_one_millisecond_late_loses_the_race_and_the_old_score():
    pairs = [
        (pair["tie"], pair["late"])
        for median, seed in RACE_PLAYS
        for pair in race_pairs(today(), median, seed)
    ]
    assert len(pairs) >= 3
    assert check_one_ms_pairs(pairs) >= 3

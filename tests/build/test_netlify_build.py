"""Netlify's own toolchain: `netlify build --offline` makes the site and the four function bundles (three
on the API, one scheduled), the manifest carries each function's rate limit (trafficRules), methods and
schedule, the bundles stay under Netlify's
limits, and the bundled functions (not the source tree) answer the scores API over a real PostgreSQL
server. `pytest tests/build/test_netlify_build.py -s` prints the figures."""

from __future__ import annotations

import datetime as dt
import json
import re
import subprocess
import threading
import time
import urllib.error
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from tools.harness.build_module import load_build_module
from tools.harness.players import play_human_like

from ewar import bridge
from ewar.game import Game
from ewar.replay import Replay

load_build_module()
from tools.builder import netlify  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def bundles() -> dict:
    return netlify.netlify_build(ROOT)


@pytest.fixture(scope="module")
def scores(bundles):
    return bundles["scores"]


@pytest.fixture(scope="module")
def board(bundles):
    return bundles["board"]


@pytest.fixture(scope="module")
def friends(bundles):
    return bundles["friends"]


class TestNetlifyBuild:
    def test_makes_the_site_in_dist(self, bundles):
        info = json.loads((ROOT / "dist" / "build-info.json").read_text())
        assert (ROOT / "dist" / info["engine_wheel"]).is_file()
        assert (ROOT / "dist" / info["snapshot"]["file"]).is_file()

    def test_bundles_the_scores_function_for_node_22_at_its_path(self, scores):
        assert scores.manifest["runtimeVersion"] == "nodejs22.x"
        assert [route["pattern"] for route in scores.manifest["routes"]] == ["/api/scores"]

    def test_posting_and_reading_are_two_functions_on_one_path_each_with_its_rate_limit(
        self, scores, board
    ):
        assert [route["pattern"] for route in scores.manifest["routes"]] == ["/api/scores"]
        # The reading function also serves a player's own row, forget me and an entry's replay, under the
        # same limit.
        assert [route["pattern"] for route in board.manifest["routes"]] == [
            "/api/scores",
            "/api/scores/player",
            "/api/scores/rank",
            "/api/scores/replay",
        ]
        assert scores.manifest["routes"][0]["methods"] == ["POST"]
        for route in board.manifest["routes"]:
            assert "POST" not in route["methods"] and "GET" in route["methods"]
        limits = {
            bundle.name: bundle.manifest["trafficRules"]["action"]["config"]
            for bundle in (scores, board)
        }
        for config in limits.values():
            assert config["aggregate"]["keys"] == [{"type": "ip"}, {"type": "domain"}]
        assert limits["scores"]["rateLimitConfig"] == {
            "windowLimit": 10,
            "windowSize": 180,
            "algorithm": "sliding_window",
        }
        assert limits["board"]["rateLimitConfig"] == {
            "windowLimit": 120,
            "windowSize": 60,
            "algorithm": "sliding_window",
        }

    def test_friends_boards_are_a_function_of_their_own_with_its_rate_limit(self, friends):
        assert [route["pattern"] for route in friends.manifest["routes"]] == [
            "/api/friends",
            "/api/friends/:code",
            "/api/friends/:code/members",
        ]
        config = friends.manifest["trafficRules"]["action"]["config"]
        assert config["aggregate"]["keys"] == [{"type": "ip"}, {"type": "domain"}]
        assert config["rateLimitConfig"] == {
            "windowLimit": 30,
            "windowSize": 60,
            "algorithm": "sliding_window",
        }

    def test_the_chores_are_a_scheduled_function_no_request_reaches(self, bundles):
        prune = bundles["prune"].manifest
        assert prune["schedule"] == "@hourly"
        assert not prune.get("routes")

    def test_only_the_posting_function_carries_the_engine(self, board, friends, bundles):
        for bundle in (board, friends, bundles["prune"]):
            with zipfile.ZipFile(bundle.zip_path) as archive:
                names = archive.namelist()
            assert not [name for name in names if name.startswith("node_modules/pyodide/")]

    def test_the_bundle_holds_the_runtime_the_wheel_and_the_snapshot(self, scores):
        info = json.loads((ROOT / "dist" / "build-info.json").read_text())
        with zipfile.ZipFile(scores.zip_path) as archive:
            names = set(archive.namelist())
        in_node = {
            name.replace("pyodide.asm.js", "pyodide.asm.mjs") for name in info["runtime_files"]
        }
        assert {f"node_modules/pyodide/{name}" for name in in_node} <= names
        assert f"dist/{info['engine_wheel']}" in names and "dist/build-info.json" in names
        assert {"build/function/engine.snapshot", "build/function/engine.snapshot.json"} <= names

    def test_the_bundle_stays_under_netlifys_limits(self, scores):
        print(
            f"\nscores bundle: {scores.zipped_bytes / 2**20:.1f} MiB zipped,"
            f" {scores.unzipped_bytes / 2**20:.1f} MiB unzipped"
        )
        assert scores.zipped_bytes < netlify.ZIPPED_LIMIT
        assert scores.unzipped_bytes < netlify.UNZIPPED_LIMIT


# ---------------------------------------------------------------------------------------------
# The bundled function answers


def judged(record: dict, date: str) -> dict:
    """The engine's verdict on a daily record: the judge when the engine has one, else verify."""
    if hasattr(bridge, "judge_daily"):
        return json.loads(bridge.judge_daily(json.dumps(record), date, None))
    return json.loads(bridge.verify(json.dumps(record)))


def accepted_daily_record(date: str) -> tuple[dict, int]:
    """A finished daily game of `date`, played by the human-like player of tools/harness/players.py (the
    judge must accept it), with its score."""
    for seed in range(20):
        game = play_human_like(Game.daily(date), 600, seed)
        record = Replay.of(game).to_dict()
        verdict = judged(record, date)
        if verdict.get("ok"):
            score = verdict["score"] if "score" in verdict else verdict["result"]["score"]
            return record, score
    raise AssertionError("no human-like daily game was accepted by the engine")


@pytest.fixture(scope="module")
def bundled_api(scores, board, tmp_path_factory) -> Iterator[str]:
    unzipped = {}
    for bundle in (scores, board):
        unzipped[bundle.name] = tmp_path_factory.mktemp(bundle.name)
        with zipfile.ZipFile(bundle.zip_path) as archive:
            archive.extractall(unzipped[bundle.name])
    command = [
        str(ROOT / "node_modules" / ".bin" / "node"),
        str(ROOT / "tests" / "build" / "bundled_function.mjs"),
        *("--post", str(unzipped["scores"]), "--read", str(unzipped["board"])),
    ]
    process = subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    lines: list[str] = []
    ready = threading.Event()

    def read() -> None:
        for line in process.stdout:
            lines.append(line)
            if line.startswith("Serving bundled function at"):
                ready.set()
        ready.set()

    threading.Thread(target=read, daemon=True).start()
    try:
        assert ready.wait(60) and process.poll() is None, "".join(lines)
        yield re.search(r"http://\S+", lines[-1]).group(0)
    finally:
        process.terminate()
        process.wait(timeout=10)


def call(url: str, method: str = "GET", body: dict | bytes | None = None) -> tuple[int, dict]:
    data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_the_bundled_function_serves_the_board_and_takes_a_verified_daily_score(bundled_api):
    # yesterday's daily: always open, and any game of it fits in the time its day has run (the bundled
    # function keeps the real clock), whatever the hour the tests run
    date = (dt.datetime.now(dt.UTC).date() - dt.timedelta(days=1)).isoformat()
    record, score = accepted_daily_record(date)
    status, board = call(f"{bundled_api}/api/scores?date={date}")
    assert (status, board["entries"], board["total"]) == (200, [], 0)

    submission = {
        "id": "bundle-test-0001",
        "name": "Bundle",
        "date": date,
        "score": score,
        "replay": record,
    }
    started = time.monotonic()
    status, answer = call(f"{bundled_api}/api/scores", "POST", submission)
    cold_post_s = time.monotonic() - started
    print(f"\ncold POST through the bundled function: {cold_post_s:.2f} s")
    assert status == 201, answer
    assert (answer["rank"], answer["score"], answer["name"]) == (1, score, "Bundle")

    status, board = call(f"{bundled_api}/api/scores?date={date}&id=bundle-test-0001")
    assert status == 200 and board["total"] == 1
    assert [(entry["name"], entry["score"]) for entry in board["entries"]] == [("Bundle", score)]
    status, mine = call(f"{bundled_api}/api/scores/rank?date={date}&id=bundle-test-0001")
    assert (status, mine["you"]["rank"], mine["you"]["name"]) == (200, 1, "Bundle")


def test_the_bundled_function_refuses_bad_input_with_its_codes(bundled_api):
    status, answer = call(f"{bundled_api}/api/scores", "POST", b"{not json")
    assert status == 400 and isinstance(answer["error"], str) and answer["message"]

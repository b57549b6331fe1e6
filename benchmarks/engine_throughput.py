"""Engine speed in CPython: whole games per second, the cost of one page call
(frame: advance + view + events as JSON), verifying a 10-minute replay, and
Beggar-My-Neighbour cards per second against a plain string-based simulator.

    python benchmarks/engine_throughput.py
"""

import json
import statistics
import sys
import time
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1])]

import bmn_reference  # noqa: E402

from ewar.bmn import parse_pack, play  # noqa: E402
from ewar.bridge import new_game  # noqa: E402
from ewar.game import Game  # noqa: E402
from ewar.replay import Replay, verify  # noqa: E402
from tools.harness.players import play_simulated_human  # noqa: E402

DATA = Path(__file__).resolve().parents[1] / "tools" / "harness" / "bmn_published.json"


def games_per_second(count: int = 300) -> float:
    started = time.perf_counter()
    for seed in range(count):
        play_simulated_human(Game(seed, speed="normal"), 450, 300)
    return count / (time.perf_counter() - started)


def frame_call_microseconds(calls: int = 5000) -> tuple[float, float]:
    session = new_game("practice", 3, "normal", False, None)
    costs = []
    for step in range(calls):
        started = time.perf_counter()
        session.frame(step * 16)
        costs.append(time.perf_counter() - started)
    costs.sort()
    return statistics.median(costs) * 1e6, costs[int(0.99 * calls)] * 1e6


def ten_minute_replay() -> Replay:
    for seed in range(1000):
        game = play_simulated_human(Game(seed, speed="normal"), 450, 300)
        if game.outcome.won and game.outcome.duration_ms >= 600_000:
            return Replay.of(game)
    raise RuntimeError("no 10-minute game found")


def verify_milliseconds(replay: Replay, repeats: int = 20) -> float:
    text = replay.to_json()
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        verify(Replay.from_json(text))
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def bmn_cards_per_second(run, a, b, seconds: float = 1.0) -> float:
    cards, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        cards += run(a, b)
    return cards / (time.perf_counter() - started)


def verify_records(path: str) -> None:
    """Replay every record of a JSON list (the Pyodide benchmark's games); print the time as JSON."""
    records = json.loads(Path(path).read_text())
    started = time.perf_counter()
    for text in records:
        verify(Replay.from_json(text))
    print(json.dumps({"records": len(records), "total_ms": (time.perf_counter() - started) * 1000}))


def main() -> None:
    if sys.argv[1:2] == ["--verify-records"]:
        verify_records(sys.argv[2])
        return
    print(f"CPU-only full games (simulated human, normal speed): {games_per_second():.0f} games/s")
    median, p99 = frame_call_microseconds()
    print(
        f"one engine call, frame() = advance + view + events as JSON: "
        f"median {median:.1f} us, p99 {p99:.1f} us"
    )
    replay = ten_minute_replay()
    report = verify(replay)
    print(
        f"verify a {report['result']['duration_ms'] / 60000:.1f}-minute replay "
        f"({len(replay.actions)} actions): {verify_milliseconds(replay):.1f} ms"
    )
    longest = max(json.loads(DATA.read_text()), key=lambda deal: deal["cards"])
    a, b = parse_pack(longest["a"]), parse_pack(longest["b"])
    ours = bmn_cards_per_second(lambda x, y: play(x, y).cards, a, b)
    reference = bmn_cards_per_second(
        lambda x, y: bmn_reference.play(x, y)["cards"], longest["a"], longest["b"]
    )
    print(
        f"Beggar-My-Neighbour on {longest['name']} ({longest['cards']} cards): "
        f"ewar {ours / 1e6:.2f} M cards/s, string-based reference {reference / 1e6:.2f} M cards/s "
        f"(ratio {ours / reference:.2f})"
    )


if __name__ == "__main__":
    main()

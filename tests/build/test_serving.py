"""`python build.py serve` serves once the page can play; the memory snapshots follow in the background."""

from __future__ import annotations

import threading

from tools.harness.build_module import load_build_module

load_build_module()
from tools.builder import STEPS  # noqa: E402
from tools.builder.pipeline import BuildError, BuildResult  # noqa: E402
from tools.builder.serving import build_then_finish, first_steps  # noqa: E402
from tools.builder.snapshot import SNAPSHOT_STEPS  # noqa: E402


def test_the_first_build_is_every_step_but_the_snapshots_in_order_with_the_whole_stdlib():
    first = [step.name for step in first_steps(STEPS, SNAPSHOT_STEPS)]
    whole = [step.name for step in STEPS if step not in SNAPSHOT_STEPS]
    assert first == [name if name != "stdlib" else "stdlib_whole" for name in whole]
    assert {"page_snapshot", "function_snapshot"}.isdisjoint(first)
    assert first[-2:] == [
        "build_info",
        "service_worker",
    ]  # the page's facts and the worker's list still close it


def test_serving_starts_after_the_first_build_and_the_whole_build_follows():
    builds: list[list[str]] = []
    may_finish = threading.Event()

    def fake_build(*, steps, log):
        builds.append([step.name for step in steps])
        if len(builds) == 2:
            may_finish.wait(5)  # the whole build is still running when the first one has returned
        return BuildResult(dist=None, info={}, ran=[], skipped=[], seconds=0.0)

    lines: list[str] = []
    first, later = build_then_finish(fake_build, STEPS, SNAPSHOT_STEPS, log=lines.append)
    assert builds[0] == [step.name for step in first_steps(STEPS, SNAPSHOT_STEPS)]
    assert later.is_alive()
    may_finish.set()
    later.join(5)
    assert builds[1] == [step.name for step in STEPS]
    assert any(
        "stdlib, page_snapshot, function_snapshot follow in the background" in line
        for line in lines
    )


def test_a_failed_snapshot_is_said_and_the_server_keeps_serving():
    def fake_build(*, steps, log):
        if len(steps) == len(STEPS):
            raise BuildError("snapshot.mjs failed")
        return BuildResult(dist=None, info={}, ran=[], skipped=[], seconds=0.0)

    lines: list[str] = []
    _first, later = build_then_finish(fake_build, STEPS, SNAPSHOT_STEPS, log=lines.append)
    later.join(5)
    assert any("the game loads without them: snapshot.mjs failed" in line for line in lines)

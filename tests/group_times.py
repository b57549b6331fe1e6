"""A pytest plugin: the time of each test group (tests/<folder>), setup and teardown included, summed over the
run (with pytest-xdist, over its workers), printed at the end and written to $EWAR_TEST_GROUP_TIMES as JSON
for the test command's table (tools/builder/timings.py)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

GROUP_TIMES_FILE = "EWAR_TEST_GROUP_TIMES"


def group_of(nodeid: str) -> str:
    """ "tests/web/test_x.py::test_y" -> "web"; a test outside a folder of tests/ -> its file's name."""
    parts = nodeid.split("::")[0].split("/")
    if parts[0] == "tests":
        parts = parts[1:]
    return parts[0] if parts else nodeid


class GroupTimes:
    def __init__(self) -> None:
        self.groups: dict[str, dict] = {}

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        group = self.groups.setdefault(group_of(report.nodeid), {"seconds": 0.0, "tests": 0})
        group["seconds"] += report.duration
        if report.when == "call":
            group["tests"] += 1

    def pytest_terminal_summary(self, terminalreporter) -> None:
        if not self.groups:
            return
        terminalreporter.section("time per test group (summed over workers)")
        for name, group in sorted(self.groups.items(), key=lambda item: -item[1]["seconds"]):
            terminalreporter.write_line(
                f"tests/{name:<12}{group['seconds']:8.1f} s  {group['tests']:4d} tests"
            )
        target = os.environ.get(GROUP_TIMES_FILE)
        if target:
            Path(target).write_text(json.dumps(self.groups))


def register(config: pytest.Config) -> None:
    """Called from tests/conftest.py's pytest_configure."""
    if not hasattr(
        config, "workerinput"
    ):  # the controller (or a run without workers) keeps the tally
        config.pluginmanager.register(GroupTimes(), "ewar-group-times")

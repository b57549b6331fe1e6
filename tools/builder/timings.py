"""The test command's clock: how long each of its steps took, and pytest's time per test group, in one table."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path


class StepTimes:
    """Wall time per step of one run (`with times.step("lint"): ...`), and pytest's groups read back."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.started = clock()
        self.steps: list[tuple[str, float]] = []
        self.groups: dict[str, dict] = {}

    @contextmanager
    def step(self, name: str) -> Iterator[None]:
        start = self.clock()
        try:
            yield
        finally:
            self.steps.append((name, self.clock() - start))

    def add(self, name: str, seconds: float) -> None:
        """A step timed elsewhere (one that ran beside the others)."""
        self.steps.append((name, seconds))

    def read_groups(self, path: Path) -> None:
        """pytest's time per group, as tests/group_times.py wrote it (nothing if pytest wrote none); a second
        run's groups add to the first's."""
        if not path.is_file():
            return
        for name, group in json.loads(path.read_text()).items():
            known = self.groups.setdefault(name, {"seconds": 0.0, "tests": 0})
            known["seconds"] += group["seconds"]
            known["tests"] += group["tests"]

    def report(self) -> str:
        """The table printed at the end of `python build.py test`."""
        lines = ["build.py test: time per step"]
        lines += [f"  {name:<24}{seconds:8.1f} s" for name, seconds in self.steps]
        lines.append(f"  {'total':<24}{self.clock() - self.started:8.1f} s")
        if self.groups:
            lines.append("pytest: time per group (tests summed, across workers)")
            for name, group in sorted(self.groups.items(), key=lambda item: -item[1]["seconds"]):
                label = f"tests/{name}"
                lines.append(f"  {label:<24}{group['seconds']:8.1f} s  {group['tests']:4d} tests")
        return "\n".join(lines)

"""`python build.py test`: install what the tests need, lint, build, then run pytest and node --test.

`--engine` is the quick path: ruff and the engine's tests but the slow ones, with neither Node nor a
browser (give pytest your own -m to choose otherwise).
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
from pathlib import Path

from . import postgres
from .lint import js_lint_commands, python_lint_commands, run_linters
from .pipeline import BuildError
from .steps import ensure_dev_tools, ensure_serving_packages
from .timings import StepTimes
from .toolchain import QUIET_PIP, project_node

DEBIAN_CHROMIUM = "/usr/bin/chromium"


def test_requirements(root: Path) -> list[str]:
    """pyproject.toml's [dependency-groups] test (PEP 735), include-group entries followed."""
    with (root / "pyproject.toml").open("rb") as handle:
        groups = tomllib.load(handle).get("dependency-groups", {})

    def expand(name: str, seen: tuple[str, ...]) -> list[str]:
        if name in seen:
            raise BuildError(f"dependency group {name!r} includes itself")
        if name not in groups:
            raise BuildError(f"pyproject.toml has no dependency group {name!r}")
        requirements = []
        for entry in groups[name]:
            if isinstance(entry, dict):
                requirements += expand(entry["include-group"], (*seen, name))
            else:
                requirements.append(entry)
        return requirements

    return expand("test", ())


def install_test_requirements(root: Path) -> None:
    """pip installs (or finds already installed) the test requirements, and only them: several
    checkouts may share this Python, and pytest imports each checkout's own ewar (pyproject's
    pythonpath), so the project itself is never installed here."""
    command = [
        sys.executable,
        "-m",
        "pip",
        "install",
        "--quiet",
        "--root-user-action=ignore",
        *test_requirements(root),
    ]
    done = subprocess.run(command, check=False, cwd=root, env={**os.environ, **QUIET_PIP})
    if done.returncode != 0:
        raise BuildError(f"pip could not install the test requirements: {' '.join(command[4:])}")


def chromium_for_tests() -> str:
    """The EWAR_CHROMIUM value the browser tests get: a path, or '' for Playwright's own."""
    chosen = os.environ.get("EWAR_CHROMIUM")
    if chosen is not None:
        if chosen and not Path(chosen).is_file():
            raise BuildError(f"EWAR_CHROMIUM={chosen} does not exist")
        return chosen
    if Path(DEBIAN_CHROMIUM).is_file():
        return DEBIAN_CHROMIUM
    raise BuildError(
        "No Chromium for the browser tests: install Debian's (apt-get install -y chromium; .ci/run"
        " does) or set EWAR_CHROMIUM to a Chromium executable ('' = Playwright's own)"
    )


def node_test_files(root: Path) -> list[Path]:
    """Every *.test.mjs under netlify/ and tests/ (node --test's files)."""
    found = []
    for folder in ("netlify", "tests"):
        found += [
            path
            for path in (root / folder).glob("**/*.test.mjs")
            if "node_modules" not in path.relative_to(root).parts
        ]
    return sorted(found)


# A failed test or hook in TAP, at any depth, unless marked TODO or SKIP.
FAILED_TAP_LINE = re.compile(
    r"^\s*not ok \d+(?!.*#\s*(?:TODO|SKIP)\b)", re.MULTILINE | re.IGNORECASE
)


def node_tests_pass(
    root: Path, files: list[str], env: dict[str, str] | None = None, output=None
) -> bool:
    """Runs node --test on `files` (spec report on stdout, or into the open file `output`); true only if nothing
    failed.

    node --test exits 0 when a hook of a describe() block fails (nodejs/node#58687), so the run's
    TAP report, written aside, is read too: any failed line in it fails the run.
    """
    with tempfile.TemporaryDirectory(prefix="ewar-node-test-") as folder:
        tap = Path(folder) / "report.tap"
        command = [
            str(project_node(root)),
            "--test",
            "--test-reporter=spec",
            "--test-reporter-destination=stdout",
            "--test-reporter=tap",
            f"--test-reporter-destination={tap}",
            *files,
        ]
        exit_code = subprocess.run(
            command,
            check=False,
            cwd=root,
            env=env,
            stdout=output,
            stderr=None if output is None else subprocess.STDOUT,
        ).returncode
        failed_lines = (
            FAILED_TAP_LINE.findall(tap.read_text()) if tap.is_file() else ["(no TAP report)"]
        )
    if exit_code == 0 and failed_lines:
        print(
            f"node --test exited 0 but reported {len(failed_lines)} failure(s) (a hook?)",
            file=sys.stderr,
        )
    return exit_code == 0 and not failed_lines


def pytest_arguments(args: list[str]) -> tuple[bool, list[str]]:
    """(engine only?, pytest's arguments) for the test command's arguments."""
    engine_only = "--engine" in args
    pytest_args = [arg for arg in args if arg != "--engine"]
    if pytest_args[:1] == ["--"]:
        pytest_args = pytest_args[1:]
    if engine_only:
        quick = [] if "-m" in pytest_args else ["-m", "not slow"]
        pytest_args = ["tests/engine", *quick, *pytest_args]
    return engine_only, pytest_args


# The whole suite's pytest runs on this many pytest-xdist workers (EWAR_TEST_WORKERS overrides): its time is
# mostly browser tests waiting on Chromium and Pyodide, which two workers overlap on two cores.
DEFAULT_WORKERS = 2


def parallel_arguments(pytest_args: list[str]) -> list[str]:
    """pytest-xdist's arguments, for the whole suite and the engine's quick path alike (its 730 tests: 32 s on
    one worker, 21 s on two): workers by file, so that a file's shared pages and builds (module fixtures) stay
    in one worker. None when the caller chose -n/-p."""
    if any(arg in ("-n", "-p") or arg.startswith("--numprocesses") for arg in pytest_args):
        return []
    workers = os.environ.get("EWAR_TEST_WORKERS", str(min(DEFAULT_WORKERS, os.cpu_count() or 1)))
    if not workers.isdigit():
        raise BuildError(f"EWAR_TEST_WORKERS={workers} is not a number of workers")
    return [] if int(workers) < 2 else ["-n", workers, "--dist", "loadfile"]


# The whole suite's tests that need neither Node nor the build: they run in a process of their own while npm and
# the build run (npm mostly waits on the network and the disk), the others once the build is done.
BESIDE_THE_BUILD = ("tests/engine", "tests/layers")


def split_runs(pytest_args: list[str]) -> tuple[list[str], list[str]] | None:
    """(the run beside the build's arguments, the run after it's) for the whole suite; None when the caller
    chose the tests (one run, as asked)."""
    if pytest_args:
        return None
    return [*BESIDE_THE_BUILD], ["tests", *(f"--ignore={folder}" for folder in BESIDE_THE_BUILD)]


@contextlib.contextmanager
def work_beside(work, name: str, times: StepTimes):
    """Runs work() in a thread while the block runs; then waits for it, records its time as `name` and raises what
    it raised."""
    started = time.monotonic()
    outcome: dict = {}

    def run() -> None:
        try:
            work()
        except BaseException as error:  # noqa: BLE001 - handed to the waiting thread, raised there
            outcome["error"] = error
        outcome["seconds"] = time.monotonic() - started

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        yield
    finally:
        thread.join()
        times.add(name, outcome["seconds"])
    if "error" in outcome:
        raise outcome["error"]


@contextlib.contextmanager
def pytest_beside(root: Path, args: list[str], env: dict[str, str], times: StepTimes):
    """Runs pytest with `args` in the background while the block runs (its output kept aside); yields a function
    that waits for it, prints its output and returns its exit code."""
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="ewar-pytest-beside-") as folder:
        output = Path(folder) / "output.txt"
        groups = Path(folder) / "groups.json"
        with output.open("w") as sink:
            process = subprocess.Popen(
                [sys.executable, "-m", "pytest", *args],
                cwd=root,
                env={**env, "EWAR_TEST_GROUP_TIMES": str(groups)},
                stdout=sink,
                stderr=subprocess.STDOUT,
            )
        ended: list[float] = []  # when it ended, which may be long before it is waited for
        waiter = threading.Thread(
            target=lambda: (process.wait(), ended.append(time.monotonic())), daemon=True
        )
        waiter.start()

        def finish() -> int:
            code = process.wait()
            waiter.join()
            times.add("pytest (beside the build)", ended[0] - started)
            print(f"\n--- pytest {' '.join(args)}, run beside npm and the build ---", flush=True)
            print(output.read_text(), flush=True)
            times.read_groups(groups)
            return code

        try:
            yield finish
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()


def run_suite(root: Path, args: list[str], build) -> int:
    """The test command; `build` builds dist/ (tools.builder.build). Returns the exit code; prints the time of
    each step and of each test group at the end."""
    engine_only, pytest_args = pytest_arguments(args)
    times = StepTimes()
    with times.step("install test needs"):
        install_test_requirements(root)
    with times.step("lint (Python)"):
        failures = run_linters(root, python_lint_commands())
    env = dict(os.environ)
    runs = None if engine_only else split_runs(pytest_args)
    with contextlib.ExitStack() as services:
        finish_beside = None
        if runs:
            finish_beside = services.enter_context(pytest_beside(root, runs[0], env, times))
            pytest_args = runs[1]
        if not engine_only:
            env["EWAR_CHROMIUM"] = chromium_for_tests()
            with times.step("npm (serving's)"):
                ensure_serving_packages(root)
            # npm adds the test tools to node_modules while the build runs (it leaves the packages building uses).
            with work_beside(lambda: ensure_dev_tools(root), "npm (test tools, beside)", times):
                with times.step("build"):
                    build()
            with times.step("lint (JavaScript)"):
                failures += run_linters(root, js_lint_commands(root))
            # The board's tests and the bundled function run against a real PostgreSQL server.
            with times.step("PostgreSQL (start)"):
                env[postgres.ENV_VAR] = services.enter_context(postgres.temporary_server())
        node_files = (
            []
            if engine_only
            else [path.relative_to(root).as_posix() for path in node_test_files(root)]
        )
        if not engine_only and not node_files:
            failures.append("node --test (no *.test.mjs found)")
        node_passed: list[bool] = []
        with tempfile.TemporaryDirectory(prefix="ewar-test-times-") as folder:
            node_output = Path(folder) / "node-test.txt"
            with contextlib.ExitStack() as beside:
                if node_files:
                    # node --test runs beside pytest, its report kept for after (the board's tests each make a
                    # database of their own on the one server).
                    sink = beside.enter_context(node_output.open("w"))
                    node_env = dict(env)
                    beside.enter_context(
                        work_beside(
                            lambda: node_passed.append(
                                node_tests_pass(root, node_files, node_env, output=sink)
                            ),
                            "node --test (beside)",
                            times,
                        )
                    )
                env["EWAR_TEST_GROUP_TIMES"] = str(Path(folder) / "groups.json")
                command = [
                    sys.executable,
                    "-m",
                    "pytest",
                    *parallel_arguments(pytest_args),
                ]
                with times.step("pytest"):
                    pytest = subprocess.run(
                        [*command, *pytest_args], check=False, cwd=root, env=env
                    )
            times.read_groups(Path(env.pop("EWAR_TEST_GROUP_TIMES")))
            if node_files:
                print(
                    f"\n--- node --test, run beside pytest ---\n{node_output.read_text()}",
                    flush=True,
                )
                if node_passed != [True]:
                    failures.append("node --test")
        exit_codes = {"pytest": pytest.returncode}
        if finish_beside:
            exit_codes[f"pytest {' '.join(runs[0])}"] = finish_beside()
        for name, code in exit_codes.items():
            if code == 5:
                print(f"{name} collected no tests: that is a failure", file=sys.stderr)
            if code != 0:
                failures.append(f"{name} (exit {code})")
    print(times.report())
    if failures:
        print("build.py test FAILED: " + ", ".join(failures), file=sys.stderr)
        return 1
    print("build.py test: all steps succeeded")
    return 0

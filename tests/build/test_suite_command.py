"""`python build.py test`'s helpers: which test requirements pip installs, which node tests run,
which Chromium the browser tests get."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest
from tools.harness.build_module import load_build_module

load_build_module()
from tools.builder import suite  # noqa: E402
from tools.builder.pipeline import BuildError  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def write_pyproject(folder: Path, groups: str) -> Path:
    (folder / "pyproject.toml").write_text(
        f'[project]\nname = "x"\n\n[dependency-groups]\n{groups}\n'
    )
    return folder


class TestTestRequirements:
    def test_are_the_test_dependency_group_with_included_groups(self, tmp_path):
        write_pyproject(
            tmp_path, 'lint = ["ruff==1"]\ntest = ["pytest>=8", {include-group = "lint"}]'
        )
        assert suite.test_requirements(tmp_path) == ["pytest>=8", "ruff==1"]

    def test_a_group_that_includes_itself_is_refused(self, tmp_path):
        write_pyproject(
            tmp_path, 'test = [{include-group = "more"}]\nmore = [{include-group = "test"}]'
        )
        with pytest.raises(BuildError, match="includes itself"):
            suite.test_requirements(tmp_path)

    def test_a_missing_group_is_refused(self, tmp_path):
        write_pyproject(tmp_path, 'lint = ["ruff"]')
        with pytest.raises(BuildError, match="no dependency group 'test'"):
            suite.test_requirements(tmp_path)

    def test_this_project_pins_its_linter_and_browser_driver(self):
        requirements = suite.test_requirements(ROOT)
        assert any(req.startswith("ruff==") for req in requirements)
        assert any(req.startswith("playwright==") for req in requirements)

    def test_pip_installs_the_requirements_only_never_the_project(self, monkeypatch):
        calls = []

        def fake_run(command, **kwargs):
            calls.append(command)
            return subprocess.CompletedProcess(command, 0)

        monkeypatch.setattr(suite.subprocess, "run", fake_run)
        suite.install_test_requirements(ROOT)
        [command] = calls
        assert command[:4] == [sys.executable, "-m", "pip", "install"]
        assert [arg for arg in command[4:] if not arg.startswith("-")] == suite.test_requirements(
            ROOT
        )
        assert "-e" not in command and "." not in command

    def test_a_pip_failure_is_a_clear_error(self, monkeypatch):
        monkeypatch.setattr(
            suite.subprocess, "run", lambda command, **_: subprocess.CompletedProcess(command, 1)
        )
        with pytest.raises(BuildError, match="could not install the test requirements"):
            suite.install_test_requirements(ROOT)


def test_node_tests_are_found_under_netlify_and_tests_outside_node_modules(tmp_path):
    for rel in (
        "netlify/functions/scores/a.test.mjs",
        "netlify/b.test.mjs",
        "netlify/c.mjs",
        "netlify/node_modules/x/d.test.mjs",
        "tests/build/e.test.mjs",
        "web/f.test.mjs",
    ):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("")
    found = [path.relative_to(tmp_path).as_posix() for path in suite.node_test_files(tmp_path)]
    assert found == [
        "netlify/b.test.mjs",
        "netlify/functions/scores/a.test.mjs",
        "tests/build/e.test.mjs",
    ]


NODE_TESTS = {
    "passing": 'import { describe, test } from "node:test";\ndescribe("s", () => { test("t", () => {}); });\n',
    "failing_describe_hook": (
        'import { after, describe, test } from "node:test";\n'
        'describe("s", () => { after(() => { throw new Error("hook"); }); test("t", () => {}); });\n'
    ),
    "failing_test": 'import { test } from "node:test";\ntest("t", () => { throw new Error("no"); });\n',
    "failing_todo": 'import { test } from "node:test";\ntest("t", { todo: true }, () => { throw new Error("later"); });\n',
}


@pytest.mark.parametrize(
    ("case", "passes"),
    [
        ("passing", True),
        ("failing_describe_hook", False),
        ("failing_test", False),
        ("failing_todo", True),
    ],
)
def test_node_tests_fail_the_command_when_a_test_or_a_hook_fails(tmp_path, case, passes):
    # node --test itself exits 0 when a describe() block's hook fails (nodejs/node#58687).
    test_file = tmp_path / f"{case}.test.mjs"
    test_file.write_text(NODE_TESTS[case])
    assert suite.node_tests_pass(ROOT, [str(test_file)]) is passes


@pytest.mark.parametrize(("case", "passes"), [("passing", True), ("failing_test", False)])
def test_node_tests_run_beside_pytest_report_into_a_file_and_still_fail(
    tmp_path, capfd, case, passes
):
    test_file = tmp_path / f"{case}.test.mjs"
    test_file.write_text(NODE_TESTS[case])
    report = tmp_path / "report.txt"
    with report.open("w") as sink:
        assert suite.node_tests_pass(ROOT, [str(test_file)], output=sink) is passes
    assert ("✔ t" if passes else "✖ t") in report.read_text()
    assert (
        "✔ t" not in capfd.readouterr().out
    )  # nothing of it on the command's own output meanwhile


class TestChromium:
    def test_a_chosen_executable_that_does_not_exist_is_refused(self, monkeypatch, tmp_path):
        monkeypatch.setenv("EWAR_CHROMIUM", str(tmp_path / "no-chromium"))
        with pytest.raises(BuildError, match="does not exist"):
            suite.chromium_for_tests()

    def test_empty_means_playwrights_own(self, monkeypatch):
        monkeypatch.setenv("EWAR_CHROMIUM", "")
        assert suite.chromium_for_tests() == ""

    def test_debians_by_default_and_a_clear_error_without_it(self, monkeypatch, tmp_path):
        monkeypatch.delenv("EWAR_CHROMIUM", raising=False)
        debian = tmp_path / "chromium"
        monkeypatch.setattr(suite, "DEBIAN_CHROMIUM", str(debian))
        with pytest.raises(BuildError, match="apt-get install -y chromium"):
            suite.chromium_for_tests()
        debian.write_text("")
        assert suite.chromium_for_tests() == str(debian)


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ([], (False, [])),
        (["-k", "wheel"], (False, ["-k", "wheel"])),
        (["--", "-x"], (False, ["-x"])),
        (["--engine"], (True, ["tests/engine", "-m", "not slow"])),
        (["--engine", "-m", "slow", "-q"], (True, ["tests/engine", "-m", "slow", "-q"])),
    ],
)
def test_the_engine_quick_path_runs_the_engines_fast_tests_only(args, expected):
    assert suite.pytest_arguments(args) == expected


class TestParallelWorkers:
    def test_the_suite_and_the_quick_path_run_on_two_workers_by_file(self, monkeypatch):
        monkeypatch.delenv("EWAR_TEST_WORKERS", raising=False)
        monkeypatch.setattr(suite.os, "cpu_count", lambda: 2)
        assert suite.parallel_arguments([]) == ["-n", "2", "--dist", "loadfile"]
        _, quick = suite.pytest_arguments(["--engine"])
        assert suite.parallel_arguments(quick) == ["-n", "2", "--dist", "loadfile"]

    def test_one_core_or_the_callers_choice_run_in_one_process(self, monkeypatch):
        monkeypatch.delenv("EWAR_TEST_WORKERS", raising=False)
        assert suite.parallel_arguments(["-n", "4"]) == []
        assert suite.parallel_arguments(["-p", "no:xdist"]) == []
        monkeypatch.setattr(suite.os, "cpu_count", lambda: 1)
        assert suite.parallel_arguments([]) == []

    def test_ewar_test_workers_sets_them_and_nonsense_is_refused(self, monkeypatch):
        monkeypatch.setenv("EWAR_TEST_WORKERS", "3")
        assert suite.parallel_arguments([])[:2] == ["-n", "3"]
        monkeypatch.setenv("EWAR_TEST_WORKERS", "many")
        with pytest.raises(BuildError, match="EWAR_TEST_WORKERS=many"):
            suite.parallel_arguments([])


def test_the_time_table_lists_each_step_the_total_and_the_groups_slowest_first(tmp_path):
    from tools.builder.timings import StepTimes

    ticks = iter([0.0, 1.0, 3.5, 3.5, 10.0, 12.0])
    times = StepTimes(clock=lambda: next(ticks))
    with times.step("lint"):
        pass
    with times.step("pytest"):
        pass
    groups = tmp_path / "groups.json"
    groups.write_text(
        '{"engine": {"seconds": 4.0, "tests": 9}, "web": {"seconds": 60.5, "tests": 3}}'
    )
    times.read_groups(groups)
    report = times.report().splitlines()
    assert [line.split()[0] for line in report[1:4]] == ["lint", "pytest", "total"]
    assert (
        report[1].endswith("2.5 s") and report[2].endswith("6.5 s") and report[3].endswith("12.0 s")
    )
    assert report[5].split() == ["tests/web", "60.5", "s", "3", "tests"]
    assert report[6].split() == ["tests/engine", "4.0", "s", "9", "tests"]


def test_pytest_groups_are_the_folders_of_tests():
    from group_times import group_of

    assert group_of("tests/web/test_offline.py::test_x[fast]") == "web"
    assert group_of("tests/engine/test_end.py::TestEnd::test_y") == "engine"
    assert group_of("tests/test_top.py::test_z") == "test_top.py"


class TestTheRunBesideTheBuild:
    def test_the_whole_suite_runs_engine_and_layers_beside_the_build_and_the_rest_after_it(
        self, monkeypatch
    ):
        monkeypatch.setattr(suite.os, "cpu_count", lambda: 2)
        monkeypatch.delenv("EWAR_TEST_WORKERS", raising=False)
        beside, after = suite.split_runs([])
        assert beside == ["tests/engine", "tests/layers"]
        assert after == ["tests", "--ignore=tests/engine", "--ignore=tests/layers"]
        assert suite.parallel_arguments(after) == ["-n", "2", "--dist", "loadfile"]

    def test_tests_the_caller_chose_run_once_as_asked(self):
        assert suite.split_runs(["-k", "judge"]) is None
        assert suite.split_runs(["tests/web/test_csp.py"]) is None

    @pytest.mark.parametrize(("body", "code"), [("assert True", 0), ("assert 1 == 2", 1)])
    def test_its_exit_code_output_and_time_are_reported_when_it_is_waited_for(
        self, tmp_path, capsys, body, code
    ):
        from tools.builder.timings import StepTimes

        (tmp_path / "test_beside.py").write_text(f"def test_one():\n    {body}\n")
        times = StepTimes()
        with suite.pytest_beside(
            tmp_path, ["-p", "no:cacheprovider", "test_beside.py"], dict(suite.os.environ), times
        ) as finish:
            assert finish() == code
        printed = capsys.readouterr().out
        assert "run beside npm and the build" in printed
        assert ("1 passed" if code == 0 else "1 failed") in printed
        [(name, seconds)] = times.steps
        assert name == "pytest (beside the build)" and seconds > 0

    def test_it_is_stopped_when_the_build_fails(self, tmp_path):
        from tools.builder.timings import StepTimes

        (tmp_path / "test_slow.py").write_text(
            "import time\n\ndef test_slow():\n    time.sleep(60)\n"
        )
        started = suite.time.monotonic()
        with pytest.raises(BuildError, match="the build failed"):
            with suite.pytest_beside(
                tmp_path, ["test_slow.py"], dict(suite.os.environ), StepTimes()
            ):
                raise BuildError("the build failed")
        assert suite.time.monotonic() - started < 30


def test_the_groups_of_two_runs_add_up(tmp_path):
    from tools.builder.timings import StepTimes

    times = StepTimes()
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    first.write_text('{"engine": {"seconds": 4.0, "tests": 9}}')
    second.write_text(
        '{"engine": {"seconds": 1.5, "tests": 1}, "web": {"seconds": 6.0, "tests": 2}}'
    )
    times.read_groups(first)
    times.read_groups(second)
    times.read_groups(tmp_path / "none.json")  # a run that wrote nothing adds nothing
    assert times.groups == {
        "engine": {"seconds": 5.5, "tests": 10},
        "web": {"seconds": 6.0, "tests": 2},
    }


class TestWorkBesideTheBuild:
    """npm adds the test tools in a thread while the build runs (suite.work_beside)."""

    def test_both_run_at_once_and_its_time_is_recorded_once_both_are_done(self):
        from tools.builder.timings import StepTimes

        times = StepTimes()
        started = threading.Event()
        build_ran_meanwhile = []

        def work():
            started.set()
            suite.time.sleep(0.3)

        with suite.work_beside(work, "npm (test tools, beside)", times):
            assert started.wait(5)
            build_ran_meanwhile.append(True)
        [(name, seconds)] = times.steps
        assert name == "npm (test tools, beside)" and seconds >= 0.3
        assert build_ran_meanwhile == [True]

    def test_its_failure_is_raised_once_the_block_is_done(self):
        from tools.builder.timings import StepTimes

        def work():
            raise BuildError("npm install (the test tools) failed")

        ran = []
        with pytest.raises(BuildError, match="test tools"):
            with suite.work_beside(work, "npm", StepTimes()):
                ran.append(True)
        assert ran == [True]

    def test_a_build_failure_waits_for_it_and_wins(self):
        from tools.builder.timings import StepTimes

        finished = []
        times = StepTimes()
        with pytest.raises(BuildError, match="the build failed"):
            with suite.work_beside(
                lambda: (suite.time.sleep(0.2), finished.append(1)), "npm", times
            ):
                raise BuildError("the build failed")
        assert finished == [
            1
        ]  # node_modules is never left half-installed by a process still running
        assert [name for name, _ in times.steps] == ["npm"]

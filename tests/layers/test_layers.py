"""The code's layers: every import runs from a higher layer to a lower one (or stays in its folder).

Two stacks share web/common/ as their ground: the page's (LAYERS: web/) and the one outside the page (OUTSIDE:
the functions, the harness the tests and benchmarks share (tools/harness/), the benchmarks and the tools). Both are declared once,
here, and drawn in docs/layers.md; a folder that is not declared fails. Python has the same rule where it can
break: nothing but the tests imports the tests' modules, nothing but the benchmarks imports theirs."""

from __future__ import annotations

import ast
import posixpath
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Lowest first. A module imports from its own folder or from a lower layer; folders in one layer never import
# each other (the roles are joined only by the composition root above them).
LAYERS: tuple[tuple[str, ...], ...] = (
    (
        "web/common",
    ),  # code more than one runtime loads: page, service worker, scores function, build
    ("web/js/base",),  # the page's ground floor: words, storage, clock, emitter, the day
    ("web/js/engine", "web/js/table", "web/js/scores", "web/js/offline"),  # one role each
    ("web/js/panels",),  # the dialogs, which show the roles' words (loading phases, result titles)
    ("web/js/app", "web/worker"),  # the page's composition root; the service worker's
)
# A worker has no DOM and no localStorage: of the page's code it may load only the shared home.
WORKER = "web/worker"
SHARED = "web/common"

SOURCES = ("web/common", "web/js", "web/worker")

# Outside the page, lowest first: the functions' shared code, the database, the scores API (served by two
# functions), the functions (each its own folder: they never import each other), the local server and the build's
# scripts, the harness (tests/ and benchmarks/ share it), and the benchmarks and tools on top. tests/ stands above
# all of it and is not layered; nothing here imports it.
OUTSIDE: tuple[tuple[str, ...], ...] = (
    ("web/common",),
    (
        "netlify/lib",
    ),  # answers, the request's checks, player ids, name keys: what the functions share
    ("netlify/database",),  # the pool, migrations, the score and friends' stores, moderation
    ("netlify/scores-api",),  # the scores API: its handler, judge, copies and purge
    (
        "netlify/functions/board",
        "netlify/functions/friends",
        "netlify/functions/prune",
        "netlify/functions/scores",
    ),  # the deployed functions' entries
    ("netlify", "tools/builder"),  # every function on one local server; the build's node scripts
    ("tools/harness",),  # what tests and benchmarks share: the local API, a fresh database, copies
    ("benchmarks", "tools"),  # measurements; the dev server and the operator's tools
)
OUTSIDE_SOURCES = ("netlify", "benchmarks", "tools")
# Scripts a benchmark serves inside its copy of dist/ (their imports name the served site's files): not layered.
SERVED = ("benchmarks/page/js",)
COMMENT = re.compile(r"/\*.*?\*/|(?:^|\s)//[^\n]*", re.DOTALL)
SPECIFIER = re.compile(
    r"""\bimport\s*\(\s*(["'])([^"']+)\1"""  # import("x")
    r"""|\b(?:import|export)\b[^;"'()]*?\bfrom\s*(["'])([^"']+)\3"""  # import {a} from "x", export * from "x"
    r"""|\bimport\s*(["'])([^"']+)\5""",  # import "x"
    re.DOTALL,
)


def imports_of(source: str) -> list[str]:
    """The module specifiers a JavaScript source names in static and literal dynamic imports."""
    code = COMMENT.sub(" ", source)
    return [
        next(group for group in match.groups()[1::2] if group) for match in SPECIFIER.finditer(code)
    ]


def layer_of(folder: str, layers: tuple[tuple[str, ...], ...]) -> int | None:
    for rank, folders in enumerate(layers):
        if folder in folders:
            return rank
    return None


def wrong_imports(
    root: Path,
    layers: tuple[tuple[str, ...], ...] = LAYERS,
    sources: tuple[str, ...] = SOURCES,
    patterns: tuple[str, ...] = ("*.js",),
    packages: bool = False,
) -> list[str]:
    """One line per import that runs upwards or sideways, leaves the stack, or sits in an undeclared folder.
    `packages`: whether bare specifiers (node's built-ins, node_modules) may be imported."""
    found = []
    for top in sources:
        paths = sorted({path for pattern in patterns for path in (root / top).rglob(pattern)})
        for path in paths:
            if "node_modules" in path.parts or path.parent.relative_to(root).as_posix() in SERVED:
                continue
            rel = path.relative_to(root).as_posix()
            folder = posixpath.dirname(rel)
            rank = layer_of(folder, layers)
            if rank is None:
                found.append(f"{rel}: its folder {folder} is in no layer")
                continue
            for specifier in imports_of(path.read_text()):
                if not specifier.startswith(".") and packages:
                    continue
                if not specifier.startswith("."):
                    found.append(f"{rel} imports {specifier}: the page loads files, not packages")
                    continue
                target = posixpath.dirname(posixpath.normpath(posixpath.join(folder, specifier)))
                if target == folder:
                    continue
                target_rank = layer_of(target, layers)
                if target_rank is None:
                    found.append(f"{rel} imports {specifier}: {target} is in no layer")
                elif target_rank >= rank:
                    direction = "sideways" if target_rank == rank else "upwards"
                    found.append(f"{rel} imports {specifier}: {direction}, {folder} -> {target}")
                elif folder == WORKER and target != SHARED:
                    found.append(f"{rel} imports {specifier}: the worker loads only {SHARED}")
    return found


def plant(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def outside_wrong_imports(root: Path, layers: tuple[tuple[str, ...], ...] = OUTSIDE) -> list[str]:
    return wrong_imports(root, layers, OUTSIDE_SOURCES, ("*.js", "*.mjs"), packages=True)


def test_every_import_in_web_runs_downwards():
    assert wrong_imports(ROOT) == []


def test_every_import_outside_the_page_runs_downwards():
    """The functions never import each other, and the benchmarks no test file (their shared code is tools/harness/)."""
    assert outside_wrong_imports(ROOT) == []


def test_every_folder_outside_the_page_with_code_is_declared():
    folders = {
        posixpath.dirname(path.relative_to(ROOT).as_posix())
        for top in OUTSIDE_SOURCES
        for pattern in ("*.js", "*.mjs")
        for path in (ROOT / top).rglob(pattern)
        if "node_modules" not in path.parts
        and path.parent.relative_to(ROOT).as_posix() not in SERVED
    }
    assert folders == {folder for layer in OUTSIDE[1:] for folder in layer}


@pytest.mark.parametrize(
    ("planted", "complaint"),
    [
        (
            {
                "netlify/functions/friends/handler.mjs": 'import { json } from "../scores/answer.mjs";\n'
            },
            "sideways, netlify/functions/friends -> netlify/functions/scores",
        ),
        (
            {"netlify/lib/answer.mjs": 'import { TOP } from "../database/scores-store.mjs";\n'},
            "upwards, netlify/lib -> netlify/database",
        ),
        (
            {
                "benchmarks/bench.mjs": 'import { freshDatabase } from "../tests/function/testdb.mjs";\n'
            },
            "tests/function is in no layer",
        ),
        (
            {"tools/harness/fixtures.mjs": 'import { x } from "../../benchmarks/board_day.mjs";\n'},
            "upwards, tools/harness -> benchmarks",
        ),
    ],
)
def test_a_planted_wrong_import_outside_the_page_is_caught(tmp_path, planted, complaint):
    root = plant(tmp_path, {"netlify/lib/answer.mjs": 'import pg from "pg";\n', **planted})
    found = outside_wrong_imports(root)
    assert len(found) == 1 and complaint in found[0], found


def python_modules(root: Path, top: str) -> set[str]:
    """The names a file of `top` is imported by (its stem: tests/ and benchmarks/ put their folders on the path)."""
    return {path.stem for path in (root / top).rglob("*.py") if path.stem != "__init__"} | {top}


def wrong_python_imports(root: Path) -> list[str]:
    """One line per Python import of the tests' modules outside tests/ (or tests/ put on sys.path), or of the
    benchmarks' modules outside benchmarks/."""
    owned = {top: python_modules(root, top) for top in ("tests", "benchmarks")}
    found = []
    for top in ("benchmarks", "tools", "tests"):
        for path in sorted((root / top).rglob("*.py")):
            rel = path.relative_to(root).as_posix()
            source = path.read_text()
            names = set()
            for node in ast.walk(ast.parse(source)):
                if isinstance(node, ast.Import):
                    names |= {alias.name.split(".")[0] for alias in node.names}
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names.add(node.module.split(".")[0])
            for other, modules in owned.items():
                if other == top:
                    continue
                for name in sorted(names & modules):
                    found.append(f"{rel} imports {name} from {other}/")
            if top != "tests" and re.search(r"sys\.path\b[^\n]*[\"']tests[\"']", source):
                found.append(f"{rel} puts tests/ on sys.path")
    return found


def test_nothing_but_the_tests_imports_a_test_module_in_python():
    assert wrong_python_imports(ROOT) == []


@pytest.mark.parametrize(
    ("planted", "complaint"),
    [
        (
            {"benchmarks/bench.py": "from pagedriver import PRECACHED\n"},
            "imports pagedriver from tests/",
        ),
        ({"tools/harness/x.py": "import engine_judge\n"}, "imports engine_judge from benchmarks/"),
        (
            {"tests/test_x.py": "from cpu_speeds import measure\n"},
            "imports cpu_speeds from benchmarks/",
        ),
        (
            {"tools/x.py": 'import sys\nsys.path[:0] = [str(ROOT / "tests")]\n'},
            "puts tests/ on sys.path",
        ),
    ],
)
def test_a_planted_python_import_of_another_s_module_is_caught(tmp_path, planted, complaint):
    root = plant(
        tmp_path,
        {
            "tests/web/pagedriver.py": "",
            "benchmarks/engine_judge.py": "",
            "benchmarks/cpu_speeds.py": "",
            "tools/harness/players.py": "",
            "tools/ok.py": "from tools.harness.players import play\n",
            **planted,
        },
    )
    found = wrong_python_imports(root)
    assert len(found) == 1 and complaint in found[0], found


def test_every_folder_with_code_is_declared():
    folders = {
        posixpath.dirname(path.relative_to(ROOT).as_posix())
        for top in SOURCES
        for path in (ROOT / top).rglob("*.js")
    }
    assert folders == {folder for layer in LAYERS for folder in layer}


LOW = "web/js/base/i18n.js"
HIGH = "web/js/app/main.js"


@pytest.mark.parametrize(
    ("planted", "complaint"),
    [
        ({LOW: 'import { go } from "../app/main.js";\n'}, "upwards, web/js/base -> web/js/app"),
        (
            {LOW: 'const main = await import("../app/main.js");\n'},
            "upwards, web/js/base -> web/js/app",
        ),
        (
            {LOW: 'export {\n  go,\n} from "../app/main.js";\n'},
            "upwards, web/js/base -> web/js/app",
        ),
        (
            {"web/js/table/game.js": 'import { x } from "../scores/board.js";\n'},
            "sideways, web/js/table -> web/js/scores",
        ),
        (
            {"web/common/host.js": 'import { t } from "../js/base/i18n.js";\n'},
            "upwards, web/common -> web/js/base",
        ),
        (
            {"web/worker/sync.js": 'import { t } from "../js/base/i18n.js";\n'},
            "the worker loads only web/common",
        ),
        ({"web/js/extra/new.js": ""}, "web/js/extra is in no layer"),
        ({LOW: 'import { x } from "../../vendor/x.js";\n'}, "vendor is in no layer"),
        ({LOW: 'import confetti from "confetti";\n'}, "not packages"),
    ],
)
def test_a_planted_wrong_import_is_caught(tmp_path, planted, complaint):
    root = plant(tmp_path, {LOW: "", HIGH: 'import { t } from "../base/i18n.js";\n', **planted})
    found = wrong_imports(root)
    assert len(found) == 1 and complaint in found[0], found


def test_downward_imports_and_imports_in_comments_pass(tmp_path):
    root = plant(
        tmp_path,
        {
            HIGH: '// import { x } from "../app/x.js" once did\nimport { t } from "../base/i18n.js";\n',
            LOW: '/* see import("../app/main.js") */\nimport { day } from "./deals.js";\n',
            "web/js/base/deals.js": "",
            "web/worker/sync.js": 'import { flush } from "../common/outbox.js";\n',
            "web/common/outbox.js": "",
        },
    )
    assert wrong_imports(root) == []


def drawn_rows(text: str) -> list[tuple[str, ...]]:
    rows = [line for line in text.splitlines() if re.match(r"\| \d, ", line)]
    return [tuple(re.findall(r"`([a-z][^`]*?)/`", row.split("|")[2])) for row in rows]


def test_the_design_note_draws_the_same_layers():
    page, outside = (ROOT / "docs" / "layers.md").read_text().split(OUTSIDE_HEADING)
    assert drawn_rows(page) == list(reversed(LAYERS))
    assert drawn_rows(outside.split("\n## ")[0]) == list(reversed(OUTSIDE))


OUTSIDE_HEADING = "## Outside the page"


def test_outside_web_only_the_shared_home_is_imported():
    """The function, the build, the dev server and the benchmarks load the page's code only from web/common."""
    found = []
    for top in ("netlify", "tools", "benchmarks"):
        for path in sorted((ROOT / top).rglob("*.*js")):
            for specifier in imports_of(path.read_text()):
                if "web/" in specifier and "web/common/" not in specifier:
                    found.append(f"{path.relative_to(ROOT)} imports {specifier}")
    assert found == []

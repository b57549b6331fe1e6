"""The page's layers: every import in web/ runs from a higher layer to a lower one (or stays in its folder).

The order is declared once, here (LAYERS), and drawn in docs/layers.md; a folder that is not declared fails."""

from __future__ import annotations

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


def wrong_imports(root: Path, layers: tuple[tuple[str, ...], ...] = LAYERS) -> list[str]:
    """One line per import that runs upwards or sideways, leaves web/, or sits in an undeclared folder."""
    found = []
    for top in SOURCES:
        for path in sorted((root / top).rglob("*.js")):
            rel = path.relative_to(root).as_posix()
            folder = posixpath.dirname(rel)
            rank = layer_of(folder, layers)
            if rank is None:
                found.append(f"{rel}: its folder {folder} is in no layer")
                continue
            for specifier in imports_of(path.read_text()):
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


def test_every_import_in_web_runs_downwards():
    assert wrong_imports(ROOT) == []


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


def test_the_design_note_draws_the_same_layers():
    note = (ROOT / "docs" / "layers.md").read_text()
    rows = [line for line in note.splitlines() if re.match(r"\| \d, ", line)]
    drawn = [tuple(re.findall(r"`(web/[^`]+?)/`", row)) for row in rows]
    assert drawn == list(reversed(LAYERS))


def test_outside_web_only_the_shared_home_is_imported():
    """The function, the build, the dev server and the benchmarks load the page's code only from web/common."""
    found = []
    for top in ("netlify", "tools", "benchmarks"):
        for path in sorted((ROOT / top).rglob("*.*js")):
            for specifier in imports_of(path.read_text()):
                if "web/" in specifier and "web/common/" not in specifier:
                    found.append(f"{path.relative_to(ROOT)} imports {specifier}")
    assert found == []

"""No wait on a promise through page.wait_for_function: Playwright counts a Promise as truthy and returns at
once, so such a wait waits for nothing (a deploy test failed 1 run in 4 that way). Promises are waited on with
pagedriver.wait_for, which polls page.evaluate (it awaits them)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("tests", "benchmarks")
# What makes a predicate a promise: a .then chain, an async function, a Cache Storage or worker call, an import().
PROMISE = re.compile(
    r"\.then\(|\basync\b|\bawait\b|\bcaches\.|getRegistration|\.status\(\)|\bimport\("
)


def module_strings(tree: ast.Module) -> dict[str, str]:
    """The module's NAME = "text" constants."""
    strings = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            if isinstance(node.value.value, str):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        strings[target.id] = node.value.value
    return strings


def text_of(node: ast.expr, strings: dict[str, str]) -> str:
    """The predicate's source as far as the module tells it: literals, f-strings and the module's constants."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name):
        return strings.get(node.id, "")
    if isinstance(node, ast.JoinedStr):
        return "".join(text_of(part, strings) for part in node.values)
    if isinstance(node, ast.FormattedValue):
        return text_of(node.value, strings)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return text_of(node.left, strings) + text_of(node.right, strings)
    return ""


def promise_waits(source: str) -> list[tuple[int, str]]:
    """(line, predicate) of each wait_for_function call whose predicate is a promise."""
    tree = ast.parse(source)
    strings = module_strings(tree)
    found = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "wait_for_function"
            and node.args
        ):
            text = text_of(node.args[0], strings)
            if PROMISE.search(text):
                found.append((node.lineno, text.strip()[:80]))
    return found


def test_the_check_finds_a_wait_on_a_promise_however_it_is_written() -> None:
    source = """
KEPT = "caches.open('x').then((c) => c.match('y'))"
def f(page, first):
    page.wait_for_function("navigator.serviceWorker.getRegistration().then((r) => !r.waiting)")
    page.wait_for_function(f"caches.keys().then((names) => names.join() === 'ewar-{first}')")
    page.wait_for_function(f"({KEPT}) === null")
    page.wait_for_function("async () => (await fetch('/')).ok")
    page.wait_for_function("document.body.dataset.state === 'over'")
    page.wait_for_function("(lang) => document.documentElement.lang === lang", arg="en")
"""
    assert [line for line, _ in promise_waits(source)] == [4, 5, 6, 7]


def test_no_test_or_benchmark_waits_on_a_promise_with_wait_for_function() -> None:
    found = []
    for folder in SCANNED:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path == Path(__file__).resolve():
                continue
            for line, text in promise_waits(path.read_text(encoding="utf-8")):
                found.append(f"{path.relative_to(ROOT)}:{line}: {text}")
    assert found == [], "use pagedriver.wait_for for a promise:\n" + "\n".join(found)

"""The table fits phones and desktops, portrait and landscape: nothing overlaps, nothing is cut
off, touch targets are at least 44 px; the loading screen paints before Pyodide is ready."""

from __future__ import annotations

import pytest
from pagedriver import (
    advance,
    half_of_the_file,
    open_menu,
    overlaps,
    review_shot,
    run_until,
    start_from_menu,
    wait_ready,
)

SIZES = [(390, 844), (1280, 800), (360, 640), (640, 360), (844, 390)]

# Boxes of the table that must stay apart and inside the window.
REGIONS = [
    ".bar",
    ".seat-north",
    ".seat-west",
    ".seat-east",
    ".seat-south",
    ".centre",
    ".messages",
    ".slap",
]
TARGETS = [
    "[data-testid=slap]",
    "[data-testid=pack-south]",
    "[data-testid=pile]",
    "[data-testid=menu]",
]
MENU_TARGETS = [
    "[data-testid=mode-daily]",
    "[data-testid=mode-new]",
    "[data-testid=speed]",
    "[data-testid=deal]",
    "[data-testid=start]",
]

BOXES = """
(selectors) => selectors.map((selector) => {
  const r = document.querySelector(selector).getBoundingClientRect();
  return { selector, left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height };
})
"""

CLIPPED_TEXT = """
() => [...document.querySelectorAll('.seat-info, .pile-info, .turn, .challenge, .stat, .deal-line, .slap')]
  .filter((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1)
  .map((el) => el.className)
"""


def check_fits(page, width: int, height: int) -> None:
    boxes = page.evaluate(BOXES, REGIONS)
    for box in boxes:
        assert box["left"] >= -0.5 and box["top"] >= -0.5, box
        assert box["right"] <= width + 0.5 and box["bottom"] <= height + 0.5, box
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert not overlaps(a, b), (a, b)
    assert page.evaluate(CLIPPED_TEXT) == []
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")


def check_targets(page, selectors: list[str]) -> None:
    for box in page.evaluate(BOXES, selectors):
        assert box["width"] >= 44 and box["height"] >= 44, box


@pytest.mark.parametrize(("width", "height"), SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_table_fits(shared_page, width: int, height: int) -> None:
    page = shared_page
    page.set_viewport_size({"width": width, "height": height})
    open_menu(page)
    check_targets(page, MENU_TARGETS)
    review_shot(page, f"menu-{width}x{height}")
    start_from_menu(page, speed="slow", deal=31)
    run_until(page, "window.ewar.view().pile.size >= 3 || window.ewar.view().your_turn")
    advance(page, 250)
    check_fits(page, width, height)
    check_targets(page, TARGETS)
    review_shot(page, f"table-{width}x{height}")


def test_the_page_paints_before_the_engine_is_ready(page) -> None:
    held = []
    page.route(
        "**/build-info.json", lambda route: held.append(route)
    )  # the engine's load waits on it: the loading screen stays
    page.goto("/", wait_until="commit")
    page.wait_for_selector("[data-testid=pack-south]", state="visible")
    page.wait_for_selector("[role=progressbar]", state="visible")
    assert page.evaluate("document.body.dataset.state") == "loading"
    page.wait_for_function("document.title === 'Egyptian War'")  # the catalog is on the page
    for route in held:
        route.continue_()
    page.unroute("**/build-info.json")
    wait_ready(page)
    assert page.evaluate("document.documentElement.lang") == "en"
    assert page.evaluate("document.documentElement.dir") == "ltr"


def test_a_missing_engine_file_shows_a_clear_message(page) -> None:
    page.route("**/wheels/*.whl", lambda route: route.fulfill(status=404, body="missing"))
    page.goto("/?load=micropip", wait_until="commit")  # the path that installs the wheel
    page.wait_for_function("document.body?.dataset.state === 'error'", timeout=90_000)
    message = page.inner_text("[data-testid=load-error]")
    assert "could not be loaded" in message and ".whl" in message


@pytest.mark.parametrize("damage", ["cut off", "unreachable"])
def test_a_runtime_that_cannot_be_instantiated_shows_a_clear_message(page, damage: str) -> None:
    """Pyodide only logs a failed instantiation of its WebAssembly and never finishes loading: failing again when
    loaded once more, the page names the file and offers a reload, instead of a loading screen that never ends."""
    if damage == "cut off":
        page.route("**/pyodide/pyodide.asm.wasm", half_of_the_file)
    else:
        page.route("**/pyodide/pyodide.asm.wasm", lambda route: route.abort())
    page.goto("/?load=micropip", wait_until="commit")
    page.wait_for_function("document.body?.dataset.state === 'error'", timeout=30_000)
    message = page.inner_text("[data-testid=load-error]")
    assert "could not be loaded" in message and "pyodide/pyodide.asm.wasm" in message, message
    assert page.get_by_role("button", name="Reload").is_visible()


def test_a_runtime_cut_off_once_is_loaded_again_and_the_page_becomes_ready(page) -> None:
    """A download of the runtime's WebAssembly that broke once is not the end: the page loads the runtime once
    more, says so in the console, and becomes ready."""
    cut = []

    def once_cut_off(route) -> None:
        if cut:
            route.continue_()
            return
        cut.append(route.request.url)
        half_of_the_file(route)

    warnings: list[str] = []
    page.on("console", lambda message: warnings.append(message.text))
    page.route("**/pyodide/pyodide.asm.wasm", once_cut_off)
    page.goto("/?load=micropip", wait_until="commit")
    wait_ready(page)
    assert len(cut) == 1
    assert any("loading the runtime once more" in text for text in warnings), warnings
    assert page.evaluate("window.ewar.engine.path") == "micropip"


def test_a_page_module_that_cannot_load_shows_a_clear_message(page) -> None:
    """web/js/app/early.js, a classic script that runs before any module, turns a failed module into words."""
    page.route("**/js/bundle.js", lambda route: route.fulfill(status=404, body="missing"))
    page.goto("/")
    page.wait_for_function("document.body.dataset.state === 'error'")
    box = page.locator("[data-testid=load-error]")
    assert box.is_visible()
    assert box.inner_text() == box.get_attribute("data-fallback")


def test_a_browser_without_modules_is_told_so(page) -> None:
    """Such a browser runs early.js and no module: here Chromium is made to look like one (no noModule, and
    modules that do nothing)."""
    page.add_init_script(script="delete HTMLScriptElement.prototype.noModule;")

    def a_module(url: str) -> bool:
        return "/js/" in url and not url.endswith("/early.js")

    page.route(a_module, lambda route: route.fulfill(body="", content_type="text/javascript"))
    page.goto("/")
    page.wait_for_function("document.body.dataset.state === 'error'")
    box = page.locator("[data-testid=load-error]")
    assert box.inner_text() == box.get_attribute("data-old-browser")

"""The table, the menu and the result in every language at a phone's and a desktop's size: messages keep off the
deal line, the flip hint is readable (14 px or more), beside the pack rather than on it, and names what this
screen takes (a tap on a touch screen, a key elsewhere); a seat's name and count share one line; the result's
buttons show without scrolling; nothing overlaps. Screenshots of each go to the folder EWAR_SHOTS names,
if set, to look at (pagedriver.review_shot)."""

from __future__ import annotations

import pytest
from a11ykit import LANGUAGES, catalog
from pagedriver import (
    advance,
    freeze_time,
    lose_by_wrong_slaps,
    open_menu,
    overlaps,
    pattern_on_top,
    review_shot,
    run_until,
    start_from_menu,
    switch_language,
    view_of,
    wait_at_rest,
    wait_for,
    wait_ready,
)

PHONE, DESKTOP, SMALL_PHONE = (390, 844), (1280, 800), (360, 640)
HINT_MIN_PX = 14

# What is written on the table: no two of these may overlap (a message over the deal line, a label under a pile).
LABELS = [
    ".bar .title",
    ".stats",
    "[data-testid=menu]",
    ".seat",
    "[data-testid=pile]",
    ".pile-info",
    ".turn",
    ".challenge",
    "[data-testid=toast]",
    "[data-testid=deal-line]",
    "[data-testid=slap]",
]
WIDTHS = (
    "(selectors) => selectors.map((s) => document.querySelector(s).getBoundingClientRect().width)"
)
MENU_FITS = "() => { const p = document.querySelector('#menu .panel'); return p.scrollWidth <= p.clientWidth; }"
# The menu's checkboxes whose box is not the full 24 px square: a label that wraps squeezed them once (house rules).
SQUEEZED_BOXES = """() => [...document.querySelectorAll('#menu .check input')]
  .map((box) => [box.id || box.closest('label').textContent.trim().slice(0, 30), box.getBoundingClientRect()])
  .filter(([, r]) => Math.round(r.width) !== 24 || Math.round(r.height) !== 24)
  .map(([name, r]) => `${name}: ${r.width}x${r.height}`)"""
RESULT_BUTTONS = ["[data-testid=again]", "[data-testid=replay-deal]", "[data-testid=to-menu]"]

BOXES = """
(selectors) => selectors.flatMap((selector) => [...document.querySelectorAll(selector)].map((el, index) => {
  const r = el.getBoundingClientRect();
  return { name: `${selector}#${index}`, left: r.left, top: r.top, right: r.right, bottom: r.bottom };
}))
"""
# Each seat's name and count: their line boxes (one each when they do not wrap), as [top, bottom].
SEAT_LINES = """
() => [...document.querySelectorAll('.seat')].map((seat) => {
  const lines = (el) => [...el.getClientRects()].map((r) => [r.top, r.bottom]);
  return { seat: seat.dataset.seat, name: lines(seat.querySelector('.seat-name')),
           count: lines(seat.querySelector('.seat-count')) };
})
"""
# A button shows when it is inside the window and nothing is drawn over its middle.
IN_SIGHT = """
(selector) => {
  const button = document.querySelector(selector);
  const r = button.getBoundingClientRect();
  const inside = r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
  return inside && button.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2));
}
"""


# An element of the result's body, scrolled into sight there: its top, middle and bottom are its own (not under
# the buttons, not cut off).
UNCOVERED = """
(selector) => {
  const el = document.querySelector(selector);
  el.scrollIntoView({ block: "nearest" });
  const r = el.getBoundingClientRect();
  const x = r.left + Math.min(r.width / 2, 20);
  return [r.top + 2, (r.top + r.bottom) / 2, r.bottom - 2].every((y) => el.contains(document.elementFromPoint(x, y)));
}
"""
RESULT_LINES = [
    "#result-title",
    "[data-testid=result-why]",
    "[data-testid=result-score]",
    "[data-testid=leaderboard-status]",
    "[data-testid=leaderboard-tab-0]",
    "[data-testid=result-countdown]",
]


ONE_LINE = """
(selector) => {
  const el = document.querySelector(selector);
  return el.getBoundingClientRect().height < 2 * parseFloat(getComputedStyle(el).lineHeight);
}
"""


def overlapping(page, selectors: list[str]) -> list[tuple[str, str]]:
    boxes = page.evaluate(BOXES, selectors)
    return [
        (a["name"], b["name"])
        for i, a in enumerate(boxes)
        for b in boxes[i + 1 :]
        if overlaps(a, b)
    ]


def outside(page, selectors: list[str]) -> list[str]:
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    return [
        box["name"]
        for box in page.evaluate(BOXES, selectors)
        if box["left"] < -0.5
        or box["top"] < -0.5
        or box["right"] > width + 0.5
        or box["bottom"] > height + 0.5
    ]


def check_table(page, lang: str) -> None:
    wait_at_rest(page)  # boxes measured where the page means them, not mid-flight
    assert overlapping(page, LABELS) == []
    assert outside(page, LABELS) == []
    for seat in page.evaluate(SEAT_LINES):
        assert len(seat["name"]) == len(seat["count"]) == 1, (lang, seat)
        (name_top, name_bottom), (count_top, count_bottom) = seat["name"][0], seat["count"][0]
        middle = (count_top + count_bottom) / 2
        assert name_top < middle < name_bottom, ("not on one line", lang, seat)
    hint = page.locator("[data-testid=flip-hint]")
    hint.wait_for(state="visible")  # it fades in, in wall time
    if page.viewport_size["width"] >= 1000:  # a desktop: "Press Enter to flip" on one line
        assert page.evaluate(ONE_LINE, "[data-testid=flip-hint]"), lang
    assert (
        overlapping(page, ["[data-testid=flip-hint]", "#your-pack", ".seat-south .seat-info"]) == []
    )
    assert hint.inner_text() == catalog(lang)["table.flipHintKeys"]
    assert (
        page.evaluate(
            "parseFloat(getComputedStyle(document.querySelector('[data-testid=flip-hint]')).fontSize)"
        )
        >= HINT_MIN_PX
    )
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")


def shoot(page, name: str) -> None:
    size = page.viewport_size
    review_shot(page, f"{name}-{size['width']}x{size['height']}")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_menu_table_and_result_in_every_language(shared_page, lang: str) -> None:
    page = shared_page
    switch_language(page, lang)
    for size in (PHONE, SMALL_PHONE, DESKTOP):
        page.set_viewport_size({"width": size[0], "height": size[1]})
        open_menu(page)
        assert page.evaluate(MENU_FITS), (lang, size)
        assert page.evaluate(SQUEEZED_BOXES) == [], (lang, size)
        shoot(page, f"{lang}-menu")

    start_from_menu(page, speed="slow", deal=31)
    run_until(page, "window.ewar.view().your_turn")
    page.keyboard.press(" ")  # a wrong slap: a message in the toast, above the deal line
    advance(page, 300)
    for size in (DESKTOP, SMALL_PHONE, PHONE):
        page.set_viewport_size({"width": size[0], "height": size[1]})
        advance(page)
        assert page.is_visible("[data-testid=toast].show")
        check_table(page, lang)
        if size == DESKTOP:  # the table uses a desktop's room: cards and packs grow with it
            widths = page.evaluate(
                WIDTHS, [".pile-cards .card", ".seat-west .pack", ".seat-north .pack"]
            )
            assert widths[0] >= 140 and widths[1] >= 100 and widths[2] >= 76, widths
        shoot(page, f"{lang}-play")

    lost = lose_by_wrong_slaps(page)
    advance(page, 500)
    assert (
        lost["result"]["reason"] == "eliminated"
    )  # and the result says why (the strict rule: at once)
    assert page.inner_text("[data-testid=result-why]") == catalog(lang)["result.eliminatedWhy"], (
        lang
    )
    for size in (PHONE, SMALL_PHONE, DESKTOP):
        page.set_viewport_size({"width": size[0], "height": size[1]})
        advance(page)
        for button in RESULT_BUTTONS:
            assert page.evaluate(IN_SIGHT, button), (lang, size, button)
        assert overlapping(page, ["#result-body", ".result-actions"]) == [], (lang, size)
        for line in ("#result-title", "[data-testid=result-why]"):
            assert page.evaluate(UNCOVERED, line), (lang, size, line)
        page.evaluate("document.getElementById('result-body').scrollTop = 0")
        shoot(page, f"{lang}-result")


def test_a_daily_on_a_touch_phone_says_tap_and_its_result_keeps_its_buttons_in_sight(
    new_context,
) -> None:
    page = new_context(
        has_touch=True, is_mobile=True, viewport={"width": PHONE[0], "height": PHONE[1]}
    ).new_page()
    page.goto("/")
    wait_ready(page)
    assert page.evaluate("matchMedia('(pointer: coarse)').matches")
    start_from_menu(page, mode="daily")
    run_until(page, "window.ewar.view().your_turn")
    page.wait_for_selector("[data-testid=flip-hint]", state="visible")  # it fades in, in wall time
    assert page.inner_text("[data-testid=flip-hint]") == catalog("en")["table.flipHintTouch"]
    assert overlapping(page, ["[data-testid=flip-hint]", "#your-pack"]) == []

    lose_by_wrong_slaps(page)  # a daily's result holds its board too: the longest result
    page.wait_for_selector("[data-testid=result] [data-testid=leaderboard]", state="visible")
    for width, height in (PHONE, DESKTOP, SMALL_PHONE):
        page.set_viewport_size({"width": width, "height": height})
        advance(page)
        for button in RESULT_BUTTONS:
            assert page.evaluate(IN_SIGHT, button), (width, height, button)
        # The buttons sit below the result's lines, never over them: each line can be scrolled into sight whole.
        assert overlapping(page, ["#result-body", ".result-actions"]) == []
        for line in RESULT_LINES:
            assert page.evaluate(UNCOVERED, line), (width, height, line)
        page.evaluate("document.getElementById('result-body').scrollTop = 0")
        shoot(page, "daily-result")


OFFER = "[data-testid=coach-new-deal]"


def test_out_of_cards_in_the_guided_game_the_offer_is_in_sight_in_every_language_and_size(
    page,
) -> None:
    """A newcomer who lost every card in the guided game: after 20 s the coach's line says what can still happen
    and offers a new deal, in sight and over nothing, at each size and in each language (the tip is said again
    in a new language). The longer footer takes room from the table: the pile gives way, no seat runs over it."""
    page.goto("/?lang=en")
    wait_ready(page)
    freeze_time(page)
    page.click("[data-testid=guided-start]")
    wait_for(page, "document.body.dataset.state === 'playing'")
    for _ in range(200):  # wrong slaps burn your cards one by one
        view = view_of(page)
        if view["seats"][0]["status"] == "out":
            break
        if pattern_on_top(view["pile"]["top"]) is None:
            page.keyboard.press(" ")
        advance(page, 30)
    assert view_of(page)["seats"][0]["status"] == "out"
    run_until(page, f"document.querySelector('{OFFER}') !== null", step_ms=250, limit_ms=30_000)
    assert not view_of(page)["over"]

    for lang in LANGUAGES:
        words = catalog(lang)
        if lang != "en":
            switch_language(page, lang)
            page.click("[data-testid=resume]")
            advance(page)
        said = page.inner_text("[data-testid=deal-line]")
        assert said.casefold().startswith(words["coach.stillOut"].casefold()), (lang, said)
        assert page.inner_text(OFFER) == words["result.again"]
        for width, height in (PHONE, SMALL_PHONE, DESKTOP):
            page.set_viewport_size({"width": width, "height": height})
            advance(page)
            assert page.evaluate(IN_SIGHT, OFFER), (lang, width, height)
            assert outside(page, ["[data-testid=deal-line]"]) == [], (lang, width, height)
            assert overlapping(page, LABELS) == [], (lang, width, height)
            shoot(page, f"{lang}-coach-offer")


LOADING_WORDS = ["loading.title", "loading.runtime", "loading.micropip", "loading.engine"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_loading_screen_speaks_of_the_game(lang: str) -> None:
    for key in LOADING_WORDS:
        text = catalog(lang)[key].lower()
        assert not any(word in text for word in ("python", "pyodide", "package", "runtime")), (
            lang,
            key,
        )


def test_the_first_screen_speaks_before_any_module_runs(page) -> None:
    # The page's script (its modules, bundled) held: what shows comes from the HTML and the CSS alone (the first
    # paint).
    held = []
    page.route("**/js/bundle.js", lambda route: held.append(route))
    page.goto("/", wait_until="commit")
    page.wait_for_selector("#loading h2", state="visible")
    assert page.inner_text("#loading h2") == catalog("en")["loading.title"]
    assert page.is_visible("[role=progressbar]") and page.is_visible("#phases")
    assert page.inner_text(".bar .title") == "Egyptian War"
    # Before the table in the document: a paint of part of the page shows it first.
    first = page.evaluate("document.querySelector('body > :not(svg)').id")
    assert first == "loading"
    assert held, "the script was held"
    for route in held:
        route.continue_()


def test_the_loading_screen_covers_no_seat_and_the_header_names_the_game(page) -> None:
    held = []  # the engine's load waits on build-info.json: the loading screen stays
    page.route("**/build-info.json", lambda route: held.append(route))
    page.goto("/", wait_until="commit")
    page.wait_for_selector("[role=progressbar]", state="visible")
    for width, height in (PHONE, DESKTOP, SMALL_PHONE):
        page.set_viewport_size({"width": width, "height": height})
        assert overlapping(page, ["#loading .panel", ".seat"]) == [], (width, height)
        assert overlapping(page, [".bar .title", ".stats", "[data-testid=menu]"]) == []
        assert outside(page, [".bar .title", ".stats", "[data-testid=menu]"]) == []
        assert page.is_visible(".bar .title")
        assert page.inner_text(".bar .title") == "Egyptian War"
        shoot(page, "loading")
    assert "Python" not in page.inner_text("#loading")
    for route in held:
        route.continue_()
    page.unroute("**/build-info.json")
    wait_ready(page)


# Messages A, B and C 100 ms apart on a message line of its own (showMs 1000, readMs 500, one waiting): what it
# says at each moment of test time.
MESSAGE_LINE = """
async () => {
  const { createMessageLine } = await import("./js/table/message-line.js");
  const element = document.createElement("p");
  const line = createMessageLine(element, { showMs: 1000, readMs: 500, waiting: 1 });
  window.__line = { element, line };
}
"""
SAYS = "() => window.__line.element.classList.contains('show') ? window.__line.element.textContent : null"


def test_a_message_is_not_replaced_before_it_can_be_read(shared_page) -> None:
    page = shared_page
    freeze_time(page)
    page.evaluate(MESSAGE_LINE)
    said = []
    for moment_ms, new in [
        (0, "A"),
        (100, "B"),
        (100, "C"),
        (250, None),
        (100, None),
        (400, None),
        (1000, None),
    ]:
        advance(page, moment_ms)
        if new:
            page.evaluate("(text) => window.__line.line.show(text)", new)
        said.append(page.evaluate(SAYS))
    # A stays its 500 ms although B and C came; B was dropped for C (one may wait); C stays its full second.
    assert said == ["A", "A", "A", "A", "C", "C", None]


def test_the_answer_to_your_own_slap_never_waits_its_turn(shared_page) -> None:
    page = shared_page
    freeze_time(page)
    page.evaluate(MESSAGE_LINE)
    page.evaluate("() => window.__line.line.show('West took the pile')")
    advance(page, 100)
    page.evaluate("() => window.__line.line.show('North slapped', false)")
    page.evaluate("() => window.__line.line.show('Too late', true, { urgent: true })")
    assert page.evaluate(SAYS) == "Too late"
    advance(page, 600)
    assert page.evaluate(SAYS) == "North slapped", "what waited comes after it"


# The pile on its way to North (a copy of its cards, as the table sends it), stopped where its top card crosses
# North's name and count; what is on show there must still be them.
PILE_OVER_NORTH = """
() => {
  const pile = document.getElementById("pile");
  const flying = document.getElementById("pile-cards").cloneNode(true);
  flying.removeAttribute("id");
  flying.classList.add("flying-test");
  flying.style.pointerEvents = "none";
  pile.append(flying);
  const label = document.querySelector(".seat-north .seat-info").getBoundingClientRect();
  const top = flying.lastElementChild.getBoundingClientRect();
  const [x, y] = [label.left + label.width / 2 - (top.left + top.width / 2), label.top - 20 - top.top];
  flying.style.translate = `${x}px ${y}px`;
  return flying.querySelectorAll(".card").length;
}
"""


def test_the_pile_flies_under_norths_name_not_over_it(shared_page) -> None:
    page = shared_page
    switch_language(page, "en")
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    start_from_menu(page, speed="slow", deal=31)
    run_until(page, "window.ewar.view().pile.size >= 2")
    box = page.locator(".seat-north .seat-info").bounding_box()
    # the plate's text, without its rounded corners (which show what is behind them)
    plate = {"x": box["x"] + 8, "y": box["y"], "width": box["width"] - 16, "height": box["height"]}
    before = page.screenshot(clip=plate, animations="disabled")
    assert page.evaluate(PILE_OVER_NORTH) >= 2
    assert page.screenshot(clip=plate, animations="disabled") == before
    page.evaluate("document.querySelector('.flying-test').remove()")

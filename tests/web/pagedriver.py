"""Plays the game page like a quick, correct human: it reads window.ewar.view(), slaps every
Double or Sandwich on top at once and flips as soon as it is its turn, through real keys or taps.

Games run on test time: every test context gets Playwright's fake clock before its first page loads (on_test_time,
running like the real one), start_from_menu() pauses it, and the driver moves it forward (page.clock.run_for)
only to the engine's next wake-up. The page's own timers, frames, performance.now() and the input events' times
(Playwright's fake clock stamps them too) all follow it, so a game of several minutes plays in seconds of wall
time through the same real keys and taps, and its replay verifies as any other."""

from __future__ import annotations

import json
import os
import re
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from weakref import WeakSet

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tools.harness.browser import PRECACHED as PRECACHED  # noqa: E402 (the tests' wait for a full precache)

# The sizes the issues test at: a phone and a desktop (viewports).
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
READY_MS = 90_000  # a cold Pyodide load on a busy 2-core machine
FRAME_MS = 17  # one animation frame of test time: the page draws what the last action changed
GAME_LIMIT_MS = 3_600_000  # the engine ends every game within an hour of game time

_frozen: WeakSet = WeakSet()  # pages whose clock the test drives
_on_test_time: WeakSet = WeakSet()  # contexts whose pages load with the fake clock installed
# An init script for the loader's own setting (web/js/engine/loader-store.js, "ewar.load"): the engine comes from the
# build's memory snapshot, ~2 s here instead of ~6 s through micropip. test_loading_paths.py covers both paths
# and the choice.
SNAPSHOT_PATH = "try { localStorage.setItem('ewar.load', 'snapshot'); } catch {}"


def rank(card: str) -> str:
    return card[:-1]


def pattern_on_top(top: list[str]) -> str | None:
    """ "double", "sandwich" or None, as docs/rules.md ("Slapping") defines them (top = bottom -> top, up to 3)."""
    if len(top) >= 2 and rank(top[-1]) == rank(top[-2]):
        return "double"
    if len(top) >= 3 and rank(top[-1]) == rank(top[-3]):
        return "sandwich"
    return None


POLL_MS = 25  # between two looks at a condition: the one pause of the browser tests, always under a deadline


def wait_until(page, check: Callable[[], Any], *, timeout_ms: int = 30_000, what: str = "") -> Any:
    """Waits (wall time) until check() is truthy; its value. For conditions the test holds (requests its routes
    saw, events it heard): Playwright runs their handlers while the test waits on the page, here between looks."""
    deadline = time.monotonic() + timeout_ms / 1000
    while not (value := check()):
        assert time.monotonic() < deadline, f"not within {timeout_ms} ms: {what or check}"
        page.wait_for_timeout(POLL_MS)
    return value


def wait_for(page, predicate: str, *, timeout_ms: int = 30_000) -> Any:
    """Waits (wall time) until the JS predicate is truthy; its value. Polls with page.evaluate, which awaits a
    promise (page.wait_for_function counts a Promise as truthy and returns at once) and which a
    Content-Security-Policy without 'unsafe-eval' allows (page.wait_for_function's string predicates it does not)."""
    return wait_until(page, lambda: page.evaluate(predicate), timeout_ms=timeout_ms, what=predicate)


class Traffic:
    """The requests of a context (its pages' and its service worker's) whose URL holds `part`, counted as the
    browser reports them: started, and ended (answered, fulfilled by a route, or failed)."""

    def __init__(self, context, part: str = "/api/") -> None:
        self.started: list = []
        self.ended: list = []
        keep = lambda into: lambda request: into.append(request) if part in request.url else None  # noqa: E731
        context.on("request", keep(self.started))
        context.on("requestfinished", keep(self.ended))
        context.on("requestfailed", keep(self.ended))

    def in_flight(self) -> int:
        return len(self.started) - len(self.ended)


def wait_quiet(page, traffic: Traffic, *, timeout_ms: int = 30_000) -> None:
    """Until none of `traffic`'s requests is in flight, also after one more round trip to the page (which runs
    after the tasks and microtasks the page had queued, so a request they start is seen): the signal that the
    page is done asking, before a test counts what it asked for."""
    deadline = time.monotonic() + timeout_ms / 1000
    while True:
        wait_until(
            page, lambda: traffic.in_flight() == 0, timeout_ms=timeout_ms, what="requests in flight"
        )
        page.evaluate("() => new Promise((resolve) => queueMicrotask(resolve))")
        if traffic.in_flight() == 0:
            return
        assert time.monotonic() < deadline, f"requests still in flight after {timeout_ms} ms"


# The outbox's Web Lock (web/common/outbox.js): every send of the outbox, the page's or its service worker's,
# holds it, and locks are granted in the order asked.
OUTBOX_LOCK = "ewar-scores-flush"


def outbox_done(page) -> None:
    """Returns once every send of the outbox begun before this call is over (the test takes the outbox's lock
    after them): the point past which a POST that was going to go out has gone out."""
    page.evaluate("(name) => navigator.locks.request(name, () => true)", OUTBOX_LOCK)


def set_viewport(page, size: dict) -> None:
    """Resizes the page and waits until it has taken the size and drawn a frame at it (its resize handlers run
    before that frame): what a layout check or a screenshot needs. On test time, the frame comes with the clock."""
    page.set_viewport_size(size)
    wait_for(page, f"innerWidth === {size['width']} && innerHeight === {size['height']}")
    if is_frozen(page):
        advance(page)
    else:
        page.evaluate("() => new Promise((resolve) => requestAnimationFrame(() => resolve()))")


def open_held(context, path: str = "/") -> object:
    """A new page of `context` at `path` (its DOM parsed) whose build-info.json and Pyodide's files are held
    unanswered: it stays on its loading screen and spends nothing on the engine (a first visit's loader starts
    Pyodide before build-info answers, loader.js); its modules can be imported."""
    page = context.new_page()
    for held in ("**/build-info.json", "**/pyodide/**"):
        page.route(held, lambda route: None)
    page.goto(path, wait_until="domcontentloaded")
    return page


# How far a page's load got: its state, what its loading panel says, the loader's marks (ms from navigation) and
# the files whose fetch has ended.
LOAD_STATE = """() => ({
  state: document.body?.dataset.state ?? null,
  loading: document.getElementById('loading')?.innerText.slice(0, 300) ?? null,
  marks: performance.getEntriesByType('mark').map((mark) => `${mark.name} ${Math.round(mark.startTime)}`),
  loaded: performance.getEntriesByType('resource').map((file) => file.name.split('/').pop()),
})"""


def wait_ready(page) -> None:
    """The engine is loaded and the menu open: on a fresh page, or over the game saved before a reload, paused
    (also from a page only just navigated to, whose body is not parsed yet). A page that never gets there is
    described in the failure (LOAD_STATE), at once if its load failed."""
    try:
        wait_for(
            page,
            "['ready', 'error'].includes(document.body?.dataset.state)"
            " || (document.body?.dataset.state === 'playing' && document.body.hasAttribute('data-paused'))",
            timeout_ms=READY_MS,
        )
    except AssertionError as error:
        raise AssertionError(f"{error}\nthe page: {page.evaluate(LOAD_STATE)}") from None
    if page.evaluate("document.body.dataset.state") == "error":
        raise AssertionError(f"the page's load failed: {page.evaluate(LOAD_STATE)}")


@contextmanager
def loaded_page(context) -> Iterator[object]:
    """A page of `context` with the game loaded and ready; the context is closed after."""
    try:
        page = context.new_page()
        page.goto("/")
        wait_ready(page)
        yield page
    finally:
        context.close()


# The board's GET (a day's board), as the page asks for it.
BOARD_API = re.compile(r"/api/scores\?")


def board_answers(board: dict) -> Callable[[Any], None]:
    """A route handler answering the board's GETs with `board`; any other request goes on to the server."""

    def answer(route) -> None:
        if route.request.method == "GET":
            route.fulfill(json=board)
        else:
            route.continue_()

    return answer


@contextmanager
def board_and_history_page(context_opener, board: dict, history: dict) -> Iterator[object]:
    """A welcomed player's page, ready, whose board answers `board` and whose kept history is `history`."""
    context = context_opener()
    context.add_init_script(
        script=(
            "localStorage.setItem('ewar.welcomed', '1');"
            f"localStorage.setItem('ewar.history', {json.dumps(json.dumps(history))});"
        )
    )
    context.route(BOARD_API, board_answers(board))
    with loaded_page(context) as page:
        yield page


# Today's daily counted as played on this device (its start is the day's one attempt): today's board games may be
# watched, and its deal replayed. Run before the page's own scripts, by the page's clock.
PLAYED_TODAY = """(() => {
  const date = new Date().toISOString().slice(0, 10);
  const history = JSON.parse(localStorage.getItem("ewar.history") || "null") ?? {};
  if (history.daily?.date !== date) {
    localStorage.setItem("ewar.history", JSON.stringify({ ...history, daily: { date, finished: false } }));
  }
})()"""


def played_today(context_or_page) -> None:
    """Today's daily counts as played on this device from the next page load on (``PLAYED_TODAY``)."""
    context_or_page.add_init_script(PLAYED_TODAY)


def open_menu(page) -> None:
    """The menu, from wherever the page is (at the start, over a game, or after one)."""
    if page.is_visible("[data-testid=menu-panel]"):
        return
    if page.is_visible("[data-testid=result]"):
        page.click("[data-testid=to-menu]")
    else:
        page.click("[data-testid=menu]")
    page.wait_for_selector("[data-testid=menu-panel]", state="visible")


def switch_language(page, lang: str) -> None:
    """Through the menu's picker, as a player would; waits until the page is in that language."""
    open_menu(page)
    page.select_option("[data-testid=language]", lang)
    wait_for(
        page, f"document.documentElement.lang === '{lang}' && window.ewar.language() === '{lang}'"
    )


# Playwright's fake clock replaces window.performance with one that keeps no entries (getEntries* answer [], mark
# records nothing); the page's marks and resource timings are what some tests read (the loader's path, the
# device's snapshot, the files fetched). Run before the clock's own script, this keeps the real entries behind the
# fake's now().
KEEP_PERFORMANCE_ENTRIES = """(() => {
  const real = window.performance;
  let current = real;
  const kept = ["getEntries", "getEntriesByName", "getEntriesByType", "mark", "measure", "clearMarks", "clearMeasures"];
  Object.defineProperty(window, "performance", {
    configurable: true,
    get: () => current,
    set(fake) {
      for (const key of kept) fake[key] = real[key].bind(real);
      current = fake;
    },
  });
})()"""


def on_test_time(context, *, time: Any = None) -> None:
    """Installs Playwright's fake clock in `context` before any of its pages loads (at `time`, a datetime or epoch
    seconds, else now), running like the real one until a test pauses it (freeze_time). The fake clock stamps
    input events on its own timeline too (Playwright fakes Event.timeStamp with performance.now()), so the page
    reads their times as on the real clock. Once per context, before its first page."""
    if context in _on_test_time:
        return
    context.add_init_script(script=KEEP_PERFORMANCE_ENTRIES)
    if time is None:
        context.clock.install()
    else:
        context.clock.install(time=time)
    _on_test_time.add(context)


def on_test_clock(context) -> bool:
    """Whether `context`'s pages load with the fake clock (on_test_time)."""
    return context in _on_test_time


def freeze_time(page) -> None:
    """Pauses the page's fake clock (installed before the page loaded: on_test_time): from now on the page's time
    moves only when the test moves it (advance, run_until). Once per page; a game must start after it, on that
    clock."""
    if page in _frozen:
        return
    assert page.context in _on_test_time, (
        "the fake clock goes in before the page loads: on_test_time(context)"
    )
    # A second ahead: the installed clock runs on meanwhile, and pausing in its past is an error.
    page.clock.pause_at(page.evaluate("Date.now()") / 1000 + 1)
    _frozen.add(page)


def advance(page, ms: int = FRAME_MS) -> None:
    """Moves the page's time forward by ms, running its timers and animation frames on the way."""
    assert page in _frozen, "freeze_time(page) first"
    page.clock.run_for(ms)


def is_frozen(page) -> bool:
    return page in _frozen


# Whether every finite CSS transition and animation on the page has ended (a looping one, the pack's pulse, never
# does and is left out). They run on the browser's own time, not the test clock: a screenshot's wall time used
# to let them end unseen before a layout check.
AT_REST = """
() => document.getAnimations().every(
  (animation) => animation.playState !== "running" || animation.effect?.getComputedTiming().iterations === Infinity)
"""


RUNNING_ANIMATIONS = """
() => document.getAnimations().filter((animation) => animation.playState === "running").map((animation) => ({
  name: animation.transitionProperty || animation.animationName,
  target: animation.effect?.target?.className ?? "",
  time: animation.currentTime,
  iterations: String(animation.effect?.getComputedTiming().iterations),
}))
"""


def wait_at_rest(page, *, timeout_ms: int = 10_000) -> None:
    """Until the page's transitions and animations (a card's flight, a seat's highlight, a fade) have ended, in wall
    time (the test clock stays where it is): what a check of where boxes lie needs."""
    try:
        wait_for(page, AT_REST, timeout_ms=timeout_ms)
    except AssertionError as error:
        running = page.evaluate(RUNNING_ANIMATIONS)
        raise AssertionError(
            f"the page is still moving after {timeout_ms} ms: {running}"
        ) from error


def settle(page, async_function: str, arg: Any = None, *, timeout_s: float = 60) -> Any:
    """The value of an async JS function run in the page. On test time its timers wait for the clock, so the
    clock moves on (50 ms at a time) until the promise settles."""
    if not is_frozen(page):
        return page.evaluate(async_function, arg)
    page.evaluate(
        """([source, arg]) => {
          window.__settled = null;
          Promise.resolve((0, eval)(source)(arg)).then(
            (value) => { window.__settled = { value }; },
            (error) => { window.__settled = { error: String(error?.stack ?? error) }; });
        }""",
        [async_function, arg],
    )
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        settled = page.evaluate("window.__settled")
        if settled is not None:
            assert "error" not in settled, settled["error"]
            return settled["value"]
        advance(page, 50)
    raise AssertionError(f"did not settle within {timeout_s} s: {async_function[:80]}")


def run_until(
    page, predicate: str, *, arg: Any = None, step_ms: int = 50, limit_ms: int = 120_000
) -> Any:
    """Moves the page's time forward step_ms at a time until the JS predicate is truthy; its value."""
    for _ in range(limit_ms // step_ms + 1):
        value = page.evaluate(predicate, arg)
        if value:
            return value
        advance(page, step_ms)
    raise AssertionError(f"not within {limit_ms} ms of game time: {predicate}")


def start_from_menu(
    page, *, mode: str = "new", speed: str | None = None, deal: int | None = None
) -> dict:
    """Start a game through the menu controls, on test time (freeze_time); returns the first view."""
    freeze_time(page)
    page.click(f"[data-testid=mode-{mode}]")
    if speed:
        page.select_option("[data-testid=speed]", speed)
    if deal is not None:
        page.fill("[data-testid=deal]", str(deal))
    page.click("[data-testid=start]")
    if page.is_visible("[data-testid=confirm-dialog]"):  # a game is running: leave it, as asked
        page.click("[data-testid=confirm-leave]")
    wait_for(
        page,
        "document.body.dataset.state === 'playing' && !document.body.hasAttribute('data-paused')",
    )
    return view_of(page)


class Controls:
    """How the driver acts: flip() and slap() through one input device."""

    def __init__(self, flip: Callable[[], None], slap: Callable[[], None]) -> None:
        self.flip = flip
        self.slap = slap


def keyboard(page) -> Controls:
    return Controls(lambda: page.keyboard.press("Enter"), lambda: page.keyboard.press(" "))


def taps(page) -> Controls:
    """Taps (touch pointer events) on the pack to flip; on the pile and SLAP! in turn to slap."""
    targets = ["[data-testid=pile]", "[data-testid=slap]"]
    count = [0]

    def slap() -> None:
        page.tap(targets[count[0] % 2])
        count[0] += 1

    return Controls(lambda: page.tap("[data-testid=pack-south]"), slap)


def view_of(page) -> dict:
    return page.evaluate("window.ewar.view()")


def play_to_end(
    page,
    controls: Controls,
    *,
    want: str | None = None,
    stop: Callable[[dict], bool] | None = None,
    reaction_ms: int = 0,
    timeout_s: float = 120,
) -> dict:
    """Play until the game is over (or stop(view) is true); returns the last view, drawn.

    Flips at once when it is our turn; slaps each Double or Sandwich reaction_ms after it shows (unless a CPU
    was first); otherwise moves test time on to the engine's next wake-up.
    want: slap only this pattern ("double" or "sandwich"), leave the others to the CPU.
    timeout_s: wall time allowed (a stuck page fails the test instead of hanging it).
    """
    deadline = time.monotonic() + timeout_s
    slapped = None  # the pile already slapped, so one pattern is never slapped twice
    view = view_of(page)
    while view["clock"] <= GAME_LIMIT_MS and time.monotonic() < deadline:
        if view["over"] or (stop and stop(view)):
            advance(page)  # the frame that draws it
            return view
        found = pattern_on_top(view["pile"]["top"])
        pile = json.dumps(view["pile"])
        if (
            found
            and (want in (None, found))
            and pile != slapped
            and view["seats"][0]["status"] != "eliminated"
        ):
            if reaction_ms:
                advance(page, reaction_ms)
                if json.dumps(view_of(page)["pile"]) != pile:  # a CPU took it meanwhile
                    view = view_of(page)
                    continue
            slapped = pile
            controls.slap()
        elif view["your_turn"]:
            controls.flip()
        else:  # on to the first frame at or after the engine's next wake-up
            advance(
                page, max(0, (view["wake_at"] or view["clock"] + 100) - view["clock"]) + FRAME_MS
            )
        view = view_of(page)
    raise AssertionError(f"the game did not end (within {timeout_s} s of wall time): {view}")


def lose_by_wrong_slaps(page, tries: int = 60) -> dict:
    """Wrong slaps until out of cards, one more and you are eliminated: a short, complete loss.
    At most `tries` looks at the table, 30 ms of test time apart; returns the final view once the page
    says the game is over."""
    for _ in range(tries):
        view = view_of(page)
        if view["over"]:
            break
        if pattern_on_top(view["pile"]["top"]) is None:
            page.keyboard.press(" ")
        advance(page, 30)
    run_until(page, "document.body.dataset.state === 'over'")
    return view_of(page)


def shown_number(page, testid: str) -> int:
    """The integer shown in an element, whatever the digit grouping."""
    text = page.inner_text(f"[data-testid={testid}]")
    digits = re.sub(r"[^\d-]", "", text.replace("−", "-"))
    return int(digits)


def short_practice_seeds(
    count: int = 2, candidates: range = range(1, 201), *, wrong_slap_first: bool = False
) -> list[int]:
    """Practice seeds whose fast-CPU game a quick human finishes soonest, found with the engine's
    own simulated human (a fraction of a second), so that a full game fits in a test's time.
    wrong_slap_first: the human slaps the empty pile at the start, as a test will."""
    from ewar.game import Game
    from tools.harness.players import play_simulated_human

    durations = []
    for seed in candidates:
        game = Game(seed, speed="fast")
        if wrong_slap_first:
            game.slap(0)
        play_simulated_human(game, reaction_ms=80, flip_ms=60)
        if game.outcome.won:
            durations.append((game.outcome.duration_ms, seed))
    return [seed for _ms, seed in sorted(durations)[:count]]


def fake_connection(**fields) -> str:
    """An init script that makes navigator.connection report `fields`: what the page reads of the link. (DevTools'
    network emulation changes it too, but stalled a page's requests for good under load: see performance.md.)"""
    return (
        "Object.defineProperty(Navigator.prototype, 'connection',"
        f" {{configurable: true, get: () => ({json.dumps(fields)})}});"
    )


def half_of_the_file(route) -> None:
    """Serves the file cut off halfway, as a download that broke would leave it (a damaged file alike)."""
    answer = route.fetch()
    body = answer.body()
    route.fulfill(response=answer, body=body[: len(body) // 2])


def box(page, selector: str) -> dict:
    """The first element of ``selector``'s box on screen: {left, top, right, bottom}.
    Found and measured in one evaluation: the page may redraw between two (eval_on_selector makes two), and an
    element it has just replaced measures 0 by 0."""
    found = page.evaluate(
        "(selector) => { const el = document.querySelector(selector); if (!el) return null;"
        " const r = el.getBoundingClientRect();"
        " return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; }",
        selector,
    )
    assert found is not None, f"nothing on the page matches {selector}"
    return found


def overlaps(a: dict, b: dict) -> bool:
    """Whether two boxes ({left, top, right, bottom}) overlap by more than a pixel's rounding."""
    return (
        a["left"] < b["right"] - 1
        and b["left"] < a["right"] - 1
        and a["top"] < b["bottom"] - 1
        and b["top"] < a["bottom"] - 1
    )


# Screenshots for a person to look through (each language and size), not checked by any test: written only where
# EWAR_SHOTS names a folder (EWAR_SHOTS=/tmp/shots python build.py test). Each costs ~130 ms of CPU, and a run
# would take ~200 of them.
SHOTS_FOLDER = "EWAR_SHOTS"


def review_shot(page, name: str, *, scroll_to: str | None = None) -> None:
    """Saves the page as $EWAR_SHOTS/<name>.png (name may hold a subfolder), scroll_to's element scrolled into view
    first; does nothing when EWAR_SHOTS is not set."""
    folder = os.environ.get(SHOTS_FOLDER)
    if not folder:
        return
    if scroll_to:
        page.locator(scroll_to).scroll_into_view_if_needed()
    path = Path(folder) / f"{name}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path))

"""Plays the game page like a quick, correct human: it reads window.ewar.view(), slaps every
Double or Sandwich on top at once and flips as soon as it is its turn, through real keys or taps."""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

READY_MS = 90_000  # a cold Pyodide load on a busy 2-core machine

# Resolves, at the first animation frame where the driver has something to do, with the view.
# `skip` is the pile already slapped, so one pattern is never slapped twice.
WAIT_FOR_MOVE = """
([skip, want]) => new Promise((resolve) => {
  const rank = (card) => card.slice(0, -1);
  const pattern = (top) => {
    const n = top.length;
    if (n >= 2 && rank(top[n - 1]) === rank(top[n - 2])) return "double";
    if (n >= 3 && rank(top[n - 1]) === rank(top[n - 3])) return "sandwich";
    return null;
  };
  const check = () => {
    const view = window.ewar.view();
    const key = JSON.stringify(view.pile);
    const found = pattern(view.pile.top);
    const slappable = found && (!want || want === found) && key !== skip
      && view.seats[0].status !== "eliminated";
    if (view.over || slappable || view.your_turn) resolve({ view, key, pattern: slappable ? found : null });
    else requestAnimationFrame(check);
  };
  check();
})
"""


def rank(card: str) -> str:
    return card[:-1]


def pattern_on_top(top: list[str]) -> str | None:
    """"double", "sandwich" or None, as RULES.md defines them (top = bottom -> top, up to 3)."""
    if len(top) >= 2 and rank(top[-1]) == rank(top[-2]):
        return "double"
    if len(top) >= 3 and rank(top[-1]) == rank(top[-3]):
        return "sandwich"
    return None


def wait_ready(page) -> None:
    page.wait_for_function("document.body.dataset.state === 'ready'", timeout=READY_MS)


def start_from_menu(page, *, mode: str = "new", speed: str | None = None, deal: int | None = None) -> dict:
    """Start a game through the menu controls; returns the first view."""
    page.click(f"[data-testid=mode-{mode}]")
    if speed:
        page.select_option("[data-testid=speed]", speed)
    if deal is not None:
        page.fill("[data-testid=deal]", str(deal))
    page.click("[data-testid=start]")
    page.wait_for_function("document.body.dataset.state === 'playing'")
    return page.evaluate("window.ewar.view()")


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


def play_to_end(page, controls: Controls, *, timeout_s: float = 150.0,
                want: str | None = None, stop: Callable[[dict], bool] | None = None) -> dict:
    """Play until the game is over (or stop(view) is true); returns the last view.

    want: slap only this pattern ("double" or "sandwich"), leave the others to the CPU.
    """
    deadline = time.monotonic() + timeout_s
    skip = None
    while time.monotonic() < deadline:
        move = page.evaluate(WAIT_FOR_MOVE, [skip, want])
        view = move["view"]
        if view["over"] or (stop and stop(view)):
            return view
        if move["pattern"]:
            skip = move["key"]
            controls.slap()
        elif view["your_turn"]:
            controls.flip()
    raise AssertionError(f"the game did not end within {timeout_s} s: {page.evaluate('window.ewar.view()')}")


def lose_by_wrong_slaps(page, tries: int = 60) -> dict:
    """Wrong slaps until out of cards, one more and you are eliminated: a short, complete loss.
    At most `tries` looks at the table; returns the final view once the page says the game is over."""
    for _ in range(tries):
        view = page.evaluate("window.ewar.view()")
        if view["over"]:
            break
        if pattern_on_top(view["pile"]["top"]) is None:
            page.keyboard.press(" ")
        page.wait_for_timeout(30)
    page.wait_for_function("document.body.dataset.state === 'over'")
    return page.evaluate("window.ewar.view()")


def shown_number(page, testid: str) -> int:
    """The integer shown in an element, whatever the digit grouping."""
    text = page.inner_text(f"[data-testid={testid}]")
    digits = re.sub(r"[^\d-]", "", text.replace("−", "-"))
    return int(digits)


def short_practice_seeds(count: int = 2, candidates: range = range(1, 201), *,
                         wrong_slap_first: bool = False) -> list[int]:
    """Practice seeds whose fast-CPU game a quick human finishes soonest, found with the engine's
    own simulated human (a fraction of a second), so that a full game fits in a test's time.
    wrong_slap_first: the human slaps the empty pile at the start, as a test will."""
    from players import play_simulated_human
    from ewar.game import Game

    durations = []
    for seed in candidates:
        game = Game(seed, speed="fast")
        if wrong_slap_first:
            game.slap(0)
        play_simulated_human(game, reaction_ms=80, flip_ms=60)
        if game.outcome.won:
            durations.append((game.outcome.duration_ms, seed))
    return [seed for _ms, seed in sorted(durations)[:count]]

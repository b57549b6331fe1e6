"""Plays today's daily on the page as a person would, so that the scores function's judge takes the record: each
reaction to a Double or Sandwich and each flip delay is drawn from tools/harness/players.py's human-like model (lognormal
around its median, about one pattern in ten missed), from a seeded stream: on the same deal, a seed always plays
the same game.

A daily at normal speed runs for minutes of game time; after a short stretch of real play the person gives up
the quick way, with wrong slaps at uneven moments until out of cards and eliminated: a finished, real loss.
It drives the page on test time (pagedriver.freeze_time), through the page's own keys."""

from __future__ import annotations

import json
import time

from pagedriver import FRAME_MS, advance, pattern_on_top, start_from_menu, view_of

from tools.harness.players import HumanLikePlayer

SLAP_KEY = " "
FLIP_KEY = "Enter"


def _next_step(now: int, view: dict, *planned: int | None) -> int:
    """Test time to move on: to the first planned action or the engine's next wake-up, whichever is sooner."""
    wake = view["wake_at"] + FRAME_MS if view["wake_at"] is not None else now + 100
    return max(1, min([wake, *(at for at in planned if at is not None)]) - now)


def play_daily_like_a_person(
    page, seed: int, *, median_ms: float = 550, play_ms: int = 15_000, timeout_s: float = 120
) -> dict:
    """Start today's daily from the menu and play it to its end; the final view."""
    person = HumanLikePlayer(median_ms, seed)
    view = start_from_menu(page, mode="daily")
    assert view["mode"] == "daily", view
    deadline = time.monotonic() + timeout_s
    seen_pile, slap_at, flip_at = None, None, None
    while not view["over"] and view["clock"] < play_ms:
        assert time.monotonic() < deadline, f"the game did not get on: {view}"
        now = view["clock"]
        pile = json.dumps(view["pile"])
        if pile != seen_pile:  # a new top: look at it once
            seen_pile, slap_at = pile, None
            if pattern_on_top(view["pile"]["top"]) and person.rng.random() >= person.miss:
                slap_at = now + person.reaction()
        if view["your_turn"]:
            flip_at = flip_at or now + person.lognormal(person.flip_median_ms, person.flip_sigma)
        else:
            flip_at = None
        if slap_at is not None and now >= slap_at:  # a pattern seen is slapped before anything else
            page.keyboard.press(SLAP_KEY)
            slap_at = flip_at = None
        elif flip_at is not None and now >= flip_at:
            page.keyboard.press(FLIP_KEY)
            flip_at = None
        else:
            advance(page, _next_step(now, view, slap_at, flip_at))
        view = view_of(page)
    return give_up_by_wrong_slaps(page, person, timeout_s=max(1.0, deadline - time.monotonic()))


def give_up_by_wrong_slaps(page, person: HumanLikePlayer, *, timeout_s: float) -> dict:
    """Slaps no pattern, a person's uneven moments apart, until eliminated; the final view, drawn."""
    deadline = time.monotonic() + timeout_s
    view = view_of(page)
    while not view["over"]:
        assert time.monotonic() < deadline, f"the game did not end: {view}"
        if (
            pattern_on_top(view["pile"]["top"]) is None
            and view["seats"][0]["status"] != "eliminated"
        ):
            page.keyboard.press(SLAP_KEY)
        advance(page, person.lognormal(300, 0.4))
        view = view_of(page)
    advance(page)  # the frame that draws the end
    return view

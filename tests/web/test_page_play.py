"""Whole games on the page, played with the keyboard and with taps: the result and the score
shown are the engine's, and the replay the page recorded verifies to the same result."""

from __future__ import annotations

import json

import pytest
from pagedriver import (
    keyboard,
    lose_by_wrong_slaps,
    open_menu,
    play_to_end,
    short_practice_seeds,
    shown_number,
    start_from_menu,
    taps,
    view_of,
    wait_for,
    wait_ready,
)

from ewar import bridge


@pytest.fixture(scope="module")
def quick_seeds() -> list[int]:
    return short_practice_seeds(2)


def check_result_screen(page, view: dict) -> None:
    result = view["result"]
    page.wait_for_function("document.body.dataset.state === 'over'")
    assert page.is_visible("[data-testid=result]")
    assert shown_number(page, "result-score") == result["score"]
    breakdown = page.inner_text("[data-testid=result-breakdown]")
    if result["won"]:
        b = result["breakdown"]
        assert f"{b['seconds']} s played" in breakdown
        assert f"{b['wrong_slaps']} wrong slap" in breakdown
    else:
        assert "slapped" in breakdown
    reactions = result["stats"]["reactions"]
    if reactions["median_ms"] is not None:
        assert page.inner_text("[data-testid=result-reactions]") == (
            f"Your slaps: median {reactions['median_ms']:,} ms, best {reactions['best_ms']:,} ms"
            # the CPU speed nearest your pace, said as a comparison (not as this game's CPUs)
            f" — your pace is nearest the {reactions['speed'].capitalize()} CPUs’"
            f" (they slap in about {reactions['speed_slap_ms']:,} ms)."
        )
    assert page.evaluate("window.ewar.missingKeys()") == []


def check_replay(page, view: dict) -> None:
    """The record of the inputs the page sent replays, in the engine, to the result it showed."""
    checked = json.loads(bridge.verify(page.evaluate("window.ewar.replay()")))
    assert checked["ok"], checked
    assert checked["finished"]
    assert checked["result"]["score"] == view["result"]["score"]
    assert checked["result"]["won"] == view["result"]["won"]


def test_a_whole_game_with_the_keyboard(shared_page, quick_seeds) -> None:
    page = shared_page
    page.set_viewport_size({"width": 1280, "height": 800})
    open_menu(page)
    first = start_from_menu(page, speed="fast", deal=quick_seeds[0])
    assert (first["seed"], first["speed"], first["mode"]) == (quick_seeds[0], "fast", "practice")
    view = play_to_end(page, keyboard(page))
    assert view["over"] and view["result"] is not None
    check_result_screen(page, view)
    check_replay(page, view)
    # The quickest slap ever is kept, and the menu's history says it.
    best = view["result"]["stats"]["reactions"]["best_ms"]
    assert best is not None, "the quick driver wins slaps"
    open_menu(page)
    assert f"Best reaction {best:,} ms" in page.inner_text("[data-testid=history]")


def test_a_whole_game_with_taps(new_context, quick_seeds) -> None:
    context = new_context(
        has_touch=True,
        is_mobile=True,
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
    )
    try:
        page = context.new_page()
        page.goto("/")
        wait_ready(page)
        start_from_menu(page, speed="fast", deal=quick_seeds[1])
        view = play_to_end(page, taps(page))
        check_result_screen(page, view)
        check_replay(page, view)
    finally:
        context.close()


def test_a_lost_game_shows_the_piles_score(shared_page) -> None:
    """Wrong slaps until out of cards, one more and you are eliminated: a short, complete loss."""
    page = shared_page
    open_menu(page)
    start_from_menu(page, speed="slow", deal=77)
    view = lose_by_wrong_slaps(page, tries=40)
    assert view["over"], view
    assert view["result"]["won"] is False
    assert view["result"]["reason"] == "eliminated"
    assert view["seats"][0]["status"] == "eliminated"
    check_result_screen(page, view)
    assert "eliminated" in page.inner_text("[data-testid=result]")


def recorded_actions(page) -> list:
    return json.loads(page.evaluate("window.ewar.replay()"))["actions"]


def test_a_focused_button_takes_its_own_keys(shared_page, quick_seeds) -> None:
    """Space or Enter on the focused Menu button opens the menu (no slap, no flip); on SLAP! Space slaps."""
    page = shared_page
    open_menu(page)
    start_from_menu(page, speed="slow", deal=quick_seeds[0])
    before = recorded_actions(page)
    for key in (" ", "Enter"):
        page.focus("[data-testid=menu]")
        page.keyboard.press(key)
        page.wait_for_selector("[data-testid=menu-panel]", state="visible")
        assert recorded_actions(page) == before, f"{key!r} on the Menu button played"
        assert view_of(page)["wrong_slaps"] == 0
        page.keyboard.press("Escape")  # resumes the game
        wait_for(
            page,
            "document.body.dataset.state === 'playing' && !document.body.hasAttribute('data-paused')",
        )
        # Back in play, focus is on the table, so the game keys play again.
        assert page.evaluate("document.getElementById('table').contains(document.activeElement)")
    page.focus("[data-testid=slap]")
    page.keyboard.press(" ")
    after = recorded_actions(page)
    assert len(after) == len(before) + 1 and after[-1][1] == "s", after[-3:]

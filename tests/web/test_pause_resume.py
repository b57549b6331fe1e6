"""Pause and resume: the menu, a dialog or a hidden page stop the game's clock and cover the table; the game on
the table is saved after every action and comes back, paused, after a reload; leaving or giving it up asks first."""

from __future__ import annotations

import json

from pagedriver import (
    advance,
    freeze_time,
    open_menu,
    start_from_menu,
    view_of,
    wait_for,
    wait_ready,
)

PAUSED = "document.body.hasAttribute('data-paused')"


def table_opacity(page) -> str:
    return page.evaluate("getComputedStyle(document.getElementById('table')).opacity")


def wait_for_your_turn(page) -> None:
    """Lets the CPUs play, 50 ms at a time, until it is your turn (10 s of game time at most)."""
    for _ in range(200):
        if view_of(page)["your_turn"]:
            return
        advance(page, 50)
    raise AssertionError("your turn did not come in 10 s of game time")


def play_a_little(page, flips: int = 4) -> dict:
    """Flips on your turns and lets the CPUs play, for a few seconds of game time; the last view."""
    for _ in range(flips):
        wait_for_your_turn(page)
        page.keyboard.press("Enter")
        advance(page, 300)
    return view_of(page)


def test_the_menu_stops_the_clock_and_resume_starts_it_again(shared_page) -> None:
    page = shared_page
    open_menu(page)
    start_from_menu(page, speed="fast", deal=5)
    before = play_a_little(page, flips=2)
    assert not page.evaluate(PAUSED)

    page.click("[data-testid=menu]")
    page.wait_for_selector("[data-testid=resume]", state="visible")
    paused = view_of(page)
    assert page.evaluate(PAUSED)
    assert table_opacity(page) == "0", "the table is covered while paused"
    advance(page, 3_000)
    still = view_of(page)
    assert still["clock"] == paused["clock"] >= before["clock"]
    assert still["pile"] == paused["pile"] and still["seats"] == paused["seats"]

    # Help over the paused game keeps it paused; closing help leaves the menu, still paused.
    page.click("[data-testid=open-help]")
    advance(page, 1_000)
    page.keyboard.press("Escape")
    assert view_of(page)["clock"] == paused["clock"]

    page.click("[data-testid=resume]")
    assert not page.evaluate(PAUSED) and table_opacity(page) == "1"
    advance(page, 1_000)
    page.keyboard.press("Escape")  # paused again: the view holds the exact time played
    assert page.evaluate(PAUSED)
    assert abs(view_of(page)["clock"] - (paused["clock"] + 1_000)) <= 20


def test_escape_pauses_and_resumes_and_a_hidden_page_pauses(shared_page) -> None:
    page = shared_page
    open_menu(page)
    start_from_menu(page, speed="fast", deal=5)
    play_a_little(page, flips=1)
    page.keyboard.press("Escape")
    assert page.evaluate(PAUSED)
    frozen = view_of(page)["clock"]
    advance(page, 2_000)
    assert view_of(page)["clock"] == frozen
    page.keyboard.press("Escape")
    assert not page.evaluate(PAUSED)
    advance(page, 500)
    assert view_of(page)["clock"] > frozen

    # The phone puts the page away: the game pauses under the menu, and stays paused when the page shows again.
    page.evaluate(
        """(state) => {
          Object.defineProperty(document, "visibilityState", { configurable: true, get: () => state.value });
          state.value = "hidden";
          document.dispatchEvent(new Event("visibilitychange"));
          window.__visibility = state;
        }""",
        {"value": "hidden"},
    )
    assert page.evaluate(PAUSED)
    hidden_at = view_of(page)["clock"]
    advance(page, 2_000)
    page.evaluate(
        "window.__visibility.value = 'visible'; document.dispatchEvent(new Event('visibilitychange'))"
    )
    advance(page, 1_000)
    assert page.evaluate(PAUSED) and view_of(page)["clock"] == hidden_at
    assert page.is_visible("[data-testid=resume]")


def test_a_reload_mid_daily_brings_the_same_game_back_paused(page) -> None:
    page.goto("/")
    wait_ready(page)
    first = start_from_menu(page, mode="daily")
    assert first["mode"] == "daily"
    play_a_little(page, flips=2)
    # the last thing done is your flip, then nothing for 20 ms (no computer player acts that soon after
    # it): the game saved after that flip is the game on the table, to the millisecond
    wait_for_your_turn(page)
    page.keyboard.press("Enter")
    advance(page, 20)
    saved = page.evaluate("JSON.parse(localStorage.getItem('ewar.game'))")
    assert saved["clock"] == view_of(page)["clock"] > 0
    assert saved["about"]["scored"] is True
    page.keyboard.press("Escape")  # paused: the view holds the exact time played
    before = view_of(page)
    assert not before["over"]

    page.reload()
    wait_for(page, "window.ewar && window.ewar.view() !== null", timeout_ms=90_000)
    page.wait_for_selector("[data-testid=resume]", state="visible")
    after = view_of(page)
    assert (after["mode"], after["seed"], after["date"]) == (
        before["mode"],
        before["seed"],
        before["date"],
    )
    assert after["clock"] == before["clock"]
    assert after["seats"] == before["seats"] and after["pile"] == before["pile"]
    assert page.evaluate(PAUSED)
    assert page.get_attribute("[data-testid=mode-daily]", "aria-checked") == "true"

    # Still paused: the clock has not moved. Resume, and the same daily plays on from where it was.
    freeze_time(page)
    advance(page, 2_000)
    assert view_of(page)["clock"] == before["clock"]
    page.click("[data-testid=resume]")
    advance(page, 1_000)
    assert view_of(page)["clock"] > before["clock"]
    assert view_of(page)["mode"] == "daily"


def test_leaving_or_giving_up_a_daily_asks_first(page) -> None:
    page.goto("/")
    wait_ready(page)
    start_from_menu(page, mode="daily")
    play_a_little(page, flips=1)

    # Another deal over the running daily: the question comes first, and "keep playing" keeps it.
    open_menu(page)
    page.click("[data-testid=mode-new]")
    page.click("[data-testid=start]")
    page.wait_for_selector("[data-testid=confirm-dialog]", state="visible")
    assert "daily" in page.inner_text("[data-testid=confirm-dialog]").lower()
    page.click("[data-testid=confirm-stay]")
    assert not page.is_visible("[data-testid=confirm-dialog]")
    assert view_of(page)["mode"] == "daily" and not view_of(page)["over"]

    # Giving up asks too; answered yes, the daily ends as a loss, given up.
    page.click("[data-testid=give-up]")
    page.wait_for_selector("[data-testid=confirm-dialog]", state="visible")
    page.click("[data-testid=confirm-leave]")
    wait_for(page, "document.body.dataset.state === 'over'")
    view = view_of(page)
    assert view["over"] and view["result"]["won"] is False
    assert view["result"]["reason"] == "resigned"
    assert page.inner_text("#result-title") == "You gave up"
    assert page.is_visible("[data-testid=result]")
    # Nothing is left to restore: a reload opens the menu, not the given-up daily.
    assert page.evaluate("localStorage.getItem('ewar.game')") is None


def test_a_saved_game_that_no_longer_plays_is_set_aside_with_a_note(new_context) -> None:
    context = new_context()
    saved = {
        "replay": json.dumps(
            {
                "format": 1,
                "engine": "0.0.1",
                "seed": 5,
                "mode": "practice",
                "date": None,
                "speed": "fast",
                "lenient": False,
                "actions": [[975, "f"]],
            }
        ),
        "clock": 2_000,
        "about": {"scored": False, "date": None},
        "timeline": [],
    }
    context.add_init_script(
        script=f"if (!sessionStorage.getItem('seeded')) {{ sessionStorage.setItem('seeded', '1');"
        f" localStorage.setItem('ewar.game', {json.dumps(json.dumps(saved))}); }}"
    )
    page = context.new_page()
    page.goto("/?lang=en")
    wait_ready(page)
    assert page.evaluate("document.body.dataset.state") == "ready"
    note = page.inner_text("[data-testid=restore-note]")
    assert note.startswith("Your unfinished game could not be brought back")
    assert page.evaluate("localStorage.getItem('ewar.game')") is None

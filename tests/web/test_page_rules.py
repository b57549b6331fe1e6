"""The page's controls reach the engine as docs/rules.md says: wrong slaps burn and cost 20,
Doubles and Sandwiches win the pile, the CPU speed, the daily deal and ?deal=N."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from pagedriver import (
    advance,
    freeze_time,
    keyboard,
    open_menu,
    play_to_end,
    short_practice_seeds,
    shown_number,
    start_from_menu,
    taps,
    view_of,
    wait_ready,
)

from ewar import bridge


def open_game(page) -> None:
    page.goto("/")
    wait_ready(page)


def test_a_wrong_slap_burns_a_card_and_costs_20_points(shared_page) -> None:
    page = shared_page
    open_menu(page)
    seed = short_practice_seeds(1, wrong_slap_first=True)[0]
    start_from_menu(page, speed="fast", deal=seed)
    page.keyboard.press(" ")  # the pile is empty at the start: a wrong slap
    advance(page)  # the frame that draws it
    view = view_of(page)
    assert view["wrong_slaps"] == 1
    assert view["pile"]["burned"] == 1
    assert view["seats"][0]["cards"] == 12
    page.wait_for_selector("[data-testid=pile].has-burned")
    assert shown_number(page, "wrong-slaps") == 1
    assert "1 burned" in page.inner_text("[data-testid=pile-burned]")
    # practice: the toast names no points (the result's breakdown below still shows what it cost)
    assert page.inner_text("#toast") == "There is nothing on the pile. You burn a card."

    view = play_to_end(page, keyboard(page))
    result = view["result"]
    assert result["won"], "the quick driver wins this deal"
    breakdown = result["breakdown"]
    assert breakdown["wrong_slaps"] >= 1
    assert breakdown["wrong_slap_penalty"] == 20 * breakdown["wrong_slaps"]
    assert result["score"] == max(
        500, 2000 - 2 * breakdown["seconds"] - 20 * breakdown["wrong_slaps"]
    )
    shown = page.inner_text("[data-testid=result-breakdown]")
    assert f"−{20 * breakdown['wrong_slaps']}" in shown
    assert shown_number(page, "result-score") == result["score"]


@pytest.mark.parametrize("pattern", ["double", "sandwich"])
def test_slapping_a_pattern_wins_the_pile(shared_page, pattern: str) -> None:
    page = shared_page
    open_menu(page)
    start_from_menu(page, speed="slow", deal=2024)
    controls = keyboard(page)
    before = {}

    def slapped_one(view: dict) -> bool:
        return view["piles_slapped"] > before.get("piles", 0)

    # Flip when asked, slap only the wanted pattern; stop right after the first such slap.
    view = page.evaluate("window.ewar.view()")
    before["piles"] = view["piles_slapped"]
    view = play_to_end(page, controls, want=pattern, stop=slapped_one)
    assert view["piles_slapped"] == before["piles"] + 1
    assert view["pile"]["size"] == 0, "the pile went to the slapper"
    assert view["turn"] == "south", "the slapper flips next"
    page.wait_for_function(
        "text => document.getElementById('toast').textContent.includes(text)",
        arg=f"You slapped a {pattern.capitalize()}",
    )


@pytest.mark.parametrize("speed", ["slow", "fast"])
def test_the_speed_setting_reaches_the_engine(shared_page, speed: str) -> None:
    page = shared_page
    open_menu(page)
    view = start_from_menu(page, speed=speed)
    assert view["speed"] == speed
    assert view["mode"] == "practice"
    assert speed.capitalize() in page.inner_text("[data-testid=deal-line]")
    # remembered for next time
    page.reload()
    wait_ready(page)
    assert page.input_value("[data-testid=speed]") == speed


def first_cards(page, count: int = 2) -> list[str]:
    """Flip when asked until `count` cards lie on the pile (20 ms of test time between looks); the cards,
    bottom first."""
    controls = keyboard(page)
    for _ in range(200):
        view = view_of(page)
        if view["pile"]["size"] >= count:
            return view["pile"]["top"][:count]
        if view["your_turn"]:
            controls.flip()
        advance(page, 20)
    raise AssertionError("no cards were played")


def test_the_daily_deal_is_the_same_in_two_browsers(new_context) -> None:
    today = datetime.now(UTC).strftime("%Y-%m-%d")
    seen = []
    for _ in range(2):
        context = new_context()
        try:
            page = context.new_page()
            open_game(page)
            view = start_from_menu(page, mode="daily")
            assert (view["mode"], view["date"], view["speed"]) == ("daily", today, "normal")
            assert view["seed"] == bridge.daily_seed(today)
            shown_day = page.evaluate(  # the date as the page's language writes it (Intl), e.g. "Nov 30, 2026"
                "(d) => new Intl.DateTimeFormat(document.documentElement.lang, {dateStyle: 'medium', timeZone: 'UTC'})"
                ".format(Date.parse(d + 'T00:00:00Z'))",
                today,
            )
            assert shown_day in page.inner_text("[data-testid=deal-line]")
            seen.append(
                (view["seed"], view["turn"], [s["cards"] for s in view["seats"]], first_cards(page))
            )
            # The day's one scored attempt is used: Daily again is practice on the same deal.
            again = page.evaluate("window.ewar.newGame({mode: 'daily'})")
            assert again["mode"] == "practice" and again["seed"] == view["seed"]
        finally:
            context.close()
    assert seen[0] == seen[1]


def test_a_deal_number_in_the_url_replays_that_deal(new_context) -> None:
    seen = []
    for _ in range(2):
        context = new_context()
        try:
            page = context.new_page()
            page.goto("/?deal=987654321012")
            wait_ready(page)
            assert page.input_value("[data-testid=deal]") == "987654321012"
            assert page.get_attribute("[data-testid=mode-new]", "aria-checked") == "true"
            freeze_time(page)
            page.click("[data-testid=start]")
            view = page.evaluate("window.ewar.view()")
            assert view["seed"] == 987654321012 and view["mode"] == "practice"
            assert "987654321012" in page.inner_text("[data-testid=deal-line]")
            seen.append((view["turn"], first_cards(page, 3)))
        finally:
            context.close()
    assert seen[0] == seen[1]


def test_a_new_game_gets_a_fresh_seed_within_53_bits(shared_page) -> None:
    page = shared_page
    open_menu(page)
    seeds = {start_from_menu(page)["seed"]}
    for _ in range(2):
        page.click("[data-testid=menu]")  # the menu opens over the running game
        seeds.add(start_from_menu(page)["seed"])
    assert len(seeds) == 3
    assert all(0 <= seed <= 2**53 - 1 for seed in seeds)


def test_taps_on_the_pile_and_the_button_are_slaps(new_context) -> None:
    context = new_context(has_touch=True, viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        open_game(page)
        start_from_menu(page, speed="slow", deal=5)
        controls = taps(page)
        controls.slap()  # the pile
        controls.slap()  # the SLAP! button
        assert page.evaluate("window.ewar.view()")["wrong_slaps"] == 2
    finally:
        context.close()

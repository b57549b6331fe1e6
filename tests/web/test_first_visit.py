"""A first visit: the menu opens on a short how-to with a guided first game (practice against slow computer
players, coached), practice preselected, today's daily one tap away, and How to play high in the menu."""

from __future__ import annotations

import re

from pagedriver import FRAME_MS, advance, freeze_time, view_of, wait_for, wait_ready
from test_i18n import catalog


def test_a_first_visit_starts_with_the_guided_game(page) -> None:
    words = catalog("en")
    page.goto("/?lang=en")
    wait_ready(page)
    assert page.is_visible("[data-testid=welcome]")
    assert page.get_attribute("[data-testid=mode-new]", "aria-checked") == "true"
    help_box = page.locator("[data-testid=open-help]").bounding_box()
    modes_box = page.locator("[data-testid=mode-daily]").bounding_box()
    assert help_box["y"] < modes_box["y"], "How to play sits above the game choices"
    assert page.is_visible("[data-testid=welcome-daily]")

    freeze_time(page)
    page.click("[data-testid=guided-start]")
    wait_for(page, "document.body.dataset.state === 'playing'")
    view = view_of(page)
    assert (view["mode"], view["speed"], view["lenient"]) == ("practice", "slow", True)
    assert page.evaluate("localStorage.getItem('ewar.welcomed')") == "1"

    # The coach speaks in the deal line: first what the table shows (how to flip when your turn comes first,
    # else to watch the pile: a computer player flips first), then what each new thing at the table means.
    line = "[data-testid=deal-line]"
    first_tip = "coach.flip" if view["your_turn"] else "coach.watch"
    assert page.inner_text(line) == words[first_tip], (view["turn"], page.inner_text(line))
    said = []
    flips = 0
    for _ in range(2_000):
        view = view_of(page)
        text = page.inner_text(line)
        if not said or said[-1] != text:
            said.append(text)
        if view["your_turn"]:
            page.keyboard.press("Enter")
            flips += 1
            advance(page, FRAME_MS)
        else:  # on to the engine's next happening
            advance(
                page, max(0, (view["wake_at"] or view["clock"] + 100) - view["clock"]) + FRAME_MS
            )
        if flips >= 3 and len(set(said)) >= 3:
            break
    tips = {
        key: re.compile(re.sub(r"\\\{\w+\\\}", ".+", re.escape(text)) + "$")
        for key, text in words.items()
        if key.startswith("coach.")
    }
    heard = [next((key for key, tip in tips.items() if tip.match(text)), text) for text in said]
    assert heard[0] == first_tip
    assert all(key in tips for key in heard), heard  # the line says nothing but the coach's tips
    assert len(set(heard)) >= 3, heard


def test_the_daily_is_one_tap_away_on_a_first_visit(page) -> None:
    page.goto("/?lang=en")
    wait_ready(page)
    freeze_time(page)
    page.click("[data-testid=welcome-daily]")
    wait_for(page, "document.body.dataset.state === 'playing'")
    view = view_of(page)
    assert view["mode"] == "daily"
    assert not page.is_visible("[data-testid=welcome]")

"""No rehearsal (issue 18): while a daily can still be sent for the leaderboard, its deal cannot be
played as practice (the menu says why and when it opens); once you have played that daily, its deal
is yours to replay unscored."""

from __future__ import annotations

from datetime import UTC, datetime

from pagedriver import open_menu, start_from_menu, view_of, wait_for, wait_ready
from test_i18n import catalog

from ewar.deal import daily_seed


def test_the_open_daily_s_deal_is_no_practice_until_you_played_it(new_context) -> None:
    page = new_context().new_page()
    page.goto("/")
    wait_ready(page)
    open_menu(page)
    today = datetime.fromtimestamp(page.evaluate("Date.now()") / 1000, UTC).date().isoformat()
    seed = daily_seed(today)
    page.click("[data-testid=mode-new]")
    page.fill("[data-testid=deal]", str(seed))
    page.click("[data-testid=start]")
    note = page.inner_text("#menu-note")
    opening = catalog("en")["menu.dealLocked"].split("{date}")[0]
    assert note.startswith(opening), note
    assert "It opens in " in note and "Daily replays it unscored" in note
    assert page.is_visible("[data-testid=menu-panel]")
    assert page.evaluate("document.body.dataset.state") == "ready"  # nothing was dealt
    # another deal is practice as ever
    page.fill("[data-testid=deal]", str(seed + 1))
    assert page.inner_text("#menu-note") == ""
    # you play the daily (its start counts); then its deal is yours to replay, unscored
    start_from_menu(page, mode="daily")
    assert view_of(page)["mode"] == "daily"
    open_menu(page)
    view = start_from_menu(page, mode="new", deal=seed)
    assert view["mode"] == "practice" and view["seed"] == seed
    wait_for(page, "document.body.dataset.state === 'playing'")

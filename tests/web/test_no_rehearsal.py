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


DAY_MS = 86_400_000


def locked_note(page, seed: int) -> str:
    """The menu's note for a deal number typed as practice, after Start (nothing dealt when locked)."""
    open_menu(page)
    page.click("[data-testid=mode-new]")
    page.fill("[data-testid=deal]", str(seed))
    page.click("[data-testid=start]")
    return page.inner_text("#menu-note")


def test_tomorrow_s_deal_is_no_practice_by_the_menu_the_address_or_the_hook(new_context) -> None:
    page = new_context().new_page()
    page.goto("/?lang=en")
    wait_ready(page)
    now = page.evaluate("Date.now()") / 1000
    tomorrow = datetime.fromtimestamp(now + DAY_MS / 1000, UTC).date().isoformat()
    today = datetime.fromtimestamp(now, UTC).date().isoformat()
    opening = catalog("en")["menu.dealLocked"].split("{date}")[0]
    assert locked_note(page, daily_seed(tomorrow)).startswith(opening)
    assert page.evaluate("document.body.dataset.state") == "ready"
    # ?deal= names tomorrow's deal: the menu opens on it, and Start says why not
    page.goto(f"/?lang=en&deal={daily_seed(tomorrow)}")
    wait_ready(page)
    page.click("[data-testid=start]")
    assert page.inner_text("#menu-note").startswith(opening)
    assert page.evaluate("document.body.dataset.state") == "ready"
    # the test hook goes through the same lock
    for date in (today, tomorrow):
        refused = page.evaluate(
            f"""(() => {{ try {{ window.ewar.newGame({{ mode: "practice", seed: {daily_seed(date)} }});
                return null; }} catch (error) {{ return error.message; }} }})()"""
        )
        assert refused and f"the daily of {date}" in refused, refused
    assert page.evaluate("document.body.dataset.state") == "ready"


def test_a_clock_set_ahead_does_not_open_today_s_deal_once_the_server_is_heard(new_context) -> None:
    """The device's clock two days ahead: by it, today's daily is past its window. The board's answer
    carries the server's time (Date), and by that today's deal is still locked."""
    real_now = datetime.now(UTC)
    context = new_context(clock_time=real_now.timestamp() + 2 * DAY_MS / 1000)
    page = context.new_page()
    page.goto("/?lang=en")
    wait_ready(page)
    wait_for(page, "localStorage.getItem('ewar.serverOffsetMs') !== null", timeout_ms=60_000)
    today = real_now.date().isoformat()
    note = locked_note(page, daily_seed(today))
    assert note.startswith(catalog("en")["menu.dealLocked"].split("{date}")[0]), note
    assert page.evaluate("document.body.dataset.state") == "ready"

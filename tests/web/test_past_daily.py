"""Past dailies (issue 35): an earlier day's board can be picked in the leaderboard and stays viewable; once that daily
can no longer be sent, its board offers its deal again as practice (that date's deal and computer players, not
scored, on no board). A day still open for scores is its tab, with no such offer."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from pagedriver import open_menu, switch_language, view_of, wait_for, wait_ready
from test_i18n import catalog

from ewar.deal import daily_seed

PLAY_PAST = "[data-testid=leaderboard-play-past]"
EARLIER = "[data-testid=leaderboard-earlier]"


def day(back: int) -> str:
    return (datetime.now(UTC).date() - timedelta(days=back)).isoformat()


def board_of(date: str) -> dict:
    row = {"rank": 1, "entry": 1, "name": "Earlier Player", "score": 1700, "won": True}
    return {
        "date": date,
        "entries": [{**row, "duration_ms": 95_000, "wrong_slaps": 1}],
        "total": 1,
        "you": None,
    }


def test_an_earlier_days_board_offers_its_daily_again_as_practice(page) -> None:
    past = day(4)
    asked = []

    def answer(route) -> None:
        date = route.request.url.split("date=")[1][:10]
        asked.append(date)
        route.fulfill(
            json=board_of(date)
            if date == past
            else {"date": date, "entries": [], "total": 0, "you": None}
        )

    page.route("**/api/scores?*", answer)
    page.goto("/?lang=en")
    wait_ready(page)
    open_menu(page)
    assert not page.is_visible(PLAY_PAST)
    assert page.get_attribute(EARLIER, "max") == day(
        2
    )  # yesterday's daily is still open: it is a tab
    # yesterday picked is yesterday's tab, with no offer to play it (it can still be sent)
    page.fill(EARLIER, day(1))
    wait_for(
        page,
        "document.querySelector('[data-testid=leaderboard-tab-1]').getAttribute('aria-selected') === 'true'",
    )
    assert not page.is_visible(PLAY_PAST)
    # an earlier day: its board, and the offer
    page.fill(EARLIER, past)
    page.wait_for_selector("[data-testid=leaderboard-row]:has-text('Earlier Player')")
    assert past in asked
    words = catalog("en")
    assert page.inner_text(PLAY_PAST) == words["leaderboard.playPast"]
    page.click(PLAY_PAST)
    wait_for(page, "document.body.dataset.state === 'playing'")
    view = view_of(page)
    assert (view["mode"], view["date"], view["seed"], view["speed"]) == (
        "practice",
        past,
        daily_seed(past),
        "normal",
    )
    assert view["house_rules"] == [] and view["lenient"] is False
    assert str(daily_seed(past)) in page.inner_text("#deal-line")
    assert "not scored" in page.inner_text("#deal-line")
    # the record replays as that date's daily played again, never as a daily
    record = json.loads(page.evaluate("window.ewar.replay()"))
    assert (record["mode"], record["date"]) == ("practice", past)
    # the board of that date is still there to look at
    open_menu(page)
    assert page.input_value(EARLIER) == past
    assert page.is_visible("[data-testid=leaderboard-row]:has-text('Earlier Player')")
    # and in another language the offer is in its words
    switch_language(page, "ur")
    assert page.inner_text(PLAY_PAST) == catalog("ur")["leaderboard.playPast"]
    switch_language(page, "en")
    assert page.evaluate("localStorage.getItem('ewar.scores')") in (None, "{}")

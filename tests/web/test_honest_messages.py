"""Messages that say what is true: practice is not scored; a daily score is "on the board" only once the server
took it, and waits (as long as the server asks: 429 and 503 with Retry-After) otherwise; each refusal says why;
the board marks wins and losses, and its tabs show their dates."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta

import pytest
from pagedriver import (
    advance,
    lose_by_wrong_slaps,
    open_menu,
    start_from_menu,
    switch_language,
    wait_for,
    wait_ready,
    wait_until,
)

STATUS = "[data-testid=leaderboard-status]"
QUEUED = f"document.querySelector('{STATUS}').dataset.state === 'queued'"
BOARD_API = re.compile(r"/api/scores\?")
REFUSALS = {
    "name_taken": "looks just like it",
    "duplicate_record": "a game with this very timing is already on this day's board: one game, one entry",
    "implausible_play": "timed too regularly to be a person's",
    "invalid_name": "that name is not allowed",
}


def status_text(page) -> str:
    return page.inner_text(STATUS)


def status_state(page) -> str:
    return page.get_attribute(STATUS, "data-state") or ""


def wait_posts(page, posted: list, count: int) -> None:
    """Until `count` POSTs were answered (the route's handler runs as the page's requests come, in wall time)."""
    wait_until(
        page, lambda: len(posted) >= count, timeout_ms=5_000, what=f"{count} POSTs: {len(posted)}"
    )


def test_practice_says_it_is_not_scored(shared_page) -> None:
    page = shared_page
    open_menu(page)
    start_from_menu(page, speed="slow", deal=77)
    advance(page, 100)
    assert page.inner_text("[data-testid=score]") == "not scored"
    lose_by_wrong_slaps(page, tries=40)
    assert page.inner_text("#result-score-label") == "Score (practice, not counted)"
    assert "Practice — not scored." in page.inner_text("#result-note")


def test_the_outbox_waits_as_the_server_asks_and_each_answer_is_explained(page) -> None:
    answers = [
        (409, {}, {"error": "name_taken", "message": "taken"}),
        (429, {"Retry-After": "30"}, {"error": "rate_limited"}),
        (503, {"Retry-After": "2"}, {"error": "busy", "message": "busy"}),
        (422, {}, {"error": "implausible_play", "message": "too regular"}),
    ]
    posted: list[tuple[int, dict]] = []  # (test ms when posted, body)

    def scores(route) -> None:
        if route.request.method != "POST":
            route.fulfill(json={"date": "x", "entries": [], "total": 0, "you": None})
            return
        posted.append((page.evaluate("Date.now()"), route.request.post_data_json))
        code, headers, body = answers[min(len(posted), len(answers)) - 1]
        route.fulfill(status=code, headers={"Cache-Control": "no-store", **headers}, json=body)

    page.context.route("**/api/scores*", scores)
    page.goto("/?lang=en")
    wait_ready(page)
    page.fill("[data-testid=name-input]", "Taken Name")
    page.click("[data-testid=submit-score]")
    start_from_menu(page, mode="daily")
    lose_by_wrong_slaps(page, tries=60)
    assert page.inner_text("#result-note").startswith("Your one scored daily for today.")

    # 409 name_taken: the score waits for another name, which goes with the same id.
    wait_for(page, f"document.querySelector('{STATUS}').dataset.state === 'refused'")
    assert REFUSALS["name_taken"] in status_text(page)
    assert page.get_attribute("[data-testid=submit-score]", "data-mode") == "send"
    page.fill("[data-testid=name-input]", "Other Name")
    page.click("[data-testid=submit-score]")

    # 429 with Retry-After: 30 s: kept, "waiting to be sent", and not sent again before the 30 s. (The status says
    # "sending" from before the POST until its answer is handled: "queued" after the POST means the retry is timed.)
    wait_posts(page, posted, 2)
    wait_for(page, QUEUED)
    assert len(posted) == 2
    assert "waiting to be sent" in status_text(page)
    assert status_state(page) != "sent"
    for _ in range(25):
        advance(page, 1_000)
    assert len(posted) == 2, "sent again before the server's Retry-After"
    for _ in range(10):
        advance(page, 1_000)
    wait_posts(page, posted, 3)
    assert posted[2][0] - posted[1][0] >= 30_000

    # 503 with Retry-After: kept again, then sent once more; the 422 that follows is explained. The answer is handled
    # before the test's time moves on (its retry is timed from the moment it is handled).
    wait_for(page, QUEUED)
    for _ in range(40):
        if len(posted) >= 4:
            break
        advance(page, 1_000)
    wait_posts(page, posted, 4)
    wait_for(page, f"document.querySelector('{STATUS}').dataset.state === 'refused'")
    assert REFUSALS["implausible_play"] in status_text(page)
    ids = {body["id"] for _at, body in posted}
    assert len(ids) == 1, "one game, one id"
    assert [body["name"] for _at, body in posted] == ["Taken Name"] + ["Other Name"] * 3


@pytest.mark.parametrize(
    ("status", "code", "says"),
    [
        *[(409, code, REFUSALS[code]) for code in ("duplicate_record", "name_taken")],
        (422, "implausible_play", REFUSALS["implausible_play"]),
        # Every other 422 is the score judge's: the page keeps no list of its codes.
        *[
            (422, code, f"the game could not be verified ({code})")
            for code in ("score_mismatch", "engine_version", "a_code_added_later")
        ],
    ],
)
def test_each_refusal_says_why(shared_page, status: int, code: str, says: str) -> None:
    page = shared_page
    switch_language(page, "en")
    today = page.evaluate("new Date().toISOString().slice(0, 10)")
    record = {
        "date": today,
        "id": "A" * 22,
        "score": 25,
        "won": False,
        "duration_ms": 60_000,
        "wrong_slaps": 3,
        "state": "refused",
        "name": "Somebody",
        "error": {"status": status, "code": code, "message": "?"},
    }
    page.evaluate(
        "(record) => localStorage.setItem('ewar.scores', JSON.stringify({[record.date]: record}))",
        record,
    )
    page.click("[data-testid=leaderboard-tab-1]")
    page.click("[data-testid=leaderboard-tab-0]")
    assert says in status_text(page)
    page.evaluate("localStorage.removeItem('ewar.scores')")


def test_board_rows_say_won_or_lost_and_tabs_show_their_dates(shared_page) -> None:
    page = shared_page
    board = {
        "date": "x",
        "total": 2,
        "entries": [
            {
                "rank": 1,
                "name": "Winner",
                "score": 1500,
                "won": True,
                "duration_ms": 90_000,
                "wrong_slaps": 1,
            },
            {
                "rank": 2,
                "name": "Loser",
                "score": 2925,
                "won": False,
                "duration_ms": 3_000_000,
                "wrong_slaps": 9,
            },
        ],
        "you": None,
    }
    page.context.unroute(BOARD_API)
    page.context.route(BOARD_API, lambda route: route.fulfill(json=board))
    switch_language(page, "en")
    page.click("[data-testid=leaderboard-tab-1]")
    page.click("[data-testid=leaderboard-tab-0]")
    page.wait_for_selector("[data-testid=leaderboard-row]")
    rows = page.locator("[data-testid=leaderboard-row]")
    assert rows.count() == 2
    assert rows.nth(0).get_attribute("data-won") == "true"
    assert rows.nth(0).locator(".lb-outcome").inner_text() == "won"
    assert rows.nth(1).get_attribute("data-won") == "false"
    assert rows.nth(1).locator(".lb-outcome").inner_text() == "lost"

    now = datetime.fromtimestamp(page.evaluate("Date.now()") / 1000, UTC)
    for index, (day, moment) in enumerate([("Today", now), ("Yesterday", now - timedelta(days=1))]):
        expected = f"{day} · {moment:%b} {moment.day}"
        assert page.inner_text(f"[data-testid=leaderboard-tab-{index}]") == expected
    switch_language(page, "fr")
    assert page.inner_text("[data-testid=leaderboard-tab-0]").startswith("Aujourd’hui · ")
    assert json.dumps(page.evaluate("window.ewar.missingKeys()")) == "[]"
    switch_language(page, "en")
    page.context.unroute(BOARD_API)

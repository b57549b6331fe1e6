"""The UTC day turns under an open page (issue 31): with the menu open (a daily board's tab and a friends' board
shown in it) and with a daily's result open, everything that names the day turns at midnight: the boards' tab
labels and the rows they show, the daily offered again, the countdown; and a clock set back turns them back.

Playwright's clock is installed before the page loads (conftest's open_context, at clock_time), paused once the
page is ready, and moved across midnight by the test. The boards' APIs are routed: each day's board has one row
named after its day, so the rows say which day is shown."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta

import pytest
from a11ykit import catalog
from pagedriver import (
    DESKTOP,
    PHONE,
    freeze_time,
    lose_by_wrong_slaps,
    start_from_menu,
    wait_for,
    wait_ready,
)

CODE = "abcdefgh2345"
BOARD_NAME = "Nile Crew"
CASES = [("en", DESKTOP), ("ur", PHONE)]
DAY = datetime.now(UTC).date()
START = datetime(
    DAY.year, DAY.month, DAY.day, 23, 55, tzinfo=UTC
)  # five minutes of room for the page's load
MIDNIGHT = START + timedelta(minutes=5)
D0, D1, D_1 = (
    DAY.isoformat(),
    (DAY + timedelta(days=1)).isoformat(),
    (DAY - timedelta(days=1)).isoformat(),
)


def row(name: str) -> dict:
    return {
        "rank": 1,
        "entry": 1,
        "name": name,
        "score": 900,
        "duration_ms": 60_000,
        "wrong_slaps": 0,
        "won": True,
    }


def route_boards(context) -> None:
    """The daily board and the friends' board of any day: one row each, "Daily <day>" and "Friend <day>"."""

    def scores(route) -> None:
        if route.request.method != "GET":
            route.continue_()
            return
        date = re.search(r"date=(\d{4}-\d\d-\d\d)", route.request.url).group(1)
        route.fulfill(
            json={"date": date, "entries": [row(f"Daily {date}")], "total": 1, "you": None}
        )

    def friends(route) -> None:
        if route.request.method != "GET":
            route.continue_()
            return
        date = re.search(r"date=(\d{4}-\d\d-\d\d)", route.request.url).group(1)
        route.fulfill(
            json={
                "code": CODE,
                "name": BOARD_NAME,
                "date": date,
                "members": 2,
                "entries": [row(f"Friend {date}")],
            }
        )

    context.route("**/api/scores?*", scores)
    context.route(re.compile(r"/api/friends/"), friends)


def open_page(new_context, lang: str, size: dict, history: dict | None):
    """A welcomed player's page at START (Playwright's clock installed before the load), one friends' board
    joined, the boards routed; ready, then paused."""
    context = new_context(viewport=size, clock_time=START)
    seeds = {"ewar.welcomed": "1", "ewar.friends": json.dumps([{"code": CODE, "name": BOARD_NAME}])}
    if history is not None:
        seeds["ewar.history"] = json.dumps(history)
    context.add_init_script(
        script="".join(
            f"localStorage.setItem({json.dumps(k)}, {json.dumps(v)});" for k, v in seeds.items()
        )
    )
    route_boards(context)
    page = context.new_page()
    page.goto(f"/?lang={lang}")
    wait_ready(page)
    freeze_time(page)
    assert page.evaluate("Date.now()") < MIDNIGHT.timestamp() * 1000 - 10_000, (
        "the page loaded too slowly"
    )
    return page


def run_to(page, moment: datetime) -> None:
    """Moves the page's paused clock on to `moment` (its timers run on the way)."""
    left = moment.timestamp() * 1000 - page.evaluate("Date.now()")
    assert left >= 0, f"{moment} is past"
    page.clock.run_for(int(left))


def text(page, testid: str) -> str:
    return page.inner_text(f"[data-testid={testid}]").strip()


def board_shows(page, board: str, date: str) -> None:
    """Waits until the board (leaderboard or friends) shows the rows of `date`."""
    wait_for(
        page,
        f"""(() => {{
          const body = document.querySelector('[data-testid={board}] tbody');
          return body?.dataset.date === {json.dumps(date)} && body.textContent.includes({json.dumps(date)});
        }})()""",
    )


def date_part(label: str) -> str:
    return label.split("·")[-1].strip()


def prefix(template: str) -> str:
    return template.split("{")[0].strip()


def menu_state(page) -> dict:
    return {
        "tabs": [text(page, f"leaderboard-tab-{i}") for i in (0, 1)],
        "friendTabs": [text(page, f"friends-tab-{i}") for i in (0, 1)],
        "daily": page.get_attribute("[data-testid=mode-daily]", "aria-checked"),
        "countdown": text(page, "menu-countdown"),
    }


@pytest.mark.parametrize(("lang", "size"), CASES)
def test_the_menu_its_board_tab_and_a_friends_board_turn_with_the_day_and_back(
    new_context, lang: str, size: dict
) -> None:
    words = catalog(lang)
    played = {
        "played": 4,
        "won": 2,
        "bestDaily": 700,
        "streak": 2,
        "lastDailyDate": D0,
        "daily": {"date": D0, "finished": True, "score": 700, "won": True},
        "bestReaction": None,
        "dailies": [],
    }
    page = open_page(new_context, lang, size, played)
    page.click("[data-testid=leaderboard-tab-1]")  # a board tab open: yesterday's
    board_shows(page, "leaderboard", D_1)
    board_shows(page, "friends", D0)  # the friends' board shown, on its today
    run_to(page, MIDNIGHT - timedelta(seconds=2))
    before = menu_state(page)
    assert before["daily"] == "false"  # today's daily is played: practice is offered
    assert before["countdown"].startswith(prefix(words["countdown.played"]))
    assert before["tabs"][0].startswith(words["leaderboard.today"])

    run_to(page, MIDNIGHT + timedelta(seconds=1))
    board_shows(page, "leaderboard", D0)  # the tab open is yesterday's: now the day that just ended
    board_shows(page, "friends", D1)  # the friends' board's today is the new day
    after = menu_state(page)
    for tabs in ("tabs", "friendTabs"):
        assert after[tabs][0] != before[tabs][0] and after[tabs][0].startswith(
            words["leaderboard.today"]
        )
        assert date_part(after[tabs][1]) == date_part(before[tabs][0])  # today became yesterday
        assert after[tabs][1].startswith(words["leaderboard.yesterday"])
    assert after["daily"] == "true"  # the new day's daily is offered
    assert after["countdown"].startswith(prefix(words["countdown.next"]))
    assert after["countdown"] != before["countdown"]

    # The device's clock set back to the afternoon before: within a minute the page is on that day again.
    page.clock.set_system_time(START - timedelta(hours=12))
    page.clock.run_for(61_000)
    board_shows(page, "leaderboard", D_1)
    board_shows(page, "friends", D0)
    back = menu_state(page)
    assert back["tabs"] == before["tabs"] and back["friendTabs"] == before["friendTabs"]
    assert back["daily"] == "false"
    assert back["countdown"].startswith(prefix(words["countdown.played"]))


@pytest.mark.parametrize(("lang", "size"), CASES)
def test_a_daily_s_result_and_its_board_turn_with_the_day(
    new_context, lang: str, size: dict
) -> None:
    words = catalog(lang)
    page = open_page(new_context, lang, size, None)
    start_from_menu(page, mode="daily")
    lose_by_wrong_slaps(page)
    page.wait_for_selector("[data-testid=result] [data-testid=leaderboard]")
    board_shows(page, "leaderboard", D0)  # the daily's day, in the result
    run_to(page, MIDNIGHT - timedelta(seconds=2))
    tabs = [text(page, f"leaderboard-tab-{i}") for i in (0, 1)]
    countdown = text(page, "result-countdown")
    assert countdown.startswith(prefix(words["countdown.next"]))

    run_to(page, MIDNIGHT + timedelta(seconds=1))
    assert page.is_visible(
        "[data-testid=result] [data-testid=leaderboard]"
    )  # still the result, turned
    board_shows(page, "leaderboard", D1)
    turned = [text(page, f"leaderboard-tab-{i}") for i in (0, 1)]
    assert turned[0] != tabs[0] and date_part(turned[1]) == date_part(tabs[0])
    assert text(page, "result-countdown") != countdown

    page.clock.set_system_time(START - timedelta(hours=12))
    page.clock.run_for(61_000)
    board_shows(page, "leaderboard", D0)
    assert [text(page, f"leaderboard-tab-{i}") for i in (0, 1)] == tabs


TAB_STRIP = """(prefix) => {
  const tabs = [0, 1].map((i) => document.querySelector(`[data-testid=${prefix}-${i}]`));
  const list = tabs[0].parentElement;
  const panel = document.getElementById(tabs[0].getAttribute('aria-controls'));
  return {
    list: list.getAttribute('role'),
    tabs: list.querySelectorAll('[role=tab]').length,
    controls: tabs.map((tab) => tab.getAttribute('aria-controls') === panel?.id),
    panel: panel?.getAttribute('role'),
    table: Boolean(panel?.querySelector('table')),
    selected: tabs.map((tab) => tab.getAttribute('aria-selected')),
    inTabOrder: tabs.map((tab) => tab.tabIndex),
    focused: tabs.findIndex((tab) => tab === document.activeElement),
    labelledBy: tabs.findIndex((tab) => tab.id === panel?.getAttribute('aria-labelledby')),
  };
}"""


def tab_strip(page, prefix: str) -> dict:
    return page.evaluate(TAB_STRIP, prefix)


def on_tab(page, prefix: str, index: int, *, focused: bool = True) -> None:
    """Tab `index` of the strip is the selected one, the one in the Tab order, the panel's label (and focused)."""
    strip = tab_strip(page, prefix)
    assert strip["selected"] == [str(i == index).lower() for i in (0, 1)], strip
    assert strip["inTabOrder"] == [0 if i == index else -1 for i in (0, 1)], strip
    assert strip["labelledBy"] == index, strip
    if focused:
        assert strip["focused"] == index, strip


@pytest.mark.parametrize(("lang", "size"), CASES)
def test_both_boards_day_tabs_are_tabs_that_keys_move_and_that_turn_with_the_day(
    new_context, lang: str, size: dict
) -> None:
    """The daily board's and a friends' board's day tabs are one view: ARIA tabs over the board's tab panel, one tab
    in the Tab order; the arrow keys (mirrored right to left), Home and End move and select, and the board shows
    the tab's day; the selected tab stays selected across midnight and shows its new day."""
    page = open_page(new_context, lang, size, None)
    forward, back = ("ArrowLeft", "ArrowRight") if lang == "ur" else ("ArrowRight", "ArrowLeft")
    boards = {"leaderboard": "leaderboard-tab", "friends": "friends-tab"}
    for board, prefix in boards.items():
        strip = tab_strip(page, prefix)
        assert (strip["list"], strip["tabs"], strip["panel"], strip["table"]) == (
            "tablist",
            2,
            "tabpanel",
            True,
        ), (board, strip)
        assert strip["controls"] == [True, True], (board, strip)
        board_shows(page, board, D0)
        on_tab(page, prefix, 0, focused=False)
        page.focus(f"[data-testid={prefix}-0]")
        for key, index, date in [
            (forward, 1, D_1),
            (forward, 1, D_1),  # the last tab stays
            ("Home", 0, D0),
            ("End", 1, D_1),
            (back, 0, D0),
            (back, 0, D0),  # the first tab stays
            ("End", 1, D_1),
        ]:
            page.keyboard.press(key)
            on_tab(page, prefix, index)
            board_shows(page, board, date)
        assert page.get_attribute(f"[data-testid={prefix}-0]", "aria-selected") == "false"

    before = {prefix: [text(page, f"{prefix}-{i}") for i in (0, 1)] for prefix in boards.values()}
    run_to(page, MIDNIGHT + timedelta(seconds=1))
    for board, prefix in boards.items():
        board_shows(page, board, D0)  # yesterday's tab: now the day that just ended
        on_tab(page, prefix, 1, focused=False)
        after = [text(page, f"{prefix}-{i}") for i in (0, 1)]
        assert date_part(after[1]) == date_part(before[prefix][0]), (after, before[prefix])
        assert date_part(after[0]) not in {date_part(label) for label in before[prefix]}

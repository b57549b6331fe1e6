"""Where you stand: the day's score distribution under the leaderboard's status, your bar marked and your place
said ("better than 73% of today's winners"), and the menu's chart of your last 30 dailies (score and median
reaction per day), each drawn in SVG and announced by its sentence, on a phone and a desktop in all five
languages, mirrored right to left in Urdu.

The board's answer is routed (page.route) so the bars are known; the history is seeded in localStorage before
the page loads, as the page itself keeps it (web/js/base/history.js)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from a11ykit import LANGUAGES
from pagedriver import (
    BOARD_API,
    DESKTOP,
    PHONE,
    board_and_history_page,
    board_answers,
    box,
    lose_by_wrong_slaps,
    overlaps,
    review_shot,
    set_viewport,
    start_from_menu,
    switch_language,
    wait_ready,
)

DISTRIBUTION = "[data-testid=distribution-chart]"
HISTORY = "[data-testid=history-chart]"

TODAY = datetime.now(UTC).date()

# Four bins with games (0, 300, 500, 900; two empty between), you in 500..599, better than 29 of 40 winners.
BOARD = {
    "date": TODAY.isoformat(),
    "entries": [
        {
            "rank": 1,
            "name": "Ada",
            "score": 930,
            "duration_ms": 61_000,
            "wrong_slaps": 0,
            "won": True,
        },
    ],
    "total": 52,
    "you": {
        "rank": 12,
        "name": "Me",
        "score": 540,
        "duration_ms": 99_000,
        "wrong_slaps": 3,
        "won": True,
        "you": True,
        "id": "x" * 22,
        "winners": 40,
        "winners_below": 29,
    },
    "distribution": {
        "bin": 100,
        "wins": [[300, 10], [500, 20], [900, 10]],
        "losses": [[0, 9], [300, 3]],
    },
}
BARS = [0, 300, 500, 900]


def day(ago: int) -> str:
    return (TODAY - timedelta(days=ago)).isoformat()


# Six dailies kept: five in the last 30 days (one without a median reaction), one older, left out of the chart.
DAILIES = [
    {"date": day(40), "score": 999, "won": True, "median_ms": 500},
    {"date": day(20), "score": 310, "won": True, "median_ms": 720},
    {"date": day(3), "score": 120, "won": False, "median_ms": 690},
    {"date": day(2), "score": 480, "won": True, "median_ms": 640},
    {"date": day(1), "score": 75, "won": False, "median_ms": None},
    {"date": day(0), "score": 260, "won": True, "median_ms": 610},
]
HISTORY_SEED = {
    "played": 6,
    "won": 4,
    "bestDaily": 999,
    "streak": 3,
    "lastDailyDate": day(0),
    "daily": {"date": day(0), "finished": True, "score": 260, "won": True},
    "bestReaction": 420,
    "dailies": DAILIES,
}


@pytest.fixture(scope="module")
def chart_page(context_opener):
    with board_and_history_page(context_opener, BOARD, HISTORY_SEED) as page:
        yield page


def check_layout(page, chart: str, neighbours: list[str], where: str) -> None:
    """The chart is on the page's width and overlaps none of its neighbours."""
    width = page.evaluate("document.documentElement.clientWidth")
    svg = box(page, f"{chart} svg")
    assert svg["right"] - svg["left"] > 200, where
    for selector in neighbours:
        assert not overlaps(box(page, f"{chart} svg"), box(page, selector)), (
            f"{where}: over {selector}"
        )
    panel = box(page, f"{chart}")
    assert panel["left"] >= -1 and panel["right"] <= width + 1, f"{where}: off the page"


def shoot(page, selector: str, name: str) -> None:
    review_shot(page, f"charts/{name}", scroll_to=selector)


def bar_centres(page) -> dict[int, float]:
    return page.eval_on_selector_all(
        f"{DISTRIBUTION} .chart-bar",
        "bars => Object.fromEntries(bars.map(b => { const r = b.getBoundingClientRect();"
        " return [b.dataset.from, (r.left + r.right) / 2]; }))",
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_days_distribution_marks_your_bar_and_says_your_place(chart_page, lang: str) -> None:
    page = chart_page
    switch_language(page, lang)
    page.click("[data-testid=leaderboard-tab-1]")  # yesterday: the chart speaks of today only
    page.wait_for_selector(DISTRIBUTION, state="hidden")
    page.click("[data-testid=leaderboard-tab-0]")
    page.wait_for_selector(f"{DISTRIBUTION} svg")
    bars = page.locator(f"{DISTRIBUTION} .chart-bar")
    assert bars.count() == len(BARS)
    assert [int(bars.nth(i).get_attribute("data-from")) for i in range(len(BARS))] == BARS
    yours = page.locator(f"{DISTRIBUTION} .chart-bar.yours")
    assert yours.count() == 1 and yours.get_attribute("data-from") == "500"

    # Announced: an image named by the sentence shown under it, which gives your place in the page's words.
    sentence = page.inner_text("[data-testid=distribution-chart-text]")
    assert "73" in sentence and "540" in sentence, sentence
    image = page.get_by_role("img", name=sentence)
    assert image.count() == 1
    assert page.evaluate("window.ewar.missingKeys()") == []

    # Low scores at the start of the line: on the left, or on the right in Urdu.
    centres = bar_centres(page)
    assert (centres["0"] > centres["900"]) == (lang == "ur"), centres
    for size, name in ((PHONE, "phone"), (DESKTOP, "desktop")):
        set_viewport(page, size)
        check_layout(
            page,
            DISTRIBUTION,
            ["[data-testid=leaderboard-status]", "[data-testid=leaderboard] [role=tablist]"],
            f"{lang} {name}",
        )
        shoot(page, DISTRIBUTION, f"distribution-{lang}-{name}")
    page.set_viewport_size(PHONE)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_menu_charts_your_last_30_days(chart_page, lang: str) -> None:
    page = chart_page
    switch_language(page, lang)
    page.wait_for_selector(f"{HISTORY} svg")
    days = page.locator(f"{HISTORY} .chart-day")
    assert days.count() == 5  # the one 40 days ago is left out
    assert sorted(days.nth(i).get_attribute("data-date") for i in range(5)) == sorted(
        daily["date"] for daily in DAILIES[1:]
    )
    # The reaction line breaks over yesterday (no median): two runs, one of three days and today alone.
    assert page.locator(f"{HISTORY} polyline.chart-reaction").count() == 1
    assert page.locator(f"{HISTORY} circle.chart-reaction-point").count() == 4

    sentence = page.inner_text("[data-testid=history-chart-text]")
    for number in ("5", "480", "260", "610", "720"):
        assert number in sentence, (number, sentence)
    assert page.get_by_role("img", name=sentence).count() == 1

    xs = page.eval_on_selector_all(
        f"{HISTORY} .chart-day",
        "rects => Object.fromEntries(rects.map(r => [r.dataset.date, r.getBoundingClientRect().left]))",
    )
    assert (xs[day(20)] > xs[day(0)]) == (lang == "ur"), xs
    for size, name in ((PHONE, "phone"), (DESKTOP, "desktop")):
        set_viewport(page, size)
        check_layout(page, HISTORY, ["[data-testid=history]", "#language"], f"{lang} {name}")
        shoot(page, HISTORY, f"history-{lang}-{name}")
    page.set_viewport_size(PHONE)


def test_a_redraw_of_the_same_chart_keeps_its_elements(chart_page) -> None:
    """The panel redraws on every change of status; a chart whose data and language did not change is left as it
    is (a screen reader keeps its place in it), and is drawn anew in another language."""
    page = chart_page
    switch_language(page, "en")
    page.click("[data-testid=leaderboard-tab-0]")
    page.wait_for_selector(f"{DISTRIBUTION} svg")
    page.wait_for_selector(f"{HISTORY} svg")
    # The network "going" redraws the board's panel at once (and asks for the board again, answered the same);
    # a keystroke in the deal's field redraws the menu's words and its chart.
    kept = page.evaluate(
        """([distribution, history]) => {
            const before = [distribution, history].map((chart) => document.querySelector(`${chart} svg`));
            window.dispatchEvent(new Event("offline"));
            document.getElementById("deal").dispatchEvent(new Event("input"));
            return before.map((svg) => svg.isConnected);
        }""",
        [DISTRIBUTION, HISTORY],
    )
    assert kept == [True, True]
    old = page.query_selector(f"{DISTRIBUTION} svg")
    switch_language(page, "fr")
    page.wait_for_selector(f"{DISTRIBUTION} svg")
    assert not old.evaluate("(svg) => svg.isConnected")
    switch_language(page, "en")


def test_after_the_daily_the_result_shows_where_you_stand_and_the_day_is_kept(new_context) -> None:
    """A real daily played to its end (lost quickly by wrong slaps): the result panel holds the leaderboard with
    today's distribution under its status, and the history keeps the day for the menu's chart."""
    context = new_context()
    context.add_init_script(script="localStorage.setItem('ewar.welcomed', '1');")
    context.route(BOARD_API, board_answers(BOARD))
    page = context.new_page()
    page.set_viewport_size(PHONE)
    page.goto("/")
    wait_ready(page)
    assert page.is_hidden(HISTORY)  # no daily kept yet: no chart
    start_from_menu(page, mode="daily")
    view = lose_by_wrong_slaps(page, tries=400)
    assert view["over"] and view["result"] is not None

    chart = f"#result {DISTRIBUTION}"
    page.wait_for_selector(f"{chart} svg")
    assert page.locator(f"{chart} .chart-bar").count() == len(BARS)
    assert page.locator(f"{chart} .chart-bar.yours").get_attribute("data-from") == "500"
    sentence = page.inner_text(f"{chart} figcaption")
    assert "73%" in sentence, sentence
    assert page.get_by_role("img", name=sentence).count() == 1
    check_layout(page, chart, ["#result [data-testid=leaderboard-status]"], "result phone")
    shoot(page, chart, "distribution-result-phone")

    kept = page.evaluate("JSON.parse(localStorage.getItem('ewar.history')).dailies")
    assert [(d["date"], d["score"], d["won"]) for d in kept] == [
        (view["date"], view["result"]["score"], False)
    ]

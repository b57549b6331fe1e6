"""What a player needs lands on screen, and friends' boards read as the daily board (issue 33). A newcomer opening a
friend's link sees "You joined ..." and the board in view (not 1,700 px below the welcome), focused so a screen
reader says it; a forged link's refusal likewise. A friends' board marks your row, says won or lost and offers
Watch, as the daily board does. The small faults: "Save name" after a score was sent says the name counts from
the next daily; no empty status bar under Create; one board request per load, not two; the flying pile passes
under the header. Every language, at 390x844, 360x640 and 1280x800 in turn.

The scores and friends APIs are routed (page.route), so the board's rows and the answers are known."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime

import pytest
from a11ykit import LANGUAGES, catalog
from pagedriver import DESKTOP, PHONE, Traffic, box, review_shot, wait_for, wait_quiet, wait_ready

SMALL = {"width": 360, "height": 640}
SIZES = [PHONE, SMALL, DESKTOP]
TODAY = datetime.now(UTC).date().isoformat()
CODE = "abcdefgh2345"
BOARD_NAME = "Nile Crew"
ME = {
    "rank": 2,
    "entry": 9,
    "name": "Me",
    "score": 540,
    "duration_ms": 99_000,
    "wrong_slaps": 1,
    "won": True,
}
MINJI = {
    "rank": 1,
    "entry": 5,
    "name": "Minji",
    "score": 1218,
    "duration_ms": 61_000,
    "wrong_slaps": 0,
    "won": True,
}
LOSER = {
    "rank": 3,
    "entry": 11,
    "name": "Tam",
    "score": 50,
    "duration_ms": 40_000,
    "wrong_slaps": 4,
    "won": False,
}
# Your daily of today, sent under "Me" and given entry 9 (web/js/scores/records.js keeps it so).
SENT = {
    "id": "x" * 22,
    "date": TODAY,
    "name": "Me",
    "score": 540,
    "duration_ms": 99_000,
    "wrong_slaps": 1,
    "won": True,
    "state": "sent",
    "rank": 2,
    "total": 3,
    "entry": 9,
}


def route_apis(page, *, join_status: int = 201) -> dict[str, list[str]]:
    """The daily board (empty) and the friends' API: joining answers join_status; the board has three rows."""
    asked: dict[str, list[str]] = {"scores": [], "friends": []}

    def scores(route) -> None:
        if route.request.method != "GET":
            route.continue_()
            return
        asked["scores"].append(route.request.url)
        route.fulfill(json={"date": TODAY, "entries": [], "total": 0, "you": None})

    def friends(route) -> None:
        request = route.request
        if request.method == "PUT":
            if join_status == 201:
                route.fulfill(status=201, json={"code": CODE, "name": BOARD_NAME, "joined": True})
            else:
                route.fulfill(status=join_status, json={"error": "not_found", "message": "no"})
            return
        if request.method == "GET":
            asked["friends"].append(request.url)
            date = re.search(r"date=(\d{4}-\d\d-\d\d)", request.url).group(1)
            route.fulfill(
                json={
                    "code": CODE,
                    "name": BOARD_NAME,
                    "date": date,
                    "members": 3,
                    "entries": [MINJI, ME, LOSER],
                }
            )
            return
        route.continue_()

    page.route("**/api/scores?*", scores)
    page.route(re.compile(r"/api/friends/"), friends)
    return asked


def in_view(page, selector: str) -> bool:
    """Whether the element is shown whole inside the window (measured in one evaluation: pagedriver.box)."""
    r = box(page, selector)
    width, height = page.evaluate("[innerWidth, innerHeight]")
    return (
        r["bottom"] > r["top"]
        and r["top"] >= 0
        and r["bottom"] <= height
        and r["left"] >= 0
        and r["right"] <= width
    )


def newcomer(new_context, size: dict, lang: str, *, seed: str = ""):
    context = new_context(viewport=size)
    context.add_init_script(script=seed)
    return context.new_page()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_friends_link_brings_the_joined_board_into_view(new_context, lang: str) -> None:
    index = LANGUAGES.index(lang)
    size = SIZES[index % len(SIZES)]
    words = catalog(lang)
    seed = f"localStorage.setItem('ewar.scores', {json.dumps(json.dumps({TODAY: SENT}))});"
    page = newcomer(new_context, size, lang, seed=seed)
    asked = route_apis(page)
    traffic = Traffic(page.context)
    page.goto(f"/?lang={lang}&friends={CODE}")
    wait_ready(page)
    assert page.is_visible("[data-testid=welcome]")  # a newcomer: the welcome heads the menu
    joined = words["friends.joined"].replace("{name}", BOARD_NAME)
    wait_for(
        page, "document.querySelector('[data-testid=friends-status]').dataset.state === 'joined'"
    )
    page.wait_for_selector("[data-testid=friends-row]")
    wait_for(page, "document.activeElement?.dataset.testid === 'friends-status'")
    where = (lang, size["width"])
    assert page.inner_text("[data-testid=friends-status]") == joined
    assert page.get_attribute("[data-testid=friends-status]", "role") == "status"
    assert in_view(page, "[data-testid=friends-status]"), where
    assert in_view(page, "[data-testid=friends-board-title]"), where
    wait_for(
        page,
        "(() => { const r = document.querySelector('[data-testid=friends-row]').getBoundingClientRect();"
        " return r.top >= 0 && r.bottom <= innerHeight; })()",
    )

    # As the daily board: your row, won or lost, Watch on each row.
    rows = page.locator("[data-testid=friends-row]")
    assert rows.count() == 3
    mine = page.locator("[data-testid=friends-row].you")
    assert mine.count() == 1 and mine.get_attribute("aria-current") == "true"
    assert mine.locator(".lb-name-text").inner_text() == "Me"
    assert mine.locator(".lb-badge").inner_text() == words["leaderboard.you"]
    outcomes = [rows.nth(i).locator(".lb-outcome").inner_text() for i in range(3)]
    assert outcomes == [words["leaderboard.won"]] * 2 + [words["leaderboard.lost"]], where
    watch = rows.nth(0).locator("[data-testid=friends-watch]")
    assert watch.get_attribute("aria-label") == words["watch.boardLabel"].replace("{name}", "Minji")
    review_shot(page, f"boards/joined-{lang}-{size['width']}")

    # One request per board per load, not two within milliseconds.
    wait_quiet(page, traffic)
    assert len(asked["friends"]) == 1, asked
    assert len(asked["scores"]) == 1, asked

    # Watch from a friends' board asks for that row's game.
    replays: list[str] = []
    page.route(
        "**/api/scores/replay?*",
        lambda route: (replays.append(route.request.url), route.fulfill(status=410, json={}))[1],
    )
    watch.click()
    wait_for(page, "document.querySelector('[data-testid=watch-status]').textContent !== ''")
    wait_for(
        page,
        f"document.querySelector('[data-testid=watch-status]').textContent === {json.dumps(words['watch.error.replay_gone'])}",
    )
    assert replays and "entry=5" in replays[0] and f"date={TODAY}" in replays[0], replays


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_refused_friends_link_is_said_in_view(new_context, lang: str) -> None:
    index = LANGUAGES.index(lang)
    size = SIZES[(index + 1) % len(SIZES)]
    words = catalog(lang)
    page = newcomer(new_context, size, lang)
    route_apis(page, join_status=404)
    page.goto(f"/?lang={lang}&friends={CODE}")
    wait_ready(page)
    wait_for(
        page, "document.querySelector('[data-testid=friends-status]').dataset.state === 'refused'"
    )
    wait_for(page, "document.activeElement?.dataset.testid === 'friends-status'")
    assert page.inner_text("[data-testid=friends-status]") == words["friends.errorNotFound"]
    assert in_view(page, "[data-testid=friends-status]"), (lang, size)
    review_shot(page, f"boards/refused-{lang}-{size['width']}")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_save_name_after_a_sent_score_says_it_counts_from_the_next_daily(
    new_context, lang: str
) -> None:
    index = LANGUAGES.index(lang)
    size = SIZES[(index + 2) % len(SIZES)]
    words = catalog(lang)
    seed = (
        "localStorage.setItem('ewar.welcomed', '1');"
        f"localStorage.setItem('ewar.scores', {json.dumps(json.dumps({TODAY: SENT}))});"
    )
    page = newcomer(new_context, size, lang, seed=seed)
    asked = route_apis(page)
    traffic = Traffic(page.context)
    page.goto(f"/?lang={lang}")
    wait_ready(page)
    # Nothing said yet under Create: no empty bar.
    height = page.eval_on_selector(
        "[data-testid=friends-status]", "e => e.getBoundingClientRect().height"
    )
    assert page.inner_text("[data-testid=friends-status]") == "" and height < 2, height
    page.fill("[data-testid=name-input]", "Bob")
    page.click("[data-testid=submit-score]")
    expected = words["leaderboard.nameSavedLater"].replace("{name}", "Bob").replace("{old}", "Me")
    wait_for(
        page,
        f"document.querySelector('[data-testid=leaderboard-status]').textContent === {json.dumps(expected)}",
    )
    wait_quiet(page, traffic)
    assert len(asked["scores"]) == 1, asked


def test_the_flying_pile_passes_under_the_header(new_context) -> None:
    page = newcomer(new_context, SMALL, "en", seed="localStorage.setItem('ewar.welcomed', '1');")
    route_apis(page)
    page.goto("/?lang=en")
    wait_ready(page)
    page.click("[data-testid=start]")
    wait_for(page, "document.body.dataset.state === 'playing'")
    # A card flying to North, as the table sends a won pile (actuator.js sendPileTo), caught over the header.
    on_top = page.evaluate(
        """() => {
          const pile = document.getElementById('pile');
          const ghost = document.createElement('div');
          ghost.className = 'pile-cards';
          const card = document.createElement('div');
          card.className = 'card';
          ghost.append(card);
          pile.append(ghost);
          const header = document.querySelector('header.bar').getBoundingClientRect();
          const box = card.getBoundingClientRect();
          card.style.translate = `0 ${header.top + header.height / 2 - (box.top + box.height / 2)}px`;
          const x = box.left + box.width / 2, y = header.top + header.height / 2;
          const hit = document.elementFromPoint(x, y);
          ghost.remove();
          return { inHeader: Boolean(hit?.closest('header.bar')), hit: hit?.className ?? null };
        }"""
    )
    assert on_top["inHeader"], on_top

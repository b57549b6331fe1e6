"""Friends' boards on the page (issue #22): one browser context creates a board and shares its link, a second
opens the link and joins it on its device; both send their daily (an honest record made by the engine, posted
to the local API with each device's player id, as the page's outbox does) and both see the board with the two
entries ranked 1 and 2; leaving takes the board off the second device's list; a name the rules refuse is
refused in words and nothing is sent. Five pairs of devices, a phone and a desktop in two languages each:
every language creates and joins, and its panel is drawn without overlap, at both sizes."""

from __future__ import annotations

import random
import time
import urllib.error
import urllib.parse
import urllib.request
from datetime import datetime

import pytest
from a11ykit import LANGUAGES, catalog, with_name_max
from pagedriver import DESKTOP, PHONE, overlaps, wait_for, wait_ready
from scores_api import post_daily, today

SIZES = {"phone": PHONE, "desktop": DESKTOP}
PLAYER = r"[A-Za-z0-9_-]{32}"


def open_page(new_context, path: str, size: str):
    context = new_context(viewport=SIZES[size])
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.goto(path)
    wait_ready(page)
    return page


def status_state(page, state: str) -> None:
    wait_for(
        page, f"document.querySelector('[data-testid=friends-status]').dataset.state === '{state}'"
    )


def create_board(page, name: str) -> str:
    """Creates a board from the menu's panel; its share link."""
    page.fill("[data-testid=friends-name]", name)
    page.click("[data-testid=friends-create]")
    status_state(page, "created")
    return page.input_value("[data-testid=friends-link]")


def ranked_rows(page, count: int) -> list[tuple[int, str, int]]:
    """The shown board's rows once it has `count`: (rank, name, score); asks again (today's tab) meanwhile."""
    rows = page.locator("[data-testid=friends-row]")
    deadline = time.monotonic() + 30
    while True:
        # A request on its way when the click came (made before the scores were posted) answers it too: then
        # the next click asks anew.
        with page.expect_event(
            "requestfinished", lambda r: "/api/friends/" in r.url and r.method == "GET"
        ):
            page.click("[data-testid=friends-tab-0]")
        try:
            wait_for(
                page,
                f"document.querySelectorAll('[data-testid=friends-row]').length === {count}",
                timeout_ms=2_000,
            )
            break
        except AssertionError:
            assert time.monotonic() < deadline, f"not {count} rows: {rows.count()}"
    found = []
    for index in range(count):
        row = rows.nth(index)
        score = int("".join(ch for ch in row.locator(".lb-col-score").inner_text() if ch.isdigit()))
        found.append(
            (int(row.get_attribute("data-rank")), row.locator(".lb-name-text").inner_text(), score)
        )
    return found


def refuse_a_bad_name(page, words: dict) -> None:
    """The rules' refusal of a name, in the page's words, and nothing sent: text, never HTML."""
    posts: list = []
    listen = lambda r: posts.append(r) if r.method == "POST" and "/api/friends" in r.url else None  # noqa: E731
    page.on("request", listen)
    page.fill("[data-testid=friends-name]", "<b>no</b>")
    page.click("[data-testid=friends-create]")
    assert page.inner_text("[data-testid=friends-error]") == with_name_max(
        words["leaderboard.nameInvalid"]
    )
    assert posts == [] and page.locator("[data-testid=friends] b").count() == 0
    page.remove_listener("request", listen)


def assert_panel_drawn(page, size: str) -> None:
    """The friends' panel with a board on its list: every part on the screen, none over another."""
    page.locator("[data-testid=friends]").scroll_into_view_if_needed()
    parts = page.evaluate(
        """() => [...document.querySelectorAll(
            '#friends h3, #friends .lb-name-row > *, #friends li > *, #friends .fr-link-row > *, #friends .lb-tab')]
          .filter((el) => el.getClientRects().length)
          .map((el) => { const r = el.getBoundingClientRect();
                         return {what: el.dataset.testid || el.className, left: r.left, top: r.top,
                                 right: r.right, bottom: r.bottom}; })"""
    )
    assert len(parts) >= 8, parts
    width = SIZES[size]["width"]
    for index, box in enumerate(parts):
        assert box["left"] >= -1 and box["right"] <= width + 1, box  # nothing runs off the screen
        for other in parts[index + 1 :]:
            assert not overlaps(box, other), (box, other)


# Five pairs of devices: the first a phone, the second a desktop in the next language, so that every
# language is played at both sizes, once creating a board and once joining it.
PAIRS = [(LANGUAGES[i], LANGUAGES[(i + 1) % len(LANGUAGES)]) for i in range(len(LANGUAGES))]


@pytest.mark.parametrize(("language_a", "language_b"), PAIRS)
def test_a_board_made_on_one_device_is_joined_from_another_and_ranks_both_dailies(
    new_context, server_url: str, language_a: str, language_b: str
) -> None:
    words_a, words_b = catalog(language_a), catalog(language_b)
    a = open_page(new_context, f"/?lang={language_a}", "phone")
    assert a.inner_text("[data-testid=friends] h3") == words_a["friends.title"]
    assert a.is_visible("[data-testid=friends-none]")
    refuse_a_bad_name(a, words_a)
    board_name = f"Zoë O'Neil {random.randrange(10_000):04d}"
    link = create_board(a, board_name)
    assert a.inner_text("[data-testid=friends-status]") == words_a["friends.created"].replace(
        "{name}", board_name
    )
    code = urllib.parse.parse_qs(urllib.parse.urlparse(link).query)["friends"][0]
    assert link == server_url.rstrip("/") + "/?friends=" + code
    assert a.locator("[data-testid=friends-item]").count() == 1
    assert a.inner_text("[data-testid=friends-board-title]") == board_name
    assert_panel_drawn(a, "phone")

    # The share button: the clipboard holds the link (no share sheet in this Chromium).
    a.click("[data-testid=friends-share]")
    status_state(a, "copied")
    assert link in a.evaluate("navigator.clipboard.readText()")

    # Device B opens the link: it joins, and the board is shown.
    b = open_page(
        new_context, link.replace(server_url.rstrip("/"), "") + f"&lang={language_b}", "desktop"
    )
    status_state(b, "joined")
    assert b.inner_text("[data-testid=friends-status]") == words_b["friends.joined"].replace(
        "{name}", board_name
    )
    assert b.inner_text("[data-testid=friends-board-title]") == board_name
    # Joining again (a reload of the link) is the same membership, said so.
    b.reload()
    wait_ready(b)
    status_state(b, "joined")
    assert b.inner_text("[data-testid=friends-status]") == words_b["friends.already"].replace(
        "{name}", board_name
    )
    assert b.locator("[data-testid=friends-item]").count() == 1
    assert_panel_drawn(b, "desktop")

    player_a, player_b = (p.evaluate("localStorage.getItem('ewar.player')") for p in (a, b))
    assert player_a != player_b
    first = post_daily(server_url, player_a, f"Ann {random.randrange(10_000):04d}")
    second = post_daily(server_url, player_b, f"Bo {random.randrange(10_000):04d}")
    expected = sorted([first, second], key=lambda e: -e["score"])
    for page in (a, b):
        rows = ranked_rows(page, 2)
        assert [rank for rank, _, _ in rows] == [1, 2]
        assert [(name, score) for _, name, score in rows] == [
            (e["name"], e["score"]) for e in expected
        ]

    # B leaves: off its list, and its entry off the board A sees.
    b.click("[data-testid=friends-leave]")
    status_state(b, "left")
    assert b.locator("[data-testid=friends-item]").count() == 0
    assert b.is_visible("[data-testid=friends-none]")
    assert b.evaluate("localStorage.getItem('ewar.friends')") == "[]"
    assert [name for _, name, _ in ranked_rows(a, 1)] == [first["name"]]


def test_a_link_to_no_board_says_so(new_context) -> None:
    page = open_page(new_context, "/?lang=en&friends=abcdefghijkl", "desktop")
    status_state(page, "refused")
    assert page.inner_text("[data-testid=friends-status]") == catalog("en")["friends.errorNotFound"]
    assert page.locator("[data-testid=friends-item]").count() == 0
    bad = open_page(new_context, "/?lang=en&friends=%3Cb%3Ex", "desktop")
    status_state(bad, "refused")
    assert bad.locator("b").count() == 0


def test_a_daily_share_link_opens_that_days_board(new_context) -> None:
    yesterday = (
        datetime.fromisoformat(today())
        .date()
        .fromordinal(datetime.fromisoformat(today()).date().toordinal() - 1)
    )
    page = open_page(new_context, f"/?lang=en&board={yesterday.isoformat()}", "phone")
    wait_for(
        page, "document.querySelector('[data-testid=leaderboard-tab-1]').ariaSelected === 'true'"
    )
    assert page.get_attribute("[data-testid=leaderboard-tab-0]", "aria-selected") == "false"

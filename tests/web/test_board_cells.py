"""A board cell never widens the board: names the function may hold that do not break (one letter under a pile
of combining marks, one long word) stay inside their cell on a 360 px phone, in the menu and on the result."""

from __future__ import annotations

import re

import pytest
from pagedriver import open_menu, review_shot, switch_language

BOARD_API = re.compile(r"/api/scores\?")
NAMES = {
    "thai marks": "ก"
    + "\u0e34\u0e35\u0e36\u0e37\u0e47\u0e48\u0e49\u0e4a\u0e4b" * 2,  # one letter, 18 marks
    "latin marks": "Z" + "\u0301\u0302\u0303\u0304\u0306\u0307\u0308\u030a\u030b" * 2,
    "one long word": "W" * 20,
    "wide letters": "Ｗ" * 20,  # fullwidth (the name rule refuses them; the board must still hold)
}
# Whatever is wider than its box: the board, its table, the menu panel, the page.
TOO_WIDE = """
() => {
  const board = document.querySelector('#menu .lb-board');
  const table = board.querySelector('.lb-table');
  const panel = document.querySelector('#menu .panel');
  const wide = [];
  if (table.getBoundingClientRect().width > board.clientWidth + 0.5) wide.push('table');
  if (board.scrollWidth > board.clientWidth + 0.5) wide.push('board');
  if (panel.scrollWidth > panel.clientWidth + 0.5) wide.push('panel');
  if (document.documentElement.scrollWidth > innerWidth) wide.push('page');
  return wide;
}
"""
# The numbers' cells whose text does not fit them (rank, score, time, wrong slaps are never cut).
CLIPPED_NUMBERS = """
() => [...document.querySelectorAll('#menu .lb-table tbody td:not([colspan])')]
  .filter((cell) => cell.scrollWidth > cell.clientWidth)
  .map((cell) => cell.className + ' ' + cell.textContent)
"""
# Each name: its cell stays inside its row and the row inside the table's width.
NAME_CELLS = """
() => [...document.querySelectorAll('#menu .lb-table tbody tr:not(.lb-gap)')].map((row) => {
  const cell = row.querySelector('.lb-col-name').getBoundingClientRect();
  const next = row.querySelector('.lb-col-score').getBoundingClientRect();
  const text = row.querySelector('.lb-name-text').getBoundingClientRect();
  const rtl = getComputedStyle(row).direction === 'rtl';
  return { clear: rtl ? text.left >= next.right - 0.5 : text.right <= next.left + 0.5, cell: cell.width };
})
"""


def entry(rank: int, name: str) -> dict:
    return {
        "rank": rank,
        "name": name,
        "score": 1_900 - rank,
        "duration_ms": 61_000 + rank,
        "wrong_slaps": rank,
        "won": True,
    }


@pytest.mark.parametrize("lang", ["en", "fr", "ko", "vi", "ur"])
def test_a_name_that_does_not_break_never_widens_the_board(shared_page, lang: str) -> None:
    page = shared_page
    board = {
        "date": "",
        "entries": [entry(rank, name) for rank, name in enumerate(NAMES.values(), 1)],
        "total": 20_000,
        # far down a busy day's board, with the longest numbers a row can hold
        "you": entry(12_345, "Ω" * 20)
        | {"score": 1_999, "duration_ms": 3_599_000, "wrong_slaps": 999},
    }
    page.set_viewport_size({"width": 360, "height": 640})
    page.context.route(BOARD_API, lambda route: route.fulfill(json=board))
    try:
        switch_language(page, lang)
        open_menu(page)
        page.click(
            "[data-testid=leaderboard-tab-1]"
        )  # the board loads again, from the answer above
        page.click("[data-testid=leaderboard-tab-0]")
        rows = page.locator("#menu [data-testid=leaderboard-row]")
        rows.first.wait_for()
        assert rows.count() == len(NAMES)
        page.locator("#menu [data-testid=leaderboard-you]").wait_for()
        assert [text for text in rows.locator(".lb-name-text").all_text_contents()] == list(
            NAMES.values()
        )
        rows.first.scroll_into_view_if_needed()
        review_shot(page, f"board-names-{lang}-360x640")
        assert page.evaluate(TOO_WIDE) == []
        assert page.evaluate(CLIPPED_NUMBERS) == []
        assert all(cell["clear"] for cell in page.evaluate(NAME_CELLS)), page.evaluate(NAME_CELLS)
    finally:
        page.context.unroute(BOARD_API)
        switch_language(page, "en")

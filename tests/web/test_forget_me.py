"""Forget me on the page (issue 32): a device that sent its daily and made a friends' board asks to be
forgotten; the page asks first (keeping is the safe answer, and changes nothing), then the local API removes
the entry and name from the day's board and takes the device off its friends' board, and the device forgets
its player id, its score records and its boards."""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request

from a11ykit import catalog
from pagedriver import wait_for, wait_ready
from scores_api import post_daily, today

DIALOG = "#confirm-dialog"
WORDS = catalog("en")


def get_json(server_url: str, path: str) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(urllib.parse.urljoin(server_url, path), timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def names_on_board(server_url: str) -> list[str]:
    status, board = get_json(server_url, f"api/scores?date={today()}")
    assert status == 200
    return [entry["name"] for entry in board["entries"]]


def test_forget_me_removes_the_entry_and_the_name_after_asking(
    new_context, server_url: str
) -> None:
    page = new_context().new_page()
    page.goto("/?lang=en")
    wait_ready(page)
    page.fill("[data-testid=friends-name]", "Forgetters")
    page.click("[data-testid=friends-create]")
    wait_for(
        page, "document.querySelector('[data-testid=friends-status]').dataset.state === 'created'"
    )
    code = page.input_value("[data-testid=friends-link]").rsplit("=", 1)[-1]
    player = page.evaluate("localStorage.getItem('ewar.player')")
    sent = post_daily(server_url, player, f"Forget Me {code[:4]}")
    assert sent["name"] in names_on_board(server_url)
    assert get_json(server_url, f"api/friends/{code}?date={today()}")[0] == 200

    deletes: list = []
    page.on("request", lambda r: deletes.append(r) if r.method == "DELETE" else None)
    page.click("[data-testid=forget-me]")
    dialog = page.locator(DIALOG)
    dialog.wait_for(state="visible")
    assert dialog.locator("[data-part=title]").inner_text() == WORDS["forget.title"]
    assert dialog.locator("[data-answer=leave]").inner_text() == WORDS["forget.confirm"]
    # Keeping is the safe answer: it has the focus, and nothing is sent.
    assert page.evaluate("document.activeElement.dataset.answer") == "stay"
    page.click(f"{DIALOG} [data-answer=stay]")
    dialog.wait_for(state="hidden")
    assert deletes == []
    assert sent["name"] in names_on_board(server_url)

    page.click("[data-testid=forget-me]")
    page.click(f"{DIALOG} [data-answer=leave]")
    wait_for(
        page, "document.querySelector('[data-testid=leaderboard]').dataset.forgotten === 'true'"
    )
    assert len(deletes) == 1 and deletes[0].url.endswith("/api/scores/player")
    assert json.loads(deletes[0].post_data) == {"player": player}
    assert page.inner_text("[data-testid=leaderboard-status]") == WORDS["forget.done"]

    assert sent["name"] not in names_on_board(server_url)
    # The device was the board's one member: the board went with it.
    assert get_json(server_url, f"api/friends/{code}?date={today()}")[0] == 404
    kept = page.evaluate(
        "['ewar.player', 'ewar.scores', 'ewar.friends'].map((key) => localStorage.getItem(key))"
    )
    assert kept == [None, None, None]
    assert page.locator("[data-testid=friends-row]").count() == 0

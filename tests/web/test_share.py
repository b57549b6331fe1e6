"""After the daily: the result in figures, a Share button (the share sheet where there is one, else the clipboard
with a visible "copied") whose text holds the date, the outcome, the score and the page's address, and the time
to the next daily."""

from __future__ import annotations

import re

from pagedriver import lose_by_wrong_slaps, open_menu, start_from_menu, wait_for, wait_ready


def finish_a_daily(page) -> dict:
    page.goto("/?lang=en")
    wait_ready(page)
    start_from_menu(page, mode="daily")
    view = lose_by_wrong_slaps(page, tries=60)
    assert view["over"] and view["mode"] == "daily"
    page.wait_for_selector("[data-testid=share]", state="visible")
    return view


def check_text(text: str, view: dict, server_url: str) -> None:
    lines = text.split("\n")
    assert re.match(r"Egyptian War — daily \w{3} \d{1,2}, \d{4}$", lines[0]), lines
    assert (
        lines[1].startswith("Lost · score ") and f"score {view['result']['score']:,} " in lines[1]
    )
    assert f"wrong slaps {view['wrong_slaps']}" in lines[1]
    assert re.fullmatch(r"[🟩🟨🟧🟥]{10}🏳️", lines[2]), lines[2]
    # the link to the day's board, without ?lang=
    assert lines[3] == server_url.rstrip("/") + "/?board=" + view["date"]


def test_share_copies_to_the_clipboard_and_says_so(new_context, server_url) -> None:
    context = new_context()
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    view = finish_a_daily(page)
    assert not page.evaluate("typeof navigator.share === 'function'")
    page.click("[data-testid=share]")
    wait_for(page, "document.querySelector('[data-testid=share-status]').textContent !== ''")
    assert page.inner_text("[data-testid=share-status]") == "Copied — paste it anywhere."
    check_text(page.evaluate("navigator.clipboard.readText()"), view, server_url)

    # The result in figures, and the countdown to the next daily (UTC midnight).
    stats = page.inner_text("[data-testid=result-stats]")
    s = view["result"]["stats"]
    assert stats == (
        f"Cards won {s['cards_won']} · Piles won {s['piles_won']} · Burned {s['burns']}"
        f" · Slapped back in {s['slap_backs']}"
    )
    assert page.inner_text("[data-testid=result-reactions]") == "You won no slap this game."
    countdown = page.inner_text("[data-testid=result-countdown]")
    hours, minutes, seconds = map(
        int, re.fullmatch(r"Next daily in (\d+):(\d\d):(\d\d)", countdown).groups()
    )
    left = page.evaluate("86400000 - Date.now() % 86400000") / 1000
    assert abs(hours * 3600 + minutes * 60 + seconds - left) <= 2


def test_share_uses_the_share_sheet_where_there_is_one(new_context, server_url) -> None:
    context = new_context()
    context.add_init_script(script="navigator.share = async (data) => { window.__shared = data; };")
    page = context.new_page()
    view = finish_a_daily(page)
    page.click("[data-testid=share]")
    wait_for(page, "document.querySelector('[data-testid=share-status]').textContent !== ''")
    assert page.inner_text("[data-testid=share-status]") == "Shared!"
    check_text(page.evaluate("window.__shared.text"), view, server_url)


def test_the_menu_counts_down_to_the_next_daily(shared_page) -> None:
    page = shared_page
    open_menu(page)
    countdown = page.inner_text("[data-testid=menu-countdown]")
    hours, minutes, seconds = map(
        int, re.fullmatch(r"Next daily in (\d+):(\d\d):(\d\d)", countdown).groups()
    )
    left = page.evaluate("86400000 - Date.now() % 86400000") / 1000
    assert abs(hours * 3600 + minutes * 60 + seconds - left) <= 2

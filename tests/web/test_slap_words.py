"""Why a slap failed, in words, from the engine's reason; and your reaction time beside the pile when you win one."""

from __future__ import annotations

import json
import re

from pagedriver import (
    FRAME_MS,
    advance,
    open_menu,
    pattern_on_top,
    start_from_menu,
    switch_language,
    view_of,
    wait_for,
    wait_ready,
)
from test_i18n import catalog


def toast(page) -> str:
    return page.inner_text("[data-testid=toast]")


def slap(page) -> str:
    """Space, then the frame that draws it; the toast's text."""
    page.keyboard.press(" ")
    advance(page, FRAME_MS)
    return toast(page)


def flip_until(page, cards: int) -> dict:
    """Flips on your turns until `cards` face-up cards lie on the pile; the view."""
    for _ in range(400):
        view = view_of(page)
        if len(view["pile"]["top"]) >= cards:
            return view
        if view["your_turn"]:
            page.keyboard.press("Enter")
        advance(page, 50)
    raise AssertionError("the pile did not grow")


def test_wrong_slaps_say_why_in_english_and_in_french(shared_page) -> None:
    page = shared_page
    for lang in ("en", "fr"):
        words = catalog(lang)
        switch_language(page, lang)
        start_from_menu(page, speed="slow", deal=31)
        # Practice is not scored: the burn is said without the points it would cost in the daily.
        assert slap(page) == f"{words['why.empty_pile']} {words['why.burn']}"
        assert "{" not in words["why.burn"] and "−" not in toast(page)
        # A card now lies face down under the pile: with one face-up card, only that is said.
        flip_until(page, 1)
        assert slap(page).startswith(words["why.burned_cards"])
        view = flip_until(page, 3)
        while pattern_on_top(
            view["pile"]["top"]
        ):  # a pattern would be a good slap: wait for another card
            view = flip_until(page, len(view["pile"]["top"]) + 1)
        ranks = [card[:-1] for card in view["pile"]["top"]]
        said = slap(page)
        expected = words["why.no_pattern.three"]
        for name, rank in zip(("bottom", "under", "top"), ranks, strict=True):
            expected = expected.replace(
                f"{{{name}}}", rank if rank.isdigit() else words[f"rank.short.{rank}"]
            )
        assert said.startswith(expected), (said, expected)
        open_menu(page)
    switch_language(page, "en")


def test_in_the_daily_a_wrong_slap_says_what_it_costs(page) -> None:
    page.goto("/?lang=en")
    wait_ready(page)
    start_from_menu(page, mode="daily")
    said = slap(page)
    assert said.endswith(catalog("en")["why.burnScored"].replace("{per_wrong_slap}", "20")), said
    assert "(−20)" in said


def test_a_late_slap_names_the_player_who_was_first(shared_page) -> None:
    page = shared_page
    open_menu(page)
    start_from_menu(page, speed="fast", deal=12)
    for _ in range(3_000):
        view, said = page.evaluate(
            "[window.ewar.view(), document.querySelector('[data-testid=toast]').innerText]"
        )
        winner = re.match(r"(West|North|East) slapped a (Double|Sandwich)!", said)
        if winner:
            cards = view_of(page)["seats"][0]["cards"]
            late = slap(page)
            match = re.match(
                r"Too late — (West|North|East) was first by (\d+) ms\. No cost: a slap just too "
                r"late is not a wrong slap\.$",
                late,
            )
            assert match, late
            # nothing burned, nothing counted
            assert view_of(page)["seats"][0]["cards"] == cards
            assert view_of(page)["wrong_slaps"] == 0
            assert match.group(1) == winner.group(1)
            assert 0 <= int(match.group(2)) <= 2 * FRAME_MS
            return
        if view["your_turn"]:
            page.keyboard.press("Enter")
        advance(page, FRAME_MS)
    raise AssertionError("no computer player won a slap")


def test_a_slap_just_after_a_card_covered_the_pattern_names_the_card(shared_page) -> None:
    """Issue 30: a tap aimed at a pattern the next card has just covered is only too late; the toast names the card
    that covered it and how many ms before, in the catalog's words, and nothing is burned or counted."""
    page = shared_page
    words = catalog("en")
    open_menu(page)
    start_from_menu(page, speed="slow", deal=21)
    before = view_of(page)
    for _ in range(6_000):
        view = view_of(page)
        grew = view["pile"]["size"] == before["pile"]["size"] + 1
        if (
            grew
            and pattern_on_top(before["pile"]["top"])
            and not pattern_on_top(view["pile"]["top"])
        ):
            cards = view["seats"][0]["cards"]
            said = slap(page)
            pattern = words[f"pattern.{pattern_on_top(before['pile']['top'])}"]
            top = view["pile"]["top"][-1]
            card = (
                words["card.name"]
                .replace("{rank}", words[f"rank.{top[:-1]}"])
                .replace("{suit}", words[f"suit.{top[-1]}"])
            )
            head, tail = (
                words["why.coveredBy"]
                .replace("{card}", card)
                .replace("{pattern}", pattern)
                .split("{ms}")
            )
            match = re.match(re.escape(head) + r"(\d+)" + re.escape(tail), said)
            assert match, (said, head, tail)
            assert said.endswith(words["why.lateFree"])
            assert 0 < int(match.group(1)) <= 2 * FRAME_MS
            assert view_of(page)["seats"][0]["cards"] == cards and view_of(page)["wrong_slaps"] == 0
            return
        before = view
        if view["your_turn"] and not pattern_on_top(view["pile"]["top"]):
            page.keyboard.press("Enter")
        advance(page, FRAME_MS)
    raise AssertionError("no card covered a pattern")


def test_a_won_slap_shows_its_reaction_time(shared_page) -> None:
    """Slaps a CPU's pattern 263 ms after its card (test time), and the page shows that reaction."""
    page = shared_page
    delay = 263
    open_menu(page)
    start_from_menu(page, speed="slow", deal=8)
    previous = view_of(page)
    for _ in range(6_000):
        if previous["your_turn"]:
            page.keyboard.press("Enter")
        advance(page, FRAME_MS)
        view = view_of(page)
        card_at = (
            previous["wake_at"] or 0
        ) - 1  # a happening at t shows from t + 1 (docs/engine.md)
        made_by_cpu = (
            view["pile"]["size"] == previous["pile"]["size"] + 1
            and previous["turn"] not in (None, "south")
            and pattern_on_top(view["pile"]["top"])
        )
        previous = view
        if not made_by_cpu:
            continue
        page.keyboard.press("Escape")  # paused: the view holds the exact time
        now = view_of(page)["clock"]
        page.keyboard.press("Escape")
        if now >= card_at + delay or view_of(page)["pile"] != view["pile"]:
            previous = view_of(page)
            continue
        advance(page, card_at + delay - now)
        if view_of(page)["pile"] != view["pile"]:  # a CPU was quicker
            previous = view_of(page)
            continue
        said = slap(page)
        if not said.startswith("You slapped"):
            previous = view_of(page)
            continue
        # The input's own time reaches the game (on a fake clock, less the real ms the key event took to be
        # handled, which a busy machine may make 1-2 ms): the slap as the engine recorded it.
        slapped_at = json.loads(page.evaluate("window.ewar.replay()"))["actions"][-1]
        assert slapped_at[1] == "s" and abs(slapped_at[0] - (card_at + delay)) <= 3
        reaction = slapped_at[0] - card_at
        pattern = pattern_on_top(view["pile"]["top"]).capitalize()
        assert said.startswith(f"You slapped a {pattern} in {reaction} ms!")
        assert page.inner_text("[data-testid=reaction]") == f"{reaction} ms"
        assert page.is_visible("[data-testid=reaction]")
        wait_for(page, "getComputedStyle(document.getElementById('reaction')).opacity === '1'")
        advance(page, 2_000)  # a moment later it is gone
        assert not page.evaluate("document.getElementById('reaction').classList.contains('show')")
        return
    raise AssertionError("no pattern could be slapped at the chosen delay")

"""House rules on the page (issue 35): a switch per rule in the practice menu, the engine's list of rules (the page
keeps none), and each rule's pattern named in words when you slap it, in English and in one more language per rule;
a wrong slap with house rules on says no pattern showed, house rules included."""

from __future__ import annotations

import re

import pytest
from a11ykit import with_rule_numbers
from pagedriver import FRAME_MS, advance, freeze_time, open_menu, switch_language, view_of, wait_for
from test_i18n import catalog

from ewar.game import Game
from ewar.house_rules import HOUSE_RULES
from ewar.replay import Replay

# each rule in English and in one of the other four languages, by turns
OTHER = dict(zip(HOUSE_RULES, ("fr", "ko", "vi", "ur", "fr", "ko"), strict=True))
CASES = [(rule, lang) for rule in HOUSE_RULES for lang in ("en", OTHER[rule])]
FIRST_FLIPS = 14


def first_pattern(seed: int, rule: str) -> str | None:
    """The first pattern the deal of ``seed`` shows (practice, slow, ``rule`` on) when nobody slaps: each seat
    flips in turn until a pattern shows or a pile is taken."""
    table = Game(seed, speed="slow", house_rules=[rule]).table
    for _ in range(FIRST_FLIPS):
        if table.turn is None:
            return None
        table.flip()
        if table.pattern():
            return table.pattern()
    return None


def deal_showing(rule: str) -> int:
    """A deal whose first pattern is the rule's own (a Double or a Sandwich would come first otherwise)."""
    return next(seed for seed in range(1, 5000) if first_pattern(seed, rule) == rule)


def game_now(page) -> Game:
    """The page's game as it stands, by the engine in Python replaying the page's record."""
    view = view_of(page)
    game = Replay.from_json(page.evaluate("window.ewar.replay()")).play(to_end=False)
    game.advance_to(view["clock"])
    return game


def quiet_no_pattern(game: Game) -> bool:
    """Two face-up cards or more, no pattern, and none ended in the last 1.5 s (a slap then would be aimed at
    it: too late or covered, docs/rules.md)."""
    windows = game.patterns.windows
    return (
        game.table.pattern() is None
        and len(game.table.face_up()) >= 2
        and (not windows or game.clock - windows[-1].ended_at > 1600)
    )


def start_with_rule(page, rule: str, seed: int) -> None:
    """Through the menu: practice, slow, this deal, only ``rule`` switched on."""
    freeze_time(page)
    open_menu(page)
    page.click("[data-testid=mode-new]")
    page.select_option("[data-testid=speed]", "slow")
    page.fill("[data-testid=deal]", str(seed))
    for other in HOUSE_RULES:
        page.set_checked(f"[data-testid=house-{other}]", other == rule)
    page.click("[data-testid=start]")
    if page.is_visible("[data-testid=confirm-dialog]"):
        page.click("[data-testid=confirm-leave]")
    wait_for(
        page,
        "document.body.dataset.state === 'playing' && !document.body.hasAttribute('data-paused')",
    )


def as_pattern(template: str, pattern: str) -> re.Pattern:
    """A catalog sentence with its {pattern} filled and any {ms} a number."""
    parts = re.split(r"(\{pattern\}|\{ms\})", template)
    regex = "".join(
        re.escape(pattern) if part == "{pattern}" else r"\S+" if part == "{ms}" else re.escape(part)
        for part in parts
    )
    return re.compile(regex)


def toast(page) -> str:
    return page.inner_text("[data-testid=toast]")


def play_until(page, wanted, *, limit: int = 600) -> None:
    """Flips on your turns until ``wanted(game)`` holds for the page's game. Between your flips, test time moves on
    to the first frame at or after the engine's next wake-up: the table changes only then."""
    seen = None
    for _ in range(limit):
        view = view_of(page)
        top = (view["pile"]["size"], tuple(view["pile"]["top"]), view["seats"][0]["cards"])
        if top != seen:
            seen = top
            if view["pile"]["size"] and wanted(game_now(page)):
                return
        if view["your_turn"]:
            page.keyboard.press("Enter")
            advance(page, FRAME_MS)
        else:
            wake_at = view["wake_at"] or view["clock"] + 100
            advance(page, max(0, wake_at - view["clock"]) + FRAME_MS)
    raise AssertionError("the awaited pattern never showed")


def test_the_menu_has_a_switch_per_rule_the_engine_lists(shared_page) -> None:
    page = shared_page
    switch_language(page, "en")
    words = catalog("en")
    for rule in HOUSE_RULES:
        label = page.locator(f"label:has([data-testid=house-{rule}])")
        assert label.inner_text().strip() == with_rule_numbers(words[f"menu.house.{rule}"])
    assert page.inner_text("[data-testid=house-rules] .house-note") == words["menu.houseNote"]
    page.click("[data-testid=open-help]")
    page.wait_for_selector("[data-testid=help-dialog][open]")
    assert words["help.rules.slap.house"] in page.inner_text("[data-testid=help-dialog]")
    page.keyboard.press("Escape")
    switch_language(page, "ko")
    assert (
        page.locator("label:has([data-testid=house-tens])").inner_text().strip()
        == catalog("ko")["menu.house.tens"]
    )


@pytest.mark.parametrize(("rule", "lang"), CASES, ids=[f"{rule}-{lang}" for rule, lang in CASES])
def test_each_rules_pattern_is_named_when_you_slap_it(shared_page, rule: str, lang: str) -> None:
    page = shared_page
    words = catalog(lang)
    switch_language(page, lang)
    start_with_rule(page, rule, deal_showing(rule))
    view = view_of(page)
    assert view["house_rules"] == [rule] and view["mode"] == "practice"
    assert words[f"pattern.{rule}"] in page.inner_text("#deal-line")
    play_until(page, lambda game: game.table.pattern() == rule)
    if rule == "jokers":  # the Joker on top is drawn, and named in words
        advance(page, FRAME_MS)
        top = page.locator("#pile-cards .card").last
        assert top.get_attribute("data-card") in ("JKR", "JKB")
        assert top.get_attribute("aria-label") == words["card.joker"]
    page.keyboard.press(" ")
    advance(page, FRAME_MS)
    said = toast(page)
    name = words[f"pattern.{rule}"]
    assert as_pattern(words["event.slapWonYouMs"], name).fullmatch(said) or as_pattern(
        words["event.slapWonYou"], name
    ).fullmatch(said), (said, name)
    # a slap on two face-up cards that show nothing: no pattern, house rules included
    play_until(page, quiet_no_pattern)
    page.keyboard.press(" ")
    advance(page, FRAME_MS)
    assert toast(page).startswith(words["why.no_pattern.house"]), toast(page)
    records = page.evaluate("window.ewar.replay()")
    assert f'"house_rules":["{rule}"]' in records

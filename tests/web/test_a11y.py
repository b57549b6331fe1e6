"""The page everyone can play: no serious axe-core violation in any language while loading, in the menu,
in the rules, while playing and on the result; keyboard alone with visible focus and a sensible tab order;
names for cards, pile and packs; a polite live region that says what matters without flooding;
reduced motion; touch without double-tap zoom or text selection; suits told apart by shape."""

from __future__ import annotations

import re
from itertools import pairwise

import pytest
from a11ykit import LANGUAGES, LOCALES, catalog, run_axe
from pagedriver import (
    PHONE,
    advance,
    keyboard,
    lose_by_wrong_slaps,
    open_held,
    open_menu,
    play_to_end,
    run_until,
    short_practice_seeds,
    start_from_menu,
    switch_language,
    view_of,
    wait_for,
    wait_ready,
)


@pytest.fixture(scope="module")
def wrong_first_seed() -> int:
    return short_practice_seeds(1, wrong_slap_first=True)[0]


def state(page) -> str:
    return page.evaluate("document.body.dataset.state")


def wait_cards_on_pile(page, count: int = 2) -> dict:
    """Flips with Enter when it is our turn until the pile shows `count` face-up cards (40 ms of test time
    between looks); the view, drawn."""
    for _ in range(200):
        view = view_of(page)
        if len(view["pile"]["top"]) >= count and not view["collecting"]:
            advance(page)
            return view
        if view["your_turn"]:
            page.keyboard.press("Enter")
        advance(page, 40)
    raise AssertionError("the pile never showed cards")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_axe_finds_nothing_serious_on_the_loading_screen(new_context, lang: str) -> None:
    page = open_held(new_context(locale=LOCALES[lang], viewport=PHONE))  # the loading screen stays
    page.wait_for_function(
        "(lang) => document.documentElement.lang === lang && document.title", arg=lang
    )
    assert state(page) == "loading"
    assert run_axe(page) == []
    assert state(page) == "loading"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_axe_finds_nothing_serious(shared_page, lang: str) -> None:
    page = shared_page
    page.set_viewport_size(PHONE)
    switch_language(page, lang)
    found = {"menu": run_axe(page)}
    page.click("[data-testid=open-help]")
    found["help"] = run_axe(page)
    page.keyboard.press("Escape")
    start_from_menu(page, speed="slow", deal=77)
    wait_cards_on_pile(page)
    found["playing"] = run_axe(page)
    view = lose_by_wrong_slaps(page)
    assert view["over"]
    found["result"] = run_axe(page)
    assert {where: v for where, v in found.items() if v} == {}


# ---- Keyboard ----


def focused(page) -> str:
    return page.evaluate(
        "document.activeElement?.dataset.testid ?? document.activeElement?.id ?? ''"
    )


def tab_to(page, testid: str, limit: int = 40) -> None:
    for _ in range(limit):
        page.keyboard.press("Tab")
        if focused(page) == testid:
            return
    raise AssertionError(f"Tab never reached {testid}")


def focus_ring(page) -> dict:
    return page.evaluate("""() => { const el = document.activeElement, s = getComputedStyle(el);
      return { visible: el.matches(':focus-visible'), style: s.outlineStyle, width: parseFloat(s.outlineWidth) }; }""")


def test_keyboard_alone_plays_with_visible_focus_in_a_sensible_order(page) -> None:
    page.set_viewport_size(PHONE)
    page.goto("/")
    wait_ready(page)
    assert focused(page) == "menu-title"  # the menu takes focus, its title is read first
    tab_to(page, "mode-new")
    assert focus_ring(page)["visible"]
    page.keyboard.press("Enter")
    tab_to(page, "start")
    ring = focus_ring(page)
    assert ring["visible"] and ring["style"] != "none" and ring["width"] >= 2
    page.keyboard.press("Enter")
    page.wait_for_function("document.body.dataset.state === 'playing'")
    assert focused(page) == "your-pack"  # play starts on your pack

    # Tab order on the table: menu, your pack, the pile, SLAP!
    page.focus("[data-testid=menu]")
    order = []
    for _ in range(3):
        page.keyboard.press("Tab")
        order.append(focused(page))
        ring = focus_ring(page)
        assert ring["visible"] and ring["style"] != "none" and ring["width"] >= 2, order
    assert order == ["your-pack", "pile", "slap"]

    before = page.evaluate("window.ewar.view()")
    page.keyboard.press(" ")  # with SLAP! focused, Space is one slap, not a slap and a click
    # The key's press returns once the page has handled its keydown and keyup (a click comes with the keyup).
    slaps = "(v => v.wrong_slaps + v.piles_slapped)(window.ewar.view())"
    wait_for(page, f"{slaps} > {before['wrong_slaps'] + before['piles_slapped']}")
    after = page.evaluate("window.ewar.view()")
    assert (
        after["wrong_slaps"] + after["piles_slapped"]
        == before["wrong_slaps"] + before["piles_slapped"] + 1
    )

    # Escape opens the menu; the rules open from it by keyboard, Escape closes them and focus comes back.
    page.keyboard.press("Escape")
    page.wait_for_selector("[data-testid=menu-panel]")
    assert focused(page) == "menu-title"
    tab_to(page, "open-help")
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=help-dialog][open]")
    assert page.evaluate("document.querySelector('#help-dialog').contains(document.activeElement)")
    page.keyboard.press("Tab")
    assert page.evaluate(
        "document.querySelector('#help-dialog').contains(document.activeElement)"
    )  # modal
    page.keyboard.press("Escape")
    page.wait_for_selector("[data-testid=help-dialog]:not([open])", state="attached")
    assert focused(page) == "open-help" and page.is_visible("[data-testid=menu-panel]")
    page.keyboard.press("Escape")  # back to the game
    page.wait_for_selector("[data-testid=menu-panel]", state="hidden")
    assert focused(page) == "your-pack"


def test_the_table_is_out_of_reach_behind_the_menu(shared_page) -> None:
    page = shared_page
    open_menu(page)
    assert page.evaluate(
        "['.bar', '#table', '.controls'].every((s) => document.querySelector(s).inert)"
    )
    for _ in range(25):
        page.keyboard.press("Tab")
        assert page.evaluate(
            "!!document.activeElement.closest('#menu') || document.activeElement === document.body"
        )


# ---- Screen readers ----


def plural(lang: str, count: int) -> str:
    if lang in ("ko", "vi"):
        return "other"
    if lang == "fr":
        return "one" if count in (0, 1) else "other"
    return "one" if count == 1 else "other"


def fill(text: str, **params) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: str(params[m.group(1)]), text)


def card_name(words: dict, card: str) -> str:
    return fill(words["card.name"], rank=words[f"rank.{card[:-1]}"], suit=words[f"suit.{card[-1]}"])


@pytest.mark.parametrize("lang", ["en", "fr", "ur"])
def test_cards_the_pile_and_the_packs_have_names(shared_page, lang: str) -> None:
    words = catalog(lang)
    page = shared_page
    switch_language(page, lang)
    start_from_menu(page, speed="slow", deal=2024)
    wait_cards_on_pile(page, 3)
    view, label, cards, you = page.evaluate("""() => [window.ewar.view(),
        document.querySelector('[data-testid=pile]').getAttribute('aria-label'),
        [...document.querySelectorAll('#pile-cards .card')].map((c) => [c.dataset.card, c.getAttribute('role'), c.getAttribute('aria-label')]),
        document.querySelector('#your-pack').getAttribute('aria-label')]""")
    for card, role, name in cards:
        assert role == "img" and name == card_name(words, card)
    size = view["pile"]["size"]
    size_text = fill(words[f"pile.size.{plural(lang, size)}"], count=size)
    names = ", ".join(card_name(words, c) for c in reversed(view["pile"]["top"]))
    assert label == fill(words["table.pile"], size=size_text, cards=names)
    south = view["seats"][0]
    cards_text = fill(words[f"cards.{plural(lang, south['cards'])}"], count=south["cards"])
    assert you.startswith(
        fill(
            words["seat.label"],
            seat=words["seat.south"],
            cards=cards_text,
            status=words["status.playing"],
        )
    )
    if lang == "en":
        assert re.search(
            r"(two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|ace) of "
            r"(clubs|diamonds|hearts|spades)",
            label,
        )


def test_the_live_region_says_what_matters_without_flooding(shared_page, wrong_first_seed) -> None:
    page = shared_page
    region = page.evaluate("""() => { const r = document.querySelector('[data-testid=announcer]');
      return [r.getAttribute('role'), r.getAttribute('aria-live'), r.getAttribute('aria-atomic'),
              document.querySelector('#toast').getAttribute('aria-live')]; }""")
    assert region == ["status", "polite", "true", None]
    switch_language(page, "en")
    said_before = len(page.evaluate("window.ewar.announcements()"))  # earlier games on this page
    start_from_menu(page, speed="fast", deal=wrong_first_seed)
    page.keyboard.press(" ")  # the pile is empty: a wrong slap
    # A turn that is over before the region's next slot (~800 ms pacing) is dropped, never said late: so wait
    # on the first turn of ours long enough for it to be said, whatever else the CPUs did meanwhile.
    run_until(page, "window.ewar.view().your_turn || window.ewar.view().over")
    advance(page, 1800)
    view = play_to_end(page, keyboard(page))
    run_until(page, "document.body.dataset.state === 'over'")
    advance(page, 900)  # the last words wait for their turn
    said = page.evaluate("window.ewar.announcements()")[said_before:]
    texts = [text for _t, text in said]
    times = [t for t, _text in said]
    assert all(b - a >= 780 for a, b in pairwise(times)), said  # at most one per ~800 ms
    assert len(said) <= view["result"]["duration_ms"] / 780 + 2
    assert "There is nothing on the pile. You burn a card." in texts[:3]  # practice: no points said
    assert any(text.startswith(("Your turn", "You pay")) for text in texts)
    assert texts[-1].startswith("You won! — score") or texts[-1].endswith(
        f"score {view['result']['score']:,}"
    )
    # CPU flips are never said on their own: every announcement is one of the kinds that matter.
    kinds = re.compile(
        r"Your turn|You pay|pays|slapped|take|takes|burn a card|out of cards|back in|eliminated|won"
    )
    assert all(kinds.search(text) for text in texts), texts


# ---- Motion, touch, colour ----


def test_reduced_motion_stops_flying_cards_and_pulses(shared_page) -> None:
    page = shared_page
    probes = {}
    for motion in ("no-preference", "reduce"):
        page.emulate_media(reduced_motion=motion)
        try:
            open_menu(page)
            start_from_menu(page, speed="slow", deal=2024)
            run_until(page, "window.ewar.view().your_turn")
            advance(page, 100)
            pulse = page.eval_on_selector(
                ".seat-south.is-your-turn .pack-back", "e => getComputedStyle(e).animationName"
            )
            page.keyboard.press("Enter")
            advance(page)  # the frame that draws the card
            if motion == "no-preference":
                page.wait_for_selector(
                    "#pile-cards .card[class*=enter-]", state="attached", timeout=2000
                )
            enter = page.evaluate("""() => { const c = document.querySelector('#pile-cards .card:last-child');
              return c ? getComputedStyle(c).animationName : null; }""")
            probes[motion] = (pulse, enter)
        finally:
            page.emulate_media(reduced_motion="no-preference")
    assert probes["no-preference"][0] == "pulse"
    assert probes["reduce"][0] == "none"
    assert probes["reduce"][1] in ("none", None)


def test_touch_needs_no_double_tap_and_selects_no_text(shared_page) -> None:
    page = shared_page
    styles = page.evaluate("""() => Object.fromEntries([['body', 'body'], ['table', '#table'], ['pile', '#pile'],
        ['slap', '#slap'], ['pack', '[data-testid=pack-south]']].map(([k, s]) => {
          const c = getComputedStyle(document.querySelector(s)); return [k, [c.touchAction, c.userSelect]]; }))""")
    assert styles["body"] == ["manipulation", "none"]
    assert styles["table"] == ["manipulation", "none"]
    for key in ("pile", "slap", "pack"):
        assert styles[key] == ["none", "none"], (
            key
        )  # no panning, zooming or selecting on the play controls
    viewport = page.get_attribute("meta[name=viewport]", "content")
    assert (
        "user-scalable=no" not in viewport and "maximum-scale" not in viewport
    )  # pinch zoom stays possible


def test_suits_differ_by_shape_and_every_card_shows_its_suit(shared_page) -> None:
    page = shared_page
    switch_language(page, "en")
    paths = page.evaluate(
        "['S','H','D','C'].map((s) => document.querySelector('#suit-' + s + ' path').getAttribute('d'))"
    )
    assert len(set(paths)) == 4
    start_from_menu(page, speed="slow", deal=2024)
    wait_cards_on_pile(page, 3)
    cards = page.evaluate("""() => [...document.querySelectorAll('#pile-cards .card')].map((c) =>
        [c.dataset.card, [...c.querySelectorAll('use')].map((u) => u.getAttribute('href')), c.querySelector('.card-corner span').textContent])""")
    for card, uses, corner in cards:
        assert set(uses) == {f"#suit-{card[-1]}"} and len(uses) == 3
        assert corner == card[:-1]  # English corners: 2..10, J, Q, K, A

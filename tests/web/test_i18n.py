"""Five languages (the seeds' French, Korean, Vietnamese and Urdu, and English): one catalog each with the
same keys and placeholders; the page picks the browser's language, ?lang= or the picker's (remembered),
sets <html lang dir>, formats numbers with Intl, and a whole game plays in each language with no text cut
or pushed off screen at phone and desktop size. Urdu runs right to left and its controls still work."""

from __future__ import annotations

import json
import re

import pytest
from a11ykit import LANGUAGES, ROOT, catalog, cut_text, placeholders
from pagedriver import (
    DESKTOP,
    PHONE,
    Controls,
    keyboard,
    open_held,
    open_menu,
    play_to_end,
    review_shot,
    set_viewport,
    short_practice_seeds,
    start_from_menu,
    switch_language,
    wait_ready,
)

# The seeds' words for the SLAP! button and the two patterns.
SEED_WORDS = {
    "en": ("SLAP!", "Double", "Sandwich"),
    "fr": ("TAPEZ\u202f!", "Doublé", "Sandwich"),
    "ko": ("때려!", "더블", "샌드위치"),
    "vi": ("ĐẬP!", "Đôi", "Kẹp"),
    "ur": ("ہاتھ مارو!", "ڈبل", "سینڈوچ"),
}


@pytest.fixture(scope="module")
def quick_seed() -> int:
    return short_practice_seeds(1)[0]


@pytest.fixture(scope="module")
def wrong_first_seed() -> int:
    return short_practice_seeds(1, wrong_slap_first=True)[0]


# ---- The catalogs ----


def test_every_catalog_has_the_same_keys_and_placeholders() -> None:
    english = catalog("en")
    for lang in LANGUAGES[1:]:
        other = catalog(lang)
        assert sorted(set(english) - set(other)) == [], f"{lang}: missing keys"
        assert sorted(set(other) - set(english)) == [], f"{lang}: keys English does not have"
        for key, text in other.items():
            assert isinstance(text, str) and text.strip() == text and text, (
                f"{lang}:{key} empty or padded"
            )
            assert placeholders(text) == placeholders(english[key]), f"{lang}:{key} placeholders"


def test_every_key_the_page_asks_for_is_in_english() -> None:
    english = catalog("en")
    html = (ROOT / "web" / "index.html").read_text(encoding="utf-8")
    asked = set(re.findall(r'data-i18n(?:-label|-placeholder)?="([\w.]+)"', html))
    for script in (ROOT / "web" / "js").rglob("*.js"):
        text = script.read_text(encoding="utf-8")
        # t("key"), and the {key: "..."} a plain module hands the DOM code to say (scores/records.js)
        asked |= set(re.findall(r'\b(?:t\(|key:)\s*"([\w.]+)"', text))
    missing = [k for k in sorted(asked) if k not in english and f"{k}.other" not in english]
    assert missing == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_seeds_words_are_used(lang: str) -> None:
    slap, double, sandwich = SEED_WORDS[lang]
    words = catalog(lang)
    assert words["table.slap"] == slap
    assert words["pattern.double"] == double and words["pattern.sandwich"] == sandwich
    assert slap in words["help.controls.2"]


def test_french_typography() -> None:
    for key, text in catalog("fr").items():
        assert not re.search(r" [;:!?»]|« ", text), f"fr:{key}: plain space before ; : ! ? »"
        assert not re.search(r"[^\s\u00a0\u202f][;!?]", text.replace("://", "")), (
            f"fr:{key}: no space before ; ! ?"
        )
        if not key.startswith(
            "leaderboard.name"
        ):  # the name rule quotes the ASCII apostrophe itself
            assert "'" not in text, f"fr:{key}: straight apostrophe"


def test_urdu_is_written_in_urdu() -> None:
    allowed = {"Egyptian", "War", "J", "Q", "K", "A"}
    for key, text in catalog("ur").items():
        latin = set(re.findall(r"[A-Za-z]+", without_placeholders(text))) - allowed
        assert not latin, f"ur:{key}: {latin}"


def without_placeholders(text: str) -> str:
    return re.sub(r"\{\w+\}", "", text)


# ---- Choosing the language ----


def lang_and_dir(page) -> tuple[str, str]:
    return tuple(page.evaluate("[document.documentElement.lang, document.documentElement.dir]"))


def wait_language(page, lang: str) -> None:
    page.wait_for_function(
        "(lang) => document.documentElement.lang === lang && document.title", arg=lang
    )


@pytest.mark.parametrize(
    ("locale", "expected"),
    [("fr-CA", "fr"), ("ko", "ko"), ("vi-VN", "vi"), ("ur-IN", "ur"), ("de-DE", "en")],
)
def test_the_browsers_language_is_chosen_by_primary_subtag(new_context, locale, expected) -> None:
    context = new_context(locale=locale)
    try:
        page = open_held(context)  # what these tests look at comes before the engine
        wait_language(page, expected)
        assert lang_and_dir(page) == (expected, "rtl" if expected == "ur" else "ltr")
        assert page.inner_text("[data-testid=slap]") == catalog(expected)["table.slap"]
    finally:
        context.close()


def test_lang_in_the_address_wins_over_the_browser(new_context) -> None:
    context = new_context(locale="ko-KR")
    try:
        page = open_held(context, "/?lang=vi")
        wait_language(page, "vi")
        assert page.inner_text("h1") == "Egyptian War"
        assert page.inner_text("[data-testid=slap]") == "ĐẬP!"
        # The empty table under the loading screen (and the menu, before a game) counts in Vietnamese too.
        words = catalog("vi")
        assert page.inner_text("[data-testid=pile-size]") == words["pile.size.other"].replace(
            "{count}", "0"
        )
        assert page.inner_text("[data-testid=pile-burned]") == words["pile.burned.other"].replace(
            "{count}", "0"
        )
        flip_button = page.get_attribute("#your-pack", "aria-label")
        assert flip_button == words["seat.south"]
    finally:
        context.close()


def test_the_picker_changes_the_language_and_it_is_remembered(new_context) -> None:
    context = new_context(locale="en-US")
    try:
        page = context.new_page()
        page.goto("/")
        wait_ready(page)
        names = page.eval_on_selector_all(
            "[data-testid=language] option", "os => os.map(o => [o.value, o.textContent, o.lang])"
        )
        assert names == [
            ["en", "English", "en"],
            ["fr", "Français", "fr"],
            ["ko", "한국어", "ko"],
            ["vi", "Tiếng Việt", "vi"],
            ["ur", "اردو", "ur"],
        ]
        page.select_option("[data-testid=language]", "ko")
        wait_language(page, "ko")
        assert page.inner_text("[data-testid=start]") == catalog("ko")["menu.start"]
        assert page.inner_text("#menu-title") == catalog("ko")["menu.title"]
        page.reload()
        wait_ready(page)
        assert lang_and_dir(page) == ("ko", "ltr")
        assert page.input_value("[data-testid=language]") == "ko"
        page.select_option("[data-testid=language]", "ur")
        wait_language(page, "ur")
        assert lang_and_dir(page) == ("ur", "rtl")
        start_from_menu(page, deal=5)
        assert page.inner_text("[data-testid=slap]") == "ہاتھ مارو!"
        assert page.evaluate("window.ewar.missingKeys()") == []
        # The language already shown, chosen again: no catalog fetched, the table not redrawn (a redraw clears
        # the message on show; it once did so late, mid-game, after a test chose the page's own language).
        page.evaluate("document.querySelector('[data-testid=toast]').classList.add('show')")
        asked = []
        page.on("request", lambda request: asked.append(request.url))
        open_menu(page)
        page.evaluate(  # the stored choice taken away, for the change's handler to write again
            """() => { const kept = JSON.parse(localStorage.getItem('ewar.settings'));
                       delete kept.language; localStorage.setItem('ewar.settings', JSON.stringify(kept)); }"""
        )
        page.select_option("[data-testid=language]", "ur")
        # The picker's change is handled at once (select_option dispatches it): the choice is stored, and any
        # catalog to load would have been asked for in the same turn, before the round trip that reads it.
        assert page.evaluate("JSON.parse(localStorage.getItem('ewar.settings')).language") == "ur"
        assert [url for url in asked if "/i18n/" in url] == []
        assert page.evaluate(
            "document.querySelector('[data-testid=toast]').classList.contains('show')"
        )
    finally:
        context.close()


# ---- A whole game in each language, looked at on a phone and a desktop ----


def shoot(page, name: str) -> None:
    review_shot(page, f"i18n/{name}")


def check_fits(page, where: str) -> None:
    assert cut_text(page) == [], where


def check_both_sizes(page, lang: str, state: str) -> None:
    for size, name in ((PHONE, "phone"), (DESKTOP, "desktop")):
        set_viewport(page, size)
        shoot(page, f"{lang}-{state}-{name}")
        check_fits(page, f"{lang} {state} {name}")
    page.set_viewport_size(PHONE)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_whole_game_in(shared_page, quick_seed, lang: str) -> None:
    """One page for the five languages, switched with the picker (choosing by the browser's language is the
    subject of the tests above)."""
    words = catalog(lang)
    page = shared_page
    page.set_viewport_size(PHONE)
    switch_language(page, lang)
    assert lang_and_dir(page) == (lang, "rtl" if lang == "ur" else "ltr")
    assert page.inner_text("#menu-title") == words["menu.title"]
    check_both_sizes(page, lang, "menu")

    page.click("[data-testid=open-help]")
    page.wait_for_selector("[data-testid=help-dialog][open]")
    assert words["help.rules.slap.2"] in page.inner_text("[data-testid=help-dialog]")
    check_both_sizes(page, lang, "help")
    page.keyboard.press("Escape")
    page.wait_for_selector("[data-testid=help-dialog]:not([open])", state="attached")
    page.click("[data-testid=open-about]")
    assert words["help.about.1"] in page.inner_text("[data-testid=about-dialog]")
    # The sources of the rules and the history, credited and linked (Wikipedia, pagat.com).
    assert words["help.about.sources"] in page.inner_text("[data-testid=about-dialog]")
    hrefs = page.eval_on_selector_all(
        "[data-testid=sources] a", "(links) => links.map((a) => a.href)"
    )
    assert hrefs == [
        "https://en.wikipedia.org/wiki/Egyptian_Ratscrew",
        "https://en.wikipedia.org/wiki/Beggar-my-neighbour",
        "https://www.pagat.com/",
    ]
    check_both_sizes(page, lang, "about")
    page.keyboard.press("Escape")

    start_from_menu(page, speed="fast", deal=quick_seed)
    play_to_end(page, keyboard(page), stop=lambda view: view["pile"]["size"] >= 3)
    check_both_sizes(page, lang, "playing")
    assert page.inner_text("[data-testid=slap]") == words["table.slap"]

    view = play_to_end(page, keyboard(page))
    page.wait_for_function("document.body.dataset.state === 'over'")
    check_both_sizes(page, lang, "result")
    shown = page.inner_text("[data-testid=result-score]")
    assert shown == page.evaluate(
        "([lang, n]) => new Intl.NumberFormat(lang).format(n)", [lang, view["result"]["score"]]
    )
    assert page.evaluate("window.ewar.missingKeys()") == []


# ---- Right to left ----


def test_urdu_reads_right_to_left_and_its_controls_work(shared_page, wrong_first_seed) -> None:
    page = shared_page
    page.set_viewport_size(PHONE)
    switch_language(page, "ur")
    assert lang_and_dir(page) == ("ur", "rtl")
    page.click("[data-testid=open-help]")
    align = page.evaluate("""() => [...document.querySelectorAll('#help-body p, #help-body li, .field > span')]
        .filter((el) => el.getClientRects().length).map((el) => {
          const s = getComputedStyle(el), r = document.createRange();
          r.selectNodeContents(el);
          const text = r.getBoundingClientRect(), box = el.getBoundingClientRect();
          return [s.direction, s.textAlign, Math.round(box.right - text.right)];
        })""")
    assert align and all(
        d == "rtl" and a in ("right", "start") and gap <= 2 for d, a, gap in align
    ), align
    page.keyboard.press("Escape")

    start_from_menu(page, speed="fast", deal=wrong_first_seed)
    # The table is a physical table: West sits on the left, East on the right, in every language.
    west, east = (
        page.eval_on_selector(f"[data-testid=pack-{s}]", "e => e.getBoundingClientRect().left")
        for s in ("west", "east")
    )
    assert west < east
    page.click("[data-testid=slap]")  # ہاتھ مارو! on the empty pile: a wrong slap
    view = page.evaluate("window.ewar.view()")
    assert view["wrong_slaps"] == 1 and view["pile"]["burned"] == 1

    counts = {"space": 0, "button": 0}

    def slapped() -> int:
        v = page.evaluate("window.ewar.view()")
        return v["wrong_slaps"] + v["piles_slapped"]

    def slap() -> None:
        how = "space" if (counts["space"] + counts["button"]) % 2 == 0 else "button"
        before = slapped()
        if how == "space":
            page.keyboard.press(" ")
        else:
            page.click("[data-testid=slap]")
        assert slapped() == before + 1, (
            how
        )  # the slap reached the engine: a won pile or a wrong slap
        counts[how] += 1

    flips = [0]

    def flip() -> None:
        flips[0] += 1
        page.keyboard.press("Enter")

    view = play_to_end(page, Controls(flip, slap))
    assert view["over"] and flips[0] > 0 and counts["space"] > 0 and counts["button"] > 0, counts
    page.wait_for_function("document.body.dataset.state === 'over'")
    th = page.eval_on_selector(
        "[data-testid=result-breakdown] th", "e => getComputedStyle(e).textAlign"
    )
    assert th in ("right", "start")
    shoot(page, "ur-rtl-result-phone")
    check_fits(page, "ur result")
    assert page.evaluate("window.ewar.missingKeys()") == []


def test_every_rule_number_the_engine_gives_is_quoted() -> None:
    """bridge.rule_numbers() carries only numbers a text reads (the pay counts among them), none unread."""
    from ewar.bridge import rule_numbers

    quoted = set().union(*(placeholders(text) for text in catalog("en").values()))
    given = set(json.loads(rule_numbers()))
    assert {"pay_ace", "pay_king", "pay_queen", "pay_jack"} <= given
    assert given - quoted == set()


def test_the_pages_seats_and_speeds_are_the_engines() -> None:
    """The table's seats in index.html are the ones bridge.table_settings() names, and the menu's CPU speed select
    is left empty there (the page fills it from the engine: the next test); each seat and speed is worded in every
    catalog."""
    from ewar.bridge import table_settings

    settings = json.loads(table_settings())
    html = (ROOT / "web" / "index.html").read_text(encoding="utf-8")
    assert sorted(re.findall(r'data-seat="(\w+)"', html)) == sorted(settings["seats"])
    assert re.search(r'<select id="speed" data-testid="speed"></select>', html)
    assert not any(f'"{speed}"' in html or f"speed.{speed}" in html for speed in settings["speeds"])
    for lang in LANGUAGES:
        words = catalog(lang)
        missing = [
            key
            for key in [f"seat.{s}" for s in settings["seats"]]
            + [f"speed.{s}" for s in settings["speeds"]]
            if key not in words
        ]
        assert missing == [], f"{lang}: {missing}"


def speed_menu(page) -> dict:
    return page.evaluate(
        """() => { const select = document.querySelector('[data-testid=speed]');
                   const note = document.querySelector('[data-testid=speed-note]');
                   return { options: [...select.options].map((o) => [o.value, o.textContent]),
                            value: select.value, note: note.hidden ? null : note.textContent,
                            described: select.getAttribute('aria-describedby'),
                            kept: JSON.parse(localStorage.getItem('ewar.settings') ?? '{}').speed ?? null }; }"""
    )


def test_the_speed_select_is_the_engines_speeds_and_a_saved_speed_no_longer_offered_falls_back(
    new_context,
) -> None:
    """The menu's CPU speeds are the engine's (bridge.table_settings()), in its order, in each language's words;
    the engine's default is selected until the player picks one, which is kept; a saved speed the engine no longer
    offers gives way to the default, kept in its place and said under the select (in the page's language)."""
    from ewar.bridge import table_settings

    settings = json.loads(table_settings())
    speeds, default = settings["speeds"], settings["default_speed"]
    other = next(speed for speed in reversed(speeds) if speed != default)
    context = new_context(locale="en-US")
    context.add_init_script(script="localStorage.setItem('ewar.welcomed', '1')")
    page = context.new_page()
    page.goto("/")
    wait_ready(page)
    words = catalog("en")
    shown = speed_menu(page)
    assert shown["options"] == [[speed, words[f"speed.{speed}"]] for speed in speeds]
    assert (shown["value"], shown["note"], shown["kept"]) == (default, None, None)

    page.evaluate(
        """() => localStorage.setItem('ewar.settings',
                   JSON.stringify({ ...JSON.parse(localStorage.getItem('ewar.settings') ?? '{}'), speed: 'turbo' }))"""
    )
    page.reload()
    wait_ready(page)
    for lang in LANGUAGES:
        switch_language(page, lang)
        words = catalog(lang)
        shown = speed_menu(page)
        assert shown["options"] == [[speed, words[f"speed.{speed}"]] for speed in speeds], lang
        assert (shown["value"], shown["kept"], shown["described"]) == (
            default,
            default,
            "speed-note",
        )
        assert shown["note"] == words["menu.speedGone"].replace(
            "{speed}", words[f"speed.{default}"]
        )
        assert page.is_visible("[data-testid=speed-note]")

    page.click(
        "[data-testid=mode-new]"
    )  # the daily plays at its own speed: the select is practice's
    page.select_option("[data-testid=speed]", other)
    assert speed_menu(page)["note"] is None
    page.reload()
    wait_ready(page)
    shown = speed_menu(page)
    assert (shown["value"], shown["kept"], shown["note"], shown["described"]) == (
        other,
        other,
        None,
        None,
    )
    assert page.evaluate("window.ewar.missingKeys()") == []

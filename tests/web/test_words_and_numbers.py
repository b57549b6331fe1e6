"""Counts and charts as a player reads them (issue 33): every count in the five catalogs follows the language's
plural rules; the day's chart names score ranges (not their bare edges) and says "the only win so far" rather
than "better than 0%"; the 30-day chart has a scale and a legend for its grey, and one median reaction is one
number; Korean wraps between words. In every language at 390x844, 360x640 and 1280x800.

The board's answer is routed (page.route); the history is seeded in localStorage before the page loads, as the
page itself keeps it (web/js/base/history.js)."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from a11ykit import LANGUAGES, catalog
from pagedriver import (
    DESKTOP,
    PHONE,
    board_and_history_page,
    box,
    review_shot,
    set_viewport,
    switch_language,
)

SMALL = {"width": 360, "height": 640}
SIZES = {"phone": PHONE, "small": SMALL, "desktop": DESKTOP}
DISTRIBUTION = "[data-testid=distribution-chart]"
HISTORY = "[data-testid=history-chart]"
TODAY = datetime.now(UTC).date()

# The languages' plural categories a catalog must give (CLDR's, as Intl.PluralRules has them): "other" always;
# "one" where 1 is said apart. French's "many" (a million, 1.5 million...) may fall back to "other".
NEEDED = {
    "en": {"one", "other"},
    "fr": {"one", "other"},
    "ko": {"other"},
    "vi": {"other"},
    "ur": {"one", "other"},
}
# Keys with a {count} that names no thing to agree with it: a unit symbol ("12 s played") and a sign ("+4").
NO_NOUN = {"result.seconds", "flash.taken"}

# Four games today: two losses under 100, one at 100-199, and you, the only win so far (rank 1 of 4).
BOARD = {
    "date": TODAY.isoformat(),
    "entries": [
        {
            "rank": 1,
            "entry": 3,
            "name": "Me",
            "score": 540,
            "duration_ms": 99_000,
            "wrong_slaps": 1,
        },
    ],
    "total": 4,
    "you": {
        "rank": 1,
        "entry": 3,
        "name": "Me",
        "score": 540,
        "duration_ms": 99_000,
        "wrong_slaps": 1,
        "won": True,
        "you": True,
        "id": "x" * 22,
        "winners": 1,
        "winners_below": 0,
    },
    "distribution": {"bin": 50, "wins": [[500, 1]], "losses": [[50, 2], [100, 1]]},
}
BOARD["entries"][0].update(won=True, you=True)

# One daily in 30 days: lost, 50 points, median reaction 630 ms.
DAILY = {"date": TODAY.isoformat(), "score": 50, "won": False, "median_ms": 630}
HISTORY_SEED = {
    "played": 1,
    "won": 0,
    "bestDaily": 50,
    "streak": 1,
    "lastDailyDate": TODAY.isoformat(),
    "daily": {"date": TODAY.isoformat(), "finished": True, "score": 50, "won": False},
    "bestReaction": 630,
    "dailies": [DAILY],
}


def plural_families(words: dict[str, str]) -> set[str]:
    return {key.rsplit(".", 1)[0] for key in words if key.endswith(".one")} & {
        key.rsplit(".", 1)[0] for key in words if key.endswith(".other")
    }


def test_every_count_in_the_catalogs_follows_the_languages_plural_rules() -> None:
    english = catalog("en")
    families = plural_families(english)
    single = sorted(
        key
        for key, text in english.items()
        if "{count}" in text and key.rsplit(".", 1)[0] not in families and key not in NO_NOUN
    )
    assert single == [], f"a count without its plural forms: {single}"
    for lang in LANGUAGES:
        words = catalog(lang)
        for family in sorted(families):
            missing = {c for c in NEEDED[lang] if f"{family}.{c}" not in words}
            assert not missing, f"{lang}: {family} has no {missing}"
            stray = [k for k in words if k == family]
            assert not stray, f"{lang}: {family} also as a single key"
        # No percentage sign written by hand: Intl.NumberFormat writes it as the language does.
        for key, text in words.items():
            assert "{percent}%" not in text and "{percent} %" not in text, f"{lang}:{key}"


@pytest.fixture(scope="module")
def words_page(context_opener):
    with board_and_history_page(context_opener, BOARD, HISTORY_SEED) as page:
        yield page


def fill(template: str, **params: str) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: params.get(m.group(1), m.group(0)), template)


def intl(page, lang: str) -> dict:
    """The numbers as the language writes them (Intl, in the page)."""
    return page.evaluate(
        """(lang) => { const n = new Intl.NumberFormat(lang);
           const r = (a, b) => n.formatRange ? n.formatRange(a, b) : `${n.format(a)}–${n.format(b)}`;
           return { low: r(50, 99), high: r(500, 549), n540: n.format(540), n4: n.format(4), n630: n.format(630),
                    n1: n.format(1), n50: n.format(50), plural1: new Intl.PluralRules(lang).select(1),
                    plural4: new Intl.PluralRules(lang).select(4) }; }""",
        lang,
    )


def plural(words: dict, family: str, category: str) -> str:
    return words.get(f"{family}.{category}", words[f"{family}.other"])


def words_split_across_lines(page, selector: str) -> list[str]:
    """Each word (between spaces) of the elements' text that the page draws over more than one line."""
    return page.eval_on_selector_all(
        selector,
        """(els) => els.flatMap((el) => {
             const split = [];
             const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
             for (let node = walker.nextNode(); node; node = walker.nextNode()) {
               const text = node.textContent;
               for (const m of text.matchAll(/\\S+/g)) {
                 const range = document.createRange();
                 range.setStart(node, m.index);
                 range.setEnd(node, m.index + m[0].length);
                 const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
                 if (tops.size > 1) split.push(m[0]);
               }
             }
             return split;
           })""",
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_charts_say_what_their_bars_are_in_the_languages_words(words_page, lang: str) -> None:
    page = words_page
    switch_language(page, lang)
    words = catalog(lang)
    num = intl(page, lang)
    page.wait_for_selector(f"{DISTRIBUTION} svg")
    page.wait_for_selector(f"{HISTORY} svg")

    # The day: four games, ranges named as ranges, the only win said so.
    sentence = page.inner_text("[data-testid=distribution-chart-text]")
    summary = fill(
        plural(words, "charts.distribution.summary", num["plural4"]),
        count=num["n4"],
        lowRange=num["low"],
        highRange=num["high"],
    )
    place = fill(words["charts.distribution.onlyWinner"], score=num["n540"])
    assert sentence == f"{summary} {place}", sentence
    assert page.get_by_role("img", name=sentence).count() == 1
    axis = page.eval_on_selector_all(
        f"{DISTRIBUTION} text.chart-axis", "els => els.map(e => e.textContent)"
    )
    assert num["low"] in axis and num["high"] in axis, axis
    scale = page.eval_on_selector(f"{DISTRIBUTION} text.chart-scale", "t => t.textContent")
    assert scale == fill(
        plural(words, "charts.scale.games", "other"),
        count=page.evaluate("(lang) => new Intl.NumberFormat(lang).format(2)", lang),
    ), scale  # the tallest bar: two games

    # The 30 days: one daily ("1 daily", not "1 dailies"), one median (not "from 630 to 630").
    sentence = page.inner_text("[data-testid=history-chart-text]")
    history = fill(
        plural(words, "charts.history.summary", num["plural1"]),
        count=num["n1"],
        best=num["n50"],
        latest=num["n50"],
    )
    head, _, tail = history.partition("{bestDate}")
    assert sentence.startswith(head) and tail in sentence, (sentence, history)
    assert sentence.endswith(fill(words["charts.history.reactionOne"], ms=num["n630"])), sentence
    # A lost 50-point day is a short grey bar under a scale that reaches at least the win floor.
    bar = page.eval_on_selector(
        f"{HISTORY} .chart-day",
        "r => [r.getAttribute('height'), r.classList.contains('chart-lost')]",
    )
    plot = page.eval_on_selector(f"{HISTORY} .chart-base", "l => Number(l.getAttribute('y1'))")
    assert bar[1] and float(bar[0]) < plot / 2, (bar, plot)
    legend = page.inner_text(f"{HISTORY} .chart-legend")
    for key in ("charts.legend.wonDay", "charts.legend.lostDay", "charts.legend.reaction"):
        assert words[key] in legend, (key, legend)
    scale = page.eval_on_selector(f"{HISTORY} text.chart-scale", "t => t.textContent")
    assert re.search(r"\d", scale), scale
    assert page.evaluate("window.ewar.missingKeys()") == []

    for name, size in SIZES.items():
        set_viewport(page, size)
        if lang == "ko":
            # Korean wraps between words: no word of the board's header or the charts' sentences split.
            split = words_split_across_lines(
                page,
                "[data-testid=leaderboard] th, [data-testid=leaderboard] figcaption, "
                "[data-testid=history-chart] figcaption",
            )
            assert split == [], (name, split)
        width = page.evaluate("document.documentElement.clientWidth")
        for selector in ("[data-testid=leaderboard] table", DISTRIBUTION, HISTORY):
            shown = box(page, selector)
            left, right = shown["left"], shown["right"]
            assert right > left and left >= -1 and right <= width + 1, (
                name,
                selector,
                left,
                right,
                width,
            )
        review_shot(page, f"words/board-{lang}-{name}", scroll_to=DISTRIBUTION)
        review_shot(page, f"words/history-{lang}-{name}", scroll_to=HISTORY)
    page.set_viewport_size(PHONE)

"""Watching a finished game (issue 22): your own last game from its result, a board entry's from the scores API;
play, pause, 1x/2x/4x, jumps in the timeline that show the table the engine shows at that moment, the slaps
marked with who and how quickly, the result at the end; nothing saved; the watch bar fits in every language."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from a11ykit import LANGUAGES, catalog
from pagedriver import (
    DESKTOP,
    FRAME_MS,
    PHONE,
    READY_MS,
    advance,
    box,
    freeze_time,
    keyboard,
    open_menu,
    overlaps,
    play_to_end,
    played_today,
    review_shot,
    run_until,
    short_practice_seeds,
    start_from_menu,
    switch_language,
    wait_at_rest,
    wait_for,
)
from scores_api import post_daily

from ewar.game import Game
from ewar.replay import Replay
from ewar.watch import watch
from tools.harness.players import HumanLikePlayer, play

ROOT = Path(__file__).resolve().parents[2]
SMALL = {"width": 360, "height": 640}
SIZES = [PHONE, DESKTOP]
WATCHING = "document.body.dataset.state === 'watching'"
MOMENT = "window.ewar.watch().moment"

# Everything the page keeps, to compare before and after a watch.
# What the page keeps. The boards kept for offline are the menu's (it asks for its board again whenever it opens
# on one not seen lately): their boards count, not when they were seen.
KEPT = """async () => {
  const local = Object.fromEntries(Object.keys(localStorage).sort().map((k) => [k, localStorage.getItem(k)]));
  if (local["ewar.leaderboards"]) {
    const boards = JSON.parse(local["ewar.leaderboards"]);
    for (const kept of Object.values(boards)) delete kept.seenAt;
    local["ewar.leaderboards"] = JSON.stringify(boards);
  }
  const names = (await indexedDB.databases()).map((d) => d.name).sort();
  const stores = {};
  for (const name of names) {
    const db = await new Promise((ok, fail) => {
      const open = indexedDB.open(name);
      open.onsuccess = () => ok(open.result);
      open.onerror = () => fail(open.error);
    });
    for (const store of db.objectStoreNames) {
      stores[`${name}/${store}`] = await new Promise((ok) => {
        const all = db.transaction(store).objectStore(store).getAll();
        all.onsuccess = () => ok(JSON.stringify(all.result));
      });
    }
    db.close();
  }
  return { local, stores };
}"""

# The table as drawn: each seat's count, the pile's face-up cards, the clock.
DRAWN = """() => ({
  seats: [...document.querySelectorAll('.seat')].map((s) => [s.dataset.seat, s.querySelector('.seat-count').textContent]).sort(),
  pile: [...document.querySelectorAll('#pile-cards [data-card]')].map((c) => c.dataset.card),
})"""


def drawn_of(view: dict) -> dict:
    """What DRAWN reads for an engine view (digits as en shows them)."""
    return {
        "seats": sorted([seat["seat"], str(seat["cards"])] for seat in view["seats"]),
        "pile": view["pile"]["top"],
    }


def seek_to(page, ms: int) -> None:
    """Drags the timeline to ms, as a player would (the range's input event)."""
    page.evaluate(
        """(ms) => { const r = document.querySelector('[data-testid=watch-timeline]');
                    r.value = String(ms); r.dispatchEvent(new Event('input', { bubbles: true })); }""",
        ms,
    )
    advance(page, FRAME_MS)


def assert_bar_fits(page, where) -> None:
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    parts = [
        "[data-testid=watch-title]",
        "[data-testid=watch-timeline]",
        "[data-testid=watch-play]",
        "[data-testid=watch-speed-1]",
        "[data-testid=watch-speed-4]",
        "[data-testid=watch-time]",
        "[data-testid=watch-close]",
    ]
    boxes = {part: box(page, part) for part in parts}
    for part, b in boxes.items():
        assert b["right"] > b["left"] and b["bottom"] > b["top"], (where, part, "not shown")
        assert b["left"] >= -1 and b["right"] <= width + 1, (where, part, b, "outside")
        assert b["top"] >= -1 and b["bottom"] <= height + 1, (where, part, b, "outside")
    for i, a in enumerate(parts):
        for b in parts[i + 1 :]:
            assert not overlaps(boxes[a], boxes[b]), (where, a, b)
    assert not overlaps(box(page, "[data-testid=watch-bar]"), box(page, "[data-testid=pile]")), (
        where
    )


def assert_table_apart(page, where) -> None:
    """The pile (its top card too), its counts and the turn line stay apart, above the bar (360x640 too)."""
    wait_at_rest(page)
    table = {
        "pile": box(page, "[data-testid=pile]"),
        "counts": box(page, ".pile-info"),
        "turn": box(page, "[data-testid=turn]"),
        "bar": box(page, "[data-testid=watch-bar]"),
    }
    assert page.locator("#pile-cards .card").count(), (where, "no card on the pile to check")
    table["top card"] = box(page, "#pile-cards .card:last-child")
    names = list(table)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            if {a, b} != {"pile", "top card"}:
                assert not overlaps(table[a], table[b]), (where, a, b, table)


def assert_timeline_keys(page, engine, lang: str, where) -> None:
    """The timeline moves by the game's events: arrows to the previous or next one, Page keys by 10 s, Home and
    End to the ends; the marks are one Tab stop of 24x24 buttons, the arrows move along them, Enter jumps."""
    forward, back = ("ArrowLeft", "ArrowRight") if lang == "ur" else ("ArrowRight", "ArrowLeft")
    times = sorted({mark["t"] for mark in engine.marks if mark["t"] > 0})

    def press(key: str) -> int:
        page.keyboard.press(key)
        advance(page, FRAME_MS)
        return page.evaluate(MOMENT)

    seek_to(page, 0)
    page.focus("[data-testid=watch-timeline]")
    assert press(forward) == times[0], where
    assert press(forward) == times[1], where
    assert press(back) == times[0], where
    assert press("PageUp") == min(times[0] + 10_000, engine.duration_ms), where
    assert press("PageDown") == times[0], where
    assert press("End") == engine.duration_ms, where
    assert press("Home") == 0, where

    shown = [m for m in engine.marks if m["type"] in ("slap_won", "wrong_slap")]
    sizes = page.eval_on_selector_all(
        "[data-testid=watch-mark]",
        "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.width, r.height]; })",
    )
    assert len(sizes) == len(shown) and all(w >= 24 and h >= 24 for w, h in sizes), (
        where,
        sizes[:3],
    )
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.dataset.testid")
    assert focused == "watch-mark", (where, focused)
    page.keyboard.press(forward)
    label = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert label and label == page.evaluate("document.activeElement.title"), where
    page.keyboard.press("Enter")
    advance(page, FRAME_MS)
    assert page.evaluate(MOMENT) == shown[1]["t"], where


def test_watch_your_own_game_to_its_end(shared_page) -> None:
    page = shared_page
    page.set_viewport_size(PHONE)
    switch_language(page, "en")
    freeze_time(page)
    final = None
    seed = short_practice_seeds(1)[0]
    start_from_menu(page, speed="fast", deal=seed)
    final = play_to_end(page, keyboard(page))
    run_until(page, "document.body.dataset.state === 'over'")
    record = page.evaluate("window.ewar.replay()")
    engine = watch(record)
    kept = page.evaluate(KEPT)

    errors = []
    page.on(
        "console",
        lambda message: (
            errors.append(message.text) if message.type in ("error", "warning") else None
        ),
    )
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.click("[data-testid=watch-own]")
    advance(page, FRAME_MS)
    assert page.inner_text("[data-testid=watch-own-status]") == "", errors
    wait_for(page, WATCHING)
    assert page.is_hidden("[data-testid=result]") and page.is_hidden("[data-testid=slap]")
    assert_bar_fits(page, "own game, phone")

    # Your own game still says "you", with no prompt to act while it is watched.
    page.click("[data-testid=watch-play]")  # paused
    words = catalog("en")
    for moment in your_turns(record):
        seek_to(page, moment)
        told = page.evaluate(TABLE_WORDS)
        assert told["south"] == words["seat.south"], told
        assert told["turn"] in (words["say.yourTurn"], words["say.youPay"].split(",")[0]) or told[
            "turn"
        ].startswith(words["say.youPay"].split(",")[0]), told
        assert not told["prompt"] and told["hint"] == "hidden", told
    seek_to(page, 0)
    page.click("[data-testid=watch-play]")  # playing again, from the start

    # The marks: each slap taken, with who took it and the reaction; each wrong slap with its reason.
    labels = page.eval_on_selector_all(
        "[data-testid=watch-mark]",
        "(els) => els.map((e) => [e.dataset.type, e.getAttribute('aria-label')])",
    )
    expected = [m for m in engine.marks if m["type"] in ("slap_won", "wrong_slap")]
    assert len(labels) == len(expected) and expected
    words = catalog("en")
    for (kind, label), mark in zip(labels, expected, strict=True):
        assert kind == mark["type"]
        assert words[f"seat.{mark['seat']}"] in label, (label, mark)
        if mark["type"] == "slap_won" and mark.get("reaction_ms"):
            assert f"{mark['reaction_ms']} ms" in label, (label, mark)
            assert words[f"pattern.{mark['pattern']}"] in label
    assert any(m["type"] == "slap_won" and m.get("reaction_ms") for m in expected)

    # Playing: 1x moves a second of game time per second; pause stops it; 2x and 4x move more.
    def moved_over(ms: int) -> int:
        before = page.evaluate(MOMENT)
        advance(page, ms)
        return page.evaluate(MOMENT) - before

    assert page.evaluate("window.ewar.watch().playing")
    assert abs(moved_over(1000) - 1000) <= 2 * FRAME_MS
    page.click("[data-testid=watch-play]")
    assert not page.evaluate("window.ewar.watch().playing")
    assert moved_over(1000) == 0
    page.click("[data-testid=watch-play]")
    page.click("[data-testid=watch-speed-2]")
    assert abs(moved_over(1000) - 2000) <= 4 * FRAME_MS
    page.click("[data-testid=watch-speed-4]")
    assert page.get_attribute("[data-testid=watch-speed-4]", "aria-pressed") == "true"
    assert abs(moved_over(500) - 2000) <= 8 * FRAME_MS

    # The player's keys do nothing to the game, and the table stays the watch's.
    page.keyboard.press(" ")
    page.keyboard.press("Enter")
    assert page.evaluate("window.ewar.view()") == final and page.evaluate(WATCHING)

    # Jumps, back and forth: the table the engine shows at that moment.
    page.click("[data-testid=watch-play]")  # paused, so the table holds still to be read
    for moment in (engine.duration_ms // 2, 1500, engine.duration_ms * 3 // 4):
        seek_to(page, moment)
        assert page.evaluate(MOMENT) == moment
        assert page.evaluate(DRAWN) == drawn_of(watch(record).seek(moment)["view"]), moment

    # To the end at 4x: the result shown is the game's.
    page.click("[data-testid=watch-play]")
    run_until(page, f"{MOMENT} === {engine.duration_ms}", limit_ms=engine.duration_ms)
    title = page.inner_text("[data-testid=watch-title]")
    assert str(final["result"]["score"]) in title.replace(",", "")
    assert not page.evaluate("window.ewar.watch().playing")
    assert page.evaluate(DRAWN) == drawn_of(final)

    page.click("[data-testid=watch-close]")
    wait_for(page, "document.body.dataset.state === 'over'")
    assert page.is_visible("[data-testid=result]")
    assert page.evaluate(KEPT) == kept, "watching saved something"


# What the table says while a game is watched: the turn line, whether your-turn's prompt is lit, the South seat's
# name and the announcer's words so far.
TABLE_WORDS = """() => ({
  turn: document.querySelector('[data-testid=turn]').textContent,
  prompt: document.querySelector('[data-testid=pack-south]').classList.contains('is-your-turn'),
  hint: getComputedStyle(document.querySelector('[data-testid=flip-hint]')).visibility,
  state: document.body.dataset.state,
  running: document.getAnimations().map((a) => a.transitionProperty || a.animationName),
  south: document.querySelector('[data-testid=pack-south] .seat-name').textContent,
  packLabel: document.querySelector('#your-pack').getAttribute('aria-label'),
  said: window.ewar.announcements().map((line) => line[1]),
})"""


def plain(text: str) -> str:
    """Text without the isolates that set a player's name apart (U+2068, U+2069)."""
    return text.replace("\u2068", "").replace("\u2069", "")


def result_title(words: dict, result: dict, name: str) -> str:
    """The watched player's result in the third person, as the catalog words it."""
    if result["reason"] == "time_limit":
        key = "result.time_limitWonThem" if result["won"] else "result.time_limit"
    elif result["won"]:
        key = "result.wonThem"
    elif result["reason"] in ("eliminated", "resigned"):
        key = f"result.{result['reason']}Them"
    else:
        return words["result.cpu_won"].replace("{winner}", words[f"seat.{result['winner']}"])
    return words[key].replace("{name}", name)


def assert_third_person(page, words: dict, name: str, where) -> None:
    """Another player's game: South is their name; no "your turn", no flip prompt, no hint."""
    told = page.evaluate(TABLE_WORDS)
    assert plain(told["south"]) == name and told["south"] != name, (
        where,
        told,
    )  # set apart for bidi
    assert not told["prompt"] and told["hint"] == "hidden", (where, told)
    for key in ("turn.you", "turn.youPay", "turn.collectingYou"):
        assert told["turn"] != words[key], (where, told)
    assert words["table.flipHint"] not in told["packLabel"], (where, told)
    assert words["say.yourTurn"] not in told["said"], (where, told)


def your_turns(record_json: str, count: int = 3) -> list[int]:
    """The first moments at which the record's South is to flip or to pay: the moments of its flips (a seek shows
    what happened strictly before). A grid of moments missed them at times: a quick player's turn may last no
    millisecond, its flip made as the turn came."""
    probe = watch(record_json)
    flips = sorted({when for when, action in json.loads(record_json)["actions"] if action == "f"})
    found = [m for m in flips if probe.seek(m)["view"]["your_turn"]]
    assert found, "South never to play"
    return found[:count]


def board_game(seed: int = 11) -> tuple[str, dict]:
    game = play(Game(seed), HumanLikePlayer(560, seed))
    return Replay.of(game).to_json(), game.outcome


def route_board(page, record_json: str, outcome, *, status: int = 200) -> list[str]:
    """The scores API, answered: today's board with one entry (number 7), and its record (or an error)."""
    asked = []

    def board(route) -> None:
        if route.request.method != "GET":
            route.continue_()
            return
        date = route.request.url.split("date=")[1][:10]
        entry = {
            "rank": 1,
            "entry": 7,
            "name": "Amal <b>",
            "score": outcome.score.total,
            "duration_ms": outcome.duration_ms,
            "wrong_slaps": 0,
            "won": outcome.won,
        }
        route.fulfill(
            status=200,
            content_type="application/json",
            body=json.dumps({"date": date, "entries": [entry], "total": 1, "you": None}),
        )

    def replay(route) -> None:
        asked.append(route.request.url)
        if status == 200:
            body = {
                "date": "x",
                "entry": 7,
                "name": "Amal <b>",
                "score": outcome.score.total,
                "won": outcome.won,
                "duration_ms": outcome.duration_ms,
                "replay": json.loads(record_json),
            }
        else:
            body = {
                "error": {"code": "replay_gone" if status == 410 else "not_found", "message": "no"}
            }
        route.fulfill(status=status, content_type="application/json", body=json.dumps(body))

    page.route("**/api/scores?*", board)
    page.route("**/api/scores/replay?*", replay)
    return asked


@pytest.fixture(scope="module")
def board_page(context_opener) -> Iterator[tuple[object, list[str], str]]:
    """(page, the board requests it made, the entry's record): one page over the routed board of one entry, today's
    daily played on it, on test time; the languages' tests take turns on it, each back to the menu at its end."""
    record_json, outcome = board_game()
    context = context_opener(viewport=SIZES[0])
    try:
        page = context.new_page()
        asked = route_board(page, record_json, outcome)
        played_today(page)  # today's board games are watched after your daily
        page.goto("/")
        wait_for(page, "document.body.dataset.state === 'ready'", timeout_ms=READY_MS)
        # The board, drawn before the clock stops.
        page.locator("[data-testid=leaderboard-watch]").first.wait_for()
        freeze_time(page)
        yield page, asked, record_json
    finally:
        context.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_watch_a_board_entry_in_every_language_and_size(board_page, lang: str) -> None:
    page, asked, record_json = board_page
    engine = watch(record_json)
    switch_language(page, lang)
    kept = page.evaluate(KEPT)
    words = catalog(lang)
    name = "Amal <b>"
    final = watch(record_json).seek(engine.duration_ms)["view"]
    south_turns = your_turns(record_json)
    for size in [*SIZES, SMALL]:
        width = size["width"]
        where = (lang, width)
        page.set_viewport_size(size)
        open_menu(page)
        watch_button = page.locator("[data-testid=leaderboard-watch]").first
        watch_button.wait_for(state="visible")
        assert watch_button.get_attribute("aria-label") == words["watch.boardLabel"].replace(
            "{name}", "Amal <b>"
        )
        watch_button.click()
        run_until(page, WATCHING)
        assert "entry=7" in asked[-1] and re.search(r"date=\d{4}-\d\d-\d\d", asked[-1]), asked
        assert plain(page.inner_text("[data-testid=watch-title]")) == words[
            "watch.headingBoard"
        ].replace("{name}", "Amal <b>")
        assert_bar_fits(page, where)
        labels = page.eval_on_selector_all(
            "[data-testid=watch-mark][data-type=slap_won]", "(els) => els.map((e) => e.title)"
        )
        slaps = [m for m in engine.marks if m["type"] == "slap_won"]
        assert len(labels) == len(slaps) > 0, where
        assert any(mark["seat"] == "south" for mark in slaps)
        for mark, label in zip(slaps, labels, strict=True):
            # Amal's slaps are hers, by name: never "You took the pile".
            seat = name if mark["seat"] == "south" else words[f"seat.{mark['seat']}"]
            assert plain(label).startswith(seat), (where, label)
            assert words[f"pattern.{mark['pattern']}"] in label, (where, label)
        page.click("[data-testid=watch-play]")
        # Every moment South is to flip or to pay: told as hers, with no prompt to act.
        assert_timeline_keys(page, engine, lang, where)
        for moment in south_turns:
            seek_to(page, moment)
            assert_third_person(page, words, name, (*where, moment))
        moment = engine.duration_ms // 3
        seek_to(page, moment)
        assert_third_person(page, words, name, where)
        if lang == "en":
            assert page.evaluate(DRAWN) == drawn_of(watch(record_json).seek(moment)["view"])
        assert_table_apart(page, where)
        review_shot(page, f"watch/{lang}-{width}")
        seek_to(page, engine.duration_ms)
        title = plain(page.inner_text("[data-testid=watch-title]"))
        assert result_title(words, final["result"], name) in title, (where, title)
        assert title.count(name) == 2, (where, title)  # her game, and her result
        assert_bar_fits(page, (*where, "end"))
        page.click("[data-testid=watch-close]")
        run_until(page, "document.body.dataset.state === 'ready'")
        page.wait_for_selector("[data-testid=menu-panel]", state="visible")
    assert page.evaluate(KEPT) == kept, "watching saved something"


def test_watch_a_daily_from_the_real_scores_api_to_its_end(new_context, server_url: str) -> None:
    """No stand-in: an honest daily sent to the local API, its board row's watch button, the record
    the API serves played by the page's engine, jumps in its timeline and the result at its end."""
    sent = post_daily(server_url, None, f"Watched {random.randrange(10_000):04d}")
    record = json.dumps(sent["replay"])
    engine = watch(record)
    page = new_context(viewport=DESKTOP).new_page()
    served = []
    page.on(
        "response", lambda r: served.append(r.status) if "/api/scores/replay?" in r.url else None
    )
    played_today(page)
    page.goto("/?lang=en")
    wait_for(page, "document.body.dataset.state === 'ready'", timeout_ms=READY_MS)
    row = page.locator("[data-testid=leaderboard-row]", has_text=sent["name"])
    row.locator("[data-testid=leaderboard-watch]").click()
    wait_for(page, WATCHING)
    assert served == [200]
    freeze_time(page)
    page.click("[data-testid=watch-play]")  # paused: the table holds still to be read
    for moment in (engine.duration_ms // 2, engine.duration_ms // 5):
        seek_to(page, moment)
        assert page.evaluate(DRAWN) == drawn_of(watch(record).seek(moment)["view"]), moment
    page.click("[data-testid=watch-speed-4]")
    page.click("[data-testid=watch-play]")
    before = page.evaluate(MOMENT)
    advance(page, 1000)
    assert abs(page.evaluate(MOMENT) - before - 4000) <= 8 * FRAME_MS
    seek_to(page, engine.duration_ms)  # the end: the game's result, as the engine has it
    assert str(sent["score"]) in page.inner_text("[data-testid=watch-title]").replace(",", "")
    assert page.evaluate(DRAWN) == drawn_of(watch(record).seek(engine.duration_ms)["view"])


@pytest.mark.parametrize(
    ("status", "key"), [(410, "watch.error.replay_gone"), (404, "watch.error.not_found")]
)
def test_a_board_record_that_cannot_be_had_is_said_in_words(
    new_context, status: int, key: str
) -> None:
    record_json, outcome = board_game()
    page = new_context().new_page()
    route_board(page, record_json, outcome, status=status)
    played_today(page)
    page.goto("/?lang=fr")
    wait_for(page, "document.body.dataset.state === 'ready'", timeout_ms=READY_MS)
    open_menu(page)
    page.locator("[data-testid=leaderboard-watch]").first.click()
    wait_for(
        page,
        "document.querySelector('[data-testid=watch-status]').textContent !== ''"
        " && !document.querySelector('[data-testid=watch-status]').textContent.includes('…')",
    )
    assert page.inner_text("[data-testid=watch-status]") == catalog("fr")[key]
    assert page.evaluate("document.body.dataset.state") == "ready"


def test_today_s_board_games_wait_for_your_daily(new_context) -> None:
    """Before this device has played today's daily, today's board rows cannot be watched: each Watch
    button says why and fetches nothing; once the daily is played (its start counts), it watches."""
    record_json, outcome = board_game()
    page = new_context(viewport=SIZES[0]).new_page()
    asked = route_board(page, record_json, outcome)
    page.goto("/?lang=en")
    wait_for(page, "document.body.dataset.state === 'ready'", timeout_ms=READY_MS)
    words = catalog("en")
    button = page.locator("[data-testid=leaderboard-watch]").first
    button.wait_for(state="visible")
    assert button.inner_text() == words["watch.lockedToday"]
    assert button.get_attribute("aria-label") == words["watch.lockedTodayLabel"]
    assert button.get_attribute("aria-disabled") == "true"
    fetched = len(asked)
    button.click(force=True)  # aria-disabled: a person can still tap it, and nothing plays
    assert page.is_visible("[data-testid=menu-panel]")
    assert not page.evaluate(WATCHING)
    assert len(asked) == fetched, "a locked row fetched its replay"
    played_today(page)  # the day's one attempt made (its start counts): today's games open
    page.reload()
    wait_for(page, "document.body.dataset.state === 'ready'", timeout_ms=READY_MS)
    button = page.locator("[data-testid=leaderboard-watch]").first
    button.wait_for(state="visible")
    assert button.inner_text() == words["watch.board"]
    button.click()
    wait_for(page, WATCHING)
    assert "entry=7" in asked[-1]

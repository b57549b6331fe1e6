"""The daily leaderboard on the page: a finished daily goes to the scores function under the
player's name and shows up highlighted; played offline it waits in the outbox and is sent once
back online, exactly once; bad names are caught before anything is sent; names are text, never HTML.

A daily game at normal speed is long, so the driver below plays today's deal the quick way a real
player could, on test time (pagedriver): it flips at once, slaps a Double or Sandwich 150 ms after it
shows (more than the function's 100 ms bound), and once it has won a pile (or after 20 s of the game)
slaps wrongly until it is out of cards and eliminated -- a finished daily game with a small, real score.
Its keys are real key presses through the page's own input module."""

from __future__ import annotations

import itertools
import json
import random
import re
import subprocess
import urllib.parse
import urllib.request
from datetime import UTC, datetime, timedelta
from pathlib import Path

from a11ykit import catalog, with_name_max
from pagedriver import (
    PHONE,
    Traffic,
    advance,
    keyboard,
    lose_by_wrong_slaps,
    outbox_done,
    pattern_on_top,
    play_to_end,
    run_until,
    start_from_menu,
    switch_language,
    view_of,
    wait_for,
    wait_quiet,
    wait_ready,
    wait_until,
)

ROOT = Path(__file__).resolve().parents[2]
NODE = ROOT / "node_modules" / ".bin" / "node"  # Node 22, as the function runs on (package.json)
SEND_MS = 60_000  # the first verification in a fresh function instance loads Pyodide
ID_PATTERN = re.compile(r"^[A-Za-z0-9_-]{22,64}$")
YOU = "[data-testid=leaderboard-you]"
STATUS = "[data-testid=leaderboard-status]"
REACTION_MS = 150
OPENING_WRONG_SLAPS = itertools.count(1)
RETRY_MS = 5_000  # the page's first retry after a busy server (web/js/scores/score-sender.js)
PLAY_BEFORE_LOSING_MS = 20_000

SCORE_QUEUE = "import('./common/outbox.js')"
# The wall clock a test hands the outbox, as the page and the worker hand theirs (web/common/clock.js).
TEST_CLOCK = "(await import('./common/clock.js')).systemClock()"


def today() -> str:
    return datetime.now(UTC).date().isoformat()


def unique_name(prefix: str) -> str:
    return f"{prefix} {random.randrange(10_000):04d}"


def api_board(server_url: str, date: str, submission_id: str | None = None) -> dict:
    """GET the scores function directly, as anyone could."""
    query = {"date": date} | ({"id": submission_id} if submission_id else {})
    url = urllib.parse.urljoin(server_url, "api/scores?" + urllib.parse.urlencode(query))
    with urllib.request.urlopen(url, timeout=30) as response:
        return json.loads(response.read())


def posts_to_scores(page) -> list:
    """Every POST the page makes to /api/scores, as they happen (through its service worker or not)."""
    seen: list = []
    page.context.on(
        "request",
        lambda r: seen.append(r) if r.method == "POST" and r.url.endswith("/api/scores") else None,
    )
    return seen


def open_game(page) -> None:
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto("/")
    wait_ready(page)


def save_name(page, name: str) -> None:
    """In the menu, before playing: the name is remembered for the daily's end."""
    page.fill("[data-testid=name-input]", name)
    page.click("[data-testid=submit-score]")
    page.wait_for_function(
        "document.querySelector('[data-testid=leaderboard-status]').dataset.state === 'saved'"
    )


def finish_daily(page) -> dict:
    """Today's scored daily, played to its end from the menu; the final view.

    On test time the same play gives the same game, which the board takes once a day (a copy, even with its
    times moved, is refused as duplicate_record): so each game of the session opens with a number of wrong
    slaps of its own, one more than the game before."""
    first = start_from_menu(page, mode="daily")
    assert first["mode"] == "daily", first
    for _ in range(next(OPENING_WRONG_SLAPS)):
        advance(page, 40)
        if pattern_on_top(view_of(page)["pile"]["top"]) is None:
            page.keyboard.press(" ")

    def enough(view: dict) -> bool:
        return view["piles_slapped"] >= 1 or view["clock"] >= PLAY_BEFORE_LOSING_MS

    play_to_end(page, keyboard(page), reaction_ms=REACTION_MS, stop=enough)
    view = lose_by_wrong_slaps(page, tries=400)
    assert view["over"] and view["result"] is not None
    return view


def stored_record(page, date: str) -> dict | None:
    return page.evaluate(
        f"JSON.parse(localStorage.getItem('ewar.scores') || '{{}}')['{date}'] ?? null"
    )


def clock_text(ms: int) -> str:
    """A time as the table's clock writes it: "0:03", "10:01"."""
    seconds = ms // 1000
    return f"{seconds // 60}:{seconds % 60:02d}"


def check_your_row(page, view: dict, name: str) -> None:
    """Your row: highlighted, your name as plain text, the engine's score, time and wrong slaps."""
    row = page.locator(YOU)
    assert row.count() == 1
    assert "you" in (row.get_attribute("class") or "").split()
    assert row.locator(".lb-name-text").text_content() == name
    cells = row.locator("td")
    assert int(re.sub(r"\D", "", cells.nth(1).inner_text())) == view["result"]["score"]
    assert cells.nth(2).inner_text() == clock_text(view["result"]["duration_ms"])
    assert int(cells.nth(3).inner_text()) == view["wrong_slaps"]


def test_a_finished_daily_is_sent_and_you_are_on_the_board(page, server_url: str) -> None:
    posts = posts_to_scores(page)
    open_game(page)
    view = finish_daily(page)
    date, score = view["date"], view["result"]["score"]

    # The result screen holds the leaderboard panel; without a name nothing was sent.
    assert page.locator("#result [data-testid=leaderboard]").is_visible()
    assert "send your score" in page.inner_text(STATUS)
    assert posts == []
    record = stored_record(page, date)
    assert record["state"] == "draft" and ID_PATTERN.match(record["id"]), record

    name = unique_name("Zoë O'Neil")  # an apostrophe and a non-ASCII letter, both allowed
    page.fill("[data-testid=name-input]", name)
    page.keyboard.press("Enter")  # Enter in the field sends (and does not deal a new game)
    page.wait_for_selector(f"{YOU}[data-state=sent]", timeout=SEND_MS)
    assert page.evaluate("document.body.dataset.state") == "over"
    check_your_row(page, view, name)

    # What went out: the client-made id, the name, the engine's score and its own replay record.
    assert len(posts) == 1
    sent = posts[0].post_data_json
    assert set(sent) == {"id", "name", "date", "score", "replay", "player"}
    assert re.fullmatch(r"[A-Za-z0-9_-]{32}", sent["player"])
    assert sent["player"] == page.evaluate("localStorage.getItem('ewar.player')")
    assert sent["id"] == record["id"] and sent["name"] == name and sent["date"] == date
    assert sent["score"] == score
    assert sent["replay"] == json.loads(page.evaluate("window.ewar.replay()"))

    board = api_board(server_url, date, record["id"])
    assert board["you"]["name"] == name and board["you"]["score"] == score
    assert [entry["name"] for entry in board["entries"]].count(name) == 1
    rank = board["you"]["rank"]
    assert f"#{rank} of" in page.inner_text(STATUS)

    # Next visit: the name is remembered, the menu's board still highlights you, nothing is sent again.
    page.reload()
    wait_ready(page)
    assert page.input_value("[data-testid=name-input]") == name
    page.wait_for_selector(f"#menu {YOU}[data-state=sent]")
    check_your_row(page, view, name)
    outbox_done(page)  # the send on load (of whatever waited) is over
    assert len(posts) == 1
    assert page.evaluate("window.ewar.missingKeys()") == []


def test_a_daily_finished_offline_waits_then_goes_out_exactly_once(
    context, page, server_url: str
) -> None:
    posts = posts_to_scores(page)
    open_game(page)
    name = unique_name("Offline")
    save_name(page, name)
    # Today's board seen once (even with nobody on it yet), so it is kept for offline.
    page.wait_for_function(
        "(day) => JSON.parse(localStorage.getItem('ewar.leaderboards') || '{}')[day]", arg=today()
    )

    # The outbox's module as the test reads it (the page has it in its bundle): fetched while online.
    page.evaluate(f"{SCORE_QUEUE}.then(() => null)")
    context.set_offline(True)
    view = finish_daily(page)
    date = view["date"]
    page.wait_for_selector(f"{YOU}[data-state=queued]")
    assert "waiting to be sent" in page.inner_text(STATUS)
    assert "waiting to be sent" in page.inner_text(YOU)
    assert page.locator("[data-testid=leaderboard-offline]").is_visible()
    waiting = page.evaluate(f"{SCORE_QUEUE}.then((q) => q.pending())")
    record = stored_record(page, date)
    assert [entry["id"] for entry in waiting] == [record["id"]]
    assert record["name"] == name and record["state"] == "queued"
    assert not any(entry["name"] == name for entry in api_board(server_url, date)["entries"])

    context.set_offline(False)  # the page hears "online" and sends the outbox
    page.wait_for_selector(f"{YOU}[data-state=sent]", timeout=SEND_MS)
    check_your_row(page, view, name)
    assert page.locator("[data-testid=leaderboard-offline]").count() == 0
    assert page.evaluate(f"{SCORE_QUEUE}.then((q) => q.pending())") == []

    # Sending the same game again (a retry after a lost answer) is answered, never added twice.
    again = page.evaluate(
        f"""async (record) => {{
          const q = await {SCORE_QUEUE};
          const clock = {TEST_CLOCK};
          await q.enqueue({{ id: record.id, name: record.name, date: record.date, score: record.score,
                            replay: JSON.parse(window.ewar.replay()) }}, {{ clock }});
          await q.flush(undefined, {{ clock }});
          return q.answerFor(record.id);
        }}""",
        record,
    )
    assert again["status"] == 200 and again["body"]["repeated"] is True, again
    assert {request.post_data_json["id"] for request in posts} == {record["id"]}
    board = api_board(server_url, date, record["id"])
    assert [entry["name"] for entry in board["entries"]].count(name) == 1
    assert board["you"]["name"] == name


def test_a_busy_server_keeps_the_score_and_it_is_sent_again_with_the_same_id(
    page, server_url: str
) -> None:
    server = {"busy": True, "refused": 0}

    def busy_until_told(route) -> None:
        if route.request.method == "POST" and server["busy"]:
            server["refused"] += 1
            route.fulfill(
                status=503,
                headers={"Retry-After": "2", "Cache-Control": "no-store"},
                json={"error": "busy", "message": "The leaderboard is busy; send it again."},
            )
        else:
            route.continue_()

    posts = posts_to_scores(page)
    page.context.route("**/api/scores", busy_until_told)
    open_game(page)
    name = unique_name("Retry")
    save_name(page, name)
    view = finish_daily(page)
    page.wait_for_selector(f"{YOU}[data-state=queued]")
    page.wait_for_function(
        "document.querySelector('[data-testid=leaderboard-status]').textContent.includes('busy')"
    )
    assert "waiting to be sent" in page.inner_text(STATUS)

    server["busy"] = False  # the page tries again by itself, a few seconds later
    advance(page, RETRY_MS)
    page.wait_for_selector(f"{YOU}[data-state=sent]", timeout=SEND_MS)
    check_your_row(page, view, name)
    ids = [request.post_data_json["id"] for request in posts]
    assert len(ids) == server["refused"] + 1 and len(set(ids)) == 1, ids
    board = api_board(server_url, view["date"])
    assert [entry["name"] for entry in board["entries"]].count(name) == 1


def test_a_bad_name_gets_a_clear_error_and_nothing_is_sent(page, server_url: str) -> None:
    posts = posts_to_scores(page)
    open_game(page)
    view = finish_daily(page)
    field = "[data-testid=name-input]"
    error = "[data-testid=name-error]"

    words = catalog("en")
    for bad, key in [  # each refusal in its own words (issue 29)
        ("<b>x</b>", "leaderboard.nameInvalid"),
        ("a" * 21, "leaderboard.nameRefused.too_long"),
        ("tab\there", "leaderboard.nameRefused.invisible"),
        ("semi;colon", "leaderboard.nameInvalid"),
        ("\u3164\u3164\u3164", "leaderboard.nameRefused.invisible"),
        ("\u0421ontrol One", "leaderboard.nameRefused.mixed_scripts"),
        ("A", "leaderboard.nameRefused.letters"),
        ("\u0640" * 20, "leaderboard.nameRefused.letters"),
        ("Alice\U0001d165", "leaderboard.nameRefused.marks"),
        ("Moderator", "leaderboard.nameRefused.reserved"),
    ]:
        page.fill(field, bad)
        assert page.get_attribute(field, "aria-invalid") == "true"  # as soon as it is typed
        page.click("[data-testid=submit-score]")
        assert page.inner_text(error) == with_name_max(words[key]), bad
    page.fill(field, "   ")
    page.click("[data-testid=submit-score]")
    assert "Enter a name first" in page.inner_text(error)
    outbox_done(page)
    assert posts == []
    assert stored_record(page, view["date"])["state"] == "draft"
    assert page.evaluate(f"{SCORE_QUEUE}.then((q) => q.pending())") == []

    # The server decides: a name it refuses (4xx) is dropped from the outbox and the reason is shown.
    def refuse(route) -> None:
        route.fulfill(
            status=400,
            headers={"Cache-Control": "no-store"},
            json={"error": "invalid_name", "message": "Names are 1 to 20 letters."},
        )

    page.context.route(
        "**/api/scores",
        lambda route: refuse(route) if route.request.method == "POST" else route.continue_(),
    )
    page.fill(field, unique_name("Refused"))
    page.click("[data-testid=submit-score]")
    # The page's time is the test's (the daily was played on it): it moves while the send settles, which may
    # wait its turn behind another send of the outbox (one at a time: a Web Lock) on a busy machine.
    run_until(
        page,
        "document.querySelector('[data-testid=leaderboard-status]').dataset.state === 'refused'",
        step_ms=500,
        limit_ms=300_000,
    )
    assert "that name is not allowed" in page.inner_text(STATUS)
    assert page.evaluate(f"{SCORE_QUEUE}.then((q) => q.pending())") == []
    refused_id = posts[-1].post_data_json["id"]

    # Another name goes out with the same id: still one game, one entry.
    page.context.unroute("**/api/scores")
    name = unique_name("Fixed")
    page.fill(field, name)
    page.click("[data-testid=submit-score]")
    page.wait_for_selector(f"{YOU}[data-state=sent]", timeout=SEND_MS)
    assert posts[-1].post_data_json["id"] == refused_id
    board = api_board(server_url, view["date"], refused_id)
    assert board["you"]["name"] == name


BOARD_API = re.compile(r"/api/scores\?")


def board_from(page, handler) -> None:
    """The menu's leaderboard loads today's board again, from what handler answers (on a page shared between
    tests: each test brings its own board and leaves the page in English). Yesterday's tab is drawn from its own
    answer first, so that back on today's tab no row of an earlier test's board is left: it says it is loading
    until handler's answer is drawn."""
    page.context.unroute(BOARD_API)
    page.context.route(BOARD_API, handler)
    switch_language(page, "en")  # also opens the menu
    page.click("[data-testid=leaderboard-tab-1]")
    wait_for(
        page,
        "document.querySelector('[data-testid=leaderboard] .lb-empty')?.textContent !== "
        + json.dumps(CATALOGS["en"]["leaderboard.loading"]),
    )
    page.click("[data-testid=leaderboard-tab-0]")


def test_names_are_drawn_as_text_never_as_html(shared_page) -> None:
    """Even a board answer carrying markup (the server never stores it) is shown as plain text."""
    nasty = '<img src=x onerror="window.pwned=1"><b>x</b>'
    board = {
        "date": "",
        "entries": [
            {
                "rank": 1,
                "name": nasty,
                "score": 1500,
                "duration_ms": 83_000,
                "wrong_slaps": 2,
                "won": True,
            },
            {
                "rank": 2,
                "name": "D'Artagnan & co",
                "score": 900,
                "duration_ms": 601_000,
                "wrong_slaps": 0,
                "won": True,
            },
        ],
        "total": 2,
        "you": None,
    }
    page = shared_page
    board_from(page, lambda route: route.fulfill(json=board))
    rows = page.locator("[data-testid=leaderboard-row]")
    rows.first.wait_for()
    assert rows.count() == 2
    assert rows.nth(0).locator(".lb-name-text").text_content() == nasty
    assert rows.nth(1).locator(".lb-name-text").text_content() == "D'Artagnan & co"
    assert page.locator("[data-testid=leaderboard] img, [data-testid=leaderboard] b").count() == 0
    assert page.evaluate("window.pwned") is None
    # Times as the table's clock writes them ("1:23", never "01:23").
    assert rows.nth(0).locator("td").nth(2).inner_text() == "1:23"
    assert rows.nth(1).locator("td").nth(2).inner_text() == "10:01"


CATALOGS = {
    code: json.loads((ROOT / "web" / "i18n" / f"{code}.json").read_text()) for code in ("en", "fr")
}
NOTE = "[data-testid=leaderboard-offline]"


def test_a_server_error_is_not_called_offline_and_the_note_follows_the_language(
    shared_page,
) -> None:
    """Online, a board request the server answers with 503 says the server did not answer (not "offline");
    switching language redraws that note; once the server answers again, the note goes."""
    server = {"failing": True}

    def board_route(route) -> None:
        if server["failing"]:
            route.fulfill(status=503, json={"error": "busy"})
        else:
            route.continue_()

    page = shared_page
    page.evaluate(
        "localStorage.removeItem('ewar.leaderboards')"
    )  # no board kept from an earlier test
    board_from(page, board_route)
    note = page.locator(NOTE)
    note.wait_for()
    assert note.get_attribute("data-reason") == "failed"
    assert note.inner_text() == CATALOGS["en"]["offline.leaderboardFailedNone"]
    assert note.inner_text() != CATALOGS["en"]["offline.leaderboardNone"]

    page.select_option("[data-testid=language]", "fr")
    page.wait_for_function(
        "([selector, text]) => document.querySelector(selector)?.textContent === text",
        arg=[NOTE, CATALOGS["fr"]["offline.leaderboardFailedNone"]],
    )

    server["failing"] = False
    page.click("[data-testid=leaderboard-tab-1]")
    page.click("[data-testid=leaderboard-tab-0]")
    page.wait_for_selector("[data-testid=leaderboard] table:not([hidden]), .lb-empty:not([hidden])")
    page.wait_for_function(f"document.querySelector('{NOTE}') === null")
    switch_language(page, "en")


def test_a_board_answered_after_the_utc_day_turned_gives_way_to_the_new_days(new_context) -> None:
    """The menu's board asked for before midnight UTC and answered after it: the tab, now the new day's today,
    asks for that day's board and shows it, neither the old day's answer nor "Loading" for ever. Then a clock set
    back (a device's, a test's) has the menu ask again when it opens."""
    # The page is loaded and asks for its board within these 30 s of its clock (it runs from here).
    before_midnight = datetime.now(UTC).replace(hour=23, minute=59, second=30, microsecond=0)
    midnight = before_midnight + timedelta(seconds=30)
    first_day = before_midnight.date().isoformat()
    next_day = midnight.date().isoformat()
    asked: list[str] = []
    held: list = []  # the board requests made before midnight, answered after it
    day_turned = False

    def answer(route) -> None:
        date = urllib.parse.parse_qs(urllib.parse.urlparse(route.request.url).query)["date"][0]
        route.fulfill(json={"date": date, "entries": [], "total": 0, "you": None})

    def board_route(route) -> None:
        asked.append(
            urllib.parse.parse_qs(urllib.parse.urlparse(route.request.url).query)["date"][0]
        )
        if day_turned:
            answer(route)
        else:
            held.append(route)

    page = new_context(clock_time=before_midnight).new_page()
    page.context.route(BOARD_API, board_route)
    traffic = Traffic(page.context, "/api/scores?")
    page.goto("/")
    wait_ready(page)
    wait_until(page, lambda: held, what="the board was asked for")
    assert set(asked) == {first_day}
    page.clock.set_system_time(midnight + timedelta(seconds=2))
    day_turned = True
    for route in held:
        answer(route)
    expect_text = CATALOGS["en"]["leaderboard.empty"]
    page.wait_for_function(
        "(text) => document.querySelector('[data-testid=leaderboard] .lb-empty')?.textContent === text",
        arg=expect_text,
    )
    # (a request the page made before midnight may reach this test's handler after it, and on a busy machine the
    # new day's may be asked twice as the day turns: the count is taken once no request is in flight)
    wait_quiet(page, traffic)
    assert set(asked) == {first_day, next_day} and asked[-1] == next_day
    asked_for_next_day = asked.count(next_day)

    # A practice game, then the clock set back a second (the same day) and the menu opened: the board shown a
    # moment "from now" is asked for again at once.
    page.click("[data-testid=mode-new]")
    page.click("[data-testid=start]")
    page.wait_for_function("document.body.dataset.state === 'playing'")
    page.clock.set_system_time(midnight + timedelta(seconds=1))
    page.click("[data-testid=menu]")
    wait_until(
        page, lambda: asked.count(next_day) > asked_for_next_day, what="the board asked again"
    )
    wait_quiet(page, traffic)
    assert asked.count(next_day) == asked_for_next_day + 1


NAMES = [
    "Ada",
    "  Ada   Lovelace ",
    "Zoë O'Neil",
    "e\u0301lan",
    "山田太郎",
    "محمد",
    "x" * 20,
    "x" * 21,
    "",
    "   ",
    "<b>x</b>",
    "a;b",
    "a\tb",
    "a\u200bb",
    "٣٤٥",
    "Jean-Luc_2.0",
    "emoji 😀",
    "ǅ",
    "a\u0000b",
    "\u3164\u3164\u3164",  # Hangul fillers: drawn as nothing
    "\u0421ontrol One",  # a Cyrillic Es among Latin letters
    "Control\u034f One",  # a combining grapheme joiner: invisible
    "ｆｕｌｌｗｉｄｔｈ",
    "e" + "\u0301" * 3,
    "ก" + "\u0e38\u0e48",  # Thai: a letter with two marks
]


def test_chromium_and_node_read_the_name_rule_alike(shared_page) -> None:
    """One rule (web/common/names.js) for the page and the function: Chromium and Node hold their own Unicode
    data, and must still agree on every name, so the page never sends what the server refuses or the reverse."""
    page = shared_page
    on_page = page.evaluate(
        "(names) => import('./common/names.js').then((m) => names.map(m.checkName))", NAMES
    )
    script = (
        "import { checkName } from './web/common/names.js';"
        f"console.log(JSON.stringify({json.dumps(NAMES)}.map(checkName)));"
    )
    done = subprocess.run(
        [str(NODE), "--input-type=module", "-e", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert on_page == json.loads(done.stdout)
    accepted = {name for name, checked in zip(NAMES, on_page, strict=True) if checked["ok"]}
    assert {"Ada", "Zoë O'Neil", "山田太郎", "محمد", "Jean-Luc_2.0"} <= accepted
    assert not {"\u3164\u3164\u3164", "\u0421ontrol One", "x" * 21, "<b>x</b>"} & accepted
    ids = page.evaluate(
        "import('./js/scores/score-sender.js').then((m) => [1, 2, 3].map(() => m.newSubmissionId()))"
    )
    assert len(set(ids)) == 3 and all(ID_PATTERN.match(i) for i in ids)


def test_your_rank_shows_even_outside_the_top_50(shared_page) -> None:
    entries = [
        {
            "rank": r,
            "name": f"Player {r}",
            "score": 2000 - r,
            "duration_ms": 60_000 + r,
            "wrong_slaps": 0,
            "won": True,
        }
        for r in range(1, 51)
    ]
    you = {
        "rank": 75,
        "name": "Me",
        "score": 1900,
        "duration_ms": 99_000,
        "wrong_slaps": 3,
        "won": True,
        "you": True,
        "id": "x" * 22,
    }
    board = {"date": "", "entries": entries, "total": 120, "you": you}
    page = shared_page
    board_from(page, lambda route: route.fulfill(json=board))
    page.wait_for_selector(YOU)
    assert page.locator("[data-testid=leaderboard-row]").count() == 50
    row = page.locator(YOU)
    assert row.locator("td").first.inner_text() == "75"
    assert row.locator(".lb-name-text").text_content() == "Me"
    assert "120 players" in page.inner_text("[data-testid=leaderboard] caption")


SYNC_EVENT = """
async ({ tag }) => {
  window.clients = { matchAll: async () => [] };  // a page standing in for the service worker's global
  const { handleSync } = await import("./worker/sync.js");
  let work = null;
  const clock = (await import("./common/clock.js")).systemClock();
  const handled = handleSync({ tag, waitUntil: (promise) => { work = promise; } }, clock);
  if (!work) return { handled, outcome: null };
  try {
    return { handled, outcome: "sent", result: await work };
  } catch (error) {
    return { handled, outcome: "retry later", message: String(error.message) };
  }
}
"""


def test_the_service_worker_sync_handler_sends_the_outbox(shared_page) -> None:
    """handleSync(event) for "ewar-scores": sends what waits, and fails (so the browser retries) while offline."""
    page = shared_page
    context = page.context
    page.context.unroute(BOARD_API)
    submission = {
        "id": "sync-test-" + "a" * 16,
        "name": "Sync",
        "date": "2000-01-01",
        "score": 0,
        "replay": {"format": 1},
    }
    page.evaluate(
        f"async (s) => (await {SCORE_QUEUE}).enqueue(s, {{ clock: {TEST_CLOCK} }})", submission
    )
    assert page.evaluate(SYNC_EVENT, {"tag": "something-else"}) == {
        "handled": False,
        "outcome": None,
    }

    context.set_offline(True)
    offline = page.evaluate(SYNC_EVENT, {"tag": "ewar-scores"})
    assert offline["handled"] and offline["outcome"] == "retry later", offline
    assert len(page.evaluate(f"{SCORE_QUEUE}.then((q) => q.pending())")) == 1

    context.set_offline(
        False
    )  # the page itself sends on "online": wait for that, then queue another
    wait_for(page, f"{SCORE_QUEUE}.then((q) => q.pending()).then((p) => p.length === 0)")
    later = dict(submission, id="sync-test-" + "b" * 16)
    page.evaluate(
        f"async (s) => (await {SCORE_QUEUE}).enqueue(s, {{ clock: {TEST_CLOCK} }})", later
    )
    online = page.evaluate(SYNC_EVENT, {"tag": "ewar-scores"})
    assert online["outcome"] == "sent", online
    assert [answer["id"] for answer in online["result"]["settled"]] == [later["id"]]
    assert page.evaluate(f"{SCORE_QUEUE}.then((q) => q.pending())") == []
    for sent in (submission, later):
        answer = page.evaluate(f"(id) => {SCORE_QUEUE}.then((q) => q.answerFor(id))", sent["id"])
        assert answer["status"] == 400 and answer["body"]["error"] == "date_out_of_window", answer


IN_VIEW_AND_FOCUSED = """(() => {
  const error = document.querySelector("[data-testid=name-error]").getBoundingClientRect();
  const focused = document.activeElement?.dataset?.testid === "name-input";
  return focused && error.height > 0 && error.top >= 0 && error.bottom <= innerHeight;
})()"""


def test_on_a_phone_each_name_refusal_is_in_view_and_the_field_focused(page) -> None:
    """At 390x844 the name field may be below the fold: a refusal, the page's own or the server's after a
    daily, is scrolled into view beside the field, which takes the focus for another name (issue 29)."""
    page.set_viewport_size(PHONE)
    page.goto("/?lang=en")
    wait_ready(page)
    words = catalog("en")
    field = "[data-testid=name-input]"
    for bad, key in [
        ("A", "leaderboard.nameRefused.letters"),
        ("Al\u0456ce", "leaderboard.nameRefused.mixed_scripts"),
        ("Admin", "leaderboard.nameRefused.reserved"),
        ("\u0640" * 20, "leaderboard.nameRefused.letters"),
        ("Alice\U0001d165", "leaderboard.nameRefused.marks"),
    ]:
        page.evaluate("scrollTo(0, 0); document.activeElement?.blur()")
        page.fill(field, bad)
        page.evaluate("scrollTo(0, 0); document.activeElement?.blur()")
        page.click("[data-testid=submit-score]")
        wait_for(page, IN_VIEW_AND_FOCUSED)
        assert page.inner_text("[data-testid=name-error]") == words[key], bad

    # The server's refusals: taken, and offensive (its word list is the server's)
    answers = iter(
        [
            (409, {"error": "name_taken", "message": "taken"}),
            (400, {"error": "invalid_name", "reason": "offensive", "message": "no"}),
        ]
    )

    def refuse(route) -> None:
        status, body = next(answers)
        route.fulfill(status=status, headers={"Cache-Control": "no-store"}, json=body)

    page.context.route(
        "**/api/scores",
        lambda route: refuse(route) if route.request.method == "POST" else route.continue_(),
    )
    save_name(page, unique_name("Phone"))
    finish_daily(page)
    wait_for(page, IN_VIEW_AND_FOCUSED, timeout_ms=SEND_MS)
    assert page.inner_text("[data-testid=name-error]") == words["leaderboard.reason.name_taken"]
    page.evaluate("scrollTo(0, 0); document.activeElement?.blur()")
    page.fill(field, unique_name("Rude"))
    page.click("[data-testid=submit-score]")
    wait_for(
        page,
        f"document.querySelector('[data-testid=name-error]').textContent === {json.dumps(words['leaderboard.nameRefused.offensive'])}",
        timeout_ms=SEND_MS,
    )
    wait_for(page, IN_VIEW_AND_FOCUSED)

"""`python build.py smoke URL`: checks a live or preview deploy (or `python build.py serve`) from outside, the way
a player's browser reaches it, and prints one line per check. It stores nothing lasting: every POST it sends is
refused before anything is stored (a body without fields, a day outside the window), the friends' board it makes
is left at once (its last member gone, it is deleted), and the player it asks to forget never posted.

Its last check spends the posting limit of this machine's address on that site (10 in 3 minutes): for three
minutes after, this address cannot post a score there."""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

FUNCTION_HEADER = "x-ewar-function"  # netlify/lib/answer.mjs
POST_LIMIT = 10  # netlify/functions/scores/scores.mjs, config.rateLimit.windowLimit
TIMEOUT_S = 60
SENT = {"posts": 0}  # POSTs to /api/scores in this run: they all count toward the posting limit
PRECACHE_LINE = re.compile(r"^const PRECACHE = (\{.*?\});$", re.MULTILINE | re.DOTALL)


class SmokeFailure(AssertionError):
    """A check that did not hold: its message says what was expected and what came."""


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes = field(repr=False)

    def json(self) -> dict:
        try:
            return json.loads(self.body)
        except ValueError as error:
            raise SmokeFailure(f"not JSON: {self.body[:120]!r}") from error

    @property
    def function(self) -> str | None:
        return self.headers.get(FUNCTION_HEADER)


def request(base: str, path: str, method: str = "GET", body: object = None) -> Answer:
    """One request to `base` + `path`; any status is an answer (only no answer at all is an error)."""
    data = (
        None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    )
    headers = {"User-Agent": "ewar-smoke"}
    if data is not None:
        headers["Content-Type"] = "application/json"
    if method == "POST" and path.startswith("/api/scores"):
        SENT["posts"] += 1
    req = urllib.request.Request(
        urllib.parse.urljoin(base, path), data=data, method=method, headers=headers
    )
    try:
        with urllib.request.urlopen(req, timeout=TIMEOUT_S) as response:
            return Answer(
                response.status,
                {k.lower(): v for k, v in response.headers.items()},
                response.read(),
            )
    except urllib.error.HTTPError as error:
        return Answer(error.code, {k.lower(): v for k, v in error.headers.items()}, error.read())


def expect(condition: bool, message: str) -> None:
    if not condition:
        raise SmokeFailure(message)


def expect_answer(
    answer: Answer, status: int, function: str | None, error: str | None = None
) -> dict:
    """The answer has `status`, came from `function` (None: from the platform) and, for an error, `error`."""
    body = answer.json()
    expect(
        answer.status == status,
        f"expected {status}, got {answer.status}: {answer.body[:160]!r}",
    )
    if function is not None:
        expect(
            answer.function == function,
            f"expected the {function} function to answer, got {answer.function!r}",
        )
    if error is not None:
        expect(body.get("error") == error, f"expected error {error!r}, got {body.get('error')!r}")
    return body


def today() -> str:
    return datetime.now(UTC).date().isoformat()


def check_page(base: str) -> str:
    answer = request(base, "/")
    expect(answer.status == 200, f"/ answered {answer.status}")
    expect(
        answer.headers.get("content-type", "").startswith("text/html"),
        "/ is not served as HTML",
    )
    expect(b"Egyptian War" in answer.body, "/ does not look like the game's page")
    expect(
        "content-security-policy" in answer.headers,
        "/ has no Content-Security-Policy (netlify.toml's headers)",
    )
    return f"200 text/html, {len(answer.body):,} bytes, with its Content-Security-Policy"


def check_precache(base: str) -> str:
    worker = request(base, "/sw.js")
    expect(worker.status == 200, f"/sw.js answered {worker.status}")
    found = PRECACHE_LINE.search(worker.body.decode("utf-8", "replace"))
    expect(found is not None, "/sw.js holds no precache list")
    files = json.loads(found.group(1))["files"]
    total = 0
    for name, sha256, size in files:
        answer = request(base, "/" + name)
        expect(answer.status == 200, f"{name}: {answer.status}")
        expect(
            hashlib.sha256(answer.body).hexdigest() == sha256 and len(answer.body) == size,
            f"{name}: not the bytes the service worker lists",
        )
        total += size
    return f"{len(files)} files, {total / 1e6:.1f} MB, every one the bytes /sw.js lists"


def check_board(base: str) -> str:
    answer = request(base, f"/api/scores?date={today()}")
    board = expect_answer(answer, 200, "board")
    expect(
        {"entries", "total", "distribution"} <= board.keys(),
        f"the board lacks fields: {sorted(board)}",
    )
    return f"GET /api/scores answered by the board function: {board['total']} entries today"


def check_post(base: str) -> str:
    empty = expect_answer(request(base, "/api/scores", "POST", {}), 400, "scores")
    old_day = {
        "id": "smoke-" + secrets.token_hex(8),
        "name": "Smoke",
        "date": "2000-01-01",
        "score": 0,
        "replay": {},
    }
    window = expect_answer(
        request(base, "/api/scores", "POST", old_day), 400, "scores", "date_out_of_window"
    )
    return (
        f"POST /api/scores answered by the posting function ({empty['error']}, {window['error']}): "
        "nothing stored"
    )


def check_replay(base: str) -> str:
    board = request(base, f"/api/scores?date={today()}").json()
    if board.get("entries"):
        entry = board["entries"][0]["entry"]
        answer = request(base, f"/api/scores/replay?date={today()}&entry={entry}")
        body = expect_answer(answer, 200, "board")
        expect("replay" in body, "the replay answer holds no replay")
        return f"entry {entry}'s replay, {len(answer.body):,} bytes, from the board function"
    expect_answer(
        request(base, f"/api/scores/replay?date={today()}&entry=999999999999"),
        404,
        "board",
        "not_found",
    )
    return "no entry today: a missing entry is the board function's 404 not_found"


def check_friends(base: str) -> str:
    player = "smoke-" + secrets.token_urlsafe(18)
    made = expect_answer(
        request(base, "/api/friends", "POST", {"name": "Smoke test", "player": player}),
        201,
        "friends",
    )
    code = made["code"]
    try:
        board = expect_answer(request(base, f"/api/friends/{code}?date={today()}"), 200, "friends")
        expect(board["members"] == 1 and board["entries"] == [], f"unexpected board {board}")
    finally:
        left = request(base, f"/api/friends/{code}/members", "DELETE", {"player": player})
    expect_answer(left, 200, "friends")
    gone = request(base, f"/api/friends/{code}?date={today()}")
    expect_answer(gone, 404, "friends", "not_found")
    return f"made board {code}, read it (1 member), left it: deleted (404 after)"


def check_forget(base: str) -> str:
    player = "smoke-" + secrets.token_urlsafe(18)
    body = expect_answer(
        request(base, "/api/scores/player", "DELETE", {"player": player}), 200, "board"
    )
    expect(body == {"forgotten": True, "entries": 0, "boards": 0}, f"unexpected {body}")
    return "DELETE /api/scores/player answered by the board function (a player with nothing stored)"


def check_rate_limit(base: str) -> str:
    """POSTs refused before storage until the platform's limit answers 429 with Retry-After."""
    for _ in range(POST_LIMIT + 2):
        answer = request(base, "/api/scores", "POST", {})
        sent = SENT["posts"]
        if answer.status == 429:
            retry = answer.headers.get("retry-after", "")
            expect(
                retry.strip().isdigit() and int(retry) > 0, f"429 without Retry-After ({retry!r})"
            )
            expect(
                sent == POST_LIMIT + 1,
                f"429 at this run's post {sent}, not {POST_LIMIT + 1} (another client posting?)",
            )
            return f"429 at this run's post {sent} (limit {POST_LIMIT}), Retry-After: {retry} s"
        expect(answer.status == 400, f"post {sent}: expected 400 or 429, got {answer.status}")
    raise SmokeFailure(f"no 429 after {POST_LIMIT + 2} posts: the posting limit is not deployed")


CHECKS: list[tuple[str, Callable[[str], str]]] = [
    ("page", check_page),
    ("precache", check_precache),
    ("GET board", check_board),
    ("POST scores", check_post),
    ("replay", check_replay),
    ("friends", check_friends),
    ("forget me", check_forget),
    ("rate limit", check_rate_limit),
]


def smoke(base: str, out=sys.stdout) -> int:
    """Runs every check against `base`, printing each; 0 when all held, 1 otherwise."""
    if not re.match(r"^https?://", base):
        print(f"smoke: {base!r} is not an http(s) URL", file=sys.stderr)
        return 2
    base = base.rstrip("/") + "/"
    SENT["posts"] = 0
    failed = 0
    for name, check in CHECKS:
        started = time.monotonic()
        try:
            said = check(base)
            verdict = "ok  "
        except (SmokeFailure, OSError, ValueError, KeyError) as error:
            said = f"{type(error).__name__}: {error}"
            verdict = "FAIL"
            failed += 1
        print(
            f"{verdict} {name:<12} {said} ({time.monotonic() - started:.1f} s)",
            file=out,
            flush=True,
        )
    print(
        f"{len(CHECKS) - failed} of {len(CHECKS)} checks held against {base}", file=out, flush=True
    )
    return 1 if failed else 0

"""A browser that played before the page's storage was split into one store per role (issue 31) keeps all it had:
its settings, history, name, player id, and the daily score that waited in the outbox, which is sent once, under
the same id, name and player id. The profile is written as the page wrote it then (localStorage's keys and
formats; tests/modules/stores.test.mjs reads the one the old module itself wrote), the outbox by its own module."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta

from pagedriver import wait_for, wait_ready

SUBMISSION_ID = "OldProfileScore0000001"
PLAYER = "OldPlayerId_0123456789-abcdefghi"
NAME = "Old Timer"
SEND_MS = 60_000


def old_profile(today: str, yesterday: str) -> dict[str, str]:
    """localStorage as the page kept it before the split: two dailies played, today's score queued, a friends'
    board joined, and French, fast, silent, lenient settings."""
    record = {
        "id": SUBMISSION_ID,
        "date": today,
        "score": 700,
        "won": False,
        "state": "queued",
        "name": NAME,
        "player": PLAYER,
        "queuedAt": 1,
        "replay": {"engine": "4.0.0", "seed": 1},
    }
    history = {
        "played": 3,
        "won": 2,
        "bestDaily": 1500,
        "streak": 2,
        "lastDailyDate": today,
        "daily": {"date": today, "finished": True, "score": 700, "won": False},
        "bestReaction": None,
        "dailies": [
            {"date": yesterday, "score": 1500, "won": True, "median_ms": None},
            {"date": today, "score": 700, "won": False, "median_ms": None},
        ],
    }
    settings = {
        "speed": "fast",
        "sound": False,
        "language": "fr",
        "lenient": True,
        "houseRules": [],
        "nickname": NAME,
    }
    return {
        "ewar.settings": json.dumps(settings),
        "ewar.history": json.dumps(history),
        "ewar.welcomed": "1",
        "ewar.player": PLAYER,
        "ewar.scores": json.dumps({today: record}),
        "ewar.friends": json.dumps([{"code": "abcdefghijkl", "name": "Team"}]),
    }


def test_a_profile_kept_before_the_split_loads_and_its_queued_score_is_sent_once(
    new_context,
) -> None:
    now = datetime.now(UTC)
    today, yesterday = now.date().isoformat(), (now - timedelta(days=1)).date().isoformat()
    profile = old_profile(today, yesterday)
    context = new_context()
    context.route(
        "**/api/friends/**", lambda route: route.fulfill(status=404, json={"error": "not_found"})
    )

    # The old profile is written, and today's score put in the outbox as the page queued it then, from a document
    # of the site's origin that runs none of the page: a running page sends what waits in the outbox as it starts,
    # and under load its first send could take this score to the real server before the next visit's route.
    context.route(
        "**/write-old-profile",
        lambda route: route.fulfill(
            content_type="text/html", body="<!doctype html><title>old profile</title>"
        ),
    )
    first = context.new_page()
    first.goto("/write-old-profile")
    first.evaluate(
        """async ({ profile, record }) => {
          for (const [key, value] of Object.entries(profile)) localStorage.setItem(key, value);
          const { enqueue } = await import("./common/outbox.js");
          const { systemClock } = await import("./common/clock.js");
          const { id, name, date, score, replay, player } = record;
          await enqueue({ id, name, date, score, replay, player }, { clock: systemClock() });
        }""",
        {"profile": profile, "record": json.loads(profile["ewar.scores"])[today]},
    )
    first.close()

    posts: list[dict] = []

    def answer(route) -> None:
        body = json.loads(route.request.post_data)
        posts.append(body)
        route.fulfill(
            status=201,
            json={
                "ok": True,
                "repeated": False,
                "id": body["id"],
                "date": body["date"],
                "name": body["name"],
                "score": body["score"],
                "won": False,
                "duration_ms": 60_000,
                "wrong_slaps": 3,
                "received_at": now.isoformat(),
                "rank": 1,
                "total": 1,
                "entry": 1,
                "winners": 0,
                "winners_below": None,
            },
        )

    context.route(
        "**/api/scores",
        lambda route: answer(route) if route.request.method == "POST" else route.fallback(),
    )

    # The next visit reads it all back through the stores.
    page = context.new_page()
    page.goto("/")
    wait_ready(page)
    wait_for(page, "document.documentElement.lang === 'fr'")
    assert page.input_value("#speed") == "fast"
    assert page.is_checked("#sound") is False
    assert page.is_checked("#lenient") is True
    assert page.input_value("[data-testid=name-input]") == NAME
    line = page.text_content("#history-line")
    assert re.search(r"Parties\s*:\s*3\b", line) and re.search(r"Victoires\s*:\s*2\b", line), line
    assert re.search(r"Jours d’affilée\s*:\s*2\b", line), line
    assert page.evaluate("localStorage.getItem('ewar.player')") == PLAYER

    # The score that waited is sent under its id, name and player id, and settles as sent: once.
    wait_for(
        page,
        f"JSON.parse(localStorage.getItem('ewar.scores'))['{today}'].state === 'sent'",
        timeout_ms=SEND_MS,
    )
    assert [(p["id"], p["name"], p["player"], p["date"], p["score"]) for p in posts] == [
        (SUBMISSION_ID, NAME, PLAYER, today, 700)
    ]
    pending = page.evaluate("import('./common/outbox.js').then((outbox) => outbox.pending())")
    assert pending == []

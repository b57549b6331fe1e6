// The scores API against a real PostgreSQL server (EWAR_TEST_DATABASE_URL, a fresh database per API): with the real
// engine (the build's wheel) on replays played and judged in CPython, and with a stand-in judge where the board's
// own rules are under test.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { TOP } from "../../netlify/database/scores-store.mjs";
import { config as boardConfig } from "../../netlify/functions/board/board.mjs";
import { config as postConfig } from "../../netlify/functions/scores/scores.mjs";
import { MAX_BODY_BYTES } from "../../netlify/lib/submission.mjs";
import { startLocalApi } from "../../netlify/local.mjs";
import { personActions } from "../../tools/harness/copies.mjs";
import {
  assertRefusal,
  datesAround,
  faultyDatabase,
  getRequest,
  newId,
  ORIGIN,
  postRequest,
  pythonReplays,
  sharedTestEngine,
  standInEngine,
  standInReplay,
  startTestApi,
  testNow,
} from "../../tools/harness/fixtures.mjs";

const NOW = testNow();
const DAY_START = Math.floor(NOW / 86_400_000) * 86_400_000;
const DATES = datesAround(NOW);
// median_ms:seed of human-like players (tools/harness/players.py); each a different daily game of the same deal.
const PLAYS = ["250:1", "300:2", "350:3", "400:4", "450:5"];

let todays;
let yesterdays;
let accepted;
let api;

before(async () => {
  todays = pythonReplays(DATES.today, PLAYS);
  yesterdays = pythonReplays(DATES.yesterday, ["300:1"]);
  accepted = todays.plays.filter((play) => play.verdict.ok);
  assert.equal(accepted.length, PLAYS.length, "the judge accepts every human-like player's game");
  await sharedTestEngine();
  api = await startTestApi({ nowMs: NOW });
});

after(async () => {
  await api?.close();
  await api?.remove();
});

let names = 0;
function freshName() {
  names += 1;
  return `Player ${names}`;
}
const submission = (play, overrides = {}) => ({
  id: newId(),
  name: freshName(),
  date: DATES.today,
  score: play.score,
  replay: play.replay,
  ...overrides,
});

async function send(request, target = api, context = undefined) {
  const response = await target.handle(request, context);
  return { status: response.status, headers: response.headers, body: await response.json() };
}

const post = (body, target, context) => send(postRequest(body), target, context);
const board = (query, target, context) => send(getRequest(query), target, context);

/** Asserts the status and error code, and that nothing was stored (no entry, count or replay more). */
async function assertRejected(request, status, code, target = api) {
  await assertRefusal((r) => send(r, target), request, { status, code, rows: () => target.stored() });
}

/** A local API with the stand-in judge (board rules under test), closed and removed after `body`. */
async function withStandIn(body, options = {}) {
  const stand = await startTestApi({ nowMs: NOW, getEngine: async () => standInEngine(), ...options });
  try {
    await body(stand);
  } finally {
    await stand.close();
    await stand.remove();
  }
}

const standIn = (score, won = true, overrides = {}) => ({
  id: newId(),
  name: freshName(),
  date: DATES.today,
  score,
  replay: standInReplay({ score, won }),
  ...overrides,
});

describe("accepting a daily score (the real engine)", () => {
  test("a finished daily game judged to the claimed score is stored and ranked", async () => {
    const play = accepted[0];
    const sent = submission(play, { name: "  Ada  " });
    const { status, body, headers } = await post(sent);
    assert.equal(status, 201, body.message);
    assert.equal(headers.get("cache-control"), "no-store");
    assert.deepEqual(
      {
        ok: body.ok,
        repeated: body.repeated,
        name: body.name,
        score: body.score,
        won: body.won,
        duration_ms: body.duration_ms,
        wrong_slaps: body.wrong_slaps,
      },
      {
        ok: true,
        repeated: false,
        name: "Ada",
        score: play.verdict.score,
        won: play.verdict.won,
        duration_ms: play.verdict.duration_ms,
        wrong_slaps: play.verdict.wrong_slaps,
      },
    );
    assert.ok(body.rank >= 1 && body.rank <= body.total);
    const { body: view } = await board({ date: DATES.today, id: sent.id });
    assert.deepEqual([view.you.name, view.you.id, view.you.won], ["Ada", sent.id, play.verdict.won]);
  });

  test("yesterday's daily game is accepted (finished after midnight, or sent from offline)", async () => {
    const yesterday = yesterdays.plays[0];
    const sent = { id: newId(), name: "Owl", date: DATES.yesterday, score: yesterday.score, replay: yesterday.replay };
    assert.equal((await post(sent)).status, 201);
  });

  test("a lost game is accepted and shown as lost", async () => {
    const { status, body } = await post(submission(todays.lost));
    assert.deepEqual([status, body.won, body.score], [201, false, todays.lost.score]);
  });
});

describe("refusals store nothing", () => {
  const raw = (text, contentType = "application/json") => postRequest(text, { contentType });
  const valid = () => submission(accepted[1]);

  test("not JSON", () => assertRejected(raw("{id: 1"), 400, "invalid_json"));
  test("not UTF-8", () => assertRejected(raw(new Uint8Array([0x7b, 0xff, 0x7d])), 400, "invalid_json"));
  test("wrong content type", () =>
    assertRejected(raw(JSON.stringify(valid()), "text/plain"), 415, "unsupported_media_type"));
  test("no content type", () =>
    assertRejected(
      new Request(`${ORIGIN}/api/scores`, {
        method: "POST",
        body: new Blob([JSON.stringify(valid())]),
      }),
      415,
      "unsupported_media_type",
    ));
  test("body over 64 KiB", () =>
    assertRejected(raw(`{"pad":"${"x".repeat(MAX_BODY_BYTES)}"}`), 413, "payload_too_large"));
  test("body over 64 KiB under a Content-Length that lies", () => {
    const huge = new TextEncoder().encode(`{"pad":"${"x".repeat(4 * MAX_BODY_BYTES)}"}`);
    const stream = new ReadableStream({
      start(controller) {
        for (let at = 0; at < huge.length; at += 8192) controller.enqueue(huge.slice(at, at + 8192));
        controller.close();
      },
    });
    const request = new Request(`${ORIGIN}/api/scores`, {
      method: "POST",
      body: stream,
      duplex: "half",
      headers: { "content-type": "application/json" },
    });
    Object.defineProperty(request, "headers", {
      value: new Headers({ "content-type": "application/json", "content-length": "100" }),
    });
    return assertRejected(request, 413, "payload_too_large");
  });
  test("a JSON array instead of an object", () => assertRejected(raw("[1,2]"), 400, "invalid_body"));
  test("a missing field", () => {
    const { replay, ...rest } = valid();
    return assertRejected(postRequest(rest), 400, "missing_field");
  });
  test("an extra field", () => assertRejected(postRequest({ ...valid(), admin: true }), 400, "unknown_field"));
  test("score as a string", () => assertRejected(postRequest({ ...valid(), score: "1806" }), 400, "invalid_type"));
  test("score not an integer", () => assertRejected(postRequest({ ...valid(), score: 10.5 }), 400, "invalid_type"));
  test("negative score", () => assertRejected(postRequest({ ...valid(), score: -1 }), 400, "invalid_type"));
  test("replay as a string", () => assertRejected(postRequest({ ...valid(), replay: "{}" }), 400, "invalid_type"));
  test("name as a number", () => assertRejected(postRequest({ ...valid(), name: 7 }), 400, "invalid_type"));
  test("a replay nested absurdly deep", () => {
    const text = JSON.stringify(valid()).replace(
      '"replay":{',
      `"replay":{"deep":${"[".repeat(30000)}${"]".repeat(30000)},`,
    );
    return assertRejected(raw(text), 400, "invalid_type");
  });
  test("an id too short", () => assertRejected(postRequest({ ...valid(), id: "abc" }), 400, "invalid_id"));
  test("an id with other characters", () =>
    assertRejected(postRequest({ ...valid(), id: `${"x".repeat(20)}/..` }), 400, "invalid_id"));
  for (const [what, name] of [
    ["empty (after trimming)", "   "],
    ["over 20 characters", "n".repeat(21)],
    ["a control character", "Ada\u0007"],
    ["markup", "<b>Ada</b>"],
    ["a bidi override", "Ada\u202e"],
    ["Hangul fillers", "\u3164\u3164\u3164"],
    ["a grapheme joiner", "Control\u034f One"],
    ["a Cyrillic letter among Latin ones", "\u0421ontrol One"],
    ["19 marks on one letter", `a${"\u0301".repeat(19)}`],
  ]) {
    test(`a name with ${what}`, () => assertRejected(postRequest({ ...valid(), name }), 400, "invalid_name"));
  }
  test("a badly written date", () =>
    assertRejected(postRequest({ ...valid(), date: "30/11/2026" }), 400, "invalid_date"));
  test("a date that is no calendar day", () =>
    assertRejected(postRequest({ ...valid(), date: "2026-02-30" }), 400, "invalid_date"));
  test("tomorrow's date", () =>
    assertRejected(postRequest({ ...valid(), date: DATES.tomorrow }), 400, "date_out_of_window"));
  test("the day before yesterday", () =>
    assertRejected(postRequest({ ...valid(), date: DATES.older }), 400, "date_out_of_window"));
  test("another path under /api/scores", () =>
    assertRejected(
      new Request(`${ORIGIN}/api/scores/admin`, {
        method: "POST",
        body: "{}",
        headers: { "content-type": "application/json" },
      }),
      404,
      "not_found",
    ));
  for (const method of ["PUT", "DELETE", "PATCH", "OPTIONS"]) {
    test(`method ${method}`, async () => {
      const response = await api.handle(new Request(`${ORIGIN}/api/scores`, { method }));
      assert.equal(response.status, 405);
      assert.equal(response.headers.get("allow"), "GET, POST");
      assert.equal((await response.json()).error, "method_not_allowed");
    });
  }
});

describe("the judge's refusals are 422 under the judge's codes", () => {
  const base = () => accepted[2];
  const cases = [
    ["a practice game", () => ({ replay: todays.practice.replay, score: 0 }), "not_daily"],
    [
      "yesterday's game sent as today's",
      () => ({ replay: yesterdays.plays[0].replay, score: yesterdays.plays[0].score }),
      "date_mismatch",
    ],
    ["an older engine version", () => ({ replay: { ...base().replay, engine: "0.9.0" } }), "engine_version"],
    ["fast CPU speed", () => ({ replay: { ...base().replay, speed: "fast" } }), "not_standard"],
    ["the lenient house rule", () => ({ replay: { ...base().replay, lenient: true } }), "not_standard"],
    ["a tampered replay", () => ({ replay: todays.tampered.replay }), "invalid_replay"],
    ["an empty replay object", () => ({ replay: {} }), "invalid_replay"],
    ["a replay with an unknown field", () => ({ replay: { ...base().replay, bonus: 1 } }), "invalid_replay"],
    ["an unfinished game", () => ({ replay: todays.unfinished.replay }), "unfinished"],
    ["a claimed score the replay does not make", () => ({ score: base().score + 1 }), "score_mismatch"],
    [
      "a valid slap 60 ms after its card",
      () => ({ replay: todays.too_fast.replay, score: todays.too_fast.score }),
      "impossible_play",
    ],
    [
      "a machine-timed game (every slap 150 ms after its card, every flip 300 ms into its turn)",
      () => ({ replay: todays.machine.replay, score: todays.machine.score }),
      "implausible_play",
    ],
  ];
  for (const [what, change, code] of cases) {
    test(what, () => assertRejected(postRequest({ ...submission(base()), ...change() }), 422, code));
  }

  test("a game longer than its day had run when the POST arrived (too_soon: the server's arrival time)", async () => {
    const early = await startTestApi({ nowMs: DAY_START + 1000 });
    try {
      const play = base();
      assert.ok(play.verdict.duration_ms > 1000);
      await assertRejected(postRequest(submission(play)), 422, "too_soon", early);
    } finally {
      await early.close();
      await early.remove();
    }
  });
});

describe("one record, one entry; one look-alike, one name", () => {
  test("the same game under another id and name is refused; the first entry stays", async () => {
    const play = accepted[3];
    const first = submission(play, { name: "First" });
    assert.equal((await post(first)).status, 201);
    await assertRejected(postRequest(submission(play, { name: "Second" })), 409, "duplicate_record");
    await assertRejected(postRequest(submission(play, { name: "First" })), 409, "duplicate_record");
    const { body } = await board({ date: DATES.today, id: first.id });
    assert.equal(body.you.name, "First");
    assert.equal(body.entries.filter((row) => row.name === "Second").length, 0);
  });

  test("a name that looks like one on the board, in any case, is refused (409 name_taken)", async () => {
    await withStandIn(async (stand) => {
      assert.equal((await post(standIn(900, true, { name: "Control One" }), stand)).status, 201);
      for (const lookalike of ["control one", "CONTROL ONE", "C0ntrol One", "Contro1 One", " Control  One "]) {
        await assertRejected(postRequest(standIn(800, true, { name: lookalike })), 409, "name_taken", stand);
      }
      assert.equal((await post(standIn(700, true, { name: "ТОР" }), stand)).status, 201);
      await assertRejected(postRequest(standIn(600, true, { name: "TOP" })), 409, "name_taken", stand);
      const refused = standIn(650, true, { name: "top" });
      await assertRejected(postRequest(refused), 409, "name_taken", stand);
      // Refused for its name, the game keeps no claim: the same game under a free name goes on the board.
      assert.equal((await post({ ...refused, name: "Tip" }, stand)).status, 201);
    });
  });

  test("names are stored in their normal form (NFKC) and may use any everyday script", async () => {
    await withStandIn(async (stand) => {
      for (const [raw, stored] of [
        ["Zoe\u0308", "Zoë"],
        ["김민준", "김민준"],
        ["Nguyễn Văn-An", "Nguyễn Văn-An"],
        ["  عائشہ  ", "عائشہ"],
        ["\uff2f'Neil_2.0", "O'Neil_2.0"],
        ["a   b", "a b"],
      ]) {
        const { status, body } = await post(standIn(500, true, { name: raw }), stand);
        assert.deepEqual([status, body.name], [201, stored], raw);
      }
    });
  });
});

describe("retries are idempotent", () => {
  test("the same id and content twice: one entry, the same answer", async () => {
    await withStandIn(async (stand) => {
      const sent = standIn(1200);
      const first = await post(sent, stand);
      const second = await post(sent, stand);
      assert.deepEqual([first.status, second.status], [201, 200]);
      assert.deepEqual({ ...second.body, repeated: false }, first.body);
      assert.equal((await board({ date: DATES.today }, stand)).body.total, 1);
    });
  });

  test("the same id with other content is refused and changes nothing", async () => {
    await withStandIn(async (stand) => {
      const sent = standIn(1300, true, { name: "Ada" });
      assert.equal((await post(sent, stand)).status, 201);
      await assertRejected(postRequest({ ...sent, name: "Mallory" }), 409, "id_conflict", stand);
      assert.equal((await board({ date: DATES.today, id: sent.id }, stand)).body.you.name, "Ada");
    });
  });

  test("the same id on three concurrent requests: stored once", async () => {
    await withStandIn(async (stand) => {
      const sent = standIn(1400);
      const answers = await Promise.all([post(sent, stand), post(sent, stand), post(sent, stand)]);
      assert.deepEqual(answers.map((answer) => answer.status).sort(), [200, 200, 201]);
      assert.equal(new Set(answers.map((answer) => answer.body.received_at)).size, 1);
      assert.equal((await board({ date: DATES.today }, stand)).body.total, 1);
    });
  });
});

describe("the board", () => {
  test("every win above every loss, each row says won or lost, ties by earlier entry", async () => {
    await withStandIn(async (stand) => {
      const sent = [
        standIn(2925, false, { name: "Loser" }),
        standIn(600, true, { name: "Slow" }),
        standIn(1800, true, { name: "Fast" }),
        standIn(600, true, { name: "Slow too" }),
        standIn(25, false, { name: "Quit" }),
      ];
      for (const one of sent) assert.equal((await post(one, stand)).status, 201);
      const expected = [
        ["Fast", true],
        ["Slow", true],
        ["Slow too", true],
        ["Loser", false],
        ["Quit", false],
      ];
      const { body, headers } = await board({ date: DATES.today }, stand);
      assert.equal(headers.get("cache-control"), "public, max-age=0, must-revalidate");
      assert.deepEqual(
        body.entries.map((row) => [row.rank, row.name, row.won]),
        expected.map(([name, won], at) => [at + 1, name, won]),
      );
      assert.ok(body.entries.every((row) => !("id" in row) && !("you" in row)));
    });
  });

  test("100 concurrent submissions: none lost; exact ranks, also outside the top 50", async () => {
    await withStandIn(async (stand) => {
      const sent = Array.from({ length: 100 }, (_, at) => standIn(500 + (at % 23) * 50, at % 5 !== 0));
      const answers = await Promise.all(sent.map((one) => post(one, stand)));
      assert.deepEqual(
        answers.filter((answer) => answer.status !== 201).map((answer) => answer.body),
        [],
      );
      const { body } = await board({ date: DATES.today }, stand);
      assert.equal(body.total, 100);
      assert.equal(body.entries.length, TOP);
      const order = sent
        .map((one, at) => ({ one, at: answers[at].body.received_at }))
        .sort(
          (a, b) => Number(b.one.replay.stand_in.won) - Number(a.one.replay.stand_in.won) || b.one.score - a.one.score,
        );
      for (const { one } of order) {
        const { body: view } = await board({ date: DATES.today, id: one.id }, stand);
        const better = sent.filter(
          (other) =>
            (other.replay.stand_in.won && !one.replay.stand_in.won) ||
            (other.replay.stand_in.won === one.replay.stand_in.won && other.score > one.score),
        ).length;
        const tied = sent.filter(
          (other) => other.replay.stand_in.won === one.replay.stand_in.won && other.score === one.score,
        ).length;
        assert.ok(view.you.rank > better && view.you.rank <= better + tied, `${one.id}: ${view.you.rank}`);
      }
      const ranks = await Promise.all(
        sent.map(async (one) => (await board({ date: DATES.today, id: one.id }, stand)).body.you.rank),
      );
      assert.deepEqual(
        [...ranks].sort((a, b) => a - b),
        sent.map((_, at) => at + 1),
      );
    });
  });

  test("any day up to today, never one to come (past days stay readable: issue 35)", async () => {
    assert.equal((await board({ date: DATES.today })).status, 200);
    assert.equal((await board({ date: DATES.yesterday })).status, 200);
    const older = await board({ date: DATES.older });
    assert.deepEqual([older.status, older.body.date, older.body.entries], [200, DATES.older, []]);
    for (const [date, code] of [
      [DATES.tomorrow, "date_out_of_window"],
      ["2026-13-01", "invalid_date"],
    ]) {
      const { status, body } = await board({ date });
      assert.deepEqual([status, body.error], [400, code], date);
    }
    const missing = await send(new Request(`${ORIGIN}/api/scores`));
    assert.deepEqual([missing.status, missing.body.error], [400, "invalid_date"]);
  });

  test("a malformed id in the query is refused", async () => {
    const { status, body } = await board({ date: DATES.today, id: "../x" });
    assert.deepEqual([status, body.error], [400, "invalid_id"]);
  });

  test("the local board (PGlite in a folder) survives a restart", async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "ewar-board-"));
    const getEngine = async () => standInEngine();
    try {
      const first = await startLocalApi({ dataDir, getEngine, rateLimit: false });
      for (const one of [standIn(900), standIn(800)]) assert.equal((await post(one, first)).status, 201);
      const before = (await board({ date: DATES.today }, first)).body;
      assert.equal(before.total, 2);
      await first.close();
      const second = await startLocalApi({ dataDir, getEngine, rateLimit: false });
      assert.deepEqual((await board({ date: DATES.today }, second)).body, before);
      await second.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("per-client limits", () => {
  test("posting and reading are two functions with limits of their own, written as literals", () => {
    assert.deepEqual(postConfig, {
      path: "/api/scores",
      method: ["POST"],
      rateLimit: { windowLimit: 10, windowSize: 180, aggregateBy: ["ip", "domain"] },
    });
    assert.deepEqual(boardConfig.path, ["/api/scores", "/api/scores/player", "/api/scores/rank", "/api/scores/replay"]);
    assert.ok(boardConfig.method.includes("GET") && !boardConfig.method.includes("POST"));
    assert.deepEqual(boardConfig.rateLimit, { windowLimit: 120, windowSize: 60, aggregateBy: ["ip", "domain"] });
  });

  test("locally each limit answers 429 with Retry-After on its own methods only, and a refused POST stores nothing", async () => {
    await withStandIn(
      async (stand) => {
        for (let at = 0; at < postConfig.rateLimit.windowLimit; at += 1) {
          assert.equal((await post(standIn(900 + at), stand)).status, 201);
        }
        const before = await stand.stored();
        const response = await stand.handle(postRequest(standIn(100)));
        assert.equal(response.status, 429);
        const retryAfter = Number(response.headers.get("retry-after"));
        assert.ok(retryAfter >= 1 && retryAfter <= postConfig.rateLimit.windowSize, String(retryAfter));
        assert.deepEqual(await stand.stored(), before);
        // Reading is limited apart: the posts used none of its window.
        for (let at = 0; at < boardConfig.rateLimit.windowLimit; at += 1) {
          assert.equal((await board({ date: DATES.today }, stand)).status, 200);
        }
        assert.equal((await board({ date: DATES.today }, stand)).status, 429);
      },
      { rateLimit: true },
    );
  });
});

describe("store faults answer 503 and lose nothing", () => {
  test("a dropped connection on the insert: 503 with Retry-After, nothing stored, and the retry goes on the board once", async () => {
    let failing = true;
    let faulty;
    await withStandIn(
      async (stand) => {
        const one = standIn(1000, true, { name: "Fault" });
        const refused = await post(one, stand);
        assert.deepEqual(
          [refused.status, refused.body.error, refused.headers.get("retry-after")],
          [503, "unavailable", "2"],
        );
        assert.deepEqual(await stand.stored(), { entries: 0, counted: 0, replays: 0 });
        failing = false;
        const retried = await post(one, stand);
        assert.equal(retried.status, 201, retried.body.message);
        assert.equal((await post(one, stand)).status, 200);
        assert.deepEqual(await stand.stored(), { entries: 1, counted: 1, replays: 1 });
        assert.equal(faulty.log.failed, 1);
      },
      {
        wrapDatabase: (pool) => {
          faulty = faultyDatabase(pool, (sql) => failing && sql.includes("INSERT INTO entries"));
          return faulty;
        },
      },
    );
  });

  test("a fault after the insert committed (the rank read): 503, and the retry answers the stored entry", async () => {
    let failing = true;
    await withStandIn(
      async (stand) => {
        const one = standIn(1100, true, { name: "Late fault" });
        assert.equal((await post(one, stand)).status, 503);
        failing = false;
        const retried = await post(one, stand);
        assert.deepEqual([retried.status, retried.body.repeated, retried.body.rank], [200, true, 1]);
        assert.deepEqual(await stand.stored(), { entries: 1, counted: 1, replays: 1 });
      },
      { wrapDatabase: (pool) => faultyDatabase(pool, (sql) => failing && sql.includes("AS rank, (SELECT coalesce")) },
    );
  });

  test("a server that cannot be reached: POST and GET answer 503", async () => {
    const unreachable = faultyDatabase(null, () => true);
    const down = await startLocalApi({
      database: { query: unreachable.query, exec: unreachable.query },
      getEngine: async () => standInEngine(),
      rateLimit: false,
    });
    // The migrations themselves need the server: the local API answers 503 until it has one.
    await assert.rejects(down.opened);
    const answer = await down.handle(getRequest({ date: DATES.today }));
    assert.deepEqual([answer.status, answer.headers.get("retry-after")], [503, "2"]);
    const handler = (await import("../../netlify/scores-api/handler.mjs")).createScoresHandler({
      database: () => unreachable,
      getEngine: async () => standInEngine(),
      clock: { now: () => Date.now() },
    });
    for (const request of [postRequest(standIn(1200)), getRequest({ date: DATES.today })]) {
      const response = await handler(request);
      assert.deepEqual([response.status, response.headers.get("retry-after")], [503, "2"]);
    }
  });

  test("an engine that does not load: POST 503 with a JSON error, GET still works", async () => {
    const broken = await startTestApi({ nowMs: NOW, getEngine: () => Promise.reject(new Error("no wheel")) });
    try {
      const { status, body, headers } = await post(submission(accepted[0]), broken);
      assert.deepEqual([status, body.error, headers.get("retry-after")], [503, "unavailable", "2"]);
      assert.equal((await board({ date: DATES.today }, broken)).status, 200);
    } finally {
      await broken.close();
      await broken.remove();
    }
  });
});

describe("concurrency: the constraints decide, whoever comes first", () => {
  test("20 concurrent posts of one game under 20 ids and names: one entry, 19 duplicate_record", async () => {
    // The stand-in judge accepts any actions: the 20 share one person's timed actions (copies.mjs).
    const actions = personActions(20);
    await withStandIn(async (stand) => {
      const replay = standInReplay({ score: 900, actions });
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, at) => post(standIn(900, true, { name: `Racer ${at}`, replay }), stand)),
      );
      const codes = answers.map((answer) => (answer.status === 201 ? 201 : answer.body.error)).sort();
      assert.deepEqual(codes, [201, ...Array(19).fill("duplicate_record")]);
      assert.deepEqual(await stand.stored(), { entries: 1, counted: 1, replays: 1 });
    });
  });

  test("20 concurrent posts of one name's look-alikes: one entry, 19 name_taken", async () => {
    await withStandIn(async (stand) => {
      const names = [
        "Alice",
        "ALICE",
        "Alı̇ce",
        "alice",
        "A\u0301lice",
        "Al\u0131ce",
        "AL1CE",
        "Aiice",
        "Al1ce",
        "ALİCE",
      ];
      const answers = await Promise.all(
        [...names, ...names].map((name, at) => post(standIn(900 + at, true, { name }), stand)),
      );
      const codes = answers.map((answer) => (answer.status === 201 ? 201 : answer.body.error)).sort();
      assert.deepEqual(codes, [201, ...Array(19).fill("name_taken")]);
      assert.deepEqual(await stand.stored(), { entries: 1, counted: 1, replays: 1 });
    });
  });
});

// A board entry's record (GET /api/scores/replay) and where a score stands (the day's distribution, winners and
// winners_below), against a real PostgreSQL server with the stand-in judge and a clock the tests move.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { BIN_WIDTH, DISTRIBUTION_BINS, REPLAY_DAYS, ScoreStore } from "../../netlify/database/scores-store.mjs";
import { config as boardConfig } from "../../netlify/functions/board/board.mjs";
import { MAX_BODY_BYTES } from "../../netlify/lib/submission.mjs";
import { startLocalApi } from "../../netlify/local.mjs";
import { newId, ORIGIN, postRequest, standInEngine, standInReplay } from "../../tools/harness/fixtures.mjs";
import { freshDatabase } from "../../tools/harness/testdb.mjs";
import { utcDay } from "../../web/common/contract.js";

const DAY_MS = 86_400_000;
const START = Math.floor(Date.now() / DAY_MS) * DAY_MS + 12 * 3_600_000;

let database;
let api;
const clock = { ms: START };

before(async () => {
  database = await freshDatabase();
  api = await startLocalApi({
    database: database.pool,
    getEngine: async () => standInEngine(),
    clock: { now: () => clock.ms },
    rateLimit: false,
  });
});
after(async () => {
  await api?.close();
  await database?.drop();
});

async function send(request, target = api) {
  const response = await target.handle(request);
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: JSON.parse(text) };
}

let names = 0;
async function postEntry(score, { won = true, replay = standInReplay({ score, won }), target = api } = {}) {
  names += 1;
  const sent = { id: newId(), name: `Watcher ${names}`, date: utcDay(clock.ms), score, replay };
  const answer = await send(postRequest(sent), target);
  assert.equal(answer.status, 201, answer.body.message);
  return { sent, answer: answer.body };
}

/** `body(api)` with a local API of the stand-in judge over a fresh database on this file's clock; both gone after. */
async function withFreshStandIn(body) {
  const day = await freshDatabase();
  const fresh = await startLocalApi({
    database: day.pool,
    getEngine: async () => standInEngine(),
    clock: { now: () => clock.ms },
  });
  try {
    await body(fresh);
  } finally {
    await fresh.close();
    await day.drop();
  }
}

const replayOf = (query) => send(new Request(`${ORIGIN}/api/scores/replay?${new URLSearchParams(query)}`));
const boardOf = (query) => send(new Request(`${ORIGIN}/api/scores?${new URLSearchParams(query)}`));

describe("a board entry's record", () => {
  test("every board row has a public entry number; the replay route gives that game's record", async () => {
    const { sent, answer } = await postEntry(1750);
    assert.ok(Number.isSafeInteger(answer.entry) && answer.entry > 0);
    const { body: board } = await boardOf({ date: sent.date });
    const row = board.entries.find((entry) => entry.name === sent.name);
    assert.equal(row.entry, answer.entry);
    assert.ok(!("id" in row), "another's row never carries its submission id");
    const { status, body, headers } = await replayOf({ date: sent.date, entry: answer.entry });
    assert.equal(status, 200);
    assert.deepEqual(body, {
      date: sent.date,
      entry: answer.entry,
      name: sent.name,
      score: 1750,
      won: true,
      duration_ms: 1000,
      replay: sent.replay,
    });
    // Kept REPLAY_DAYS: a day in the browser, and at the CDN until the replay leaves (reads.test.mjs).
    assert.equal(headers.get("cache-control"), "public, max-age=86400");
    assert.match(headers.get("netlify-cdn-cache-control"), /^public, durable, s-maxage=\d+$/);
    assert.equal(headers.get("content-type"), "application/json; charset=utf-8");
  });

  test("the answer stays within a submission's size bound, even for the largest record", async () => {
    const big = standInReplay({ score: 1600 });
    big.actions.push("x".repeat(MAX_BODY_BYTES - 1024));
    const { sent, answer } = await postEntry(1600, { replay: big });
    const { status, text, body } = await replayOf({ date: sent.date, entry: answer.entry });
    assert.equal(status, 200);
    assert.deepEqual(body.replay, big);
    assert.ok(Buffer.byteLength(text) < MAX_BODY_BYTES + 1024, `${Buffer.byteLength(text)} bytes`);
  });

  test("malformed parameters are 400 with their code; an entry of no such number or day is 404", async () => {
    const { sent, answer } = await postEntry(1500);
    const cases = [
      [{ entry: answer.entry }, 400, "invalid_date"],
      [{ date: "2026-13-01", entry: answer.entry }, 400, "invalid_date"],
      [{ date: sent.date }, 400, "invalid_entry"],
      [{ date: sent.date, entry: "0" }, 400, "invalid_entry"],
      [{ date: sent.date, entry: "-3" }, 400, "invalid_entry"],
      [{ date: sent.date, entry: "1.5" }, 400, "invalid_entry"],
      [{ date: sent.date, entry: "01" }, 400, "invalid_entry"],
      [{ date: sent.date, entry: "9".repeat(17) }, 400, "invalid_entry"],
      [{ date: sent.date, entry: answer.entry + 1000 }, 404, "not_found"],
      [{ date: utcDay(clock.ms - DAY_MS), entry: answer.entry }, 404, "not_found"],
    ];
    for (const [query, status, code] of cases) {
      const { status: got, body, headers } = await replayOf(query);
      assert.deepEqual([got, body.error], [status, code], JSON.stringify(query));
      assert.equal(headers.get("cache-control"), "no-store");
    }
  });

  test("read-only: other methods are 405, and the route is the reading function's (its rate limit)", async () => {
    const refused = await send(
      new Request(`${ORIGIN}/api/scores/replay?date=2026-01-01&entry=1`, { method: "DELETE" }),
    );
    assert.deepEqual(
      [refused.status, refused.body.error, refused.headers.get("allow")],
      [405, "method_not_allowed", "GET"],
    );
    assert.deepEqual(boardConfig.path, ["/api/scores", "/api/scores/player", "/api/scores/rank", "/api/scores/replay"]);
    assert.ok(boardConfig.method.includes("GET") && !boardConfig.method.includes("POST"));
  });

  test(`past ${REPLAY_DAYS} days, or once pruned, the replay is gone (410) and the entry stays`, async () => {
    const { sent, answer } = await postEntry(1450);
    const kept = clock.ms;
    try {
      clock.ms = kept + REPLAY_DAYS * DAY_MS;
      assert.equal((await replayOf({ date: sent.date, entry: answer.entry })).status, 200);
      clock.ms = kept + (REPLAY_DAYS + 1) * DAY_MS;
      const gone = await replayOf({ date: sent.date, entry: answer.entry });
      assert.deepEqual([gone.status, gone.body.error], [410, "replay_gone"]);
      clock.ms = kept;
      await database.pool.query("DELETE FROM replays WHERE id = $1", [sent.id]);
      const pruned = await replayOf({ date: sent.date, entry: answer.entry });
      assert.deepEqual([pruned.status, pruned.body.error], [410, "replay_gone"]);
      const entry = await new ScoreStore(database.pool).find(sent.date, sent.id);
      assert.equal(entry.name, sent.name);
    } finally {
      clock.ms = kept;
    }
  });
});

describe("where a score stands", () => {
  test("the day's distribution in fixed bins, wins and losses apart, only the bins that hold entries", async () => {
    await withFreshStandIn(async (fresh) => {
      const scores = [
        [1910, true],
        [1900, true],
        [1949, true],
        [1620, true],
        [75, false],
        [0, false],
        [5000, false],
      ];
      for (const [score, won] of scores) await postEntry(score, { won, target: fresh });
      const response = await fresh.handle(new Request(`${ORIGIN}/api/scores?date=${utcDay(clock.ms)}`));
      const { distribution } = await response.json();
      const top = (DISTRIBUTION_BINS - 1) * BIN_WIDTH;
      assert.equal(BIN_WIDTH, 50);
      assert.deepEqual(distribution, {
        bin: 50,
        wins: [
          [1600, 1],
          [1900, 3],
        ],
        losses: [
          [0, 1],
          [50, 1],
          [top, 1],
        ],
      });
    });
  });

  test("winners and winners_below, exact, in the POST answer and in `you`; null for a loss", async () => {
    await withFreshStandIn(async (fresh) => {
      const post = async (score, won = true) => {
        const { sent, answer } = await postEntry(score, { won, target: fresh });
        return { sent, body: answer };
      };
      const you = async (id) =>
        (await (await fresh.handle(new Request(`${ORIGIN}/api/scores?date=${utcDay(clock.ms)}&id=${id}`))).json()).you;
      const low = await post(1200);
      assert.deepEqual([low.body.winners, low.body.winners_below], [1, 0]);
      await post(1500);
      await post(1500);
      const mid = await post(1400);
      assert.deepEqual([mid.body.winners, mid.body.winners_below], [4, 1]);
      const loss = await post(900, false);
      assert.deepEqual([loss.body.winners, loss.body.winners_below], [null, null]);
      const top = await post(1990);
      assert.deepEqual([top.body.winners, top.body.winners_below], [5, 4]);
      // Later wins change where the earlier ones stand.
      assert.deepEqual([(await you(low.sent.id)).winners, (await you(low.sent.id)).winners_below], [5, 0]);
      assert.deepEqual([(await you(mid.sent.id)).winners, (await you(mid.sent.id)).winners_below], [5, 1]);
      const lossView = await you(loss.sent.id);
      assert.deepEqual([lossView.winners, lossView.winners_below, lossView.entry], [null, null, loss.body.entry]);
      const again = await fresh.handle(postRequest(top.sent));
      const repeated = await again.json();
      assert.deepEqual(
        [again.status, repeated.winners, repeated.winners_below, repeated.entry],
        [200, 5, 4, top.body.entry],
      );
    });
  });
});

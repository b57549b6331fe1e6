// The scheduled chores (netlify/functions/prune/): Netlify runs them hourly, they delete what the board keeps no
// longer, in batches within a time budget, and no player's request does any of it.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import { REPLAY_DAYS, ScoreStore } from "../../netlify/database/scores-store.mjs";
import { BATCH, cutoffs, ENTRY_DAYS, runChores } from "../../netlify/functions/prune/chores.mjs";
import { createPruneHandler } from "../../netlify/functions/prune/handler.mjs";
import { config as pruneConfig } from "../../netlify/functions/prune/prune.mjs";
import { startLocalApi } from "../../netlify/local.mjs";
import { getRequest, newId, postRequest, standInEngine, standInReplay } from "../../tools/harness/fixtures.mjs";
import { freshDatabase } from "../../tools/harness/testdb.mjs";
import { utcDay } from "../../web/common/contract.js";

const DAY_MS = 86_400_000;
const NOW = Math.floor(Date.now() / DAY_MS) * DAY_MS + 12 * 3_600_000;
const dayAgo = (days) => utcDay(NOW - days * DAY_MS);
const sha = (text) => createHash("sha256").update(text).digest("hex");

let fresh;
before(async () => {
  fresh = await freshDatabase();
});
after(async () => {
  await fresh?.drop();
});

/** Stores an entry of `date` straight through the store (no date window): { date, id }. */
async function storeEntry(store, date, { player = null, score = 100 } = {}) {
  const id = newId("k");
  const replay = JSON.stringify({ id });
  await store.submit({
    date,
    id,
    name: `Kept ${id.slice(-8)}`,
    name_key: `kept ${id}`.toLowerCase(),
    score,
    won: true,
    duration_ms: 1000,
    wrong_slaps: 0,
    game_sha256: sha(`game:${id}`),
    replay_sha256: sha(replay),
    received_at: NOW,
    engine_version: "test",
    replay_canonical: replay,
    player_sha256: player ? createHash("sha256").update(player).digest() : null,
  });
  return { date, id };
}

async function countsOf(date) {
  const { rows } = await fresh.pool.query(
    `SELECT (SELECT count(*) FROM entries WHERE day = $1::date)::int AS entries,
            (SELECT count(*) FROM replays WHERE day = $1::date)::int AS replays,
            (SELECT count(*) FROM buckets WHERE day = $1::date)::int AS buckets,
            (SELECT count(*) FROM entries WHERE day = $1::date AND player_sha256 IS NOT NULL)::int AS players`,
    [date],
  );
  return rows[0];
}

describe("the chores' function", () => {
  test("is a scheduled function (hourly, no path), its schedule written out in the config", () => {
    assert.deepEqual(pruneConfig, { schedule: "@hourly" });
    const source = readFileSync(new URL("../../netlify/functions/prune/prune.mjs", import.meta.url), "utf8");
    assert.match(source, /export const config = \{\s*schedule: "@hourly",\s*\};/);
  });

  test("keeps replays and entries 30 days, player hashes while friends' boards can show them", async () => {
    const store = new ScoreStore(fresh.pool);
    const ages = [0, 1, 2, REPLAY_DAYS, REPLAY_DAYS + 1, 45];
    for (const age of ages) {
      await storeEntry(store, dayAgo(age), { player: `player-of-day-${age}` });
      await storeEntry(store, dayAgo(age), { score: 200 });
    }
    const prune = createPruneHandler({ database: () => fresh.pool, clock: { now: () => NOW } });
    const answer = await prune(new Request("http://127.0.0.1/.netlify/functions/prune", { method: "POST" }));
    assert.equal(answer.status, 200);
    assert.deepEqual(await answer.json(), {
      replays: 4,
      // Days 2, 30, 31 and 45: cleared before the entries of the last two go.
      players: 4,
      entries: 4,
      buckets: 4,
      boards: 0,
      finished: true,
    });
    const after = {};
    for (const age of ages) after[age] = await countsOf(dayAgo(age));
    const kept = (players) => ({ entries: 2, replays: 2, buckets: 2, players });
    const gone = { entries: 0, replays: 0, buckets: 0, players: 0 };
    assert.deepEqual(after, {
      0: kept(1),
      1: kept(1),
      2: kept(0),
      [REPLAY_DAYS]: kept(0),
      [REPLAY_DAYS + 1]: gone,
      45: gone,
    });
    assert.equal(ENTRY_DAYS, REPLAY_DAYS);
    // Run again: nothing left to do.
    const again = await (await prune(new Request("http://127.0.0.1/"))).json();
    assert.deepEqual(again, { replays: 0, players: 0, entries: 0, buckets: 0, boards: 0, finished: true });
  });

  test("works in batches, and stops starting batches when its time is spent", async () => {
    const store = new ScoreStore(fresh.pool);
    for (let at = 0; at < 5; at += 1) await storeEntry(store, dayAgo(50), { score: at });
    const statements = [];
    const watched = {
      query(text, params) {
        statements.push(params[1]);
        return fresh.pool.query(text, params);
      },
    };
    let tick = 0;
    const partial = await runChores(watched, NOW, { batch: 2, budgetMs: 2.5, clock: () => tick++ });
    assert.equal(partial.finished, false);
    assert.deepEqual(partial.replays, 4, "two batches of two, then the budget was spent");
    assert.ok(statements.every((limit) => limit === 2));
    const rest = await runChores(watched, NOW, { batch: 2 });
    assert.deepEqual(rest, { replays: 1, players: 0, entries: 5, buckets: 5, boards: 0, finished: true });
    assert.equal(BATCH, 1000);
  });

  test("a failure answers 500 and is logged, for the next hour to try again", async () => {
    const broken = { query: () => Promise.reject(new Error("connection refused")) };
    const logged = [];
    const saved = console.error;
    console.error = (...parts) => logged.push(parts.join(" "));
    try {
      const answer = await createPruneHandler({ database: () => broken, clock: { now: () => NOW } })(
        new Request("http://x/"),
      );
      assert.equal(answer.status, 500);
      assert.equal((await answer.json()).error, "chores_failed");
    } finally {
      console.error = saved;
    }
    assert.ok(logged.some((line) => line.includes("connection refused")));
  });

  test("the cutoffs follow the clock: a day's replays go when it is more than REPLAY_DAYS old", () => {
    const at = cutoffs(NOW);
    assert.equal(at.replays, dayAgo(REPLAY_DAYS));
    assert.equal(at.players, dayAgo(1));
    assert.equal(at.boards, NOW - 60 * DAY_MS);
  });
});

describe("no player's request does a chore", () => {
  test("posting, reading and friends' requests send no DELETE and clear no player", async () => {
    const seen = [];
    const watched = {
      query(text, params) {
        seen.push(text);
        return fresh.pool.query(text, params);
      },
      exec: (sql) => fresh.pool.query(sql),
    };
    const api = await startLocalApi({
      database: watched,
      getEngine: async () => standInEngine(),
      clock: { now: () => NOW },
    });
    try {
      await api.opened;
      seen.length = 0;
      const body = {
        id: newId(),
        name: "Chore Free",
        date: utcDay(NOW),
        score: 321,
        replay: standInReplay({ score: 321 }),
        player: newId("p"),
      };
      assert.equal((await api.handle(postRequest(body))).status, 201);
      assert.equal((await api.handle(getRequest({ date: utcDay(NOW) }))).status, 200);
      const board = await api.handle(
        new Request("http://127.0.0.1/api/friends", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ name: "Chores", player: body.player }),
        }),
      );
      assert.equal(board.status, 201);
      assert.ok(seen.length >= 4);
      assert.deepEqual(
        seen.filter((text) => /DELETE|player_sha256 = NULL/i.test(text)),
        [],
      );
    } finally {
      await api.close();
    }
  });
});

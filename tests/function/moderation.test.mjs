// The board operator's command (tools/board_admin.mjs) against a real PostgreSQL database, and migration 0003 on
// a board that holds several entries of one player id a day.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import path from "node:path";
import { describe, test } from "node:test";
import { migrations } from "../../netlify/database/migrate.mjs";
import { personActions } from "../../tools/harness/copies.mjs";
import {
  datesAround,
  getRequest,
  newId,
  postRequest,
  ROOT,
  standInEngine,
  standInReplay,
  startTestApi,
  testNow,
} from "../../tools/harness/fixtures.mjs";
import { freshDatabase } from "../../tools/harness/testdb.mjs";

const NOW = testNow();
const DATES = datesAround(NOW);

async function send(request, target) {
  const response = await target.handle(request);
  return { status: response.status, body: await response.json() };
}

let seeds = 100;
const record = (score, name) => {
  seeds += 1;
  return {
    id: newId(),
    name,
    date: DATES.today,
    score,
    replay: standInReplay({ score, actions: personActions(seeds) }),
  };
};

/** Runs the operator's command against `url`: { status, out, err }. */
function admin(url, ...args) {
  try {
    const out = execFileSync(process.execPath, [path.join(ROOT, "tools", "board_admin.mjs"), ...args], {
      env: { ...process.env, EWAR_BOARD_DATABASE_URL: url },
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    return { status: 0, out, err: "" };
  } catch (error) {
    return { status: error.status, out: error.stdout, err: error.stderr };
  }
}

describe("the operator hides an entry or a name", () => {
  test("a hidden entry leaves the board, the ranks and its replay at once; the audit keeps who and why", async () => {
    const api = await startTestApi({ nowMs: NOW, getEngine: async () => standInEngine() });
    try {
      const posted = [];
      for (const [score, name] of [
        [1900, "Bot Search"],
        [1800, "Ann"],
        [1700, "Ben"],
      ]) {
        const body = record(score, name);
        const answer = await send(postRequest(body), api);
        assert.equal(answer.status, 201);
        posted.push({ ...body, entry: answer.body.entry });
      }
      const [bot, ann] = posted;
      const refused = admin(api.fresh.url, "hide-entry", "--date", DATES.today, "--entry", String(bot.entry));
      assert.equal(refused.status, 2, "no operator, no reason: refused");
      assert.match(refused.err, /--operator/);
      const done = admin(
        api.fresh.url,
        ...["hide-entry", "--date", DATES.today, "--entry", String(bot.entry)],
        ...["--operator", "Sam", "--reason", "a search of the public deal"],
      );
      assert.equal(done.status, 0, done.err);
      assert.match(done.out, /hidden/);
      const view = await send(getRequest({ date: DATES.today, id: ann.id }), api);
      assert.deepEqual(
        view.body.entries.map((row) => [row.rank, row.name]),
        [
          [1, "Ann"],
          [2, "Ben"],
        ],
      );
      assert.deepEqual([view.body.total, view.body.you.rank], [2, 1]);
      const replay = await api.handle(
        new Request(`http://127.0.0.1/api/scores/replay?date=${DATES.today}&entry=${bot.entry}`),
      );
      assert.equal(replay.status, 404);
      const audit = admin(api.fresh.url, "audit");
      const rows = audit.out.trim().split("\n").map(JSON.parse);
      assert.deepEqual(
        rows.map(({ operator, action, entry_seq, reason, entries }) => [operator, action, entry_seq, reason, entries]),
        [["Sam", "hide_entry", String(bot.entry), "a search of the public deal", 1]],
      );
      const missing = admin(
        api.fresh.url,
        ...["hide-entry", "--date", DATES.today, "--entry", "999999", "--operator", "Sam", "--reason", "typo"],
      );
      assert.equal(missing.status, 2);
      assert.match(missing.err, /no entry 999999/);
      assert.equal(admin(api.fresh.url, "audit").out.trim().split("\n").length, 1, "nothing hidden, nothing audited");
    } finally {
      await api.close();
      await api.remove();
    }
  });

  test("a hidden name: its entries leave the board and the name and its look-alikes are refused from then on", async () => {
    const api = await startTestApi({ nowMs: NOW, getEngine: async () => standInEngine() });
    try {
      assert.equal((await send(postRequest(record(1500, "Rude Word")), api)).status, 201);
      assert.equal((await send(postRequest(record(1400, "Fine")), api)).status, 201);
      const done = admin(
        api.fresh.url,
        ...["hide-name", "--name", "RUDE WORD", "--operator", "Sam", "--reason", "offensive"],
      );
      assert.equal(done.status, 0, done.err);
      assert.match(done.out, /1 entries taken off/);
      const view = await send(getRequest({ date: DATES.today }), api);
      assert.deepEqual(
        view.body.entries.map((row) => row.name),
        ["Fine"],
      );
      const again = await send(postRequest(record(1300, "rude w0rd")), api);
      assert.deepEqual([again.status, again.body.error], [400, "invalid_name"]);
      assert.match(again.body.message, /operator/);
    } finally {
      await api.close();
      await api.remove();
    }
  });
});

describe("migration 0003 on a board with several entries of one player a day", () => {
  test("all but the player's first entry of each day are hidden, with their audit rows; counts stay right", async () => {
    const db = await freshDatabase({ migrated: false });
    try {
      const files = migrations();
      const upTo = files.findIndex((file) => file.name.startsWith("0003_"));
      for (const file of files.slice(0, upTo)) await db.pool.query(file.sql);
      const player = createHash("sha256").update("one device").digest();
      const digest = (text) => createHash("sha256").update(text).digest();
      for (let at = 0; at < 5; at += 1) {
        await db.pool.query(
          `INSERT INTO entries (day, id, name, name_key, score, won, duration_ms, wrong_slaps, game_sha256,
             replay_sha256, received_at, engine_version, player_sha256)
           VALUES ('2026-12-01', $1, $2, $2, $3, true, 1000, 0, $4, $4, 0, 'x', $5)`,
          [`id-${at}-aaaaaaaaaaaaaa`, `name${at}`, 1000 + at, digest(`g${at}`), player],
        );
        await db.pool.query(`INSERT INTO buckets (day, won, score, entries) VALUES ('2026-12-01', true, $1, 1)`, [
          1000 + at,
        ]);
      }
      await db.pool.query(files[upTo].sql);
      const { rows } = await db.pool.query(`SELECT
          (SELECT count(*) FROM entries WHERE NOT hidden)::int AS shown,
          (SELECT name FROM entries WHERE NOT hidden) AS first,
          (SELECT sum(entries) FROM buckets)::int AS counted,
          (SELECT count(*) FROM moderation WHERE operator = 'migration 0003')::int AS audited`);
      assert.deepEqual(rows[0], { shown: 1, first: "name0", counted: 1, audited: 4 });
    } finally {
      await db.drop();
    }
  });
});

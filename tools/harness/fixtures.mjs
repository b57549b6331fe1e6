// Test and benchmark fixtures: the build's engine (dist/), replays judged in CPython, a local API over a fresh
// database on the test PostgreSQL server, a stand-in judge for board tests, and a database that fails chosen queries.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import http from "node:http";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import { startLocalApi } from "../../netlify/local.mjs";
import { loadEngine } from "../../netlify/scores-api/engine.mjs";
import { toWebRequest } from "../../netlify/web-request.mjs";
import { utcDay } from "../../web/common/contract.js";
import { freshDatabase } from "./testdb.mjs";

/**
 * Asserts a refusal: `send(request)` answers `status` with error `code`, a message and no-store, and `rows()`
 * (what the database holds) reads the same after as before: nothing stored. Resolves to the answer's body.
 */
export async function assertRefusal(send, request, { status, code, rows }) {
  const before = await rows();
  const { status: got, body, headers } = await send(request);
  assert.deepEqual({ status: got, error: body.error }, { status, error: code }, body.message);
  assert.equal(typeof body.message, "string");
  assert.equal(headers.get("cache-control"), "no-store");
  assert.deepEqual(await rows(), before);
  return body;
}

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const PYTHON = process.env.PYTHON ?? "python3";
const DAY_MS = 86_400_000;

/**
 * Daily games played by human-like players ("median_ms:seed" each) and judged in CPython, with the records that
 * must be refused (tools/harness/replays.py). The checkout's own engine and the harness's players come first on the path.
 */
export function pythonReplays(date, plays = ["450:1"]) {
  const script = path.join(ROOT, "tools", "harness", "replays.py");
  const pythonPath = [ROOT, process.env.PYTHONPATH].filter(Boolean).join(path.delimiter);
  const output = execFileSync(PYTHON, [script, "--date", date, "--plays", ...plays], {
    cwd: ROOT,
    env: { ...process.env, PYTHONPATH: pythonPath },
    maxBuffer: 64 * 2 ** 20,
    encoding: "utf8",
  });
  return JSON.parse(output);
}

/**
 * The tests' clock: now, but at least six hours into the UTC day. The judge refuses a game longer than its day had
 * run at arrival (too_soon), so a run just after midnight judges as one at noon would.
 */
export function testNow(realMs = Date.now()) {
  const dayStart = Math.floor(realMs / DAY_MS) * DAY_MS;
  return Math.max(realMs, dayStart + 6 * 3_600_000);
}

export function datesAround(nowMs) {
  return {
    today: utcDay(nowMs),
    yesterday: utcDay(nowMs - DAY_MS),
    tomorrow: utcDay(nowMs + DAY_MS),
    older: utcDay(nowMs - 2 * DAY_MS),
  };
}

let counter = 0;
/** A fresh submission id (24 characters from the allowed set). */
export function newId(prefix = "t") {
  counter += 1;
  const random = createHash("sha256")
    .update(`${process.pid}:${Date.now()}:${counter}:${Math.random()}`)
    .digest("base64url");
  return `${prefix}${random}`.slice(0, 24);
}

let testEngine = null;
/** One engine for all the APIs of a test process (the build's wheel and snapshot: python build.py build). */
export function sharedTestEngine() {
  testEngine ??= loadEngine({ root: ROOT });
  return testEngine;
}

/**
 * A stand-in for the engine whose judge accepts any record of the form {"stand_in": {score, won, ...}}, and
 * refuses the rest as invalid_replay: board tests choose scores no real game would give quickly (a loss worth
 * more than a win). Judging itself is tested with the real engine.
 */
export function standInEngine() {
  return {
    engineVersion: "stand-in",
    broken: false,
    judge(replay, date, score, _receivedMs) {
      const facts = replay?.stand_in;
      if (!facts) return { ok: false, error: { code: "invalid_replay", message: "not a stand-in record" } };
      if (facts.score !== score) return { ok: false, error: { code: "score_mismatch", message: "not that score" } };
      const actions = JSON.stringify(replay.actions ?? []);
      return {
        ok: true,
        score,
        won: facts.won,
        reason: facts.won ? "won" : "cpu_won",
        duration_ms: facts.duration_ms ?? 1000,
        wrong_slaps: facts.wrong_slaps ?? 0,
        piles_slapped: 1,
        date,
        actions_sha256: createHash("sha256").update(actions).digest("hex"),
        game_sha256: createHash("sha256").update(`game:${actions}`).digest("hex"),
      };
    },
  };
}

/** A stand-in record: `actions` makes it distinct (a different action list), or the same as another. */
export const standInReplay = ({ score, won = true, actions = [newId()], duration_ms = 1000 }) => ({
  stand_in: { score, won, duration_ms },
  actions,
});

/**
 * A local API over a fresh database on the test PostgreSQL server (EWAR_TEST_DATABASE_URL), its clock starting at
 * `nowMs`; no rate limit unless `rateLimit`. `wrapDatabase(pool)`: what the handler gets instead of the pool (a
 * faulty one). `database`: an existing { pool } to share (a restart), not dropped by remove().
 */
export async function startTestApi({
  nowMs = Date.now(),
  getEngine = sharedTestEngine,
  rateLimit = false,
  wrapDatabase = (pool) => pool,
  database,
  purge,
} = {}) {
  const fresh = database ?? (await freshDatabase());
  const started = performance.now();
  const now = () => nowMs + Math.floor(performance.now() - started);
  const api = await startLocalApi({
    database: wrapDatabase(fresh.pool),
    getEngine: (version) => getEngine(version),
    clock: { now },
    rateLimit,
    purge,
  });
  return {
    ...api,
    pool: fresh.pool,
    fresh,
    /** Rows the board holds: entries, buckets' counts, replays. */
    async stored() {
      const { rows } = await fresh.pool.query(`SELECT (SELECT count(*) FROM entries)::int AS entries,
        (SELECT coalesce(sum(entries), 0) FROM buckets)::int AS counted, (SELECT count(*) FROM replays)::int AS replays`);
      return rows[0];
    },
    async remove() {
      if (!database) await fresh.drop();
    },
  };
}

/**
 * A db that fails the queries `failWhen(sql)` picks, before they reach the server (as a dropped connection
 * would), and counts them; the rest go to `pool`.
 */
export function faultyDatabase(pool, failWhen) {
  const log = { failed: 0 };
  return {
    log,
    query(sql, params) {
      if (failWhen(sql)) {
        log.failed += 1;
        return Promise.reject(Object.assign(new Error("Connection terminated unexpectedly"), { code: "57P01" }));
      }
      return pool.query(sql, params);
    },
  };
}

export const ORIGIN = "http://127.0.0.1:8000";

export function postRequest(body, { contentType = "application/json", headers = {} } = {}) {
  const payload = typeof body === "string" || body instanceof Uint8Array ? body : JSON.stringify(body);
  return new Request(`${ORIGIN}/api/scores`, {
    method: "POST",
    body: payload,
    headers: { "content-type": contentType, ...headers },
  });
}

export function getRequest(query) {
  return new Request(`${ORIGIN}/api/scores?${new URLSearchParams(query)}`);
}

/** A loopback HTTP server in front of a handler (benchmarks): { origin, close() }. */
export async function serveLoopback(handle) {
  const server = http.createServer(async (req, res) => {
    const response = await handle(toWebRequest(req, "http://127.0.0.1"));
    res.writeHead(response.status, Object.fromEntries(response.headers));
    await pipeline(Readable.fromWeb(response.body), res);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  return {
    origin,
    close: () =>
      new Promise((resolve) => {
        server.close(resolve);
        server.closeAllConnections();
      }),
  };
}

/** Runs task(0..count-1), `concurrency` at a time; resolves to each one's time in ms, by index (benchmarks). */
export async function timedPool(count, concurrency, task) {
  const latencies = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next;
      next += 1;
      const started = performance.now();
      await task(index);
      latencies[index] = performance.now() - started;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return latencies;
}

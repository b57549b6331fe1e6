// Test and benchmark fixtures: the build's engine (dist/), replays judged in CPython, a local API over a temporary
// Blobs folder, a stand-in judge for board tests, and a Blobs proxy that fails chosen requests.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import { toWebRequest } from "../../../tools/web-request.mjs";
import { startLocalApi } from "../../local.mjs";
import { loadEngine } from "./engine.mjs";
import { utcDay } from "./submission.mjs";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const PYTHON = process.env.PYTHON ?? "python3";
const DAY_MS = 86_400_000;

/**
 * Daily games played by human-like players ("median_ms:seed" each) and judged in CPython, with the records that
 * must be refused (tests/function/replays.py). The checkout's own engine and test players come first on the path.
 */
export function pythonReplays(date, plays = ["450:1"]) {
  const script = path.join(ROOT, "tests", "function", "replays.py");
  const pythonPath = [ROOT, path.join(ROOT, "tests"), process.env.PYTHONPATH].filter(Boolean).join(path.delimiter);
  const output = execFileSync(PYTHON, [script, "--date", date, "--plays", ...plays], {
    cwd: ROOT,
    env: { ...process.env, PYTHONPATH: pythonPath },
    maxBuffer: 64 * 2 ** 20,
    encoding: "utf8",
  });
  return JSON.parse(output);
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
    judge(replay, date, score) {
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
      };
    },
  };
}

/** A stand-in record: `actions` makes it distinct (a different action list), or the same as another. */
export const standInReplay = ({ score, won = true, actions = [newId()], duration_ms = 1000 }) => ({
  stand_in: { score, won, duration_ms },
  actions,
});

export const newDataDir = () => mkdtempSync(path.join(os.tmpdir(), "ewar-blobs-"));

/**
 * A local API over a (fresh temporary) Blobs folder, its clock starting at `nowMs`; no rate limit unless
 * `rateLimit`. `blobsFetch`: the fetch the store uses (a fault proxy's).
 */
export async function startTestApi({
  nowMs = Date.now(),
  dataDir = newDataDir(),
  getEngine = sharedTestEngine,
  boardCacheMs = 0,
  rateLimit = false,
  blobsFetch,
  deployContext,
  blobsInChildProcess,
} = {}) {
  const started = performance.now();
  const now = () => nowMs + Math.floor(performance.now() - started);
  const api = await startLocalApi({
    dataDir,
    getEngine: () => getEngine(),
    now,
    boardCacheMs,
    rateLimit,
    blobsFetch,
    deployContext,
    blobsInChildProcess,
  });
  return {
    ...api,
    dataDir,
    remove() {
      rmSync(dataDir, { recursive: true, force: true });
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

/**
 * A fetch for the Blobs client that answers `status` instead of forwarding the requests `failWhen(method, url)`
 * picks (the store never sees them), and counts what it did. Stands between the function and the real local
 * Blobs server, as a sick store would.
 */
export function faultyFetch(failWhen) {
  const log = { failed: [], forwarded: 0 };
  const fetchThrough = async (url, init = {}) => {
    const method = String(init.method ?? "GET").toUpperCase();
    const status = failWhen(method, new URL(url));
    if (status) {
      log.failed.push({ method, url: String(url), status });
      return new Response(null, { status });
    }
    log.forwarded += 1;
    return fetch(url, init);
  };
  return { fetch: fetchThrough, log };
}

/** The local Blobs server's store folder of a deploy context (for counting files in tests). */
export const storeDir = (dataDir, storeName) => path.join(dataDir, "entries", "ewar-local", `site:${storeName}`);

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

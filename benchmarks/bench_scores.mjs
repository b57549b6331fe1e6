// Benchmarks the scores function: cold and warm replay verification, then 100 concurrent POSTs and 1,000 GETs
// over loopback HTTP (127.0.0.1 only, bounded in count and time), and checks every accepted score is on the board.
// Usage: node benchmarks/bench_scores.mjs [--cold-runs 5] [--json]
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { parseArgs } from "node:util";
import { loadEngine } from "../netlify/functions/scores/engine.mjs";
import { buildTestWheel, datesAround, newId, pythonReplays, ROOT, startTestApi } from
  "../netlify/functions/scores/fixtures.mjs";

const POSTS = 100;
const GETS = 1000;
const GET_CONCURRENCY = 50;
const HTTP_DEADLINE_MS = 120_000;
const CANDIDATE_PLAYS = ["450:500", "500:300", "500:200", "450:300", "250:300", "300:250", "200:200", "350:300",
  "300:400", "400:300", "250:350", "220:260"];

const { values: options } = parseArgs({
  options: { "cold-runs": { type: "string", default: "5" }, json: { type: "boolean", default: false } },
});

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const stats = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { n: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) };
};
const ms = (value) => `${value.toFixed(1)} ms`;

/** A child process: load the engine (snapshot or plain), verify one replay, report the times. */
const COLD_SCRIPT = `
const started = performance.now();
const { loadEngine } = await import(process.env.BENCH_ENGINE);
const fs = await import("node:fs");
const replay = JSON.parse(fs.readFileSync(process.env.BENCH_REPLAY, "utf8"));
const engine = await loadEngine({ root: process.env.BENCH_ROOT, wheelPath: process.env.BENCH_WHEEL,
  snapshotPath: process.env.BENCH_SNAPSHOT || null });
const loaded = performance.now();
const verdict = engine.verify(replay);
const done = performance.now();
const series = [];
for (let i = 0; i < 10; i += 1) { const t = performance.now(); engine.verify(replay); series.push(performance.now() - t); }
console.log(JSON.stringify({ how: engine.how, load: loaded - started, verify: done - loaded, total: done - started,
  score: verdict.result.score, next10: series }));
process.exit(0);
`;

function coldRun(env) {
  const started = Date.now();
  const output = execFileSync(process.execPath, ["--input-type=module", "-e", COLD_SCRIPT],
    { env: { ...process.env, ...env }, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  const report = JSON.parse(output.trim().split("\n").at(-1));
  return { ...report, wall: Date.now() - started };
}

function pickFiveMinuteGame(plays) {
  const finished = plays.filter((play) => play.verdict.finished && play.verdict.result);
  return finished.reduce((best, play) => (Math.abs(play.verdict.result.duration_ms - 300_000) <
    Math.abs(best.verdict.result.duration_ms - 300_000) ? play : best));
}

async function measureVerification(work, wheelPath, game) {
  const snapshotDir = path.join(work, "snapshot");
  execFileSync(process.execPath, [path.join(ROOT, "netlify", "make_snapshot.mjs"), "--wheel", wheelPath,
    "--out", snapshotDir], { stdio: ["ignore", "ignore", "inherit"], cwd: ROOT });
  const replayFile = path.join(work, "replay.json");
  writeFileSync(replayFile, JSON.stringify(game.replay));
  const env = {
    BENCH_ENGINE: new URL("../netlify/functions/scores/engine.mjs", import.meta.url).href,
    BENCH_REPLAY: replayFile, BENCH_ROOT: ROOT, BENCH_WHEEL: wheelPath,
  };
  const runs = Number(options["cold-runs"]);
  const snapshot = Array.from({ length: runs }, () => coldRun({ ...env,
    BENCH_SNAPSHOT: path.join(snapshotDir, "engine.snapshot") }));
  const plain = Array.from({ length: Math.max(2, Math.ceil(runs / 2)) }, () => coldRun(env));
  const engine = await loadEngine({ root: ROOT, wheelPath, snapshotPath: null });
  for (let i = 0; i < 30; i += 1) engine.verify(game.replay);
  const warm = [];
  for (let i = 0; i < 100; i += 1) {
    const started = performance.now();
    engine.verify(game.replay);
    warm.push(performance.now() - started);
  }
  return { snapshot, plain, warm: stats(warm) };
}

function toWebRequest(req, origin) {
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(new URL(req.url, origin), {
    method: req.method, headers: req.headers, body: hasBody ? Readable.toWeb(req) : undefined,
    duplex: hasBody ? "half" : undefined,
  });
}

/** The local API behind a loopback node:http server, as the dev server mounts it. */
async function serveLoopback(api) {
  const server = http.createServer(async (req, res) => {
    const response = await api.handle(toWebRequest(req, "http://127.0.0.1"));
    res.writeHead(response.status, Object.fromEntries(response.headers));
    await pipeline(Readable.fromWeb(response.body), res);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  return { origin, close: () => new Promise((resolve) => { server.close(resolve); server.closeAllConnections(); }) };
}

async function timed(fn) {
  const started = performance.now();
  const result = await fn();
  return { ...result, ms: performance.now() - started };
}

async function runPool(count, concurrency, task) {
  const latencies = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next;
      next += 1;
      const started = performance.now();
      await task(index);
      latencies.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return latencies;
}

async function measureHttp(plays, today) {
  const engine = loadEngine({ root: ROOT, wheelPath: buildTestWheel(), snapshotPath: null });
  const api = await startTestApi({ getEngine: () => engine });
  await api.ready;
  const server = await serveLoopback(api);
  const signal = AbortSignal.timeout(HTTP_DEADLINE_MS);
  try {
    const bodies = Array.from({ length: POSTS }, (_, at) => {
      const play = plays[at % plays.length];
      return { id: newId("b"), name: `Bench ${at}`, date: today, score: play.score, replay: play.replay };
    });
    const statuses = [];
    const post = await timed(async () => ({
      latencies: await runPool(POSTS, POSTS, async (index) => {
        const response = await fetch(`${server.origin}/api/scores`, { method: "POST", signal,
          headers: { "content-type": "application/json" }, body: JSON.stringify(bodies[index]) });
        statuses[index] = response.status;
        await response.arrayBuffer();
      }),
    }));
    const get = await timed(async () => ({
      latencies: await runPool(GETS, GET_CONCURRENCY, async (index) => {
        const query = new URLSearchParams({ date: today, id: bodies[index % POSTS].id });
        const response = await fetch(`${server.origin}/api/scores?${query}`, { signal });
        if (response.status !== 200) throw new Error(`GET answered ${response.status}`);
        await response.arrayBuffer();
      }),
    }));
    const accepted = bodies.filter((_, index) => statuses[index] === 201);
    let onBoard = 0;
    for (const body of accepted) {
      const response = await fetch(`${server.origin}/api/scores?${new URLSearchParams({ date: today, id: body.id })}`,
        { signal });
      if ((await response.json()).you?.id === body.id) onBoard += 1;
    }
    const total = (await (await fetch(`${server.origin}/api/scores?date=${today}`, { signal })).json()).total;
    return { post, get, accepted: accepted.length, onBoard, total, statuses };
  } finally {
    await server.close();
    await api.close();
    api.remove();
  }
}

function printReport(report) {
  const { game, verification: v, http: h } = report;
  const line = (label, runs) => {
    const totals = stats(runs.map((run) => run.total));
    const loads = stats(runs.map((run) => run.load));
    const firsts = stats(runs.map((run) => run.verify));
    const walls = stats(runs.map((run) => run.wall));
    console.log(`  ${label} (${runs[0].how}, n=${runs.length}): load+first verify p50 ${ms(totals.p50)} ` +
      `(max ${ms(totals.max)}); load p50 ${ms(loads.p50)}, first verify p50 ${ms(firsts.p50)}; ` +
      `whole process p50 ${ms(walls.p50)}`);
    const next = runs.map((run) => run.next10.map((t) => Math.round(t)).join(" "));
    console.log(`    next 10 verifications after the cold one (ms): ${next[0]}`);
  };
  console.log(`Replay: a ${(game.duration_ms / 1000).toFixed(0)} s daily game, ${game.actions} actions, ` +
    `score ${game.score} (simulated human ${game.play})`);
  console.log("Cold verification (fresh node process: load Pyodide + engine, verify once):");
  line("snapshot", v.snapshot);
  line("plain   ", v.plain);
  console.log(`Warm verification (same game, n=${v.warm.n}): p50 ${ms(v.warm.p50)}, p99 ${ms(v.warm.p99)}, ` +
    `max ${ms(v.warm.max)}`);
  const post = stats(h.post.latencies);
  const get = stats(h.get.latencies);
  console.log(`${POSTS} concurrent POSTs over 127.0.0.1: p50 ${ms(post.p50)}, p99 ${ms(post.p99)}, ` +
    `${(POSTS / (h.post.ms / 1000)).toFixed(1)} req/s (${ms(h.post.ms)} in all); ${h.accepted} accepted`);
  console.log(`${GETS} GETs (${GET_CONCURRENCY} at a time): p50 ${ms(get.p50)}, p99 ${ms(get.p99)}, ` +
    `${(GETS / (h.get.ms / 1000)).toFixed(0)} req/s (${ms(h.get.ms)} in all)`);
  console.log(`On the leaderboard afterwards: ${h.onBoard}/${h.accepted} accepted submissions (total ${h.total})`);
  console.log(`Machine: ${os.cpus().length} cores, load average ${os.loadavg().map((x) => x.toFixed(2)).join(" ")}, ` +
    `node ${process.version}`);
}

async function main() {
  const { today } = datesAround(Date.now());
  const work = mkdtempSync(path.join(os.tmpdir(), "ewar-bench-"));
  try {
    const wheelPath = buildTestWheel();
    const replays = pythonReplays(today, CANDIDATE_PLAYS);
    const game = pickFiveMinuteGame(replays.plays);
    const verification = await measureVerification(work, wheelPath, game);
    const shortGames = replays.plays.filter((play) => play.verdict.finished);
    const httpReport = await measureHttp(shortGames, today);
    const report = {
      game: { duration_ms: game.verdict.result.duration_ms, actions: game.replay.actions.length, score: game.score,
        play: `${game.reaction_ms}:${game.flip_ms}` },
      verification, http: httpReport,
    };
    if (options.json) console.log(JSON.stringify(report));
    else printReport(report);
    if (httpReport.onBoard !== httpReport.accepted || httpReport.accepted !== POSTS) process.exitCode = 1;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
process.exit(process.exitCode ?? 0);

// Benchmarks the scores function: cold and warm judging of a daily record, then 100 concurrent POSTs (100 different
// games) and 1,000 GETs over loopback HTTP (127.0.0.1 only, bounded in count and time), and checks every accepted
// score is on the board. Uses the build's engine (python build.py build first) and a PostgreSQL server for the board:
// python -m tools.builder.postgres -- node benchmarks/bench_scores.mjs [--cold-runs 5] [--json]
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { loadEngine, locateAssets } from "../netlify/scores-api/engine.mjs";
import {
  datesAround,
  newId,
  pythonReplays,
  ROOT,
  serveLoopback,
  startTestApi,
  timedPool,
} from "../tools/harness/fixtures.mjs";

const POSTS = 100;
const GETS = 1000;
const GET_CONCURRENCY = 50;
const HTTP_DEADLINE_MS = 300_000;
// 120 human-like players (tools/harness/players.py: medians 250-545 ms, two seeds each): as many different games of one deal.
const CANDIDATE_PLAYS = Array.from({ length: 120 }, (_, at) => `${250 + (at % 60) * 5}:${1 + Math.floor(at / 60)}`);

const { values: options } = parseArgs({
  options: { "cold-runs": { type: "string", default: "5" }, json: { type: "boolean", default: false } },
});

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const stats = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { n: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) };
};
const ms = (value) => `${value.toFixed(1)} ms`;

/** A child process: load the engine (snapshot or plain), judge one record, report the times. */
const COLD_SCRIPT = `
const started = performance.now();
const { loadEngine } = await import(process.env.BENCH_ENGINE);
const fs = await import("node:fs");
const { replay, date, score } = JSON.parse(fs.readFileSync(process.env.BENCH_REPLAY, "utf8"));
const engine = await loadEngine({ root: process.env.BENCH_ROOT, snapshotPath: process.env.BENCH_SNAPSHOT || null });
const loaded = performance.now();
const verdict = engine.judge(replay, date, score);
const done = performance.now();
const series = [];
for (let i = 0; i < 10; i += 1) { const t = performance.now(); engine.judge(replay, date, score); series.push(performance.now() - t); }
console.log(JSON.stringify({ how: engine.how, load: loaded - started, verify: done - loaded, total: done - started,
  score: verdict.score, next10: series }));
process.exit(0);
`;

function coldRun(env) {
  const started = Date.now();
  const output = execFileSync(process.execPath, ["--input-type=module", "-e", COLD_SCRIPT], {
    env: { ...process.env, ...env },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  const report = JSON.parse(output.trim().split("\n").at(-1));
  return { ...report, wall: Date.now() - started };
}

function pickFiveMinuteGame(plays) {
  return plays.reduce((best, play) =>
    Math.abs(play.verdict.duration_ms - 300_000) < Math.abs(best.verdict.duration_ms - 300_000) ? play : best,
  );
}

async function measureVerification(work, game, date) {
  const snapshotPath = locateAssets({ root: ROOT }).snapshotPath;
  if (!snapshotPath) throw new Error("no build/function/engine.snapshot: run python build.py build");
  const replayFile = path.join(work, "replay.json");
  writeFileSync(replayFile, JSON.stringify({ replay: game.replay, date, score: game.score }));
  const env = {
    BENCH_ENGINE: new URL("../netlify/scores-api/engine.mjs", import.meta.url).href,
    BENCH_REPLAY: replayFile,
    BENCH_ROOT: ROOT,
  };
  const runs = Number(options["cold-runs"]);
  const snapshot = Array.from({ length: runs }, () => coldRun({ ...env, BENCH_SNAPSHOT: snapshotPath }));
  const plain = Array.from({ length: Math.max(2, Math.ceil(runs / 2)) }, () => coldRun(env));
  const engine = await loadEngine({ root: ROOT, snapshotPath: null });
  for (let i = 0; i < 30; i += 1) engine.judge(game.replay, date, game.score);
  const warm = [];
  for (let i = 0; i < 100; i += 1) {
    const started = performance.now();
    engine.judge(game.replay, date, game.score);
    warm.push(performance.now() - started);
  }
  return { snapshot, plain, warm: stats(warm) };
}

async function timed(fn) {
  const started = performance.now();
  const result = await fn();
  return { ...result, ms: performance.now() - started };
}

async function measureHttp(plays, today) {
  const engine = loadEngine({ root: ROOT, snapshotPath: null });
  // The board on the test PostgreSQL server (EWAR_TEST_DATABASE_URL), a fresh database.
  const api = await startTestApi({ getEngine: () => engine });
  await api.ready;
  const server = await serveLoopback(api.handle);
  const signal = AbortSignal.timeout(HTTP_DEADLINE_MS);
  try {
    const bodies = Array.from({ length: POSTS }, (_, at) => {
      const play = plays[at];
      return { id: newId("b"), name: `Bench ${at}`, date: today, score: play.score, replay: play.replay };
    });
    const statuses = [];
    const post = await timed(async () => ({
      latencies: await timedPool(POSTS, POSTS, async (index) => {
        const response = await fetch(`${server.origin}/api/scores`, {
          method: "POST",
          signal,
          headers: { "content-type": "application/json" },
          body: JSON.stringify(bodies[index]),
        });
        statuses[index] = response.status;
        await response.arrayBuffer();
      }),
    }));
    const get = await timed(async () => ({
      latencies: await timedPool(GETS, GET_CONCURRENCY, async (index) => {
        const query = new URLSearchParams({ date: today, id: bodies[index % POSTS].id });
        const response = await fetch(`${server.origin}/api/scores?${query}`, { signal });
        if (response.status !== 200) throw new Error(`GET answered ${response.status}`);
        await response.arrayBuffer();
      }),
    }));
    const accepted = bodies.filter((_, index) => statuses[index] === 201);
    let onBoard = 0;
    for (const body of accepted) {
      const response = await fetch(`${server.origin}/api/scores?${new URLSearchParams({ date: today, id: body.id })}`, {
        signal,
      });
      if ((await response.json()).you?.id === body.id) onBoard += 1;
    }
    const total = (await (await fetch(`${server.origin}/api/scores?date=${today}`, { signal })).json()).total;
    return { post, get, accepted: accepted.length, onBoard, total, statuses };
  } finally {
    await server.close();
    await api.close();
    await api.remove();
  }
}

function printReport(report) {
  const { game, verification: v, http: h } = report;
  const line = (label, runs) => {
    const totals = stats(runs.map((run) => run.total));
    const loads = stats(runs.map((run) => run.load));
    const firsts = stats(runs.map((run) => run.verify));
    const walls = stats(runs.map((run) => run.wall));
    console.log(
      `  ${label} (${runs[0].how}, n=${runs.length}): load+first judge p50 ${ms(totals.p50)} ` +
        `(max ${ms(totals.max)}); load p50 ${ms(loads.p50)}, first judge p50 ${ms(firsts.p50)}; ` +
        `whole process p50 ${ms(walls.p50)}`,
    );
    const next = runs.map((run) => run.next10.map((t) => Math.round(t)).join(" "));
    console.log(`    next 10 judgements after the cold one (ms): ${next[0]}`);
  };
  console.log(
    `Replay: a ${(game.duration_ms / 1000).toFixed(0)} s daily game, ${game.actions} actions, ` +
      `score ${game.score} (human-like player ${game.play}, median ms:seed)`,
  );
  console.log("Cold judging (fresh node process: load Pyodide + engine, judge once):");
  line("snapshot", v.snapshot);
  line("plain   ", v.plain);
  console.log(
    `Warm judging (same game, n=${v.warm.n}): p50 ${ms(v.warm.p50)}, p99 ${ms(v.warm.p99)}, ` + `max ${ms(v.warm.max)}`,
  );
  const post = stats(h.post.latencies);
  const get = stats(h.get.latencies);
  console.log(
    `${POSTS} concurrent POSTs over 127.0.0.1: p50 ${ms(post.p50)}, p99 ${ms(post.p99)}, ` +
      `${(POSTS / (h.post.ms / 1000)).toFixed(1)} req/s (${ms(h.post.ms)} in all); ${h.accepted} accepted`,
  );
  console.log(
    `${GETS} GETs (${GET_CONCURRENCY} at a time): p50 ${ms(get.p50)}, p99 ${ms(get.p99)}, ` +
      `${(GETS / (h.get.ms / 1000)).toFixed(0)} req/s (${ms(h.get.ms)} in all)`,
  );
  console.log(`On the leaderboard afterwards: ${h.onBoard}/${h.accepted} accepted submissions (total ${h.total})`);
  console.log(
    `Machine: ${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(" ")}, ` + `node ${process.version}`,
  );
}

async function main() {
  const { today } = datesAround(Date.now());
  const work = mkdtempSync(path.join(os.tmpdir(), "ewar-bench-"));
  try {
    const replays = pythonReplays(today, CANDIDATE_PLAYS);
    const accepted = replays.plays.filter((play) => play.verdict.ok);
    const game = pickFiveMinuteGame(accepted);
    const verification = await measureVerification(work, game, today);
    const distinct = [...new Map(accepted.map((play) => [play.verdict.actions_sha256, play])).values()];
    if (distinct.length < POSTS) throw new Error(`only ${distinct.length} different accepted games`);
    const httpReport = await measureHttp(distinct, today);
    const report = {
      game: {
        duration_ms: game.verdict.duration_ms,
        actions: game.replay.actions.length,
        score: game.score,
        play: `${game.median_ms}:${game.seed}`,
      },
      verification,
      http: httpReport,
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

// The daily board on Postgres, measured against a real PostgreSQL server (EWAR_TEST_DATABASE_URL; run it under
// `python -m tools.builder.postgres -- ...`), beside the Netlify Blobs store it replaced:
//
// 1. Sustained: submissions arrive at --rate a second for --seconds (open loop: each is sent at its time, whether
//    or not the earlier ones are answered) through the scores handler with the stand-in judge (entries judged
//    beforehand: the store's path, not the judge's, which bench_scores.mjs measures). Then: none lost (every 201 is
//    a row, a bucket count and a replay), and every entry's rank from the store equal to its place in a brute-force
//    sort of all rows. With --blobs-root DIR (a checkout that still has the Blobs store, e.g. `git archive` of the
//    commit before this change, with node_modules holding @netlify/blobs 11), the same schedule for
//    --blobs-seconds against that store first, for comparison.
// 2. A day of --day-entries entries, bulk-inserted with generate_series: the rank query and the top-50 board query,
//    p50/p99 over --queries each, and the bytes an entry takes (table and indexes; the replay measured apart).
//
// Usage: node benchmarks/bench_board.mjs [--rate 200] [--seconds 60] [--blobs-root DIR] [--blobs-seconds 20]
//        [--day-entries 1000000] [--queries 1000] [--json] [--svg docs/board-postgres.svg]
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { deflateReplay, ScoreStore } from "../netlify/database/scores-store.mjs";
import { canonicalJson } from "../netlify/lib/submission.mjs";
import { createScoresHandler } from "../netlify/scores-api/handler.mjs";
import { datesAround, postRequest, pythonReplays, standInEngine, standInReplay } from "../tools/harness/fixtures.mjs";
import { freshDatabase } from "../tools/harness/testdb.mjs";
import { systemClock } from "../web/common/clock.js";
import { loadBoardDay } from "./board_day.mjs";

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const round = (value, places = 1) => Math.round(value * 10 ** places) / 10 ** places;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const summary = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { n: sorted.length, p50: round(percentile(sorted, 50)), p99: round(percentile(sorted, 99)) };
};

/** A small deterministic generator, so two runs send the same scores. */
function generator(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Scores spread like a real day's: most games won between 500 and 2,000, some lost at 25 a pile. */
function submissionsOf(count, date, prefix) {
  const random = generator(20261130);
  return Array.from({ length: count }, (_, at) => {
    const won = random() < 0.7;
    const score = won ? 500 + Math.floor(random() * 1500) : 25 * Math.floor(random() * 40);
    const id = `${prefix}${String(at).padStart(14, "0")}`;
    return { id, name: `P${prefix}${at}`, date, score, replay: standInReplay({ score, won, actions: [id] }) };
  });
}

/**
 * Sends `sent` open-loop at `rate` a second through `handle`; resolves to { answers, latencies (ms from each
 * one's scheduled time to its answer), perSecond: [{ second, p50, p99 }], elapsedS }.
 */
async function openLoop(handle, sent, rate) {
  const started = performance.now();
  const latencies = new Array(sent.length);
  const answers = new Array(sent.length);
  const pending = [];
  for (let at = 0; at < sent.length; at += 1) {
    const due = started + (at * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    pending.push(
      handle(postRequest(sent[at])).then(async (response) => {
        answers[at] = { status: response.status, body: await response.json() };
        latencies[at] = performance.now() - due;
      }),
    );
  }
  await Promise.all(pending);
  const elapsedS = (performance.now() - started) / 1000;
  const perSecond = [];
  const seconds = Math.ceil(sent.length / rate);
  for (let second = 0; second < seconds; second += 1) {
    const slice = latencies.slice(second * rate, (second + 1) * rate);
    perSecond.push({ second, ...summary(slice) });
  }
  return { answers, latencies, perSecond, elapsedS };
}

/** Every sent entry checked against the database: none lost, every rank its place in a brute-force sort. */
async function checkEverything(pool, store, date, sent, answers) {
  const accepted = sent.filter((_, at) => answers[at].status === 201);
  const counts = (
    await pool.query(`SELECT (SELECT count(*) FROM entries)::int AS entries,
      (SELECT coalesce(sum(entries), 0) FROM buckets)::int AS counted, (SELECT count(*) FROM replays)::int AS replays`)
  ).rows[0];
  const { rows } = await pool.query("SELECT id, won, score, seq::text AS seq FROM entries WHERE day = $1::date", [
    date,
  ]);
  // Brute force, in JavaScript: every win above every loss, then higher score, then earlier arrival.
  rows.sort((a, b) => Number(b.won) - Number(a.won) || b.score - a.score || Number(BigInt(a.seq) - BigInt(b.seq)));
  const place = new Map(rows.map((row, at) => [row.id, at + 1]));
  const stored = new Set(rows.map((row) => row.id));
  const lost = accepted.filter((one) => !stored.has(one.id)).map((one) => one.id);
  let wrong = 0;
  const rankMs = [];
  for (const one of accepted) {
    const started = performance.now();
    const { rank, total } = await store.standing(date, one.id);
    rankMs.push(performance.now() - started);
    if (rank !== place.get(one.id) || total !== rows.length) wrong += 1;
  }
  return { accepted: accepted.length, counts, lost: lost.length, ranksChecked: accepted.length, wrong, rankMs };
}

/** The sustained run on Postgres: a fresh database, the handler, the stand-in judge. */
async function sustainedPostgres({ rate, seconds, date }) {
  const database = await freshDatabase({ max: 20 });
  try {
    const handle = createScoresHandler({
      database: () => database.pool,
      getEngine: async () => standInEngine(),
      clock: systemClock(),
    });
    const sent = submissionsOf(rate * seconds, date, "pg");
    const run = await openLoop(handle, sent, rate);
    const check = await checkEverything(database.pool, new ScoreStore(database.pool), date, sent, run.answers);
    return {
      ...openLoopFigures("postgres", { rate, seconds, sent, run }),
      ...check,
      rank_query_ms: summary(check.rankMs),
      rankMs: undefined,
    };
  } finally {
    await database.drop();
  }
}

/** What an open-loop run of either store shows: its pace, latencies and the answers that were not a 201. */
function openLoopFigures(store, { rate, seconds, sent, run }) {
  return {
    store,
    rate,
    seconds,
    sent: sent.length,
    achieved_per_s: round(sent.length / run.elapsedS),
    latency_ms: summary(run.latencies),
    per_second: run.perSecond,
    not_201: run.answers.filter((answer) => answer.status !== 201).length,
  };
}

/** The same schedule against the Blobs store of another checkout (its netlify/local.mjs), for comparison. */
async function sustainedBlobs({ root, rate, seconds, date }) {
  const { startLocalApi } = await import(pathToFileURL(path.join(root, "netlify", "local.mjs")).href);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "ewar-bench-blobs-"));
  const api = await startLocalApi({
    dataDir,
    getEngine: async () => standInEngine(),
    rateLimit: false,
    blobsInChildProcess: true,
  });
  try {
    const sent = submissionsOf(rate * seconds, date, "bl");
    const run = await openLoop((request) => api.handle(request), sent, rate);
    await api.settle();
    return openLoopFigures("blobs", { rate, seconds, sent, run });
  } finally {
    await api.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A day of `count` entries bulk-inserted; rank and top-50 queries timed; bytes per entry. */
async function bigDay({ count, queries, date, replayBytes }) {
  const database = await freshDatabase({ max: 4 });
  const { pool } = database;
  try {
    const started = performance.now();
    await loadBoardDay(pool, date, count);
    await pool.query("VACUUM ANALYZE entries");
    await pool.query("VACUUM ANALYZE buckets");
    const loadS = (performance.now() - started) / 1000;
    const store = new ScoreStore(pool);
    const random = generator(7);
    const rankMs = [];
    const topMs = [];
    let rankSample = null;
    for (let at = 0; at < queries; at += 1) {
      const id = `day${String(1 + Math.floor(random() * count)).padStart(11, "0")}`;
      let t = performance.now();
      rankSample = await store.standing(date, id);
      rankMs.push(performance.now() - t);
      t = performance.now();
      const view = await store.view(date, at % 2 ? id : null);
      topMs.push(performance.now() - t);
      if (view.entries.length !== 50) throw new Error("the top 50 came back short");
    }
    const sizes = (
      await pool.query(`SELECT pg_table_size('entries')::float8 AS entries_table,
        pg_indexes_size('entries')::float8 AS entries_indexes, pg_total_relation_size('buckets')::float8 AS buckets`)
    ).rows[0];
    // Brute force on a few ranks: a plain count over the whole day.
    let bruteOk = 0;
    for (let at = 0; at < 20; at += 1) {
      const id = `day${String(1 + Math.floor(random() * count)).padStart(11, "0")}`;
      const { rank } = await store.standing(date, id);
      const { rows } = await pool.query(
        `SELECT 1 + count(*)::int AS rank FROM entries o, entries e WHERE e.day = $1::date AND e.id = $2
           AND o.day = e.day AND (o.won, o.score, -o.seq) > (e.won, e.score, -e.seq)`,
        [date, id],
      );
      if (rows[0].rank === rank) bruteOk += 1;
    }
    return {
      entries: count,
      load_s: round(loadS),
      rank_query_ms: summary(rankMs),
      board_query_ms: summary(topMs),
      brute_force_ranks_equal: `${bruteOk} of 20`,
      last_total: rankSample.total,
      bytes_per_entry: {
        row: round(sizes.entries_table / count),
        indexes: round(sizes.entries_indexes / count),
        buckets: round(sizes.buckets / count, 3),
        replay_deflated: replayBytes,
      },
    };
  } finally {
    await database.drop();
  }
}

/** The deflated size of real replays: human-like daily games played and judged in CPython. */
function realReplayBytes(date) {
  const plays = pythonReplays(date, ["300:1", "450:2", "600:3", "750:4"]).plays;
  const sizes = plays.map((play) => deflateReplay(canonicalJson(play.replay)).length);
  const json = plays.map((play) => Buffer.byteLength(canonicalJson(play.replay)));
  return {
    mean_deflated: Math.round(sizes.reduce((a, b) => a + b, 0) / sizes.length),
    mean_json: Math.round(json.reduce((a, b) => a + b, 0) / json.length),
    games: sizes.length,
  };
}

/** Latency per second of the sustained runs, Postgres and Blobs side by side. */
export function chartSvg(report) {
  const width = 720;
  const height = 300;
  const left = 60;
  const bottom = 250;
  const runs = [report.postgres, report.blobs].filter(Boolean);
  const maxSeconds = Math.max(...runs.map((run) => run.per_second.length));
  const maxMs = Math.max(...runs.flatMap((run) => run.per_second.map((row) => row.p99)));
  const logMax = Math.log10(Math.max(10, maxMs));
  const x = (second) => left + (second / Math.max(1, maxSeconds - 1)) * (width - left - 20);
  const y = (ms) => bottom - (Math.log10(Math.max(1, ms)) / logMax) * (bottom - 60);
  const colors = { postgres: "#1f77b4", blobs: "#d62728" };
  const lines = runs.flatMap((run) =>
    ["p50", "p99"].map((key) => {
      const points = run.per_second.map((row) => `${round(x(row.second))},${round(y(row[key]))}`).join(" ");
      const dash = key === "p99" ? ' stroke-dasharray="5,4"' : "";
      return `<polyline fill="none" stroke="${colors[run.store]}" stroke-width="2"${dash} points="${points}"/>`;
    }),
  );
  const ticks = [1, 10, 100, 1000, 10000]
    .filter((ms) => Math.log10(ms) <= logMax)
    .map(
      (ms) =>
        `<line x1="${left}" x2="${width - 20}" y1="${round(y(ms))}" y2="${round(y(ms))}" stroke="#ddd"/>` +
        `<text x="${left - 6}" y="${round(y(ms)) + 4}" text-anchor="end" font-size="11">${ms} ms</text>`,
    );
  const legend = runs
    .map(
      (run, at) =>
        `<text x="${left + 10}" y="${20 + at * 16}" font-size="12" fill="${colors[run.store]}">${run.store}: ` +
        `${run.sent} sent at ${run.rate}/s over ${run.seconds} s, ${run.sent - run.not_201} accepted ` +
        "(solid p50, dashed p99 of each second's submissions)</text>",
    )
    .join("");
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" ` +
    `role="img" aria-label="Submission latency per second, Postgres and Blobs">` +
    `<rect width="100%" height="100%" fill="#fff"/>${ticks.join("")}${lines.join("")}${legend}` +
    `<text x="${(width + left) / 2}" y="${height - 15}" text-anchor="middle" font-size="12">second of the run</text>` +
    "</svg>\n"
  );
}

function printReport(report) {
  const { postgres: pg, blobs, day, replay } = report;
  const row = (label, a, b) =>
    console.log(`${label.padEnd(34)} ${String(a).padStart(22)} ${String(b ?? "-").padStart(22)}`);
  console.log(`\nSustained submissions (stand-in judge), open loop`);
  row("", "postgres", "blobs");
  row("rate asked x seconds", `${pg.rate}/s x ${pg.seconds}`, blobs && `${blobs.rate}/s x ${blobs.seconds}`);
  row("sent", pg.sent, blobs?.sent);
  row("achieved per second", pg.achieved_per_s, blobs?.achieved_per_s);
  row(
    "latency p50 / p99 ms",
    `${pg.latency_ms.p50} / ${pg.latency_ms.p99}`,
    blobs && `${blobs.latency_ms.p50} / ${blobs.latency_ms.p99}`,
  );
  row("answers other than 201", pg.not_201, blobs?.not_201);
  row("lost (201 and not stored)", pg.lost, "-");
  row("rows / counted / replays", `${pg.counts.entries} / ${pg.counts.counted} / ${pg.counts.replays}`, "-");
  row("ranks equal to brute force", `${pg.ranksChecked - pg.wrong} of ${pg.ranksChecked}`, "-");
  row("rank query ms p50 / p99", `${pg.rank_query_ms.p50} / ${pg.rank_query_ms.p99}`, "-");
  if (blobs && pg.latency_ms.p50 > 0) {
    console.log(
      `blobs / postgres: p50 x${round(blobs.latency_ms.p50 / pg.latency_ms.p50)}, p99 x${round(blobs.latency_ms.p99 / pg.latency_ms.p99)}`,
    );
  }
  if (day) {
    console.log(`\nA day of ${day.entries.toLocaleString("en")} entries (loaded in ${day.load_s} s)`);
    console.log(
      `rank query      p50 ${day.rank_query_ms.p50} ms   p99 ${day.rank_query_ms.p99} ms   (n=${day.rank_query_ms.n})`,
    );
    console.log(
      `top-50 board    p50 ${day.board_query_ms.p50} ms   p99 ${day.board_query_ms.p99} ms   (n=${day.board_query_ms.n})`,
    );
    console.log(`ranks equal to a brute-force count: ${day.brute_force_ranks_equal}`);
    const bytes = day.bytes_per_entry;
    console.log(
      `bytes per entry: row ${bytes.row} + indexes ${bytes.indexes} + buckets ${bytes.buckets} + replay ${replay.mean_deflated} (deflated; ${replay.mean_json} as JSON, mean of ${replay.games} real games)`,
    );
  }
}

async function main() {
  const { values } = parseArgs({
    options: {
      rate: { type: "string", default: "200" },
      seconds: { type: "string", default: "60" },
      "blobs-root": { type: "string" },
      "blobs-seconds": { type: "string", default: "20" },
      "day-entries": { type: "string", default: "1000000" },
      queries: { type: "string", default: "1000" },
      json: { type: "boolean", default: false },
      svg: { type: "string" },
    },
  });
  const date = datesAround(Date.now()).today;
  const rate = Number(values.rate);
  const report = { machine: { cpus: os.cpus().length, load: os.loadavg().map((l) => round(l, 2)) } };
  if (values["blobs-root"]) {
    report.blobs = await sustainedBlobs({
      root: path.resolve(values["blobs-root"]),
      rate,
      seconds: Number(values["blobs-seconds"]),
      date,
    });
    console.error(`blobs: ${JSON.stringify({ ...report.blobs, per_second: undefined })}`);
  }
  report.postgres = await sustainedPostgres({ rate, seconds: Number(values.seconds), date });
  console.error(`postgres: ${JSON.stringify({ ...report.postgres, per_second: undefined })}`);
  report.replay = realReplayBytes(date);
  const dayEntries = Number(values["day-entries"]);
  if (dayEntries > 0) {
    report.day = await bigDay({
      count: dayEntries,
      queries: Number(values.queries),
      date,
      replayBytes: report.replay.mean_deflated,
    });
  }
  report.machine.load_after = os.loadavg().map((l) => round(l, 2));
  if (values.json) console.log(JSON.stringify(report, null, 2));
  else printReport(report);
  if (values.svg) writeFileSync(values.svg, chartSvg(report));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(error.stack ?? error);
    process.exit(1);
  });
}

// The daily board at scale, on loopback against the real local Blobs server: N submissions through the scores
// handler (the stand-in judge: judging costs the same at any board size and bench_scores.mjs measures it), merges
// running as in production, then every entry checked: none lost, every entry's rank equal to a brute-force count
// (all of them from the store, a sample through the API).
// Prints the sustained rate, p50/p99 per tenth of the run (does a submission cost more on a bigger board?), the
// Blobs requests per submission, and progress lines on stderr; gives up, with what it saw, when no submission
// completes for --stall-s seconds.
// Usage: node benchmarks/bench_board.mjs [--count 100000] [--concurrency 32] [--json] [--svg docs/board-scale.svg]
import { writeFileSync } from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { bucketOf, compareBuckets, mergedRank } from "../netlify/functions/scores/board.mjs";
import {
  datesAround,
  getRequest,
  postRequest,
  standInEngine,
  standInReplay,
  startTestApi,
  timedPool,
} from "../netlify/functions/scores/fixtures.mjs";

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const round = (value) => Math.round(value * 10) / 10;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A small deterministic generator, so two runs send the same scores. */
function generator(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Scores spread like a real day's: most games won between 500 and 2,000, some lost at 25 a pile. */
function submissionsOf(count, date) {
  const random = generator(20261130);
  return Array.from({ length: count }, (_, at) => {
    const won = random() < 0.7;
    const score = won ? 500 + Math.floor(random() * 1500) : 25 * Math.floor(random() * 40);
    const id = `bench${String(at).padStart(11, "0")}`;
    return { id, name: `P${at}`, date, score, replay: standInReplay({ score, won, actions: [id] }) };
  });
}

/** The (won, score) bucket a submission's game ranks in. */
const bucketOfSent = (one) => bucketOf(one.replay.stand_in.won, one.score);

/** Counts the Blobs requests the store makes, by method. */
function countingFetch() {
  const counts = { GET: 0, PUT: 0, DELETE: 0 };
  return {
    counts,
    fetch: (url, init = {}) => {
      const method = String(init.method ?? "GET").toUpperCase();
      counts[method] = (counts[method] ?? 0) + 1;
      return fetch(url, init);
    },
  };
}

/** Counts what the handler logs as failed (store faults, failed merges) while `run` runs; keeps the first few. */
async function countingLoggedFailures(run) {
  const logged = { count: 0, first: [] };
  const original = console.error;
  console.error = (...parts) => {
    logged.count += 1;
    if (logged.first.length < 5) logged.first.push(parts.map(String).join(" ").slice(0, 200));
  };
  try {
    return { result: await run(), logged };
  } finally {
    console.error = original;
  }
}

/**
 * Brute force: for each (won, score) bucket, how many entries rank above it and how many share it. An entry's rank
 * is right when it is above + 1 .. above + tied (ties go to the entry merged first).
 */
function bruteForce(sent) {
  const tied = new Map();
  for (const one of sent) {
    const bucket = bucketOfSent(one);
    tied.set(bucket, (tied.get(bucket) ?? 0) + 1);
  }
  const buckets = [...tied.keys()].sort(compareBuckets);
  const above = new Map();
  let sum = 0;
  for (const bucket of buckets) {
    above.set(bucket, sum);
    sum += tied.get(bucket);
  }
  return {
    tied,
    above,
    range: (one) => [above.get(bucketOfSent(one)) + 1, above.get(bucketOfSent(one)) + tied.get(bucketOfSent(one))],
  };
}

/**
 * Every entry checked in the store itself: the summary's count of each bucket is the brute-force one, and each
 * entry's place, read from the store, gives it a rank (board.mjs's own formula) within its brute-force range, no
 * two entries the same. Resolves to { checked, wrong: [first few], histogramOk, queued }.
 */
async function checkEveryRank(table, date, sent, truth) {
  const summary = await table.read(`${date}/board`);
  const queued = (await table.keys(`${date}/queue/`)).length;
  const histogramOk =
    Object.keys(summary.counts).length === truth.tied.size &&
    [...truth.tied].every(([bucket, count]) => summary.counts[bucket] === count);
  const lastMerged = new Map(summary.merged.map((entry) => [entry.id, entry]));
  const wrong = [];
  const taken = new Set();
  await timedPool(sent.length, 64, async (at) => {
    const one = sent[at];
    const where = (await table.read(`${date}/places/${one.id}`)) ?? lastMerged.get(one.id);
    const rank = where ? mergedRank(summary, [], where) : null;
    const [low, high] = truth.range(one);
    if (rank === null || rank < low || rank > high || taken.has(rank)) {
      wrong.push(`${one.id}: ${rank}, expected ${low}..${high}${taken.has(rank) ? " (taken twice)" : ""}`);
    }
    taken.add(rank);
  });
  return {
    checked: sent.length - wrong.length,
    wrong: wrong.slice(0, 5),
    wrongCount: wrong.length,
    histogramOk,
    queued,
    summary,
  };
}

const removeLater = [];

/** Deletes the runs' Blobs folders (after the report is out: 100,000 entries take minutes to delete). */
export function removeRunData() {
  for (const remove of removeLater.splice(0)) remove();
}

/**
 * Sends `count` submissions, `concurrency` at a time, through the handler over the real local Blobs server; then
 * lets the merges finish and checks every entry. `progress(line)` hears of each tenth of the run. Rejects when no
 * submission completes for `stallMs`. Resolves to the report.
 */
export async function measureBoard({
  count = 100_000,
  concurrency = 32,
  checkSample = 2000,
  stallMs = 120_000,
  progress = () => {},
} = {}) {
  const nowMs = Date.now();
  const { today } = datesAround(nowMs);
  const counter = countingFetch();
  const api = await startTestApi({
    nowMs,
    getEngine: async () => standInEngine(),
    blobsFetch: counter.fetch,
    boardCacheMs: 1000,
    blobsInChildProcess: true,
  });
  const table = api.storeTable();
  try {
    const sent = submissionsOf(count, today);
    const requestsAt = [];
    const started = performance.now();
    let done = 0;
    let retried = 0;
    let lastDone = performance.now();
    let lastTotal = 0;
    const send = async (at) => {
      // As the page's outbox does: a 503 (the store failed, nothing half-done) is sent again after Retry-After.
      for (let attempt = 0; ; attempt += 1) {
        const response = await api.handle(postRequest(sent[at]));
        const body = await response.json();
        if (response.status === 201 || (response.status === 200 && attempt > 0)) {
          lastTotal = body.total;
          break;
        }
        if (response.status !== 503 || attempt === 20) {
          throw new Error(`submission ${at}: ${response.status} ${JSON.stringify(body)}`);
        }
        retried += 1;
        await sleep(Number(response.headers.get("retry-after")) * 1000);
      }
      done += 1;
      lastDone = performance.now();
      if (done % Math.ceil(count / 10) === 0) {
        requestsAt.push({ at: done, ...counter.counts });
        reportProgress(done, lastTotal).catch(() => {}); // not awaited: no submission's time includes it
      }
    };
    const reportProgress = async (sentSoFar, shownTotal) => {
      const merged = (await table.read(`${today}/board`))?.total ?? 0;
      const seconds = (performance.now() - started) / 1000;
      progress(
        `${sentSoFar.toLocaleString("en")} sent in ${seconds.toFixed(0)} s (${round(sentSoFar / seconds)} a second); ` +
          `board total ${shownTotal.toLocaleString("en")}, ${merged.toLocaleString("en")} merged`,
      );
    };
    let watchdog;
    const stalled = new Promise((_, reject) => {
      watchdog = setInterval(async () => {
        if (performance.now() - lastDone < stallMs) return;
        clearInterval(watchdog);
        const merged = (await table.read(`${today}/board`).catch(() => null))?.total;
        const queued = (await table.keys(`${today}/queue/`).catch(() => [])).length;
        reject(
          new Error(
            `stalled: no submission completed for ${stallMs / 1000} s; ${done} of ${count} sent, ` +
              `${merged} merged, ${queued} queue keys`,
          ),
        );
      }, 1000);
    });
    const { result: latencies, logged } = await countingLoggedFailures(() =>
      Promise.race([timedPool(count, concurrency, send), stalled]).finally(() => clearInterval(watchdog)),
    );
    const sendMs = performance.now() - started;
    // Let the merges finish: a board read starts one while entries are queued.
    let queuedAfterSend = null;
    for (let attempt = 0; attempt < 30; attempt += 1) {
      await api.settle();
      const queued = (await table.keys(`${today}/queue/`)).length;
      queuedAfterSend ??= queued;
      if (queued === 0) break;
      await api.handle(getRequest({ date: today }));
      await sleep(200);
    }
    const read = async (query) => (await api.handle(getRequest(query))).json();
    const view = await read({ date: today });
    const truth = bruteForce(sent);
    const checkStarted = performance.now();
    const every = await checkEveryRank(table, today, sent, truth);
    const checkMs = performance.now() - checkStarted;
    const sample = Array.from({ length: Math.min(checkSample, count) }, (_, at) =>
      Math.floor((at * count) / Math.min(checkSample, count)),
    );
    const wrongApiRanks = [];
    for (const at of sample) {
      const { you } = await read({ date: today, id: sent[at].id });
      const [low, high] = truth.range(sent[at]);
      if (!you || you.rank < low || you.rank > high)
        wrongApiRanks.push(`${sent[at].id}: ${you?.rank}, expected ${low}..${high}`);
    }
    const topTruth = [...sent].sort((a, b) => compareBuckets(bucketOfSent(a), bucketOfSent(b))).slice(0, 50);
    const topOk =
      view.entries.length === Math.min(50, count) &&
      view.entries.every((row, at) => row.score === topTruth[at].score && row.won === topTruth[at].replay.stand_in.won);
    const tenth = Math.ceil(count / 10);
    const deciles = Array.from({ length: 10 }, (_, part) => {
      const slice = latencies.slice(part * tenth, (part + 1) * tenth).sort((a, b) => a - b);
      return slice.length
        ? {
            upTo: Math.min(count, (part + 1) * tenth),
            p50: round(percentile(slice, 50)),
            p99: round(percentile(slice, 99)),
          }
        : null;
    }).filter(Boolean);
    const perSubmission = requestsAt.map((point, part) => {
      const previous = requestsAt[part - 1] ?? { at: 0, GET: 0, PUT: 0, DELETE: 0 };
      const done = point.at - previous.at;
      return {
        upTo: point.at,
        requests: round((point.GET + point.PUT + point.DELETE - previous.GET - previous.PUT - previous.DELETE) / done),
        writes: round((point.PUT + point.DELETE - previous.PUT - previous.DELETE) / done),
      };
    });
    const all = [...latencies].sort((a, b) => a - b);
    return {
      count,
      concurrency,
      sendMs: Math.round(sendMs),
      rate: round(count / (sendMs / 1000)),
      p50: round(percentile(all, 50)),
      p99: round(percentile(all, 99)),
      total: every.summary.total,
      shownTotal: view.total,
      lost: count - every.summary.total,
      queuedAfterSend,
      queuedAtEnd: every.queued,
      histogramOk: every.histogramOk,
      ranksChecked: every.checked,
      wrongRanks: every.wrong,
      wrongRankCount: every.wrongCount,
      checkMs: Math.round(checkMs),
      apiRanksChecked: sample.length - wrongApiRanks.length,
      wrongApiRanks: wrongApiRanks.slice(0, 5),
      retried,
      loggedFailures: logged.count,
      firstLogged: logged.first,
      topOk,
      deciles,
      perSubmission,
      summaryBytes: JSON.stringify(every.summary).length,
      machine: `${os.cpus().length} cores, load ${os
        .loadavg()
        .map((x) => x.toFixed(1))
        .join(" ")}, node ${process.version}`,
    };
  } finally {
    await api.close();
    removeLater.push(() => api.remove());
  }
}

/** Two small line charts, one above the other: latency p50 and p99, and Blobs requests per submission, per tenth. */
export function chartSvg(report) {
  const width = 640;
  const panel = { height: 220, left: 56, right: 32, top: 40, bottom: 36 };
  const height = panel.height * 2 + 10;
  const x = (at) => panel.left + (at / report.count) * (width - panel.left - panel.right);
  const plot = (top, title, series, maxY, format) => {
    const y = (value) => top + panel.height - panel.bottom - (value / maxY) * (panel.height - panel.top - panel.bottom);
    const ticks = [0, 0.25, 0.5, 0.75, 1]
      .map((share) => {
        const value = maxY * share;
        return (
          `<text x="${panel.left - 6}" y="${(y(value) + 4).toFixed(1)}" text-anchor="end">${format(value)}</text>` +
          `<line x1="${panel.left}" x2="${width - panel.right}" y1="${y(value).toFixed(1)}" y2="${y(value).toFixed(1)}" stroke="#ddd"/>`
        );
      })
      .join("");
    const lines = series
      .map(({ points, color, dash, label }) => {
        const path = points.map(([at, value]) => `${x(at).toFixed(1)},${y(value).toFixed(1)}`).join(" ");
        const [lastAt, lastValue] = points.at(-1);
        return (
          `<polyline fill="none" stroke="${color}" stroke-width="2"${dash ? ` stroke-dasharray="${dash}"` : ""} points="${path}"/>` +
          `<text x="${x(lastAt) - 4}" y="${(y(lastValue) - 6).toFixed(1)}" text-anchor="end" fill="${color}">${label}</text>`
        );
      })
      .join("");
    return `<text x="${panel.left}" y="${top + 24}" font-size="14">${title}</text>${ticks}${lines}`;
  };
  const xTicks = (top) =>
    report.deciles
      .filter((_, at) => at % 2 === 1)
      .map(
        (point) =>
          `<text x="${x(point.upTo).toFixed(1)}" y="${top + panel.height - panel.bottom + 16}" text-anchor="middle">${point.upTo.toLocaleString("en")}</text>`,
      )
      .join("");
  const maxLatency = Math.max(...report.deciles.map((point) => point.p99)) * 1.15;
  const maxRequests = Math.max(...report.perSubmission.map((point) => point.requests)) * 1.3;
  const latency = plot(
    0,
    `Submission latency (ms) as the board grows to ${report.count.toLocaleString("en")} entries`,
    [
      { points: report.deciles.map((point) => [point.upTo, point.p50]), color: "#1f77b4", label: "p50" },
      { points: report.deciles.map((point) => [point.upTo, point.p99]), color: "#d62728", dash: "5 3", label: "p99" },
    ],
    maxLatency,
    (value) => value.toFixed(0),
  );
  const requests = plot(
    panel.height,
    "Blobs requests per submission (its own and its share of merges and board reads)",
    [
      {
        points: report.perSubmission.map((point) => [point.upTo, point.requests]),
        color: "#2ca02c",
        label: "requests",
      },
      {
        points: report.perSubmission.map((point) => [point.upTo, point.writes]),
        color: "#9467bd",
        dash: "5 3",
        label: "writes",
      },
    ],
    maxRequests,
    (value) => value.toFixed(1),
  );
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" ` +
    `font-size="12" viewBox="0 0 ${width} ${height}">
<title>The daily board at scale: latency and cost per submission as the board grows</title>
<rect width="${width}" height="${height}" fill="#fff"/>
${latency}${xTicks(0)}
${requests}${xTicks(panel.height)}
<text x="${(width + panel.left) / 2}" y="${height - 4}" text-anchor="middle">entries on the board</text>
</svg>
`
  );
}

function printReport(report) {
  const n = (value) => value.toLocaleString("en");
  console.log(
    `${n(report.count)} submissions, ${report.concurrency} at a time, over the local Blobs server: ` +
      `${report.rate} a second sustained (${(report.sendMs / 1000).toFixed(1)} s); p50 ${report.p50} ms, p99 ${report.p99} ms`,
  );
  console.log(
    `Board afterwards: total ${n(report.total)} (lost ${report.lost}); ${n(report.queuedAfterSend)} entries were ` +
      `still queued once the merges started during the run had ended, ${report.queuedAtEnd} at the end; histogram ` +
      `${report.histogramOk ? "equal to the brute-force one" : "WRONG"}; top 50 ${report.topOk ? "right" : "WRONG"}`,
  );
  console.log(
    `Ranks: ${n(report.ranksChecked)} of ${n(report.count)} from the store equal to a brute-force count` +
      `${report.wrongRankCount ? ` (${report.wrongRankCount} WRONG: ${report.wrongRanks.join("; ")})` : ""} ` +
      `(checked in ${(report.checkMs / 1000).toFixed(1)} s); ${n(report.apiRanksChecked)} sampled through the API` +
      `${report.wrongApiRanks.length ? ` (WRONG: ${report.wrongApiRanks.join("; ")})` : " equal too"}`,
  );
  console.log(
    `Submissions answered 503 and sent again (as the outbox does): ${report.retried}; failures the handler logged: ` +
      `${report.loggedFailures}${report.firstLogged.length ? ` (first: ${report.firstLogged.join(" | ")})` : ""}`,
  );
  console.log(`The summary blob at the end: ${n(report.summaryBytes)} bytes`);
  console.log("Per tenth of the run (board size → latency p50 / p99, Blobs requests and writes per submission):");
  for (const [at, point] of report.deciles.entries()) {
    const cost = report.perSubmission[at];
    console.log(
      `  up to ${String(point.upTo).padStart(7)}: ${String(point.p50).padStart(6)} / ${String(point.p99).padStart(
        6,
      )} ms; ${cost?.requests ?? "?"} requests, ${cost?.writes ?? "?"} writes`,
    );
  }
  console.log(`Machine: ${report.machine}`);
}

/** Whether the run kept every promise: nothing lost or left queued, every rank exact, the top 50 right. */
export const boardHeld = (report) =>
  report.lost === 0 &&
  report.queuedAtEnd === 0 &&
  report.histogramOk &&
  report.wrongRankCount === 0 &&
  report.wrongApiRanks.length === 0 &&
  report.topOk;

async function main() {
  const { values } = parseArgs({
    options: {
      count: { type: "string", default: "100000" },
      concurrency: { type: "string", default: "32" },
      "stall-s": { type: "string", default: "120" },
      json: { type: "boolean", default: false },
      svg: { type: "string" },
    },
  });
  const report = await measureBoard({
    count: Number(values.count),
    concurrency: Number(values.concurrency),
    stallMs: Number(values["stall-s"]) * 1000,
    progress: (line) => process.stderr.write(`${line}\n`),
  });
  if (values.json) console.log(JSON.stringify(report));
  else printReport(report);
  if (values.svg) writeFileSync(values.svg, chartSvg(report));
  removeRunData();
  if (!boardHeld(report)) process.exitCode = 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    await main();
  } catch (error) {
    console.error(error.message);
    removeRunData();
    process.exitCode = 1;
  }
  process.exit(process.exitCode ?? 0);
}

// The daily board at scale, on loopback against the real local Blobs server: N submissions through the scores
// handler (the stand-in judge: judging costs the same at any board size and bench_scores.mjs measures it), merges
// running as in production, then every entry checked: none lost, ranks equal to a brute-force count.
// Prints the sustained rate, p50/p99 per tenth of the run (does a submission cost more on a bigger board?), the
// Blobs requests per submission, and the summary's size.
// Usage: node benchmarks/bench_board.mjs [--count 100000] [--concurrency 32] [--json] [--svg docs/board-scale.svg]
import { writeFileSync } from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
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

/** The order the board must show: wins first, higher score, then the order entries were merged (arrival). */
function bruteForceRanks(sent, answers) {
  const rows = sent.map((one, at) => ({
    id: one.id,
    won: one.replay.stand_in.won,
    score: one.score,
    received: answers[at].received_at,
  }));
  return rows;
}

/**
 * Sends `count` submissions, `concurrency` at a time, through the handler over the real local Blobs server; then
 * settles the merges and checks every entry. Resolves to the report.
 */
export async function measureBoard({ count = 100_000, concurrency = 32, checkSample = 2000 } = {}) {
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
  try {
    const sent = submissionsOf(count, today);
    const answers = new Array(count);
    const requestsAt = [];
    const started = performance.now();
    let done = 0;
    const latencies = await timedPool(count, concurrency, async (at) => {
      const response = await api.handle(postRequest(sent[at]));
      const body = await response.json();
      if (response.status !== 201) throw new Error(`submission ${at}: ${response.status} ${JSON.stringify(body)}`);
      answers[at] = body;
      done += 1;
      if (done % Math.ceil(count / 10) === 0) requestsAt.push({ at: done, ...counter.counts });
    });
    const sendMs = performance.now() - started;
    await api.settle();
    const read = async (query) => (await api.handle(getRequest(query))).json();
    await read({ date: today });
    await api.settle();
    const view = await read({ date: today });
    const truth = bruteForceRanks(sent, answers);
    const better = (a, b) => (a.won !== b.won ? a.won : a.score !== b.score ? a.score > b.score : false);
    const sample = Array.from({ length: Math.min(checkSample, count) }, (_, at) =>
      Math.floor((at * count) / Math.min(checkSample, count)),
    );
    let ranksChecked = 0;
    for (const at of sample) {
      const mine = truth[at];
      const above = truth.filter((other) => better(other, mine)).length;
      const tied = truth.filter((other) => other.won === mine.won && other.score === mine.score).length;
      const { you } = await read({ date: today, id: mine.id });
      if (!you || you.rank <= above || you.rank > above + tied) {
        throw new Error(`rank of ${mine.id}: ${you?.rank}, expected ${above + 1}..${above + tied}`);
      }
      ranksChecked += 1;
    }
    const topTruth = [...truth].sort((a, b) => Number(b.won) - Number(a.won) || b.score - a.score).slice(0, 50);
    const topOk = view.entries.every((row, at) => row.score === topTruth[at].score && row.won === topTruth[at].won);
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
      total: view.total,
      lost: count - view.total,
      ranksChecked,
      topOk,
      deciles,
      perSubmission,
      machine: `${os.cpus().length} cores, load ${os
        .loadavg()
        .map((x) => x.toFixed(1))
        .join(" ")}, node ${process.version}`,
    };
  } finally {
    await api.close();
    api.remove();
  }
}

/** A small line chart of p50 and p99 per tenth of the run (SVG, no dependencies). */
export function chartSvg(report) {
  const width = 640;
  const height = 300;
  const pad = { left: 56, right: 16, top: 36, bottom: 44 };
  const maxY = Math.max(...report.deciles.map((point) => point.p99)) * 1.15;
  const x = (at) => pad.left + (at / report.count) * (width - pad.left - pad.right);
  const y = (ms) => height - pad.bottom - (ms / maxY) * (height - pad.top - pad.bottom);
  const line = (key) =>
    report.deciles.map((point) => `${x(point.upTo).toFixed(1)},${y(point[key]).toFixed(1)}`).join(" ");
  const ticks = [0, 0.25, 0.5, 0.75, 1]
    .map((share) => {
      const ms = maxY * share;
      return (
        `<text x="${pad.left - 6}" y="${y(ms) + 4}" text-anchor="end">${ms.toFixed(0)}</text>` +
        `<line x1="${pad.left}" x2="${width - pad.right}" y1="${y(ms)}" y2="${y(ms)}" stroke="#ddd"/>`
      );
    })
    .join("");
  const xTicks = report.deciles
    .filter((_, at) => at % 2 === 1)
    .map(
      (point) =>
        `<text x="${x(point.upTo)}" y="${height - pad.bottom + 16}" text-anchor="middle">${point.upTo.toLocaleString(
          "en",
        )}</text>`,
    )
    .join("");
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" ` +
    `font-size="12" viewBox="0 0 ${width} ${height}">
<title>Submission latency as the board grows</title>
<text x="${pad.left}" y="20" font-size="14">Submission latency (ms) as the board grows to ${report.count.toLocaleString(
      "en",
    )} entries</text>
${ticks}${xTicks}
<text x="${(width + pad.left) / 2}" y="${height - 8}" text-anchor="middle">entries on the board</text>
<polyline fill="none" stroke="#1f77b4" stroke-width="2" points="${line("p50")}"/>
<polyline fill="none" stroke="#d62728" stroke-width="2" stroke-dasharray="5 3" points="${line("p99")}"/>
<text x="${width - pad.right - 4}" y="${y(report.deciles.at(-1).p50) - 6}" text-anchor="end" fill="#1f77b4">p50</text>
<text x="${width - pad.right - 4}" y="${y(report.deciles.at(-1).p99) - 6}" text-anchor="end" fill="#d62728">p99</text>
</svg>
`
  );
}

function printReport(report) {
  console.log(
    `${report.count.toLocaleString("en")} submissions, ${report.concurrency} at a time, over the local ` +
      `Blobs server: ${report.rate} a second sustained (${(report.sendMs / 1000).toFixed(1)} s); p50 ${report.p50} ms, ` +
      `p99 ${report.p99} ms`,
  );
  console.log(
    `Board afterwards: total ${report.total.toLocaleString("en")} (lost ${report.lost}); ` +
      `${report.ranksChecked} ranks equal to a brute-force count; top 50 ${report.topOk ? "right" : "WRONG"}`,
  );
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

async function main() {
  const { values } = parseArgs({
    options: {
      count: { type: "string", default: "100000" },
      concurrency: { type: "string", default: "32" },
      json: { type: "boolean", default: false },
      svg: { type: "string" },
    },
  });
  const report = await measureBoard({ count: Number(values.count), concurrency: Number(values.concurrency) });
  if (values.json) console.log(JSON.stringify(report));
  else printReport(report);
  if (values.svg) writeFileSync(values.svg, chartSvg(report));
  if (report.lost !== 0 || !report.topOk) process.exitCode = 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await main();
  process.exit(process.exitCode ?? 0);
}

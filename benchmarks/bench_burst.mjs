// The midnight burst against the database (issue 32): function instances as separate processes (burst_instance.mjs),
// twice as many as the database lets the functions connect, post distinct records for a while; each player
// (one player an instance, so an answer's time is the instance's, not a queue's) sends its records as the page's outbox does (web/common/retry-policy.js: a 503 or 429 is sent again after its
// Retry-After). Prints, for each way of reaching the database, the answers, their p50/p99, the peak of
// connections and what was lost (a record never answered 2xx, or answered but not on the board).
//
// Scaled down for a 2-core machine: 20 instances against 10 connections stand for 200 against 100. The judge is
// the test stand-in (tools/harness/fixtures.mjs: it accepts any well-formed stand-in record at once), so the 2 cores
// go to the database and the instances, not to 20 copies of Pyodide; bench_scores.mjs measures judging.
//
// python -m tools.builder.postgres --max-connections 13 -- node benchmarks/bench_burst.mjs [--seconds 60]
//   (13: 10 for the functions' role, 3 kept for superusers: the benchmark's watcher and its checks)
import { fork } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { nameKey } from "../netlify/lib/lookalike.mjs";
import { standInReplay } from "../tools/harness/fixtures.mjs";
import { freshDatabase } from "../tools/harness/testdb.mjs";
import { utcDay } from "../web/common/contract.js";
import { isDecided, waitAfter } from "../web/common/retry-policy.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROLE = "burst_fn";
const ORIGIN = "http://127.0.0.1:8132";

const { values: options } = parseArgs({
  options: {
    seconds: { type: "string", default: "60" },
    modes: { type: "string", default: "per-statement,pool-of-one" },
    instances: { type: "string" },
  },
});

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The functions' own role (no superuser: the server's max_connections less its reserved ones is its limit). */
async function functionsUrl(fresh) {
  const url = new URL(fresh.url);
  await fresh.pool.query(`DO $$ BEGIN
      IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${ROLE}') THEN CREATE ROLE ${ROLE} LOGIN; END IF;
    END $$`);
  await fresh.pool.query(`GRANT ALL ON ALL TABLES IN SCHEMA public TO ${ROLE}`);
  await fresh.pool.query(`GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO ${ROLE}`);
  url.username = ROLE;
  return url.toString();
}

async function connectionLimit(pool) {
  const { rows } = await pool.query(
    "SELECT current_setting('max_connections')::int AS max, current_setting('superuser_reserved_connections')::int AS kept",
  );
  return rows[0].max - rows[0].kept;
}

/** Distinct records: their own id, name (look-alike key), game; half carry a player id (friends' boards). */
function* records(date, tag) {
  const keys = new Set();
  for (let k = 0; ; k += 1) {
    const name = `Burst ${tag}${k}`;
    if (keys.has(nameKey(name))) continue;
    keys.add(nameKey(name));
    const score = (k * 37) % 2500;
    yield {
      id: `burst-${tag}-${String(k).padStart(10, "0")}`,
      name,
      date,
      score,
      replay: standInReplay({ score, won: k % 3 !== 0, actions: [`${tag}${k}`] }),
      ...(k % 2 ? { player: `burst-player-${String(k % 400).padStart(6, "0")}` } : {}),
    };
  }
}

/** The instances, and a dispatcher that gives each request to an idle one (FIFO when all are busy). */
async function startInstances(count, mode, url) {
  const instances = [];
  const idle = [];
  const waiting = [];
  const pendingAnswers = new Map();
  let n = 0;
  for (let at = 0; at < count; at += 1) {
    const child = fork(path.join(HERE, "burst_instance.mjs"), [], {
      env: { ...process.env, BURST_MODE: mode, BURST_DATABASE_URL: url },
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    await new Promise((resolve, reject) => {
      child.once("message", resolve);
      child.once("exit", (code) => reject(new Error(`instance exited with ${code}`)));
    });
    child.on("message", (answer) => {
      pendingAnswers.get(answer.n)(answer);
      pendingAnswers.delete(answer.n);
      const next = waiting.shift();
      if (next) next(child);
      else idle.push(child);
    });
    instances.push(child);
    idle.push(child);
  }
  const freeInstance = () => (idle.length ? Promise.resolve(idle.pop()) : new Promise((r) => waiting.push(r)));
  return {
    async send(request) {
      const child = await freeInstance();
      n += 1;
      const answer = new Promise((resolve) => pendingAnswers.set(n, resolve));
      child.send({ n, ...request });
      return answer;
    },
    stop() {
      for (const child of instances) child.disconnect();
    },
  };
}

async function runMode(mode, seconds, requestedInstances) {
  const fresh = await freshDatabase({ max: 1 });
  try {
    const url = await functionsUrl(fresh);
    const limit = await connectionLimit(fresh.pool);
    const count = requestedInstances ?? 2 * limit;
    if (count < 2 * limit) throw new Error(`${count} instances: the burst needs at least twice the ${limit} allowed`);
    const instances = await startInstances(count, mode, url);
    const date = utcDay(Date.now());
    const source = records(date, mode === "per-statement" ? "s" : "p");
    const answers = { created: 0, repeated: 0, retried: 0, retriedWithoutRetryAfter: 0, other: {} };
    const latencies = [];
    const deliveries = [];
    const delivered = [];
    const failed = [];
    let peak = 0;
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        const { rows } = await fresh.pool.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE usename = $1", [
          ROLE,
        ]);
        peak = Math.max(peak, rows[0].n);
        await sleep(50);
      }
    })();
    const started = performance.now();
    const deadline = started + seconds * 1000;
    const player = async () => {
      while (performance.now() < deadline) {
        const record = source.next().value;
        const body = JSON.stringify(record);
        const first = performance.now();
        for (;;) {
          const sent = performance.now();
          const answer = await instances.send({
            url: `${ORIGIN}/api/scores`,
            method: "POST",
            headers: { "content-type": "application/json" },
            body,
          });
          latencies.push(performance.now() - sent);
          if (isDecided(answer.status)) {
            if (answer.status === 201) answers.created += 1;
            else if (answer.status === 200) answers.repeated += 1;
            else answers.other[answer.status] = (answers.other[answer.status] ?? 0) + 1;
            if (answer.status >= 200 && answer.status < 300) delivered.push(record.id);
            else failed.push(record.id);
            deliveries.push(performance.now() - first);
            break;
          }
          answers.retried += 1;
          if (answer.status !== 503 || !answer.retryAfter) {
            answers.retriedWithoutRetryAfter += 1;
            answers.other[answer.status] = (answers.other[answer.status] ?? 0) + 1;
          }
          await sleep(waitAfter(answer.status, answer.retryAfter));
        }
      }
    };
    await Promise.all(Array.from({ length: count }, player));
    const elapsed = (performance.now() - started) / 1000;
    watching = false;
    await watcher;
    instances.stop();
    const { rows } = await fresh.pool.query("SELECT id FROM entries WHERE day = $1::date", [date]);
    const stored = new Set(rows.map((row) => row.id));
    const missing = delivered.filter((id) => !stored.has(id)).length;
    latencies.sort((a, b) => a - b);
    deliveries.sort((a, b) => a - b);
    return {
      mode,
      count,
      limit,
      elapsed,
      answers,
      delivered: delivered.length,
      stored: stored.size,
      lost: missing + failed.length,
      peak,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      deliveryP99: percentile(deliveries, 99),
    };
  } finally {
    await fresh.drop();
  }
}

const seconds = Number(options.seconds);
const requested = options.instances ? Number(options.instances) : undefined;
const results = [];
for (const mode of options.modes.split(",")) results.push(await runMode(mode, seconds, requested));
console.log(
  `Burst: ${results[0].count} function instances (one process each, one request at a time) against a PostgreSQL ` +
    `that lets them open ${results[0].limit} connections (scaled down 10x from 200 against 100), ${seconds} s each`,
);
for (const r of results) {
  const other = Object.entries(r.answers.other)
    .map(([status, n]) => `${n}x${status}`)
    .join(" ");
  console.log(
    `  ${r.mode.padEnd(13)} ${r.delivered} records delivered (${(r.delivered / r.elapsed).toFixed(1)}/s), ` +
      `${r.stored} on the board, lost ${r.lost}; answers: ${r.answers.created} 201, ${r.answers.repeated} 200, ` +
      `${r.answers.retried} 503+Retry-After sent again${other ? `, other: ${other}` : ""}; ` +
      `answer p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms; delivery p99 ${r.deliveryP99.toFixed(0)} ms; ` +
      `peak connections ${r.peak}/${r.limit}`,
  );
}
console.log(
  `Machine: ${os.cpus().length} cores, load average ${os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(" ")}`,
);
const bad = results.some(
  (r) => r.lost > 0 || r.answers.retriedWithoutRetryAfter > 0 || Object.keys(r.answers.other).length,
);
process.exit(bad ? 1 : 0);

// The engine inside Pyodide in Node (the runtime the page and the scores function use), loaded through the shared
// host (web/common/host.js) and driven only through the bridge, as the page drives it: the load, one frame()
// call, whole games played from JavaScript at the page's call pattern, and the replay and judge calls the
// function makes. The same records are then replayed by CPython (benchmarks/engine_throughput.py
// --verify-records), so the last line is a ratio, which this noisy machine measures better than a time.
//   node benchmarks/engine_in_pyodide.mjs [--games 20]      (after `python build.py build`)
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { loadPyodide } from "pyodide";
import { loadEngineFromWheel } from "../web/common/host.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DAILY = "2026-11-30";

function percentile(sorted, share) {
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))];
}

function median(values) {
  return percentile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
}

/** A small seeded generator (mulberry32), so every run plays the same games. */
function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 15), z | 1);
    z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
    return ((z ^ (z >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Plays one game as the page does: a frame at each wake-up, a flip 350 ms after the turn shows, and now and then
 * a slap at a random moment (the player knows no rule: the engine judges every slap). Returns the record and the
 * number of bridge calls.
 */
function playFromJs(session, random) {
  let time = 0;
  let calls = 0;
  for (;;) {
    const { view } = JSON.parse(session.frame(time));
    calls += 1;
    if (view.over) break;
    if (view.your_turn) {
      JSON.parse(session.flip(time + 350));
      calls += 1;
      time += 350;
      continue;
    }
    if (random() < 0.15) {
      JSON.parse(session.slap(time + Math.floor(random() * 600)));
      calls += 1;
    }
    time = Math.max(time + 1, view.wake_at ?? time + 1000);
  }
  return { record: session.replay(), calls };
}

function timeIt(run, repeats) {
  const times = [];
  for (let i = 0; i < repeats; i += 1) {
    const started = performance.now();
    run();
    times.push(performance.now() - started);
  }
  return median(times);
}

function cpythonVerify(records) {
  const dir = mkdtempSync(path.join(tmpdir(), "ewar-bench-"));
  try {
    const file = path.join(dir, "records.json");
    writeFileSync(file, JSON.stringify(records));
    const python = process.env.PYTHON ?? "python3";
    const script = path.join(ROOT, "benchmarks", "engine_throughput.py");
    const run = spawnSync(python, [script, "--verify-records", file], { encoding: "utf8" });
    if (run.status !== 0) throw new Error(`CPython replay failed: ${run.stderr}`);
    return JSON.parse(run.stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const { values } = parseArgs({ options: { games: { type: "string", default: "20" } } });
const games = Number(values.games);
const info = JSON.parse(readFileSync(path.join(ROOT, "dist", "build-info.json"), "utf8"));
const engineWheel = new Uint8Array(readFileSync(path.join(ROOT, "dist", info.engine_wheel)));
const indexURL = `${path.join(ROOT, "node_modules", "pyodide")}${path.sep}`;

let started = performance.now();
const { pyodide, bridge } = await loadEngineFromWheel({ loadPyodide, indexURL, engineWheel });
console.log(
  `Pyodide ${pyodide.version} + engine ${bridge.ENGINE_VERSION} loaded from the wheel (host.js) in ` +
    `${(performance.now() - started).toFixed(0)} ms`,
);

const session = bridge.new_game("practice", 3, "normal", false, null);
const costs = [];
for (let step = 0; step < 5000; step += 1) {
  const before = performance.now();
  JSON.parse(session.frame(step * 16));
  costs.push(performance.now() - before);
}
costs.sort((a, b) => a - b);
console.log(
  `one page call, frame() + JSON.parse: median ${(percentile(costs, 0.5) * 1000).toFixed(0)} us, ` +
    `p99 ${(percentile(costs, 0.99) * 1000).toFixed(0)} us`,
);

const random = seededRandom(20261130);
const records = [];
let calls = 0;
started = performance.now();
for (let seed = 0; seed < games; seed += 1) {
  const played = playFromJs(bridge.new_game("practice", seed, "normal", false, null), random);
  records.push(played.record);
  calls += played.calls;
}
const playSeconds = (performance.now() - started) / 1000;
console.log(
  `${games} whole games played from JS through the bridge: ${(games / playSeconds).toFixed(1)} games/s ` +
    `(${calls} calls, ${((playSeconds * 1e6) / calls).toFixed(0)} us a call)`,
);

const longest = records.reduce((a, b) => (JSON.parse(a).actions.length >= JSON.parse(b).actions.length ? a : b));
const verifyMs = timeIt(() => bridge.verify(longest), 10);
console.log(`verify the longest record (${JSON.parse(longest).actions.length} actions): ${verifyMs.toFixed(1)} ms`);

const daily = playFromJs(bridge.new_game("daily", 0, "normal", false, DAILY), random).record;
const verdict = JSON.parse(bridge.judge_daily(daily, DAILY, null));
const judgeMs = timeIt(() => bridge.judge_daily(daily, DAILY, null), 10);
console.log(
  `judge_daily of a daily record (${JSON.parse(daily).actions.length} actions, ` +
    `${verdict.ok ? "accepted" : `refused: ${verdict.error.code}`}): ${judgeMs.toFixed(1)} ms`,
);

started = performance.now();
for (const record of records) bridge.verify(record);
const pyodideMs = performance.now() - started;
const cpython = cpythonVerify(records);
console.log(
  `replaying all ${records.length} records: Pyodide ${pyodideMs.toFixed(0)} ms, CPython ` +
    `${cpython.total_ms.toFixed(0)} ms (Pyodide / CPython = ${(pyodideMs / cpython.total_ms).toFixed(2)})`,
);
process.exit(0);

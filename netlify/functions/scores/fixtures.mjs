// Test and benchmark fixtures: a wheel of the current engine sources, CPython-made replays, a local API in a temp dir.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startLocalApi } from "../../local.mjs";
import { loadEngine } from "./engine.mjs";
import { utcDay } from "./submission.mjs";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const PYTHON = process.env.PYTHON ?? "python3";
const DAY_MS = 86_400_000;

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.name !== "__pycache__")
    .flatMap((entry) => (entry.isDirectory() ? sourceFiles(path.join(dir, entry.name)) : [path.join(dir, entry.name)]))
    .sort();
}

function sourceHash() {
  const hash = createHash("sha256");
  for (const file of [path.join(ROOT, "pyproject.toml"), ...sourceFiles(path.join(ROOT, "ewar"))]) {
    hash.update(path.relative(ROOT, file)).update(readFileSync(file));
  }
  return hash.digest("hex").slice(0, 16);
}

/** A wheel of the engine as it is in ewar/ now (cached by content under build/cache/function-test/). */
export function buildTestWheel() {
  const out = path.join(ROOT, "build", "cache", "function-test", sourceHash());
  const existing = existsSync(out) ? readdirSync(out).filter((name) => name.endsWith(".whl")) : [];
  if (existing.length === 1) return path.join(out, existing[0]);
  const stage = mkdtempSync(path.join(os.tmpdir(), "ewar-stage-"));
  try {
    cpSync(path.join(ROOT, "ewar"), path.join(stage, "ewar"), {
      recursive: true, filter: (source) => !source.includes("__pycache__"),
    });
    cpSync(path.join(ROOT, "pyproject.toml"), path.join(stage, "pyproject.toml"));
    for (const file of ["docs/wheel-readme.md", "LICENSE"]) {
      mkdirSync(path.dirname(path.join(stage, file)), { recursive: true });
      cpSync(path.join(ROOT, file), path.join(stage, file));
    }
    rmSync(out, { recursive: true, force: true });
    mkdirSync(out, { recursive: true });
    execFileSync(PYTHON, ["-m", "pip", "wheel", stage, "--no-deps", "-q", "-w", out],
      { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: "1" } });
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
  return path.join(out, readdirSync(out).find((name) => name.endsWith(".whl")));
}

/** Replays played by the simulated human in CPython (tests/function/replays.py). */
export function pythonReplays(date, plays = ["450:300"]) {
  const script = path.join(ROOT, "tests", "function", "replays.py");
  const output = execFileSync(PYTHON, [script, "--date", date, "--plays", ...plays],
    { cwd: ROOT, maxBuffer: 64 * 2 ** 20, encoding: "utf8" });
  return JSON.parse(output);
}

export function datesAround(nowMs) {
  return {
    today: utcDay(nowMs), yesterday: utcDay(nowMs - DAY_MS), tomorrow: utcDay(nowMs + DAY_MS),
    older: utcDay(nowMs - 2 * DAY_MS),
  };
}

let counter = 0;
/** A fresh submission id (24 characters from the allowed set). */
export function newId(prefix = "t") {
  counter += 1;
  const random = createHash("sha256").update(`${process.pid}:${Date.now()}:${counter}:${Math.random()}`)
    .digest("base64url");
  return `${prefix}${random}`.slice(0, 24);
}

let testEngine = null;
/** One engine for all the APIs of a test process (loading Pyodide takes seconds). */
export function sharedTestEngine({ wheelPath = buildTestWheel(), snapshotPath = null } = {}) {
  testEngine ??= loadEngine({ root: ROOT, wheelPath, snapshotPath });
  return testEngine;
}

export const newDataDir = () => mkdtempSync(path.join(os.tmpdir(), "ewar-blobs-"));

/** A local API over a (fresh temporary) Blobs folder, its clock starting at `nowMs`. */
export async function startTestApi({
  nowMs = Date.now(), dataDir = newDataDir(), getEngine = sharedTestEngine, boardCacheMs,
} = {}) {
  const started = performance.now();
  const now = () => nowMs + Math.floor(performance.now() - started);
  const api = await startLocalApi({ dataDir, getEngine: () => getEngine(), now, boardCacheMs });
  return {
    ...api,
    dataDir,
    async close() {
      await api.close();
    },
    remove() {
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const ORIGIN = "http://127.0.0.1:8000";

export function postRequest(body, { contentType = "application/json", headers = {} } = {}) {
  const payload = typeof body === "string" || body instanceof Uint8Array ? body : JSON.stringify(body);
  return new Request(`${ORIGIN}/api/scores`, {
    method: "POST", body: payload, headers: { "content-type": contentType, ...headers },
  });
}

export function getRequest(query) {
  return new Request(`${ORIGIN}/api/scores?${new URLSearchParams(query)}`);
}

/** Files of stored submissions under the local Blobs folder. */
export function storedSubmissionCount(dataDir) {
  const root = path.join(dataDir, "entries");
  if (!existsSync(root)) return 0;
  const walk = (dir) => readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? walk(path.join(dir, entry.name)) : [entry.name]));
  const stores = (site) => readdirSync(path.join(root, site)).filter((name) => /(^|:)ewar-scores$/.test(name))
    .map((name) => path.join(root, site, name));
  const scores = readdirSync(root).flatMap(stores);
  return scores.flatMap(walk).length;
}

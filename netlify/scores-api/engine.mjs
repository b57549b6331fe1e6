// The scores function's engine: finds the runtime, the wheel and the snapshot on disk, loads them through the
// shared Pyodide host (web/common/host.js) and asks the engine's judge for the verdict on a daily record.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import v8 from "node:v8";
import { loadEngineFromWheel, restoreEngine } from "../../web/common/host.js";

/** The snapshot fingerprint format this loader reads (contract D: build/function/engine.snapshot.json). */
export const SNAPSHOT_FORMAT = 1;
const HERE = path.dirname(fileURLToPath(import.meta.url));

/** Candidate project roots: explicit, Lambda task root, working directory, then up from this file. */
function rootCandidates(explicit) {
  const roots = [
    explicit,
    process.env.EWAR_ROOT,
    process.env.LAMBDA_TASK_ROOT,
    process.cwd(),
    path.resolve(HERE, "../.."),
  ];
  return [...new Set(roots.filter(Boolean).map((root) => path.resolve(root)))];
}

function findPyodideDir(roots) {
  for (const root of roots) {
    const dir = path.join(root, "node_modules", "pyodide");
    if (existsSync(path.join(dir, "pyodide.asm.wasm"))) return dir;
  }
  throw new Error("pyodide runtime files not found (node_modules/pyodide)");
}

/** The wheel that dist/build-info.json names (the build's one wheel). */
function findWheel(roots) {
  for (const root of roots) {
    const infoPath = path.join(root, "dist", "build-info.json");
    if (!existsSync(infoPath)) continue;
    const wheel = JSON.parse(readFileSync(infoPath, "utf8")).engine_wheel;
    if (typeof wheel === "string" && /^wheels\/ewar-[^/]+\.whl$/.test(wheel)) {
      const candidate = path.join(root, "dist", wheel);
      if (existsSync(candidate)) return candidate;
    }
  }
  throw new Error("no engine wheel named by dist/build-info.json: run python build.py build");
}

/**
 * The earlier engines the build keeps beside its own (dist/build-info.json's kept_engines, checked by the build
 * step kept_engines): { version: wheel path }. Records of those versions are judged by them (docs/scores.md).
 */
function findKeptWheels(roots) {
  for (const root of roots) {
    const infoPath = path.join(root, "dist", "build-info.json");
    if (!existsSync(infoPath)) continue;
    const kept = JSON.parse(readFileSync(infoPath, "utf8")).kept_engines ?? {};
    return Object.fromEntries(Object.entries(kept).map(([version, wheel]) => [version, path.join(root, wheel)]));
  }
  return {};
}

function findSnapshot(roots) {
  for (const root of roots) {
    const file = path.join(root, "build", "function", "engine.snapshot");
    if (existsSync(file) && existsSync(`${file}.json`)) return file;
  }
  return null;
}

/** Where the runtime, the wheel and (optionally) the snapshot are: explicit options first, then the roots. */
export function locateAssets(options = {}) {
  const roots = rootCandidates(options.root);
  return {
    pyodideDir: options.pyodideDir ?? findPyodideDir(roots),
    wheelPath: options.wheelPath ?? process.env.EWAR_WHEEL ?? findWheel(roots),
    snapshotPath: options.snapshotPath === undefined ? findSnapshot(roots) : options.snapshotPath,
    keptWheels: options.keptWheels ?? findKeptWheels(roots),
  };
}

function readBytes(file) {
  const buffer = readFileSync(file);
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}

const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");

/**
 * V8 first runs wasm in its baseline tier (Liftoff). A restored snapshot skips Python's start-up, so the
 * interpreter's hot loop is still baseline code for the first handful of verdicts (~3-8x slower until the
 * optimizing tier catches up). EWAR_WASM_TURBOFAN=1 compiles optimized from the start: fast verdicts at once,
 * but 0.5-2 s more CPU at load on 2 busy cores, so it is off by default. Must be set before the module compiles.
 */
function chooseWasmTier() {
  if (process.env.EWAR_WASM_TURBOFAN === "1") v8.setFlagsFromString("--no-liftoff");
}

/** The fingerprint's checks that need no interpreter: the same runtime and the same wheel. */
function snapshotMismatch(meta, { pyodideVersion, wasmSize, wheelSha }) {
  if (meta.format !== SNAPSHOT_FORMAT) return `format ${meta.format}`;
  if (meta.pyodide_version !== pyodideVersion) return `Pyodide ${meta.pyodide_version}, not ${pyodideVersion}`;
  if (meta.wasm_size !== wasmSize) return "another pyodide.asm.wasm";
  if (meta.wheel_sha256 !== wheelSha) return "made from another wheel";
  return null;
}

async function restoreFromSnapshot(host, assets, fingerprint) {
  const meta = JSON.parse(readFileSync(`${assets.snapshotPath}.json`, "utf8"));
  const mismatch = snapshotMismatch(meta, fingerprint);
  if (mismatch) throw new Error(`the snapshot does not match (${mismatch})`);
  const snapshot = readBytes(assets.snapshotPath);
  return restoreEngine({ ...host, snapshot, expect: { version: meta.engine_version, modules: meta.modules } });
}

/** The judge's verdict object; an interpreter left unusable by a fatal error marks the engine broken. */
function wrapEngine(bridge, how, loadMs) {
  const judgeDaily = bridge.judge_daily;
  const engine = {
    how,
    loadMs,
    engineVersion: String(bridge.ENGINE_VERSION),
    broken: false,
    /**
     * The verdict of `ewar.judge` on `replay` (an object) sent for `date` claiming `score`, arrived at
     * `receivedMs` (Unix ms; a game longer than its UTC day had run then is refused too_soon).
     */
    judge(replay, date, score, receivedMs = null) {
      try {
        return JSON.parse(judgeDaily(JSON.stringify(replay), date, score, receivedMs));
      } catch (error) {
        if (error?.pyodide_fatal_error) engine.broken = true;
        throw error;
      }
    },
  };
  return engine;
}

/**
 * Loads the engine: restores the build's memory snapshot when its fingerprint matches the runtime and the
 * wheel, else installs the wheel plainly. Resolves to { how, loadMs, engineVersion, judge, broken }.
 */
export async function loadEngine(options = {}) {
  const started = performance.now();
  const assets = locateAssets(options);
  chooseWasmTier();
  const { loadPyodide, version } = await import(pathToFileURL(path.join(assets.pyodideDir, "pyodide.mjs")).href);
  const host = {
    loadPyodide,
    indexURL: `${assets.pyodideDir}${path.sep}`,
    options: { stdout: () => {}, stderr: (line) => console.error(line) },
  };
  const engineWheel = readBytes(assets.wheelPath);
  if (assets.snapshotPath && options.useSnapshot !== false) {
    const fingerprint = {
      pyodideVersion: version,
      wasmSize: statSync(path.join(assets.pyodideDir, "pyodide.asm.wasm")).size,
      wheelSha: sha256(engineWheel),
    };
    try {
      const { bridge } = await restoreFromSnapshot(host, assets, fingerprint);
      return wrapEngine(bridge, "snapshot", performance.now() - started);
    } catch (error) {
      console.error(`ewar: memory snapshot not used (${error.message}); loading plainly`);
    }
  }
  const { bridge } = await loadEngineFromWheel({ ...host, engineWheel });
  return wrapEngine(bridge, "plain", performance.now() - started);
}

/**
 * Loads a kept earlier engine (its wheel, plainly: the snapshot is the build's own engine's) in a runtime of its
 * own; the same package cannot be imported twice into one interpreter. Resolves to the engine, as loadEngine.
 */
export async function loadKeptEngine(version, options = {}) {
  const wheelPath = locateAssets(options).keptWheels[version];
  if (!wheelPath) throw new Error(`engine ${version} is not kept`);
  const engine = await loadEngine({ ...options, wheelPath, snapshotPath: null });
  if (engine.engineVersion !== version) throw new Error(`the wheel kept for ${version} is ${engine.engineVersion}`);
  return engine;
}

/** One engine loaded once and handed out; a failed load is retried on the next call, a broken engine replaced. */
function loadedOnce(load) {
  let loading = null;
  return async function get() {
    loading ??= load().catch((error) => {
      loading = null;
      throw error;
    });
    const engine = await loading;
    if (!engine.broken) return engine;
    loading = null;
    return get();
  };
}

/**
 * A loader of the build's engine and of the earlier engines it keeps. `getEngine(version)` resolves to the engine
 * that judges a record of `version`: the kept one of that version (loaded on its first record), else the build's
 * own (whose judge refuses another version: engine_version). Each engine is loaded once, as loadedOnce says.
 */
export function engineLoader(options = {}) {
  const current = loadedOnce(() => loadEngine(options));
  const kept = new Map();
  let keptWheels = null;
  return async function getEngine(version = null) {
    const engine = await current();
    if (typeof version !== "string" || version === engine.engineVersion) return engine;
    keptWheels ??= locateAssets(options).keptWheels;
    if (!Object.hasOwn(keptWheels, version)) return engine;
    if (!kept.has(version))
      kept.set(
        version,
        loadedOnce(() => loadKeptEngine(version, options)),
      );
    return kept.get(version)();
  };
}

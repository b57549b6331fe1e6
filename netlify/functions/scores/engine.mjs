// Loads the ewar engine into Pyodide (from a build-time memory snapshot when one matches, else plainly) and replays records.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import v8 from "node:v8";

export const SNAPSHOT_FORMAT = 1;
const HERE = path.dirname(fileURLToPath(import.meta.url));

/** Candidate project roots: explicit, Lambda task root, working directory, then up from this file. */
function rootCandidates(explicit) {
  const roots = [explicit, process.env.EWAR_ROOT, process.env.LAMBDA_TASK_ROOT, process.cwd(),
    path.resolve(HERE, "../../..")];
  return [...new Set(roots.filter(Boolean).map((root) => path.resolve(root)))];
}

function findPyodideDir(roots) {
  for (const root of roots) {
    const dir = path.join(root, "node_modules", "pyodide");
    if (existsSync(path.join(dir, "pyodide.asm.wasm"))) return dir;
  }
  throw new Error("pyodide runtime files not found (node_modules/pyodide)");
}

function wheelFromBuildInfo(root) {
  const infoPath = path.join(root, "dist", "build-info.json");
  if (!existsSync(infoPath)) return null;
  const wheel = JSON.parse(readFileSync(infoPath, "utf8")).engine_wheel;
  if (typeof wheel !== "string" || !/^wheels\/ewar-[^/]+\.whl$/.test(wheel)) return null;
  const candidate = path.join(root, "dist", wheel);
  return existsSync(candidate) ? candidate : null;
}

function wheelFromDirectory(root) {
  const dir = path.join(root, "dist", "wheels");
  if (!existsSync(dir)) return null;
  const wheels = readdirSync(dir).filter((name) => /^ewar-.*\.whl$/.test(name));
  if (wheels.length === 0) return null;
  wheels.sort((a, b) => statSync(path.join(dir, b)).mtimeMs - statSync(path.join(dir, a)).mtimeMs);
  return path.join(dir, wheels[0]);
}

function findWheel(roots) {
  if (process.env.EWAR_WHEEL && existsSync(process.env.EWAR_WHEEL)) return process.env.EWAR_WHEEL;
  for (const root of roots) {
    const wheel = wheelFromBuildInfo(root) ?? wheelFromDirectory(root);
    if (wheel) return wheel;
  }
  throw new Error("ewar wheel not found (dist/wheels/ewar-*.whl); run python build.py");
}

function findSnapshot(roots) {
  for (const root of roots) {
    const file = path.join(root, "build", "function", "engine.snapshot");
    if (existsSync(file) && existsSync(`${file}.json`)) return file;
  }
  return null;
}

/** Where the runtime, the wheel and (optionally) the snapshot live. */
export function locateAssets(options = {}) {
  const roots = rootCandidates(options.root);
  return {
    pyodideDir: options.pyodideDir ?? findPyodideDir(roots),
    wheelPath: options.wheelPath ?? findWheel(roots),
    snapshotPath: options.snapshotPath === undefined ? findSnapshot(roots) : options.snapshotPath,
  };
}

function readBytes(file) {
  const buffer = readFileSync(file);
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}

export function sha256(bytes) {
  return createHash("sha256").update(bytes).digest("hex");
}

async function importPyodide(pyodideDir) {
  const module = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
  return module;
}

function pyodideOptions(pyodideDir, extra) {
  return { indexURL: `${pyodideDir}${path.sep}`, stdout: () => {}, stderr: (line) => console.error(line), ...extra };
}

const SITE_PACKAGES = "import sys\n[p for p in sys.path if p.endswith('site-packages')][0]";

/** Unpacks the wheel into site-packages (the filesystem is not part of a memory snapshot). */
export function installWheel(pyodide, wheelBytes) {
  const sitePackages = pyodide.runPython(SITE_PACKAGES);
  pyodide.unpackArchive(wheelBytes, "wheel", { extractDir: sitePackages });
  pyodide.runPython("import importlib; importlib.invalidate_caches()");
}

/** Imports every ewar module (nothing is imported lazily later); answers [ENGINE_VERSION, ewar modules]. */
export const PRELOAD = `
import importlib, json, pkgutil, sys
import ewar
for _module in pkgutil.walk_packages(ewar.__path__, "ewar."):
    importlib.import_module(_module.name)
import ewar.bridge
json.dumps([ewar.bridge.ENGINE_VERSION, sorted(m for m in sys.modules if m.split(".")[0] == "ewar")])
`;
const LOADED = `
import json, sys
json.dumps([sys.modules["ewar.bridge"].ENGINE_VERSION, sorted(m for m in sys.modules if m.split(".")[0] == "ewar")])
`;

/**
 * V8 first runs wasm in its baseline tier (Liftoff) and optimizes hot functions in the background. A restored
 * snapshot skips Python's start-up, so the interpreter's hot loop is still baseline code for the first handful
 * of verifications (~3-8x slower until the optimizing tier catches up). EWAR_WASM_TURBOFAN=1 compiles with
 * the optimizing tier from the start instead: every verification is fast at once, but the load costs
 * 0.5-2 s more of CPU (measured on 2 busy cores), so it is off by default. Set before the module compiles.
 */
function chooseWasmTier() {
  if (process.env.EWAR_WASM_TURBOFAN === "1") v8.setFlagsFromString("--no-liftoff");
}

function snapshotMatches(meta, { pyodideVersion, wasmSize, wheelSha }) {
  return meta.format === SNAPSHOT_FORMAT && meta.pyodide_version === pyodideVersion &&
    meta.wasm_size === wasmSize && meta.wheel_sha256 === wheelSha;
}

/** The snapshot already holds every ewar module in memory, so the wheel need not be unpacked again. */
async function loadFromSnapshot(pyodideModule, assets, fingerprint) {
  const meta = JSON.parse(readFileSync(`${assets.snapshotPath}.json`, "utf8"));
  if (!snapshotMatches(meta, fingerprint)) throw new Error("snapshot does not match the runtime or the wheel");
  const snapshot = readBytes(assets.snapshotPath);
  const pyodide = await pyodideModule.loadPyodide(pyodideOptions(assets.pyodideDir, { _loadSnapshot: snapshot }));
  const [version, modules] = JSON.parse(pyodide.runPython(LOADED));
  if (version !== meta.engine_version || JSON.stringify(modules) !== JSON.stringify(meta.modules)) {
    throw new Error("the restored snapshot does not hold the wheel's modules");
  }
  return pyodide;
}

async function loadPlain(pyodideModule, assets, wheelBytes) {
  const pyodide = await pyodideModule.loadPyodide(pyodideOptions(assets.pyodideDir));
  installWheel(pyodide, wheelBytes);
  pyodide.runPython(PRELOAD);
  return pyodide;
}

function fingerprintOf(pyodideModule, assets, wheelBytes) {
  return {
    pyodideVersion: pyodideModule.version,
    wasmSize: statSync(path.join(assets.pyodideDir, "pyodide.asm.wasm")).size,
    wheelSha: sha256(wheelBytes),
  };
}

/** A loaded engine: verify(replay object) → the engine's verdict object. */
function wrapEngine(pyodide, how, loadMs) {
  const bridge = pyodide.pyimport("ewar.bridge");
  const verifyFn = bridge.verify;
  const dailySeedFn = bridge.daily_seed;
  const engine = {
    how,
    loadMs,
    engineVersion: String(bridge.ENGINE_VERSION),
    broken: false,
    verify(replay) {
      try {
        return JSON.parse(verifyFn(JSON.stringify(replay)));
      } catch (error) {
        // A fatal Pyodide error leaves the interpreter unusable: the next request loads a new one.
        if (error?.pyodide_fatal_error) engine.broken = true;
        throw error;
      }
    },
    dailySeed(date) {
      return Number(dailySeedFn(date));
    },
  };
  return engine;
}

/**
 * Loads Pyodide with the ewar wheel. Tries the memory snapshot first (if present and matching),
 * falls back to a plain load. Returns { how, loadMs, engineVersion, verify, dailySeed }.
 */
export async function loadEngine(options = {}) {
  const started = performance.now();
  const assets = locateAssets(options);
  chooseWasmTier();
  const pyodideModule = await importPyodide(assets.pyodideDir);
  const wheelBytes = readBytes(assets.wheelPath);
  if (assets.snapshotPath && options.useSnapshot !== false) {
    try {
      const fingerprint = fingerprintOf(pyodideModule, assets, wheelBytes);
      const pyodide = await loadFromSnapshot(pyodideModule, assets, fingerprint);
      return wrapEngine(pyodide, "snapshot", performance.now() - started);
    } catch (error) {
      console.error(`ewar: memory snapshot not used (${error.message}); loading plainly`);
    }
  }
  const pyodide = await loadPlain(pyodideModule, assets, wheelBytes);
  return wrapEngine(pyodide, "plain", performance.now() - started);
}

/**
 * A loader that loads the engine once and hands out the same one; a failed load is retried on the next call,
 * and an engine left broken by a fatal Pyodide error is replaced.
 */
export function engineLoader(options = {}) {
  let loading = null;
  return async function getEngine() {
    loading ??= loadEngine(options).catch((error) => {
      loading = null;
      throw error;
    });
    const engine = await loading;
    if (!engine.broken) return engine;
    loading = null;
    return getEngine();
  };
}

/** Build time: load plainly with the wheel imported, and write the snapshot and its fingerprint. */
export async function makeSnapshot(options = {}) {
  const assets = locateAssets({ ...options, snapshotPath: null });
  const pyodideModule = await importPyodide(assets.pyodideDir);
  const wheelBytes = readBytes(assets.wheelPath);
  const pyodide = await pyodideModule.loadPyodide(pyodideOptions(assets.pyodideDir, { _makeSnapshot: true }));
  installWheel(pyodide, wheelBytes);
  const [engineVersion, modules] = JSON.parse(pyodide.runPython(PRELOAD));
  const snapshot = pyodide.makeMemorySnapshot();
  const fingerprint = fingerprintOf(pyodideModule, assets, wheelBytes);
  const meta = {
    format: SNAPSHOT_FORMAT,
    pyodide_version: fingerprint.pyodideVersion,
    wasm_size: fingerprint.wasmSize,
    wheel: path.basename(assets.wheelPath),
    wheel_sha256: fingerprint.wheelSha,
    engine_version: engineVersion,
    modules,
    size: snapshot.length,
  };
  return { snapshot, meta };
}

// Loads the engine: from the build's Pyodide memory snapshot where that wins (load-path.js), else Pyodide +
// micropip + the engine wheel; reports progress per phase and resolves to the ewar.bridge module. The Pyodide
// steps themselves are the shared host's (host.js); the Python they run is ewar.runtime's (after_restore,
// after_install).

import { installWithMicropip, restoreEngine, runtimeOf } from "../../common/host.js";
import { createStorage } from "../base/storage.js";
import { fetchBytes, fetchJson, LoadError, pageUrl, snapshotBytes } from "./downloads.js";
import { chooseSnapshot, fetchSnapshotForNextVisit } from "./load-path.js";
import { PATH_SHARES, PHASES, progressReporter, watchRuntimeFiles } from "./progress.js";

export { LoadError } from "./downloads.js";
export { PHASES } from "./progress.js";

const storage = createStorage();

function checkBrowser() {
  const ok =
    typeof WebAssembly === "object" &&
    typeof WebAssembly.instantiateStreaming === "function" &&
    typeof BigInt === "function" &&
    typeof globalThis.structuredClone === "function";
  if (!ok) throw new LoadError("loading.errorOldBrowser");
}

/** Resolves to the same shape as loadWithMicropip, or to {failed: reason} to fall back to it. */
async function loadFromSnapshot(buildInfo, report, cached, pyodideModule) {
  const snapshot = buildInfo.snapshot;
  const aborter = new AbortController();
  report("runtime", 0);
  report("engine", 0);
  const bytes = snapshotBytes(
    pageUrl(snapshot.file),
    snapshot,
    cached,
    (f) => report("engine", 0.7 * f),
    aborter.signal,
  ).then((ready) => {
    performance.mark("ewar:snapshot-read");
    report("engine", 0.75);
    return ready;
  });
  bytes.catch(() => {}); // awaited by loadPyodide; a failure before that is handled below, not unhandled
  const stopWatching = watchRuntimeFiles(report, buildInfo.runtime_files);
  try {
    const { loadPyodide, version } = await pyodideModule;
    performance.mark("ewar:pyodide-imported");
    if (version !== snapshot.pyodide_version || snapshot.engine_version !== buildInfo.engine_version) {
      throw new Error(`made for Pyodide ${snapshot.pyodide_version} and engine ${snapshot.engine_version}`);
    }
    // The runtime's files download while the snapshot does: loadPyodide awaits it only to instantiate.
    const { pyodide, bridge } = await restoreEngine({
      loadPyodide,
      indexURL: pageUrl("pyodide/"),
      snapshot: bytes,
      expect: { version: buildInfo.engine_version },
    });
    performance.mark("ewar:restored");
    report("runtime", 1);
    report("engine", 0.95);
    // Reseeds Python's random (fixed at build time), and compiles the wasm functions play needs while the
    // progress bar still shows (else the first second of play held 100-250 ms long tasks); then freezes the heap.
    const warmStart = performance.now();
    runtimeOf(pyodide).after_restore();
    performance.measure("ewar:warm-up", { start: warmStart });
    storage.rememberSnapshot(snapshot.sha256);
    report("engine", 1);
    return { pyodide, bridge, buildInfo, path: "snapshot" };
  } catch (error) {
    aborter.abort();
    return { failed: error?.message ?? String(error) };
  } finally {
    stopWatching();
  }
}
// ---------------------------------------------------------------------------------------------

async function importPyodide() {
  try {
    return await import(pageUrl("pyodide/pyodide.mjs"));
  } catch (error) {
    throw new LoadError("loading.errorMissing", { file: "pyodide/pyodide.mjs" }, error);
  }
}

async function step(key, params, action) {
  try {
    return await action();
  } catch (error) {
    if (error instanceof LoadError) throw error;
    throw new LoadError(key, params, error);
  }
}

async function loadWithMicropip(buildInfo, report, pyodideModule) {
  report("runtime", 0);
  // Both wheels download while the runtime does, instead of one after the other once Python is up; a wheel that
  // cannot be had is said at once, not once the runtime is up.
  const stopWatching = watchRuntimeFiles(report, buildInfo.runtime_files);
  const runtime = pyodideModule.then(async ({ loadPyodide }) => {
    const loaded = await step("loading.errorMissing", { file: "pyodide/" }, () =>
      loadPyodide({ indexURL: pageUrl("pyodide/") }),
    );
    report("runtime", 1);
    return loaded;
  });
  let pyodide;
  let micropipWheel;
  let engineWheel;
  try {
    [pyodide, micropipWheel, engineWheel] = await Promise.all([
      runtime,
      fetchBytes(buildInfo.micropip_wheel),
      fetchBytes(buildInfo.engine_wheel),
    ]);
  } finally {
    stopWatching();
  }

  // micropip is pure Python: its wheel is unpacked (by file, not from Pyodide's lock file: the PyPI wheel's hash
  // differs from the one listed there), then it installs the engine's wheel from the in-memory file system.
  report("micropip", 0);
  const engineWheelName = buildInfo.engine_wheel.split("/").pop();
  const installing = `${buildInfo.micropip_wheel}, ${buildInfo.engine_wheel}`;
  const bridge = await step("loading.errorMissing", { file: installing }, () =>
    installWithMicropip(pyodide, { micropipWheel, engineWheel, engineWheelName }),
  );
  report("micropip", 1);
  report("engine", 0.8);
  const care = runtimeOf(pyodide);
  care.after_install(); // freezes the loaded heap: collections during play walk only the game's objects
  // What the installed distribution says installed it (its INSTALLER file): shown to tools and tests.
  const installer = String(care.installer());
  report("engine", 1);
  return { pyodide, bridge, buildInfo, path: "micropip", installer };
}

/** Marks the load's end for tools (performance.getEntriesByName("ewar:engine-ready")) and says why. */
function markReady(engine) {
  performance.mark("ewar:engine-ready", { detail: { path: engine.path, reason: engine.reason } });
  console.info(`ewar: engine loaded via ${engine.path} (${engine.reason})`);
  return engine;
}

async function load(onProgress, onPath) {
  performance.mark("ewar:load-start");
  checkBrowser();
  // Both paths need Pyodide's module, whose evaluation takes a while: it starts beside build-info's fetch and
  // the choice of path, not after them.
  const pyodideModule = importPyodide();
  pyodideModule.catch(() => {}); // awaited by either path; a failure is theirs to report
  const buildInfo = await fetchJson("build-info.json");
  const choice = await chooseSnapshot(buildInfo);
  let reason = choice.reason;
  performance.mark("ewar:load-path-chosen", { detail: { snapshot: choice.use, reason } });
  if (choice.use) {
    onPath("snapshot", Object.keys(PATH_SHARES.snapshot));
    const report = progressReporter(onProgress, PATH_SHARES.snapshot);
    const fast = await loadFromSnapshot(buildInfo, report, choice.cached, pyodideModule);
    if (!fast.failed) return markReady({ ...fast, reason });
    console.warn(`ewar: memory snapshot not used (${fast.failed}); loading with micropip`);
    reason = `snapshot failed: ${fast.failed}`;
  }
  onPath("micropip", PHASES);
  const engine = await loadWithMicropip(buildInfo, progressReporter(onProgress, PATH_SHARES.micropip), pyodideModule);
  if (!choice.use) fetchSnapshotForNextVisit(buildInfo);
  return markReady({ ...engine, reason });
}

// One load per page, started as early as possible (engine/start.js, before the app's modules have arrived);
// whoever asks for it later is told the latest progress at once, then each change.
let loading = null;
let latestPath = null;
let latestProgress = null;
const listeners = new Set();

/** Starts loading the engine unless it has started already; returns the load's promise (see loadEngine). */
export function startEngineLoad() {
  if (!loading) {
    loading = load(
      (...progress) => {
        latestProgress = progress;
        for (const listener of listeners) listener.onProgress?.(...progress);
      },
      (...path) => {
        latestPath = path;
        for (const listener of listeners) listener.onPath?.(...path);
      },
    );
    loading.catch(() => {}); // whoever awaits loadEngine() handles it
  }
  return loading;
}

/**
 * Resolves to {pyodide, bridge, buildInfo, path: "snapshot"|"micropip", reason, installer (micropip path)};
 * rejects with a LoadError.
 * onProgress(phase, phaseFraction, total); onPath(path, phases) says which phases this load goes through (the
 * snapshot path has no "micropip" phase; it is called again if the snapshot fails and micropip takes over).
 * Joins the load startEngineLoad() began, if it did.
 */
export function loadEngine({ onProgress, onPath } = {}) {
  const listener = { onProgress, onPath };
  listeners.add(listener);
  const promise = startEngineLoad();
  if (latestPath) onPath?.(...latestPath);
  if (latestProgress) onProgress?.(...latestProgress);
  promise.then(
    () => listeners.delete(listener),
    () => listeners.delete(listener),
  );
  return promise;
}

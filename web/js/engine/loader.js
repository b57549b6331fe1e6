// Loads the engine: from a Pyodide memory snapshot where this device holds one (load-path.js: the one it made
// itself, device-snapshot.js, or the build's), else Pyodide + micropip + the engine wheel, after which it makes
// this device's snapshot for the next visit; reports progress per phase and resolves to the ewar.bridge module.
// The Pyodide steps themselves are the shared host's (host.js); the Python they run is ewar.runtime's
// (after_restore, after_install).

import { installWithMicropip, restoreEngine, runtimeOf, startPyodide } from "../../common/host.js";
import { WasmInstantiationError } from "../../common/wasm-failures.js";
import { forgetDeviceSnapshot, makeSnapshotForNextVisit, readDeviceSnapshot } from "./device-snapshot.js";
import { fetchBytes, fetchJson, LoadError, pageUrl, snapshotBytes } from "./downloads.js";
import { publishEngineLoad } from "./engine-load.js";
import { chooseSnapshot, pathForced, plainPathCertain, readLastSnapshot } from "./load-path.js";
import { PATH_SHARES, PHASES, progressReporter, watchRuntimeFiles } from "./progress.js";

function checkBrowser() {
  const ok =
    typeof WebAssembly === "object" &&
    typeof WebAssembly.instantiateStreaming === "function" &&
    typeof BigInt === "function" &&
    typeof globalThis.structuredClone === "function";
  if (!ok) throw new LoadError("loading.errorOldBrowser");
}

/** The snapshot's bytes, the versions it was made for, and where it comes from ("device": made by this device, read
 * from its Cache Storage; "build": the build's file, from the worker's cache or the network). */
function snapshotSource(buildInfo, store, choice, report, signal) {
  if (choice.device) {
    const pyodideVersion = buildInfo.pyodide_version;
    return { origin: "device", bytes: choice.device.read(), pyodideVersion, engineVersion: buildInfo.engine_version };
  }
  const snapshot = buildInfo.snapshot;
  const bytes = snapshotBytes(
    pageUrl(snapshot.file),
    snapshot,
    choice.cached,
    (f) => report("engine", 0.7 * f),
    signal,
  );
  return {
    origin: "build",
    bytes,
    pyodideVersion: snapshot.pyodide_version,
    engineVersion: snapshot.engine_version,
    remember: () => store.rememberSnapshot(snapshot.sha256, snapshot.file),
  };
}

/** Starts restoring a snapshot from `bytes` (a promise: loadPyodide awaits it only to instantiate, so the runtime's
 * files load meanwhile); resolves to {pyodide, bridge}, its engine checked against `expect` (host.js). */
function startRestore({ pyodideModule, createPyodideModule }, bytes, expect = {}) {
  const restoring = pyodideModule.then(({ loadPyodide }) =>
    restoreEngine({
      loadPyodide,
      indexURL: pageUrl("pyodide/"),
      snapshot: bytes,
      expect,
      options: { createPyodideModule },
    }),
  );
  restoring.catch(() => {}); // awaited by loadFromSnapshot if it uses this restore; dropped otherwise
  return restoring;
}

/**
 * A repeat visit's restore of the snapshot this device made, started as soon as it is found: before build-info.json
 * has answered, whose only say is whether the snapshot's key is this build's (it is not after a deploy that
 * changed the runtime or the wheel: then this restore is dropped). {device, restoring}, or null (none kept, or a
 * path forced).
 */
function startDeviceRestore(own, runtime, store) {
  if (own === null || pathForced(store)) return null;
  return { device: own, restoring: startRestore(runtime, own.read()) };
}

/** Resolves to the same shape as loadWithMicropip (plus origin), or to {failed: reason, origin} to fall back.
 * `early`: startDeviceRestore's, used when the choice is that same snapshot. */
async function loadFromSnapshot(buildInfo, store, report, choice, runtime, early) {
  const aborter = new AbortController();
  report("runtime", 0);
  report("engine", 0);
  const source = snapshotSource(buildInfo, store, choice, report, aborter.signal);
  const bytes = source.bytes.then((ready) => {
    performance.mark("ewar:snapshot-read");
    report("engine", 0.75);
    return ready;
  });
  bytes.catch(() => {}); // awaited by loadPyodide; a failure before that is handled below, not unhandled
  const stopWatching = watchRuntimeFiles(report, buildInfo.runtime_files);
  const expect = { version: buildInfo.engine_version };
  const restoring = early && early.device === choice.device ? early.restoring : startRestore(runtime, bytes, expect);
  try {
    const { version } = await runtime.pyodideModule;
    performance.mark("ewar:pyodide-imported");
    if (version !== source.pyodideVersion || source.engineVersion !== buildInfo.engine_version) {
      throw new Error(`made for Pyodide ${source.pyodideVersion} and engine ${source.engineVersion}`);
    }
    const { pyodide, bridge } = await restoring;
    const held = JSON.parse(runtimeOf(pyodide).loaded())[0]; // an early restore knew no build-info to expect
    if (held !== expect.version) throw new Error(`the restored engine is ${held}, not ${expect.version}`);
    performance.mark("ewar:restored");
    report("runtime", 1);
    report("engine", 0.95);
    // Reseeds Python's random (fixed at build time), and compiles the wasm functions play needs while the
    // progress bar still shows (else the first second of play held 100-250 ms long tasks); then freezes the heap.
    const warmStart = performance.now();
    runtimeOf(pyodide).after_restore();
    performance.measure("ewar:warm-up", { start: warmStart });
    source.remember?.();
    report("engine", 1);
    return { pyodide, bridge, buildInfo, path: "snapshot", origin: source.origin };
  } catch (error) {
    aborter.abort();
    // The runtime's own file failing is no fault of the snapshot's (it is kept), and the plain path needs it too.
    if (error instanceof WasmInstantiationError) throw runtimeFileError(error);
    return { failed: error?.message ?? String(error), origin: source.origin };
  } finally {
    stopWatching();
  }
}
// ---------------------------------------------------------------------------------------------

// The build's classic copy of Pyodide's pyodide.asm.mjs, and the global it sets (tools/builder/bundle.py,
// classic_runtime): Chromium keeps a classic script's compiled code between visits, not a module's.
const CLASSIC_RUNTIME = "pyodide/pyodide.asm.js";
const RUNTIME_WASM = "pyodide/pyodide.asm.wasm";
const CLASSIC_RUNTIME_GLOBAL = "ewarPyodideRuntime";

/** Resolves to Pyodide's createPyodideModule (loadPyodide's option), from the classic runtime, whose <script> is
 * added now (index.html preloads it). */
function loadClassicRuntime() {
  return new Promise((resolve, reject) => {
    const missing = () => new LoadError("loading.errorMissing", { file: CLASSIC_RUNTIME });
    const script = document.createElement("script");
    script.src = pageUrl(CLASSIC_RUNTIME);
    script.onload = () => {
      const create = globalThis[CLASSIC_RUNTIME_GLOBAL]?.default;
      if (typeof create === "function") resolve(create);
      else reject(missing());
    };
    script.onerror = () => reject(missing());
    document.head.append(script);
  });
}

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

/** The LoadError of Pyodide's WebAssembly file failing to instantiate: cut short, damaged, or not to be had. */
function runtimeFileError(error) {
  return new LoadError("loading.errorMissing", { file: RUNTIME_WASM }, error);
}

/** Pyodide started plainly (no snapshot): resolves to the runtime, or rejects with a LoadError (naming its
 * WebAssembly file when that is what failed). */
function startPlainRuntime({ pyodideModule, createPyodideModule }) {
  performance.mark("ewar:plain-runtime-start");
  const started = pyodideModule.then(({ loadPyodide }) =>
    step("loading.errorMissing", { file: "pyodide/" }, () =>
      startPyodide(loadPyodide, { indexURL: pageUrl("pyodide/"), createPyodideModule }).catch((error) => {
        throw error instanceof WasmInstantiationError ? runtimeFileError(error) : error;
      }),
    ),
  );
  started.then(
    () => performance.mark("ewar:plain-runtime-ready"), // Pyodide's own start done, before micropip: for benchmarks
    () => {}, // awaited by loadWithMicropip, which reports a failure
  );
  return started;
}

async function loadWithMicropip(buildInfo, report, plainRuntime) {
  report("runtime", 0);
  // Both wheels download while the runtime does, instead of one after the other once Python is up; a wheel that
  // cannot be had is said at once, not once the runtime is up.
  const stopWatching = watchRuntimeFiles(report, buildInfo.runtime_files);
  const runtime = plainRuntime.then((loaded) => {
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
      fetchBytes(buildInfo.page_engine_wheel),
    ]);
  } finally {
    stopWatching();
  }

  // micropip is pure Python: its wheel is unpacked (by file, not from Pyodide's lock file: the PyPI wheel's hash
  // differs from the one listed there), then it installs the engine's wheel from the in-memory file system.
  report("micropip", 0);
  const engineWheelName = buildInfo.page_engine_wheel.split("/").pop();
  const installing = `${buildInfo.micropip_wheel}, ${buildInfo.page_engine_wheel}`;
  const bridge = await step("loading.errorMissing", { file: installing }, () =>
    installWithMicropip(pyodide, { micropipWheel, engineWheel, engineWheelName }),
  );
  report("micropip", 1);
  report("engine", 0.8);
  const care = runtimeOf(pyodide);
  // What the installed distribution says installed it (its INSTALLER file): shown to tools and tests.
  const installer = String(care.installer());
  // Freezes the loaded heap (collections during play then walk only the game's objects), once the page has drawn
  // its menu: the collection before the freeze walks the whole heap, 15-20 ms a first visit need not wait for.
  afterNextPaint(() => care.after_install());
  report("engine", 1);
  return { pyodide, bridge, buildInfo, path: "micropip", installer };
}

/** Runs `work` in a task after the page's next frame (in a hidden tab, once it is shown). */
function afterNextPaint(work) {
  requestAnimationFrame(() => setTimeout(work, 0));
}

/** Marks the load's end for tools (performance.getEntriesByName("ewar:engine-ready")) and says why. */
function markReady(engine) {
  const { path, reason, origin = null } = engine;
  performance.mark("ewar:engine-ready", { detail: { path, reason, origin } });
  console.info(`ewar: engine loaded via ${engine.path} (${engine.reason})`);
  return engine;
}

async function load(store, onProgress, onPath) {
  performance.mark("ewar:load-start");
  checkBrowser();
  // Both paths need Pyodide's runtime, whose evaluation takes a while: it starts beside build-info's fetch and
  // the choice of path, not after them.
  const runtime = { pyodideModule: importPyodide(), createPyodideModule: loadClassicRuntime() };
  for (const part of Object.values(runtime)) part.catch(() => {}); // awaited by either path, which reports a failure
  // A repeat visit's 12-31 MB read (the snapshot this device made, or the build's kept one), beside build-info's.
  const ownSnapshot = pathForced(store) ? Promise.resolve(null) : readDeviceSnapshot();
  const lastSnapshot = readLastSnapshot(store);
  // A first visit's Pyodide starts as soon as the plain path is certain, not after build-info's fetch: its wasm
  // then compiles while the page's other files arrive (about 150-200 ms sooner).
  const earlyPlain = Promise.all([ownSnapshot, lastSnapshot]).then(([own, last]) =>
    plainPathCertain(own, last, store) ? { started: startPlainRuntime(runtime) } : null,
  );
  // A repeat visit's restore starts as soon as the device's snapshot is found, beside build-info's fetch.
  const earlyRestore = ownSnapshot.then((own) => startDeviceRestore(own, runtime, store));
  const buildInfo = await fetchJson("build-info.json");
  const choice = await chooseSnapshot(store, buildInfo, lastSnapshot, ownSnapshot);
  let reason = choice.reason;
  performance.mark("ewar:load-path-chosen", { detail: { snapshot: choice.use, reason } });
  if (choice.use) {
    onPath("snapshot", Object.keys(PATH_SHARES.snapshot));
    const report = progressReporter(onProgress, PATH_SHARES.snapshot);
    const fast = await loadFromSnapshot(buildInfo, store, report, choice, runtime, await earlyRestore);
    if (!fast.failed) return markReady({ ...fast, reason });
    console.warn(`ewar: memory snapshot not used (${fast.failed}); loading with micropip`);
    reason = `snapshot failed: ${fast.failed}`;
    // One this device made and cannot restore is removed, and not made again for this build.
    if (choice.device) await forgetDeviceSnapshot(store, choice.device, buildInfo.device_snapshot_key);
  }
  onPath("micropip", PHASES);
  const plainRuntime = (await earlyPlain)?.started ?? startPlainRuntime(runtime);
  const engine = await loadWithMicropip(buildInfo, progressReporter(onProgress, PATH_SHARES.micropip), plainRuntime);
  if (!pathForced(store) && !choice.device) makeSnapshotForNextVisit(buildInfo, store);
  return markReady({ ...engine, reason });
}

/** Starts loading the engine unless it has started already (the page's first script does: engine/start.js);
 * returns the load's promise. The app joins it with engine-load.js's loadEngine. store: the loader's choices
 * (loader-store.js), made by the script's root. */
export function startEngineLoad(store) {
  return publishEngineLoad((onProgress, onPath) => load(store, onProgress, onPath));
}

// Loads the engine: from the build's Pyodide memory snapshot where that wins, else Pyodide + micropip + the
// engine wheel; reports progress per phase and resolves to the ewar.bridge module. The Pyodide steps themselves
// are the shared host's (host.js); the Python they run is the bridge's (after_restore, after_install).

import { createStorage } from "../app/storage.js";
import { installWithMicropip, restoreEngine } from "./host.js";

export const PHASES = ["runtime", "micropip", "engine"];

// Share of the bar each phase fills on each path (roughly its share of the bytes and time of a cold load).
// The snapshot path has no package installer: its engine phase is the snapshot's download and restore, which
// run alongside the runtime's download.
const PATH_SHARES = {
  micropip: { runtime: 0.8, micropip: 0.08, engine: 0.12 },
  snapshot: { runtime: 0.6, engine: 0.4 },
};
const storage = createStorage();

/** A loading failure with a catalog key for the message shown to the player. */
export class LoadError extends Error {
  constructor(key, params = {}, cause = undefined) {
    super(`${key} ${JSON.stringify(params)}${cause ? `: ${cause.message ?? cause}` : ""}`);
    this.key = key;
    this.params = params;
    this.cause = cause;
  }
}

function pageUrl(path) {
  return new URL(path, document.baseURI).href;
}

function checkBrowser() {
  const ok = typeof WebAssembly === "object" && typeof WebAssembly.instantiateStreaming === "function"
    && typeof BigInt === "function" && typeof globalThis.structuredClone === "function";
  if (!ok) throw new LoadError("loading.errorOldBrowser");
}

/** The page's file at `path`, answered with success; else a LoadError naming the file. */
async function fetchFile(path, init = {}) {
  let response;
  try {
    response = await fetch(pageUrl(path), init);
  } catch (error) {
    throw new LoadError("loading.errorMissing", { file: path }, error);
  }
  if (!response.ok) throw new LoadError("loading.errorMissing", { file: path });
  return response;
}

async function fetchJson(path) {
  return (await fetchFile(path, { cache: "no-cache" })).json();
}

async function fetchBytes(path) {
  return new Uint8Array(await (await fetchFile(path)).arrayBuffer());
}

/**
 * Reports progress as (phase, fraction of that phase, fraction of the whole bar). Phases may progress side by
 * side (the snapshot downloads while the runtime does): the phase reported is the first one not yet complete.
 */
function progressReporter(onProgress, shares) {
  const phases = Object.keys(shares);
  const done = Object.fromEntries(phases.map((phase) => [phase, 0]));
  return (phase, fraction) => {
    const was = done[phase];
    done[phase] = Math.max(done[phase], Math.min(1, Math.max(0, fraction)));
    if (was < 1 && done[phase] === 1) performance.mark(`ewar:${phase}-done`); // for benchmarks
    const current = phases.find((name) => done[name] < 1) ?? phases[phases.length - 1];
    const total = phases.reduce((sum, name) => sum + shares[name] * done[name], 0);
    onProgress?.(current, done[current], total);
  };
}

/**
 * Moves the runtime phase forward as each of Pyodide's own files finishes downloading, by its share of their
 * bytes. The files are build-info's runtime_files ({name under pyodide/: bytes}), the build's one list of them.
 */
function watchRuntimeFiles(report, runtimeFiles) {
  const files = Object.entries(runtimeFiles ?? {});
  const total = files.reduce((sum, [, bytes]) => sum + bytes, 0) || 1;
  const seen = new Set();
  const update = (entries) => {
    for (const entry of entries) {
      const file = files.find(([name]) => entry.name.endsWith(`/pyodide/${name}`));
      if (file) seen.add(file[0]);
    }
    const done = files.reduce((sum, [name, bytes]) => sum + (seen.has(name) ? bytes : 0), 0);
    report("runtime", done / total);
  };
  if (typeof PerformanceObserver !== "function") return () => {};
  const observer = new PerformanceObserver((list) => update(list.getEntries()));
  observer.observe({ type: "resource", buffered: true });
  return () => observer.disconnect();
}

// ---------------------------------------------------------------------------------------------
// Fast path: a Pyodide memory snapshot made at build time (by the build's snapshot maker, with host.js) with every
// ewar module already imported. build-info.json names it ("snapshot": file, size, sha256,
// pyodide_version, engine_version); it is used only when it matches this runtime and this build, and any failure
// falls back to the micropip path. The policy (when it is worth its ~6 MB) is in chooseSnapshot().

const LOAD_CHOICES = ["auto", "snapshot", "micropip"];

/** "auto", unless ?load=snapshot|micropip or the stored setting (storage.forcedLoadPath) forces a path. */
function requestedPath() {
  const asked = new URLSearchParams(location.search).get("load") ?? storage.forcedLoadPath();
  return LOAD_CHOICES.includes(asked) ? asked : "auto";
}

/**
 * The snapshot's response if the service worker's cache holds it, else null. (The HTTP cache cannot be asked
 * quietly: fetch's only-if-cached logs a network error on every miss. A snapshot this browser loaded before is
 * remembered in localStorage instead, and then most likely comes from its HTTP cache.)
 */
async function cachedSnapshot(url) {
  try {
    const hit = await globalThis.caches?.match(url);
    return hit?.ok ? hit : null;
  } catch {
    return null; // no Cache Storage here (an insecure context)
  }
}

// Where the Network Information API exists (Chromium), downlink is its estimate in Mbps, capped at 10.
const FAST_DOWNLINK_MBPS = 10;

/** True when the browser estimates at least FAST_DOWNLINK_MBPS and data is not to be saved. */
function fastConnection() {
  const connection = navigator.connection;
  if (!connection || connection.saveData) return false;
  return connection.effectiveType === "4g" && connection.downlink >= FAST_DOWNLINK_MBPS;
}

/**
 * {use, cached, reason}. The snapshot (~6 MB more than the micropip path, ~2-4 s less Python start-up) is used:
 * - when the service worker has it (repeat visits, offline), or this browser loaded this very snapshot before
 *   (so its HTTP cache most likely holds it);
 * - on a first visit only when the browser estimates a fast connection: below ~15-20 Mbps the extra download
 *   costs more than the start-up it saves (benchmarks/bench_page.py --throttle); without an estimate (Firefox,
 *   Safari) the micropip path is the safe choice. After such a first visit the service worker precaches the
 *   snapshot for the next one.
 */
async function chooseSnapshot(buildInfo) {
  const snapshot = buildInfo.snapshot;
  if (!snapshot?.file) return { use: false, reason: "no snapshot in this build" };
  const asked = requestedPath();
  if (asked === "micropip") return { use: false, reason: "micropip asked for" };
  if (snapshot.encoding === "gzip" && typeof DecompressionStream !== "function") {
    return { use: false, reason: "no DecompressionStream in this browser" };
  }
  const cached = await cachedSnapshot(pageUrl(snapshot.file));
  if (asked === "snapshot") return { use: true, cached, reason: "snapshot asked for" };
  if (cached) return { use: true, cached, reason: "snapshot in the service worker's cache" };
  if (storage.snapshotSeen() === snapshot.sha256) return { use: true, cached, reason: "snapshot loaded before" };
  if (fastConnection()) return { use: true, cached, reason: "fast connection" };
  return { use: false, reason: "first visit, connection not known to be fast" };
}

function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Without WebCrypto (an insecure context) gzip's CRC-32 and the exact size still catch a damaged file. */
async function checkDigest(bytes, expected) {
  if (!globalThis.crypto?.subtle) return;
  const actual = hex(await crypto.subtle.digest("SHA-256", bytes));
  if (actual !== expected) throw new Error(`sha256 ${actual.slice(0, 12)}… is not build-info's`);
}

/** The snapshot's bytes, inflated into one buffer of the size build-info gives, checked against its sha256. */
async function snapshotBytes(url, snapshot, cached, onFraction, signal) {
  const response = cached ?? (await fetch(url, { signal }));
  if (!response.ok || !response.body) throw new Error(`${snapshot.file}: HTTP ${response.status}`);
  // A host that sends the .gz with Content-Encoding: gzip has it inflated by the browser already.
  const inflated = snapshot.encoding !== "gzip" || /gzip/i.test(response.headers.get("content-encoding") ?? "");
  const stream = inflated ? response.body : response.body.pipeThrough(new DecompressionStream("gzip"));
  const bytes = new Uint8Array(snapshot.size);
  const reader = stream.getReader();
  let filled = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (filled + value.length > bytes.length) throw new Error(`${snapshot.file} is larger than build-info says`);
    bytes.set(value, filled);
    filled += value.length;
    onFraction(filled / bytes.length);
  }
  if (filled !== bytes.length) throw new Error(`${snapshot.file} is smaller than build-info says`);
  await checkDigest(bytes, snapshot.sha256);
  return bytes;
}

/** Resolves to the same shape as loadWithMicropip, or to {failed: reason} to fall back to it. */
async function loadFromSnapshot(buildInfo, report, cached) {
  const snapshot = buildInfo.snapshot;
  const aborter = new AbortController();
  report("runtime", 0);
  report("engine", 0);
  const bytes = snapshotBytes(pageUrl(snapshot.file), snapshot, cached, (f) => report("engine", 0.7 * f),
    aborter.signal).then((ready) => {
    report("engine", 0.75);
    return ready;
  });
  bytes.catch(() => {}); // awaited by loadPyodide; a failure before that is handled below, not unhandled
  const stopWatching = watchRuntimeFiles(report, buildInfo.runtime_files);
  try {
    const { loadPyodide, version } = await importPyodide();
    if (version !== snapshot.pyodide_version || snapshot.engine_version !== buildInfo.engine_version) {
      throw new Error(`made for Pyodide ${snapshot.pyodide_version} and engine ${snapshot.engine_version}`);
    }
    // The runtime's files download while the snapshot does: loadPyodide awaits it only to instantiate.
    const { pyodide, bridge } = await restoreEngine({
      loadPyodide, indexURL: pageUrl("pyodide/"), snapshot: bytes, expect: { version: buildInfo.engine_version },
    });
    report("runtime", 1);
    report("engine", 0.95);
    // Reseeds Python's random (fixed at build time), and compiles the wasm functions play needs while the
    // progress bar still shows (else the first second of play held 100-250 ms long tasks); then freezes the heap.
    const warmStart = performance.now();
    bridge.after_restore();
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

async function loadWithMicropip(buildInfo, report) {
  report("runtime", 0);
  // Both wheels download while the runtime does, instead of one after the other once Python is up.
  const micropipBytes = fetchBytes(buildInfo.micropip_wheel);
  const engineBytes = fetchBytes(buildInfo.engine_wheel);
  micropipBytes.catch(() => {}); // awaited below; a failure before then is not unhandled
  engineBytes.catch(() => {});
  const stopWatching = watchRuntimeFiles(report, buildInfo.runtime_files);
  const { loadPyodide } = await importPyodide();
  const pyodide = await step("loading.errorMissing", { file: "pyodide/" }, () =>
    loadPyodide({ indexURL: pageUrl("pyodide/") }));
  stopWatching();
  report("runtime", 1);

  // micropip is pure Python: its wheel is unpacked (by file, not from Pyodide's lock file: the PyPI wheel's hash
  // differs from the one listed there), then it installs the engine's wheel from the in-memory file system.
  report("micropip", 0);
  const [micropipWheel, engineWheel] = await Promise.all([micropipBytes, engineBytes]);
  const engineWheelName = buildInfo.engine_wheel.split("/").pop();
  const installing = `${buildInfo.micropip_wheel}, ${buildInfo.engine_wheel}`;
  const bridge = await step("loading.errorMissing", { file: installing }, () =>
    installWithMicropip(pyodide, { micropipWheel, engineWheel, engineWheelName }));
  report("micropip", 1);
  report("engine", 0.8);
  bridge.after_install(); // freezes the loaded heap: collections during play walk only the game's objects
  // What the installed distribution says installed it (its INSTALLER file): shown to tools and tests.
  const installer = String(bridge.installer());
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
  const buildInfo = await fetchJson("build-info.json");
  const choice = await chooseSnapshot(buildInfo);
  let reason = choice.reason;
  performance.mark("ewar:load-path-chosen", { detail: { snapshot: choice.use, reason } });
  if (choice.use) {
    onPath("snapshot", Object.keys(PATH_SHARES.snapshot));
    const fast = await loadFromSnapshot(buildInfo, progressReporter(onProgress, PATH_SHARES.snapshot), choice.cached);
    if (!fast.failed) return markReady({ ...fast, reason });
    console.warn(`ewar: memory snapshot not used (${fast.failed}); loading with micropip`);
    reason = `snapshot failed: ${fast.failed}`;
  }
  onPath("micropip", PHASES);
  const engine = await loadWithMicropip(buildInfo, progressReporter(onProgress, PATH_SHARES.micropip));
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
  promise.then(() => listeners.delete(listener), () => listeners.delete(listener));
  return promise;
}

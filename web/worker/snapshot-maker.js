// The memory snapshot's maker, in a dedicated worker the page starts once its game is idle after a visit that
// loaded with micropip (web/js/engine/device-snapshot.js). From the files the page already holds (Pyodide's runtime
// and the engine's wheel, served by the service worker's cache), it loads a second Pyodide with the engine
// imported, takes its memory snapshot (host.js, makeEngineSnapshot: the build's own steps) and keeps it in Cache
// Storage without its zero pages, under build-info's device_snapshot_key. The next visit restores it: no snapshot
// crosses the network. The build bundles this file alone as the classic script js/snapshot-maker.js, so that it can
// load the page's classic runtime with importScripts.

import { makeEngineSnapshot } from "../common/host.js";
import {
  BODY_SHA256_HEADER,
  DEVICE_SNAPSHOT_CACHE,
  DEVICE_SNAPSHOT_KEY_HEADER,
  DEVICE_SNAPSHOT_PATH,
  hexOf,
  KEPT_RUNS_HEADER,
  packZeroPages,
} from "../common/kept-files.js";

// Pyodide 314 restores only a snapshot of its default 30 MiB heap (pyodide#6254, docs/loading.md).
const RESTORABLE_HEAP_BYTES = 30 * 2 ** 20;
// The classic runtime's globals (tools/builder/bundle.py, classic_runtime).
const RUNTIME_GLOBAL = "ewarPyodideRuntime";
const RUNTIME_URL_GLOBAL = "ewarPyodideRuntimeUrl";

function classicRuntime(url) {
  self[RUNTIME_URL_GLOBAL] = url;
  importScripts(url);
  const create = self[RUNTIME_GLOBAL]?.default;
  if (typeof create !== "function") throw new Error(`${url} did not set ${RUNTIME_GLOBAL}`);
  return create;
}

async function wheelBytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** Makes and keeps the snapshot for `key`; resolves to what it measured. */
async function make({ base, key, engineWheel, pyodideVersion, engineVersion }) {
  const started = performance.now();
  const indexURL = new URL("pyodide/", base).href;
  const createPyodideModule = classicRuntime(new URL("pyodide.asm.js", indexURL).href);
  const [{ loadPyodide, version }, wheel] = await Promise.all([
    import(new URL("pyodide.mjs", indexURL).href),
    wheelBytes(new URL(engineWheel, base).href),
  ]);
  if (version !== pyodideVersion) throw new Error(`Pyodide ${version} is not build-info's ${pyodideVersion}`);
  const made = await makeEngineSnapshot({
    loadPyodide,
    indexURL,
    engineWheel: wheel,
    options: { createPyodideModule },
  });
  if (made.version !== engineVersion) throw new Error(`engine ${made.version} is not build-info's ${engineVersion}`);
  if (made.heapBytes > RESTORABLE_HEAP_BYTES) {
    throw new Error(`the heap grew to ${made.heapBytes} bytes: Pyodide could not restore it`);
  }
  const madeMs = performance.now() - started;
  const { body, runs } = packZeroPages(made.snapshot);
  const headers = new Headers({
    "content-type": "application/octet-stream",
    [DEVICE_SNAPSHOT_KEY_HEADER]: key,
    [BODY_SHA256_HEADER]: hexOf(await crypto.subtle.digest("SHA-256", body)),
    [KEPT_RUNS_HEADER]: runs,
  });
  const cache = await caches.open(DEVICE_SNAPSHOT_CACHE);
  await cache.put(new URL(DEVICE_SNAPSHOT_PATH, base).href, new Response(body, { headers }));
  return {
    made: true,
    key,
    size: made.snapshot.byteLength,
    kept: body.byteLength,
    madeMs: Math.round(madeMs),
    totalMs: Math.round(performance.now() - started),
  };
}

self.addEventListener("message", (event) => {
  make(event.data).then(
    (answer) => self.postMessage(answer),
    (error) => self.postMessage({ made: false, error: String(error?.message ?? error) }),
  );
});

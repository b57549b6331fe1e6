// The memory snapshot this device made itself: read back as a load starts (checked against build-info's
// device_snapshot_key and its own sha256), and made after a visit that loaded with micropip, in a worker
// (web/worker/snapshot-maker.js) from the files the page already holds. Nothing here downloads a snapshot: a first
// visit costs only the micropip path's bytes on every browser and link, and every visit after it starts from the
// snapshot (docs/loading.md).

import {
  BODY_SHA256_HEADER,
  DEVICE_SNAPSHOT_CACHE,
  DEVICE_SNAPSHOT_KEY_HEADER,
  DEVICE_SNAPSHOT_PATH,
  hexOf,
  KEPT_RUNS_HEADER,
  zeroPagesReader,
} from "../../common/kept-files.js";
import { pageUrl } from "./downloads.js";

const MAKER_SCRIPT = "js/snapshot-maker.js";

function deviceUrl() {
  return pageUrl(DEVICE_SNAPSHOT_PATH);
}

async function keptResponse() {
  try {
    return (await globalThis.caches?.match(deviceUrl(), { cacheName: DEVICE_SNAPSHOT_CACHE })) ?? null;
  } catch {
    return null; // no Cache Storage here (an insecure context, a private window that refuses it)
  }
}

async function removeKept() {
  try {
    const cache = await caches.open(DEVICE_SNAPSHOT_CACHE);
    await cache.delete(deviceUrl());
  } catch {
    // nothing kept, or no Cache Storage: nothing to remove
  }
}

/** The body's chunks into the whole heap (zeros in place) and into one copy of the body, for its hash. */
async function readKept(chunks, runsHeader) {
  const heap = zeroPagesReader(runsHeader);
  const body = new Uint8Array(heap.kept);
  let filled = 0;
  for (;;) {
    const { done, value } = await chunks.read();
    if (done) break;
    if (filled + value.length > body.length) throw new Error("the kept snapshot is longer than its runs");
    body.set(value, filled);
    filled += value.length;
    heap.add(value);
  }
  return { bytes: heap.bytes(), body };
}

/**
 * The snapshot this device made, its read started now (before build-info.json has answered: both overlap), or
 * null when it holds none: {key, read() -> its bytes once their sha256 is checked, discard(), remove()}.
 */
export async function readDeviceSnapshot() {
  const hit = await keptResponse();
  if (!hit?.ok || !hit.body) return null;
  const key = hit.headers.get(DEVICE_SNAPSHOT_KEY_HEADER);
  const sha256 = hit.headers.get(BODY_SHA256_HEADER);
  const chunks = hit.body.getReader();
  const reading = readKept(chunks, hit.headers.get(KEPT_RUNS_HEADER));
  reading.catch(() => {}); // the loader awaits it if it uses this copy
  let checked = null; // read()'s one promise: the early restore and the chosen path share it (one hash)
  return {
    key,
    read() {
      checked ??= reading.then(async ({ bytes, body }) => {
        if (globalThis.crypto?.subtle) {
          const actual = hexOf(await crypto.subtle.digest("SHA-256", body));
          if (actual !== sha256) throw new Error(`the device's snapshot is damaged (sha256 ${actual.slice(0, 12)}…)`);
        }
        return bytes;
      });
      return checked;
    },
    discard() {
      chunks.cancel().catch(() => {});
    },
    async remove() {
      chunks.cancel().catch(() => {});
      await removeKept();
    },
  };
}

// How long after the game is ready, and the worker in charge, the snapshot's making waits (then for an idle
// moment): the first moves and the worker's precache go first.
const MAKE_DELAY_MS = 5000;
const IDLE_WAIT_LIMIT_MS = 2000;

/** Resolves once a service worker controls the page (at once on a repeat visit; after its install on a first):
 * the maker's files then come from its cache, not the network. */
function whenControlled(worker) {
  if (worker.controller) return Promise.resolve();
  return new Promise((resolve) => worker.addEventListener("controllerchange", resolve, { once: true }));
}

function whenIdle() {
  if (typeof requestIdleCallback !== "function") return Promise.resolve();
  return new Promise((resolve) => requestIdleCallback(resolve, { timeout: IDLE_WAIT_LIMIT_MS }));
}

/** Runs the maker's worker once: resolves to its answer ({made: true, size, kept, madeMs, totalMs} or
 * {made: false, error}); the worker ends with it. */
function runMaker(buildInfo) {
  return new Promise((resolve) => {
    const worker = new Worker(pageUrl(MAKER_SCRIPT), { name: "ewar-snapshot-maker" });
    const end = (answer) => {
      worker.terminate();
      resolve(answer);
    };
    worker.addEventListener("message", (event) => end(event.data));
    worker.addEventListener("error", (event) => end({ made: false, error: event.message || "the maker failed" }));
    worker.postMessage({
      base: pageUrl("./"),
      key: buildInfo.device_snapshot_key,
      engineWheel: buildInfo.page_engine_wheel,
      pyodideVersion: buildInfo.pyodide_version,
      engineVersion: buildInfo.engine_version,
    });
  });
}

/** Why this browser cannot make a snapshot for this build, or null. */
function reasonNotToMake(buildInfo, store) {
  if (!buildInfo.device_snapshot_key) return "no device_snapshot_key in build-info";
  if (!navigator.serviceWorker) return "no service worker";
  if (typeof Worker !== "function" || !globalThis.caches) return "no worker or Cache Storage";
  if (store.deviceSnapshotFailed() === buildInfo.device_snapshot_key) return "this build's snapshot failed here";
  return null;
}

/**
 * After a visit that loaded with micropip: once a service worker controls the page, delayMs later and at an idle
 * moment, makes this build's snapshot in a worker for the next visit. Returns whether it will. Marks for tools:
 * "ewar:device-snapshot-planned", then "ewar:device-snapshot-made" (detail: the maker's figures) or
 * "ewar:device-snapshot-failed" (detail.error); "ewar:device-snapshot-not-made" with the reason when it will not.
 * store: the loader's (loader-store.js).
 */
export function makeSnapshotForNextVisit(buildInfo, store, { delayMs = MAKE_DELAY_MS } = {}) {
  const refused = reasonNotToMake(buildInfo, store);
  if (refused) {
    performance.mark("ewar:device-snapshot-not-made", { detail: { reason: refused } });
    return false;
  }
  performance.mark("ewar:device-snapshot-planned", { detail: { key: buildInfo.device_snapshot_key, delayMs } });
  whenControlled(navigator.serviceWorker)
    .then(() => new Promise((resolve) => setTimeout(resolve, delayMs)))
    .then(whenIdle)
    .then(() => {
      performance.mark("ewar:device-snapshot-start");
      return runMaker(buildInfo);
    })
    .then((answer) => {
      performance.mark(answer.made ? "ewar:device-snapshot-made" : "ewar:device-snapshot-failed", { detail: answer });
      if (!answer.made) console.warn(`ewar: no memory snapshot made for the next visit (${answer.error})`);
    });
  return true;
}

/** A snapshot this device made that did not restore: removed, and not made again for this build. */
export async function forgetDeviceSnapshot(store, device, key) {
  store.rememberDeviceSnapshotFailure(key);
  await device.remove();
}

// Which way the engine loads: the build's Pyodide memory snapshot (every ewar module already imported) or plain
// Pyodide + micropip + the engine wheel, and why. build-info.json names the snapshot ("snapshot": file, size,
// sha256, pyodide_version, engine_version); the loader uses it only when it matches this runtime and this build,
// and falls back to micropip on any failure.

import { createStorage } from "../base/storage.js";
import { keptCopy, pageUrl } from "./downloads.js";
import { reasonNotToFetch } from "./next-visit.js";

const storage = createStorage();
const LOAD_CHOICES = ["auto", "snapshot", "micropip"];

/** "auto", unless ?load=snapshot|micropip or the stored setting (storage.forcedLoadPath) forces a path. */
function requestedPath() {
  const asked = new URLSearchParams(location.search).get("load") ?? storage.forcedLoadPath();
  return LOAD_CHOICES.includes(asked) ? asked : "auto";
}

/**
 * Starts reading the worker's copy of the snapshot this browser loaded last, before build-info.json has said which
 * one this build has: on a repeat visit both reads then overlap. Resolves to {file, kept} (kept: keptCopy's, or
 * null), or null when no snapshot was loaded before or micropip is asked for.
 */
export function readLastSnapshot() {
  const file = storage.snapshotFileSeen();
  if (!file || requestedPath() === "micropip") return Promise.resolve(null);
  return keptCopy(pageUrl(file)).then((kept) => ({ file, kept }));
}

/**
 * {use, cached, reason}: whether to load from the snapshot (cached: the worker's copy, keptCopy's, if it holds
 * one). `early` is readLastSnapshot()'s promise, used when it read the file this build names. The
 * snapshot (~6 MB more than the micropip path, several seconds less Python start-up) is used:
 * - when the service worker has it (repeat visits, offline), or this browser loaded this very snapshot before
 *   (so its HTTP cache most likely holds it);
 * - never on a first visit: it would more than double the first visit's download (a phone's first visit stays
 *   under 5 MB, docs/performance.md). Once the game is playable and the page idle, the visit fetches it in the
 *   background for the next one (fetchSnapshotForNextVisit), and the worker keeps it.
 */
export async function chooseSnapshot(buildInfo, early = Promise.resolve(null)) {
  const last = await early;
  const choice = await choose(buildInfo.snapshot, last);
  // The copy read early is an older build's (the first visit after a deploy), or not wanted: its 12-31 MB
  // would only compete with this load.
  if (last?.kept && choice.cached !== last.kept) last.kept.discard();
  return choice;
}

async function choose(snapshot, last) {
  if (!snapshot?.file) return { use: false, reason: "no snapshot in this build" };
  const asked = requestedPath();
  if (asked === "micropip") return { use: false, reason: "micropip asked for" };
  if (snapshot.encoding === "gzip" && typeof DecompressionStream !== "function") {
    return { use: false, reason: "no DecompressionStream in this browser" };
  }
  const cached = last?.file === snapshot.file ? last.kept : await keptCopy(pageUrl(snapshot.file));
  if (asked === "snapshot") return { use: true, cached, reason: "snapshot asked for" };
  if (cached) return { use: true, cached, reason: "snapshot in the service worker's cache" };
  if (storage.snapshotSeen() === snapshot.sha256) return { use: true, cached, reason: "snapshot loaded before" };
  return { use: false, reason: "snapshot not held yet" };
}

// How long after the game is ready, and the worker in charge, the snapshot's download for the next visit waits
// (then for an idle moment): the first moves and the worker's precache go first.
const NEXT_VISIT_FETCH_DELAY_MS = 5000;
const IDLE_WAIT_LIMIT_MS = 2000;

/** Resolves once a service worker controls the page (at once on a repeat visit; after its install on a first). */
function whenControlled(worker) {
  if (worker.controller) return Promise.resolve();
  return new Promise((resolve) => worker.addEventListener("controllerchange", resolve, { once: true }));
}

function whenIdle() {
  if (typeof requestIdleCallback !== "function") return Promise.resolve();
  return new Promise((resolve) => requestIdleCallback(resolve, { timeout: IDLE_WAIT_LIMIT_MS }));
}

/**
 * On a visit that loaded with micropip (a first visit, or one whose snapshot the browser lost): once a service
 * worker controls the page, delayMs later and at an idle moment, fetches the snapshot through the worker, which
 * checks and keeps it, so that the next visit starts from it. Not when the browser asks to save data or is on a
 * cellular link (next-visit.js). Returns whether it will, and marks it for tools: performance mark
 * "ewar:snapshot-for-next-visit", or "ewar:snapshot-not-fetched" with the reason.
 */
export function fetchSnapshotForNextVisit(buildInfo, { delayMs = NEXT_VISIT_FETCH_DELAY_MS } = {}) {
  const file = buildInfo.snapshot?.file;
  const worker = navigator.serviceWorker;
  if (!file || !worker) return false;
  const refused = reasonNotToFetch(navigator.connection);
  if (refused) {
    performance.mark("ewar:snapshot-not-fetched", { detail: { file, reason: refused } });
    return false;
  }
  performance.mark("ewar:snapshot-for-next-visit", { detail: { file, delayMs } });
  whenControlled(worker)
    .then(() => new Promise((resolve) => setTimeout(resolve, delayMs)))
    .then(whenIdle)
    .then(() => fetch(pageUrl(file), { priority: "low" }))
    .then((response) => (response.ok ? response.arrayBuffer() : Promise.reject(new Error(`HTTP ${response.status}`))))
    .then(() => storage.rememberSnapshotFile(file)) // the next visit starts reading it as its load starts
    .catch(() => {}); // offline now: the next visit loads with micropip again
  return true;
}

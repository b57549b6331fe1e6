// Which way the engine loads: the build's Pyodide memory snapshot (every ewar module already imported) or plain
// Pyodide + micropip + the engine wheel, and why. build-info.json names the snapshot ("snapshot": file, size,
// sha256, pyodide_version, engine_version); the loader uses it only when it matches this runtime and this build,
// and falls back to micropip on any failure.

import { keptCopy, pageUrl } from "./downloads.js";

const LOAD_CHOICES = ["auto", "snapshot", "micropip"];

/** "auto", unless ?load=snapshot|micropip or the stored setting (loader-store.js, forcedLoadPath) forces a path. */
function requestedPath(store) {
  const asked = new URLSearchParams(location.search).get("load") ?? store.forcedLoadPath();
  return LOAD_CHOICES.includes(asked) ? asked : "auto";
}

/**
 * Starts reading the worker's copy of the snapshot this browser loaded last, before build-info.json has said which
 * one this build has: on a repeat visit both reads then overlap. Resolves to {file, kept} (kept: keptCopy's, or
 * null), or null when no snapshot was loaded before or micropip is asked for. store: the loader's (loader-store.js).
 */
export function readLastSnapshot(store) {
  const file = store.snapshotFileSeen();
  if (!file || requestedPath(store) === "micropip") return Promise.resolve(null);
  return keptCopy(pageUrl(file)).then((kept) => ({ file, kept }));
}

/**
 * {use, device, cached, reason}: whether to load from a snapshot, and which. `early` is readLastSnapshot()'s
 * promise, used when it read the file this build names; `ownEarly` is readDeviceSnapshot()'s. In order:
 * - the snapshot this device made (device), when build-info's device_snapshot_key is the one it was made for (a
 *   snapshot is never restored with another build's wheel or runtime: one made for another is removed);
 * - the build's snapshot (cached: the worker's copy), when the service worker holds it or this browser loaded this
 *   very snapshot before (a device that fetched it before snapshots were made on devices);
 * - else micropip, never downloading a snapshot: a first visit stays under 5 MB on every link
 *   (docs/performance.md), and the page then makes this device's own snapshot for the next visit
 *   (device-snapshot.js, makeSnapshotForNextVisit).
 * ?load=snapshot forces the build's snapshot, ?load=micropip the plain path. store: the loader's (loader-store.js).
 */
export async function chooseSnapshot(
  store,
  buildInfo,
  early = Promise.resolve(null),
  ownEarly = Promise.resolve(null),
) {
  const [last, own] = await Promise.all([early, ownEarly]);
  const asked = requestedPath(store);
  const ownUsable = own !== null && asked === "auto" && Boolean(buildInfo.device_snapshot_key);
  if (ownUsable && own.key === buildInfo.device_snapshot_key) {
    last?.kept?.discard();
    return { use: true, device: own, reason: "snapshot made on this device" };
  }
  if (own) {
    if (own.key !== buildInfo.device_snapshot_key)
      own.remove(); // another build's: never of use again
    else own.discard();
  }
  const choice = await choose(store, buildInfo.snapshot, last);
  // The copy read early is an older build's (the first visit after a deploy), or not wanted: its 12-31 MB
  // would only compete with this load.
  if (last?.kept && choice.cached !== last.kept) last.kept.discard();
  return choice;
}

async function choose(store, snapshot, last) {
  if (!snapshot?.file) return { use: false, reason: "no snapshot in this build" };
  const asked = requestedPath(store);
  if (asked === "micropip") return { use: false, reason: "micropip asked for" };
  if (snapshot.encoding === "gzip" && typeof DecompressionStream !== "function") {
    return { use: false, reason: "no DecompressionStream in this browser" };
  }
  const cached = last?.file === snapshot.file ? last.kept : await keptCopy(pageUrl(snapshot.file));
  if (asked === "snapshot") return { use: true, cached, reason: "snapshot asked for" };
  if (cached) return { use: true, cached, reason: "snapshot in the service worker's cache" };
  if (store.snapshotSeen() === snapshot.sha256) return { use: true, cached, reason: "snapshot loaded before" };
  return { use: false, reason: "snapshot not made yet" };
}

/**
 * Whether the plain path is certain before build-info.json has answered, so that Pyodide can start at once (as a
 * bare loadPyodide() page does) rather than after that fetch: micropip asked for, or a first visit, which holds no
 * snapshot (`own`: readDeviceSnapshot's, `last`: readLastSnapshot's) and remembers none. Were the worker's cache to
 * hold the build's snapshot all the same (this browser's storage cleared, not its caches), chooseSnapshot still
 * takes it, and the runtime started here is dropped. store: the loader's choices (loader-store.js).
 */
export function plainPathCertain(own, last, store) {
  const asked = requestedPath(store);
  if (asked !== "auto") return asked === "micropip";
  return own === null && last === null && !store.snapshotSeen();
}

/** Whether a path is forced (?load= or the stored setting): such a visit makes no snapshot for the next. */
export function pathForced(store) {
  return requestedPath(store) !== "auto";
}

// The page's one engine load, shared by the two scripts the build makes: js/engine-start.js (engine/start.js, which
// starts it as the page's first script runs) and js/bundle.js (the app, which shows its progress). Each bundle has
// its own copy of every module, so the load and its latest progress live on one named global record.

const RECORD = "ewarEngineLoad";

function shared() {
  if (!globalThis[RECORD]) {
    let started;
    const whenStarted = new Promise((resolve) => {
      started = resolve;
    });
    globalThis[RECORD] = {
      loading: null,
      whenStarted,
      started,
      latestPath: null,
      latestProgress: null,
      listeners: new Set(),
    };
  }
  return globalThis[RECORD];
}

/**
 * Starts the page's engine load with start(onProgress, onPath) unless it has started already; returns the load's
 * promise. The two functions start is given tell every joined listener (loadEngine) and remember the latest.
 */
export function publishEngineLoad(start) {
  const load = shared();
  if (!load.loading) {
    load.loading = start(
      (...progress) => {
        load.latestProgress = progress;
        for (const listener of load.listeners) listener.onProgress?.(...progress);
      },
      (...path) => {
        load.latestPath = path;
        for (const listener of load.listeners) listener.onPath?.(...path);
      },
    );
    load.loading.catch(() => {}); // whoever awaits loadEngine() handles it
    load.started(load.loading);
  }
  return load.loading;
}

/**
 * Joins the page's engine load (started by js/engine-start.js, whenever it runs): resolves to {pyodide, bridge,
 * buildInfo, path: "snapshot"|"micropip", reason, installer (micropip path)}; rejects with a LoadError.
 * onProgress(phase, phaseFraction, total); onPath(path, phases) says which phases this load goes through (the
 * snapshot path has no "micropip" phase; it is called again if the snapshot fails and micropip takes over). Both
 * are told the latest at once.
 */
export async function loadEngine({ onProgress, onPath } = {}) {
  const load = shared();
  const listener = { onProgress, onPath };
  load.listeners.add(listener);
  try {
    const loading = await load.whenStarted;
    if (load.latestPath) onPath?.(...load.latestPath);
    if (load.latestProgress) onProgress?.(...load.latestProgress);
    return await loading;
  } finally {
    load.listeners.delete(listener);
  }
}

/** Whether `error` is a loading failure with a catalog key (a LoadError, made by either script's copy). */
export function isLoadError(error) {
  return error?.name === "LoadError" && typeof error.key === "string";
}

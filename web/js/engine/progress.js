// The loading bar's arithmetic: the phases of each load path, their shares of the bar, and the runtime phase
// moving on as Pyodide's own files arrive.

export const PHASES = ["runtime", "micropip", "engine"];

// Share of the bar each phase fills on each path (roughly its share of the bytes and time of a cold load).
// The snapshot path has no package installer: its engine phase is the snapshot's download and restore, which
// run alongside the runtime's download.
export const PATH_SHARES = {
  micropip: { runtime: 0.8, micropip: 0.08, engine: 0.12 },
  snapshot: { runtime: 0.6, engine: 0.4 },
};

/**
 * Reports progress as (phase, fraction of that phase, fraction of the whole bar). Phases may progress side by
 * side (the snapshot downloads while the runtime does): the phase reported is the first one not yet complete.
 */
export function progressReporter(onProgress, shares) {
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

// While files are still arriving, the bar creeps toward what is left: a file's bytes are only known once it
// is complete (Resource Timing), and the runtime's largest file (the wasm) takes seconds on a slow link.
const CREEP_EVERY_MS = 250;
const CREEP_TIME_CONSTANT_MS = 8000; // about two thirds of what is left in 8 s, never all of it
const CREEP_CEILING = 0.9;

/**
 * The runtime phase's fraction to show `sinceMs` after its downloads began, with `doneFraction` of the bytes in
 * (whole files): it moves on while bytes arrive, rises with either, and stays short of the end until every file
 * is in.
 */
export function creepingFraction(doneFraction, sinceMs) {
  if (doneFraction >= 1) return 1;
  const moving = 1 - Math.exp(-Math.max(0, sinceMs) / CREEP_TIME_CONSTANT_MS);
  return doneFraction + (1 - doneFraction) * CREEP_CEILING * moving;
}

/**
 * Moves the runtime phase forward as each of Pyodide's own files finishes downloading, by its share of their
 * bytes, and creeps on between them (creepingFraction). The files are build-info's runtime_files ({name under
 * pyodide/: bytes}), the build's one list of them. Returns a function that stops watching.
 */
export function watchRuntimeFiles(report, runtimeFiles, { now = () => performance.now() } = {}) {
  const files = Object.entries(runtimeFiles ?? {});
  const total = files.reduce((sum, [, bytes]) => sum + bytes, 0) || 1;
  const seen = new Set();
  let done = 0;
  const started = now();
  const update = (entries) => {
    for (const entry of entries) {
      const file = files.find(([name]) => entry.name.endsWith(`/pyodide/${name}`));
      if (file) seen.add(file[0]);
    }
    done = files.reduce((sum, [name, bytes]) => sum + (seen.has(name) ? bytes : 0), 0);
    report("runtime", done / total);
  };
  const creep = setInterval(() => report("runtime", creepingFraction(done / total, now() - started)), CREEP_EVERY_MS);
  if (typeof PerformanceObserver !== "function") return () => clearInterval(creep);
  const observer = new PerformanceObserver((list) => update(list.getEntries()));
  observer.observe({ type: "resource", buffered: true });
  return () => {
    clearInterval(creep);
    observer.disconnect();
  };
}

// Hosts the engine in a Pyodide runtime, for the page, the scores function and the snapshot maker alike: restores
// a build-time memory snapshot, or installs the engine's wheel, and hands back the bridge (ewar.bridge: the game);
// the runtime's care (ewar.runtime: preload, warm-up, freezing the heap) is runtimeOf(pyodide). No I/O here:
// callers bring loadPyodide and the bytes, so the same steps run in a browser and in Node.

import { failingWithWasm, WasmInstantiationError } from "./wasm-failures.js";

/** The folder of Pyodide's in-memory file system where a wheel is put for micropip to install ("emfs:"). */
const WHEEL_DIR = "/tmp/ewar-wheels";

/** The engine's Python module for the runtime's care (ewar.runtime): after_restore(), after_install(), installer()... */
export function runtimeOf(pyodide) {
  return pyodide.pyimport("ewar.runtime");
}

function engineModulesOf(pyodide) {
  const [version, modules] = JSON.parse(runtimeOf(pyodide).loaded());
  return { version, modules };
}

/** How many times a load whose WebAssembly failed to instantiate is made in all (a download cut short may not be). */
const RUNTIME_ATTEMPTS = 2;

/**
 * loadPyodide(options); when its WebAssembly fails to instantiate (which Pyodide only logs, never settling), tried
 * once more, then rejected with the WasmInstantiationError.
 */
export async function startPyodide(loadPyodide, options) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await failingWithWasm(loadPyodide(options));
    } catch (error) {
      if (!(error instanceof WasmInstantiationError) || attempt === RUNTIME_ATTEMPTS) throw error;
      console.warn(`ewar: ${error.message}; loading the runtime once more`);
    }
  }
}

/**
 * Restores a memory snapshot that holds the engine already imported. `expect` ({version, modules}, either
 * optional) is checked against what the restored interpreter holds; a mismatch throws.
 * Resolves to {pyodide, bridge}.
 */
export async function restoreEngine({ loadPyodide, indexURL, snapshot, expect = {}, options = {} }) {
  const pyodide = await startPyodide(loadPyodide, { indexURL, _loadSnapshot: snapshot, ...options });
  const held = engineModulesOf(pyodide);
  if (expect.version && held.version !== expect.version) {
    throw new Error(`the restored engine is ${held.version}, not ${expect.version}`);
  }
  if (expect.modules && JSON.stringify(held.modules) !== JSON.stringify(expect.modules)) {
    throw new Error("the restored snapshot does not hold the engine's modules");
  }
  return { pyodide, bridge: pyodide.pyimport("ewar.bridge") };
}

/** Unpacks a wheel straight into site-packages (no installer: the snapshot maker and the function's plain path). */
export function unpackWheel(pyodide, wheelBytes) {
  const site = pyodide.pyimport("site");
  const getPaths = site.getsitepackages;
  const paths = getPaths();
  const sitePackages = paths.toJs()[0];
  for (const proxy of [paths, getPaths, site]) proxy.destroy();
  pyodide.unpackArchive(wheelBytes, "wheel", { extractDir: sitePackages });
  const importlib = pyodide.pyimport("importlib");
  importlib.invalidate_caches();
  importlib.destroy();
}

/**
 * The page's plain path: unpacks micropip's own (pure Python) wheel, then has micropip install the engine's
 * wheel from the in-memory file system, as a package manager would. Resolves to the bridge.
 */
export async function installWithMicropip(pyodide, { micropipWheel, engineWheel, engineWheelName }) {
  pyodide.unpackArchive(micropipWheel, "wheel");
  const micropip = pyodide.pyimport("micropip");
  const wheelPath = `${WHEEL_DIR}/${engineWheelName}`;
  pyodide.FS.mkdirTree(WHEEL_DIR);
  pyodide.FS.writeFile(wheelPath, engineWheel);
  try {
    await micropip.install(`emfs:${wheelPath}`);
  } finally {
    micropip.destroy();
  }
  return pyodide.pyimport("ewar.bridge");
}

/**
 * Loads Pyodide plainly with the wheel unpacked and every engine module imported (the function's fallback when
 * no snapshot matches). Resolves to {pyodide, bridge}.
 */
export async function loadEngineFromWheel({ loadPyodide, indexURL, engineWheel, options = {} }) {
  const pyodide = await startPyodide(loadPyodide, { indexURL, ...options });
  unpackWheel(pyodide, engineWheel);
  runtimeOf(pyodide).preload();
  return { pyodide, bridge: pyodide.pyimport("ewar.bridge") };
}

const LARGEST_SCRUB_BLOCK = 16 * 2 ** 20;
const SMALLEST_SCRUB_BLOCK = 16;

/**
 * Zeroes the free chunks of the WebAssembly heap's allocator without growing the heap, so that a snapshot of it
 * compresses better: allocates the largest blocks that still fit (the footprint capped at its current size),
 * zeroes them, frees them all. Returns the bytes zeroed (0 where the runtime does not export the allocator).
 */
function zeroFreeMemory(module) {
  const { _malloc: malloc, _free: free } = module;
  const { _malloc_footprint: footprint, _malloc_set_footprint_limit: setLimit } = module;
  if (![malloc, free, footprint, setLimit].every((f) => typeof f === "function")) return 0;
  const blocks = [];
  let zeroed = 0;
  setLimit(footprint());
  try {
    for (let size = LARGEST_SCRUB_BLOCK; size >= SMALLEST_SCRUB_BLOCK; size /= 2) {
      for (let pointer = malloc(size) >>> 0; pointer !== 0; pointer = malloc(size) >>> 0) {
        module.HEAPU8.fill(0, pointer, pointer + size);
        blocks.push(pointer);
        zeroed += size;
      }
    }
  } finally {
    for (const pointer of blocks) free(pointer);
    setLimit(-1 >>> 0); // no limit
  }
  return zeroed;
}

/**
 * Build time (and the device's maker): a memory snapshot of Pyodide with the engine unpacked and every engine module
 * imported, garbage collected, frozen (gc.freeze) and its free memory zeroed. Resolves to {snapshot: Uint8Array, version, modules, heapBytes}.
 */
export async function makeEngineSnapshot({ loadPyodide, indexURL, engineWheel, options = {} }) {
  const pyodide = await startPyodide(loadPyodide, { indexURL, _makeSnapshot: true, ...options });
  unpackWheel(pyodide, engineWheel);
  const runtime = runtimeOf(pyodide);
  const [version, modules] = JSON.parse(runtime.preload());
  runtime.destroy(); // no proxy may outlive the snapshot
  const gc = pyodide.pyimport("gc");
  gc.collect();
  // Frozen as made: a restored heap's first collection (the loaders' freeze after their warm-up) then walks only
  // what ran since, not every object the import left (15-30 ms of CPU in Node; more on a phone).
  gc.freeze();
  gc.destroy();
  zeroFreeMemory(pyodide._module);
  const heapBytes = pyodide._module.HEAP8.length;
  return { snapshot: pyodide.makeMemorySnapshot(), version, modules, heapBytes };
}

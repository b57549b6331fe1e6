// The one snapshot maker (build step "snapshot"): a Pyodide memory snapshot with the engine imported, made through
// the shared host (web/common/host.js), for the page (gzipped) and for the scores function (raw).
//
//   node tools/builder/snapshot.mjs --pyodide DIR --wheel ewar-X.whl --out FOLDER [--stdlib ZIP]
//
// --stdlib: the standard-library zip the snapshot will be restored with (the page's trimmed one), else Pyodide's
// own. A snapshot holds the zip importer's index of that zip, so it must be restored with the same file.
//
// Writes FOLDER/engine.snapshot and FOLDER/engine.snapshot.gz, restores the snapshot once and plays a short game
// through it, then prints one JSON line: {size, sha256, gzip_size, pyodide_version, wasm_size, engine_version,
// modules, heap_bytes, make_ms, restore_ms}.
//
// Reproducible: the same runtime and wheel give the same bytes. Left alone, Pyodide's start-up reads three things
// from the host that end up in the heap: entropy (Python's hash secret and the Mersenne Twister states of
// random.Random instances), the wall clock (file times of the unpacked wheel, cached by the import system) and the
// monotonic clock (timings the interpreter keeps). While the snapshot is made, those read a seeded stream and a
// virtual clock instead. A fourth is the program's path: in Node, Emscripten names the interpreter after
// process.argv[1] (this file, wherever the checkout is), so the snapshot is made under a fixed name. Nothing secret
// is lost: the snapshot is public, so whatever state it holds was public already, and the page reseeds `random`
// after a restore (ewar.runtime.after_restore).
//
// Pyodide 314 restores a snapshot only when it fits the wasm module's default heap (30 MiB; pyodide#6254), so a
// heap that grew while making it is an error here, not a broken file later.
import nodeCrypto, { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { runToExit, stringOptions } from "./options.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const HOST = path.resolve(HERE, "../../web/common/host.js");
const DEFAULT_HEAP = 30 * 2 ** 20;
const BUILD_EPOCH_MS = 315619200000; // 1980-01-02T00:00:00Z, the engine wheel's zip time too
const ENTROPY_SEED = "ewar engine snapshot";
// Python's sys.executable in the snapshot: Emscripten's own default, what a browser page gets.
const PROGRAM_NAME = "./this.program";

function readOptions() {
  const values = stringOptions(["pyodide", "wheel", "out", "stdlib"], ["pyodide", "wheel", "out"]);
  return {
    pyodideDir: path.resolve(values.pyodide),
    wheel: path.resolve(values.wheel),
    out: path.resolve(values.out),
    stdlib: values.stdlib ? { stdLibURL: path.resolve(values.stdlib) } : {},
  };
}

/** SHA-256 in counter mode: a seeded byte stream standing in for the system's entropy. */
function seededBytes(seed) {
  let counter = 0;
  let block = Buffer.alloc(0);
  let used = 0;
  return function fill(view) {
    for (let i = 0; i < view.length; i += 1) {
      if (used === block.length) {
        block = createHash("sha256").update(`${seed}:${counter}`).digest();
        counter += 1;
        used = 0;
      }
      view[i] = block[used];
      used += 1;
    }
  };
}

/**
 * Runs `make` with the host's clocks and entropy made deterministic (see the top of this file), then puts the
 * real ones back. Each clock read advances a virtual clock by one millisecond, so time still moves.
 */
async function withReproducibleHost(make) {
  const real = {
    dateNow: Date.now,
    performanceNow: performance.now,
    randomFillSync: nodeCrypto.randomFillSync,
  };
  let virtualMs = 0;
  const fill = seededBytes(ENTROPY_SEED);
  Date.now = () => BUILD_EPOCH_MS + ++virtualMs;
  performance.now = () => ++virtualMs;
  nodeCrypto.randomFillSync = (buffer, offset = 0, size = buffer.byteLength - offset) => {
    fill(new Uint8Array(buffer.buffer, buffer.byteOffset + offset, size));
    return buffer;
  };
  try {
    return await make();
  } finally {
    Date.now = real.dateNow;
    performance.now = real.performanceNow;
    nodeCrypto.randomFillSync = real.randomFillSync;
  }
}

function quiet() {
  return { stdout: () => {}, stderr: (line) => process.stderr.write(`${line}\n`) };
}

/** Restores the snapshot as the page does, then plays a short game and checks its replay (after_restore). */
async function proveItRestores(host, loadPyodide, indexURL, made, stdlib) {
  const { pyodide, bridge } = await host.restoreEngine({
    loadPyodide,
    indexURL,
    snapshot: made.snapshot,
    expect: { version: made.version, modules: made.modules },
    options: { ...quiet(), ...stdlib },
  });
  host.runtimeOf(pyodide).after_restore();
  const view = JSON.parse(bridge.new_game("practice", 7, "normal", false, null).frame(5000)).view;
  if (view.clock !== 5000) throw new Error("the restored engine did not play");
  return pyodide;
}

async function main() {
  const { pyodideDir, wheel, out, stdlib } = readOptions();
  const host = await import(pathToFileURL(HOST).href);
  const indexURL = `${pyodideDir}${path.sep}`;
  const { loadPyodide, version: pyodideVersion } = await import(
    pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href
  );
  const engineWheel = new Uint8Array(readFileSync(wheel));

  let started = performance.now();
  const made = await withReproducibleHost(() =>
    host.makeEngineSnapshot({
      loadPyodide,
      indexURL,
      engineWheel,
      options: { ...quiet(), ...stdlib, _sysExecutable: PROGRAM_NAME },
    }),
  );
  const makeMs = performance.now() - started;
  if (made.heapBytes > DEFAULT_HEAP) {
    throw new Error(`the heap grew to ${made.heapBytes} bytes (> ${DEFAULT_HEAP}); such a snapshot cannot be restored`);
  }
  started = performance.now();
  await proveItRestores(host, loadPyodide, indexURL, made, stdlib);
  const restoreMs = performance.now() - started;

  const packed = gzipSync(made.snapshot, { level: 9 });
  mkdirSync(out, { recursive: true });
  for (const [name, bytes] of [
    ["engine.snapshot", made.snapshot],
    ["engine.snapshot.gz", packed],
  ]) {
    writeFileSync(path.join(out, `${name}.partial`), bytes);
    renameSync(path.join(out, `${name}.partial`), path.join(out, name));
  }
  const facts = {
    size: made.snapshot.length,
    sha256: createHash("sha256").update(made.snapshot).digest("hex"),
    gzip_size: packed.length,
    pyodide_version: pyodideVersion,
    wasm_size: statSync(path.join(pyodideDir, "pyodide.asm.wasm")).size,
    engine_version: made.version,
    modules: made.modules,
    heap_bytes: made.heapBytes,
    make_ms: Math.round(makeMs),
    restore_ms: Math.round(restoreMs),
  };
  process.stdout.write(`${JSON.stringify(facts)}\n`);
}

await runToExit("snapshot", main);

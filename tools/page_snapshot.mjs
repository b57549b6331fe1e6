// Build step (build.py, step page_snapshot): the page's Pyodide memory snapshot with the engine imported.
//
//   node tools/page_snapshot.mjs --pyodide DIR --wheel ewar-X.whl --out engine.snapshot.gz
//
// Loads Pyodide from DIR (the same files dist/pyodide/ holds) in Node with _makeSnapshot, unpacks the wheel into
// site-packages (micropip is not needed, and importing it would grow the heap: see below), imports every ewar
// module, and writes the gzipped snapshot. Then it restores the snapshot once to prove it works, and prints one
// JSON line: {size, sha256, gzip_size, pyodide_version, engine_version, modules, make_ms, restore_ms}.
//
// Pyodide 314 restores a snapshot only when it fits the wasm module's default heap (30 MiB; pyodide#6254): a
// heap that grew while making it gives a snapshot that cannot be restored, so this exits non-zero instead.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";

const DEFAULT_HEAP = 30 * 2 ** 20;

// Every ewar module but the command line (its argparse would only grow the heap); nothing is imported later.
const PRELOAD = `
import importlib, json, pkgutil, sys
importlib.invalidate_caches()
import ewar
for _info in pkgutil.walk_packages(ewar.__path__, "ewar."):
    if _info.name != "ewar.__main__":
        importlib.import_module(_info.name)
import ewar.bridge
del _info
json.dumps([ewar.bridge.ENGINE_VERSION, sorted(m for m in sys.modules if m.split(".")[0] == "ewar")])
`;
const LOADED = `
import json, sys
json.dumps([sys.modules["ewar.bridge"].ENGINE_VERSION, sorted(m for m in sys.modules if m.split(".")[0] == "ewar")])
`;
// A tiny game through the restored bridge: the snapshot must not only import but play.
const SMOKE = `
import json, ewar.bridge as b
_s = b.new_game("practice", 7, "normal", False, None)
_v = json.loads(_s.frame(5000))["view"]
del _s
_v["clock"]
`;

function options() {
  const { values } = parseArgs({
    options: { pyodide: { type: "string" }, wheel: { type: "string" }, out: { type: "string" } },
  });
  for (const name of ["pyodide", "wheel", "out"]) {
    if (!values[name]) throw new Error(`--${name} is required`);
  }
  return { pyodideDir: path.resolve(values.pyodide), wheel: path.resolve(values.wheel), out: path.resolve(values.out) };
}

function quiet() {
  return { stdout: () => {}, stderr: (line) => process.stderr.write(`${line}\n`) };
}

async function make(loadPyodide, indexURL, wheelBytes) {
  const pyodide = await loadPyodide({ indexURL, _makeSnapshot: true, ...quiet() });
  const sitePackages = pyodide.runPython("import sys\n[p for p in sys.path if p.endswith('site-packages')][0]");
  pyodide.unpackArchive(wheelBytes, "wheel", { extractDir: sitePackages });
  const [engineVersion, modules] = JSON.parse(pyodide.runPython(PRELOAD));
  const heap = pyodide._module.HEAP8.length;
  if (heap > DEFAULT_HEAP) {
    throw new Error(`the heap grew to ${heap} bytes (> ${DEFAULT_HEAP}); such a snapshot cannot be restored`);
  }
  return { snapshot: pyodide.makeMemorySnapshot(), engineVersion, modules };
}

async function restore(loadPyodide, indexURL, snapshot, made) {
  const pyodide = await loadPyodide({ indexURL, _loadSnapshot: snapshot, ...quiet() });
  const [engineVersion, modules] = JSON.parse(pyodide.runPython(LOADED));
  if (engineVersion !== made.engineVersion || JSON.stringify(modules) !== JSON.stringify(made.modules)) {
    throw new Error("the restored snapshot does not hold the engine's modules");
  }
  if (pyodide.runPython(SMOKE) !== 5000) throw new Error("the restored engine did not play");
}

async function main() {
  const { pyodideDir, wheel, out } = options();
  const indexURL = `${pyodideDir}${path.sep}`;
  const { loadPyodide, version } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
  const wheelBuffer = readFileSync(wheel);
  const wheelBytes = new Uint8Array(wheelBuffer.buffer, wheelBuffer.byteOffset, wheelBuffer.byteLength);
  let started = performance.now();
  const made = await make(loadPyodide, indexURL, wheelBytes);
  const makeMs = performance.now() - started;
  started = performance.now();
  await restore(loadPyodide, indexURL, made.snapshot, made);
  const restoreMs = performance.now() - started;
  const packed = gzipSync(made.snapshot, { level: 9 });
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(`${out}.partial`, packed);
  renameSync(`${out}.partial`, out);
  const facts = {
    size: made.snapshot.length,
    sha256: createHash("sha256").update(made.snapshot).digest("hex"),
    gzip_size: packed.length,
    pyodide_version: version,
    engine_version: made.engineVersion,
    modules: made.modules,
    make_ms: Math.round(makeMs),
    restore_ms: Math.round(restoreMs),
  };
  process.stdout.write(`${JSON.stringify(facts)}\n`);
}

try {
  await main();
  process.exit(0); // Pyodide keeps handles open; a build step must end.
} catch (error) {
  process.stderr.write(`page_snapshot: ${error.stack ?? error}\n`);
  process.exit(1);
}

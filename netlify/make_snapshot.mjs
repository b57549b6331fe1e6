// Build step: writes build/function/engine.snapshot (+ .json fingerprint), a Pyodide memory snapshot with ewar imported.
// Usage: node netlify/make_snapshot.mjs [--wheel dist/wheels/ewar-X-py3-none-any.whl] [--out build/function]
// Interim: it makes the snapshot through the shared host (web/js/engine/host.js) until the build's one snapshot
// maker replaces this file.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { makeEngineSnapshot } from "../web/js/engine/host.js";
import { loadEngine, locateAssets, SNAPSHOT_FORMAT } from "./functions/scores/engine.mjs";

function parseOptions() {
  const { values } = parseArgs({
    options: { wheel: { type: "string" }, out: { type: "string" }, root: { type: "string" } },
  });
  const root = path.resolve(values.root ?? process.cwd());
  return { root, wheelPath: values.wheel, outDir: path.resolve(root, values.out ?? "build/function") };
}

async function makeSnapshot({ root, wheelPath }) {
  const assets = locateAssets({ root, wheelPath, snapshotPath: null });
  const { loadPyodide, version } = await import(pathToFileURL(path.join(assets.pyodideDir, "pyodide.mjs")).href);
  const engineWheel = new Uint8Array(readFileSync(assets.wheelPath));
  const made = await makeEngineSnapshot({
    loadPyodide,
    indexURL: `${assets.pyodideDir}${path.sep}`,
    engineWheel,
    options: { stdout: () => {} },
  });
  const meta = {
    format: SNAPSHOT_FORMAT,
    pyodide_version: version,
    wasm_size: statSync(path.join(assets.pyodideDir, "pyodide.asm.wasm")).size,
    wheel: path.basename(assets.wheelPath),
    wheel_sha256: createHash("sha256").update(engineWheel).digest("hex"),
    engine_version: made.version,
    modules: made.modules,
    size: made.snapshot.length,
  };
  return { snapshot: made.snapshot, meta };
}

function writeSnapshot(outDir, { snapshot, meta }) {
  mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, "engine.snapshot");
  writeFileSync(file, snapshot);
  writeFileSync(`${file}.json`, `${JSON.stringify(meta, null, 2)}\n`);
  return file;
}

async function main() {
  const { root, wheelPath, outDir } = parseOptions();
  const made = await makeSnapshot({ root, wheelPath });
  const file = writeSnapshot(outDir, made);
  const engine = await loadEngine({ root, wheelPath, snapshotPath: file });
  if (engine.how !== "snapshot") {
    rmSync(file, { force: true });
    rmSync(`${file}.json`, { force: true });
    console.error("make_snapshot: the snapshot did not restore; removed it (the function will load plainly)");
    return;
  }
  const mib = (made.meta.size / 2 ** 20).toFixed(1);
  console.log(
    `make_snapshot: ${path.relative(root, file)} (${mib} MiB, ${made.meta.wheel}), restores in ` +
      `${engine.loadMs.toFixed(0)} ms`,
  );
}

await main();
// Pyodide keeps handles open; a build step must end.
process.exit(0);

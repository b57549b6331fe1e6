// Build step: writes build/function/engine.snapshot (+ .json fingerprint), a Pyodide memory snapshot with ewar imported.
// Usage: node netlify/make_snapshot.mjs [--wheel dist/wheels/ewar-X-py3-none-any.whl] [--out build/function]
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { loadEngine, makeSnapshot } from "./functions/scores/engine.mjs";

function parseOptions() {
  const { values } = parseArgs({
    options: { wheel: { type: "string" }, out: { type: "string" }, root: { type: "string" } },
  });
  const root = path.resolve(values.root ?? process.cwd());
  return { root, wheelPath: values.wheel, outDir: path.resolve(root, values.out ?? "build/function") };
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
  console.log(`make_snapshot: ${path.relative(root, file)} (${mib} MiB, ${made.meta.wheel}), restores in ` +
    `${engine.loadMs.toFixed(0)} ms`);
}

await main();
// Pyodide keeps handles open; a build step must end.
process.exit(0);

// Which files of Pyodide's standard library the game needs, found by running it (build step "stdlib").
//
//   node tools/builder/stdlib.mjs --pyodide DIR --micropip MICROPIP.whl --wheel ewar-X.whl [--stdlib ZIP]
//   node tools/builder/stdlib.mjs --pyodide DIR --compile SOURCE.zip --out COMPILED.zip
//   node tools/builder/stdlib.mjs --pyodide DIR --compile-wheel ENGINE.whl --out COMPILED.whl
//
// Loads Pyodide (with the standard-library zip given, else Pyodide's own), installs the engine with micropip as
// the page's plain path does, imports every engine module and every standard-library module the engine's source
// names (tools/builder/stdlib_probe.py), plays a practice game and a daily one through the bridge as the page does,
// verifies and judges their replays, resumes one, and runs what a restored snapshot runs (after_restore). Then
// prints one JSON line: {entries: [zip entries imported], imported: [modules the engine names]}.
// With a trimmed zip (--stdlib), a module it lacks fails the run: the build refuses that zip.
// --compile: writes the zip with its .py files compiled by Pyodide's own Python (tools/builder/stdlib_compile.py),
// with a fixed hash seed (frozenset constants are marshalled in hash order); prints {compiled: N}.
// --compile-wheel: the same for the engine's wheel, compiled as `import` would (compile_wheel: nothing stripped).
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { runToExit, stringOptions } from "./options.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const HOST = path.resolve(HERE, "../../web/common/host.js");
const PROBE = path.join(HERE, "stdlib_probe.py");
const COMPILER = path.join(HERE, "stdlib_compile.py");
const DAILY_DATE = "2026-11-30";

function readOptions() {
  const names = ["pyodide", "micropip", "wheel", "stdlib", "compile", "compile-wheel", "out"];
  const compiles = (values) => values.compile || values["compile-wheel"];
  return stringOptions(names, (values) => (compiles(values) ? ["pyodide", "out"] : ["pyodide", "micropip", "wheel"]));
}

/** Plays a game through the bridge as the page does: frames at each wake-up, flips on turn, a slap now and then. */
function play(session) {
  let time = 0;
  for (let step = 0; step < 20000; step += 1) {
    const { view } = JSON.parse(session.frame(time));
    if (view.over) return session.replay();
    if (view.your_turn) session.flip(time + 300);
    else if (step % 7 === 0) session.slap(time + 5);
    time = Math.max(time + 301, view.wake_at ?? time + 500);
  }
  throw new Error("the game did not end");
}

function exercise(bridge, runtime) {
  bridge.rule_numbers();
  runtime.after_install();
  runtime.installer();
  play(bridge.new_game("practice", 11, "fast", false, null));
  const daily = play(bridge.new_game("daily", bridge.daily_seed(DAILY_DATE), "normal", false, DAILY_DATE));
  const verdict = JSON.parse(bridge.verify(daily));
  const judged = JSON.parse(bridge.judge_daily(daily, DAILY_DATE, verdict.score ?? null));
  if (!("ok" in judged)) throw new Error(`judge_daily answered ${JSON.stringify(judged)}`);
  bridge.resume(daily, 1000).view();
  runtime.after_restore();
}

/** Compiles a zip's .py files in Pyodide's file system and writes the result to `out` (a wheel: compile_wheel). */
async function compileZip(options) {
  const wheel = options["compile-wheel"];
  const { loadPyodide } = await import(pathToFileURL(path.join(options.pyodide, "pyodide.mjs")).href);
  const pyodide = await loadPyodide({
    indexURL: `${path.resolve(options.pyodide)}${path.sep}`,
    env: { PYTHONHASHSEED: "0" },
    stdout: () => {},
    stderr: (line) => process.stderr.write(`${line}\n`),
  });
  pyodide.FS.writeFile("/tmp/source.zip", new Uint8Array(readFileSync(wheel ?? options.compile)));
  const compiler = pyodide.globals.get("dict")();
  pyodide.runPython(readFileSync(COMPILER, "utf8"), { globals: compiler });
  const compiled = compiler.get(wheel ? "compile_wheel" : "compile_zip")("/tmp/source.zip", "/tmp/compiled.zip");
  writeFileSync(options.out, pyodide.FS.readFile("/tmp/compiled.zip"));
  process.stdout.write(`${JSON.stringify({ compiled })}\n`);
}

async function main() {
  const options = readOptions();
  if (options.compile || options["compile-wheel"]) {
    await compileZip(options);
    return;
  }
  const host = await import(pathToFileURL(HOST).href);
  const indexURL = `${path.resolve(options.pyodide)}${path.sep}`;
  const { loadPyodide } = await import(pathToFileURL(path.join(options.pyodide, "pyodide.mjs")).href);
  const pyodide = await loadPyodide({
    indexURL,
    ...(options.stdlib ? { stdLibURL: path.resolve(options.stdlib) } : {}),
    stdout: () => {},
    stderr: (line) => process.stderr.write(`${line}\n`),
  });
  const bridge = await host.installWithMicropip(pyodide, {
    micropipWheel: new Uint8Array(readFileSync(options.micropip)),
    engineWheel: new Uint8Array(readFileSync(options.wheel)),
    engineWheelName: path.basename(options.wheel),
  });
  const runtime = host.runtimeOf(pyodide);
  runtime.preload();
  const probe = pyodide.globals.get("dict")();
  pyodide.runPython(readFileSync(PROBE, "utf8"), { globals: probe });
  const imported = probe.get("import_what_the_package_names")("ewar").toJs();
  exercise(bridge, runtime);
  const entries = probe.get("zip_entries_in_use")(probe.get("stdlib_zip_path")()).toJs();
  process.stdout.write(`${JSON.stringify({ entries, imported })}\n`);
}

await runToExit("stdlib", main);

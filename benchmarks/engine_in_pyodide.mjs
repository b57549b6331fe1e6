// The engine inside Pyodide (Node, the same runtime the page and the function use):
// the cost of one page call (frame: advance + view + events as a JSON string that
// crosses into JavaScript), whole bot games per second, and a 10-minute replay's check.
//   node benchmarks/engine_in_pyodide.mjs      (after `python build.py`)
import { readFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { loadPyodide } from "pyodide";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const info = JSON.parse(readFileSync(path.join(root, "dist", "build-info.json"), "utf8"));

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

const started = performance.now();
const pyodide = await loadPyodide();
pyodide.unpackArchive(new Uint8Array(readFileSync(path.join(root, "dist", info.engine_wheel))), "wheel");
const bridge = pyodide.pyimport("ewar.bridge");
console.log(`Pyodide ${pyodide.version} + engine loaded in ${(performance.now() - started).toFixed(0)} ms`);

const session = bridge.new_game("practice", 3, "normal", false, null);
const costs = [];
for (let step = 0; step < 5000; step += 1) {
  const before = performance.now();
  JSON.parse(session.frame(step * 16));
  costs.push(performance.now() - before);
}
costs.sort((a, b) => a - b);
console.log(`one page call, frame() + JSON.parse in JS: median ${(percentile(costs, 0.5) * 1000).toFixed(0)} us, ` +
  `p99 ${(percentile(costs, 0.99) * 1000).toFixed(0)} us`);

pyodide.runPython(`
import time
from players import play_simulated_human
from ewar.game import Game
from ewar.replay import Replay, verify

_started = time.perf_counter()
for _seed in range(100):
    play_simulated_human(Game(_seed), 450, 300)
games_per_second = 100 / (time.perf_counter() - _started)
for _seed in range(1000):
    _game = play_simulated_human(Game(_seed), 450, 300)
    if _game.outcome.won and _game.outcome.duration_ms >= 600_000:
        break
_text = Replay.of(_game).to_json()
_times = []
for _ in range(10):
    _t = time.perf_counter()
    verify(Replay.from_json(_text))
    _times.append(time.perf_counter() - _t)
verify_ms = sorted(_times)[5] * 1000
replay_minutes = _game.outcome.duration_ms / 60000
`);
const g = pyodide.globals;
console.log(`CPU-only games in Pyodide: ${g.get("games_per_second").toFixed(0)} games/s`);
console.log(`verify a ${g.get("replay_minutes").toFixed(1)}-minute replay in Pyodide: ${g.get("verify_ms").toFixed(1)} ms`);
process.exit(0);

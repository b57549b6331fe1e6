// The game on the table, kept as it is played so that a reload brings it back (games.js).

import { keyed } from "../base/local-store.js";

const KEY_RUNNING = "ewar.game"; // {replay, clock, about, timeline}

/** backend: the page's (local-store.js, pageBackend). */
export function createRunningGameStore(backend) {
  const kept = keyed(backend);

  /** The game on the table as last saved ({replay, clock, about, timeline}), or null. */
  function runningGame() {
    const saved = kept.readJson(KEY_RUNNING, {});
    return typeof saved.replay === "string" && Number.isInteger(saved.clock) ? saved : null;
  }

  const saveRunningGame = (game) => kept.writeJson(KEY_RUNNING, game);
  const clearRunningGame = () => kept.remove(KEY_RUNNING);

  return { runningGame, saveRunningGame, clearRunningGame };
}

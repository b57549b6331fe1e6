// The page's one small emitter: the app's state (phase, and the panel over the table) and what happens to it
// (language, game finished, leaderboard changed). Modules talk through it, never by watching each other's DOM.

/** Where the app is: loading the engine, ready (nothing dealt yet), playing, over (a result), watching (a finished game played back), or error. */
export const PHASES = Object.freeze(["loading", "ready", "playing", "over", "watching", "error"]);
/** What covers the table: the loading screen, the menu, a game's result, or nothing (play). */
export const PANELS = Object.freeze(["loading", "menu", "result", null]);

/**
 * The events, each with what it carries:
 * - state: {phase, panel, previous: {phase, panel}}, after every change of either;
 * - language: {language}, once a new language's texts are on the page;
 * - game-finished: {view, replay, scored, date}, once per game, when the engine says it is over;
 * - leaderboard-changed: {reason}, when scores were settled elsewhere (the service worker sent the outbox).
 * - player-forgotten: {forgotten, entries, boards}, when the server forgot this device (forget me).
 * - play-past-daily: {date}, when the player asks an earlier day's board for its daily again (as practice).
 * - day-turned: {today, previous}, when the UTC day changed under the open page (midnight, or a clock set back).
 * - watch-entry: {date, entry, own}, when the player asks to watch a board's entry (own: the row is theirs).
 * - board-place: {where: "result" | "menu"}, where the daily board belongs now (after a scored daily, the result).
 */
export const EVENTS = Object.freeze([
  "state",
  "language",
  "game-finished",
  "leaderboard-changed",
  "player-forgotten",
  "play-past-daily",
  "day-turned",
  "watch-entry",
  "board-place",
]);

function checkEvent(name) {
  if (!EVENTS.includes(name)) throw new TypeError(`unknown app event ${JSON.stringify(name)}`);
}

function checkState({ phase, panel }) {
  if (!PHASES.includes(phase)) throw new TypeError(`unknown phase ${JSON.stringify(phase)}`);
  if (!PANELS.includes(panel)) throw new TypeError(`unknown panel ${JSON.stringify(panel)}`);
}

/**
 * The emitter: on(name, listener) -> unsubscribe; emit(name, detail); state(); setState({phase?, panel?}).
 * A listener that throws is reported and does not keep the others from hearing the event.
 */
export function createAppEvents({ phase = "loading", panel = "loading" } = {}) {
  const listeners = new Map(EVENTS.map((name) => [name, new Set()]));
  let current = Object.freeze({ phase, panel });
  checkState(current);

  function on(name, listener) {
    checkEvent(name);
    listeners.get(name).add(listener);
    return () => listeners.get(name).delete(listener);
  }

  function emit(name, detail = {}) {
    checkEvent(name);
    for (const listener of [...listeners.get(name)]) {
      try {
        listener(detail);
      } catch (error) {
        if (typeof globalThis.reportError === "function") globalThis.reportError(error);
        else console.error(error);
      }
    }
  }

  /** Changes the phase, the panel or both; listeners hear "state" only if something changed. */
  function setState(changes) {
    const next = Object.freeze({ ...current, ...changes });
    checkState(next);
    if (next.phase === current.phase && next.panel === current.panel) return;
    const previous = current;
    current = next;
    emit("state", { ...next, previous });
  }

  return { on, emit, setState, state: () => current };
}

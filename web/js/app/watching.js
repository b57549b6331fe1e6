// Watching a finished game on the table: your own last game (its record stays on the device, so this works
// offline) or a board entry's (fetched from the scores API). While watching, the table is the watch's: the
// player's input does nothing, nothing is saved or sent, and closing goes back to where the watch was opened.

import { ENDPOINTS } from "../../common/contract.js";
import { t } from "../base/i18n.js";
import { createWatchBar } from "../table/watch-bar.js";
import { createWatcher } from "../table/watcher.js";
import { isolate, setPerspective } from "../table/words.js";

/** The board entry's record, or {error: i18n key} saying why it cannot be had. */
export async function fetchEntryReplay(date, entry, fetchImpl = fetch) {
  let response;
  try {
    if (navigator.onLine === false) throw new TypeError("offline");
    const query = new URLSearchParams({ date, entry: String(entry) });
    response = await fetchImpl(`${ENDPOINTS.replay}?${query}`, { headers: { accept: "application/json" } });
  } catch {
    return { error: "watch.error.offline" };
  }
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (response.status === 404) return { error: "watch.error.not_found" };
  if (response.status === 410) return { error: "watch.error.replay_gone" };
  if (!response.ok || !body || typeof body.replay !== "object" || body.replay === null) {
    return { error: "watch.error.failed" };
  }
  return { answer: body };
}

/**
 * events: the app's emitter; bridge: the engine's bridge; actuator: the table's; bar: the #watch-bar element;
 * statuses: {own, board}, the elements that say why a watch from the result or from the board could not start;
 * redrawGame(): draws the game on the table again once the watch is closed.
 */
export function createWatching({ events, bridge, actuator, bar, statuses, redrawGame }) {
  let lastOwnReplay = null; // the record of your last finished game, JSON text
  let back = null; // how to return: {phase, panel, reopen()}

  const watcher = createWatcher({
    bridge,
    actuator,
    onMoment: (ms, view) => {
      watchBar.drawTime(ms);
      if (!view.over) watchBar.clearResult();
    },
    onEnd: (view) => {
      if (view.result) watchBar.drawResult(view.result);
    },
  });
  const watchBar = createWatchBar({
    root: bar,
    onPlay: () => {
      watcher.play();
      watchBar.drawPlaying(watcher.isPlaying());
    },
    onPause: () => {
      watcher.pause();
      watchBar.drawPlaying(false);
    },
    onSpeed: (speed) => {
      watcher.setSpeed(speed);
      watchBar.drawSpeed(speed);
    },
    onSeek: (ms) => watcher.seek(ms),
    onClose: close,
  });

  events.on("game-finished", ({ replay }) => {
    lastOwnReplay = replay;
  });

  function say(status, key) {
    status.textContent = key ? t(key) : "";
  }

  /**
   * Opens a record (JSON text) under a heading, its South told as `name` (null: yours); false (and words in
   * `status`) when it cannot be watched.
   */
  function open(recordJson, heading, status, name = null) {
    const state = events.state();
    setPerspective({ watching: true, name });
    try {
      watcher.open(recordJson);
    } catch (error) {
      setPerspective();
      console.warn("watch: the record cannot be played back", error);
      say(status, "watch.error.bad");
      return false;
    }
    say(status, null);
    back = { phase: state.phase, panel: state.panel };
    watchBar.show(watcher.timeline(), heading);
    events.setState({ phase: "watching", panel: null });
    watchBar.focus();
    watcher.play();
    watchBar.drawPlaying(true);
    return true;
  }

  /** Your own last finished game, from the device. */
  function watchOwn() {
    if (!lastOwnReplay) return false;
    return open(lastOwnReplay, t("watch.headingOwn"), statuses.own);
  }

  /**
   * A board entry's game (date YYYY-MM-DD, entry number), fetched; a failure is told in `status`. own: the entry
   * is the player's own (their row), told as "you".
   */
  async function watchEntry(date, entry, { own = false } = {}) {
    say(statuses.board, "watch.loading");
    const { answer, error } = await fetchEntryReplay(date, entry);
    if (error) {
      say(statuses.board, error);
      return false;
    }
    const heading = own ? t("watch.headingYours") : t("watch.headingBoard", { name: isolate(answer.name) });
    return open(JSON.stringify(answer.replay), heading, statuses.board, own ? null : String(answer.name ?? ""));
  }

  function close() {
    if (!watcher.isOpen()) return;
    watcher.close();
    setPerspective();
    watchBar.hide();
    const to = back ?? { phase: "ready", panel: "menu" };
    back = null;
    redrawGame();
    events.setState({ phase: to.phase, panel: to.panel });
  }

  return {
    watchOwn,
    watchEntry,
    close,
    isWatching: () => watcher.isOpen(),
    hasOwn: () => lastOwnReplay !== null,
    watcher,
  };
}

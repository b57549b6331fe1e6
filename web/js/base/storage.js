// Remembers settings, game history, daily scores, the boards seen and the loader's choices in localStorage,
// falling back to memory where storage is unavailable. The page's one door to localStorage.

import { afterDailyStart, afterGame, EMPTY_HISTORY, shownStreak } from "./history.js";

const KEY_SETTINGS = "ewar.settings";
const KEY_HISTORY = "ewar.history";
const KEY_SCORES = "ewar.scores"; // {date: the daily's submission record}
const KEY_BOARDS = "ewar.leaderboards"; // {date: {board, seenAt}}
const KEY_LOAD_PATH = "ewar.load"; // "snapshot" | "micropip" | "auto": forces the loader's path (tests, tools)
const KEY_SNAPSHOT_SEEN = "ewar.snapshotLoaded"; // sha256 of the last memory snapshot this browser loaded
const KEY_SNAPSHOT_FILE = "ewar.snapshotFile"; // its file: read as a load starts
const KEY_DEVICE_SNAPSHOT_FAILED = "ewar.deviceSnapshotFailed"; // the device_snapshot_key whose snapshot failed here
const KEY_RUNNING = "ewar.game"; // the game on the table: {replay, clock, about, timeline}
const KEY_WELCOMED = "ewar.welcomed"; // set once the first visit's welcome was shown
const KEY_PLAYER = "ewar.player"; // this device's random player id, sent with its dailies (friends' boards)
const KEY_FRIENDS = "ewar.friends"; // the friends' boards this device joined: [{code, name}]
const KEY_SERVER_OFFSET = "ewar.serverOffsetMs"; // how far the server's clock is ahead of this device's (ms)
const PLAYER_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

export const DEFAULT_SETTINGS = Object.freeze({
  speed: "normal",
  sound: true,
  language: null,
  lenient: false,
  houseRules: [], // the house rules switched on for practice (their engine names)
});
function memoryBackend() {
  const items = new Map();
  return {
    getItem: (key) => (items.has(key) ? items.get(key) : null),
    setItem: (key, value) => {
      items.set(key, String(value));
    },
    removeItem: (key) => {
      items.delete(key);
    },
  };
}

function localBackend() {
  try {
    const store = window.localStorage;
    const probe = "ewar.probe";
    store.setItem(probe, "1");
    store.removeItem(probe);
    return store;
  } catch {
    return memoryBackend();
  }
}

function readJson(backend, key, fallback) {
  try {
    const text = backend.getItem(key);
    return text ? { ...fallback, ...JSON.parse(text) } : { ...fallback };
  } catch {
    return { ...fallback };
  }
}

function writeJson(backend, key, value) {
  writeText(backend, key, JSON.stringify(value));
}

function readText(backend, key) {
  try {
    return backend.getItem(key);
  } catch {
    return null;
  }
}

function writeText(backend, key, text) {
  try {
    backend.setItem(key, text);
  } catch {
    // Full or blocked storage: the game goes on, only this save is lost.
  }
}

let pageBackend = null; // one per page: where localStorage is blocked, every part shares the same memory

function sharedBackend() {
  pageBackend ??= localBackend();
  return pageBackend;
}

export function createStorage(backend = sharedBackend()) {
  const settings = () => readJson(backend, KEY_SETTINGS, DEFAULT_SETTINGS);
  const history = () => readJson(backend, KEY_HISTORY, EMPTY_HISTORY);

  function saveSettings(changes) {
    const next = { ...settings(), ...changes };
    writeJson(backend, KEY_SETTINGS, next);
    return next;
  }

  /** Today's daily record ({date, finished, score, won}) or null when not yet played today. */
  function dailyRecord(date) {
    const daily = history().daily;
    return daily && daily.date === date ? daily : null;
  }

  /** Starting the scored daily is the day's one attempt, finished or not. */
  function recordDailyStart(date) {
    writeJson(backend, KEY_HISTORY, afterDailyStart(history(), date));
  }

  /** Days in a row with a daily played, as of `today` (history.js, shownStreak). */
  function dayStreak(today) {
    return shownStreak(history(), today);
  }

  /** A started daily that could not be restored (its record no longer plays): the day's attempt is given back. */
  function forgetDailyStart(date) {
    const h = history();
    if (h.daily?.date === date && !h.daily.finished) writeJson(backend, KEY_HISTORY, { ...h, daily: null });
  }

  /** Counts a finished game; a daily's score is the day's, and the quickest slap ever is kept. */
  function recordGame(result, { dailyDate = null } = {}) {
    const next = afterGame(history(), result, dailyDate);
    writeJson(backend, KEY_HISTORY, next);
    return next;
  }

  /** The daily scores' submission records, by date, of the given dates only (older ones are dropped). */
  function scoreRecords(dates) {
    return onlyDates(readJson(backend, KEY_SCORES, {}), dates);
  }

  /** Keeps one day's submission record (rec.date), and the other records of `dates`. */
  function saveScoreRecord(rec, dates) {
    writeJson(backend, KEY_SCORES, { ...scoreRecords(dates), [rec.date]: rec });
  }

  /** The leaderboard last seen for `date` ({board, seenAt}: the server's answer and when), or null. */
  function keptBoard(date) {
    return readJson(backend, KEY_BOARDS, {})[date] ?? null;
  }

  /** Keeps the board just seen for `date`, and the boards of `dates` (older ones are dropped). */
  function keepBoard(date, board, seenAt, dates) {
    const boards = onlyDates(readJson(backend, KEY_BOARDS, {}), dates);
    writeJson(backend, KEY_BOARDS, { ...boards, [date]: { board, seenAt } });
  }

  /** The loader's path forced by a tool or a test, or null. */
  function forcedLoadPath() {
    return readText(backend, KEY_LOAD_PATH);
  }

  /** The game on the table as last saved ({replay, clock, about, timeline}), or null. */
  function runningGame() {
    const saved = readJson(backend, KEY_RUNNING, {});
    return typeof saved.replay === "string" && Number.isInteger(saved.clock) ? saved : null;
  }

  function saveRunningGame(game) {
    writeJson(backend, KEY_RUNNING, game);
  }

  function clearRunningGame() {
    try {
      backend.removeItem(KEY_RUNNING);
    } catch {
      // Blocked storage: nothing was kept either.
    }
  }

  /** Whether this browser has been welcomed (the first visit's how-to and guided game). */
  const welcomed = () => readText(backend, KEY_WELCOMED) !== null;
  const rememberWelcome = () => writeText(backend, KEY_WELCOMED, "1");

  /** This device's player id: 32 random base64url characters, made once (crypto.getRandomValues) and kept. */
  function playerId() {
    const kept = readText(backend, KEY_PLAYER);
    if (kept && PLAYER_PATTERN.test(kept)) return kept;
    const made = randomId(24);
    writeText(backend, KEY_PLAYER, made);
    return made;
  }

  /** The friends' boards this device joined, oldest first: [{code, name}]. */
  function friendsBoards() {
    try {
      const list = JSON.parse(readText(backend, KEY_FRIENDS) ?? "[]");
      return Array.isArray(list) ? list.filter((b) => typeof b?.code === "string" && typeof b?.name === "string") : [];
    } catch {
      return [];
    }
  }

  function saveFriendsBoards(list) {
    writeJson(backend, KEY_FRIENDS, list);
  }

  /** Forget me, on this device: its player id, its daily score records, the boards it kept and its friends' boards. */
  function forgetPlayer() {
    for (const key of [KEY_PLAYER, KEY_SCORES, KEY_BOARDS, KEY_FRIENDS]) {
      try {
        backend.removeItem(key);
      } catch {
        // Storage refused (private mode): nothing was kept there either.
      }
    }
  }

  /** The server's clock minus this device's, as last learnt (web/common/clock.js); 0 until heard. */
  const serverOffset = () => {
    const kept = Number(readText(backend, KEY_SERVER_OFFSET));
    return Number.isFinite(kept) ? kept : 0;
  };
  const keepServerOffset = (ms) => writeText(backend, KEY_SERVER_OFFSET, String(ms));
  const snapshotSeen = () => readText(backend, KEY_SNAPSHOT_SEEN);
  const snapshotFileSeen = () => readText(backend, KEY_SNAPSHOT_FILE);
  const rememberSnapshotFile = (file) => writeText(backend, KEY_SNAPSHOT_FILE, file);
  const deviceSnapshotFailed = () => readText(backend, KEY_DEVICE_SNAPSHOT_FAILED);
  const rememberDeviceSnapshotFailure = (key) => writeText(backend, KEY_DEVICE_SNAPSHOT_FAILED, key);
  const rememberSnapshot = (sha256, file) => {
    writeText(backend, KEY_SNAPSHOT_SEEN, sha256);
    rememberSnapshotFile(file);
  };

  return {
    settings,
    saveSettings,
    history,
    dailyRecord,
    recordDailyStart,
    dayStreak,
    forgetDailyStart,
    recordGame,
    runningGame,
    saveRunningGame,
    clearRunningGame,
    welcomed,
    rememberWelcome,
    scoreRecords,
    saveScoreRecord,
    keptBoard,
    keepBoard,
    forcedLoadPath,
    playerId,
    forgetPlayer,
    friendsBoards,
    saveFriendsBoards,
    snapshotSeen,
    snapshotFileSeen,
    rememberSnapshotFile,
    rememberSnapshot,
    deviceSnapshotFailed,
    rememberDeviceSnapshotFailure,
    serverOffset,
    keepServerOffset,
  };
}

/** `bytes` random bytes as base64url without padding. */
function randomId(bytes) {
  const random = crypto.getRandomValues(new Uint8Array(bytes));
  return btoa(String.fromCharCode(...random))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

function onlyDates(byDate, dates) {
  return Object.fromEntries(Object.entries(byDate).filter(([date]) => dates.includes(date)));
}

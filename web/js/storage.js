// Remembers settings and game history in localStorage, falling back to memory where storage is unavailable.

const KEY_SETTINGS = "ewar.settings";
const KEY_HISTORY = "ewar.history";
const DAY_MS = 86_400_000;

export const DEFAULT_SETTINGS = Object.freeze({ speed: "normal", sound: true, language: null, lenient: false, mode: "daily" });
const EMPTY_HISTORY = Object.freeze({
  played: 0, won: 0, bestDaily: null, streak: 0, lastDailyDate: null, daily: null,
});

function memoryBackend() {
  const items = new Map();
  return {
    getItem: (key) => (items.has(key) ? items.get(key) : null),
    setItem: (key, value) => { items.set(key, String(value)); },
    removeItem: (key) => { items.delete(key); },
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
  try {
    backend.setItem(key, JSON.stringify(value));
  } catch {
    // Full or blocked storage: the game goes on, only this save is lost.
  }
}

export function previousDay(date) {
  return new Date(Date.parse(`${date}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);
}

export function createStorage(backend = localBackend()) {
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
    const h = history();
    const streak = h.lastDailyDate === previousDay(date) ? h.streak + 1 : h.lastDailyDate === date ? h.streak : 1;
    writeJson(backend, KEY_HISTORY, { ...h, streak, lastDailyDate: date, daily: { date, finished: false } });
  }

  function recordGame(result, { dailyDate = null } = {}) {
    const h = history();
    const next = { ...h, played: h.played + 1, won: h.won + (result.won ? 1 : 0) };
    if (dailyDate) {
      next.daily = { date: dailyDate, finished: true, score: result.score, won: result.won };
      next.bestDaily = h.bestDaily === null ? result.score : Math.max(h.bestDaily, result.score);
    }
    writeJson(backend, KEY_HISTORY, next);
    return next;
  }

  /** Another module's own JSON object, kept under "ewar.<name>" (e.g. the leaderboard's submissions). */
  const record = (name) => readJson(backend, `ewar.${name}`, {});
  const saveRecord = (name, value) => writeJson(backend, `ewar.${name}`, value);

  return { settings, saveSettings, history, dailyRecord, recordDailyStart, recordGame, record, saveRecord };
}

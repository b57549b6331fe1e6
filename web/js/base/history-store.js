// What this device has played: games played and won, the dailies and their streak (history.js decides), and whether
// its first visit's welcome has done its job.

import { afterDailyStart, afterGame, EMPTY_HISTORY, shownStreak } from "./history.js";
import { keyed } from "./local-store.js";

const KEY_HISTORY = "ewar.history";
const KEY_WELCOMED = "ewar.welcomed"; // set once the first visit's welcome was shown

/** backend: the page's (local-store.js, pageBackend). */
export function createHistoryStore(backend) {
  const kept = keyed(backend);
  const history = () => kept.readJson(KEY_HISTORY, EMPTY_HISTORY);

  /** Today's daily record ({date, finished, score, won}) or null when not yet played today. */
  function dailyRecord(date) {
    const daily = history().daily;
    return daily && daily.date === date ? daily : null;
  }

  /** Starting the scored daily is the day's one attempt, finished or not. */
  function recordDailyStart(date) {
    kept.writeJson(KEY_HISTORY, afterDailyStart(history(), date));
  }

  /** Days in a row with a daily played, as of `today` (history.js, shownStreak). */
  const dayStreak = (today) => shownStreak(history(), today);

  /** A started daily that could not be restored (its record no longer plays): the day's attempt is given back. */
  function forgetDailyStart(date) {
    const h = history();
    if (h.daily?.date === date && !h.daily.finished) kept.writeJson(KEY_HISTORY, { ...h, daily: null });
  }

  /** Counts a finished game; a daily's score is the day's, and the quickest slap ever is kept. */
  function recordGame(result, { dailyDate = null } = {}) {
    const next = afterGame(history(), result, dailyDate);
    kept.writeJson(KEY_HISTORY, next);
    return next;
  }

  /** Whether this browser has been welcomed (the first visit's how-to and guided game). */
  const welcomed = () => kept.readText(KEY_WELCOMED) !== null;
  const rememberWelcome = () => kept.writeText(KEY_WELCOMED, "1");

  return { history, dailyRecord, recordDailyStart, dayStreak, forgetDailyStart, recordGame, welcomed, rememberWelcome };
}

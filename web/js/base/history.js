// The player's history, as rules with no storage: games played and won, the best daily, the quickest slap, and
// the daily streak (days in a row with a daily started), the last dailies played (for the menu's 30-day chart).
// history-store.js keeps it in localStorage.

import { previousDay } from "../../common/clock.js";

export const EMPTY_HISTORY = Object.freeze({
  played: 0,
  won: 0,
  bestDaily: null,
  streak: 0,
  lastDailyDate: null,
  daily: null,
  bestReaction: null,
  dailies: [],
});

/** How many finished dailies the history keeps, newest last: the menu charts the last 30 days. */
export const KEPT_DAILIES = 30;

/**
 * The kept dailies with one more ({date, score, won, median_ms}): a date already there is replaced, the list
 * stays in date order and keeps the newest KEPT_DAILIES. A date not YYYY-MM-DD or a score not an integer is refused.
 */
export function withDaily(dailies, entry) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(String(entry?.date)))
    throw new RangeError(`daily date ${entry?.date}: not YYYY-MM-DD`);
  if (!Number.isInteger(entry.score)) throw new RangeError(`daily score ${entry.score}: not an integer`);
  const median = Number.isFinite(entry.median_ms) ? Math.round(entry.median_ms) : null;
  const kept = { date: entry.date, score: entry.score, won: Boolean(entry.won), median_ms: median };
  const others = (Array.isArray(dailies) ? dailies : []).filter((daily) => daily?.date !== entry.date);
  return [...others, kept].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0)).slice(-KEPT_DAILIES);
}

/** The streak once the daily of `date` is started: one more after yesterday's, the same again today, else 1. */
export function streakOn(history, date) {
  if (history.lastDailyDate === previousDay(date)) return history.streak + 1;
  return history.lastDailyDate === date ? history.streak : 1;
}

/**
 * The streak the menu shows on `today` (UTC date): a day counts once its daily is finished, not while it is under
 * way; a run with no daily started yesterday nor today is over (0).
 */
export function shownStreak(history, today) {
  if (history.lastDailyDate && history.lastDailyDate < previousDay(today)) return 0;
  const underWay = history.daily && !history.daily.finished && history.daily.date === history.lastDailyDate;
  return underWay ? Math.max(0, history.streak - 1) : history.streak;
}

/** Starting the scored daily is the day's one attempt, finished or not: it counts for the streak. */
export function afterDailyStart(history, date) {
  return { ...history, streak: streakOn(history, date), lastDailyDate: date, daily: { date, finished: false } };
}

/** A finished game counted; a daily's score is the day's, and the quickest slap ever is kept. */
export function afterGame(history, result, dailyDate = null) {
  const next = { ...history, played: history.played + 1, won: history.won + (result.won ? 1 : 0) };
  const best = result.stats?.reactions?.best_ms ?? null;
  if (best !== null) next.bestReaction = history.bestReaction === null ? best : Math.min(history.bestReaction, best);
  if (dailyDate) {
    next.daily = { date: dailyDate, finished: true, score: result.score, won: result.won };
    const median = result.stats?.reactions?.median_ms ?? null;
    next.dailies = withDaily(history.dailies, {
      date: dailyDate,
      score: result.score,
      won: result.won,
      median_ms: median,
    });
    next.bestDaily = history.bestDaily === null ? result.score : Math.max(history.bestDaily, result.score);
  }
  return next;
}

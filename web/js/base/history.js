// The player's history, as rules with no storage: games played and won, the best daily, the quickest slap, and
// the daily streak (days in a row with a daily started). storage.js keeps it in localStorage.

import { previousDay } from "./deals.js";

export const EMPTY_HISTORY = Object.freeze({
  played: 0,
  won: 0,
  bestDaily: null,
  streak: 0,
  lastDailyDate: null,
  daily: null,
  bestReaction: null,
});

/** The streak once the daily of `date` is started: one more after yesterday's, the same again today, else 1. */
export function streakOn(history, date) {
  if (history.lastDailyDate === previousDay(date)) return history.streak + 1;
  return history.lastDailyDate === date ? history.streak : 1;
}

/** The streak the menu shows: a day counts once its daily is finished, not while it is under way. */
export function shownStreak(history) {
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
    next.bestDaily = history.bestDaily === null ? result.score : Math.max(history.bestDaily, result.score);
  }
  return next;
}

// A finished daily, shared: a short text in the player's language (the date, won or lost, score, time, wrong
// slaps, a one-line picture of the game and the link to that day's board), sent through the system's share sheet where
// there is one, else copied to the clipboard.

import { formatClock, formatDate, formatNumber, t } from "../base/i18n.js";
import { dayLink } from "../scores/friends-state.js";

const PICTURE_CELLS = 10;

/** Your cards against your share of the deal, as a square: more, some, few, none. */
function square(cards, dealt) {
  if (cards > dealt) return "🟩";
  if (cards * 2 >= dealt) return "🟨";
  if (cards > 0) return "🟧";
  return "🟥";
}

/**
 * The game in one line of emoji: your cards at ten even moments of the game, then how it ended.
 * timeline: [game ms, your cards] at each change of your cards, the first at the deal.
 */
export function gamePicture(timeline, durationMs, won) {
  if (!Array.isArray(timeline) || timeline.length === 0) return won ? "🏆" : "🏳️";
  const dealt = timeline[0][1];
  let next = 0;
  let cards = dealt;
  const cells = [];
  for (let cell = 1; cell <= PICTURE_CELLS; cell += 1) {
    const moment = (durationMs * cell) / PICTURE_CELLS;
    while (next < timeline.length && timeline[next][0] <= moment) {
      cards = timeline[next][1];
      next += 1;
    }
    cells.push(square(cards, dealt));
  }
  return cells.join("") + (won ? "🏆" : "🏳️");
}

/** The page's address without its query (no deal number, no language): where a friend starts. */
export function pageAddress(location = globalThis.location) {
  return `${location.origin}${location.pathname}`;
}

/**
 * The text shared after a daily: view is the finished game's, timeline as for gamePicture; its link opens the
 * board of the day (?board=<date>).
 */
export function shareText(view, timeline, address = dayLink(pageAddress(), view.date)) {
  const result = view.result;
  const line = t(result.won ? "share.won" : "share.lost", {
    score: formatNumber(result.score),
    time: formatClock(result.duration_ms),
    wrong: formatNumber(view.wrong_slaps),
  });
  return [
    t("share.title", { date: formatDate(view.date) }),
    line,
    gamePicture(timeline, result.duration_ms, result.won),
    address,
  ].join("\n");
}

/**
 * Shares text: the share sheet (navigator.share) where there is one, else the clipboard. Resolves to "shared",
 * "copied", "cancelled" (the player closed the sheet) or "failed" (neither way worked: show the text instead).
 */
export async function share(text, nav = navigator) {
  if (typeof nav.share === "function") {
    try {
      await nav.share({ text });
      return "shared";
    } catch (error) {
      if (error?.name === "AbortError") return "cancelled";
      // Not allowed here (no user activation, a blocked frame): the clipboard may still work.
    }
  }
  try {
    await nav.clipboard.writeText(text);
    return "copied";
  } catch {
    return "failed";
  }
}

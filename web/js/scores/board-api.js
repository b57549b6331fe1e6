// Asks the scores API for a day's leaderboard, and says whether the answer is the board, "offline" or "failed".
// The board's URL names only the day, so Netlify's CDN keeps one copy for everyone; the player's own row is a small
// read apart (/api/scores/rank), which the page folds into the board (withOwnRow).

import { ENDPOINTS } from "../../common/contract.js";
import { learnServerTime } from "../base/deals.js";

/**
 * GET the leaderboard JSON at url. {board, offline: false, failed: false} when the server answered it;
 * {board: null, offline: true} with no network; {board: null, failed: true} when the server answered with an
 * error or not with JSON (the network is there: that is not "offline").
 */
export async function fetchBoard(url, init = {}) {
  let response;
  try {
    if (navigator.onLine === false) throw new TypeError("offline");
    response = await fetch(url, { cache: "no-store", ...init });
  } catch {
    return { board: null, offline: true, failed: false };
  }
  learnServerTime(response.headers.get("date"));
  try {
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return { board: await response.json(), offline: false, failed: false };
  } catch (error) {
    console.warn("scores: leaderboard not loaded", error);
    return { board: null, offline: false, failed: true };
  }
}

/**
 * The board with the player's own row `you` (the rank read's, or null): `you` set, the row of the same entry
 * among the top rows marked as yours, and the total the fresher of the two. A board that carries its own `you`
 * (a server before the split) keeps it when there is no own row to put in.
 */
export function withOwnRow(board, you, total = null) {
  const own = you ?? board.you ?? null;
  return {
    ...board,
    total: Math.max(board.total ?? 0, total ?? 0),
    you: own,
    entries: (board.entries ?? []).map((row) =>
      own && row.entry !== undefined && row.entry === own.entry ? { ...row, you: true, id: own.id } : row,
    ),
  };
}

/**
 * The day's board from `endpoint` (/api/scores): the public answer, through the browser's and the CDN's caches
 * (its headers say how long), and, when `id` (the player's submission id of that day) is given, the player's own
 * row from the contract's rank endpoint (/api/scores/rank), asked for at the same time. The result is fetchBoard's, its board with the own row.
 */
export async function fetchDailyBoard(endpoint, date, id = null) {
  const [answer, mine] = await Promise.all([
    fetchBoard(`${endpoint}?${new URLSearchParams({ date })}`, { cache: "default" }),
    id ? fetchBoard(`${ENDPOINTS.rank}?${new URLSearchParams({ date, id })}`, { cache: "default" }) : null,
  ]);
  if (!answer.board) return answer;
  return { ...answer, board: withOwnRow(answer.board, mine?.board?.you ?? null, mine?.board?.total ?? null) };
}

// Asks the scores API for a day's leaderboard, and says whether the answer is the board, "offline" or "failed".

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

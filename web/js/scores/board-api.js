// The boards' API on the page: a board's read, says whether the answer is the board, "offline" or "failed"; the
// daily board's own row; a friends' board's writes. The daily board's URL names only the day, so Netlify's CDN
// keeps one copy for everyone; the player's own row is a small read apart (/api/scores/rank), folded into the board
// (withOwnRow). Every answer's Date header tells the page's clock the server's time.

import { ENDPOINTS } from "../../common/contract.js";

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
 * The API on `clock` (web/common/clock.js: each answer's Date header is learnt). fetchBoard(url, init): the board
 * JSON at url, {board, offline: false, failed: false} when the server answered it; {board: null, offline: true}
 * with no network; {board: null, failed: true} when the server answered with an error or not with JSON (the
 * network is there: that is not "offline"). fetchDailyBoard(endpoint, date, id): the day's board from `endpoint`
 * (/api/scores) through the browser's and the CDN's caches (its headers say how long), and, when `id` (the
 * player's submission id of that day) is given, the player's own row from the contract's rank endpoint (/api/scores/rank), asked for at the same
 * time: fetchBoard's answer, its board with the own row. send(method, url, payload): one JSON write, {ok, status,
 * body} as answered, or {offline: true} when nothing answered.
 */
export function createBoardApi({ clock }) {
  async function fetchBoard(url, init = {}) {
    let response;
    try {
      if (navigator.onLine === false) throw new TypeError("offline");
      response = await fetch(url, { cache: "no-store", ...init });
    } catch {
      return { board: null, offline: true, failed: false };
    }
    clock.learnServerTime(response.headers.get("date"));
    try {
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return { board: await response.json(), offline: false, failed: false };
    } catch (error) {
      console.warn("scores: leaderboard not loaded", error);
      return { board: null, offline: false, failed: true };
    }
  }

  async function fetchDailyBoard(endpoint, date, id = null) {
    const [answer, mine] = await Promise.all([
      fetchBoard(`${endpoint}?${new URLSearchParams({ date })}`, { cache: "default" }),
      id ? fetchBoard(`${ENDPOINTS.rank}?${new URLSearchParams({ date, id })}`, { cache: "default" }) : null,
    ]);
    if (!answer.board) return answer;
    return { ...answer, board: withOwnRow(answer.board, mine?.board?.you ?? null, mine?.board?.total ?? null) };
  }

  async function send(method, url, payload) {
    let response;
    try {
      response = await fetch(url, {
        method,
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(payload),
        cache: "no-store",
        credentials: "same-origin",
      });
    } catch {
      return { ok: false, offline: true, status: 0, body: null };
    }
    clock.learnServerTime(response.headers.get("date"));
    let body = null;
    try {
      body = await response.json();
    } catch {
      // Not JSON: the status says enough.
    }
    return { ok: response.ok, offline: false, status: response.status, body };
  }

  return { fetchBoard, fetchDailyBoard, send };
}

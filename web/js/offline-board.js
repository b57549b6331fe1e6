// Remembers the last leaderboard the page saw and serves it, marked as offline, when the network is gone.
//
// For web/js/leaderboard.js:
//   const { board, offline, seenAt } = await fetchBoard(url);   // instead of fetch(url) + json()
//   showOfflineNote(panel, { offline, failed, seenAt });         // then draw `board` (null: none seen yet)

import { currentLanguage, t } from "./i18n.js";

const KEY = "ewar.lastLeaderboard";

function remember(url, board) {
  try {
    localStorage.setItem(KEY, JSON.stringify({ url, board, seenAt: Date.now() }));
  } catch {
    // storage full or blocked: the board is simply not kept
  }
}

/** The last board seen ({url, board, seenAt}), or null. */
export function lastBoard() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY) ?? "null");
    return kept && typeof kept === "object" && kept.board ? kept : null;
  } catch {
    return null;
  }
}

/**
 * GET the leaderboard JSON at url. Online: {board, offline: false}, remembered for later.
 * No network: {board: the last one seen or null, offline: true, seenAt: ms or null}.
 * An HTTP error (the server answered) is thrown, not treated as offline.
 */
export async function fetchBoard(url, init = {}) {
  let response;
  try {
    if (navigator.onLine === false) throw new TypeError("offline");
    response = await fetch(url, { cache: "no-store", ...init });
  } catch {
    const kept = lastBoard();
    return { board: kept?.board ?? null, offline: true, seenAt: kept?.seenAt ?? null };
  }
  if (!response.ok) throw new Error(`leaderboard: HTTP ${response.status}`);
  const board = await response.json();
  remember(url, board);
  return { board, offline: false, seenAt: Date.now() };
}

/**
 * Adds or removes the note at the top of the leaderboard panel: offline (no network), failed (the network is
 * there but the server did not answer well), or neither (the note goes). Drawn again after a language change.
 */
export function showOfflineNote(panel, { offline, failed = false, seenAt }) {
  let note = panel.querySelector(":scope > .offline-note");
  if (!offline && !failed) {
    note?.remove();
    return;
  }
  if (!note) {
    note = document.createElement("p");
    note.className = "offline-note";
    note.dataset.testid = "leaderboard-offline";
    note.setAttribute("role", "status");
    panel.prepend(note);
  }
  note.dataset.reason = offline ? "offline" : "failed";
  const key = offline ? "offline.leaderboard" : "offline.leaderboardFailed";
  note.textContent = seenAt ? t(key, { time: formatWhen(seenAt) }) : t(`${key}None`);
}

function formatWhen(ms) {
  return new Intl.DateTimeFormat(currentLanguage(), { dateStyle: "medium", timeStyle: "short" }).format(ms);
}

// The friends' boards without the DOM: the share links (?friends=<code> joins a board, ?board=<date> opens the
// day's board), the list of boards this device joined, and a server's refusal as an i18n key.

import { FRIENDS_CODE_PATTERN } from "../../common/contract.js";

export const FRIENDS_PARAM = "friends";
export const BOARD_PARAM = "board";
const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** Whether text is a share code as the server makes them. */
export function isBoardCode(text) {
  return typeof text === "string" && FRIENDS_CODE_PATTERN.test(text);
}

/**
 * What a page address asks for: {friends: code} (a friends' board link: join it), {friends: null, badCode}
 * (a link whose code cannot be one), {board: date} (a daily share: that day's board), or {} (nothing).
 */
export function linkRequest(search) {
  const params = new URLSearchParams(search);
  if (params.has(FRIENDS_PARAM)) {
    const code = (params.get(FRIENDS_PARAM) ?? "").trim().toLowerCase();
    return isBoardCode(code) ? { friends: code } : { friends: null, badCode: true };
  }
  const date = params.get(BOARD_PARAM);
  if (date && DATE_PATTERN.test(date) && !Number.isNaN(Date.parse(`${date}T00:00:00Z`))) return { board: date };
  return {};
}

/** The address that joins a friends' board: base is the page's address without a query. */
export function friendsLink(base, code) {
  return `${base}?${new URLSearchParams({ [FRIENDS_PARAM]: code })}`;
}

/** The address that opens the daily board of date. */
export function dayLink(base, date) {
  return `${base}?${new URLSearchParams({ [BOARD_PARAM]: date })}`;
}

/** The joined boards after joining {code, name}: added once (joining again only refreshes its name). */
export function afterJoin(boards, board) {
  if (boards.some((b) => b.code === board.code)) {
    return boards.map((b) => (b.code === board.code ? { code: b.code, name: board.name } : b));
  }
  return [...boards, { code: board.code, name: board.name }];
}

/** The joined boards after leaving code. */
export function afterLeave(boards, code) {
  return boards.filter((b) => b.code !== code);
}

const REFUSALS = {
  invalid_name: "leaderboard.nameInvalid", // the same rule as a player's name
  not_found: "friends.errorNotFound",
  invalid_code: "friends.errorNotFound",
  board_full: "friends.errorFull",
  rate_limited: "friends.errorBusy",
  unavailable: "friends.errorBusy",
};

/**
 * An answer that was not a success, as an i18n key: {offline: true} when no answer came; else the server's
 * error code ({error}) decides, and anything unknown is "failed".
 */
export function refusalKey({ offline = false, status = 0, body = null } = {}) {
  if (offline) return "friends.errorOffline";
  const known = REFUSALS[body?.error];
  if (known) return known;
  if (status === 429 || status >= 500) return "friends.errorBusy";
  return "friends.errorFailed";
}

/**
 * Whether a board entry is the player's own daily: its record (storage's, for that day) was sent and the server
 * answered this entry's number; a record kept before the number was kept matches by its name and score.
 */
export function isOwnEntry(entry, record) {
  if (record?.state !== "sent" || !entry) return false;
  if (Number.isInteger(record.entry)) return entry.entry === record.entry;
  return entry.name === record.name && entry.score === record.score;
}

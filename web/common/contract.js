// The scores and friends' boards API's contract as the page, the service worker, the functions, the dev server
// and the tests share it: each value written once here. (A function's `config` must stay literal code for
// Netlify's bundler, so the functions write their paths and limits out again and tests/function/contract.test.mjs
// checks them against these; the engine's own copy of the submission window and the day's length, in ewar/deal.py,
// is checked there too.)

/** The API's paths. */
export const ENDPOINTS = Object.freeze({
  /** POST a daily score; GET a day's board (?date=). */
  scores: "/api/scores",
  /** GET the caller's own row of a day (?date=&id=). */
  rank: "/api/scores/rank",
  /** DELETE everything a player id posted (forget me). */
  player: "/api/scores/player",
  /** GET an entry's replay (?date=&entry=). */
  replay: "/api/scores/replay",
  /** POST a new friends' board; GET /<code>?date= its day; PUT or DELETE /<code>/members joins or leaves it. */
  friends: "/api/friends",
});

/** A friends' board's path, and with `members` its members' path. */
export function friendsPath(code, members = false) {
  return `${ENDPOINTS.friends}/${code}${members ? "/members" : ""}`;
}

/** A UTC day in ms. */
export const DAY_MS = 86_400_000;
/** A daily may be sent for the board on its own UTC day and the next: this many days. */
export const SUBMISSION_DAYS = 2;
/** The rows a board answer lists (the day's board and a friends' board). */
export const TOP = 50;

/** The fields every score submission carries, and those it may carry (`player`: the device's id, friends' boards). */
export const RECORD_FIELDS = Object.freeze(["id", "name", "date", "score", "replay"]);
export const OPTIONAL_RECORD_FIELDS = Object.freeze(["player"]);

/** A submission's id and a device's player id: 16 to 64 of A-Z a-z 0-9 _ -. */
export const ID_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;
/** A friends' board's share code: 12 of a-z 2-7 (60 bits, base32). */
export const FRIENDS_CODE_PATTERN = /^[a-z2-7]{12}$/;

/**
 * The refusal codes of a score submission that the page words itself (leaderboard.reason.<code> in the
 * catalogs); every other 422 is the score judge's (ewar/judge.py's codes), every other 4xx worded as "other".
 */
export const SCORE_REFUSALS = Object.freeze([
  "invalid_name",
  "name_taken",
  "id_conflict",
  "duplicate_record",
  "player_entered",
  "date_out_of_window",
  "implausible_play",
]);
/** The friends' boards' refusal codes the page words apart (friends-state.js); any other is worded as "failed". */
export const FRIENDS_REFUSALS = Object.freeze([
  "invalid_name",
  "not_found",
  "invalid_code",
  "board_full",
  "rate_limited",
  "unavailable",
]);

/** Per-client limits the deployed functions declare: at most windowLimit requests in windowSize seconds. */
export const RATE_LIMITS = Object.freeze({
  postScores: Object.freeze({ windowLimit: 10, windowSize: 180 }),
  readScores: Object.freeze({ windowLimit: 120, windowSize: 60 }),
  friends: Object.freeze({ windowLimit: 30, windowSize: 60 }),
});

/** The UTC date (YYYY-MM-DD) at epoch ms `timeMs`. */
export function utcDay(timeMs) {
  return new Date(timeMs).toISOString().slice(0, 10);
}

/** The dates a daily may be sent for at `nowMs`, newest first (today's and yesterday's). */
export function submissionDates(nowMs) {
  return Array.from({ length: SUBMISSION_DAYS }, (_, back) => utcDay(nowMs - back * DAY_MS));
}

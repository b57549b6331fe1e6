// The board's retention (docs/scores.md, "What is kept, and for how long"), as chores in batches: each statement
// deletes or clears at most BATCH rows, so no chore holds locks long or outlasts a scheduled function.

import { addDays } from "../../../web/common/clock.js";
import { DAY_MS, submissionDates } from "../../../web/common/contract.js";
import { IDLE_DAYS } from "../../database/friends-store.mjs";
import { REPLAY_DAYS } from "../../database/scores-store.mjs";

/** Rows one statement of a chore touches at most. */
export const BATCH = 1000;
/** Days an entry (name, score, its facts) is kept after its game's day: as long as its replay can be shown. */
export const ENTRY_DAYS = REPLAY_DAYS;

const counted = (statement) => `WITH gone AS (${statement} RETURNING 1) SELECT count(*)::int AS n FROM gone`;

/** Each chore: a statement over at most $2 rows past the cutoff $1, answering how many it touched. */
const CHORES = {
  // Replays first: their entries may stay (a day shown on no board) while the replays are past keeping.
  replays: counted(`DELETE FROM replays r USING (SELECT day, id FROM replays WHERE day < $1::date LIMIT $2) old
    WHERE r.day = old.day AND r.id = old.id`),
  // A player's hash is kept only while a friends' board can list the entry: the days a board may be read.
  players: counted(`UPDATE entries e SET player_sha256 = NULL
    FROM (SELECT day, id FROM entries WHERE day < $1::date AND player_sha256 IS NOT NULL LIMIT $2) old
    WHERE e.day = old.day AND e.id = old.id`),
  entries: counted(`DELETE FROM entries e USING (SELECT day, id FROM entries WHERE day < $1::date LIMIT $2) old
    WHERE e.day = old.day AND e.id = old.id`),
  buckets: counted(`DELETE FROM buckets b USING (SELECT day, won, score FROM buckets WHERE day < $1::date LIMIT $2) old
    WHERE b.day = old.day AND b.won = old.won AND b.score = old.score`),
  boards: counted(`DELETE FROM friend_boards b USING (SELECT code FROM friend_boards WHERE last_used < $1 LIMIT $2) old
    WHERE b.code = old.code`),
};

/** The cutoff of each chore at `nowMs`: rows before it go. */
export function cutoffs(nowMs) {
  const window = submissionDates(nowMs);
  const day = (days) => addDays(window[0], -days);
  return {
    replays: day(REPLAY_DAYS),
    players: window.at(-1),
    entries: day(ENTRY_DAYS),
    buckets: day(ENTRY_DAYS),
    boards: nowMs - IDLE_DAYS * DAY_MS,
  };
}

/**
 * Runs every chore in batches of `batch` until it has nothing left or `budgetMs` has passed (checked between
 * batches). Resolves to { replays, players, entries, buckets, boards: rows touched, finished: all caught up }.
 */
export async function runChores(db, nowMs, { batch = BATCH, budgetMs = 20_000, clock = () => performance.now() } = {}) {
  const until = clock() + budgetMs;
  const limits = cutoffs(nowMs);
  const done = { replays: 0, players: 0, entries: 0, buckets: 0, boards: 0, finished: true };
  for (const [chore, statement] of Object.entries(CHORES)) {
    for (;;) {
      if (clock() > until) return { ...done, finished: false };
      const { rows } = await db.query(statement, [limits[chore], batch]);
      done[chore] += rows[0].n;
      if (rows[0].n < batch) break;
    }
  }
  return done;
}

// Friends' boards in Postgres: create, join, leave, read (idle ones are deleted by ../prune/chores.mjs). The tables and their constraints are
// netlify/database/migrations/0002_friends.sql; players arrive here already hashed (32 bytes of SHA-256).
import { TOP } from "../../web/common/contract.js";

/** Members a board may have: the migration's check on friend_boards.members says the same. */
export const MEMBER_LIMIT = 50;
/** Days a board may go unread, unjoined and unposted-to before the hourly chores delete it. */
export const IDLE_DAYS = 60;
/** A read marks a board used at most once in this long (a read is no write each time). */
const TOUCH_EVERY_MS = 3_600_000;

const CHECK_VIOLATION = "23514";
const UNIQUE_VIOLATION = "23505";
const FOREIGN_KEY_VIOLATION = "23503";

/** The board is at its MEMBER_LIMIT. */
export class BoardFull extends Error {}

const CREATE = `WITH board AS (
  INSERT INTO friend_boards (code, name, members, last_used) VALUES ($1, $2, 1, $4) RETURNING code
)
INSERT INTO friend_members (code, player_sha256) SELECT code, $3 FROM board`;

// One statement: the member row (nothing if already there) and the count on the board's row, which the check
// caps; a board that is not there joins nobody.
const JOIN = `WITH board AS (
  SELECT code, name FROM friend_boards WHERE code = $1
), joined AS (
  INSERT INTO friend_members (code, player_sha256) SELECT code, $2 FROM board
  ON CONFLICT DO NOTHING RETURNING 1
), counted AS (
  UPDATE friend_boards SET members = members + (SELECT count(*) FROM joined)::int, last_used = $3
  WHERE code = $1 RETURNING members
)
SELECT (SELECT name FROM board) AS name, (SELECT count(*) FROM joined)::int AS joined,
       (SELECT members FROM counted) AS members`;

const LEAVE = `WITH gone AS (
  DELETE FROM friend_members WHERE code = $1 AND player_sha256 = $2 RETURNING 1
), counted AS (
  UPDATE friend_boards SET members = members - 1, last_used = $3
  WHERE code = $1 AND EXISTS (SELECT 1 FROM gone) RETURNING members
)
SELECT (SELECT count(*) FROM gone)::int AS left, (SELECT members FROM counted) AS members`;

const BOARD = "SELECT name, members, last_used::float8 AS last_used FROM friend_boards WHERE code = $1";

// The day's entries of the board's members, in the global board's order.
const ENTRIES = `SELECT seq::text AS entry, name, score, won, duration_ms, wrong_slaps FROM entries
  WHERE day = $2::date AND NOT hidden
    AND player_sha256 IN (SELECT player_sha256 FROM friend_members WHERE code = $1)
  ORDER BY won DESC, score DESC, seq LIMIT ${TOP}`;

export class FriendsStore {
  #db;

  /** `db`: a pg Pool or PGlite with the migrations applied. */
  constructor(db) {
    this.#db = db;
  }

  /**
   * A new board `code` named `name`, its creator `player` (hash) its one member. Resolves to true, or false when
   * the code is taken already (the caller draws another).
   */
  async create(code, name, player, nowMs) {
    try {
      await this.#db.query(CREATE, [code, name, player, nowMs]);
      return true;
    } catch (error) {
      if (error?.code === UNIQUE_VIOLATION && error.constraint === "friend_boards_pkey") return false;
      throw error;
    }
  }

  /**
   * Adds `player` to board `code`: resolves to { name, joined } (joined false: a member already) or null (no such
   * board); throws BoardFull when the board has MEMBER_LIMIT members.
   */
  async join(code, player, nowMs) {
    let row;
    try {
      [row] = (await this.#db.query(JOIN, [code, player, nowMs])).rows;
    } catch (error) {
      if (error?.code === CHECK_VIOLATION) throw new BoardFull(`board ${code} is full`);
      // The board was deleted (its last member left) between the statement's look and its insert.
      if (error?.code === FOREIGN_KEY_VIOLATION) return null;
      throw error;
    }
    if (row.name === null) return null;
    return { name: row.name, joined: row.joined === 1 };
  }

  /** Takes `player` off board `code`, deleting the board if it was the last: resolves to true, or false if no member. */
  async leave(code, player, nowMs) {
    const [row] = (await this.#db.query(LEAVE, [code, player, nowMs])).rows;
    if (!row.left) return false;
    // A join between the two statements keeps the board: the delete looks at the count it finds.
    if (row.members === 0) await this.#db.query("DELETE FROM friend_boards WHERE code = $1 AND members = 0", [code]);
    return true;
  }

  /**
   * Board `code` on `date`: { name, members, entries: [{ rank, entry, name, score, won, duration_ms, wrong_slaps }] },
   * or null. Reading marks the board used (at most once in TOUCH_EVERY_MS).
   */
  async view(code, date, nowMs) {
    const [board] = (await this.#db.query(BOARD, [code])).rows;
    if (!board) return null;
    if (nowMs - board.last_used >= TOUCH_EVERY_MS) {
      await this.#db.query("UPDATE friend_boards SET last_used = $2 WHERE code = $1 AND last_used < $2", [code, nowMs]);
    }
    const { rows } = await this.#db.query(ENTRIES, [code, date]);
    const entries = rows.map(({ entry, ...row }, at) => ({ rank: at + 1, entry: Number(entry), ...row }));
    return { name: board.name, members: board.members, entries };
  }

  /** Marks every board `player` is on as used (they posted a daily entry). */
  async touchBoardsOf(player, nowMs) {
    await this.#db.query(
      `UPDATE friend_boards SET last_used = $2
       WHERE code IN (SELECT code FROM friend_members WHERE player_sha256 = $1) AND last_used < $2`,
      [player, nowMs],
    );
  }
}

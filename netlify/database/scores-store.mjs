// The daily board in Postgres (Netlify Database): one statement stores an entry, one reads a board or a rank.
// The tables and their constraints are netlify/database/migrations/; docs/scores.md, "Storage", explains them.
//
// `db` is anything with query(text, params) → { rows }: a pg Pool (production, tests, benchmarks) or PGlite
// (python build.py serve). Counts come back cast to int and seq as text, so both drivers answer alike.
import { deflateRawSync, inflateRawSync } from "node:zlib";
import { TOP } from "../../web/common/contract.js";

/** Rows a board view lists (the contract's). */
export { TOP };
/** Days a replay is kept after its game's day (the hourly chores delete it: ../prune/chores.mjs). */
export const REPLAY_DAYS = 30;
/** Width of the score bins of a day's distribution; scores from DISTRIBUTION_BINS × BIN_WIDTH on share the last bin. */
export const BIN_WIDTH = 50;
export const DISTRIBUTION_BINS = 60;

/** Postgres' SQLSTATE for a unique constraint broken. */
const UNIQUE_VIOLATION = "23505";

/** Which rule a constraint of the entries table stands for. */
const CONSTRAINT_KINDS = {
  entries_id_key: "id",
  entries_name_key: "name",
  entries_player_key: "player",
};

/** Another entry of that day already holds this name's key ("name") or this player id ("player"). */
export class ClaimTaken extends Error {
  constructor(kind) {
    super(`${kind} already on the board`);
    this.kind = kind;
  }
}

const ENTRY_COLUMNS = `id, day::text AS date, name, score, won, duration_ms, wrong_slaps, received_at::float8 AS received_at,
  encode(replay_sha256, 'hex') AS replay_sha256, encode(game_sha256, 'hex') AS game_sha256, seq::text AS seq`;

// The rank of entry `e` among its day's: the buckets above it, then the earlier entries of its own bucket.
const RANK_OF_E = `(1
  + coalesce((SELECT sum(b.entries) FROM buckets b
              WHERE b.day = e.day AND (b.won > e.won OR (b.won = e.won AND b.score > e.score))), 0)
  + (SELECT count(*) FROM entries o
     WHERE o.day = e.day AND o.won = e.won AND o.score = e.score AND o.seq < e.seq AND NOT o.hidden))::int`;

// Wins of e's day, and wins of a lower score than e's: null for a loss ("better than X% of today's winners").
const WINNERS_OF_E = `CASE WHEN e.won THEN (SELECT coalesce(sum(b.entries), 0) FROM buckets b WHERE b.day = e.day AND b.won)::int END`;
const WINNERS_BELOW_E = `CASE WHEN e.won THEN (SELECT coalesce(sum(b.entries), 0) FROM buckets b
  WHERE b.day = e.day AND b.won AND b.score < e.score)::int END`;

// The day's entries by score bin, wins and losses apart: [[from, count]...], only the bins that hold entries.
const DISTRIBUTION = `(SELECT json_build_object(
    'bin', ${BIN_WIDTH},
    'wins', coalesce(json_agg(json_build_array(d.bin, d.n) ORDER BY d.bin) FILTER (WHERE d.won), '[]'::json),
    'losses', coalesce(json_agg(json_build_array(d.bin, d.n) ORDER BY d.bin) FILTER (WHERE NOT d.won), '[]'::json))
  FROM (SELECT won, least(score / ${BIN_WIDTH}, ${DISTRIBUTION_BINS - 1}) * ${BIN_WIDTH} AS bin, sum(entries)::int AS n
        FROM buckets WHERE day = $1::date GROUP BY 1, 2) d)`;

const TOTAL_OF_DAY = "(SELECT coalesce(sum(entries), 0) FROM buckets WHERE day = $1::date)::int";

// One day's entries are stored one at a time (a lock of the day, held to the statement's commit, taken before the
// entry's seq): seq order is commit order, so an entry that looks for near-copies below its seq once stored sees
// every one of them (handler.mjs).
const DAY_LOCK = 29;

const INSERT_ENTRY = `
WITH entry AS (
  INSERT INTO entries (day, id, name, name_key, score, won, duration_ms, wrong_slaps, game_sha256, replay_sha256,
                       received_at, engine_version, player_sha256)
  SELECT $1::date, $2, $3, $4, $5, $6, $7, $8, decode($9, 'hex'), decode($10, 'hex'), $11, $12, $14
  FROM (SELECT pg_advisory_xact_lock(${DAY_LOCK}, hashtext($1::date::text))) AS day_lock
  RETURNING day, id, won, score, seq
), marks AS (
  INSERT INTO entry_marks (day, mark, seq) SELECT entry.day, m, entry.seq FROM entry, unnest($15::int[]) AS m
), bucket AS (
  INSERT INTO buckets (day, won, score, entries) SELECT day, won, score, 1 FROM entry
  ON CONFLICT (day, won, score) DO UPDATE SET entries = buckets.entries + 1
), replay AS (
  INSERT INTO replays (day, id, deflated) SELECT day, id, $13 FROM entry
)
SELECT seq::text AS seq FROM entry`;

const FIND_ENTRY = `SELECT ${ENTRY_COLUMNS} FROM entries WHERE day = $1::date AND id = $2`;

const STANDING = `SELECT ${RANK_OF_E} AS rank, ${TOTAL_OF_DAY} AS total, e.seq::text AS entry,
  ${WINNERS_OF_E} AS winners, ${WINNERS_BELOW_E} AS winners_below FROM entries e WHERE e.day = $1::date AND e.id = $2`;

const VIEW = `SELECT ${TOTAL_OF_DAY} AS total,
  (SELECT coalesce(json_agg(t ORDER BY t.won DESC, t.score DESC, t.seq), '[]'::json)
   FROM (SELECT name, score, won, duration_ms, wrong_slaps, id, seq FROM entries WHERE day = $1::date AND NOT hidden
         ORDER BY won DESC, score DESC, seq LIMIT ${TOP}) t) AS top,
  (SELECT row_to_json(y) FROM (SELECT ${RANK_OF_E} AS rank, e.seq::text AS entry, e.name, e.score, e.won, e.duration_ms,
                                       e.wrong_slaps, e.id, ${WINNERS_OF_E} AS winners, ${WINNERS_BELOW_E} AS winners_below
                                FROM entries e WHERE e.day = $1::date AND e.id = $2) y) AS you,
  ${DISTRIBUTION} AS distribution`;

// The caller's own row (GET /api/scores/rank): what VIEW's "you" holds, and the day's total, nothing else.
const YOURS = `SELECT ${TOTAL_OF_DAY} AS total,
  (SELECT row_to_json(y) FROM (SELECT ${RANK_OF_E} AS rank, e.seq::text AS entry, e.name, e.score, e.won, e.duration_ms,
                                       e.wrong_slaps, e.id, ${WINNERS_OF_E} AS winners, ${WINNERS_BELOW_E} AS winners_below
                                FROM entries e WHERE e.day = $1::date AND e.id = $2) y) AS you`;

// Forget me: a player's entries (their replays and marks go with them) and their buckets' counts (a hidden entry
// no longer counted), and the player's places on
// friends' boards, in one statement; answers what went, for the CDN's purge. A board left with no member is
// deleted by FORGET_EMPTY_BOARDS.
const FORGET = `WITH gone AS (
  DELETE FROM entries WHERE player_sha256 = $1 RETURNING day, won, score, seq, hidden
), counts AS (
  SELECT day, won, score, count(*)::int AS n FROM gone WHERE NOT hidden GROUP BY day, won, score
), lowered AS (
  UPDATE buckets b SET entries = b.entries - c.n FROM counts c
  WHERE b.day = c.day AND b.won = c.won AND b.score = c.score AND b.entries > c.n
), emptied AS (
  DELETE FROM buckets b USING counts c
  WHERE b.day = c.day AND b.won = c.won AND b.score = c.score AND b.entries <= c.n
), left_boards AS (
  DELETE FROM friend_members WHERE player_sha256 = $1 RETURNING code
), recounted AS (
  UPDATE friend_boards f SET members = f.members - l.n
  FROM (SELECT code, count(*)::int AS n FROM left_boards GROUP BY code) l WHERE f.code = l.code
  RETURNING f.code, f.members
)
SELECT (SELECT coalesce(json_agg(json_build_object('date', day::text, 'entry', seq::text)), '[]'::json) FROM gone) AS entries,
       (SELECT coalesce(json_agg(code), '[]'::json) FROM recounted WHERE members = 0) AS emptied_boards,
       (SELECT count(*)::int FROM recounted) AS boards`;
const FORGET_EMPTY_BOARDS = "DELETE FROM friend_boards WHERE code = ANY($1::text[]) AND members = 0";

// The stored entries sharing the most marks with a new record (entry_marks' index), seq in ($3, $4), with their
// replays: the near-copies to compare action by action. `newest`: the day's last seq when read.
const NEAR_COPIES = `SELECT (SELECT max(seq) FROM entries)::text AS newest,
  (SELECT coalesce(json_agg(json_build_array(c.seq::text, c.shared, encode(r.deflated, 'base64'))
                            ORDER BY c.shared DESC, c.seq), '[]'::json)
   FROM (SELECT seq, count(*)::int AS shared FROM entry_marks
         WHERE day = $1::date AND mark = ANY($2::int[]) AND seq > $3::bigint AND seq < $4::bigint
         GROUP BY seq HAVING count(*) >= $6 ORDER BY count(*) DESC, seq LIMIT $5) c
   JOIN entries e ON e.seq = c.seq JOIN replays r ON r.day = e.day AND r.id = e.id) AS candidates`;

// Takes back an entry stored a moment ago (a near-copy of one stored just before it): its replay and marks go with
// it, and its bucket counts it no more.
const UNDO_ENTRY = `WITH gone AS (DELETE FROM entries WHERE day = $1::date AND id = $2 RETURNING day, won, score, hidden)
  UPDATE buckets b SET entries = b.entries - 1 FROM gone
  WHERE b.day = gone.day AND b.won = gone.won AND b.score = gone.score AND NOT gone.hidden`;

// An entry by its public number, with its replay while kept (deflated is null once pruned).
const ENTRY_REPLAY = `SELECT e.name, e.score, e.won, e.duration_ms, r.deflated FROM entries e
  LEFT JOIN replays r ON r.day = e.day AND r.id = e.id WHERE e.day = $1::date AND e.seq = $2::bigint AND NOT e.hidden`;

/** The replay as stored: its canonical JSON, deflated (raw DEFLATE, no header). */
export const deflateReplay = (canonical) => deflateRawSync(Buffer.from(canonical, "utf8"), { level: 9 });
export const inflateReplay = (bytes) => JSON.parse(inflateRawSync(bytes).toString("utf8"));

export class ScoreStore {
  #db;

  /** `db`: a pg Pool or PGlite with the migrations applied. */
  constructor(db) {
    this.#db = db;
  }

  /** The stored entry of a submission id on `date` ({ id, date, name, score, won, ..., replay_sha256 }), or null. */
  async find(date, id) {
    const { rows } = await this.#db.query(FIND_ENTRY, [date, id]);
    return rows[0] ?? null;
  }

  /**
   * Stores an accepted record in one statement (its entry, its bucket's count, its replay): all or nothing.
   * `record`: { date, id, name, name_key, score, won, duration_ms, wrong_slaps, game_sha256, replay_sha256,
   * received_at, engine_version, replay_canonical, player_sha256 (32 bytes, or null), marks (samegame.mjs) }.
   * Resolves to { created: true, seq } or { created: false, existing } (the id is stored already, by this
   * request's earlier attempt or another); throws ClaimTaken("name" | "player") when another entry of that day
   * holds the name's key or the player id. Any other failure is thrown as it comes.
   */
  async submit(record) {
    try {
      const { rows } = await this.#db.query(INSERT_ENTRY, [
        record.date,
        record.id,
        record.name,
        record.name_key,
        record.score,
        record.won,
        record.duration_ms,
        record.wrong_slaps,
        record.game_sha256,
        record.replay_sha256,
        record.received_at,
        record.engine_version,
        deflateReplay(record.replay_canonical),
        record.player_sha256 ?? null,
        record.marks ?? [],
      ]);
      return { created: true, seq: BigInt(rows[0].seq) };
    } catch (error) {
      if (error?.code !== UNIQUE_VIOLATION) throw error;
      // A retry of a stored id may break any of the three constraints: the id is looked up first.
      const existing = await this.find(record.date, record.id);
      if (existing) return { created: false, existing };
      const kind = CONSTRAINT_KINDS[error.constraint];
      if (kind === "name" || kind === "player") throw new ClaimTaken(kind);
      throw error;
    }
  }

  /**
   * The stored entries of `date` whose seq lies between `after` and `before` (BigInts, both excluded) sharing at
   * least `minShared` of `marks`, the `limit` sharing most: { candidates: [{ seq, shared, actions }], newest: the
   * highest seq stored when read (a BigInt, 0n for none) }.
   */
  async nearCopies(date, marks, { after = 0n, before = 2n ** 62n, limit, minShared }) {
    const { rows } = await this.#db.query(NEAR_COPIES, [
      date,
      marks,
      after.toString(),
      before.toString(),
      limit,
      minShared,
    ]);
    const { newest, candidates } = rows[0];
    return {
      candidates: candidates.map(([seq, shared, deflated]) => ({
        seq: BigInt(seq),
        shared,
        actions: inflateReplay(Buffer.from(deflated, "base64")).actions,
      })),
      newest: BigInt(newest ?? 0),
    };
  }

  /** True when the board's operator hid the name key `key` (tools/board_admin.mjs). */
  async nameHidden(key) {
    const { rows } = await this.#db.query("SELECT 1 FROM hidden_names WHERE name_key = $1", [key]);
    return rows.length > 0;
  }

  /** Takes back the entry `id` of `date` just stored (found a near-copy): all its rows, and its bucket's count. */
  async undo(date, id) {
    await this.#db.query(UNDO_ENTRY, [date, id]);
  }

  /**
   * { rank, total, entry, winners, winners_below } of a stored entry, from one read: `entry` its public number,
   * `winners` the day's wins and `winners_below` those of a lower score (both null for a loss).
   */
  async standing(date, id) {
    const { rows } = await this.#db.query(STANDING, [date, id]);
    if (!rows[0]) throw new Error(`entry ${date}/${id} is not stored`);
    const { rank, total, entry, winners, winners_below } = rows[0];
    return { rank, total, entry: Number(entry), winners, winners_below };
  }

  /**
   * The board view of `date` from one read: { date, entries: the top rows, total, you: the caller's row or null,
   * distribution: { bin, wins, losses } }. Every row carries its public `entry` number; only the caller's own row
   * carries its id.
   */
  async view(date, callerId = null) {
    const { rows } = await this.#db.query(VIEW, [date, callerId ?? ""]);
    const { total, top, you, distribution } = rows[0];
    const entries = top.map(({ id, seq, name, ...row }, at) => ({
      rank: at + 1,
      entry: Number(seq),
      name,
      ...row,
      ...(id === callerId ? { you: true, id } : {}),
    }));
    return {
      date,
      entries,
      total,
      you: you ? { ...you, entry: Number(you.entry), you: true } : null,
      distribution,
    };
  }

  /** The caller's row of `date` from one small read: { date, total, you: the row with its rank, or null }. */
  async yours(date, callerId) {
    const { rows } = await this.#db.query(YOURS, [date, callerId]);
    const { total, you } = rows[0];
    return { date, total, you: you ? { ...you, entry: Number(you.entry), you: true } : null };
  }

  /**
   * Forget me: deletes every entry of `player` (its 32-byte hash) with its replay, and takes the player off every
   * friends' board (deleting the boards it leaves empty). Resolves to { entries: [{ date, entry }], boards: how
   * many boards it left }.
   */
  async forget(player) {
    const { rows } = await this.#db.query(FORGET, [player]);
    const { entries, emptied_boards, boards } = rows[0];
    if (emptied_boards.length) await this.#db.query(FORGET_EMPTY_BOARDS, [emptied_boards]);
    return { entries: entries.map(({ date, entry }) => ({ date, entry: Number(entry) })), boards };
  }

  /**
   * Entry number `entry` of `date` with its replay: { name, score, won, duration_ms, replay_json: the canonical
   * JSON text, or null once pruned }, or null when there is no such entry.
   */
  async entryReplay(date, entry) {
    const { rows } = await this.#db.query(ENTRY_REPLAY, [date, entry]);
    if (!rows[0]) return null;
    const { deflated, ...facts } = rows[0];
    return { ...facts, replay_json: deflated ? inflateRawSync(deflated).toString("utf8") : null };
  }

  /** The replay stored with an entry (the object sent), or null. */
  async replay(date, id) {
    const { rows } = await this.#db.query("SELECT deflated FROM replays WHERE day = $1::date AND id = $2", [date, id]);
    return rows[0] ? inflateReplay(rows[0].deflated) : null;
  }
}

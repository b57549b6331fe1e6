// The daily board in Postgres (Netlify Database): one statement stores an entry, one reads a board or a rank.
// The tables and their constraints are netlify/database/migrations/; docs/scores.md, "Storage", explains them.
//
// `db` is anything with query(text, params) → { rows }: a pg Pool (production, tests, benchmarks) or PGlite
// (python build.py serve). Counts come back cast to int and seq as text, so both drivers answer alike.
import { deflateRawSync, inflateRawSync } from "node:zlib";

/** Rows a board view lists. */
export const TOP = 50;
/** Days a replay is kept after its game's day; the entry itself stays. */
export const REPLAY_DAYS = 30;

/** Postgres' SQLSTATE for a unique constraint broken. */
const UNIQUE_VIOLATION = "23505";

/** Which rule a constraint of the entries table stands for. */
const CONSTRAINT_KINDS = {
  entries_id_key: "id",
  entries_game_key: "record",
  entries_name_key: "name",
};

/** Another entry of that day already holds this game ("record") or this name's key ("name"). */
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
     WHERE o.day = e.day AND o.won = e.won AND o.score = e.score AND o.seq < e.seq))::int`;

const TOTAL_OF_DAY = "(SELECT coalesce(sum(entries), 0) FROM buckets WHERE day = $1::date)::int";

const INSERT_ENTRY = `
WITH entry AS (
  INSERT INTO entries (day, id, name, name_key, score, won, duration_ms, wrong_slaps, game_sha256, replay_sha256,
                       received_at, engine_version)
  VALUES ($1::date, $2, $3, $4, $5, $6, $7, $8, decode($9, 'hex'), decode($10, 'hex'), $11, $12)
  RETURNING day, id, won, score
), bucket AS (
  INSERT INTO buckets (day, won, score, entries) SELECT day, won, score, 1 FROM entry
  ON CONFLICT (day, won, score) DO UPDATE SET entries = buckets.entries + 1
), replay AS (
  INSERT INTO replays (day, id, deflated) SELECT day, id, $13 FROM entry
)
SELECT id FROM entry`;

const FIND_ENTRY = `SELECT ${ENTRY_COLUMNS} FROM entries WHERE day = $1::date AND id = $2`;

const STANDING = `SELECT ${RANK_OF_E} AS rank, ${TOTAL_OF_DAY} AS total FROM entries e WHERE e.day = $1::date AND e.id = $2`;

const VIEW = `SELECT ${TOTAL_OF_DAY} AS total,
  (SELECT coalesce(json_agg(t ORDER BY t.won DESC, t.score DESC, t.seq), '[]'::json)
   FROM (SELECT name, score, won, duration_ms, wrong_slaps, id, seq FROM entries WHERE day = $1::date
         ORDER BY won DESC, score DESC, seq LIMIT ${TOP}) t) AS top,
  (SELECT row_to_json(y) FROM (SELECT ${RANK_OF_E} AS rank, e.name, e.score, e.won, e.duration_ms, e.wrong_slaps, e.id
                                FROM entries e WHERE e.day = $1::date AND e.id = $2) y) AS you`;

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
   * received_at, engine_version, replay_canonical }. Resolves to { created: true } or { created: false, existing }
   * (the id is stored already, by this request's earlier attempt or another); throws ClaimTaken("record" | "name")
   * when another entry of that day holds the game or the name's key. Any other failure is thrown as it comes.
   */
  async submit(record) {
    try {
      await this.#db.query(INSERT_ENTRY, [
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
      ]);
      return { created: true };
    } catch (error) {
      if (error?.code !== UNIQUE_VIOLATION) throw error;
      // A retry of a stored id may break any of the three constraints: the id is looked up first.
      const existing = await this.find(record.date, record.id);
      if (existing) return { created: false, existing };
      const kind = CONSTRAINT_KINDS[error.constraint];
      if (kind === "record" || kind === "name") throw new ClaimTaken(kind);
      throw error;
    }
  }

  /** { rank, total } of a stored entry, from one read. */
  async standing(date, id) {
    const { rows } = await this.#db.query(STANDING, [date, id]);
    if (!rows[0]) throw new Error(`entry ${date}/${id} is not stored`);
    return { rank: rows[0].rank, total: rows[0].total };
  }

  /**
   * The board view of `date` from one read: { date, entries: the top rows, total, you: the caller's row or null }.
   * Only the caller's own row carries its id.
   */
  async view(date, callerId = null) {
    const { rows } = await this.#db.query(VIEW, [date, callerId ?? ""]);
    const { total, top, you } = rows[0];
    const entries = top.map(({ id, seq, ...row }, at) => ({
      rank: at + 1,
      ...row,
      ...(id === callerId ? { you: true, id } : {}),
    }));
    return { date, entries, total, you: you ? { ...you, you: true } : null };
  }

  /** The replay stored with an entry (the object sent), or null. */
  async replay(date, id) {
    const { rows } = await this.#db.query("SELECT deflated FROM replays WHERE day = $1::date AND id = $2", [date, id]);
    return rows[0] ? inflateReplay(rows[0].deflated) : null;
  }

  /** Deletes the replays of days before `date` less REPLAY_DAYS; resolves to how many went. */
  async pruneReplays(today) {
    const { rows } = await this.#db.query(
      "WITH gone AS (DELETE FROM replays WHERE day < $1::date - $2::int RETURNING 1) SELECT count(*)::int AS n FROM gone",
      [today, REPLAY_DAYS],
    );
    return rows[0].n;
  }
}

// Netlify Blobs layout: a write-once blob per submission (`${date}/${id}`) and one leaderboard blob per date.
//
// Submissions are the source of truth; a date's leaderboard blob is a compact index of them, updated with
// conditional writes (ETag compare-and-swap, retried on conflict) and rebuilt from the submissions if missing.
// Inside one process, board writes for a date are queued and grouped (all records that arrive during a write go
// into the next one), and writes of one submission key are queued: that cuts conflicts between the concurrent
// requests of an instance, and keeps the local BlobsServer correct (its GET returns no ETag and its conditional
// PUT is a check followed by a rename, not atomic).
import { getStore } from "@netlify/blobs";

export const SUBMISSION_STORE = "ewar-scores";
export const BOARD_STORE = "ewar-leaderboards";
export const BOARD_FORMAT = 1;
export const TOP = 50;
const MAX_ATTEMPTS = 12;
const REQUEST_TIMEOUT_MS = 10_000;
const REBUILD_PARALLEL = 16;

/** Retrying did not get a conditional write through; the caller answers 503 and the client retries. */
export class StoreBusy extends Error {}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const backoff = (attempt) => Math.random() * Math.min(250, 5 * 2 ** attempt);
const timedFetch = (url, options) => fetch(url, { ...options, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });

/** Both stores, read with strong consistency. `blobOptions` (siteID, token, edgeURL...) only for local use. */
export function openStores(blobOptions = {}) {
  const common = { consistency: "strong", fetch: timedFetch, ...blobOptions };
  return {
    submissions: getStore({ ...common, name: SUBMISSION_STORE }),
    boards: getStore({ ...common, name: BOARD_STORE }),
  };
}

export const submissionKey = (date, id) => `${date}/${id}`;

/** Leaderboard order: higher score first, then the earlier submission. */
export function compareEntries(a, b) {
  return b.score - a.score || a.received_at - b.received_at || a.seq - b.seq;
}

function entryOf(record, seq) {
  return {
    id: record.id, name: record.name, score: record.score, duration_ms: record.duration_ms,
    wrong_slaps: record.wrong_slaps, won: record.won, received_at: record.received_at, seq,
  };
}

function emptyBoard(date) {
  return { format: BOARD_FORMAT, date, next_seq: 0, entries: [] };
}

function withEntry(board, record) {
  const entries = [...board.entries, entryOf(record, board.next_seq)].sort(compareEntries);
  return { ...board, next_seq: board.next_seq + 1, entries };
}

function publicEntry(entry, rank, callerId) {
  const shown = {
    rank, name: entry.name, score: entry.score, duration_ms: entry.duration_ms,
    wrong_slaps: entry.wrong_slaps, won: entry.won,
  };
  return entry.id === callerId ? { ...shown, you: true, id: entry.id } : shown;
}

/** The GET answer: the top entries, the total, and the caller's own entry (found by their submission id). */
export function leaderboardView(board, callerId = null) {
  const entries = board.entries.slice(0, TOP).map((entry, index) => publicEntry(entry, index + 1, callerId));
  const index = callerId ? board.entries.findIndex((entry) => entry.id === callerId) : -1;
  const you = index < 0 ? null : publicEntry(board.entries[index], index + 1, callerId);
  return { date: board.date, entries, total: board.entries.length, you };
}

export class ScoreStore {
  #submissions;
  #boards;
  #queues = new Map();
  #batches = new Map();
  #cache = new Map();
  #cacheMs;

  /** `cacheMs`: how long this instance may answer leaderboard reads from the board it last read or wrote. */
  constructor({ submissions, boards }, { cacheMs = 1000 } = {}) {
    this.#submissions = submissions;
    this.#boards = boards;
    this.#cacheMs = cacheMs;
  }

  /** Keeps the newest board seen (a slow read must not replace a newer write). */
  #remember(date, board) {
    const cached = this.#cache.get(date);
    if (!cached || cached.until <= performance.now() || board.next_seq >= cached.board.next_seq) {
      this.#cache.set(date, { board, until: performance.now() + this.#cacheMs });
    }
    return board;
  }

  /** The stored submission record, or null. */
  async find(date, id) {
    return this.#submissions.get(submissionKey(date, id), { type: "json" });
  }

  /**
   * Stores a new submission once and puts it on the board: { created: true, board }, or, when the id is
   * already taken, { created: false, existing }.
   */
  async submit(record) {
    const key = submissionKey(record.date, record.id);
    const written = await this.#serialize(key, () => this.#submissions.set(key, JSON.stringify(record),
      { onlyIfNew: true }));
    if (!written.modified) {
      const existing = await this.find(record.date, record.id);
      if (!existing) throw new StoreBusy(`${key} was neither new nor readable`);
      return { created: false, existing };
    }
    return { created: true, board: await this.addToBoard(record) };
  }

  /**
   * Puts a stored submission on its date's leaderboard (no-op if there already); returns the board.
   * Group commit: records arriving while a board write is under way go into the next write together.
   */
  async addToBoard(record) {
    let batch = this.#batches.get(record.date);
    if (!batch) {
      batch = { records: [] };
      this.#batches.set(record.date, batch);
      batch.written = this.#serialize(record.date, () => {
        if (this.#batches.get(record.date) === batch) this.#batches.delete(record.date);
        return this.#addWithRetries(record.date, batch.records);
      });
    }
    batch.records.push(record);
    return batch.written;
  }

  /** The date's leaderboard, rebuilt from the submissions if its blob is missing. */
  async board(date) {
    const cached = this.#cache.get(date);
    if (cached && cached.until > performance.now()) return cached.board;
    const current = await this.#readBoard(date, { etag: false });
    if (current) return this.#remember(date, current.board);
    return this.#serialize(date, async () => {
      const again = await this.#readBoard(date, { etag: false });
      if (again) return this.#remember(date, again.board);
      const board = await this.#rebuild(date);
      await this.#boards.set(date, JSON.stringify(board), { onlyIfNew: true });
      return this.#remember(date, board);
    });
  }

  async #addWithRetries(date, records) {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const current = await this.#readBoard(date, { etag: true });
      let board = current ? current.board : await this.#rebuild(date);
      const onBoard = new Set(board.entries.map((entry) => entry.id));
      const missing = records.filter((record) => !onBoard.has(record.id));
      if (current && missing.length === 0) return this.#remember(date, board);
      board = missing.reduce(withEntry, board);
      const condition = !current ? { onlyIfNew: true } : current.etag ? { onlyIfMatch: current.etag } : {};
      const written = await this.#boards.set(date, JSON.stringify(board), condition);
      if (written.modified) return this.#remember(date, board);
      await sleep(backoff(attempt));
    }
    throw new StoreBusy(`the ${date} leaderboard stayed busy`);
  }

  /**
   * { board, etag } or null. Writers need the ETag; the local BlobsServer sends none on GET, so there it comes
   * from a listing.
   */
  async #readBoard(date, { etag: needEtag }) {
    const found = await this.#boards.getWithMetadata(date, { type: "json" });
    if (!found || found.data === null) return null;
    let etag = found.etag;
    if (!etag && needEtag) {
      const { blobs } = await this.#boards.list({ prefix: date });
      etag = blobs.find((blob) => blob.key === date)?.etag;
    }
    return { board: found.data, etag };
  }

  /** Every stored submission of a date, in arrival order, as a fresh board. */
  async #rebuild(date) {
    const { blobs } = await this.#submissions.list({ prefix: `${date}/` });
    const records = [];
    for (let start = 0; start < blobs.length; start += REBUILD_PARALLEL) {
      const batch = blobs.slice(start, start + REBUILD_PARALLEL);
      const got = await Promise.all(batch.map((blob) => this.#submissions.get(blob.key, { type: "json" })));
      records.push(...got.filter(Boolean));
    }
    records.sort((a, b) => a.received_at - b.received_at || (a.id < b.id ? -1 : 1));
    return records.reduce(withEntry, emptyBoard(date));
  }

  /** Runs `task` after the tasks already queued under `key` in this process. */
  async #serialize(key, task) {
    const previous = this.#queues.get(key) ?? Promise.resolve();
    const run = previous.then(() => task());
    const tail = run.catch(() => {});
    this.#queues.set(key, tail);
    try {
      return await run;
    } finally {
      if (this.#queues.get(key) === tail) this.#queues.delete(key);
    }
  }
}

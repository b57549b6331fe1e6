// The daily board on Netlify Blobs, laid out so that no write touches a growing blob (docs/scores.md, "Storage").
//
// Per date D, in the deploy context's store:
//   D/entries/<id>       the accepted record, written once: the source of truth
//   D/records/<sha256>   claim of an action list: one record, one entry
//   D/names/<digest>     claim of a name's look-alike class: one look-alike per board
//   D/queue/<rank key>   an accepted entry not merged yet (written before its record)
//   D/board              the summary: score histogram, top 50, last merge's entries (bounded in size)
//   D/places/<id>        an entry's index in its score bucket, once merged
//   D/lease              who merges now
// A merge moves queued entries into the summary by compare-and-swap; an entry is queued before its record is
// written and leaves the queue only after a committed merge placed it, so none is lost or counted twice.

import { StoreBusy } from "./blobs.mjs";
import {
  compareQueued,
  emptySummary,
  mergedRank,
  mergeInto,
  parseQueueKey,
  pendingOf,
  pendingRank,
  queuedInTop,
  queueKey,
  shownOf,
  topRows,
} from "./board.mjs";

/** Entries one merge takes at most (keeps the summary's list of them small). */
export const MERGE_BATCH = 1000;
/** A claim whose owner stored no record in this long may be taken over (its request died). */
export const STALE_CLAIM_MS = 120_000;
/** How long a merger holds the lease; another may take it after. */
export const LEASE_MS = 20_000;
const PARALLEL = 24;
const CAS_ATTEMPTS = 6;

const keys = {
  entry: (date, id) => `${date}/entries/${id}`,
  record: (date, sha) => `${date}/records/${sha}`,
  name: (date, digest) => `${date}/names/${digest}`,
  place: (date, id) => `${date}/places/${id}`,
  board: (date) => `${date}/board`,
  lease: (date) => `${date}/lease`,
  queue: (date) => `${date}/queue/`,
};

/** Runs `task` on every item, at most PARALLEL at a time; resolves to the results in order. */
async function inParallel(items, task) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const at = next;
      next += 1;
      results[at] = await task(items[at]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, items.length) }, worker));
  return results;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A claim was found held by another submission that stored its record (or is still storing it). */
export class ClaimTaken extends Error {
  constructor(kind, owner) {
    super(`${kind} claimed by ${owner}`);
    this.kind = kind;
    this.owner = owner;
  }
}

export class ScoreStore {
  #table;
  #now;
  #cacheMs;
  #mergeBatch;
  #cache = new Map();
  #merging = new Map();
  #finished = new Map(); // date -> the last generation this instance finished (places written, queue keys gone)
  #holder = `${process.pid}-${Math.random().toString(36).slice(2, 10)}`;

  /**
   * `table`: a StoreTable (blobs.mjs). `now`: the clock. `cacheMs`: how long a board read may be reused.
   * `mergeBatch`: entries one merge takes at most (MERGE_BATCH; tests make it small).
   */
  constructor(table, { now = Date.now, cacheMs = 1000, mergeBatch = MERGE_BATCH } = {}) {
    this.#table = table;
    this.#now = now;
    this.#cacheMs = cacheMs;
    this.#mergeBatch = mergeBatch;
  }

  /** The stored record of a submission id, or null. */
  async find(date, id) {
    return this.#table.read(keys.entry(date, id));
  }

  /**
   * Stores an accepted record: claims its action list and its name, queues its entry, writes the record.
   * Resolves to { created: true } or { created: false, existing } (the id was stored meanwhile); throws
   * ClaimTaken("record" | "name") when another submission holds that claim (a refused name gives back the
   * record's claim). A StoreFault may leave claims behind: they are this id's, and its retry goes through.
   */
  async submit(record) {
    const { date, id } = record;
    const recordKey = keys.record(date, record.actions_sha256);
    await this.#claim("record", recordKey, id, (stored) => stored.actions_sha256 === record.actions_sha256);
    try {
      await this.#claim(
        "name",
        keys.name(date, record.name_digest),
        id,
        (stored) => stored.name_digest === record.name_digest,
      );
    } catch (error) {
      if (error instanceof ClaimTaken) await this.#table.remove(recordKey).catch(() => {});
      throw error;
    }
    await this.#table.put(queueKey(date, record), { id, ...shownOf(record), received_at: record.received_at });
    if (await this.#table.createOnly(keys.entry(date, id), record)) return { created: true };
    const existing = await this.find(date, id);
    if (!existing) throw new StoreBusy(`${keys.entry(date, id)} was neither new nor readable`);
    return { created: false, existing };
  }

  /**
   * Takes `key` for `id`, or finds it already this id's. A claim is taken over when its owner's record does not
   * hold what it claims (`holds(record)` is false: the owner's retry stored another name) or, with no record at
   * all, after STALE_CLAIM_MS (its request died).
   */
  async #claim(kind, key, id, holds) {
    const claim = { id, at: this.#now() };
    if (await this.#table.createOnly(key, claim)) return;
    const held = await this.#table.readWithEtag(key);
    if (!held) {
      if (await this.#table.createOnly(key, claim)) return;
      throw new StoreBusy(`${key} changed under us`);
    }
    if (held.data.id === id) return;
    const date = key.slice(0, 10);
    const ownerStored = await this.find(date, held.data.id);
    const stale = ownerStored ? !holds(ownerStored) : this.#now() - held.data.at >= STALE_CLAIM_MS;
    if (!stale) throw new ClaimTaken(kind, held.data.id);
    if (!(await this.#table.replaceIfMatch(key, claim, held.etag))) throw new ClaimTaken(kind, held.data.id);
  }

  // --- reading the board -------------------------------------------------------------------------------------

  /** The summary and the queue of a date, reused for `cacheMs` unless `fresh`. */
  async #snapshot(date, { fresh = false } = {}) {
    const cached = this.#cache.get(date);
    if (!fresh && cached && cached.until > performance.now()) return cached.snapshot;
    const snapshot = await this.#consistentRead(date);
    this.#cache.set(date, { snapshot, until: performance.now() + this.#cacheMs });
    return snapshot;
  }

  /**
   * The summary and the queue as of one generation: a merge between the two reads could hide its entries from
   * both (or count them in both), so the queue is listed between two reads of the summary that must agree.
   */
  async #consistentRead(date) {
    let summary = (await this.#table.read(keys.board(date))) ?? emptySummary(date);
    for (let attempt = 0; ; attempt += 1) {
      const queueKeys = await this.#table.keys(keys.queue(date));
      const again = (await this.#table.read(keys.board(date))) ?? emptySummary(date);
      if (again.generation === summary.generation || attempt === 3) {
        return { summary: again, pending: pendingOf(again, queueKeys) };
      }
      summary = again;
    }
  }

  /** The rank of a stored record: from the summary, its place, or the queue. */
  async #rankOf(record, { summary, pending }) {
    const inSummary = summary.merged.find((entry) => entry.id === record.id);
    if (inSummary) return mergedRank(summary, pending, inSummary);
    const queued = pending.find((entry) => entry.id === record.id);
    if (queued) return pendingRank(summary, pending, queued);
    const place = await this.#table.read(keys.place(record.date, record.id));
    if (place && place.generation <= summary.generation) return mergedRank(summary, pending, place);
    return null;
  }

  /**
   * { rank, total } of a stored record. `justQueued`: the record was queued by this request, so the board read
   * of the last `cacheMs` serves, with the record counted as the last of its bucket (a POST costs no board read
   * of its own); otherwise the record is looked for in the summary, the queue and its place, read afresh if needed.
   */
  async standing(record, { justQueued = false } = {}) {
    const { rank, total } = await this.#standingWithin(record, { justQueued });
    return { rank, total };
  }

  /** standing() and the board read it came from ({ rank, total, snapshot }). */
  async #standingWithin(record, { justQueued = false } = {}) {
    if (!justQueued) {
      for (const fresh of [false, true]) {
        const snapshot = await this.#snapshot(record.date, { fresh });
        const rank = await this.#rankOf(record, snapshot);
        if (rank !== null) return { rank, total: snapshot.summary.total + snapshot.pending.length, snapshot };
      }
    }
    const snapshot = await this.#snapshot(record.date);
    const { summary, pending } = snapshot;
    const merged = summary.merged.find((entry) => entry.id === record.id);
    if (merged) return { rank: mergedRank(summary, pending, merged), total: summary.total + pending.length, snapshot };
    const self = parseQueueKey(queueKey(record.date, record));
    const others = pending.filter((queued) => queued.id !== record.id);
    const withSelf = { summary, pending: [...others, self].sort(compareQueued) };
    return {
      rank: pendingRank(summary, withSelf.pending, self),
      total: summary.total + others.length + 1,
      snapshot: withSelf,
    };
  }

  /**
   * The board view: { date, entries: top rows, total, you: the caller's row or null, queued: entries not merged }.
   * With a caller, the whole view comes from the board read that holds the caller's entry: a player who has just
   * been answered 201 finds their entry counted in the total and, if it ranks there, among the rows.
   */
  async view(date, callerId = null) {
    let snapshot = null;
    let you = null;
    if (callerId) {
      const record = await this.find(date, callerId);
      if (record) {
        const standing = await this.#standingWithin(record);
        snapshot = standing.snapshot;
        you = { rank: standing.rank, ...shownOf(record), you: true, id: record.id };
      }
    }
    snapshot ??= await this.#snapshot(date);
    const { summary, pending } = snapshot;
    const candidates = queuedInTop(summary, pending);
    const bodies = await inParallel(candidates, (queued) => this.#table.read(queued.key));
    const queuedRows = new Map(bodies.filter(Boolean).map((body) => [body.id, body]));
    const rows = topRows(summary, pending, queuedRows);
    const total = summary.total + pending.length;
    const entries = rows.map(({ id, ...row }) => (id === callerId ? { ...row, you: true, id } : row));
    return { date, entries, total, you, queued: pending.length };
  }

  // --- merging -----------------------------------------------------------------------------------------------

  /**
   * Merges the date's queue into its summary if this process is not merging it already and the lease is free.
   * Resolves to the number of entries merged (0 when someone else is at it).
   */
  async merge(date) {
    if (this.#merging.has(date)) return this.#merging.get(date);
    const run = this.#mergeUnderLease(date).finally(() => this.#merging.delete(date));
    this.#merging.set(date, run);
    return run;
  }

  async #mergeUnderLease(date) {
    const lease = { etag: await this.#takeLease(date), until: this.#now() + LEASE_MS };
    if (!lease.etag) return 0;
    try {
      let total = 0;
      for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt += 1) {
        if (!(await this.#keepLease(date, lease))) return total;
        const merged = await this.#mergeOnce(date);
        if (merged !== null) {
          total += merged;
          if (merged < this.#mergeBatch) return total;
          attempt = -1; // a full batch: go on with the rest of the queue
        } else {
          await sleep(Math.random() * 50 * (attempt + 1));
        }
      }
      throw new StoreBusy(`the ${date} board stayed busy`);
    } finally {
      await this.#table
        .replaceIfMatch(keys.lease(date), { holder: this.#holder, until: 0 }, lease.etag)
        .catch(() => {});
    }
  }

  /** The lease's new ETag, or null when another merger holds it. */
  async #takeLease(date) {
    const key = keys.lease(date);
    const mine = { holder: this.#holder, until: this.#now() + LEASE_MS };
    const created = await this.#table.createOnly(key, mine);
    if (created) return created;
    const held = await this.#table.readWithEtag(key);
    if (!held) return null;
    if (held.data.until > this.#now() && held.data.holder !== this.#holder) return null;
    return this.#table.replaceIfMatch(key, mine, held.etag);
  }

  /**
   * Renews `lease` ({ etag, until }) once half of it has run out, so that a long merge keeps it; false when it was
   * lost meanwhile (another merger took it over after it ran out), and this merger stops.
   */
  async #keepLease(date, lease) {
    if (this.#now() < lease.until - LEASE_MS / 2) return true;
    const until = this.#now() + LEASE_MS;
    const etag = await this.#table.replaceIfMatch(keys.lease(date), { holder: this.#holder, until }, lease.etag);
    if (!etag) return false;
    Object.assign(lease, { etag, until });
    return true;
  }

  /**
   * Records the places of a merge and clears its queue keys (idempotent; any merger may do it). Skipped when this
   * instance has finished that very generation already.
   */
  async #finish(date, summary) {
    if (this.#finished.get(date) === summary.generation) return;
    await inParallel(summary.merged, (entry) =>
      this.#table.put(keys.place(date, entry.id), {
        generation: summary.generation,
        bucket: entry.bucket,
        index: entry.index,
      }),
    );
    await inParallel(summary.merged, (entry) => this.#table.remove(entry.key));
    this.#finished.set(date, summary.generation);
  }

  /**
   * One compare-and-swap round: finish the last merge, read the queue, check queued entries against their records
   * in arrival order until a batch is full, merge it. Queued entries whose records are not written yet (their
   * requests are under way) are passed over, never in the way of later ones. Resolves to how many were merged, or
   * null when another merger committed first.
   */
  async #mergeOnce(date) {
    const found = await this.#table.readWithEtag(keys.board(date));
    const summary = found?.data ?? emptySummary(date);
    await this.#finish(date, summary);
    const queued = pendingOf(summary, await this.#table.keys(keys.queue(date))).sort(
      (a, b) => a.received_at - b.received_at,
    );
    const records = [];
    for (let at = 0; at < queued.length && records.length < this.#mergeBatch; ) {
      const chunk = queued.slice(at, at + this.#mergeBatch - records.length);
      at += chunk.length;
      const checked = await inParallel(chunk, (entry) => this.#checkQueued(date, entry));
      records.push(...checked.filter(Boolean));
    }
    if (records.length === 0) return 0;
    const next = mergeInto(summary, records);
    const written = found
      ? await this.#table.replaceIfMatch(keys.board(date), next, found.etag)
      : await this.#table.createOnly(keys.board(date), next);
    if (!written) return null;
    this.#cache.delete(date);
    await this.#finish(date, next);
    return records.length;
  }

  /**
   * The record behind a queued entry ({ ...record, key }) when it is stored from that very attempt; a key left by
   * an attempt whose record was written by another attempt, or by none for STALE_CLAIM_MS, is removed.
   */
  async #checkQueued(date, queued) {
    const record = await this.find(date, queued.id);
    if (record && record.received_at === queued.received_at) return { ...record, key: queued.key };
    if (record || this.#now() - queued.received_at > STALE_CLAIM_MS) await this.#table.remove(queued.key);
    return null;
  }
}

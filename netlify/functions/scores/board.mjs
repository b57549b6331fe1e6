// The day's board as numbers, no I/O: score buckets (a histogram), the merged top, the queue of entries not yet
// merged, and the exact rank of any entry. Order: every win above every loss, then the higher score, then the
// entry that reached the board first.
export const BOARD_FORMAT = 2;
/** Entries a board view lists. */
export const TOP = 50;

/** A bucket name: "w" or "l" and the score ("w1650"). Wins first, then higher scores. */
export const bucketOf = (won, score) => `${won ? "w" : "l"}${score}`;
const bucketWon = (bucket) => bucket[0] === "w";
const bucketScore = (bucket) => Number(bucket.slice(1));

/** Negative when bucket `a` ranks above bucket `b`. */
export function compareBuckets(a, b) {
  return Number(bucketWon(b)) - Number(bucketWon(a)) || bucketScore(b) - bucketScore(a);
}

export function emptySummary(date) {
  return { format: BOARD_FORMAT, date, generation: 0, total: 0, counts: {}, top: [], merged: [] };
}

/** How many merged entries rank above every entry of `bucket`. */
export function aboveBucket(summary, bucket) {
  let above = 0;
  for (const [other, count] of Object.entries(summary.counts)) {
    if (compareBuckets(other, bucket) < 0) above += count;
  }
  return above;
}

// --- the queue: one small blob per accepted entry until a merge takes it; its key says where it ranks --------

const QUEUE_KEY = /^(\d{4}-\d{2}-\d{2})\/queue\/([wl])(\d{1,9})_(\d{13})_([A-Za-z0-9_-]{16,64})$/;

export const queueKey = (date, { id, won, score, received_at: receivedAt }) =>
  `${date}/queue/${won ? "w" : "l"}${score}_${String(receivedAt).padStart(13, "0")}_${id}`;

/** { key, id, bucket, received_at } of a queue key, or null for a key of another shape. */
export function parseQueueKey(key) {
  const match = QUEUE_KEY.exec(key);
  if (!match) return null;
  return { key, id: match[5], bucket: `${match[2]}${Number(match[3])}`, received_at: Number(match[4]) };
}

/** Queue order: bucket, then arrival, then id. */
export function compareQueued(a, b) {
  return compareBuckets(a.bucket, b.bucket) || a.received_at - b.received_at || (a.id < b.id ? -1 : a.id > b.id);
}

/**
 * The queued entries a summary does not hold yet, one per id (the earliest attempt), in queue order. A retried
 * submission may leave a second key for its id until the next merge removes it.
 */
export function pendingOf(summary, keys) {
  const merged = new Set(summary.merged.map((entry) => entry.id));
  const byId = new Map();
  for (const key of keys) {
    const queued = parseQueueKey(key);
    if (!queued || merged.has(queued.id)) continue;
    const seen = byId.get(queued.id);
    if (!seen || queued.received_at < seen.received_at) byId.set(queued.id, queued);
  }
  return [...byId.values()].sort(compareQueued);
}

// --- merging ------------------------------------------------------------------------------------------------

const compareTop = (a, b) => compareBuckets(a.bucket, b.bucket) || a.index - b.index;

/**
 * The next summary with `records` (queued entries checked against their stored records) merged in arrival order:
 * each takes the next index of its bucket, so an entry merged later never passes an equal one merged earlier.
 * `merged` lists this generation's entries and their queue keys (the next merge records their places).
 */
export function mergeInto(summary, records) {
  const counts = { ...summary.counts };
  const arrived = [...records].sort((a, b) => a.received_at - b.received_at || (a.id < b.id ? -1 : 1));
  const merged = arrived.map((record) => {
    const bucket = bucketOf(record.won, record.score);
    const index = counts[bucket] ?? 0;
    counts[bucket] = index + 1;
    return { id: record.id, key: record.key, bucket, index };
  });
  const newcomers = arrived.map((record, at) => ({
    ...shownOf(record),
    id: record.id,
    bucket: merged[at].bucket,
    index: merged[at].index,
  }));
  const top = [...summary.top, ...newcomers].sort(compareTop).slice(0, TOP);
  return { ...summary, generation: summary.generation + 1, total: summary.total + arrived.length, counts, top, merged };
}

/** The fields a board row shows. */
export function shownOf(entry) {
  return {
    name: entry.name,
    score: entry.score,
    won: entry.won,
    duration_ms: entry.duration_ms,
    wrong_slaps: entry.wrong_slaps,
  };
}

// --- ranks --------------------------------------------------------------------------------------------------

/** The rank of a merged entry: everything above its bucket, the earlier ones of its bucket, and queued ones above. */
export function mergedRank(summary, pending, { bucket, index }) {
  const queuedAbove = pending.filter((queued) => compareBuckets(queued.bucket, bucket) < 0).length;
  return 1 + aboveBucket(summary, bucket) + index + queuedAbove;
}

/** The rank of a queued entry: all merged entries of its bucket and above, and the queued ones before it. */
export function pendingRank(summary, pending, queued) {
  const queuedAbove = pending.filter((other) => compareQueued(other, queued) < 0).length;
  return 1 + aboveBucket(summary, queued.bucket) + (summary.counts[queued.bucket] ?? 0) + queuedAbove;
}

/**
 * The first TOP rows of the board: merged ones from the summary, and the queued ones that rank among them
 * (their rows come from `queuedRows`, by id). Each row: { rank, id, name, score, won, duration_ms, wrong_slaps }.
 */
export function topRows(summary, pending, queuedRows) {
  const rows = [];
  let merged = 0;
  let queued = 0;
  while (rows.length < TOP && (merged < summary.top.length || queued < pending.length)) {
    const fromSummary = summary.top[merged];
    const fromQueue = pending[queued];
    // A merged entry comes before a queued one of the same bucket: it reached the board first.
    if (fromSummary && (!fromQueue || compareBuckets(fromSummary.bucket, fromQueue.bucket) <= 0)) {
      rows.push({ id: fromSummary.id, ...shownOf(fromSummary) });
      merged += 1;
    } else {
      const row = queuedRows.get(fromQueue.id);
      if (row) rows.push({ id: fromQueue.id, ...shownOf(row) });
      queued += 1;
    }
  }
  return rows.map((row, at) => ({ rank: at + 1, ...row }));
}

/** The queued entries that could be shown among the first TOP rows. */
export function queuedInTop(summary, pending) {
  const last = summary.top.length < TOP ? null : summary.top.at(-1).bucket;
  return pending.filter((queued) => last === null || compareBuckets(queued.bucket, last) < 0).slice(0, TOP);
}

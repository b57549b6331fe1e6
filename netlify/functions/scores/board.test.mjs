// The board's arithmetic (board.mjs): order, merges, exact ranks, against a brute-force sort of every entry.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  bucketOf,
  compareBuckets,
  emptySummary,
  mergedRank,
  mergeInto,
  parseQueueKey,
  pendingOf,
  pendingRank,
  queuedInTop,
  queueKey,
  TOP,
  topRows,
} from "./board.mjs";

const DATE = "2026-11-30";

/** A small deterministic generator (tests must not depend on Math.random). */
function generator(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

let counter = 0;
function entry(random, at) {
  counter += 1;
  const won = random() < 0.6;
  const score = won ? 500 + Math.floor(random() * 30) * 50 : Math.floor(random() * 120) * 25;
  return {
    id: `id${String(counter).padStart(14, "0")}`,
    name: `N${counter}`,
    score,
    won,
    duration_ms: 1000,
    wrong_slaps: 0,
    received_at: 1_800_000_000_000 + at,
  };
}

/** Merges `entries` in batches of random sizes, leaving the last `queued` in the queue; the truth beside it. */
function buildBoard(seed, count, queued) {
  const random = generator(seed);
  const entries = Array.from({ length: count }, (_, at) => entry(random, at * 7));
  let summary = emptySummary(DATE);
  const order = []; // the board's true order: merge order within a bucket, queued ones after
  let at = 0;
  const places = new Map();
  while (at < count - queued) {
    const batch = entries.slice(at, Math.min(count - queued, at + 1 + Math.floor(random() * 40)));
    const withKeys = batch.map((one) => ({ ...one, key: queueKey(DATE, one) }));
    summary = mergeInto(summary, withKeys);
    for (const placed of summary.merged) places.set(placed.id, placed);
    order.push(...batch);
    at += batch.length;
  }
  const waiting = entries.slice(count - queued);
  const pending = pendingOf(
    summary,
    waiting.map((one) => queueKey(DATE, one)),
  );
  return { entries, summary, places, pending, merged: order, waiting };
}

/** Brute force: wins, then score, then merged before queued, then merge order / arrival. */
function bruteForceOrder({ merged, waiting }) {
  const tagged = [
    ...merged.map((one, at) => ({ one, stage: 0, at })),
    ...waiting.map((one) => ({ one, stage: 1, at: one.received_at })),
  ];
  tagged.sort(
    (a, b) => Number(b.one.won) - Number(a.one.won) || b.one.score - a.one.score || a.stage - b.stage || a.at - b.at,
  );
  return tagged.map(({ one }) => one.id);
}

describe("order", () => {
  test("every win above every loss, whatever the scores", () => {
    assert.ok(compareBuckets(bucketOf(true, 500), bucketOf(false, 4600)) < 0);
    assert.ok(compareBuckets(bucketOf(false, 4600), bucketOf(true, 500)) > 0);
    assert.ok(compareBuckets(bucketOf(true, 1900), bucketOf(true, 1850)) < 0);
    assert.ok(compareBuckets(bucketOf(false, 50), bucketOf(false, 25)) < 0);
    assert.equal(compareBuckets(bucketOf(true, 700), bucketOf(true, 700)), 0);
  });

  test("a queue key carries where its entry ranks, and nothing else parses as one", () => {
    const one = { id: "abcdefghijklmnop", won: false, score: 2925, received_at: 1_800_000_000_123 };
    assert.deepEqual(parseQueueKey(queueKey(DATE, one)), {
      key: queueKey(DATE, one),
      id: one.id,
      bucket: "l2925",
      received_at: one.received_at,
    });
    for (const key of [
      `${DATE}/queue/x1_0000000000001_abcdefghijklmnop`,
      `${DATE}/queue/w1_1_abcdefghijklmnop`,
      `${DATE}/entries/abcdefghijklmnop`,
      `${DATE}/queue/w1_0000000000001_short`,
    ]) {
      assert.equal(parseQueueKey(key), null, key);
    }
  });
});

describe("ranks are exact", () => {
  for (const [seed, count, queued] of [
    [1, 400, 0],
    [2, 400, 37],
    [3, 120, 120],
    [4, 1500, 200],
  ]) {
    test(`${count} entries, ${queued} still queued (seed ${seed})`, () => {
      const board = buildBoard(seed, count, queued);
      const truth = bruteForceOrder(board);
      const truthRank = new Map(truth.map((id, at) => [id, at + 1]));
      for (const [id, place] of board.places) {
        assert.equal(mergedRank(board.summary, board.pending, place), truthRank.get(id), id);
      }
      for (const queuedEntry of board.pending) {
        assert.equal(pendingRank(board.summary, board.pending, queuedEntry), truthRank.get(queuedEntry.id));
      }
      const rows = new Map(board.waiting.map((one) => [one.id, one]));
      const top = topRows(board.summary, board.pending, rows);
      assert.deepEqual(
        top.map((row) => row.id),
        truth.slice(0, TOP),
      );
      assert.deepEqual(
        top.map((row) => row.rank),
        truth.slice(0, TOP).map((_, at) => at + 1),
      );
      const needed = new Set(queuedInTop(board.summary, board.pending).map((one) => one.id));
      for (const id of truth.slice(0, TOP)) if (!board.places.has(id)) assert.ok(needed.has(id), id);
      assert.equal(board.summary.total + board.pending.length, count);
    });
  }

  test("the summary stays small: one count per score, the top, and the last batch", () => {
    const board = buildBoard(5, 3000, 0);
    const buckets = Object.keys(board.summary.counts).length;
    assert.ok(buckets <= 30 + 120, `${buckets} buckets`);
    assert.equal(board.summary.top.length, TOP);
    assert.ok(board.summary.merged.length <= 40);
  });

  test("a retried entry queued twice counts once, at its first attempt", () => {
    const one = { id: "retriedentry0001", won: true, score: 900, received_at: 1_800_000_000_000 };
    const keys = [queueKey(DATE, one), queueKey(DATE, { ...one, received_at: one.received_at + 5000 })];
    const pending = pendingOf(emptySummary(DATE), keys);
    assert.deepEqual(
      pending.map((queued) => queued.received_at),
      [one.received_at],
    );
  });
});

// One game, one entry: when two records of a day are the same game. A game is its timing, not its path: on a
// daily deal the best players all play one path (the flips are forced), but no two people time ~50 actions alike.
// docs/scores.md, "One game, one entry", states the rule and the measurements its numbers come from
// (benchmarks/bench_same_game.mjs).
//
// Two action lists [[t_ms, "f" | "s"]...] are the same game when, after one common shift of the whole game, all
// but at most MAX_UNMATCHED actions pair off in order with an action of the same kind within TOLERANCE_MS.
// Candidates come from marks: the buckets of a few consecutive gaps between actions (a shift moves no gap), kept in
// Postgres with their entry and looked up through an index.

/** A matched pair's times may differ by this much after the common shift (a copy's jitter is far less). */
export const TOLERANCE_MS = 45;
/** Actions of either record left without a partner: added, removed or moved slaps and flips. */
export const MAX_UNMATCHED = 8;
/** A game of fewer matched actions is never called a copy (its timing says too little). */
export const MIN_MATCHED = 12;
/** Consecutive gaps in one mark, and the width of a gap's bucket. */
export const MARK_GAPS = 5;
export const MARK_BUCKET_MS = 128;
/** A lookup reads the marks of at most this many runs of gaps. */
export const LOOKUP_RUNS = 64;
/** At most this many stored entries (those sharing the most marks) are compared action by action. */
export const CANDIDATES = 12;
/** A stored entry sharing marks with fewer than this share of the runs read is not compared, nor under 2 marks. */
export const MIN_SHARE = 0.6;
export const MIN_SHARED_MARKS = 2;

/** How far a copy's flips may each have been moved for the index still to find it. */
export const JITTER_MS = 20;

const kindOf = (action) => (action[1] === "s" ? 1 : 0);

/** A 32-bit FNV-1a hash of small integers, as a signed int (Postgres `integer`). */
function hashInts(values) {
  let hash = 0x811c9dc5;
  for (const value of values) {
    let v = value >>> 0;
    for (let byte = 0; byte < 4; byte += 1) {
      hash ^= v & 0xff;
      hash = Math.imul(hash, 0x01000193);
      v >>>= 8;
    }
  }
  return hash | 0;
}

/** The flips' times: copies add and remove slaps, but every flip of a game is forced and stays. */
const flipTimes = (actions) => actions.filter((action) => action[1] === "f").map((action) => action[0]);

/** The buckets a gap may fall in: its own, or also a neighbour when within `slack` ms of the edge. */
function bucketsOf(gap, slack) {
  const low = Math.floor((gap - slack) / MARK_BUCKET_MS);
  const high = Math.floor((gap + slack) / MARK_BUCKET_MS);
  return low === high ? [low] : [low, high];
}

/** The marks of the runs of gaps starting at flip `starts` (all of them by default), each gap widened by `slack`. */
function marksWith(actions, slack, pick = (count) => Array.from({ length: count }, (_, at) => at)) {
  const flips = flipTimes(actions);
  const marks = new Set();
  for (const start of pick(Math.max(0, flips.length - MARK_GAPS))) {
    let runs = [[]];
    for (let at = start; at < start + MARK_GAPS; at += 1) {
      const buckets = bucketsOf(flips[at + 1] - flips[at], slack);
      runs = runs.flatMap((run) => buckets.map((bucket) => [...run, bucket]));
    }
    for (const run of runs) marks.add(hashInts([start, ...run]));
  }
  return [...marks].sort((a, b) => a - b);
}

/** At most LOOKUP_RUNS starts, spread evenly over `count` (a copy shares its original's marks all along). */
const spread = (count) =>
  count <= LOOKUP_RUNS
    ? Array.from({ length: count }, (_, at) => at)
    : Array.from({ length: LOOKUP_RUNS }, (_, at) => Math.floor((at * count) / LOOKUP_RUNS));

/**
 * The marks an entry is stored with: for each run of MARK_GAPS consecutive gaps between its flips, a hash of where
 * the run starts (which flip) and of its gaps' buckets. A shift of the whole game changes none, nor an added or
 * removed slap (flips are forced: their count and order are the path's); a jittered flip only the runs around it.
 */
export const marksOf = (actions) => marksWith(actions, 0);

/**
 * How to look a new record up: { marks: those of every bucket its gaps could have had in a copy it was made from
 * (each flip moved by up to JITTER_MS), for at most LOOKUP_RUNS runs; minShared: how many of them a stored entry
 * must share to be compared (MIN_SHARE of the runs read, at least MIN_SHARED_MARKS) }.
 */
export function lookupOf(actions) {
  const runs = spread(Math.max(0, flipTimes(actions).length - MARK_GAPS)).length;
  return {
    marks: marksWith(actions, 2 * JITTER_MS, spread),
    minShared: Math.max(MIN_SHARED_MARKS, Math.ceil(MIN_SHARE * runs)),
  };
}

/** The common shift that lines up the most actions of the same kind near in order: the densest window of diffs. */
function commonShift(stored, fresh) {
  const diffs = [];
  for (let i = 0; i < stored.length; i += 1) {
    const from = Math.max(0, i - MAX_UNMATCHED);
    const to = Math.min(fresh.length - 1, i + MAX_UNMATCHED);
    for (let j = from; j <= to; j += 1) {
      if (kindOf(stored[i]) === kindOf(fresh[j])) diffs.push(fresh[j][0] - stored[i][0]);
    }
  }
  if (diffs.length === 0) return 0;
  diffs.sort((a, b) => a - b);
  let best = 0;
  let bestCount = 0;
  let end = 0;
  for (let start = 0; start < diffs.length; start += 1) {
    while (end < diffs.length && diffs[end] - diffs[start] <= 2 * TOLERANCE_MS) end += 1;
    if (end - start > bestCount) {
      bestCount = end - start;
      best = start;
    }
  }
  return diffs[best + Math.floor((bestCount - 1) / 2)];
}

/** The most actions that pair off in order, same kind, within TOLERANCE_MS after `shift` (a longest common run). */
function matchedCount(stored, fresh, shift) {
  const n = stored.length;
  const m = fresh.length;
  let previous = new Int32Array(m + 1);
  let current = new Int32Array(m + 1);
  for (let i = 1; i <= n; i += 1) {
    const [time, kind] = stored[i - 1];
    for (let j = 1; j <= m; j += 1) {
      const pairs = fresh[j - 1][1] === kind && Math.abs(fresh[j - 1][0] - shift - time) <= TOLERANCE_MS;
      current[j] = Math.max(previous[j], current[j - 1], pairs ? previous[j - 1] + 1 : 0);
    }
    [previous, current] = [current, previous];
  }
  return previous[m];
}

/**
 * How `fresh` lines up with `stored` (two action lists of one day): { same, matched, unmatched, shift }. `same`:
 * at most MAX_UNMATCHED actions without a partner and at least MIN_MATCHED pairs.
 */
export function compareGames(stored, fresh) {
  if (Math.abs(stored.length - fresh.length) > MAX_UNMATCHED) {
    return { same: false, matched: 0, unmatched: stored.length + fresh.length, shift: 0 };
  }
  const shift = commonShift(stored, fresh);
  const matched = matchedCount(stored, fresh, shift);
  const unmatched = stored.length + fresh.length - 2 * matched;
  return { same: unmatched <= MAX_UNMATCHED && matched >= MIN_MATCHED, matched, unmatched, shift };
}

/** The well-formed actions of a record ([whole ms, "f" | "s"]); anything else (a stand-in's) is left out. */
export const playerActions = (actions) =>
  Array.isArray(actions)
    ? actions.filter(
        (action) =>
          Array.isArray(action) && Number.isSafeInteger(action[0]) && (action[1] === "f" || action[1] === "s"),
      )
    : [];

/** The first of `candidates` ([{ actions }...], stored games) that `actions` is the same game as, or null. */
export const copiedAmong = (candidates, actions) =>
  candidates.find((candidate) => compareGames(playerActions(candidate.actions), actions).same) ?? null;

// A midnight of reads (issue 32): 1,000,000 board views and 100,000 posts in the hour after UTC midnight, replayed
// through the handlers (the real ones, over a real PostgreSQL) with a model of Netlify's CDN cache in front, and
// printed as the function invocations and database queries they cost, beside what the page before this change
// cost (every view of a player who had posted carried ?id= and missed the cache; counted by the same model).
//
// The model: one shared cache keyed by the whole URL (the durable cache: one copy for every edge node), an answer
// kept for its Netlify-CDN-Cache-Control s-maxage, then served stale for its stale-while-revalidate while one
// invocation refreshes it; a purge of a tag drops its copies. Views come from 300,000 players, 100,000 of whom
// post once at a random moment of the hour; a view by a player who has posted also reads its own row
// (/api/scores/rank, never cached). Arrivals are uniform over the hour (a seeded generator: the same run every
// time). The judge is the test stand-in: judging is bench_scores.mjs's.
//
// python -m tools.builder.postgres -- node benchmarks/bench_midnight.mjs [--scale 1]
import os from "node:os";
import { parseArgs } from "node:util";
import { ScoreStore } from "../netlify/database/scores-store.mjs";
import { nameKey } from "../netlify/lib/lookalike.mjs";
import { createScoresHandler } from "../netlify/scores-api/handler.mjs";
import { standInEngine, standInReplay } from "../tools/harness/fixtures.mjs";
import { freshDatabase } from "../tools/harness/testdb.mjs";
import { utcDay } from "../web/common/contract.js";

const { values: options } = parseArgs({ options: { scale: { type: "string", default: "1" } } });
const SCALE = Number(options.scale);
const VIEWS = Math.round(1_000_000 * SCALE);
const POSTS = Math.round(100_000 * SCALE);
const PLAYERS = Math.round(300_000 * SCALE);
const HOUR_MS = 3_600_000;
const ORIGIN = "https://ewar.example";
/** The page before: the handler's answer was public, max-age=5, s-maxage=5 (no stale-while-revalidate). */
const OLD_S_MAXAGE = 5;
/** RANK_CACHE (handler.mjs): a browser shows its own row again for 30 s without asking. */
const BROWSER_RANK_MS = 30_000;
const CONCURRENCY = 32;

/** Mulberry32: a small seeded generator, so every run replays the same midnight. */
function seeded(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Netlify-CDN-Cache-Control's numbers: { sMaxAge, swr } in ms, or null when it says not to keep. */
function cdnPolicy(headers) {
  const text = headers.get("netlify-cdn-cache-control") ?? headers.get("cache-control") ?? "";
  const sMaxAge = /s-maxage=(\d+)/.exec(text);
  if (!sMaxAge || /no-store|private/.test(text)) return null;
  const swr = /stale-while-revalidate=(\d+)/.exec(text);
  return { sMaxAge: Number(sMaxAge[1]) * 1000, swr: swr ? Number(swr[1]) * 1000 : 0 };
}

/**
 * The CDN model: get(url, at, invoke) → the answer from the cache or from invoke(); counts what it does. Views of
 * a URL whose answer is on its way wait for it (Netlify coalesces them), as do views during a refresh.
 */
function cdnModel() {
  const copies = new Map();
  const counts = { hits: 0, stale: 0, misses: 0, purged: 0 };
  const refreshing = new Set();
  return {
    counts,
    /** Resolves once every refresh under way has answered. */
    settled: () => Promise.all(refreshing),
    async get(url, at, invoke) {
      const copy = copies.get(url);
      if (copy?.pending) {
        counts.hits += 1;
        return copy.pending;
      }
      if (copy && at - copy.storedAt < copy.sMaxAge) {
        counts.hits += 1;
        return copy.body;
      }
      if (copy && at - copy.storedAt < copy.sMaxAge + copy.swr) {
        // Served stale; one invocation refreshes the copy meanwhile.
        counts.stale += 1;
        copy.storedAt = at;
        const refresh = invoke().then((fresh) => {
          copy.body = fresh.body;
          refreshing.delete(refresh);
        });
        refreshing.add(refresh);
        return copy.body;
      }
      counts.misses += 1;
      const pending = invoke();
      copies.set(url, { pending });
      const answer = await pending;
      const policy = cdnPolicy(answer.headers);
      if (policy) {
        copies.set(url, { ...policy, storedAt: at, body: answer.body, tags: answer.headers.get("netlify-cache-tag") });
      } else {
        copies.delete(url);
      }
      return answer.body;
    },
    purge(tags) {
      for (const [url, copy] of copies) {
        if (copy.tags && tags.includes(copy.tags)) {
          copies.delete(url);
          counts.purged += 1;
        }
      }
    },
  };
}

/** The midnight's events, in time order: posts (one per posting player) and views. */
function midnight(start) {
  const random = seeded(20261203);
  const events = [];
  const postedAt = new Map();
  for (let player = 0; player < POSTS; player += 1) {
    const at = start + Math.floor(random() * HOUR_MS);
    postedAt.set(player, at);
    events.push({ at, kind: "post", player });
  }
  for (let view = 0; view < VIEWS; view += 1) {
    events.push({ at: start + Math.floor(random() * HOUR_MS), kind: "view", player: Math.floor(random() * PLAYERS) });
  }
  events.sort((a, b) => a.at - b.at || (a.kind === "post" ? -1 : 1));
  return { events, postedAt, random };
}

/** Runs `task` for each item, at most `limit` at once, starting them in order. */
async function inOrder(items, limit, task) {
  const running = new Set();
  for (const item of items) {
    const done = task(item).finally(() => running.delete(done));
    running.add(done);
    if (running.size >= limit) await Promise.race(running);
  }
  await Promise.all(running);
}

/** The p50 in ms of `runs` sequential calls of `read()`. */
async function p50Of(runs, read) {
  const times = [];
  for (let at = 0; at < runs; at += 1) {
    const started = performance.now();
    await read(at);
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)];
}

async function main() {
  const fresh = await freshDatabase({ max: CONCURRENCY });
  const start = Date.parse(`${utcDay(Date.now())}T00:00:00Z`);
  const date = utcDay(start);
  let clock = start;
  const cdn = cdnModel();
  const purges = { calls: 0 };
  const engine = standInEngine();
  const invocations = { post: 0, board: 0, rank: 0 };
  const queriesBy = { post: 0, board: 0, rank: 0 };
  // One handler for each kind of request, each over a db that counts its queries (the store keeps no state).
  const handlers = {};
  for (const kind of Object.keys(invocations)) {
    const counting = {
      query(text, params) {
        queriesBy[kind] += 1;
        return fresh.pool.query(text, params);
      },
    };
    handlers[kind] = createScoresHandler({
      database: () => counting,
      getEngine: async () => engine,
      clock: { now: () => clock },
      purge: async (tags) => {
        purges.calls += 1;
        cdn.purge(tags);
        return true;
      },
    });
  }
  const call = async (kind, request) => {
    invocations[kind] += 1;
    const response = await handlers[kind](request);
    const body = await response.text();
    if (response.status >= 300) throw new Error(`${kind} answered ${response.status}: ${body}`);
    return { headers: response.headers, body };
  };

  const { events, postedAt, random } = midnight(start);
  const ids = new Map();
  const usedKeys = new Set();
  const browser = new Map();
  const old = { invocations: 0, cache: new Map() };
  const started = performance.now();
  await inOrder(events, CONCURRENCY, async (event) => {
    clock = Math.max(clock, event.at);
    if (event.kind === "post") {
      let name = `Night ${event.player}`;
      for (let extra = 1; usedKeys.has(nameKey(name)); extra += 1) name = `Night ${event.player} ${"x".repeat(extra)}`;
      usedKeys.add(nameKey(name));
      const score = Math.floor(random() * 3000);
      const id = `night-${String(event.player).padStart(12, "0")}`;
      ids.set(event.player, id);
      const body = { id, name, date, score, replay: standInReplay({ score, won: random() < 0.6, actions: [id] }) };
      await call(
        "post",
        new Request(`${ORIGIN}/api/scores`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        }),
      );
      return;
    }
    const posted = postedAt.has(event.player) && postedAt.get(event.player) <= event.at && ids.has(event.player);
    const boardUrl = `${ORIGIN}/api/scores?date=${date}`;
    const reads = [cdn.get(boardUrl, event.at, () => call("board", new Request(boardUrl)))];
    // The player's own row: from its browser's cache within RANK_CACHE's 30 s, else one small read.
    if (posted && !(event.at - (browser.get(event.player) ?? Number.NEGATIVE_INFINITY) < BROWSER_RANK_MS)) {
      browser.set(event.player, event.at);
      const rankUrl = `${ORIGIN}/api/scores/rank?date=${date}&id=${ids.get(event.player)}`;
      reads.push(call("rank", new Request(rankUrl)));
    }
    // Before: one URL, with ?id= for a player who had posted, kept s-maxage=5 at the CDN.
    const oldUrl = posted ? `${boardUrl}&id=${ids.get(event.player)}` : boardUrl;
    const oldCopy = old.cache.get(oldUrl);
    if (oldCopy === undefined || event.at - oldCopy >= OLD_S_MAXAGE * 1000) {
      old.invocations += 1;
      old.cache.set(oldUrl, event.at);
    }
    await Promise.all(reads);
  });
  await cdn.settled();
  const seconds = (performance.now() - started) / 1000;
  // What each read costs the database on the hour's final board: the statement a view cost before (board and
  // the caller's rank in one), the public board's, and the own row's.
  const store = new ScoreStore(fresh.pool);
  const someIds = [...ids.values()];
  const weight = {
    before: await p50Of(200, (at) => store.view(date, someIds[at % someIds.length])),
    board: await p50Of(200, () => store.view(date)),
    rank: await p50Of(200, (at) => store.yours(date, someIds[at % someIds.length])),
  };
  const { rows } = await fresh.pool.query("SELECT count(*)::int AS n FROM entries");
  await fresh.drop();

  const n = (value) => value.toLocaleString("en");
  console.log(
    `Midnight (scale ${SCALE}): ${n(VIEWS)} board views and ${n(POSTS)} posts in one hour, ${n(PLAYERS)} players; ` +
      `replayed in ${seconds.toFixed(0)} s (${CONCURRENCY} at a time); ${n(rows[0].n)} entries stored`,
  );
  const readsNow = invocations.board + invocations.rank;
  const before = old.invocations;
  console.log(
    `  views, before (?id= on the board's URL, s-maxage=5): ${n(before)} function invocations, ${n(before)} ` +
      `database queries (one statement: board + rank), p50 ${weight.before.toFixed(2)} ms each on the final board`,
  );
  console.log(
    `  views, now (public board at the CDN + own row):      ${n(readsNow)} function invocations ` +
      `(${n(invocations.board)} board, ${n(invocations.rank)} own row), ${n(queriesBy.board + queriesBy.rank)} ` +
      `database queries (board p50 ${weight.board.toFixed(2)} ms, own row p50 ${weight.rank.toFixed(2)} ms); ` +
      `${(before / Math.max(1, readsNow)).toFixed(1)}x fewer invocations, ` +
      `${((before * weight.before) / (invocations.board * weight.board + invocations.rank * weight.rank)).toFixed(1)}x ` +
      "less database time",
  );
  console.log(
    `  CDN: ${n(cdn.counts.hits)} hits, ${n(cdn.counts.stale)} stale served while refreshed, ${n(cdn.counts.misses)} ` +
      `misses, ${n(cdn.counts.purged)} copies purged by ${n(purges.calls)} purges (posts that entered the top 50)`,
  );
  console.log(
    `  posts: ${n(invocations.post)} invocations, ${n(queriesBy.post)} database queries ` +
      `(${(queriesBy.post / Math.max(1, invocations.post)).toFixed(2)} a post)`,
  );
  console.log(
    `Machine: ${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(" ")}`,
  );
}

await main();

// The store's claims and merges (store.mjs) against the real local Blobs server: requests that die half-way,
// several instances merging at once.
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import { startBlobsServer } from "../../local-blobs.mjs";
import { openStore, StoreFault, storeNameFor } from "./blobs.mjs";
import { newDataDir } from "./fixtures.mjs";
import { lookalikeDigest } from "./lookalike.mjs";
import { ClaimTaken, LEASE_MS, ScoreStore, STALE_CLAIM_MS } from "./store.mjs";

const DATE = "2026-11-30";
let server;
let dataDir;
let clock = 1_800_000_000_000;
const now = () => clock;

before(async () => {
  dataDir = newDataDir();
  server = await startBlobsServer(dataDir);
});
after(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

let counter = 0;
function record(overrides = {}) {
  counter += 1;
  const id = `storetest${String(counter).padStart(10, "0")}`;
  const name = overrides.name ?? `S${counter}`;
  return {
    id,
    name,
    name_digest: lookalikeDigest(name),
    date: DATE,
    score: 500 + counter,
    won: true,
    duration_ms: 1,
    wrong_slaps: 0,
    actions_sha256: `${String(counter).padStart(8, "0")}${"a".repeat(56)}`,
    received_at: clock,
    ...overrides,
  };
}

const freshStore = (context) => new ScoreStore(openStore(context, server.options), { now, cacheMs: 0 });

describe("store names", () => {
  test("production's store only for production", () => {
    assert.equal(storeNameFor("production"), "ewar-scores");
    for (const [context, name] of [
      ["deploy-preview", "ewar-scores-deploy-preview"],
      ["branch-deploy", "ewar-scores-branch-deploy"],
      ["dev", "ewar-scores-dev"],
      [undefined, "ewar-scores-unknown"],
      ["Production", "ewar-scores-production"],
      ["a/b", "ewar-scores-a-b"],
    ]) {
      assert.equal(storeNameFor(context), name, String(context));
    }
  });
});

describe("claims", () => {
  test("a claim whose request died is taken over only after STALE_CLAIM_MS", async () => {
    const store = freshStore("claims-stale");
    const table = openStore("claims-stale", server.options);
    const dead = record();
    await table.createOnly(`${DATE}/records/${dead.actions_sha256}`, { id: dead.id, at: clock });
    const copy = record({ actions_sha256: dead.actions_sha256 });
    await assert.rejects(store.submit(copy), (error) => error instanceof ClaimTaken && error.kind === "record");
    clock += STALE_CLAIM_MS + 1;
    copy.received_at = clock;
    assert.deepEqual(await store.submit(copy), { created: true });
    const view = await store.view(DATE, copy.id);
    assert.equal(view.you.id, copy.id);
  });

  test("a name claimed by a request whose retry stored another name is free again", async () => {
    const store = freshStore("claims-renamed");
    const table = openStore("claims-renamed", server.options);
    const renamed = record({ name: "Second Choice" });
    await table.createOnly(`${DATE}/names/${lookalikeDigest("First Choice")}`, { id: renamed.id, at: clock });
    await store.submit(renamed);
    const other = record({ name: "First Choice" });
    assert.deepEqual(await store.submit(other), { created: true });
  });

  test("a claim whose owner stored its record is never taken over", async () => {
    const store = freshStore("claims-owned");
    const first = record();
    await store.submit(first);
    clock += 10 * STALE_CLAIM_MS;
    const copy = record({ actions_sha256: first.actions_sha256, received_at: clock });
    await assert.rejects(store.submit(copy), (error) => error instanceof ClaimTaken && error.owner === first.id);
    const lookalike = record({ name: first.name.toLowerCase(), received_at: clock });
    await assert.rejects(store.submit(lookalike), (error) => error instanceof ClaimTaken && error.kind === "name");
  });
});

describe("board reads", () => {
  test("a reused board read still shows callers their own new entry, in the total and the rows", async () => {
    const store = new ScoreStore(openStore("reads-cached", server.options), { now, cacheMs: 60_000 });
    const earlier = record();
    await store.submit(earlier);
    assert.equal((await store.view(DATE)).total, 1); // this read is reused for the next minute
    const mine = record({ score: earlier.score + 100 });
    await store.submit(mine);
    assert.deepEqual(await store.standing(mine, { justQueued: true }), { rank: 1, total: 2 });
    const view = await store.view(DATE, mine.id);
    assert.deepEqual([view.total, view.you.rank], [2, 1]);
    assert.deepEqual(
      view.entries.map((row) => [row.rank, row.name, row.you ?? false]),
      [
        [1, mine.name, true],
        [2, earlier.name, false],
      ],
    );
  });
});

/**
 * A fetch for one store instance that, the first time it writes the summary, tells its caller the request timed
 * out but keeps the request: `forward()` sends it to the server with all but the last byte of its body, and
 * `release()` sends the rest. So the write reaches the store late and finishes later still, as a write whose
 * client gave up on it can, in the middle of another instance's merge.
 */
function lateSummaryWrite() {
  let held = null;
  let onCaught;
  const trap = {
    caught: new Promise((resolve) => {
      onCaught = resolve;
    }),
    forward() {
      const { url, init } = held;
      const body = new TextEncoder().encode(init.body);
      const stream = new ReadableStream({
        start(controller) {
          controller.enqueue(body.slice(0, -1));
          trap.release = () => {
            controller.enqueue(body.slice(-1));
            controller.close();
          };
        },
      });
      const { signal, ...rest } = init;
      trap.landed = fetch(url, { ...rest, body: stream, duplex: "half" }).then((response) => response.status);
    },
    fetch: async (url, init = {}) => {
      const isSummaryWrite = String(init.method).toUpperCase() === "PUT" && String(url).endsWith("/board");
      if (held || !isSummaryWrite) return fetch(url, init);
      held = { url, init };
      onCaught();
      throw new DOMException("The operation was aborted due to timeout", "TimeoutError");
    },
  };
  return trap;
}

/** A fetch that calls `onSummaryWrite()` before each summary write it sends (and waits for it), and tells when it was answered. */
function watchedSummaryWrites(onSummaryWrite) {
  return async (url, init = {}) => {
    if (String(init.method).toUpperCase() !== "PUT" || !String(url).endsWith("/board")) return fetch(url, init);
    const answered = { done: false };
    await onSummaryWrite(answered);
    const response = await fetch(url, init);
    answered.done = true;
    return response;
  };
}

const waitFor = async (condition, ms) => {
  const until = performance.now() + ms;
  while (!condition() && performance.now() < until) await new Promise((resolve) => setTimeout(resolve, 5));
};

describe("merges", () => {
  test("a summary write whose client gave up, landing amid the next merge's write, loses nothing", async () => {
    const context = "merges-late-write";
    const trap = lateSummaryWrite();
    const first = new ScoreStore(openStore(context, { ...server.options, fetch: trap.fetch }), { now, cacheMs: 0 });
    let raced = false;
    const second = new ScoreStore(
      openStore(context, {
        ...server.options,
        fetch: watchedSummaryWrites(async (answered) => {
          if (raced) return;
          raced = true;
          // The late write reaches the store just before this one (its condition is checked first), and its body
          // ends once this one is answered (or after 300 ms if the store keeps this one waiting).
          trap.forward();
          await new Promise((resolve) => setTimeout(resolve, 50));
          waitFor(() => answered.done, 300).then(() => trap.release());
        }),
      }),
      { now, cacheMs: 0 },
    );
    const early = Array.from({ length: 4 }, (_, at) => record({ score: 900 - at }));
    for (const one of early) await first.submit(one);
    await assert.rejects(first.merge(DATE), StoreFault);
    await trap.caught;
    const later = Array.from({ length: 3 }, (_, at) => record({ score: 950 - at * 100 }));
    for (const one of later) await second.submit(one);
    await second.merge(DATE);
    await trap.landed;
    await second.merge(DATE);
    const all = [...early, ...later];
    const view = await second.view(DATE);
    assert.deepEqual([view.total, view.queued], [all.length, 0], "every entry merged, none lost or counted twice");
    const truth = [...all].sort((a, b) => b.score - a.score).map((one) => one.id);
    const ranks = await Promise.all(all.map(async (one) => [(await second.standing(one)).rank, one.id]));
    assert.deepEqual(
      ranks.sort((a, b) => a[0] - b[0]).map(([, id]) => id),
      truth,
    );
  });

  test("entries whose records are not written yet never hold back later ones, however many", async () => {
    // The 100,000-submission run's stall: merges took the oldest batch of queued entries and checked them; when
    // a whole batch's records were not written yet (requests under way, or answered 503 and not retried yet),
    // nothing was merged and the merge stopped, however many entries stood ready behind them.
    const context = "merges-unwritten";
    const failEntryWrites = { on: true };
    const table = openStore(context, {
      ...server.options,
      fetch: (url, init = {}) => {
        const isEntryWrite = String(init.method).toUpperCase() === "PUT" && String(url).includes("/entries/");
        if (failEntryWrites.on && isEntryWrite) return Promise.resolve(new Response("down", { status: 500 }));
        return fetch(url, init);
      },
    });
    const store = new ScoreStore(table, { now, cacheMs: 0, mergeBatch: 3 });
    const unwritten = Array.from({ length: 7 }, (_, at) => record({ score: 700 + at, received_at: clock + at }));
    for (const one of unwritten) await assert.rejects(store.submit(one), StoreFault); // queued, record not written
    failEntryWrites.on = false;
    const ready = Array.from({ length: 5 }, (_, at) => record({ score: 600 + at, received_at: clock + 100 + at }));
    for (const one of ready) await store.submit(one);
    assert.equal(await store.merge(DATE), ready.length, "the ready entries behind a batch of unwritten ones");
    assert.deepEqual(await Promise.all(ready.map(async (one) => (await store.standing(one)).rank)), [12, 11, 10, 9, 8]);
    for (const one of unwritten) assert.deepEqual(await store.submit(one), { created: true }); // the retries
    assert.equal(await store.merge(DATE), unwritten.length);
    const view = await store.view(DATE);
    assert.deepEqual([view.total, view.queued], [12, 0]);
    assert.deepEqual(view.entries.map((row) => row.score).slice(0, 3), [706, 705, 704]);
  });

  test("a merge of many batches keeps its lease: no second merger starts beside it", async () => {
    const context = "merges-long";
    let summaryWrites = 0;
    let secondMerged = null;
    const second = new ScoreStore(openStore(context, server.options), { now, cacheMs: 0 });
    const slow = openStore(context, {
      ...server.options,
      fetch: async (url, init = {}) => {
        if (String(init.method).toUpperCase() === "PUT" && String(url).endsWith("/board")) {
          summaryWrites += 1;
          clock += LEASE_MS * 0.6; // each batch takes 12 s: the first lease has run out by the third
          if (summaryWrites === 3) secondMerged = await second.merge(DATE);
        }
        return fetch(url, init);
      },
    });
    const first = new ScoreStore(slow, { now, cacheMs: 0, mergeBatch: 2 });
    const records = Array.from({ length: 8 }, (_, at) => record({ received_at: clock + at }));
    for (const one of records) await first.submit(one);
    assert.equal(await first.merge(DATE), records.length, "the first merger went on to the end");
    assert.equal(secondMerged, 0, "the second found the lease held");
    assert.deepEqual(await first.view(DATE).then((view) => [view.total, view.queued]), [8, 0]);
  });

  test("four instances submitting and merging at once: every entry once, ranks 1..n", async () => {
    const table = openStore("merges-four", server.options);
    const instances = Array.from({ length: 4 }, () => new ScoreStore(table, { now, cacheMs: 0 }));
    const records = Array.from({ length: 160 }, (_, at) =>
      record({ score: 500 + (at % 9) * 10, received_at: clock + at }),
    );
    await Promise.all(
      records.map(async (one, at) => {
        await instances[at % 4].submit(one);
        if (at % 7 === 0) await instances[(at + 1) % 4].merge(DATE);
      }),
    );
    while ((await instances[0].view(DATE)).queued > 0) {
      clock += 30_000; // past any lease left by an instance that merged last
      await instances[0].merge(DATE);
    }
    const view = await instances[1].view(DATE);
    assert.equal(view.total, records.length);
    const ranks = await Promise.all(records.map(async (one) => (await instances[2].standing(one)).rank));
    assert.deepEqual(
      [...ranks].sort((a, b) => a - b),
      records.map((_, at) => at + 1),
    );
    for (const [at, one] of records.entries()) {
      const above = records.filter((other) => other.score > one.score).length;
      const tied = records.filter((other) => other.score === one.score).length;
      assert.ok(ranks[at] > above && ranks[at] <= above + tied, `${one.id}: ${ranks[at]}`);
    }
  });
});

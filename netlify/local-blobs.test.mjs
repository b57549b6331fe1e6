// The local Blobs server keeps the deployed store's promises (local-blobs.mjs): atomic conditional writes, reads
// with their ETag, whole listings while writes go on, and no work for a client that has gone.
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import { getStore } from "@netlify/blobs";
import { newDataDir } from "./functions/scores/fixtures.mjs";
import { listingMeetsWrite, operationOf, startBlobsServer } from "./local-blobs.mjs";

let server;
let dataDir;

before(async () => {
  dataDir = newDataDir();
  server = await startBlobsServer(dataDir);
});
after(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const storeOf = (name) => getStore({ ...server.options, name, consistency: "strong" });
const blobUrl = (store, key) => `${server.url}/${server.options.siteID}/site:${store}/${key}`;
const auth = () => ({ authorization: `Bearer ${server.token}` });

/** A PUT of `text` whose last byte is sent only on release(): the store has the request but not its end. */
function heldPut(url, text, headers = {}, signal = undefined) {
  const bytes = new TextEncoder().encode(text);
  let release;
  const body = new ReadableStream({
    start(controller) {
      controller.enqueue(bytes.slice(0, -1));
      release = () => {
        controller.enqueue(bytes.slice(-1));
        controller.close();
      };
    },
  });
  const answered = fetch(url, { method: "PUT", body, duplex: "half", headers: { ...auth(), ...headers }, signal });
  return { answered, release: () => release() };
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

describe("what a request does", () => {
  test("operations by method and path", () => {
    assert.deepEqual(operationOf("PUT", "/site/site:s/2026-11-30/queue/w1_2_x"), {
      kind: "write",
      key: "site/site:s/2026-11-30/queue/w1_2_x",
    });
    assert.deepEqual(operationOf("DELETE", "/region:us-east-1/site/s/k"), { kind: "write", key: "site/s/k" });
    assert.deepEqual(operationOf("GET", "/site/s/2026-11-30/board"), { kind: "read", key: "site/s/2026-11-30/board" });
    assert.deepEqual(operationOf("GET", "/site/s?prefix=2026-11-30%2Fqueue%2F"), {
      kind: "list",
      prefix: "site/s/2026-11-30/queue/",
    });
    assert.deepEqual(operationOf("GET", "/site"), { kind: "other" });
  });

  test("a listing meets the writes into the folders its walk enters", () => {
    const queue = "site/s/2026-11-30/queue/";
    assert.ok(listingMeetsWrite(queue, "site/s/2026-11-30/queue/w1_2_x"));
    assert.ok(listingMeetsWrite(queue, "site/s/2026-11-30/board"), "the board's file is in a folder the walk enters");
    assert.ok(!listingMeetsWrite(queue, "site/s/2026-11-30/records/abc"));
    assert.ok(!listingMeetsWrite(queue, "site/s/2026-11-29/queue/w1_2_x"));
    assert.ok(listingMeetsWrite("site/s/2026-11-30/queue/w9", "site/s/2026-11-30/queue/w1_2_x"));
  });
});

describe("the deployed store's promises", () => {
  test("of two writes on the same condition, only one passes, even when the first one's body comes late", async () => {
    const store = storeOf("atomic");
    const { etag } = await store.set("board", JSON.stringify({ generation: 1 }));
    const url = blobUrl("atomic", "board");
    const first = heldPut(url, JSON.stringify({ generation: 2, by: "first" }), { "if-match": etag });
    await pause(50); // the first write's condition is checked before the second's arrives
    const second = fetch(url, {
      method: "PUT",
      body: JSON.stringify({ generation: 2, by: "second" }),
      headers: { ...auth(), "if-match": etag },
    });
    await pause(100);
    first.release();
    const statuses = [(await first.answered).status, (await second).status];
    assert.deepEqual(statuses, [200, 412]);
    assert.equal((await store.get("board", { type: "json" })).by, "first");
  });

  test("a read answers with the ETag of the data it returns", async () => {
    const store = storeOf("etags");
    const written = await store.set("k", "one");
    const read = await store.getWithMetadata("k");
    assert.deepEqual([read.data, read.etag], ["one", written.etag]);
    const rewritten = await store.set("k", "two", { onlyIfMatch: read.etag });
    const again = await store.getWithMetadata("k");
    assert.deepEqual([again.data, again.etag], ["two", rewritten.etag]);
    assert.notEqual(again.etag, read.etag);
  });

  test("a listing is whole while files come and go in the folder it walks", async () => {
    const store = storeOf("listing");
    const stay = Array.from({ length: 200 }, (_, at) => `d/queue/stay${String(at).padStart(4, "0")}`);
    await Promise.all(stay.map((key) => store.set(key, "x")));
    let writing = true;
    const churn = (async () => {
      for (let round = 0; writing; round += 1) {
        const keys = Array.from({ length: 20 }, (_, at) => `d/queue/churn${round}_${at}`);
        await Promise.all(keys.map((key) => store.set(key, "y")));
        await Promise.all(keys.map((key) => store.delete(key)));
      }
    })();
    const seen = [];
    for (let listing = 0; listing < 30; listing += 1) {
      const { blobs } = await store.list({ prefix: "d/queue/" });
      seen.push(blobs.filter((blob) => blob.key.startsWith("d/queue/stay")).length);
    }
    writing = false;
    await churn;
    assert.deepEqual(
      seen,
      seen.map(() => stay.length),
    );
  });

  test("a request whose client has gone while it waited its turn is not carried out", async () => {
    const store = storeOf("gone");
    await store.set("k", "before");
    const url = blobUrl("gone", "k");
    const first = heldPut(url, "first");
    await pause(50);
    const giveUp = new AbortController();
    const second = fetch(url, { method: "PUT", body: "second", headers: auth(), signal: giveUp.signal });
    await pause(50);
    giveUp.abort();
    await assert.rejects(second, { name: "AbortError" });
    first.release();
    assert.equal((await first.answered).status, 200);
    await pause(50);
    assert.equal(await store.get("k"), "first");
  });
});

// The loader's choice of path with the snapshot read early (web/js/engine/load-path.js): the copy this browser
// loaded last is used when it is the build's, and its read stops when it is not (the first visit after a deploy).
import assert from "node:assert/strict";
import { test } from "node:test";

import { KEPT_RUNS_HEADER, packZeroPages } from "../../web/common/kept-files.js";

const PAGE = 64 * 1024;
const BASE = "https://ewar.test/";

// What the page's modules read of the browser: its address (the loader's choices are kept in `store`, below).
globalThis.document = { baseURI: BASE };
globalThis.location = { search: "" };

/** Cache Storage holding `files` ({name: bytes}) as the worker keeps them; `read` counts each file's chunks read. */
function workerCache(files) {
  const read = {};
  const cancelled = new Set();
  globalThis.caches = {
    async match(url) {
      const name = url.slice(BASE.length);
      if (!files[name]) return undefined;
      const packed = packZeroPages(files[name]);
      let at = 0;
      read[name] = 0;
      const body = new ReadableStream(
        {
          pull(controller) {
            if (at >= packed.body.length) return controller.close();
            controller.enqueue(packed.body.slice(at, at + PAGE));
            at += PAGE;
            read[name] += 1;
          },
          cancel() {
            cancelled.add(name);
          },
        },
        { highWaterMark: 0 },
      );
      return new Response(body, { headers: { [KEPT_RUNS_HEADER]: packed.runs } });
    },
  };
  return { read, cancelled };
}

function heap(pages) {
  const bytes = new Uint8Array(pages * PAGE);
  for (let page = 0; page < pages; page += 1) bytes[page * PAGE] = page + 1;
  return bytes;
}

const { chooseSnapshot, readLastSnapshot } = await import("../../web/js/engine/load-path.js");
const { createLoaderStore } = await import("../../web/js/engine/loader-store.js");
const { memoryBackend } = await import("../../web/js/base/local-store.js");

const store = createLoaderStore(memoryBackend()); // the loader's choices, one browser's for the whole file

function buildInfo(file, size) {
  return { snapshot: { file, size, sha256: "0".repeat(64), encoding: "gzip" } };
}

test("the copy read early is used when it is the snapshot this build names", async () => {
  const bytes = heap(40);
  const { cancelled } = workerCache({ "snapshot-a.bin.gz": bytes });
  store.rememberSnapshotFile("snapshot-a.bin.gz");
  const choice = await chooseSnapshot(store, buildInfo("snapshot-a.bin.gz", bytes.length), readLastSnapshot(store));
  assert.equal(choice.use, true);
  assert.equal(choice.reason, "snapshot in the service worker's cache");
  assert.deepEqual(await choice.cached.read(buildInfo("snapshot-a.bin.gz", bytes.length).snapshot), bytes);
  assert.equal(cancelled.size, 0);
});

test("after a deploy the old copy's read stops and the new build's own copy is looked for", async () => {
  const old = heap(400);
  const { read, cancelled } = workerCache({ "snapshot-old.bin.gz": old });
  store.rememberSnapshotFile("snapshot-old.bin.gz");
  const choice = await chooseSnapshot(store, buildInfo("snapshot-new.bin.gz", old.length), readLastSnapshot(store));
  assert.deepEqual(choice, { use: false, reason: "snapshot not made yet" });
  assert.deepEqual([...cancelled], ["snapshot-old.bin.gz"]);
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.ok(read["snapshot-old.bin.gz"] < 400, `read ${read["snapshot-old.bin.gz"]} of 400 pages`);
});

test("a build without a snapshot stops the early read too", async () => {
  const { cancelled } = workerCache({ "snapshot-old.bin.gz": heap(8) });
  store.rememberSnapshotFile("snapshot-old.bin.gz");
  const choice = await chooseSnapshot(store, {}, readLastSnapshot(store));
  assert.deepEqual(choice, { use: false, reason: "no snapshot in this build" });
  assert.deepEqual([...cancelled], ["snapshot-old.bin.gz"]);
});

// The snapshot this device made (web/js/engine/device-snapshot.js), kept as the maker keeps it.
const { readDeviceSnapshot } = await import("../../web/js/engine/device-snapshot.js");
const { BODY_SHA256_HEADER, DEVICE_SNAPSHOT_KEY_HEADER, hexOf } = await import("../../web/common/kept-files.js");

/** A body that arrives a page at a time, each after a turn of the event loop (as a large cached body does). */
function pageByPage(body) {
  let offset = 0;
  return new ReadableStream({
    async pull(controller) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (offset >= body.length) return controller.close();
      controller.enqueue(body.slice(offset, offset + PAGE));
      offset += PAGE;
    },
  });
}

async function deviceCache(bytes, key, { damage = false } = {}) {
  const packed = packZeroPages(bytes);
  const sha256 = hexOf(await crypto.subtle.digest("SHA-256", packed.body));
  if (damage) packed.body[packed.body.length >> 1] ^= 0xff;
  const deleted = [];
  globalThis.caches = {
    async match(url, options) {
      if (url !== `${BASE}device-snapshot.bin` || options?.cacheName !== "ewar.device-snapshot") return undefined;
      if (deleted.length) return undefined;
      const headers = {
        [KEPT_RUNS_HEADER]: packed.runs,
        [DEVICE_SNAPSHOT_KEY_HEADER]: key,
        [BODY_SHA256_HEADER]: sha256,
      };
      return new Response(pageByPage(packed.body), { headers });
    },
    async open(name) {
      return { delete: async (url) => deleted.push([name, url]) };
    },
  };
  return deleted;
}

test("the snapshot this device made for this build is chosen first, and read back whole", async () => {
  const bytes = heap(24);
  await deviceCache(bytes, "key-now");
  const info = { ...buildInfo("snapshot-a.bin.gz", bytes.length), device_snapshot_key: "key-now" };
  const choice = await chooseSnapshot(store, info, Promise.resolve(null), readDeviceSnapshot());
  assert.equal(choice.use, true);
  assert.equal(choice.reason, "snapshot made on this device");
  assert.deepEqual(await choice.device.read(), bytes);
  assert.equal(choice.device.read(), choice.device.read()); // one read, one hash, however many ask
});

test("one made for another build's wheel or runtime is never chosen, and is removed", async () => {
  const deleted = await deviceCache(heap(8), "key-before");
  const info = { ...buildInfo("snapshot-a.bin.gz", 8 * PAGE), device_snapshot_key: "key-now" };
  const choice = await chooseSnapshot(store, info, Promise.resolve(null), readDeviceSnapshot());
  assert.deepEqual(choice, { use: false, reason: "snapshot not made yet" });
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual(deleted, [["ewar.device-snapshot", `${BASE}device-snapshot.bin`]]);
});

test("a read cut short (discarded, removed) fails rather than give a heap with a hole", async () => {
  await deviceCache(heap(64), "key-now");
  const own = await readDeviceSnapshot();
  own.discard();
  await assert.rejects(own.read(), /shorter than its runs/);
});

test("a damaged one fails its read, so the loader falls back", async () => {
  await deviceCache(heap(8), "key-now", { damage: true });
  const info = { ...buildInfo("snapshot-a.bin.gz", 8 * PAGE), device_snapshot_key: "key-now" };
  const choice = await chooseSnapshot(store, info, Promise.resolve(null), readDeviceSnapshot());
  assert.equal(choice.use, true);
  await assert.rejects(choice.device.read(), /damaged/);
});

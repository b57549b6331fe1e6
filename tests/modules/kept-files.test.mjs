// How the service worker keeps the memory snapshot without its zero pages and how the page rebuilds it
// (web/common/kept-files.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { packZeroPages, zeroPagesReader } from "../../web/common/kept-files.js";

const PAGE = 64 * 1024;

/** A heap of `pages` pages where the pages listed hold bytes (each a different pattern), the rest zeros. */
function heap(pages, written, tail = 0) {
  const bytes = new Uint8Array(pages * PAGE + tail);
  for (const page of written) {
    for (let i = 0; i < PAGE; i += 97) bytes[page * PAGE + i] = (page * 31 + i) % 251 || 1;
  }
  return bytes;
}

function rebuild(packed, chunkSize) {
  const reader = zeroPagesReader(packed.runs);
  for (let at = 0; at < packed.body.length; at += chunkSize) reader.add(packed.body.subarray(at, at + chunkSize));
  return reader.bytes();
}

test("only the written pages are kept, neighbours in one run, and the size is said", () => {
  const bytes = heap(10, [0, 1, 4, 7, 8]);
  const packed = packZeroPages(bytes);
  assert.equal(packed.body.length, 5 * PAGE);
  assert.equal(packed.runs, `${10 * PAGE}:0+${2 * PAGE},${4 * PAGE}+${PAGE},${7 * PAGE}+${2 * PAGE}`);
});

test("the bytes come back whole, in chunks of any size, trailing zeros included", () => {
  for (const written of [[0, 1, 4, 7, 8], [], [9], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]]) {
    const bytes = heap(10, written);
    for (const chunkSize of [1000, PAGE, 3 * PAGE + 5, 10 * PAGE]) {
      assert.deepEqual(rebuild(packZeroPages(bytes), chunkSize), bytes, `${written} in chunks of ${chunkSize}`);
    }
  }
});

test("a page with a single byte set is kept", () => {
  const bytes = new Uint8Array(3 * PAGE);
  bytes[2 * PAGE + PAGE - 1] = 7;
  const packed = packZeroPages(bytes);
  assert.equal(packed.runs, `${3 * PAGE}:${2 * PAGE}+${PAGE}`);
  assert.deepEqual(rebuild(packed, PAGE), bytes);
});

test("a last page shorter than 64 KiB is kept as it is", () => {
  const bytes = heap(2, [1], 4096);
  bytes[bytes.length - 1] = 9;
  assert.deepEqual(rebuild(packZeroPages(bytes), 5000), bytes);
});

test("a body that does not fit its runs is refused, never rebuilt wrong", () => {
  const packed = packZeroPages(heap(4, [1, 2]));
  assert.throws(() => rebuild({ ...packed, body: packed.body.subarray(1) }, PAGE), /shorter/);
  const longer = new Uint8Array(packed.body.length + 1);
  longer.set(packed.body);
  assert.throws(() => rebuild({ ...packed, body: longer }, PAGE), /longer/);
  for (const runs of [
    "",
    "x:0+1",
    `${4 * PAGE}:0+${5 * PAGE}`,
    `${4 * PAGE}:${PAGE}+${PAGE},0+${PAGE}`,
    `${4 * PAGE}:0+0`,
  ]) {
    assert.throws(() => zeroPagesReader(runs), /kept run/, JSON.stringify(runs));
  }
});

test("bytes that are not whole 32-bit words are refused", () => {
  assert.throws(() => packZeroPages(new Uint8Array(10)), /whole number of words/);
});

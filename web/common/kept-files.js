// How the service worker keeps files in Cache Storage and how the page reads them back: the worker writes these
// headers and packs the memory snapshot, the page (the snapshot's loader) unpacks it.

/** The sha256 the worker checked a kept file's bytes against (the build's precache list) before keeping it. */
export const CHECKED_SHA256_HEADER = "x-ewar-sha256";

/** On a gzip file the worker keeps inflated (the memory snapshot): its body is the inflated bytes. */
export const INFLATED_HEADER = "x-ewar-inflated";

/** On a file kept without its all-zero pages: "size:offset+length,…", its whole size and the runs of pages kept,
 * in the order of the body. */
export const KEPT_RUNS_HEADER = "x-ewar-kept-runs";

// Pyodide's heap is 31 MB, more than half of it never written (free heap, the stack's unused part). Those pages
// are not kept: a repeat visit reads 12 MB from Cache Storage instead of 31.
const PAGE_BYTES = 64 * 1024;

function isZeroPage(words, start, end) {
  for (let i = start; i < end; i++) if (words[i] !== 0) return false;
  return true;
}

/**
 * bytes without their all-zero 64 KiB pages: {body, runs}, runs being the KEPT_RUNS_HEADER value that
 * zeroPagesReader needs. bytes' length must be a multiple of 4 (a wasm heap's is of 64 KiB).
 */
export function packZeroPages(bytes) {
  const view = new Uint8Array(bytes);
  if (view.byteLength % 4 !== 0) throw new Error(`${view.byteLength} bytes is not a whole number of words`);
  const words = new Uint32Array(view.buffer, view.byteOffset, view.byteLength / 4);
  const runs = [];
  for (let page = 0; page < view.byteLength; page += PAGE_BYTES) {
    const end = Math.min(page + PAGE_BYTES, view.byteLength);
    if (isZeroPage(words, page / 4, end / 4)) continue;
    const last = runs.at(-1);
    if (last && last[0] + last[1] === page) last[1] += end - page;
    else runs.push([page, end - page]);
  }
  const body = new Uint8Array(runs.reduce((total, [, length]) => total + length, 0));
  let filled = 0;
  for (const [offset, length] of runs) {
    body.set(view.subarray(offset, offset + length), filled);
    filled += length;
  }
  return { body, runs: `${view.byteLength}:${runs.map(([offset, length]) => `${offset}+${length}`).join(",")}` };
}

function parseRuns(header) {
  const [sizeText, list = ""] = String(header).split(":");
  const size = /^\d+$/.test(sizeText) ? Number(sizeText) : Number.NaN;
  if (!Number.isSafeInteger(size)) throw new Error(`kept runs ${header}: no size`);
  let end = 0;
  const runs = (list ? list.split(",") : []).map((run) => {
    const [offset, length] = run.split("+").map(Number);
    const fits = Number.isSafeInteger(offset) && Number.isSafeInteger(length) && length > 0;
    if (!fits || offset < end || offset + length > size) throw new Error(`kept run ${run} does not fit ${size} bytes`);
    end = offset + length;
    return [offset, length];
  });
  return { size, runs };
}

/**
 * Rebuilds what packZeroPages packed, as the body's chunks arrive: {size, kept, add(chunk), bytes()}; bytes() is the
 * whole, zeros in place, once every run is filled. Throws when the chunks and the runs do not fit together.
 */
export function zeroPagesReader(header) {
  const { size, runs } = parseRuns(header);
  const bytes = new Uint8Array(size);
  let run = 0;
  let filled = 0; // of runs[run]
  return {
    size,
    /** The body's length: the bytes of every run kept. */
    kept: runs.reduce((total, [, length]) => total + length, 0),
    add(chunk) {
      let read = 0;
      while (read < chunk.length) {
        if (run === runs.length) throw new Error("the kept body is longer than its runs");
        const [offset, length] = runs[run];
        const taken = Math.min(length - filled, chunk.length - read);
        bytes.set(chunk.subarray(read, read + taken), offset + filled);
        read += taken;
        filled += taken;
        if (filled === length) [run, filled] = [run + 1, 0];
      }
    },
    bytes() {
      if (run !== runs.length) throw new Error("the kept body is shorter than its runs");
      return bytes;
    },
  };
}

// The memory snapshot this device made itself (web/worker/snapshot-maker.js), kept apart from the service worker's
// per-build caches (whose names start "ewar-" and go with their build): one entry for the whole origin, replaced
// when the build's runtime or engine changes.

/** The Cache Storage cache of the device's snapshot, and the URL it is kept under (nothing is served there). */
export const DEVICE_SNAPSHOT_CACHE = "ewar.device-snapshot";
export const DEVICE_SNAPSHOT_PATH = "device-snapshot.bin";

/** build-info's device_snapshot_key the snapshot was made for: the engine's wheel and Pyodide's files, by hash. */
export const DEVICE_SNAPSHOT_KEY_HEADER = "x-ewar-snapshot-key";

/** The sha256 of the kept body, taken as it was kept: a damaged copy is not restored. */
export const BODY_SHA256_HEADER = "x-ewar-body-sha256";

/** Lowercase hex of a buffer's bytes. */
export function hexOf(buffer) {
  return Array.from(new Uint8Array(buffer), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

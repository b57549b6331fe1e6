// The engine's files, fetched and checked: build-info, the wheels, and the memory snapshot (inflated into a
// buffer of the size build-info gives, its sha256 checked). A file the page cannot get is a LoadError naming it.

import { CHECKED_SHA256_HEADER, INFLATED_HEADER, KEPT_RUNS_HEADER, zeroPagesReader } from "../../common/kept-files.js";

/** A loading failure with a catalog key for the message shown to the player. */
export class LoadError extends Error {
  constructor(key, params = {}, cause = undefined) {
    super(`${key} ${JSON.stringify(params)}${cause ? `: ${cause.message ?? cause}` : ""}`);
    this.name = "LoadError"; // engine-load.js's isLoadError: the app's script has its own copy of this class
    this.key = key;
    this.params = params;
    this.cause = cause;
  }
}

export function pageUrl(path) {
  return new URL(path, document.baseURI).href;
}

/** The page's file at `path`, answered with success; else a LoadError naming the file. */
async function fetchFile(path, init = {}) {
  let response;
  try {
    response = await fetch(pageUrl(path), init);
  } catch (error) {
    throw new LoadError("loading.errorMissing", { file: path }, error);
  }
  if (!response.ok) throw new LoadError("loading.errorMissing", { file: path });
  return response;
}

export async function fetchJson(path) {
  return (await fetchFile(path, { cache: "no-cache" })).json();
}

export async function fetchBytes(path) {
  return new Uint8Array(await (await fetchFile(path)).arrayBuffer());
}

function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Without WebCrypto (an insecure context) gzip's CRC-32 and the exact size still catch a damaged file. */
async function checkDigest(bytes, expected) {
  if (!globalThis.crypto?.subtle) return;
  const actual = hex(await crypto.subtle.digest("SHA-256", bytes));
  if (actual !== expected) throw new Error(`sha256 ${actual.slice(0, 12)}… is not build-info's`);
}

/**
 * The snapshot's bytes, inflated into one buffer of the size build-info gives, checked against its sha256 unless
 * the service worker kept them (it checked the file's sha256 before keeping it). `cached` is the worker's copy
 * (keptCopy), else null: the snapshot is then fetched from `url`.
 */
export async function snapshotBytes(url, snapshot, cached, onFraction, signal) {
  const bytes = cached
    ? await cached.read(snapshot, onFraction)
    : await fetchedBytes(url, snapshot, onFraction, signal);
  if (!cached?.checked) await checkDigest(bytes, snapshot.sha256);
  return bytes;
}

async function readRuns(chunks, header) {
  const reader = zeroPagesReader(header);
  for (;;) {
    const { done, value } = await chunks.read();
    if (done) return reader.bytes();
    reader.add(value);
  }
}

/**
 * The service worker's copy of a file at `url` (Cache Storage), else null: {checked (the worker checked its
 * sha256), read(snapshot, onFraction) -> its inflated bytes, discard() -> stops reading it}. A copy kept without
 * its zero pages is read from now on, before build-info says which snapshot this build has (load-path.js), and
 * discarded if it is not that one; older workers' copies (inflated whole, or gzip) are read when asked. (The HTTP
 * cache cannot be asked quietly: fetch's only-if-cached logs a network error on every miss; load-path.js
 * remembers a snapshot this browser loaded instead.)
 */
export async function keptCopy(url) {
  let hit;
  try {
    hit = await globalThis.caches?.match(url);
  } catch {
    return null; // no Cache Storage here (an insecure context)
  }
  if (!hit?.ok || !hit.body) return null;
  const runs = hit.headers.get(KEPT_RUNS_HEADER);
  const chunks = runs === null ? null : hit.body.getReader();
  const early = chunks && readRuns(chunks, runs);
  early?.catch(() => {}); // the loader awaits it if it uses this copy
  const inflated = hit.headers.get(INFLATED_HEADER) === "gzip";
  return {
    checked: hit.headers.has(CHECKED_SHA256_HEADER),
    discard() {
      (chunks ?? hit.body).cancel().catch(() => {});
    },
    async read(snapshot, onFraction) {
      if (!early) return readToSize(hit.body, snapshot, inflated || snapshot.encoding !== "gzip", onFraction);
      const bytes = await early;
      if (bytes.length !== snapshot.size)
        throw new Error(`${snapshot.file} is not the ${snapshot.size} bytes build-info says`);
      return bytes;
    },
  };
}

async function fetchedBytes(url, snapshot, onFraction, signal) {
  const response = await fetch(url, { signal });
  if (!response.ok || !response.body) throw new Error(`${snapshot.file}: HTTP ${response.status}`);
  // A host that sends the .gz with Content-Encoding: gzip has it inflated by the browser already.
  const inflated = snapshot.encoding !== "gzip" || /gzip/i.test(response.headers.get("content-encoding") ?? "");
  return readToSize(response.body, snapshot, inflated, onFraction);
}

/** The stream's bytes, inflated unless they are already, into one buffer of build-info's size. */
async function readToSize(body, snapshot, inflated, onFraction) {
  const stream = inflated ? body : body.pipeThrough(new DecompressionStream("gzip"));
  const bytes = new Uint8Array(snapshot.size);
  const reader = stream.getReader();
  let filled = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (filled + value.length > bytes.length) throw new Error(`${snapshot.file} is larger than build-info says`);
    bytes.set(value, filled);
    filled += value.length;
    onFraction(filled / bytes.length);
  }
  if (filled !== bytes.length) throw new Error(`${snapshot.file} is smaller than build-info says`);
  return bytes;
}

// The engine's files, fetched and checked: build-info, the wheels, and the memory snapshot (inflated into a
// buffer of the size build-info gives, its sha256 checked). A file the page cannot get is a LoadError naming it.

import { CHECKED_SHA256_HEADER, INFLATED_HEADER } from "../../common/kept-files.js";

/** A loading failure with a catalog key for the message shown to the player. */
export class LoadError extends Error {
  constructor(key, params = {}, cause = undefined) {
    super(`${key} ${JSON.stringify(params)}${cause ? `: ${cause.message ?? cause}` : ""}`);
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
 * the service worker kept them (it checked the file's sha256 before keeping it, and keeps it inflated).
 */
export async function snapshotBytes(url, snapshot, cached, onFraction, signal) {
  const response = cached ?? (await fetch(url, { signal }));
  if (!response.ok || !response.body) throw new Error(`${snapshot.file}: HTTP ${response.status}`);
  const keptByWorker = response.headers.has(CHECKED_SHA256_HEADER);
  // A host that sends the .gz with Content-Encoding: gzip has it inflated by the browser already.
  const inflated =
    snapshot.encoding !== "gzip" ||
    response.headers.get(INFLATED_HEADER) === "gzip" ||
    /gzip/i.test(response.headers.get("content-encoding") ?? "");
  const stream = inflated ? response.body : response.body.pipeThrough(new DecompressionStream("gzip"));
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
  if (!keptByWorker) await checkDigest(bytes, snapshot.sha256);
  return bytes;
}

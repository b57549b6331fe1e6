// Service worker: precaches one build of the game (every file, checked by sha256) and serves it with no network.
//
// build.py writes dist/sw.js from this file, replacing the PRECACHE line with the build's file list.
// One Cache Storage cache per build ("ewar-<build_id>"); install fills it completely or fails (the old
// version stays in charge); activation deletes every other "ewar-" cache; skipWaiting only on request.
// Files listed "on_use" (the memory snapshot: only the snapshot path loads it) are never downloaded by the
// worker itself: it keeps the copy an older build's cache holds, or the one the page fetches through it
// (checked by sha256 like the rest). A first visit thus costs only the files of the path the page took.

/* eslint-env serviceworker */

// A module worker (registered with type "module"): the score outbox's Background Sync handler is shared
// with the page. build.py checks that every file imported here is in the build.
import { systemClock } from "../common/clock.js";
import { CHECKED_SHA256_HEADER, INFLATED_HEADER, KEPT_RUNS_HEADER, packZeroPages } from "../common/kept-files.js";
import { handleSync } from "./sync.js";

const PRECACHE = /* @precache */ { build_id: "dev", files: [] };
const ON_USE = new Set(PRECACHE.on_use ?? []);

const CACHE_PREFIX = "ewar-";
const CACHE_NAME = `${CACHE_PREFIX}${PRECACHE.build_id}`;
const PARALLEL_FETCHES = 4;
const SCOPE = new URL(self.registration.scope);

// The type each file is served with from the cache, whatever the server sent: module scripts and
// WebAssembly.instantiateStreaming refuse anything else.
const CONTENT_TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".webmanifest": "application/manifest+json; charset=utf-8",
  ".wasm": "application/wasm",
  ".whl": "application/zip",
  ".zip": "application/zip",
  ".png": "image/png",
  ".svg": "image/svg+xml",
};

// What the site's headers say about how a file may be used, kept with the cached copy (netlify.toml sets them).
const KEPT_HEADERS = ["content-security-policy", "x-content-type-options", "referrer-policy"];

const byPath = new Map(
  PRECACHE.files.map(([path, sha256, size]) => [path, { path, sha256, size, onUse: ON_USE.has(path) }]),
);

function urlOf(path) {
  return new URL(path, SCOPE).href;
}

function extensionOf(path) {
  const dot = path.lastIndexOf(".");
  return dot > path.lastIndexOf("/") ? path.slice(dot).toLowerCase() : "";
}

function hex(buffer) {
  return [...new Uint8Array(buffer)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

async function sha256(bytes) {
  return hex(await crypto.subtle.digest("SHA-256", bytes));
}

/** Whether a file is kept inflated: the on-use gzip file, the memory snapshot. The page then reads its bytes
 * straight into Pyodide's heap at every visit instead of inflating them on its main thread (~150 ms here); its
 * all-zero pages are left out (kept-files.js). */
function keptInflated(entry) {
  return entry.onUse && extensionOf(entry.path) === ".gz";
}

async function inflate(bytes) {
  return new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
}

// A script is kept as the server sent it when its type is a JavaScript one: Chromium then compiles it as the
// worker installs and keeps the code beside it, and a visit starts from that code (not for a Response the worker
// makes itself: measured, docs/performance.md).
const SCRIPT_TYPE = /^(text|application)\/javascript\b/i;

function keptAsServed(entry, served) {
  const type = CONTENT_TYPES[extensionOf(entry.path)];
  return type?.startsWith("text/javascript") && SCRIPT_TYPE.test(served.headers.get("content-type") ?? "");
}

/** The stored form of a file: exactly the expected bytes (checked before: the snapshot inflated after), its own
 * content type, the sha256 it was checked against, and the security headers the site sent with it (a page
 * served from the cache runs under the same Content-Security-Policy). */
async function storedResponse(entry, bytes, served) {
  let body = bytes;
  const headers = new Headers({ [CHECKED_SHA256_HEADER]: entry.sha256 });
  if (keptInflated(entry)) {
    const packed = packZeroPages(await inflate(bytes));
    body = packed.body;
    headers.set(INFLATED_HEADER, "gzip");
    headers.set(KEPT_RUNS_HEADER, packed.runs);
  }
  headers.set("content-length", String(body.byteLength));
  const type = CONTENT_TYPES[extensionOf(entry.path)] ?? served.headers.get("content-type");
  if (type) headers.set("content-type", type);
  for (const name of KEPT_HEADERS) {
    const value = served.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  return new Response(body, { status: 200, statusText: "OK", headers });
}

/**
 * The same revision of a file from an older build's cache, if one has it. Never a page: its headers (the
 * security policy) belong to the deploy, not to its bytes, so pages are downloaded anew.
 */
async function findKept(entry, oldCaches) {
  if (extensionOf(entry.path) === ".html") return null;
  for (const cache of oldCaches) {
    const kept = await cache.match(urlOf(entry.path));
    if (!kept) continue;
    if (kept.headers.get(CHECKED_SHA256_HEADER) === entry.sha256) return kept;
    // A script kept as served carries no mark: its bytes are checked.
    if (keptAsServed(entry, kept) && (await sha256(await kept.clone().arrayBuffer())) === entry.sha256) return kept;
  }
  return null;
}

/** Downloads a file and checks its hash; a stale copy (an HTTP cache, a CDN edge) is fetched again. */
async function download(entry) {
  let last = "";
  for (const mode of ["no-cache", "reload"]) {
    const response = await fetch(urlOf(entry.path), { cache: mode, credentials: "same-origin" });
    if (!response.ok) throw new Error(`precache ${entry.path}: HTTP ${response.status}`);
    const served = keptAsServed(entry, response) ? response.clone() : null;
    const bytes = await response.arrayBuffer();
    last = await sha256(bytes);
    if (last === entry.sha256) return served ?? (await storedResponse(entry, bytes, response));
  }
  throw new Error(`precache ${entry.path}: sha256 ${last} is not the build's ${entry.sha256}`);
}

/** An on-use file the page fetched before this worker existed (a first visit on the snapshot path), from the
 * HTTP cache only, if its bytes are the build's; else null. */
async function fromHttpCache(entry) {
  try {
    const response = await fetch(urlOf(entry.path), { cache: "only-if-cached", mode: "same-origin" });
    if (!response.ok) return null;
    const bytes = await response.arrayBuffer();
    return (await sha256(bytes)) === entry.sha256 ? await storedResponse(entry, bytes, response) : null;
  } catch {
    return null; // not in the HTTP cache
  }
}

async function precacheOne(cache, entry, oldCaches) {
  const kept = (await findKept(entry, oldCaches)) ?? (entry.onUse ? await fromHttpCache(entry) : null);
  if (kept) await cache.put(urlOf(entry.path), kept);
  else if (!entry.onUse) await cache.put(urlOf(entry.path), await download(entry));
}

/** Runs work(item) at most `limit` at a time; the first failure stops the rest and is thrown once all settle. */
async function runPool(items, limit, work) {
  let next = 0;
  let failed = false;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (!failed && next < items.length) {
      try {
        await work(items[next++]);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  });
  const failure = (await Promise.allSettled(lanes)).find((lane) => lane.status === "rejected");
  if (failure) throw failure.reason;
}

async function oldGameCaches() {
  const names = (await caches.keys()).filter((name) => name.startsWith(CACHE_PREFIX) && name !== CACHE_NAME);
  return Promise.all(names.map((name) => caches.open(name)));
}

/** Fills this build's cache completely, or deletes it and fails the install. */
async function precacheAll() {
  const cache = await caches.open(CACHE_NAME);
  try {
    const oldCaches = await oldGameCaches();
    await runPool([...byPath.values()], PARALLEL_FETCHES, (entry) => precacheOne(cache, entry, oldCaches));
  } catch (error) {
    await caches.delete(CACHE_NAME);
    throw error;
  }
}

async function deleteOtherCaches() {
  const names = await caches.keys();
  await Promise.all(
    names.filter((name) => name.startsWith(CACHE_PREFIX) && name !== CACHE_NAME).map((name) => caches.delete(name)),
  );
}

/** The precached path a request asks for ("" and ".../" mean index.html), or null. */
function precachedPath(request) {
  const url = new URL(request.url);
  if (url.origin !== SCOPE.origin || !url.pathname.startsWith(SCOPE.pathname)) return null;
  let path;
  try {
    path = decodeURIComponent(url.pathname.slice(SCOPE.pathname.length));
  } catch {
    return null;
  }
  if (path === "" || path.endsWith("/")) path += "index.html";
  return byPath.has(path) ? path : null;
}

/** Keeps an on-use file the page fetched, if its bytes are the build's (a wrong copy is not kept). */
async function keepOnUse(entry, response) {
  const bytes = await response.arrayBuffer();
  if ((await sha256(bytes)) !== entry.sha256) return;
  const cache = await caches.open(CACHE_NAME);
  await cache.put(urlOf(entry.path), await storedResponse(entry, bytes, response));
}

async function fromCache(event, path) {
  const cache = await caches.open(CACHE_NAME);
  const hit = await cache.match(urlOf(path));
  if (hit) return hit;
  // An on-use file not fetched yet, or a cache the browser evicted: the network, as without a worker.
  const response = await fetch(event.request);
  const entry = byPath.get(path);
  if (entry.onUse && response.ok) event.waitUntil(keepOnUse(entry, response.clone()).catch(() => {}));
  return response;
}

async function status() {
  const cache = await caches.open(CACHE_NAME);
  const keys = new Set((await cache.keys()).map((request) => request.url));
  const absent = [...byPath.values()].filter((entry) => !keys.has(urlOf(entry.path)));
  const missing = absent.filter((entry) => !entry.onUse).map((entry) => entry.path);
  const bytes = [...byPath.values()].reduce((sum, entry) => sum + entry.size, 0);
  return {
    buildId: PRECACHE.build_id,
    cache: CACHE_NAME,
    files: byPath.size,
    bytes,
    missing,
    notYetUsed: absent.filter((entry) => entry.onUse).map((entry) => entry.path),
    complete: missing.length === 0,
  };
}

self.addEventListener("install", (event) => {
  event.waitUntil(precacheAll());
});

self.addEventListener("activate", (event) => {
  event.waitUntil(deleteOtherCaches().then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET" || request.headers.has("range")) return;
  const path = precachedPath(request);
  if (path) event.respondWith(fromCache(event, path));
});

// The worker's one wall clock, made here and handed to what it runs.
const clock = systemClock();
self.addEventListener("sync", (event) => handleSync(event, clock)); // "ewar-scores": sends the queued daily scores once online

self.addEventListener("message", (event) => {
  const type = event.data?.type;
  if (type === "skip-waiting") {
    self.skipWaiting();
  } else if (type === "status") {
    event.waitUntil(status().then((answer) => event.ports[0]?.postMessage(answer)));
  }
});

// Netlify Blobs' own local server (BlobsServer from @netlify/blobs/server), on 127.0.0.1 only, made to keep the
// promises the deployed store keeps and the scores board relies on (docs/scores.md, "The local store"):
//
// - a conditional write is atomic: BlobsServer checks If-Match / If-None-Match and then writes and renames a file,
//   so two writes to one key could both pass the check; here the writes to one key take turns;
// - a read answers with the ETag of the data it returns (BlobsServer sends none);
// - a listing never sees a write half-done: BlobsServer's walk ends early, answering 200 with a partial list, when a
//   file it has just listed is renamed or deleted, so a listing and the writes into the folders it walks take turns;
// - a request whose client has gone (its timeout fired) is not started: the client was told it failed, and work
//   for no one only makes the next requests late too.
import { fork } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir } from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import { BlobsServer } from "@netlify/blobs/server";
import { toWebRequest } from "../tools/web-request.mjs";

export const LOCAL_SITE_ID = "ewar-local";
const HOST = "127.0.0.1";

/**
 * What a request to the Blobs server does: { kind: "write" | "read", key } for one blob (key: "site/store/key"),
 * { kind: "list", prefix } for a listing of a store ("site/store/" + the prefix asked for), or { kind: "other" }.
 */
export function operationOf(method, url) {
  const { pathname, searchParams } = new URL(url, "http://local");
  let parts = pathname.split("/").filter(Boolean).map(decodeURIComponent);
  if (parts[0]?.startsWith("region:")) parts = parts.slice(1);
  if (parts.length >= 3) {
    if (method === "PUT" || method === "DELETE") return { kind: "write", key: parts.join("/") };
    if (method === "GET" || method === "HEAD") return { kind: "read", key: parts.join("/") };
  }
  if (parts.length === 2 && method === "GET") {
    return { kind: "list", prefix: `${parts.join("/")}/${searchParams.get("prefix") ?? ""}` };
  }
  return { kind: "other" };
}

/** The folder a write to `key` renames a file in ("site/store/2026-11-30/queue/" for a queue key). */
const folderOf = (key) => key.slice(0, key.lastIndexOf("/") + 1);

/**
 * Whether a listing of `prefix` walks the folder a write to `key` touches. BlobsServer's walk enters every folder
 * whose path is the start of the prefix, or starts with it, and looks at every file in the folders it enters.
 */
export function listingMeetsWrite(prefix, key) {
  const folder = folderOf(key);
  return prefix.startsWith(folder) || folder.startsWith(prefix);
}

/**
 * Turns between requests. Writes to one key take turns, in arrival order. A listing and the writes it meets
 * (listingMeetsWrite) take turns too, in arrival order: any number of listings, or of writes, run at once. Reads
 * wait for nothing (see readWithEtag).
 */
export function turns() {
  const keyTails = new Map();
  const pending = []; // listings and writes, running or waiting, in arrival order: { op, running, start }
  const meet = (a, b) =>
    a.kind !== b.kind && (a.kind === "list" ? listingMeetsWrite(a.prefix, b.key) : listingMeetsWrite(b.prefix, a.key));

  const startReady = () => {
    for (const [at, entry] of pending.entries()) {
      if (entry.running) continue;
      if (pending.slice(0, at).some((earlier) => meet(earlier.op, entry.op))) continue;
      entry.running = true;
      entry.start();
    }
  };

  async function gated(op, task) {
    if (op.kind !== "list" && op.kind !== "write") return task();
    const entry = { op, running: false, start: null };
    const started = new Promise((resolve) => {
      entry.start = resolve;
    });
    pending.push(entry);
    startReady();
    await started;
    try {
      return await task();
    } finally {
      pending.splice(pending.indexOf(entry), 1);
      startReady();
    }
  }

  async function oneKeyAtATime(key, task) {
    const previous = keyTails.get(key) ?? Promise.resolve();
    const run = previous.then(task);
    const tail = run.then(
      () => {},
      () => {},
    );
    keyTails.set(key, tail);
    try {
      return await run;
    } finally {
      if (keyTails.get(key) === tail) keyTails.delete(key);
    }
  }

  /** Runs `task` when `op` may run (see above). */
  return function take(op, task) {
    if (op.kind === "write") return oneKeyAtATime(op.key, () => gated(op, task));
    return gated(op, task);
  };
}

function checkServerApi(blobs) {
  for (const name of ["handleRequest", "getLocalPaths"]) {
    if (typeof blobs[name] !== "function") {
      throw new Error(`@netlify/blobs/server changed: BlobsServer.${name} is gone (pinned 11.1.1)`);
    }
  }
  if (typeof BlobsServer.generateETag !== "function") {
    throw new Error("@netlify/blobs/server changed: BlobsServer.generateETag is gone (pinned 11.1.1)");
  }
}

async function answer(res, response) {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body) await pipeline(Readable.fromWeb(response.body), res);
  else res.end();
}

const READ_ATTEMPTS = 3;

/**
 * A read of one blob with the ETag of the data it returns: the file's ETag before and after the read must agree (a
 * write renames a new file into place, so a read that saw no rename between the two saw that version); a read that
 * keeps meeting writes answers 503, which the client takes for a failure.
 */
async function readWithEtag(blobs, request) {
  const { dataPath } = blobs.getLocalPaths(new URL(request.url));
  for (let attempt = 0; attempt < READ_ATTEMPTS; attempt += 1) {
    const before = await BlobsServer.generateETag(dataPath);
    const answered = await blobs.handleRequest(request.clone());
    if (answered.status !== 200 || answered.headers.has("etag")) return answered;
    const body = await answered.arrayBuffer();
    const after = await BlobsServer.generateETag(dataPath);
    if (before && before === after) {
      const headers = new Headers(answered.headers);
      headers.set("etag", before);
      return new Response(body, { status: 200, headers });
    }
  }
  return new Response(null, { status: 503 });
}

/** One request: waits its turn, is dropped if its client has gone meanwhile; a read answers with its ETag. */
async function relay({ blobs, origin, take }, req, res) {
  let clientGone = false;
  res.on("close", () => {
    if (!res.writableFinished) clientGone = true;
  });
  try {
    const op = operationOf(req.method, req.url);
    const response = await take(op, async () => {
      if (clientGone) return null;
      const request = toWebRequest(req, origin);
      return op.kind === "read" && req.method === "GET" ? readWithEtag(blobs, request) : blobs.handleRequest(request);
    });
    if (response === null) {
      res.destroy();
      return;
    }
    await answer(res, response);
  } catch {
    if (!res.headersSent) res.writeHead(500);
    res.end();
  }
}

function listen(server) {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, HOST, () => resolve(server.address().port));
  });
}

/**
 * BlobsServer over a folder, on 127.0.0.1 only (its own start() listens on every interface, so its request handler
 * is mounted on a loopback-only node:http server), with a random 32-byte token kept in memory.
 * Resolves to { url, token, close(), options: the store options for getStore }.
 */
export async function startBlobsServer(directory) {
  const token = randomBytes(32).toString("base64url");
  const blobs = new BlobsServer({ directory, token });
  checkServerApi(blobs);
  await mkdir(directory, { recursive: true });
  const server = http.createServer();
  const port = await listen(server);
  const url = `http://${HOST}:${port}`;
  blobs.address = url;
  const context = { blobs, origin: url, take: turns() };
  server.on("request", (req, res) => relay(context, req, res));
  const close = () =>
    new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return { url, token, close, options: { siteID: LOCAL_SITE_ID, token, edgeURL: url, uncachedEdgeURL: url } };
}

/**
 * The same server in a child process of its own (benchmarks: the store then has a core of its own, as a remote
 * store would). Its address and token come back over the IPC channel, never through stdout or the environment.
 */
export async function startBlobsServerProcess(directory) {
  const child = fork(fileURLToPath(import.meta.url), ["--blobs-server", path.resolve(directory)], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const { url, token } = await new Promise((resolve, reject) => {
    child.once("message", resolve);
    child.once("exit", (code) => reject(new Error(`the Blobs server process exited (${code})`)));
  });
  const close = () =>
    new Promise((resolve) => {
      child.once("exit", () => resolve());
      child.kill();
    });
  return { url, token, close, options: { siteID: LOCAL_SITE_ID, token, edgeURL: url, uncachedEdgeURL: url } };
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === "--blobs-server" && process.send) {
  const server = await startBlobsServer(process.argv[3]);
  process.send({ url: server.url, token: server.token });
  process.on("disconnect", () => server.close().then(() => process.exit(0)));
}

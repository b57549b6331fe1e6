// Runs the scores function locally: Netlify Blobs' own server on 127.0.0.1 (data kept in a folder), the handler, and
// the function's declared rate limit (config.rateLimit) applied as the platform would, to the one local client.
//
// startLocalApi({ dataDir }) → { handle(Request): Promise<Response>, settle(), close(), ready }
// The Blobs server's port and token stay inside this process: they are passed to the handler as store options,
// never put in the environment, printed or written to disk.
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
import { engineLoader } from "./functions/scores/engine.mjs";
import { config, createScoresHandler } from "./functions/scores/scores.mjs";

export const LOCAL_SITE_ID = "ewar-local";
/** The deploy context of local runs: its store is "ewar-scores-dev", never production's. */
export const LOCAL_CONTEXT = "dev";
const HOST = "127.0.0.1";

/**
 * BlobsServer lists a store by walking its folders, and a file renamed away mid-walk (a write's temporary file)
 * ends the walk early with a partial, successful answer. So listings and writes take turns here: any number of
 * one kind at once, never both (Netlify's own listing has no such gap).
 */
function listingGate() {
  const running = { list: 0, write: 0 };
  const waiting = [];
  const other = { list: "write", write: "list" };
  const wake = () => {
    for (const entry of waiting.splice(0)) {
      if (running[other[entry.kind]] === 0) {
        running[entry.kind] += 1;
        entry.resolve();
      } else {
        waiting.push(entry);
      }
    }
  };
  return async function pass(kind, task) {
    if (running[other[kind]] > 0 || waiting.length > 0) {
      await new Promise((resolve) => waiting.push({ kind, resolve }));
    } else {
      running[kind] += 1;
    }
    try {
      return await task();
    } finally {
      running[kind] -= 1;
      wake();
    }
  };
}

/** "write", "list" (a GET of /<site>/<store> with no key) or null. */
function kindOf(req) {
  if (req.method === "PUT" || req.method === "DELETE") return "write";
  const parts = new URL(req.url, "http://local").pathname.split("/").filter(Boolean);
  const path = parts[0]?.startsWith("region:") ? parts.slice(1) : parts;
  return req.method === "GET" && path.length === 2 ? "list" : null;
}

async function relay(blobs, origin, gate, req, res) {
  try {
    const kind = kindOf(req);
    const handle = () => blobs.handleRequest(toWebRequest(req, origin));
    const response = await (kind ? gate(kind, handle) : handle());
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body) await pipeline(Readable.fromWeb(response.body), res);
    else res.end();
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
 * BlobsServer on 127.0.0.1 only. Its own start() listens on every interface, so its request handler is mounted
 * on a loopback-only node:http server instead (checked against @netlify/blobs 11.1.1).
 */
export async function startBlobsServer(directory) {
  const token = randomBytes(32).toString("base64url");
  const blobs = new BlobsServer({ directory, token });
  if (typeof blobs.handleRequest !== "function") {
    throw new Error("@netlify/blobs/server changed: BlobsServer.handleRequest is gone (pinned 11.1.1)");
  }
  await mkdir(directory, { recursive: true });
  const server = http.createServer();
  const port = await listen(server);
  const url = `http://${HOST}:${port}`;
  blobs.address = url;
  const gate = listingGate();
  server.on("request", (req, res) => relay(blobs, url, gate, req, res));
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

/**
 * A sliding-window limiter with the numbers of `config.rateLimit`: answers the 429 the platform would, with
 * Retry-After (seconds until the oldest request of the window leaves it), or null to let the request through.
 */
export function rateLimiter({ windowLimit, windowSize }, clock = () => performance.now()) {
  const arrivals = [];
  return function limit() {
    const now = clock();
    while (arrivals.length > 0 && arrivals[0] <= now - windowSize * 1000) arrivals.shift();
    if (arrivals.length < windowLimit) {
      arrivals.push(now);
      return null;
    }
    const retryAfter = Math.max(1, Math.ceil((arrivals[0] + windowSize * 1000 - now) / 1000));
    return new Response(JSON.stringify({ error: "rate_limited", message: "Too many requests; try again later." }), {
      status: 429,
      headers: { "content-type": "application/json; charset=utf-8", "retry-after": String(retryAfter) },
    });
  };
}

/**
 * The local scores API over a Blobs folder that survives restarts. `engine`: loadEngine options; `getEngine`: an
 * engine loader to share (tests); `now`: the clock; `boardCacheMs`: see createScoresHandler; `rateLimit`: false
 * to serve without the function's declared limit (tests and benchmarks that send many requests);
 * `blobsInChildProcess`: run the Blobs server in a process of its own.
 */
export async function startLocalApi({
  dataDir,
  engine: engineOptions = {},
  getEngine: sharedLoader,
  now,
  boardCacheMs,
  rateLimit = true,
  deployContext = LOCAL_CONTEXT,
  blobsFetch,
  blobsInChildProcess = false,
} = {}) {
  if (!dataDir) throw new Error("startLocalApi needs a dataDir");
  const blobsServer = await (blobsInChildProcess ? startBlobsServerProcess : startBlobsServer)(path.resolve(dataDir));
  const getEngine = sharedLoader ?? engineLoader(engineOptions);
  const ready = getEngine().then(
    () => true,
    (error) => {
      console.error(`scores: the engine did not load (${error.message}); POST answers 503 until it does`);
      return false;
    },
  );
  const handler = createScoresHandler({
    blobs: { ...blobsServer.options, fetch: blobsFetch },
    deployContext,
    getEngine,
    now,
    boardCacheMs,
  });
  const limit = rateLimit ? rateLimiter(config.rateLimit) : () => null;
  return {
    ready,
    handle: (request, context) => limit() ?? handler(request, context),
    settle: () => handler.settle(),
    async close() {
      await handler.settle();
      await blobsServer.close();
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === "--blobs-server" && process.send) {
  const server = await startBlobsServer(process.argv[3]);
  process.send({ url: server.url, token: server.token });
  process.on("disconnect", () => server.close().then(() => process.exit(0)));
}

// Runs the scores function locally: Netlify Blobs' own server on 127.0.0.1 (data kept in a folder) + the engine.
//
// startLocalApi({ dataDir }) → { handle(Request): Promise<Response>, close(), ready }
// The Blobs server's port and token stay inside this process: they are passed to the handler as store options,
// never put in the environment, printed or written to disk.
import { randomBytes } from "node:crypto";
import { mkdir } from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { BlobsServer } from "@netlify/blobs/server";
import { engineLoader } from "./functions/scores/engine.mjs";
import { createScoresHandler } from "./functions/scores/scores.mjs";
import { toWebRequest } from "../tools/web-request.mjs";

export const LOCAL_SITE_ID = "ewar-local";
const HOST = "127.0.0.1";

async function relay(blobs, origin, req, res) {
  try {
    const response = await blobs.handleRequest(toWebRequest(req, origin));
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
 * BlobsServer on 127.0.0.1 only. Its own start() listens on every interface, so its request handler is
 * mounted on a loopback-only node:http server instead (checked against @netlify/blobs 10.7.9).
 */
async function startBlobsServer(directory) {
  const token = randomBytes(32).toString("base64url");
  const blobs = new BlobsServer({ directory, token });
  if (typeof blobs.handleRequest !== "function") {
    throw new Error("@netlify/blobs/server changed: BlobsServer.handleRequest is gone (pinned 10.7.9)");
  }
  await mkdir(directory, { recursive: true });
  const server = http.createServer();
  const port = await listen(server);
  const url = `http://${HOST}:${port}`;
  blobs.address = url;
  server.on("request", (req, res) => relay(blobs, url, req, res));
  const close = () => new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
  return { url, token, close };
}

/**
 * The local scores API over a Blobs folder that survives restarts. `engine`: loadEngine options;
 * `getEngine`: an engine loader to share (tests); `now`: the clock; `boardCacheMs`: see createScoresHandler.
 */
export async function startLocalApi({
  dataDir, engine: engineOptions = {}, getEngine: sharedLoader, now, boardCacheMs,
} = {}) {
  if (!dataDir) throw new Error("startLocalApi needs a dataDir");
  const blobsServer = await startBlobsServer(path.resolve(dataDir));
  const getEngine = sharedLoader ?? engineLoader(engineOptions);
  const ready = getEngine().then(() => true, (error) => {
    console.error(`scores: the engine did not load (${error.message}); POST answers 503 until it does`);
    return false;
  });
  const handler = createScoresHandler({
    blobs: { siteID: LOCAL_SITE_ID, token: blobsServer.token, edgeURL: blobsServer.url,
      uncachedEdgeURL: blobsServer.url },
    getEngine,
    now,
    boardCacheMs,
  });
  return {
    ready,
    handle: (request) => handler(request),
    close: () => blobsServer.close(),
  };
}

// Runs the scores function locally: Netlify Blobs' own server on 127.0.0.1 (data kept in a folder), the handler, and
// the function's declared rate limit (config.rateLimit) applied as the platform would, to the one local client.
//
// startLocalApi({ dataDir }) → { handle(Request): Promise<Response>, settle(), storeTable(), close(), ready }
// The Blobs server's port and token stay inside this process: they are passed to the handler as store options,
// never put in the environment, printed or written to disk.
import path from "node:path";
import { openStore } from "./functions/scores/blobs.mjs";
import { engineLoader } from "./functions/scores/engine.mjs";
import { config, createScoresHandler } from "./functions/scores/scores.mjs";
import { startBlobsServer, startBlobsServerProcess } from "./local-blobs.mjs";

/** The deploy context of local runs: its store is "ewar-scores-dev", never production's. */
export const LOCAL_CONTEXT = "dev";

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
 * Resolves to { ready, handle(request, context), settle(), storeTable(), close() }.
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
    /** The API's own store, opened directly (tests and benchmarks check what it holds). */
    storeTable: () => openStore(deployContext, blobsServer.options),
    async close() {
      await handler.settle();
      await blobsServer.close();
    },
  };
}

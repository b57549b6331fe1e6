// Runs the scores and friends' boards APIs locally: the same handler and SQL as on Netlify, on an embedded Postgres (PGlite, as
// `netlify dev` does) whose data is kept in a folder, and the functions' declared paths and rate limits applied as
// the platform would, to the one local client.
//
// startLocalApi({ dataDir, rateLimit }) → { ready, handle(Request): Promise<Response>, database, close() }
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { migrate } from "./database/migrate.mjs";
import { config as boardConfig } from "./functions/board/board.mjs";
import { config as friendsConfig } from "./functions/friends/friends.mjs";
import { createFriendsHandler } from "./functions/friends/handler.mjs";
import { engineLoader } from "./functions/scores/engine.mjs";
import { createScoresHandler } from "./functions/scores/handler.mjs";
import { config as postConfig } from "./functions/scores/scores.mjs";

/**
 * A sliding-window limiter with the numbers of a function's `config.rateLimit`: answers the 429 the platform would,
 * with Retry-After (seconds until the oldest request of the window leaves it), or null to let the request through.
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

/** Whether a config path ("/api/friends/:code", or a list of them) matches `pathname` as Netlify's router would. */
export function pathMatches(paths, pathname) {
  const wanted = pathname.replace(/\/+$/, "").split("/");
  return [paths].flat().some((pattern) => {
    const parts = pattern.split("/");
    return (
      parts.length === wanted.length &&
      parts.every((part, at) => (part.startsWith(":") ? wanted[at] !== "" : part === wanted[at]))
    );
  });
}

/** The function (its config) Netlify would route `request` to, by its config's paths and methods, or undefined. */
export function routeOf(request, configs) {
  const { pathname } = new URL(request.url);
  return configs.find((config) => pathMatches(config.path, pathname) && config.method.includes(request.method));
}

const FUNCTION_CONFIGS = [postConfig, boardConfig, friendsConfig];

/** One limiter per function, chosen as Netlify routes: by the paths and methods each function's config names. */
export function routedLimiter(configs = FUNCTION_CONFIGS, clock = undefined) {
  const limits = new Map(configs.map((config) => [config, rateLimiter(config.rateLimit, clock)]));
  return (request) => limits.get(routeOf(request, configs))?.() ?? null;
}

/**
 * The local scores API over a PGlite database kept in `dataDir` (made if missing; the migrations applied).
 * `engine`: loadEngine options; `getEngine`: an engine loader to share (tests); `now`: the clock; `rateLimit`:
 * false to serve without the functions' declared limits (tests that send many requests); `database`: another db
 * to use instead (a pg Pool: tests against a PostgreSQL server).
 */
export async function startLocalApi({
  dataDir,
  engine: engineOptions = {},
  getEngine: sharedLoader,
  now,
  rateLimit = true,
  database,
} = {}) {
  if (!dataDir && !database) throw new Error("startLocalApi needs a dataDir");
  let db = database;
  if (!db) {
    await mkdir(path.resolve(dataDir), { recursive: true });
    db = new PGlite(path.join(path.resolve(dataDir), "board"));
  }
  await migrate(db);
  const getEngine = sharedLoader ?? engineLoader(engineOptions);
  const ready = getEngine().then(
    () => true,
    (error) => {
      console.error(`scores: the engine did not load (${error.message}); POST answers 503 until it does`);
      return false;
    },
  );
  const scores = createScoresHandler({ database: () => db, getEngine, now });
  const friends = createFriendsHandler({ database: () => db, now });
  const limit = rateLimit ? routedLimiter() : () => null;
  // Unrouted requests go to the scores handler, whose 404 and 405 answers stand in for the platform's.
  const handlerOf = (request) => (routeOf(request, [friendsConfig]) ? friends : scores);
  return {
    ready,
    database: db,
    handle: (request) => limit(request) ?? handlerOf(request)(request),
    async close() {
      if (!database) await db.close();
    },
  };
}

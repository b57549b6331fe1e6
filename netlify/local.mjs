// Runs the scores and friends' boards APIs locally: the same handler and SQL as on Netlify, on an embedded Postgres (PGlite, as
// `netlify dev` does) whose data is kept in a folder, and the functions' declared paths and rate limits applied as
// the platform would, to the one local client.
//
// startLocalApi({ dataDir, rateLimit }) → { ready, opened, database, handle(Request): Promise<Response>, close() }

import { existsSync } from "node:fs";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { systemClock } from "../web/common/clock.js";
import { migrate } from "./database/migrate.mjs";
import { config as boardConfig } from "./functions/board/board.mjs";
import { config as friendsConfig } from "./functions/friends/friends.mjs";
import { createFriendsHandler } from "./functions/friends/handler.mjs";
import { config as postConfig } from "./functions/scores/scores.mjs";
import { answeredBy } from "./lib/answer.mjs";
import { engineLoader } from "./scores-api/engine.mjs";
import { createScoresHandler } from "./scores-api/handler.mjs";

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
/** Each function's name (its folder), as its entry module sets it on every answer (answer.mjs answeredBy). */
const FUNCTION_NAMES = new Map([
  [postConfig, "scores"],
  [boardConfig, "board"],
  [friendsConfig, "friends"],
]);

/** One limiter per function, chosen as Netlify routes: by the paths and methods each function's config names. */
export function routedLimiter(configs = FUNCTION_CONFIGS, clock = undefined) {
  const limits = new Map(configs.map((config) => [config, rateLimiter(config.rateLimit, clock)]));
  return (request) => limits.get(routeOf(request, configs))?.() ?? null;
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** A fresh PGlite cluster, dumped once: initdb in WebAssembly takes 7-14 s here, loading the dump 1-3 s. */
const TEMPLATE = path.join(ROOT, "node_modules", ".cache", "ewar", "pglite-cluster.tar.gz");

async function clusterTemplate() {
  if (existsSync(TEMPLATE)) return new Blob([await readFile(TEMPLATE)]);
  const fresh = await PGlite.create();
  const dump = await fresh.dumpDataDir("gzip");
  await fresh.close();
  await mkdir(path.dirname(TEMPLATE), { recursive: true });
  const partial = `${TEMPLATE}.${process.pid}`;
  await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
  await rename(partial, TEMPLATE);
  return dump;
}

/** The PGlite database kept in `dir`: opened as it is, or made from the cluster template. */
export async function openLocalDatabase(dir) {
  const folder = path.resolve(dir);
  await mkdir(folder, { recursive: true });
  if (existsSync(path.join(folder, "PG_VERSION"))) return PGlite.create(folder);
  return PGlite.create(folder, { loadDataDir: await clusterTemplate() });
}

/**
 * The local scores API over a PGlite database kept in `dataDir` (made if missing; the migrations applied).
 * `engine`: loadEngine options; `getEngine`: an engine loader to share (tests); `clock`: the wall clock (the system's when absent); `rateLimit`:
 * false to serve without the functions' declared limits (tests that send many requests); `database`: another db
 * to use instead (a pg Pool: tests against a PostgreSQL server); `purge`: the CDN purger (tests record it). Resolves at once: the database opens meanwhile
 * (`opened`), and requests wait for it.
 */
export async function startLocalApi({
  dataDir,
  engine: engineOptions = {},
  getEngine: sharedLoader,
  clock = systemClock(),
  rateLimit = true,
  database,
  purge,
} = {}) {
  if (!dataDir && !database) throw new Error("startLocalApi needs a dataDir");
  const opened = (async () => {
    const db = database ?? (await openLocalDatabase(dataDir));
    await migrate(db);
    return db;
  })();
  let db = null;
  const failed = opened.then(
    (ready) => {
      db = ready;
      return null;
    },
    (error) => {
      console.error(`scores: the local database did not open (${error.message}); /api/scores answers 503`);
      return error;
    },
  );
  const getEngine = sharedLoader ?? engineLoader(engineOptions);
  const ready = getEngine().then(
    () => true,
    (error) => {
      console.error(`scores: the engine did not load (${error.message}); POST answers 503 until it does`);
      return false;
    },
  );
  const scores = createScoresHandler({ database: () => db, getEngine, clock, ...(purge ? { purge } : {}) });
  const friends = createFriendsHandler({ database: () => db, clock });
  const limit = rateLimit ? routedLimiter() : () => null;
  const unavailable = () =>
    new Response(JSON.stringify({ error: "unavailable", message: "The local database did not open." }), {
      status: 503,
      headers: { "content-type": "application/json; charset=utf-8", "retry-after": "2" },
    });
  // Unrouted requests go to the scores handler, whose 404 and 405 answers stand in for the platform's.
  const handlerOf = (request) => (routeOf(request, [friendsConfig]) ? friends : scores);
  return {
    ready,
    opened,
    /** The open database (null until it has opened): for tests that look inside. */
    get database() {
      return db;
    },
    async handle(request) {
      const refused = limit(request);
      if (refused) return refused;
      if (await failed) return unavailable();
      const route = routeOf(request, FUNCTION_CONFIGS);
      const response = await handlerOf(request)(request);
      return route ? answeredBy(FUNCTION_NAMES.get(route), response) : response;
    },
    async close() {
      await failed;
      if (!database && db) await db.close();
    },
  };
}

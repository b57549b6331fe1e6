// The daily-scores function: POST a score the engine's judge accepts, GET a day's board (Netlify Functions v2).
//
// POST /api/scores   application/json, at most 64 KiB:
//   {"id": "<16-64 of A-Za-z0-9_->", "name": "<nickname>", "date": "YYYY-MM-DD", "score": <int>,
//    "replay": <the engine's replay record>}
//   201 {"ok": true, "repeated": false, "id", "date", "name", "score", "duration_ms", "wrong_slaps", "won",
//        "received_at", "rank", "total"}; the same id again with the same content: 200, the same fields, repeated: true.
// GET /api/scores?date=YYYY-MM-DD[&id=<submission id>]
//   200 {"date", "entries": [{"rank", "name", "score", "won", "duration_ms", "wrong_slaps"}...top 50],
//        "total", "you": {...the caller's entry, with "you": true and "id"} | null}
// Every win ranks above every loss. Errors: {"error": CODE, "message": TEXT}; nothing is stored on a 4xx; a 503
// (with Retry-After) stored nothing that a retry of the same submission would not complete. docs/scores.md has
// every code.
import { createHash } from "node:crypto";
import { openStore, StoreBusy, StoreFault } from "./blobs.mjs";
import { engineLoader } from "./engine.mjs";
import { lookalikeDigest } from "./lookalike.mjs";
import { ClaimTaken, ScoreStore } from "./store.mjs";
import {
  canonicalJson,
  checkContentType,
  checkDate,
  checkId,
  checkSubmission,
  parseJson,
  Rejection,
  readBody,
} from "./submission.mjs";
import { factsOf } from "./verdict.mjs";

/**
 * Netlify's rate limit, per client IP on this site's domain: 120 requests a minute is two a second for a whole
 * minute, which no household playing a daily game and reading its board comes near; more is answered 429.
 */
export const RATE_LIMIT = Object.freeze({ windowLimit: 120, windowSize: 60, aggregateBy: ["ip", "domain"] });

export const config = { path: "/api/scores", rateLimit: RATE_LIMIT };

const GET_CACHE = "public, max-age=5, s-maxage=5";
const POST_CACHE = "no-store";
const RETRY_AFTER_S = "2";

function json(status, body, cacheControl, extraHeaders = {}) {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": cacheControl,
      "x-content-type-options": "nosniff",
      ...extraHeaders,
    },
  });
}

function errorResponse(status, code, message, extraHeaders) {
  return json(status, { error: code, message }, "no-store", extraHeaders);
}

const replayHash = (replay) => createHash("sha256").update(canonicalJson(replay)).digest("hex");

/** Same id, same content: the name, the claimed score and the replay. */
function sameSubmission(stored, submission, hash) {
  return stored.name === submission.name && stored.score === submission.score && stored.replay_sha256 === hash;
}

function answerOf(record, { rank, total }, repeated) {
  return {
    ok: true,
    repeated,
    id: record.id,
    date: record.date,
    name: record.name,
    score: record.score,
    duration_ms: record.duration_ms,
    wrong_slaps: record.wrong_slaps,
    won: record.won,
    received_at: record.received_at,
    rank,
    total,
  };
}

const CLAIM_REFUSALS = {
  record: [409, "duplicate_record", "This game is already on the board (one game, one entry)."],
  name: [409, "name_taken", "That name, or one that looks just like it, is already on today's board: pick another."],
};

/**
 * A scores handler. `blobs`: store options for local use (siteID, token, edgeURL, uncachedEdgeURL, fetch); none
 * in production, where Netlify's environment configures Blobs. `deployContext`: the store's context when the
 * request's Netlify context has none (local runs). `getEngine`: a promise-returning engine loader. `now`: the
 * clock. `boardCacheMs`: how long an instance may reuse a board it read (1 s).
 */
export function createScoresHandler({
  blobs,
  deployContext = "unknown",
  getEngine = sharedEngine,
  now = Date.now,
  boardCacheMs,
} = {}) {
  const stores = new Map();
  const background = new Set();
  const storeFor = (context) => {
    const name = context?.deploy?.context ?? deployContext;
    if (!stores.has(name)) stores.set(name, new ScoreStore(openStore(name, blobs), { now, cacheMs: boardCacheMs }));
    return stores.get(name);
  };

  /** Merges the date's queue after answering (the platform's waitUntil, else a tracked promise). */
  function mergeLater(store, date, context) {
    const merging = store.merge(date).catch((error) => console.error(`scores: merge of ${date} failed:`, error));
    if (typeof context?.waitUntil === "function") return context.waitUntil(merging);
    background.add(merging);
    merging.finally(() => background.delete(merging));
  }

  async function repeatAnswer(store, stored, submission, hash) {
    if (!sameSubmission(stored, submission, hash)) {
      throw new Rejection(409, "id_conflict", "This submission id was already used for a different game.");
    }
    return json(200, answerOf(stored, await store.standing(stored), true), POST_CACHE);
  }

  async function post(request, context, receivedAt) {
    checkContentType(request);
    const submission = checkSubmission(parseJson(await readBody(request)), receivedAt);
    const hash = replayHash(submission.replay);
    const store = storeFor(context);
    const stored = await store.find(submission.date, submission.id);
    if (stored) return repeatAnswer(store, stored, submission, hash);
    const engine = await getEngine();
    const facts = factsOf(engine.judge(submission.replay, submission.date, submission.score));
    const record = {
      format: 2,
      id: submission.id,
      name: submission.name,
      name_digest: lookalikeDigest(submission.name),
      date: submission.date,
      ...facts,
      received_at: receivedAt,
      engine_version: engine.engineVersion,
      replay_sha256: hash,
      replay: submission.replay,
    };
    let outcome;
    try {
      outcome = await store.submit(record);
    } catch (error) {
      if (error instanceof ClaimTaken) throw new Rejection(...CLAIM_REFUSALS[error.kind]);
      throw error;
    }
    if (!outcome.created) return repeatAnswer(store, outcome.existing, submission, hash);
    const answer = answerOf(record, await store.standing(record, { justQueued: true }), false);
    mergeLater(store, record.date, context);
    return json(201, answer, POST_CACHE);
  }

  async function get(request, context) {
    const url = new URL(request.url);
    const date = checkDate(url.searchParams.get("date"), now());
    const id = url.searchParams.has("id") ? checkId(url.searchParams.get("id")) : null;
    const store = storeFor(context);
    const view = await store.view(date, id);
    if (view.queued > 0) mergeLater(store, date, context);
    const { queued, ...board } = view;
    return json(200, board, GET_CACHE);
  }

  async function scores(request, context) {
    const receivedAt = now();
    try {
      if (new URL(request.url).pathname.replace(/\/+$/, "") !== config.path) {
        return errorResponse(404, "not_found", "No such resource.");
      }
      if (request.method === "POST") return await post(request, context, receivedAt);
      if (request.method === "GET") return await get(request, context);
      return errorResponse(405, "method_not_allowed", "Use GET or POST.", { allow: "GET, POST" });
    } catch (error) {
      if (error instanceof Rejection) return errorResponse(error.status, error.code, error.message);
      const busy = error instanceof StoreBusy;
      if (!(error instanceof StoreFault) && !busy) console.error("scores: internal failure:", error?.stack ?? error);
      else console.error(`scores: store: ${error.message}`);
      return errorResponse(
        503,
        busy ? "busy" : "unavailable",
        "The scores service could not finish; send the same submission again later.",
        { "retry-after": RETRY_AFTER_S },
      );
    }
  }

  /** Resolves once the merges started by earlier requests are done (tests and local runs). */
  scores.settle = async () => {
    while (background.size > 0) await Promise.allSettled([...background]);
  };
  return scores;
}

/** The engine of this function instance, loaded on the first POST. */
export const sharedEngine = engineLoader();

const productionHandler = createScoresHandler();

export default async (request, context) => productionHandler(request, context);

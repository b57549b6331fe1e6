// The daily-scores function: POST a replayed-and-verified score, GET a day's leaderboard (Netlify Functions v2).
//
// POST /api/scores   application/json, at most 64 KiB:
//   {"id": "<16-64 of A-Za-z0-9_->", "name": "<nickname>", "date": "YYYY-MM-DD", "score": <int>,
//    "replay": <the engine's replay record>}
//   201 {"ok": true, "repeated": false, "id", "date", "name", "score", "duration_ms", "wrong_slaps", "won",
//        "received_at", "rank", "total"}; the same id again with the same content: 200, the same fields, repeated: true.
// GET /api/scores?date=YYYY-MM-DD[&id=<submission id>]
//   200 {"date", "entries": [{"rank", "name", "score", "duration_ms", "wrong_slaps", "won"}...top 50],
//        "total", "you": {...the caller's entry, with "you": true and "id"} | null}
// Errors: 4xx/503 {"error": CODE, "message": TEXT}; nothing is stored on a 4xx.
import { engineLoader } from "./engine.mjs";
import { leaderboardView, openStores, ScoreStore, StoreBusy } from "./store.mjs";
import {
  canonicalJson, checkContentType, checkDate, checkId, checkSubmission, parseJson, readBody, Rejection,
} from "./submission.mjs";
import { checkRecord, checkVerdict } from "./verdict.mjs";
import { createHash } from "node:crypto";

export const config = { path: "/api/scores" };

const GET_CACHE = "public, max-age=5, s-maxage=5";
const POST_CACHE = "no-store";

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

function replayHash(replay) {
  return createHash("sha256").update(canonicalJson(replay)).digest("hex");
}

/** Same id, same content: the name, the claimed score and the replay. */
function sameSubmission(stored, submission, hash) {
  return stored.name === submission.name && stored.score === submission.score && stored.replay_sha256 === hash;
}

function answerOf(record, board, repeated) {
  const rank = board.entries.findIndex((entry) => entry.id === record.id) + 1;
  return {
    ok: true, repeated, id: record.id, date: record.date, name: record.name, score: record.score,
    duration_ms: record.duration_ms, wrong_slaps: record.wrong_slaps, won: record.won,
    received_at: record.received_at, rank, total: board.entries.length,
  };
}

/**
 * A scores handler. `blobs`: store options for local use (siteID, token, edgeURL, uncachedEdgeURL); none in
 * production, where the environment configures Netlify Blobs. `getEngine`: a promise-returning engine loader.
 * `now`: the clock. `boardCacheMs`: how long an instance may reuse a leaderboard it read or wrote (1 s).
 */
export function createScoresHandler({ blobs, getEngine = sharedEngine, now = Date.now, boardCacheMs } = {}) {
  let store = null;
  const scoreStore = () => (store ??= new ScoreStore(openStores(blobs), { cacheMs: boardCacheMs }));

  async function repeatAnswer(stored, submission, hash) {
    if (!sameSubmission(stored, submission, hash)) {
      throw new Rejection(409, "id_conflict", "This submission id was already used for a different game.");
    }
    const board = await scoreStore().addToBoard(stored);
    return json(200, answerOf(stored, board, true), POST_CACHE);
  }

  async function post(request, receivedAt) {
    checkContentType(request);
    const submission = checkSubmission(parseJson(await readBody(request)), receivedAt);
    const hash = replayHash(submission.replay);
    const stored = await scoreStore().find(submission.date, submission.id);
    if (stored) return repeatAnswer(stored, submission, hash);
    const engine = await getEngine();
    checkRecord(submission.replay, submission.date, engine.engineVersion);
    const facts = checkVerdict(engine.verify(submission.replay), submission, engine);
    const record = {
      format: 1, id: submission.id, name: submission.name, date: submission.date, ...facts,
      received_at: receivedAt, engine_version: engine.engineVersion, replay_sha256: hash, replay: submission.replay,
    };
    const outcome = await scoreStore().submit(record);
    if (!outcome.created) return repeatAnswer(outcome.existing, submission, hash);
    return json(201, answerOf(record, outcome.board, false), POST_CACHE);
  }

  async function get(request) {
    const url = new URL(request.url);
    const date = checkDate(url.searchParams.get("date"), now());
    const id = url.searchParams.has("id") ? checkId(url.searchParams.get("id")) : null;
    const board = await scoreStore().board(date);
    return json(200, leaderboardView(board, id), GET_CACHE);
  }

  return async function scores(request) {
    const receivedAt = now();
    try {
      if (new URL(request.url).pathname.replace(/\/+$/, "") !== config.path) {
        return errorResponse(404, "not_found", "No such resource.");
      }
      if (request.method === "POST") return await post(request, receivedAt);
      if (request.method === "GET") return await get(request);
      return errorResponse(405, "method_not_allowed", "Use GET or POST.", { allow: "GET, POST" });
    } catch (error) {
      if (error instanceof Rejection) return errorResponse(error.status, error.code, error.message);
      const busy = error instanceof StoreBusy;
      console.error("scores: internal failure:", error?.stack ?? error);
      return errorResponse(503, busy ? "busy" : "unavailable",
        "The scores service could not finish; send the same submission again later.", { "retry-after": "2" });
    }
  };
}

/** The engine of this function instance, loaded on the first POST. */
export const sharedEngine = engineLoader();

const productionHandler = createScoresHandler();

export default async (request, context) => productionHandler(request, context);

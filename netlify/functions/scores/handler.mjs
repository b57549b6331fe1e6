// The daily-scores API behind both functions (POST: scores.mjs; GET: ../board/board.mjs): routing, answers,
// error codes. The board is Postgres (store.mjs); the judge is the engine (engine.mjs).
//
// POST /api/scores   application/json, at most 64 KiB:
//   {"id": "<16-64 of A-Za-z0-9_->", "name": "<nickname>", "date": "YYYY-MM-DD", "score": <int>,
//    "replay": <the engine's replay record>[, "player": "<16-64 of A-Za-z0-9_->: the device, for friends' boards"]}
//   201 {"ok": true, "repeated": false, "id", "date", "name", "score", "duration_ms", "wrong_slaps", "won",
//        "received_at", "rank", "total", "entry", "winners", "winners_below"}; the same id again with the same
//        content: 200, the same fields, repeated: true. winners/winners_below: the day's wins, and those scoring
//        lower (null for a loss).
// GET /api/scores?date=YYYY-MM-DD[&id=<submission id>]
//   200 {"date", "entries": [{"rank", "entry", "name", "score", "won", "duration_ms", "wrong_slaps"}...top 50],
//        "total", "you": {...the caller's entry, with "you": true, "id", "winners", "winners_below"} | null,
//        "distribution": {"bin": <width>, "wins": [[from, count]...], "losses": [[from, count]...]}}
// GET /api/scores/replay?date=YYYY-MM-DD&entry=<entry number>
//   200 {"date", "entry", "name", "score", "won", "duration_ms", "replay": <the record>}, cached long (an entry
//   never changes); 404 not_found: no such entry; 410 replay_gone: kept no more (store.mjs REPLAY_DAYS).
// Every win ranks above every loss. Errors: {"error": CODE, "message": TEXT} (a name's refusal adds its "reason");
// one game, one entry by its timing (samegame.mjs: 409 duplicate_record); one entry per player id a day (409
// player_entered); nothing is stored on a 4xx; a 503
// (with Retry-After) stored nothing. docs/scores.md has every code.
import { createHash } from "node:crypto";
import { netlifyDatabase } from "../../database/pool.mjs";
import { FriendsStore } from "../friends/store.mjs";
import { json } from "./answer.mjs";
import { engineLoader } from "./engine.mjs";
import { nameKey } from "./lookalike.mjs";
import { checkPlayer, playerHash } from "./player.mjs";
import { CANDIDATES, copiedAmong, lookupOf, marksOf, playerActions } from "./samegame.mjs";
import { ClaimTaken, REPLAY_DAYS, ScoreStore } from "./store.mjs";
import {
  canonicalJson,
  checkContentType,
  checkDate,
  checkId,
  checkSubmission,
  parseDate,
  parseJson,
  Rejection,
  readBody,
  utcDay,
} from "./submission.mjs";
import { factsOf } from "./verdict.mjs";

export const API_PATH = "/api/scores";
export const REPLAY_PATH = "/api/scores/replay";
const GET_CACHE = "public, max-age=5, s-maxage=5";
/** An entry and its replay never change: a day in browsers, a year at the CDN. */
const REPLAY_CACHE = "public, max-age=86400, s-maxage=31536000, immutable";
const ENTRY_PATTERN = /^[1-9][0-9]{0,15}$/;
const DAY_MS = 86_400_000;
const POST_CACHE = "no-store";
const RETRY_AFTER_S = "2";
/** How often one instance deletes replays past their keeping (store.mjs REPLAY_DAYS). */
const PRUNE_EVERY_MS = 3_600_000;

function errorResponse(status, code, message, extraHeaders) {
  return json(status, { error: code, message }, "no-store", extraHeaders);
}

const sha256Hex = (text) => createHash("sha256").update(text).digest("hex");

/** Same id, same content: the name, the claimed score and the replay. */
function sameSubmission(stored, submission, replaySha) {
  return stored.name === submission.name && stored.score === submission.score && stored.replay_sha256 === replaySha;
}

function answerOf(entry, { rank, total, entry: number, winners, winners_below }, repeated) {
  return {
    ok: true,
    repeated,
    id: entry.id,
    date: entry.date,
    name: entry.name,
    score: entry.score,
    duration_ms: entry.duration_ms,
    wrong_slaps: entry.wrong_slaps,
    won: entry.won,
    received_at: entry.received_at,
    rank,
    total,
    entry: number,
    winners,
    winners_below,
  };
}

const CLAIM_REFUSALS = {
  name: [409, "name_taken", "That name, or one that looks just like it, is already on today's board: pick another."],
  player: [
    409,
    "player_entered",
    "This player already has an entry on that day's board: one daily game a day, one entry.",
  ],
};

/** A refusal of a record whose timing is that of entry `seq`'s game (samegame.mjs). */
const copyRefusal = (seq) =>
  new Rejection(
    409,
    "duplicate_record",
    `This game's timing is that of entry ${seq}, already on that day's board: one game, one entry.`,
  );

/**
 * A scores handler. `database`: a function returning the db (a pg Pool or PGlite with the migrations applied);
 * Netlify Database's pool when absent. `getEngine`: a promise-returning engine loader. `now`: the clock.
 */
export function createScoresHandler({
  database = netlifyDatabase("scores"),
  getEngine = sharedEngine,
  now = Date.now,
} = {}) {
  let store = null;
  let friends = null;
  let lastPrune = Number.NEGATIVE_INFINITY;
  const storeNow = () => {
    store ??= new ScoreStore(database());
    return store;
  };
  const friendsNow = () => {
    friends ??= new FriendsStore(database());
    return friends;
  };

  async function repeatAnswer(stored, submission, replaySha) {
    if (!sameSubmission(stored, submission, replaySha)) {
      throw new Rejection(409, "id_conflict", "This submission id was already used for a different game.");
    }
    return json(200, answerOf(stored, await storeNow().standing(stored.date, stored.id), true), POST_CACHE);
  }

  /** Deletes old replays at most once an hour per instance; a failure only waits for the next hour. */
  async function pruneNow(receivedAt) {
    if (receivedAt - lastPrune < PRUNE_EVERY_MS) return;
    lastPrune = receivedAt;
    await storeNow()
      .pruneReplays(new Date(receivedAt).toISOString().slice(0, 10))
      .catch((error) => console.error(`scores: pruning replays failed: ${error.message}`));
  }

  async function post(request, receivedAt) {
    checkContentType(request);
    const submission = checkSubmission(parseJson(await readBody(request)), receivedAt);
    const player = submission.player === null ? null : playerHash(checkPlayer(submission.player));
    const replayCanonical = canonicalJson(submission.replay);
    const replaySha = sha256Hex(replayCanonical);
    const store = storeNow();
    const stored = await store.find(submission.date, submission.id);
    if (stored) return repeatAnswer(stored, submission, replaySha);
    const key = nameKey(submission.name);
    if (await store.nameHidden(key)) {
      const hidden = new Rejection(
        400,
        "invalid_name",
        "This name was taken off the board by its operator: pick another.",
      );
      throw Object.assign(hidden, { reason: "hidden" });
    }
    const engine = await getEngine();
    const facts = factsOf(engine.judge(submission.replay, submission.date, submission.score, receivedAt));
    // One game, one entry: a record whose timing is a stored game's is refused (samegame.mjs).
    const actions = playerActions(submission.replay.actions);
    const { marks: lookup, minShared } = lookupOf(actions);
    const near = { limit: CANDIDATES, minShared };
    const before = await store.nearCopies(submission.date, lookup, near);
    const original = copiedAmong(before.candidates, actions);
    if (original) throw copyRefusal(original.seq);
    const record = {
      id: submission.id,
      name: submission.name,
      name_key: key,
      date: submission.date,
      ...facts,
      received_at: receivedAt,
      engine_version: engine.engineVersion,
      replay_sha256: replaySha,
      replay_canonical: replayCanonical,
      player_sha256: player,
      marks: marksOf(actions),
    };
    let outcome;
    try {
      outcome = await store.submit(record);
    } catch (error) {
      if (error instanceof ClaimTaken) throw new Rejection(...CLAIM_REFUSALS[error.kind]);
      throw error;
    }
    if (!outcome.created) return repeatAnswer(outcome.existing, submission, replaySha);
    // A near-copy stored between the look and the insert (concurrent posts): the later entry is taken back. Entries
    // are stored one at a time (store.mjs), so every entry below this seq is visible now.
    const meanwhile = await store.nearCopies(submission.date, lookup, {
      ...near,
      after: before.newest,
      before: outcome.seq,
    });
    const earlier = copiedAmong(meanwhile.candidates, actions);
    if (earlier) {
      await store.undo(record.date, record.id);
      throw copyRefusal(earlier.seq);
    }
    const answer = answerOf(record, await store.standing(record.date, record.id), false);
    // The entry is stored: its friends' boards count as used, or wait for the next post if this fails.
    if (player) {
      await friendsNow()
        .touchBoardsOf(player, receivedAt)
        .catch((error) => console.error(`scores: marking friends' boards used failed: ${error.message}`));
    }
    await pruneNow(receivedAt);
    return json(201, answer, POST_CACHE);
  }

  async function get(request) {
    const url = new URL(request.url);
    const date = checkDate(url.searchParams.get("date"), now());
    const id = url.searchParams.has("id") ? checkId(url.searchParams.get("id")) : null;
    return json(200, await storeNow().view(date, id), GET_CACHE);
  }

  async function replay(request, nowMs) {
    const query = new URL(request.url).searchParams;
    const date = parseDate(query.get("date"));
    if (!date) throw new Rejection(400, "invalid_date", "The date must be a calendar day written YYYY-MM-DD.");
    const entryText = query.get("entry") ?? "";
    if (!ENTRY_PATTERN.test(entryText)) throw new Rejection(400, "invalid_entry", "The entry is a board row's number.");
    const entry = Number(entryText);
    const found = await storeNow().entryReplay(date, entry);
    if (!found) throw new Rejection(404, "not_found", "No entry of that day has this number.");
    // Past its keeping the replay is gone, whether the hourly prune has deleted it yet or not.
    if (found.replay_json === null || date < utcDay(nowMs - REPLAY_DAYS * DAY_MS)) {
      throw new Rejection(410, "replay_gone", `Replays are kept ${REPLAY_DAYS} days after their game's day.`);
    }
    const { replay_json, ...facts } = found;
    // The stored canonical JSON goes out as it is: at most what a submission's body could hold.
    const head = JSON.stringify({ date, entry, ...facts });
    return new Response(`${head.slice(0, -1)},"replay":${replay_json}}`, {
      status: 200,
      headers: {
        "content-type": "application/json; charset=utf-8",
        "cache-control": REPLAY_CACHE,
        "x-content-type-options": "nosniff",
      },
    });
  }

  return async function scores(request) {
    const receivedAt = now();
    try {
      const pathname = new URL(request.url).pathname.replace(/\/+$/, "");
      if (pathname === REPLAY_PATH) {
        if (request.method === "GET") return await replay(request, receivedAt);
        return errorResponse(405, "method_not_allowed", "Use GET.", { allow: "GET" });
      }
      if (pathname !== API_PATH) return errorResponse(404, "not_found", "No such resource.");
      if (request.method === "POST") return await post(request, receivedAt);
      if (request.method === "GET") return await get(request);
      return errorResponse(405, "method_not_allowed", "Use GET or POST.", { allow: "GET, POST" });
    } catch (error) {
      if (error instanceof Rejection && error.reason) {
        // A name's refusal says its rule (names.js reasons), for the page's own words.
        return json(error.status, { error: error.code, reason: error.reason, message: error.message }, "no-store");
      }
      if (error instanceof Rejection) return errorResponse(error.status, error.code, error.message);
      console.error("scores: could not finish:", error?.stack ?? error);
      return errorResponse(
        503,
        "unavailable",
        "The scores service could not finish; send the same submission again later.",
        { "retry-after": RETRY_AFTER_S },
      );
    }
  };
}

/** The engine of this function instance, loaded on the first POST. */
export const sharedEngine = engineLoader();

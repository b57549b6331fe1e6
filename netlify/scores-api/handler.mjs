// The daily-scores API behind both functions (POST: functions/scores/scores.mjs; GET: functions/board/board.mjs):
// routing, answers, error codes. The board is Postgres (database/scores-store.mjs); the judge is the engine
// (engine.mjs).
//
// POST /api/scores   application/json, at most 64 KiB:
//   {"id": "<16-64 of A-Za-z0-9_->", "name": "<nickname>", "date": "YYYY-MM-DD", "score": <int>,
//    "replay": <the engine's replay record>[, "player": "<16-64 of A-Za-z0-9_->: the device, for friends' boards"]}
//   201 {"ok": true, "repeated": false, "id", "date", "name", "score", "duration_ms", "wrong_slaps", "won",
//        "received_at", "rank", "total", "entry", "winners", "winners_below"}; the same id again with the same
//        content: 200, the same fields, repeated: true. winners/winners_below: the day's wins, and those scoring
//        lower (null for a loss).
// GET /api/scores?date=YYYY-MM-DD
//   200 {"date", "entries": [{"rank", "entry", "name", "score", "won", "duration_ms", "wrong_slaps"}...top 50],
//        "total", "you": null, "distribution": {"bin": <width>, "wins": [[from, count]...], "losses": [...]}}:
//   the same for everyone, so Netlify's CDN keeps it for all (BOARD_CDN_CACHE, tag "board-<date>").
//   With &id=<submission id> (pages of earlier deploys): the same plus "you", never cached.
// GET /api/scores/rank?date=YYYY-MM-DD&id=<submission id>
//   200 {"date", "total", "you": {...the caller's entry, with "you": true, "id", "winners", "winners_below"} |
//   null}: one small read, kept by that browser only (RANK_CACHE).
// DELETE /api/scores/player   application/json {"player": "<the device's player id>"}
//   200 {"forgotten": true, "entries": <how many>, "boards": <friends' boards left>}: forget me. Every entry the
//   player id posted (while entries keep it: docs/scores.md) goes from every board with its replay and name, and
//   the player leaves every friends' board; the CDN's copies of those boards and replays are purged.
// GET /api/scores/replay?date=YYYY-MM-DD&entry=<entry number>
//   200 {"date", "entry", "name", "score", "won", "duration_ms", "replay": <the record>}, cached long (an entry
//   never changes); 404 not_found: no such entry; 410 replay_gone: kept no more (scores-store.mjs REPLAY_DAYS).
// Every win ranks above every loss. Errors: {"error": CODE, "message": TEXT} (a name's refusal adds its "reason");
// one game, one entry by its timing (samegame.mjs: 409 duplicate_record); one entry per player id a day (409
// player_entered); nothing is stored on a 4xx; a 503
// (with Retry-After) stored nothing. docs/scores.md has every code.
import { createHash } from "node:crypto";
import { DAY_MS, ENDPOINTS, TOP, utcDay } from "../../web/common/contract.js";
import { FriendsStore } from "../database/friends-store.mjs";
import { netlifyDatabase } from "../database/pool.mjs";
import { ClaimTaken, REPLAY_DAYS, ScoreStore } from "../database/scores-store.mjs";
import { json } from "../lib/answer.mjs";
import { nameKey } from "../lib/lookalike.mjs";
import { checkPlayer, playerHash } from "../lib/player.mjs";
import {
  canonicalJson,
  checkBoardDate,
  checkContentType,
  checkId,
  checkSubmission,
  parseDate,
  parseJson,
  Rejection,
  readBody,
} from "../lib/submission.mjs";
import { engineLoader } from "./engine.mjs";
import { cdnPurger } from "./purge.mjs";
import { CANDIDATES, copiedAmong, lookupOf, marksOf, playerActions } from "./samegame.mjs";
import { factsOf } from "./verdict.mjs";

/** A forget-me body is one player id: 1 KiB is plenty. */
const FORGET_MAX_BYTES = 1024;
/** A board: browsers ask again each time; Netlify's CDN keeps one copy for all (docs/scores.md, "Reads at scale"). */
const BOARD_CACHE = "public, max-age=0, must-revalidate";
export const BOARD_CDN_CACHE = "public, durable, s-maxage=10, stale-while-revalidate=50";
const PRIVATE_CACHE = "private, no-store";
/** A player's own row, found: that browser may show it again for 30 s (a rank moves slowly); no CDN keeps it. */
export const RANK_CACHE = "private, max-age=30";
/** The CDN's tag of a day's board: purged when its top rows change (purge.mjs). */
export const boardTag = (date) => `board-${date}`;
/** The CDN's tag of an entry's replay: purged when its player forgets it. */
export const replayTag = (date, entry) => `replay-${date}-${entry}`;
const ENTRY_PATTERN = /^[1-9][0-9]{0,15}$/;
const POST_CACHE = "no-store";
const RETRY_AFTER_S = "2";

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

/** Seconds until `date`'s replays are kept no more (REPLAY_DAYS after the day): no cached copy outlives that. */
export function replayKeptSeconds(date, nowMs) {
  return Math.max(0, Math.floor((Date.parse(`${date}T00:00:00Z`) + (REPLAY_DAYS + 1) * DAY_MS - nowMs) / 1000));
}

/** A refusal of a record whose timing is that of entry `seq`'s game (samegame.mjs). */
const copyRefusal = (seq) =>
  new Rejection(
    409,
    "duplicate_record",
    `This game's timing is that of entry ${seq}, already on that day's board: one game, one entry.`,
    { entry: Number(seq) },
  );

/**
 * A scores handler. `database`: a function returning the db (a pg Pool or PGlite with the migrations applied);
 * Netlify Database when absent. `getEngine(version)`: a promise-returning engine loader, asked for the engine of a
 * record's version (engine.mjs engineLoader). `clock`: the wall clock (web/common/clock.js; scores.mjs makes it). `purge`: purges CDN tags (purge.mjs; tests pass a
 * recorder).
 */
export function createScoresHandler({
  database = netlifyDatabase("scores"),
  getEngine = sharedEngine,
  clock,
  purge = cdnPurger(),
} = {}) {
  if (typeof clock?.now !== "function") throw new TypeError("a handler needs its clock (web/common/clock.js)");
  let store = null;
  let friends = null;
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
      throw new Rejection(400, "invalid_name", "This name was taken off the board by its operator: pick another.", {
        reason: "hidden",
      });
    }
    // A record is judged by the engine it was played on, while the function keeps it (engine.mjs engineLoader).
    const engine = await getEngine(submission.replay?.engine);
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
    // are stored one at a time (scores-store.mjs), so every entry below this seq is visible now.
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
    // A new row in the top rows: everyone's cached copy of the board goes now, not in BOARD_CDN_CACHE's seconds.
    if (answer.rank <= TOP) await purge([boardTag(record.date)]);
    // The entry is stored: its friends' boards count as used, or wait for the next post if this fails.
    if (player) {
      await friendsNow()
        .touchBoardsOf(player, receivedAt)
        .catch((error) => console.error(`scores: marking friends' boards used failed: ${error.message}`));
    }
    return json(201, answer, POST_CACHE);
  }

  async function get(request) {
    const url = new URL(request.url);
    const date = checkBoardDate(url.searchParams.get("date"), clock.now());
    if (url.searchParams.has("id")) {
      return json(200, await storeNow().view(date, checkId(url.searchParams.get("id"))), PRIVATE_CACHE);
    }
    return json(200, await storeNow().view(date), BOARD_CACHE, {
      "netlify-cdn-cache-control": BOARD_CDN_CACHE,
      "netlify-cache-tag": boardTag(date),
    });
  }

  async function rank(request) {
    const url = new URL(request.url);
    const date = checkBoardDate(url.searchParams.get("date"), clock.now());
    const id = checkId(url.searchParams.get("id"));
    const mine = await storeNow().yours(date, id);
    // Not there (yet): its post may be on its way, so the browser must ask again, not keep the "not there".
    return json(200, mine, mine.you ? RANK_CACHE : PRIVATE_CACHE);
  }

  async function forget(request) {
    checkContentType(request);
    const body = parseJson(await readBody(request, FORGET_MAX_BYTES));
    if (typeof body !== "object" || body === null || Array.isArray(body) || !Object.hasOwn(body, "player")) {
      throw new Rejection(400, "invalid_body", 'The body must be a JSON object {"player": "<player id>"}.');
    }
    const extra = Object.keys(body).filter((field) => field !== "player");
    if (extra.length) throw new Rejection(400, "unknown_field", `Unknown field: ${extra.slice(0, 5).join(", ")}.`);
    const gone = await storeNow().forget(playerHash(checkPlayer(body.player)));
    const dates = [...new Set(gone.entries.map(({ date }) => date))];
    const tags = [...dates.map(boardTag), ...gone.entries.map(({ date, entry }) => replayTag(date, entry))];
    if (tags.length) await purge(tags);
    return json(200, { forgotten: true, entries: gone.entries.length, boards: gone.boards });
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
    // Past its keeping the replay is gone, whether the hourly chores (../prune/) have deleted it yet or not.
    if (found.replay_json === null || date < utcDay(nowMs - REPLAY_DAYS * DAY_MS)) {
      throw new Rejection(410, "replay_gone", `Replays are kept ${REPLAY_DAYS} days after their game's day.`);
    }
    const { replay_json, ...facts } = found;
    // The stored canonical JSON goes out as it is: at most what a submission's body could hold.
    const head = JSON.stringify({ date, entry, ...facts });
    // An entry's replay never changes, but is kept only so long: no browser or CDN copy outlives that.
    const kept = replayKeptSeconds(date, nowMs);
    return new Response(`${head.slice(0, -1)},"replay":${replay_json}}`, {
      status: 200,
      headers: {
        "content-type": "application/json; charset=utf-8",
        "cache-control": `public, max-age=${Math.min(kept, 86_400)}`,
        "netlify-cdn-cache-control": `public, durable, s-maxage=${kept}`,
        "netlify-cache-tag": replayTag(date, entry),
        "x-content-type-options": "nosniff",
      },
    });
  }

  return async function scores(request) {
    const receivedAt = clock.now();
    try {
      const pathname = new URL(request.url).pathname.replace(/\/+$/, "");
      if (pathname === ENDPOINTS.player) {
        if (request.method === "DELETE") return await forget(request);
        return errorResponse(405, "method_not_allowed", "Use DELETE.", { allow: "DELETE" });
      }
      if (pathname === ENDPOINTS.rank) {
        if (request.method === "GET") return await rank(request);
        return errorResponse(405, "method_not_allowed", "Use GET.", { allow: "GET" });
      }
      if (pathname === ENDPOINTS.replay) {
        if (request.method === "GET") return await replay(request, receivedAt);
        return errorResponse(405, "method_not_allowed", "Use GET.", { allow: "GET" });
      }
      if (pathname !== ENDPOINTS.scores) return errorResponse(404, "not_found", "No such resource.");
      if (request.method === "POST") return await post(request, receivedAt);
      if (request.method === "GET") return await get(request);
      return errorResponse(405, "method_not_allowed", "Use GET or POST.", { allow: "GET, POST" });
    } catch (error) {
      if (error instanceof Rejection) {
        // A name's refusal says its rule (names.js reasons), a copy's the entry it copies: the page's own words.
        return json(error.status, { error: error.code, ...error.facts, message: error.message }, "no-store");
      }
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

// The friends' boards API (friends.mjs): routing, answers, error codes. The boards are Postgres
// (database/friends-store.mjs).
//
// POST   /api/friends                 {"name", "player"}  → 201 {"code", "name"}: a new board, its creator a member
// PUT    /api/friends/<code>/members  {"player"}          → 201 {"code", "name", "joined": true} | 200 (already a
//                                                            member, "joined": false); 404 not_found; 409 board_full
// DELETE /api/friends/<code>/members  {"player"}          → 200 {"code", "left": true}; 404 not_found (not a member)
// GET    /api/friends/<code>?date=YYYY-MM-DD               → 200 {"code", "name", "date", "members": <count>,
//                                                            "entries": [{"rank", "entry", "name", "score", "won",
//                                                            "duration_ms", "wrong_slaps"}...]}
// A player id is 16-64 of A-Za-z0-9_-; only its SHA-256 is stored, and no answer says who is on a board or which
// boards a player is on. Errors: {"error": CODE, "message": TEXT}, as the scores API. docs/scores.md has every code.
import { randomBytes } from "node:crypto";
import { ENDPOINTS, FRIENDS_CODE_PATTERN } from "../../../web/common/contract.js";
import { checkName } from "../../../web/common/names.js";
import { BoardFull, FriendsStore, MEMBER_LIMIT } from "../../database/friends-store.mjs";
import { netlifyDatabase } from "../../database/pool.mjs";
import { json } from "../../lib/answer.mjs";
import { checkPlayer, playerHash } from "../../lib/player.mjs";
import { checkContentType, checkDate, parseJson, Rejection, readBody } from "../../lib/submission.mjs";

/** A request body here is a name and a player id: 1 KiB is plenty. */
const MAX_BODY_BYTES = 1024;
const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";
const GET_CACHE = "private, max-age=5";
const RETRY_AFTER_S = "2";
// The board's path, then (optionally) its code and /members.
const ROUTE = new RegExp(`^${ENDPOINTS.friends}(?:/([^/]+)(/members)?)?$`);

const reject = (status, code, message) => {
  throw new Rejection(status, code, message);
};

/** 12 characters of base32 from 60 random bits: a share code nobody guesses. */
export function newCode() {
  const bytes = randomBytes(12);
  return Array.from(bytes, (byte) => BASE32[byte & 31]).join("");
}

function checkCode(code) {
  if (!FRIENDS_CODE_PATTERN.test(code)) reject(400, "invalid_code", "A board code is 12 characters from a-z and 2-7.");
  return code;
}

/** The JSON object body with exactly `fields` (all required). */
async function bodyWith(request, fields) {
  checkContentType(request);
  const body = parseJson(await readBody(request, MAX_BODY_BYTES));
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    reject(400, "invalid_body", "The body must be a JSON object.");
  }
  const missing = fields.filter((field) => !Object.hasOwn(body, field));
  if (missing.length) reject(400, "missing_field", `Missing field: ${missing.join(", ")}.`);
  const extra = Object.keys(body).filter((field) => !fields.includes(field));
  if (extra.length) reject(400, "unknown_field", `Unknown field: ${extra.slice(0, 5).join(", ")}.`);
  return body;
}

/**
 * A friends' boards handler. `database`: a function returning the db (a pg Pool or PGlite with the migrations
 * applied); Netlify Database's pool when absent. `clock`: the wall clock (web/common/clock.js; friends.mjs makes it). `makeCode`: the share code maker (tests).
 */
export function createFriendsHandler({ database = netlifyDatabase("friends"), clock, makeCode = newCode } = {}) {
  if (typeof clock?.now !== "function") throw new TypeError("a handler needs its clock (web/common/clock.js)");
  let store = null;
  const storeNow = () => {
    store ??= new FriendsStore(database());
    return store;
  };

  async function create(request, nowMs) {
    const body = await bodyWith(request, ["name", "player"]);
    const name = checkName(body.name);
    if (!name.ok) reject(400, "invalid_name", name.message);
    const player = playerHash(checkPlayer(body.player));
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const code = makeCode();
      if (await storeNow().create(code, name.name, player, nowMs)) return json(201, { code, name: name.name });
    }
    throw new Error("three share codes in a row were taken");
  }

  async function join(request, code, nowMs) {
    const player = playerHash(checkPlayer((await bodyWith(request, ["player"])).player));
    let outcome;
    try {
      outcome = await storeNow().join(code, player, nowMs);
    } catch (error) {
      if (error instanceof BoardFull) reject(409, "board_full", `This board has its ${MEMBER_LIMIT} members already.`);
      throw error;
    }
    if (!outcome) reject(404, "not_found", "No board has this code (it may have been removed).");
    return json(outcome.joined ? 201 : 200, { code, name: outcome.name, joined: outcome.joined });
  }

  async function leave(request, code, nowMs) {
    const player = playerHash(checkPlayer((await bodyWith(request, ["player"])).player));
    if (!(await storeNow().leave(code, player, nowMs))) {
      reject(404, "not_found", "This device is not a member of a board with this code.");
    }
    return json(200, { code, left: true });
  }

  async function view(request, code, nowMs) {
    const date = checkDate(new URL(request.url).searchParams.get("date"), nowMs);
    const board = await storeNow().view(code, date, nowMs);
    if (!board) reject(404, "not_found", "No board has this code (it may have been removed).");
    return json(200, { code, name: board.name, date, members: board.members, entries: board.entries }, GET_CACHE);
  }

  async function route(request, nowMs) {
    const match = ROUTE.exec(new URL(request.url).pathname.replace(/\/+$/, ""));
    if (!match) reject(404, "not_found", "No such resource.");
    const [, rawCode, members] = match;
    const allow = (methods) => {
      throw Object.assign(new Rejection(405, "method_not_allowed", `Use ${methods}.`), { allow: methods });
    };
    if (rawCode === undefined) return request.method === "POST" ? create(request, nowMs) : allow("POST");
    const code = checkCode(rawCode);
    if (members) {
      if (request.method === "PUT") return join(request, code, nowMs);
      if (request.method === "DELETE") return leave(request, code, nowMs);
      return allow("PUT, DELETE");
    }
    return request.method === "GET" ? view(request, code, nowMs) : allow("GET");
  }

  return async function friends(request) {
    const nowMs = clock.now();
    try {
      return await route(request, nowMs);
    } catch (error) {
      if (error instanceof Rejection) {
        const headers = error.allow ? { allow: error.allow } : {};
        return json(error.status, { error: error.code, message: error.message }, "no-store", headers);
      }
      console.error("friends: could not finish:", error?.stack ?? error);
      return json(
        503,
        { error: "unavailable", message: "The friends' boards could not answer; try again later." },
        "no-store",
        {
          "retry-after": RETRY_AFTER_S,
        },
      );
    }
  };
}

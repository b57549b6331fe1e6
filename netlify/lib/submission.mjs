// The score submission envelope: body reading, field checks, the name rules (web/common/names.js), the UTC
// date window.
import naughtyWords from "naughty-words";
import {
  ID_PATTERN,
  OPTIONAL_RECORD_FIELDS,
  RECORD_FIELDS,
  submissionDates,
  utcDay,
} from "../../web/common/contract.js";
import { checkName, plainForm } from "../../web/common/names.js";

export const MAX_BODY_BYTES = 64 * 1024;
/**
 * The word lists names are checked against (naughty-words, docs/dependencies.md): the page's languages it has
 * (en, fr, ko), and for Urdu, whose words are shared with Hindi and written in Perso-Arabic letters, hi, fa, ar.
 * It has no Vietnamese list.
 */
export const OFFENSIVE_LANGUAGES = ["en", "fr", "ko", "hi", "fa", "ar"];
const OFFENSIVE = [
  ...new Set(OFFENSIVE_LANGUAGES.flatMap((language) => naughtyWords[language].map(plainForm)).filter(Boolean)),
];
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const JSON_TYPE = /^application\/json\s*(?:;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

/** A rejected request: an HTTP status, a stable code and a human sentence. */
export class Rejection extends Error {
  /** `facts`: fields the answer carries beside error and message (a name's `reason`, a copy's `entry`). */
  constructor(status, code, message, facts = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.facts = facts;
  }
}

const reject = (status, code, message) => {
  throw new Rejection(status, code, message);
};

export function checkContentType(request) {
  const type = (request.headers.get("content-type") ?? "").trim();
  if (!JSON_TYPE.test(type)) reject(415, "unsupported_media_type", "Send the submission as application/json (UTF-8).");
}

/** Reads at most MAX_BODY_BYTES, whatever Content-Length claims. */
export async function readBody(request, limit = MAX_BODY_BYTES) {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limit)
    reject(413, "payload_too_large", `The body is over ${limit} bytes.`);
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      reject(413, "payload_too_large", `The body is over ${limit} bytes.`);
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

export function parseJson(bytes) {
  let text;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    reject(400, "invalid_json", "The body is not valid UTF-8.");
  }
  try {
    return JSON.parse(text);
  } catch {
    return reject(400, "invalid_json", "The body is not valid JSON.");
  }
}

const isPlainObject = (value) => typeof value === "object" && value !== null && !Array.isArray(value);

function checkFieldSet(body) {
  if (!isPlainObject(body)) reject(400, "invalid_body", "The submission must be a JSON object.");
  const missing = RECORD_FIELDS.filter((field) => !Object.hasOwn(body, field));
  if (missing.length) reject(400, "missing_field", `Missing field: ${missing.join(", ")}.`);
  const extra = Object.keys(body).filter(
    (field) => !RECORD_FIELDS.includes(field) && !OPTIONAL_RECORD_FIELDS.includes(field),
  );
  if (extra.length) reject(400, "unknown_field", `Unknown field: ${extra.slice(0, 5).join(", ")}.`);
}

function checkFieldTypes(body) {
  const wrong = [];
  if (typeof body.id !== "string") wrong.push("id (string)");
  if (typeof body.name !== "string") wrong.push("name (string)");
  if (typeof body.date !== "string") wrong.push("date (string)");
  if (!Number.isSafeInteger(body.score)) wrong.push("score (integer)");
  if (!isPlainObject(body.replay)) wrong.push("replay (object)");
  if (wrong.length) reject(400, "invalid_type", `Wrong type: ${wrong.join(", ")}.`);
}

/** "YYYY-MM-DD" of a real calendar day, else null. */
export function parseDate(text) {
  const match = typeof text === "string" ? DATE_PATTERN.exec(text) : null;
  if (!match) return null;
  const [year, month, day] = match.slice(1).map(Number);
  const time = Date.UTC(year, month - 1, day);
  return utcDay(time) === text ? text : null;
}

/**
 * A day whose board may be read: any day up to today (UTC) at nowMs. Past days stay readable, so a daily that can no
 * longer be sent keeps its board, and the page offers its deal again as practice from it.
 */
export function checkBoardDate(text, nowMs) {
  const date = parseDate(text);
  if (!date) reject(400, "invalid_date", "The date must be a calendar day written YYYY-MM-DD.");
  if (date > utcDay(nowMs)) reject(400, "date_out_of_window", "The board of a day to come is not open yet.");
  return date;
}

export function checkDate(text, nowMs) {
  const date = parseDate(text);
  if (!date) reject(400, "invalid_date", "The date must be a calendar day written YYYY-MM-DD.");
  if (!submissionDates(nowMs).includes(date)) {
    reject(400, "date_out_of_window", "Only today's and yesterday's daily games (UTC) are accepted.");
  }
  return date;
}

export function checkId(id) {
  if (typeof id !== "string" || !ID_PATTERN.test(id)) {
    reject(400, "invalid_id", "The submission id must be 16 to 64 characters from A-Z a-z 0-9 _ -.");
  }
  return id;
}

/**
 * The checked envelope: { id, name, date, score, replay, player } with the name in its normal form (NFKC);
 * `player` is the raw player id as sent, or null (player.mjs checks and hashes it).
 */
export function checkSubmission(body, nowMs) {
  checkFieldSet(body);
  checkFieldTypes(body);
  const id = checkId(body.id);
  const name = checkName(body.name, { offensive: OFFENSIVE });
  if (!name.ok) throw new Rejection(400, "invalid_name", name.message, { reason: name.reason });
  const date = checkDate(body.date, nowMs);
  if (body.score < 0) reject(400, "invalid_type", "Wrong type: score (integer >= 0).");
  return { id, name: name.name, date, score: body.score, replay: body.replay, player: body.player ?? null };
}

export const MAX_DEPTH = 16;

/** JSON with object keys sorted, so equal records hash equally whatever their key order. */
export function canonicalJson(value, depth = 0) {
  if (depth > MAX_DEPTH) reject(400, "invalid_type", "Wrong type: replay (nested too deeply).");
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item, depth + 1)).join(",")}]`;
  if (isPlainObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key], depth + 1)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

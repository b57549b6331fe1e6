// A daily result's score record on the page, as a state machine with no I/O: "draft" (no name yet) -> "queued"
// (in the outbox) -> "sent" (the server kept it) or "refused" (with the server's error); a result refused for
// its name alone waits for another name and goes again with the same id. The leaderboard stores the records
// and draws what statusOf() says.

import { SCORE_REFUSALS } from "../../common/contract.js";

// Refusals of the name alone: the score waits for another name, and goes with the same id.
export const NAME_REFUSALS = new Set(["invalid_name", "name_taken"]);
// A name's refusals the panel words itself (names.js reasons; "hidden": the board's operator took it off).
export const NAME_REASONS = new Set([
  "letters",
  "mixed_scripts",
  "reserved",
  "offensive",
  "hidden",
  "marks",
  "script",
  "too_long",
  "invisible",
]);

/** The i18n key of a name's refusal: its reason's own words, or the general rule. */
export function nameRefusalKey(reason) {
  if (NAME_REASONS.has(reason)) return `leaderboard.nameRefused.${reason}`;
  return reason === "empty" ? "leaderboard.nameEmpty" : "leaderboard.nameInvalid";
}

// The refusals the panel words itself (the contract's); every other 422 is the score judge's (ewar/judge.py's codes).
const REASONS = new Set(SCORE_REFUSALS);

/** The record of a scored daily that has just ended: a draft, until a name is known. */
export function draftRecord({ date, id, view, replay, now }) {
  return {
    date,
    id,
    score: view.result.score,
    won: view.result.won,
    duration_ms: view.result.duration_ms,
    wrong_slaps: view.wrong_slaps,
    replay,
    state: "draft",
    finishedAt: now,
  };
}

/** Whether the record waits for a name: never sent, or refused for its name. */
export function awaitsName(rec) {
  return Boolean(rec && (rec.state === "draft" || (rec.state === "refused" && NAME_REFUSALS.has(rec.error?.code))));
}

/** What goes into the outbox for a record. */
export function submissionOf(rec) {
  const submission = { id: rec.id, name: rec.name, date: rec.date, score: rec.score, replay: rec.replay };
  return rec.player ? { ...submission, player: rec.player } : submission;
}

/**
 * The record after an event: {type: "queue", name, at, player?} sends it under a name (from a draft, or again
 * after a refusal), with the device's player id when given (its friends' boards count it); {type: "answer", answer} settles a queued one with the outbox's answer ({ok, status, body}). Any
 * other step throws: a sent score is never sent again, and only a queued one has an answer to wait for.
 */
export function recordAfter(rec, event) {
  if (event.type === "queue") {
    if (rec.state !== "draft" && rec.state !== "refused") throw new Error(`a ${rec.state} score is not sent again`);
    const queued = { ...rec, name: event.name, state: "queued", queuedAt: event.at, error: null };
    return event.player ? { ...queued, player: event.player } : queued;
  }
  if (event.type === "answer") {
    if (rec.state !== "queued") throw new Error(`a ${rec.state} score has no answer to wait for`);
    const body = event.answer.body ?? {};
    if (event.answer.ok) {
      const { replay: _sent, ...kept } = rec;
      return {
        ...kept,
        state: "sent",
        name: body.name ?? rec.name,
        rank: body.rank ?? null,
        total: body.total ?? null,
        entry: Number.isInteger(body.entry) ? body.entry : null, // the board row's number: yours on any board
      };
    }
    const error = { status: event.answer.status, code: body.error ?? "", message: body.message ?? "" };
    if (typeof body.reason === "string") error.reason = body.reason;
    // A copy refusal names the stored entry it copies.
    if (error.code === "duplicate_record" && Number.isInteger(body.entry)) error.entry = body.entry;
    return { ...rec, state: "refused", error };
  }
  throw new Error(`unknown score record event ${JSON.stringify(event?.type)}`);
}

/** Why the server refused a score, as an i18n key and its parameters. */
export function reasonOf(error) {
  const code = error?.code ?? "";
  if (code === "invalid_name" && NAME_REASONS.has(error?.reason))
    return { key: nameRefusalKey(error.reason), params: {} };
  if (code === "duplicate_record" && Number.isInteger(error?.entry))
    return { key: "leaderboard.reason.duplicate_record", params: { entry: error.entry } };
  if (code === "duplicate_record") return { key: "leaderboard.reason.duplicate_recordUnnamed", params: {} };
  if (REASONS.has(code)) return { key: `leaderboard.reason.${code}`, params: {} };
  if (error?.status === 422) return { key: "leaderboard.reason.unverified", params: { code } };
  return { key: "leaderboard.reason.other", params: { message: error?.message || `HTTP ${error?.status ?? "?"}` } };
}

function sentStatus(rec, you, total) {
  const rank = you?.rank ?? rec.rank;
  const of = total ?? rec.total;
  return rank && of !== null && of !== undefined
    ? { key: "leaderboard.status.sent", params: { score: rec.score, rank, total: of }, state: "sent" }
    : { key: "leaderboard.status.sentNoRank", params: { score: rec.score }, state: "sent" };
}

const NOTHING = { key: null, params: {}, state: "" };

/**
 * The status line for the day shown, as {key, params, state} (key null: no line). rec: that day's record or
 * null; waiting: the record that waits for a name, if any; canPlay: today's daily is still to play; you, total:
 * the board's entry for this player and its size, when the board shown is that day's; sending: a flush is under
 * way; online: navigator.onLine; lastFlush: the last flush's result ({offline}), or null.
 */
export function statusOf({
  rec,
  waiting = null,
  canPlay = false,
  you = null,
  total = null,
  sending,
  online,
  lastFlush,
}) {
  if (!rec) {
    if (waiting) return { key: "leaderboard.status.draft", params: { score: waiting.score }, state: "draft" };
    return canPlay ? { key: "leaderboard.status.play", params: {}, state: "" } : NOTHING;
  }
  const score = rec.score;
  switch (rec.state) {
    case "draft":
      return { key: "leaderboard.status.draft", params: { score }, state: "draft" };
    case "queued":
      if (you) return sentStatus(rec, you, total);
      if (sending && online) return { key: "leaderboard.status.sending", params: { score }, state: "sending" };
      if (online && lastFlush && !lastFlush.offline) {
        return { key: "leaderboard.status.retrying", params: { score }, state: "queued" };
      }
      return { key: "leaderboard.status.queued", params: { score }, state: "queued" };
    case "sent":
      return sentStatus(rec, you, total);
    case "refused":
      return { key: "leaderboard.status.refused", params: { reason: reasonOf(rec.error) }, state: "refused" };
    default:
      return NOTHING;
  }
}

/**
 * Whether a board day's games may not be watched yet: today's daily, before this device has played it (its start
 * counts, and so does a score of that day kept for the board). Once the day is over, or played, they are open.
 * today: the UTC date now (the page's clock).
 */
export function watchLocked(date, { historyStore, scoreStore }, today) {
  return date === today && !historyStore.dailyRecord(date) && !scoreStore.scoreRecords([date])[date];
}

// A daily result's score record (web/js/scores/records.js): draft -> queued -> sent or refused, and the status
// line each state gives.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  awaitsName,
  draftRecord,
  nameRefusalKey,
  reasonOf,
  recordAfter,
  statusOf,
  submissionOf,
} from "../../web/js/scores/records.js";

const VIEW = { result: { score: 41_250, won: true, duration_ms: 312_000 }, wrong_slaps: 2 };
const REPLAY = { seed: 12, actions: [[0, "flip"]] };
const draft = () => draftRecord({ date: "2026-12-01", id: "abc", view: VIEW, replay: REPLAY, now: 1_000 });
const queued = (name = "Ana") => recordAfter(draft(), { type: "queue", name, at: 2_000 });
const answered = (ok, status, body) => recordAfter(queued(), { type: "answer", answer: { ok, status, body } });
const LIVE = { sending: false, online: true, lastFlush: null };

describe("a finished daily", () => {
  test("is a draft with its result and replay, waiting for a name", () => {
    const rec = draft();
    assert.deepEqual(
      [rec.state, rec.score, rec.won, rec.duration_ms, rec.wrong_slaps, rec.replay],
      ["draft", 41_250, true, 312_000, 2, REPLAY],
    );
    assert.equal(awaitsName(rec), true);
  });

  test("goes to the outbox under its name, with its id, score, date and replay", () => {
    const rec = queued();
    assert.equal(rec.state, "queued");
    assert.equal(awaitsName(rec), false);
    assert.deepEqual(submissionOf(rec), { id: "abc", name: "Ana", date: "2026-12-01", score: 41_250, replay: REPLAY });
  });
});

describe("a daily sent with the device's player id", () => {
  test("carries the player into the outbox, so its friends' boards count it", () => {
    const rec = recordAfter(draft(), { type: "queue", name: "Ana", at: 2_000, player: "p".repeat(32) });
    assert.equal(rec.player, "p".repeat(32));
    assert.equal(submissionOf(rec).player, "p".repeat(32));
  });

  test("without one, the submission has no player field at all", () => {
    assert.equal("player" in submissionOf(queued()), false);
  });
});

describe("the server's answer", () => {
  test("a kept score is sent, with the name as the server wrote it, its rank, and no replay any more", () => {
    const rec = answered(true, 201, { name: "ana", rank: 3, total: 40 });
    assert.deepEqual([rec.state, rec.name, rec.rank, rec.total], ["sent", "ana", 3, 40]);
    assert.equal("replay" in rec, false);
  });

  test("a kept score keeps its board row's number (the entry), which marks it on every board", () => {
    assert.equal(answered(true, 201, { name: "ana", rank: 3, total: 40, entry: 17 }).entry, 17);
    assert.equal(answered(true, 201, { name: "ana" }).entry, null);
  });

  test("a refusal keeps the replay and says why", () => {
    const rec = answered(false, 422, { error: "implausible_play", message: "too fast" });
    assert.equal(rec.state, "refused");
    assert.deepEqual(rec.error, { status: 422, code: "implausible_play", message: "too fast" });
    assert.deepEqual(rec.replay, REPLAY);
    assert.equal(awaitsName(rec), false);
  });

  test("a name refusal waits for another name, and goes again with the same id", () => {
    const refused = answered(false, 409, { error: "name_taken" });
    assert.equal(awaitsName(refused), true);
    const again = recordAfter(refused, { type: "queue", name: "Bea", at: 3_000 });
    assert.deepEqual([again.state, again.id, again.name, again.error], ["queued", "abc", "Bea", null]);
  });

  test("does not change the record it was given", () => {
    const rec = queued();
    const copy = structuredClone(rec);
    recordAfter(rec, { type: "answer", answer: { ok: true, status: 201, body: {} } });
    assert.deepEqual(rec, copy);
  });
});

describe("steps that cannot happen are refused", () => {
  test("a sent score is not sent again; only a queued one has an answer", () => {
    const sent = answered(true, 201, {});
    assert.throws(() => recordAfter(sent, { type: "queue", name: "Ana", at: 1 }), /sent score is not sent again/);
    assert.throws(() => recordAfter(draft(), { type: "answer", answer: { ok: true } }), /draft score has no answer/);
    assert.throws(() => recordAfter(draft(), { type: "resend" }), /unknown score record event "resend"/);
  });
});

describe("the status line", () => {
  test("with no record: the waiting draft, else an invitation to play today's, else nothing", () => {
    assert.deepEqual(statusOf({ rec: null, waiting: draft(), ...LIVE }), {
      key: "leaderboard.status.draft",
      params: { score: 41_250 },
      state: "draft",
    });
    assert.equal(statusOf({ rec: null, canPlay: true, ...LIVE }).key, "leaderboard.status.play");
    assert.equal(statusOf({ rec: null, ...LIVE }).key, null);
  });

  test("a queued score: sending, retrying after a flush that reached the server, queued when offline", () => {
    const rec = queued();
    assert.equal(statusOf({ rec, ...LIVE, sending: true }).key, "leaderboard.status.sending");
    assert.equal(statusOf({ rec, ...LIVE, lastFlush: { offline: false } }).key, "leaderboard.status.retrying");
    assert.equal(statusOf({ rec, ...LIVE, lastFlush: { offline: true } }).key, "leaderboard.status.queued");
    assert.equal(statusOf({ rec, ...LIVE, sending: true, online: false }).key, "leaderboard.status.queued");
  });

  test("a queued score the board already lists reads as sent, with the board's rank and size", () => {
    const status = statusOf({ rec: queued(), you: { rank: 7 }, total: 50, ...LIVE });
    assert.deepEqual(status, {
      key: "leaderboard.status.sent",
      params: { score: 41_250, rank: 7, total: 50 },
      state: "sent",
    });
  });

  test("a sent score without a known rank says so", () => {
    const rec = answered(true, 201, {});
    assert.equal(statusOf({ rec, ...LIVE }).key, "leaderboard.status.sentNoRank");
  });

  test("a refusal's reason: the panel's own words, the judge's code, or the server's message", () => {
    const reason = (status, body) => statusOf({ rec: answered(false, status, body), ...LIVE }).params.reason;
    assert.deepEqual(reason(409, { error: "name_taken" }), { key: "leaderboard.reason.name_taken", params: {} });
    assert.deepEqual(reason(422, { error: "too_fast_daily" }), {
      key: "leaderboard.reason.unverified",
      params: { code: "too_fast_daily" },
    });
    assert.deepEqual(reason(413, { message: "too big" }), {
      key: "leaderboard.reason.other",
      params: { message: "too big" },
    });
    assert.deepEqual(reason(400, null), { key: "leaderboard.reason.other", params: { message: "HTTP 400" } });
  });
});

describe("refusals of issue 29 keep the score and say the true reason", () => {
  test("a copy refusal stays in the records, naming the entry it copies; never 'another tab'", () => {
    const rec = answered(false, 409, {
      error: "duplicate_record",
      entry: 17,
      message: "This game's timing is that of entry 17, ...",
    });
    assert.deepEqual([rec.state, rec.score, rec.error.entry], ["refused", 41_250, 17]);
    assert.deepEqual(reasonOf(rec.error), { key: "leaderboard.reason.duplicate_record", params: { entry: 17 } });
    assert.equal(awaitsName(rec), false);
  });

  test("a copy refusal that names no entry says so in words, not with a placeholder", () => {
    const rec = answered(false, 409, { error: "duplicate_record", message: "entry 17 in the text only" });
    assert.equal(rec.error.entry, undefined); // the entry is a field of the answer, never read from its text
    assert.deepEqual(reasonOf(rec.error), { key: "leaderboard.reason.duplicate_recordUnnamed", params: {} });
  });

  test("one entry a day per device has its own words", () => {
    const rec = answered(false, 409, { error: "player_entered", message: "one daily game a day" });
    assert.deepEqual(reasonOf(rec.error), { key: "leaderboard.reason.player_entered", params: {} });
  });

  test("a name refused by the server keeps its reason, words of its own, and waits for another name", () => {
    const rec = answered(false, 400, { error: "invalid_name", reason: "offensive", message: "no" });
    assert.equal(rec.error.reason, "offensive");
    assert.deepEqual(reasonOf(rec.error), { key: "leaderboard.nameRefused.offensive", params: {} });
    assert.equal(awaitsName(rec), true);
    assert.equal(nameRefusalKey("mixed_scripts"), "leaderboard.nameRefused.mixed_scripts");
    assert.equal(nameRefusalKey("character"), "leaderboard.nameInvalid");
    assert.equal(nameRefusalKey("empty"), "leaderboard.nameEmpty");
  });
});

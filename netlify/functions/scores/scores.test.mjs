// The scores function against the real local Netlify Blobs server and engine replays made in CPython.
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { ScoreStore, TOP } from "./store.mjs";
import { MAX_BODY_BYTES, normalizeName } from "./submission.mjs";
import {
  datesAround, getRequest, newDataDir, newId, ORIGIN, postRequest, pythonReplays, sharedTestEngine, startTestApi,
  storedSubmissionCount,
} from "./fixtures.mjs";

const NOW = Date.now();
const DATES = datesAround(NOW);
// reaction_ms:flip_ms of the simulated human; each a different daily game of the same deal.
const PLAYS = ["250:300", "300:250", "200:200", "350:300", "300:400", "400:300", "250:350", "220:260"];

let todays;
let yesterdays;
let api;

before(async () => {
  todays = pythonReplays(DATES.today, PLAYS);
  yesterdays = pythonReplays(DATES.yesterday, ["250:300"]);
  await sharedTestEngine();
  api = await startTestApi({ nowMs: NOW });
});

after(async () => {
  await api?.close();
  api?.remove();
});

const play = (index = 0) => todays.plays[index];
const submission = (overrides = {}, index = 0) => ({
  id: newId(), name: "Ada", date: DATES.today, score: play(index).score, replay: play(index).replay, ...overrides,
});

async function send(request, target = api) {
  const response = await target.handle(request);
  return { status: response.status, headers: response.headers, body: await response.json() };
}

const post = (body, options, target) => send(postRequest(body, options), target);
const board = (query, target) => send(getRequest(query), target);

/** Asserts the status and error code, and that nothing new was stored. */
async function assertRejected(request, status, code) {
  const storedBefore = storedSubmissionCount(api.dataDir);
  const { status: got, body, headers } = await send(request);
  assert.deepEqual({ status: got, error: body.error }, { status, error: code }, body.message);
  assert.equal(typeof body.message, "string");
  assert.equal(headers.get("cache-control"), "no-store");
  assert.equal(storedSubmissionCount(api.dataDir), storedBefore);
}

describe("accepting a daily score", () => {
  test("a finished daily game replayed to the claimed score is stored and ranked", async () => {
    const sent = submission({ name: "  Ada  " });
    const { status, body, headers } = await post(sent);
    assert.equal(status, 201);
    assert.equal(headers.get("cache-control"), "no-store");
    assert.equal(body.ok, true);
    assert.equal(body.repeated, false);
    assert.equal(body.name, "Ada");
    assert.equal(body.score, sent.score);
    assert.equal(body.duration_ms, play().verdict.result.duration_ms);
    assert.equal(body.wrong_slaps, play().verdict.wrong_slaps);
    assert.ok(body.rank >= 1 && body.rank <= body.total);
    const { body: view } = await board({ date: DATES.today, id: sent.id });
    assert.equal(view.you.name, "Ada");
    assert.equal(view.you.id, sent.id);
  });

  test("yesterday's daily game is accepted (finished after midnight, or sent from offline)", async () => {
    const yesterday = yesterdays.plays[0];
    const { status } = await post({ id: newId(), name: "Owl", date: DATES.yesterday, score: yesterday.score,
      replay: yesterday.replay });
    assert.equal(status, 201);
  });

  test("names are NFC-normalised, trimmed, and may use any script", async () => {
    const names = [["Zoe\u0308", "Zoë"], ["김민준", "김민준"], ["Nguyễn Văn-An", "Nguyễn Văn-An"],
      ["  عائشہ  ", "عائشہ"], ["O'Neil_2.0", "O'Neil_2.0"], ["a   b", "a b"]];
    for (const [raw, stored] of names) {
      const { status, body } = await post(submission({ name: raw }));
      assert.equal(status, 201, raw);
      assert.equal(body.name, stored);
    }
  });
});

describe("rejecting bad input, storing nothing", () => {
  const raw = (text, contentType = "application/json") => postRequest(text, { contentType });

  test("not JSON", () => assertRejected(raw("{id: 1"), 400, "invalid_json"));
  test("not UTF-8", () => assertRejected(raw(new Uint8Array([0x7b, 0xff, 0x7d])), 400, "invalid_json"));
  test("wrong content type", () => assertRejected(raw(JSON.stringify(submission()), "text/plain"), 415,
    "unsupported_media_type"));
  test("no content type", () => assertRejected(new Request(`${ORIGIN}/api/scores`, {
    method: "POST", body: new Blob([JSON.stringify(submission())]) }), 415, "unsupported_media_type"));
  test("body over 64 KiB", () => assertRejected(raw(`{"pad":"${"x".repeat(MAX_BODY_BYTES)}"}`), 413,
    "payload_too_large"));
  test("body over 64 KiB under a Content-Length that lies", () => {
    const huge = new TextEncoder().encode(`{"pad":"${"x".repeat(4 * MAX_BODY_BYTES)}"}`);
    const stream = new ReadableStream({
      start(controller) {
        for (let at = 0; at < huge.length; at += 8192) controller.enqueue(huge.slice(at, at + 8192));
        controller.close();
      },
    });
    const request = new Request(`${ORIGIN}/api/scores`, {
      method: "POST", body: stream, duplex: "half", headers: { "content-type": "application/json" },
    });
    Object.defineProperty(request, "headers", { value: new Headers({ "content-type": "application/json",
      "content-length": "100" }) });
    return assertRejected(request, 413, "payload_too_large");
  });
  test("a JSON array instead of an object", () => assertRejected(raw("[1,2]"), 400, "invalid_body"));
  test("a missing field", () => {
    const { replay, ...rest } = submission();
    return assertRejected(postRequest(rest), 400, "missing_field");
  });
  test("an extra field", () => assertRejected(postRequest({ ...submission(), admin: true }), 400, "unknown_field"));
  test("score as a string", () => assertRejected(postRequest(submission({ score: "1806" })), 400, "invalid_type"));
  test("score not an integer", () => assertRejected(postRequest(submission({ score: 10.5 })), 400, "invalid_type"));
  test("negative score", () => assertRejected(postRequest(submission({ score: -1 })), 400, "invalid_type"));
  test("replay as a string", () => assertRejected(postRequest(submission({ replay: "{}" })), 400, "invalid_type"));
  test("name as a number", () => assertRejected(postRequest(submission({ name: 7 })), 400, "invalid_type"));
  test("a replay nested absurdly deep", () => {
    const text = JSON.stringify(submission()).replace('"replay":{', `"replay":{"deep":${"[".repeat(30000)}${
      "]".repeat(30000)},`);
    return assertRejected(raw(text), 400, "invalid_type");
  });
  test("an id too short", () => assertRejected(postRequest(submission({ id: "abc" })), 400, "invalid_id"));
  test("an id with other characters", () => assertRejected(postRequest(submission({ id: "x".repeat(20) + "/.." })),
    400, "invalid_id"));
  test("an empty name (after trimming)", () => assertRejected(postRequest(submission({ name: "   " })), 400,
    "invalid_name"));
  test("a name over 20 characters", () => assertRejected(postRequest(submission({ name: "n".repeat(21) })), 400,
    "invalid_name"));
  test("a name with a control character", () => assertRejected(postRequest(submission({ name: "Ada\u0007" })), 400,
    "invalid_name"));
  test("a name with markup", () => assertRejected(postRequest(submission({ name: "<b>Ada</b>" })), 400,
    "invalid_name"));
  test("a name with a bidi override", () => assertRejected(postRequest(submission({ name: "Ada\u202e" })), 400,
    "invalid_name"));
  test("a badly written date", () => assertRejected(postRequest(submission({ date: "30/11/2026" })), 400,
    "invalid_date"));
  test("a date that is no calendar day", () => assertRejected(postRequest(submission({ date: "2026-02-30" })), 400,
    "invalid_date"));
  test("tomorrow's date", () => assertRejected(postRequest(submission({ date: DATES.tomorrow })), 400,
    "date_out_of_window"));
  test("the day before yesterday", () => assertRejected(postRequest(submission({ date: DATES.older })), 400,
    "date_out_of_window"));
  test("a practice game", () => assertRejected(postRequest(submission({
    replay: todays.practice.replay, score: todays.practice.verdict.result.score })), 422, "not_daily"));
  test("yesterday's game sent as today's", () => assertRejected(postRequest(submission({
    replay: yesterdays.plays[0].replay, score: yesterdays.plays[0].score })), 422, "date_mismatch"));
  test("an older engine version", () => assertRejected(postRequest(submission({
    replay: { ...play().replay, engine: "0.9.0" } })), 422, "engine_version"));
  test("fast CPU speed", () => assertRejected(postRequest(submission({ replay: { ...play().replay, speed: "fast" } })),
    422, "not_standard"));
  test("the lenient house rule", () => assertRejected(postRequest(submission({
    replay: { ...play().replay, lenient: true } })), 422, "not_standard"));
  test("a tampered replay", () => assertRejected(postRequest(submission({ replay: todays.tampered.replay })), 422,
    "invalid_replay"));
  test("an empty replay object", () => assertRejected(postRequest(submission({ replay: {} })), 422,
    "invalid_replay"));
  test("a replay with an unknown field", () => assertRejected(postRequest(submission({
    replay: { ...play().replay, bonus: 1 } })), 422, "invalid_replay"));
  test("an unfinished game", () => assertRejected(postRequest(submission({ replay: todays.unfinished.replay })), 422,
    "unfinished"));
  test("a claimed score the replay does not make", () => assertRejected(postRequest(submission({
    score: play().score + 1 })), 422, "score_mismatch"));
  test("a valid slap faster than 100 ms after its card", () => assertRejected(postRequest(submission({
    replay: todays.too_fast.replay, score: todays.too_fast.score })), 422, "impossible_play"));
  test("another path under /api/scores", () => assertRejected(new Request(`${ORIGIN}/api/scores/admin`, {
    method: "POST", body: "{}", headers: { "content-type": "application/json" } }), 404, "not_found"));
  for (const method of ["PUT", "DELETE", "PATCH", "OPTIONS"]) {
    test(`method ${method}`, async () => {
      const response = await api.handle(new Request(`${ORIGIN}/api/scores`, { method }));
      assert.equal(response.status, 405);
      assert.equal(response.headers.get("allow"), "GET, POST");
      assert.equal((await response.json()).error, "method_not_allowed");
    });
  }
});

describe("retries are idempotent", () => {
  test("the same id and content twice: one entry, the same answer", async () => {
    const sent = submission({}, 1);
    const first = await post(sent);
    const totalAfterFirst = (await board({ date: DATES.today })).body.total;
    const second = await post(sent);
    assert.equal(first.status, 201);
    assert.equal(second.status, 200);
    assert.deepEqual({ ...second.body, repeated: false }, { ...first.body, total: totalAfterFirst });
    assert.equal((await board({ date: DATES.today })).body.total, totalAfterFirst);
  });

  test("the same id with other content is refused and changes nothing", async () => {
    const sent = submission({}, 2);
    assert.equal((await post(sent)).status, 201);
    await assertRejected(postRequest({ ...sent, name: "Mallory" }), 409, "id_conflict");
    const { body } = await board({ date: DATES.today, id: sent.id });
    assert.equal(body.you.name, "Ada");
  });

  test("the same id on two concurrent requests: stored once", async () => {
    const sent = submission({}, 3);
    const answers = await Promise.all([post(sent), post(sent), post(sent)]);
    assert.deepEqual(answers.map((answer) => answer.status).sort(), [200, 200, 201]);
    const { body } = await board({ date: DATES.today, id: sent.id });
    assert.equal(body.you.id, sent.id);
    assert.equal(new Set(answers.map((answer) => answer.body.received_at)).size, 1);
  });
});

describe("the leaderboard", () => {
  test("orders by score, ties by earlier submission; ranks; no one else's id", async () => {
    const fresh = await startTestApi({ nowMs: NOW });
    try {
      const order = [0, 1, 2, 3, 0, 4, 5, 1];
      const ids = [];
      for (const index of order) {
        const sent = submission({ name: `P${ids.length}` }, index);
        ids.push(sent.id);
        assert.equal((await post(sent, undefined, fresh)).status, 201);
      }
      const { status, headers, body } = await board({ date: DATES.today }, fresh);
      assert.equal(status, 200);
      assert.match(headers.get("cache-control"), /public, max-age=5/);
      const expected = order.map((index, at) => ({ name: `P${at}`, score: play(index).score, at }))
        .sort((a, b) => b.score - a.score || a.at - b.at);
      assert.deepEqual(body.entries.map((entry) => [entry.rank, entry.name, entry.score]),
        expected.map((entry, at) => [at + 1, entry.name, entry.score]));
      assert.equal(body.total, order.length);
      assert.equal(body.you, null);
      assert.ok(body.entries.every((entry) => !("id" in entry) && !("you" in entry)));
      const mine = await board({ date: DATES.today, id: ids[4] }, fresh);
      const own = mine.body.entries.filter((entry) => entry.you);
      assert.deepEqual(own.map((entry) => entry.id), [ids[4]]);
      assert.equal(mine.body.you.name, "P4");
      assert.ok(mine.body.entries.filter((entry) => !entry.you).every((entry) => !("id" in entry)));
    } finally {
      await fresh.close();
      fresh.remove();
    }
  });

  test("100 concurrent submissions: none lost; your rank even outside the top 50", async () => {
    const fresh = await startTestApi({ nowMs: NOW });
    try {
      const sent = Array.from({ length: 100 }, (_, at) => submission({ name: `C${at}` }, at % PLAYS.length));
      const answers = await Promise.all(sent.map((body) => post(body, undefined, fresh)));
      assert.deepEqual(answers.filter((answer) => answer.status !== 201), []);
      const { body } = await board({ date: DATES.today }, fresh);
      assert.equal(body.total, 100);
      assert.equal(body.entries.length, TOP);
      for (const one of sent) {
        const { body: view } = await board({ date: DATES.today, id: one.id }, fresh);
        assert.equal(view.you?.id, one.id);
      }
      const lowest = body.entries.at(-1).score;
      const below = sent.find((one) => one.score < lowest);
      const { body: view } = await board({ date: DATES.today, id: below.id }, fresh);
      assert.ok(view.you.rank > TOP);
    } finally {
      await fresh.close();
      fresh.remove();
    }
  });

  test("today and yesterday only", async () => {
    assert.equal((await board({ date: DATES.today })).status, 200);
    assert.equal((await board({ date: DATES.yesterday })).status, 200);
    for (const [date, code] of [[DATES.tomorrow, "date_out_of_window"], [DATES.older, "date_out_of_window"],
      ["2026-13-01", "invalid_date"]]) {
      const { status, body } = await board({ date });
      assert.deepEqual([status, body.error], [400, code], date);
    }
    const missing = await send(new Request(`${ORIGIN}/api/scores`));
    assert.deepEqual([missing.status, missing.body.error], [400, "invalid_date"]);
  });

  test("a malformed id in the query is refused", async () => {
    const { status, body } = await board({ date: DATES.today, id: "../x" });
    assert.deepEqual([status, body.error], [400, "invalid_id"]);
  });

  test("survives a restart, and is rebuilt from the submissions if its blob is lost", async () => {
    const dataDir = newDataDir();
    const first = await startTestApi({ nowMs: NOW, dataDir });
    const sent = [submission({ name: "R1" }, 0), submission({ name: "R2" }, 1)];
    for (const one of sent) assert.equal((await post(one, undefined, first)).status, 201);
    const before = (await board({ date: DATES.today }, first)).body;
    await first.close();
    const second = await startTestApi({ nowMs: NOW, dataDir, boardCacheMs: 0 });
    try {
      assert.deepEqual((await board({ date: DATES.today }, second)).body, before);
      rmSync(path.join(dataDir, "entries", "ewar-local", "site:ewar-leaderboards", DATES.today));
      assert.deepEqual((await board({ date: DATES.today }, second)).body, before);
    } finally {
      await second.close();
      second.remove();
    }
  });
});

describe("failures answer 503, never 500", () => {
  test("an engine that does not load: POST 503 with a JSON error, GET still works", async () => {
    const broken = await startTestApi({ nowMs: NOW, getEngine: () => Promise.reject(new Error("no wheel")) });
    try {
      const { status, body, headers } = await post(submission(), undefined, broken);
      assert.deepEqual([status, body.error, headers.get("retry-after")], [503, "unavailable", "2"]);
      assert.equal((await board({ date: DATES.today }, broken)).status, 200);
    } finally {
      await broken.close();
      broken.remove();
    }
  });
});

/** An in-memory store with atomic conditional writes, to test the compare-and-swap loop itself. */
class AtomicMemoryStore {
  blobs = new Map();
  version = 0;
  conflictsToInject = 0;

  async get(key) {
    return this.blobs.has(key) ? JSON.parse(this.blobs.get(key).data) : null;
  }

  async getWithMetadata(key) {
    await new Promise((resolve) => setImmediate(resolve));
    const blob = this.blobs.get(key);
    return blob ? { data: JSON.parse(blob.data), etag: blob.etag, metadata: {} } : null;
  }

  async set(key, data, { onlyIfNew, onlyIfMatch } = {}) {
    await new Promise((resolve) => setImmediate(resolve));
    const current = this.blobs.get(key);
    if (this.conflictsToInject > 0 && onlyIfMatch) {
      this.conflictsToInject -= 1;
      return { modified: false };
    }
    if ((onlyIfNew && current) || (onlyIfMatch && current?.etag !== onlyIfMatch)) return { modified: false };
    this.version += 1;
    this.blobs.set(key, { data, etag: `"${this.version}"` });
    return { modified: true, etag: `"${this.version}"` };
  }

  async list({ prefix }) {
    return { blobs: [...this.blobs.keys()].filter((key) => key.startsWith(prefix)).map((key) => ({ key })),
      directories: [] };
  }
}

describe("the leaderboard's compare-and-swap", () => {
  const record = (at) => ({ id: `id-${String(at).padStart(16, "0")}`, name: `N${at}`, date: DATES.today,
    score: 1000 + (at % 7), duration_ms: 1, wrong_slaps: 0, won: true, received_at: NOW + at });

  test("a conflicting write is retried", async () => {
    const stores = { submissions: new AtomicMemoryStore(), boards: new AtomicMemoryStore() };
    const store = new ScoreStore(stores);
    await store.addToBoard(record(0));
    stores.boards.conflictsToInject = 3;
    const board = await store.addToBoard(record(1));
    assert.equal(board.entries.length, 2);
    assert.equal(stores.boards.conflictsToInject, 0);
  });

  test("four instances (separate queues) adding 200 entries at once lose none", async () => {
    const stores = { submissions: new AtomicMemoryStore(), boards: new AtomicMemoryStore() };
    const instances = Array.from({ length: 4 }, () => new ScoreStore(stores));
    const records = Array.from({ length: 200 }, (_, at) => record(at));
    await Promise.all(records.map((one, at) => instances[at % 4].addToBoard(one)));
    const board = await new ScoreStore(stores, { cacheMs: 0 }).board(DATES.today);
    assert.equal(board.entries.length, 200);
    assert.equal(new Set(board.entries.map((entry) => entry.seq)).size, 200);
  });

  test("normalizeName refuses what is not a name", () => {
    for (const bad of ["", " ", "😀", "a\nb", "a&b", "<", "\u0301a"]) assert.equal(normalizeName(bad), null, bad);
  });
});

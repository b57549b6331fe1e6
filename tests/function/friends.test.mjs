// The friends' boards API against a real PostgreSQL server (EWAR_TEST_DATABASE_URL, a fresh database per API), with
// the stand-in judge for daily entries and a clock the tests move.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { IDLE_DAYS, MEMBER_LIMIT } from "../../netlify/database/friends-store.mjs";
import { config as friendsConfig } from "../../netlify/functions/friends/friends.mjs";
import { createPruneHandler } from "../../netlify/functions/prune/handler.mjs";
import { startLocalApi } from "../../netlify/local.mjs";
import {
  assertRefusal,
  newId,
  ORIGIN,
  postRequest,
  standInEngine,
  standInReplay,
} from "../../tools/harness/fixtures.mjs";
import { freshDatabase } from "../../tools/harness/testdb.mjs";
import { utcDay } from "../../web/common/contract.js";

const DAY_MS = 86_400_000;
const START = Math.floor(Date.now() / DAY_MS) * DAY_MS + 12 * 3_600_000;

/** A local API over a fresh database whose clock is `clock.ms` (tests move it). */
async function startClockedApi({ rateLimit = false } = {}) {
  const database = await freshDatabase();
  const clock = { ms: START };
  const api = await startLocalApi({
    database: database.pool,
    getEngine: async () => standInEngine(),
    clock: { now: () => clock.ms },
    rateLimit,
  });
  return {
    ...api,
    clock,
    pool: database.pool,
    async remove() {
      await api.close();
      await database.drop();
    },
    /** The hourly scheduled chores, run now (by the fake clock). */
    async chores() {
      const prune = createPruneHandler({ database: () => database.pool, clock: { now: () => clock.ms } });
      const answer = await prune(new Request("http://127.0.0.1/.netlify/functions/prune", { method: "POST" }));
      assert.equal(answer.status, 200);
      return answer.json();
    },
    async counts() {
      const { rows } = await database.pool.query(`SELECT (SELECT count(*) FROM friend_boards)::int AS boards,
        (SELECT count(*) FROM friend_members)::int AS members`);
      return rows[0];
    },
  };
}

let api;
before(async () => {
  api = await startClockedApi();
});
after(async () => {
  await api?.remove();
});

function friendsRequest(method, route, body, { contentType = "application/json" } = {}) {
  const init = { method, headers: { "content-type": contentType } };
  if (body !== undefined) init.body = typeof body === "string" ? body : JSON.stringify(body);
  return new Request(`${ORIGIN}/api/friends${route}`, init);
}

async function send(request, target = api) {
  const response = await target.handle(request);
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: JSON.parse(text) };
}

const newPlayer = () => newId("p");
const createBoard = (name, player, target) => send(friendsRequest("POST", "", { name, player }), target);
const join = (code, player, target) => send(friendsRequest("PUT", `/${code}/members`, { player }), target);
const leave = (code, player, target) => send(friendsRequest("DELETE", `/${code}/members`, { player }), target);
const read = (code, date = utcDay(api.clock.ms), target = api) =>
  send(new Request(`${ORIGIN}/api/friends/${code}?${new URLSearchParams({ date })}`), target);

let names = 0;
/** Posts a daily stand-in entry of `score` for `player` (or none): the answer's body. */
async function postEntry(player, score, { won = true, target = api } = {}) {
  names += 1;
  const body = {
    id: newId(),
    name: `Friend ${names}`,
    date: utcDay(target.clock.ms),
    score,
    replay: standInReplay({ score, won }),
    ...(player === undefined ? {} : { player }),
  };
  const response = await send(postRequest(body), target);
  assert.equal(response.status, 201, response.body.message);
  return response.body;
}

/** Asserts the status and code of a refusal, and that no board or member row came or went. */
const assertRefused = (request, status, code, target = api) =>
  assertRefusal((r) => send(r, target), request, { status, code, rows: () => target.counts() });

describe("creating a board", () => {
  test("a board named by the name rules: its share code, its name, its creator its one member", async () => {
    const { status, body } = await createBoard("  The   Café ", newPlayer());
    assert.equal(status, 201, body.message);
    assert.match(body.code, /^[a-z2-7]{12}$/);
    assert.equal(body.name, "The Café");
    assert.deepEqual(Object.keys(body).sort(), ["code", "name"]);
    const { body: board } = await read(body.code);
    assert.deepEqual([board.name, board.members, board.entries], ["The Café", 1, []]);
  });

  test("two boards get two codes", async () => {
    const player = newPlayer();
    const first = await createBoard("One", player);
    const second = await createBoard("One", player);
    assert.notEqual(first.body.code, second.body.code);
  });

  test("a name the rules refuse is invalid_name", async () => {
    for (const name of ["", "   ", "x".repeat(21), "<b>hi</b>", "a\u202eb"]) {
      await assertRefused(friendsRequest("POST", "", { name, player: newPlayer() }), 400, "invalid_name");
    }
  });

  test("a malformed body says what is wrong, with its own code", async () => {
    const player = newPlayer();
    await assertRefused(friendsRequest("POST", "", { name: "Crew", player: "short" }), 400, "invalid_player");
    await assertRefused(
      friendsRequest("POST", "", { name: "Crew", player: `${"a".repeat(15)}!` }),
      400,
      "invalid_player",
    );
    await assertRefused(friendsRequest("POST", "", { name: "Crew", player: 1234567890123456 }), 400, "invalid_player");
    await assertRefused(friendsRequest("POST", "", { name: "Crew" }), 400, "missing_field");
    await assertRefused(friendsRequest("POST", "", { name: "Crew", player, members: [] }), 400, "unknown_field");
    await assertRefused(friendsRequest("POST", "", "[1, 2]"), 400, "invalid_body");
    await assertRefused(friendsRequest("POST", "", "{name"), 400, "invalid_json");
    await assertRefused(
      friendsRequest("POST", "", { name: "Crew", player }, { contentType: "text/plain" }),
      415,
      "unsupported_media_type",
    );
    await assertRefused(
      friendsRequest("POST", "", { name: "Crew", player: "x".repeat(2000) }),
      413,
      "payload_too_large",
    );
  });

  test("only the player id's hash is stored, never the id", async () => {
    const player = newPlayer();
    const { body } = await createBoard("Hashed", player);
    const { rows } = await api.pool.query("SELECT player_sha256 FROM friend_members WHERE code = $1", [body.code]);
    assert.deepEqual(
      rows.map((row) => row.player_sha256),
      [createHash("sha256").update(player).digest()],
    );
    const { rows: text } = await api.pool.query(
      "SELECT count(*)::int AS n FROM friend_members m JOIN friend_boards b USING (code) WHERE b::text LIKE $1 OR m::text LIKE $1",
      [`%${player}%`],
    );
    assert.equal(text[0].n, 0);
  });
});

describe("joining and leaving", () => {
  test("joining is idempotent: 201 the first time, 200 after, one membership", async () => {
    const { body: board } = await createBoard("Crew", newPlayer());
    const friend = newPlayer();
    const first = await join(board.code, friend);
    assert.deepEqual([first.status, first.body], [201, { code: board.code, name: "Crew", joined: true }]);
    const again = await join(board.code, friend);
    assert.deepEqual([again.status, again.body], [200, { code: board.code, name: "Crew", joined: false }]);
    assert.equal((await read(board.code)).body.members, 2);
  });

  test("a code no board has is not_found; a code of the wrong shape is invalid_code", async () => {
    await assertRefused(friendsRequest("PUT", "/aaaaaaaaaaaa/members", { player: newPlayer() }), 404, "not_found");
    for (const code of ["AAAAAAAAAAAA", "aaaaaaaaaaa", "aaaaaaaaaaaaa", "aaaaaaaaaaa1", "aaaaaaaaaaa%"]) {
      await assertRefused(
        friendsRequest("PUT", `/${encodeURIComponent(code)}/members`, { player: newPlayer() }),
        400,
        "invalid_code",
      );
    }
    await assertRefused(
      new Request(`${ORIGIN}/api/friends/aaaaaaaaaaaa?date=${utcDay(api.clock.ms)}`),
      404,
      "not_found",
    );
  });

  test("a join or a leave without a good player id is refused and changes nothing", async () => {
    const { body: board } = await createBoard("Strict", newPlayer());
    await assertRefused(friendsRequest("PUT", `/${board.code}/members`, { player: "no" }), 400, "invalid_player");
    await assertRefused(friendsRequest("PUT", `/${board.code}/members`, {}), 400, "missing_field");
    await assertRefused(friendsRequest("DELETE", `/${board.code}/members`, { player: null }), 400, "invalid_player");
    await assertRefused(
      friendsRequest("PUT", `/${board.code}/members`, { player: newPlayer(), name: "x" }),
      400,
      "unknown_field",
    );
  });

  test("leaving: 200, then not a member (404); the last member out deletes the board", async () => {
    const owner = newPlayer();
    const friend = newPlayer();
    const { body: board } = await createBoard("Brief", owner);
    await join(board.code, friend);
    const left = await leave(board.code, friend);
    assert.deepEqual([left.status, left.body], [200, { code: board.code, left: true }]);
    await assertRefused(friendsRequest("DELETE", `/${board.code}/members`, { player: friend }), 404, "not_found");
    assert.equal((await read(board.code)).body.members, 1);
    assert.equal((await leave(board.code, owner)).status, 200);
    assert.equal((await read(board.code)).status, 404);
    const { rows } = await api.pool.query("SELECT count(*)::int AS n FROM friend_boards WHERE code = $1", [board.code]);
    assert.equal(rows[0].n, 0);
    await assertRefused(friendsRequest("PUT", `/${board.code}/members`, { player: friend }), 404, "not_found");
  });

  test(`a board holds ${MEMBER_LIMIT} members: the next is board_full, a member joining again still 200`, async () => {
    const owner = newPlayer();
    const { body: board } = await createBoard("Full house", owner);
    for (let member = 2; member <= MEMBER_LIMIT; member += 1) {
      assert.equal((await join(board.code, newPlayer())).status, 201);
    }
    const refused = await assertRefused(
      friendsRequest("PUT", `/${board.code}/members`, { player: newPlayer() }),
      409,
      "board_full",
    );
    assert.match(refused.message, /50/);
    assert.equal((await join(board.code, owner)).status, 200);
    assert.equal((await read(board.code)).body.members, MEMBER_LIMIT);
  });

  test("concurrent joins at the limit: exactly the free places are taken, the rest board_full", async () => {
    const { body: board } = await createBoard("Race", newPlayer());
    for (let member = 2; member <= MEMBER_LIMIT - 3; member += 1) await join(board.code, newPlayer());
    const answers = await Promise.all(Array.from({ length: 20 }, () => join(board.code, newPlayer())));
    const statuses = answers.map((answer) => answer.status).sort();
    assert.deepEqual(statuses, [...Array(3).fill(201), ...Array(17).fill(409)]);
    const { rows } = await api.pool.query(
      `SELECT b.members, (SELECT count(*)::int FROM friend_members m WHERE m.code = b.code) AS rows
       FROM friend_boards b WHERE code = $1`,
      [board.code],
    );
    assert.deepEqual(rows[0], { members: MEMBER_LIMIT, rows: MEMBER_LIMIT });
  });

  test("one player joining many times at once is one member", async () => {
    const { body: board } = await createBoard("Echo", newPlayer());
    const friend = newPlayer();
    const answers = await Promise.all(Array.from({ length: 10 }, () => join(board.code, friend)));
    assert.deepEqual(answers.map((answer) => answer.status).sort(), [200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    assert.equal((await read(board.code)).body.members, 2);
  });

  test("other methods are 405 with Allow; other paths 404", async () => {
    const code = (await createBoard("Methods", newPlayer())).body.code;
    const refused = await send(friendsRequest("GET", `/${code}/members`));
    assert.deepEqual(
      [refused.status, refused.body.error, refused.headers.get("allow")],
      [405, "method_not_allowed", "PUT, DELETE"],
    );
    assert.equal((await send(friendsRequest("DELETE", `/${code}`, { player: newPlayer() }))).status, 405);
    assert.equal((await send(friendsRequest("PUT", `/${code}/members/extra`, {}))).status, 404);
  });
});

describe("a friends' board's entries", () => {
  test("the day's entries of its members, ranked as on the global board, and no one else's", async () => {
    const [ana, ben, cy, outsider] = [newPlayer(), newPlayer(), newPlayer(), newPlayer()];
    const { body: board } = await createBoard("Family", ana);
    await join(board.code, ben);
    await join(board.code, cy);
    const anaEntry = await postEntry(ana, 1500);
    const benEntry = await postEntry(ben, 1800);
    const cyEntry = await postEntry(cy, 900, { won: false });
    await postEntry(outsider, 1900);
    await postEntry(undefined, 1950);
    const { status, body, headers } = await read(board.code);
    assert.equal(status, 200);
    assert.equal(headers.get("cache-control"), "private, max-age=5");
    assert.deepEqual(Object.keys(body).sort(), ["code", "date", "entries", "members", "name"]);
    assert.deepEqual(
      body.entries.map(({ rank, entry, name, score, won }) => [rank, entry, name, score, won]),
      [
        [1, benEntry.entry, benEntry.name, 1800, true],
        [2, anaEntry.entry, anaEntry.name, 1500, true],
        [3, cyEntry.entry, cyEntry.name, 900, false],
      ],
    );
    for (const entry of body.entries) {
      assert.deepEqual(Object.keys(entry).sort(), [
        "duration_ms",
        "entry",
        "name",
        "rank",
        "score",
        "won",
        "wrong_slaps",
      ]);
    }
  });

  test("an entry counts on every board its player joined, with its rank within each", async () => {
    const [solo, rival] = [newPlayer(), newPlayer()];
    const first = (await createBoard("First", solo)).body.code;
    const second = (await createBoard("Second", rival)).body.code;
    await join(second, solo);
    const mine = await postEntry(solo, 1200);
    await postEntry(rival, 1300);
    assert.deepEqual(
      (await read(first)).body.entries.map((row) => [row.rank, row.entry]),
      [[1, mine.entry]],
    );
    assert.deepEqual(
      (await read(second)).body.entries.map((row) => row.rank),
      [1, 2],
    );
    assert.equal((await read(second)).body.entries[1].entry, mine.entry);
  });

  test("a member who left takes their entries off the board", async () => {
    const [stay, go] = [newPlayer(), newPlayer()];
    const { body: board } = await createBoard("Leavers", stay);
    await join(board.code, go);
    await postEntry(go, 1700);
    assert.equal((await read(board.code)).body.entries.length, 1);
    await leave(board.code, go);
    assert.deepEqual((await read(board.code)).body.entries, []);
  });

  test("nothing leaks: no player id, hash or submission id in any answer, nor which boards a player is on", async () => {
    const [ana, ben] = [newPlayer(), newPlayer()];
    const hashes = [ana, ben].map((player) => createHash("sha256").update(player).digest("hex"));
    const created = await createBoard("Private", ana);
    const other = await createBoard("Elsewhere", ben);
    const joined = await join(created.body.code, ben);
    const posted = await postEntry(ben, 1600);
    const board = await read(created.body.code);
    const global = await send(new Request(`${ORIGIN}/api/scores?date=${utcDay(api.clock.ms)}`));
    const answers = [created, joined, board, global].map((answer) => answer.text);
    for (const text of answers) {
      for (const secret of [ana, ben, ...hashes, posted.id, other.body.code]) assert.ok(!text.includes(secret), secret);
      assert.ok(!/player/.test(text));
    }
    assert.ok(!posted.player && !JSON.stringify(posted).includes(ben));
  });

  test("a day outside the window or a bad date is refused", async () => {
    const { body: board } = await createBoard("Dates", newPlayer());
    const bad = await read(board.code, "2026-02-30");
    assert.deepEqual([bad.status, bad.body.error], [400, "invalid_date"]);
    const old = await read(board.code, utcDay(api.clock.ms - 3 * DAY_MS));
    assert.deepEqual([old.status, old.body.error], [400, "date_out_of_window"]);
  });

  test("a daily entry with a bad player id is refused and stores nothing", async () => {
    const before = await api.pool.query("SELECT count(*)::int AS n FROM entries");
    for (const player of ["short", 42, "x".repeat(65), "has space in it here"]) {
      const { status, body } = await send(
        postRequest({
          id: newId(),
          name: "Nobody",
          date: utcDay(api.clock.ms),
          score: 1000,
          replay: standInReplay({ score: 1000 }),
          player,
        }),
      );
      assert.deepEqual([status, body.error], [400, "invalid_player"]);
    }
    const after = await api.pool.query("SELECT count(*)::int AS n FROM entries");
    assert.equal(after.rows[0].n, before.rows[0].n);
  });

  test("an entry stores its player's hash, never the id", async () => {
    const player = newPlayer();
    const posted = await postEntry(player, 1111);
    const { rows } = await api.pool.query("SELECT player_sha256, entries::text AS row FROM entries WHERE id = $1", [
      posted.id,
    ]);
    assert.deepEqual(rows[0].player_sha256, createHash("sha256").update(player).digest());
    assert.ok(!rows[0].row.includes(player));
  });
});

describe(`a board nobody used for ${IDLE_DAYS} days is removed`, () => {
  test("read, joined or posted to keeps a board; idle ones go with their members (a fake clock)", async () => {
    const clocked = await startClockedApi();
    try {
      const players = { idle: newPlayer(), read: newPlayer(), joined: newPlayer(), posted: newPlayer() };
      const codes = {};
      for (const [label, player] of Object.entries(players)) {
        codes[label] = (await createBoard(label, player, clocked)).body.code;
      }
      clocked.clock.ms += 30 * DAY_MS;
      assert.equal((await read(codes.read, utcDay(clocked.clock.ms), clocked)).status, 200);
      assert.equal((await join(codes.joined, newPlayer(), clocked)).status, 201);
      await postEntry(players.posted, 1400, { target: clocked });
      // Sixty days and an hour after the boards were made, the hourly chores ran: only the one nobody used since
      // is gone.
      clocked.clock.ms += (IDLE_DAYS - 30) * DAY_MS + 3_600_000;
      assert.equal((await clocked.chores()).boards, 1);
      const day = utcDay(clocked.clock.ms);
      const statuses = {};
      for (const label of Object.keys(players)) statuses[label] = (await read(codes[label], day, clocked)).status;
      assert.deepEqual(statuses, { idle: 404, read: 200, joined: 200, posted: 200 });
      assert.deepEqual(await clocked.counts(), { boards: 3, members: 4 });
      // Sixty days and an hour after those reads, nobody having come back: all gone, members with them.
      clocked.clock.ms += IDLE_DAYS * DAY_MS + 3_600_000;
      assert.equal((await clocked.chores()).boards, 3);
      assert.equal((await read(codes.read, utcDay(clocked.clock.ms), clocked)).status, 404);
      assert.deepEqual(await clocked.counts(), { boards: 0, members: 0 });
    } finally {
      await clocked.remove();
    }
  });

  test("the prune keeps what was used within the 60 days", async () => {
    const clocked = await startClockedApi();
    try {
      const [stale, fresh] = [newPlayer(), newPlayer()];
      const staleCode = (await createBoard("Stale", stale, clocked)).body.code;
      const freshCode = (await createBoard("Fresh", fresh, clocked)).body.code;
      clocked.clock.ms += 40 * DAY_MS;
      await postEntry(fresh, 1234, { target: clocked });
      clocked.clock.ms += (IDLE_DAYS - 40) * DAY_MS + 3_600_000;
      const day = utcDay(clocked.clock.ms);
      // The chores after the hour: the stale board is gone, the fresh one (posted to) stays.
      await clocked.chores();
      const freshBoard = await read(freshCode, day, clocked);
      assert.equal(freshBoard.status, 200);
      assert.equal((await read(staleCode, day, clocked)).status, 404);
      assert.deepEqual(await clocked.counts(), { boards: 1, members: 1 });
    } finally {
      await clocked.remove();
    }
  });
});

describe("the friends' function's own rate limit", () => {
  test("the config is literal numbers, and the local API applies it to /api/friends alone", async () => {
    assert.deepEqual(friendsConfig.rateLimit, { windowLimit: 30, windowSize: 60, aggregateBy: ["ip", "domain"] });
    const limited = await startClockedApi({ rateLimit: true });
    try {
      const statuses = [];
      for (let request = 0; request < 31; request += 1) {
        statuses.push(
          (await send(friendsRequest("PUT", "/aaaaaaaaaaaa/members", { player: newPlayer() }), limited)).status,
        );
      }
      assert.deepEqual(statuses, [...Array(30).fill(404), 429]);
      const board = await send(new Request(`${ORIGIN}/api/scores?date=${utcDay(limited.clock.ms)}`), limited);
      assert.equal(board.status, 200);
    } finally {
      await limited.remove();
    }
  });
});

describe("the local API (python build.py serve) on PGlite", () => {
  test("serves the friends' routes, the replay and the distribution from the same migrations", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "friends-pglite-"));
    const local = await startLocalApi({
      dataDir: dir,
      getEngine: async () => standInEngine(),
      clock: { now: () => START },
    });
    const target = {
      handle: (request) => local.handle(request),
      clock: { ms: START },
      counts: async () =>
        (
          await local.database.query(`SELECT (SELECT count(*) FROM friend_boards)::int AS boards,
            (SELECT count(*) FROM friend_members)::int AS members`)
        ).rows[0],
    };
    try {
      const [owner, friend] = [newPlayer(), newPlayer()];
      const { status, body: board } = await createBoard("Local", owner, target);
      assert.equal(status, 201);
      assert.equal((await join(board.code, friend, target)).status, 201);
      assert.equal((await join(board.code, friend, target)).status, 200);
      const posted = await postEntry(friend, 1550, { target });
      assert.deepEqual([posted.winners, posted.winners_below], [1, 0]);
      const day = utcDay(START);
      const { body: view } = await read(board.code, day, target);
      assert.deepEqual(
        [view.members, view.entries.map((row) => [row.rank, row.entry, row.score])],
        [2, [[1, posted.entry, 1550]]],
      );
      const replay = await send(new Request(`${ORIGIN}/api/scores/replay?date=${day}&entry=${posted.entry}`), target);
      assert.deepEqual([replay.status, replay.body.score, replay.body.replay.stand_in.score], [200, 1550, 1550]);
      const global = await send(new Request(`${ORIGIN}/api/scores?date=${day}`), target);
      assert.deepEqual(global.body.distribution, { bin: 50, wins: [[1550, 1]], losses: [] });
      assert.equal((await leave(board.code, friend, target)).status, 200);
      assert.equal((await leave(board.code, owner, target)).status, 200);
      assert.deepEqual(await target.counts(), { boards: 0, members: 0 });
    } finally {
      await local.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

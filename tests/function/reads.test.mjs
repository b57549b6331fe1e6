// Reads at scale and forget me (issue 32): the board's URL carries no player and is cached at Netlify's CDN for
// everyone, a player's own row is a small read apart, the CDN copy of a board goes when its top rows change, no
// replay is cached past its keeping; and a player id removes its entries and places from every board.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { REPLAY_DAYS, TOP } from "../../netlify/database/scores-store.mjs";
import { BOARD_CDN_CACHE, replayKeptSeconds } from "../../netlify/scores-api/handler.mjs";
import {
  getRequest,
  newId,
  ORIGIN,
  postRequest,
  standInEngine,
  standInReplay,
  startTestApi,
} from "../../tools/harness/fixtures.mjs";
import { utcDay } from "../../web/common/contract.js";

const DAY_MS = 86_400_000;
const NOW = Math.floor(Date.now() / DAY_MS) * DAY_MS + 12 * 3_600_000;
const TODAY = utcDay(NOW);
const YESTERDAY = utcDay(NOW - DAY_MS);

let api;
const purged = [];
before(async () => {
  api = await startTestApi({
    nowMs: NOW,
    getEngine: async () => standInEngine(),
    purge: async (tags) => {
      purged.push(...tags);
      return true;
    },
  });
  await api.opened;
});
after(async () => {
  await api?.close();
  await api?.remove();
});

async function send(request) {
  const response = await api.handle(request);
  return { status: response.status, headers: response.headers, body: await response.json() };
}

async function post({ score, won = true, date = TODAY, player = null, name = `Reader ${newId().slice(-10)}` }) {
  const body = { id: newId(), name, date, score, replay: standInReplay({ score, won }) };
  if (player) body.player = player;
  const answer = await send(postRequest(body));
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  return { body, answer: answer.body };
}

const forget = (body, method = "DELETE") =>
  send(
    new Request(`${ORIGIN}/api/scores/player`, {
      method,
      headers: { "content-type": "application/json" },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
  );

async function consistent() {
  const { rows } = await api.pool.query(`SELECT
    (SELECT count(*) FROM entries)::int AS entries, (SELECT coalesce(sum(entries), 0) FROM buckets)::int AS counted,
    (SELECT count(*) FROM replays)::int AS replays`);
  assert.equal(rows[0].counted, rows[0].entries, "every bucket counts exactly its entries");
  return rows[0];
}

describe("the board at the CDN", () => {
  test("the board's URL carries no player: one public answer for all, kept at the CDN, tagged by day", async () => {
    const { body } = await post({ score: 700 });
    const board = await send(getRequest({ date: TODAY }));
    assert.equal(board.status, 200);
    assert.equal(board.headers.get("cache-control"), "public, max-age=0, must-revalidate");
    assert.equal(board.headers.get("netlify-cdn-cache-control"), BOARD_CDN_CACHE);
    assert.match(BOARD_CDN_CACHE, /\bdurable\b/);
    assert.equal(board.headers.get("netlify-cache-tag"), `board-${TODAY}`);
    assert.equal(board.body.you, null);
    assert.ok(!JSON.stringify(board.body).includes(body.id), "no submission id in the shared answer");
    assert.ok(board.body.entries.every((row) => !("id" in row) && !("you" in row)));
  });

  test("a player's own row is a small read apart, kept by no CDN", async () => {
    const { body, answer } = await post({ score: 650 });
    const mine = await send(new Request(`${ORIGIN}/api/scores/rank?date=${TODAY}&id=${body.id}`));
    assert.equal(mine.status, 200);
    assert.equal(mine.headers.get("cache-control"), "private, max-age=30");
    assert.equal(mine.headers.get("netlify-cdn-cache-control"), null);
    assert.deepEqual(Object.keys(mine.body).sort(), ["date", "total", "you"]);
    assert.deepEqual(
      [mine.body.you.id, mine.body.you.rank, mine.body.you.entry, mine.body.you.you],
      [body.id, answer.rank, answer.entry, true],
    );
    const nobody = await send(new Request(`${ORIGIN}/api/scores/rank?date=${TODAY}&id=${newId()}`));
    // Not there yet (its post may be on its way): never kept, not even by the browser.
    assert.deepEqual(
      [nobody.status, nobody.body.you, nobody.headers.get("cache-control")],
      [200, null, "private, no-store"],
    );
    const noId = await send(new Request(`${ORIGIN}/api/scores/rank?date=${TODAY}`));
    assert.deepEqual([noId.status, noId.body.error], [400, "invalid_id"]);
    // The earlier form, with the id on the board's URL, is still answered, privately.
    const old = await send(getRequest({ date: TODAY, id: body.id }));
    assert.deepEqual(
      [old.status, old.headers.get("cache-control"), old.body.you.id],
      [200, "private, no-store", body.id],
    );
  });

  test("a post that enters the top rows purges the day's board at the CDN; one below them does not", async () => {
    const { rows } = await api.pool.query("SELECT count(*)::int AS n FROM entries WHERE day = $1::date", [YESTERDAY]);
    assert.equal(rows[0].n, 0);
    purged.length = 0;
    for (let at = 0; at < TOP; at += 1) await post({ score: 2000 + at, date: YESTERDAY });
    assert.equal(purged.length, TOP);
    assert.ok(purged.every((tag) => tag === `board-${YESTERDAY}`));
    purged.length = 0;
    const below = await post({ score: 5, won: false, date: YESTERDAY });
    assert.equal(below.answer.rank, TOP + 1);
    assert.deepEqual(purged, []);
  });

  test("a replay is cached no longer than it is kept", async () => {
    const { answer } = await post({ score: 640 });
    const replay = await send(new Request(`${ORIGIN}/api/scores/replay?date=${TODAY}&entry=${answer.entry}`));
    assert.equal(replay.status, 200);
    const kept = replayKeptSeconds(TODAY, NOW);
    assert.equal(kept, (REPLAY_DAYS + 1) * 86_400 - 12 * 3_600);
    // The test API's clock runs on from NOW: a few seconds less by the time it answers.
    const [, cdnSeconds] = /^public, durable, s-maxage=(\d+)$/.exec(replay.headers.get("netlify-cdn-cache-control"));
    assert.ok(Number(cdnSeconds) <= kept && Number(cdnSeconds) > kept - 60, cdnSeconds);
    assert.equal(replay.headers.get("cache-control"), "public, max-age=86400");
    assert.equal(replay.headers.get("netlify-cache-tag"), `replay-${TODAY}-${answer.entry}`);
    // On its last kept day, the browser's copy too ends with it.
    const lastDay = Date.parse(`${TODAY}T00:00:00Z`) + REPLAY_DAYS * DAY_MS + 23 * 3_600_000;
    assert.equal(replayKeptSeconds(TODAY, lastDay), 3_600);
  });
});

describe("forget me", () => {
  const friends = (method, route, body) =>
    send(
      new Request(`${ORIGIN}/api/friends${route}`, {
        method,
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
    );

  test("a player id removes its entries, names and replays from every board, and its places on friends' boards", async () => {
    const [leaver, friend] = [newId("p"), newId("p")];
    const mine = [
      await post({ score: 1500, player: leaver, name: "Forget Me" }),
      await post({ score: 300, won: false, date: YESTERDAY, player: leaver, name: "Forget Me" }),
    ];
    const theirs = await post({ score: 1400, player: friend, name: "Stays Here" });
    const shared = (await friends("POST", "", { name: "Shared", player: friend })).body.code;
    assert.equal((await friends("PUT", `/${shared}/members`, { player: leaver })).status, 201);
    const alone = (await friends("POST", "", { name: "Alone", player: leaver })).body.code;
    const before = await consistent();
    const totals = {};
    for (const date of [TODAY, YESTERDAY]) totals[date] = (await send(getRequest({ date }))).body.total;

    // Refusals first: nothing changes.
    assert.deepEqual((await forget({ player: "short" })).body.error, "invalid_player");
    assert.deepEqual((await forget({ player: leaver, extra: 1 })).body.error, "unknown_field");
    assert.deepEqual((await forget("[]")).body.error, "invalid_body");
    const wrongMethod = await forget({ player: leaver }, "PUT");
    assert.deepEqual([wrongMethod.status, wrongMethod.headers.get("allow")], [405, "DELETE"]);
    assert.deepEqual(await consistent(), before);

    purged.length = 0;
    const gone = await forget({ player: leaver });
    assert.deepEqual([gone.status, gone.body], [200, { forgotten: true, entries: 2, boards: 2 }]);
    assert.equal(gone.headers.get("cache-control"), "no-store");
    const afterwards = await consistent();
    assert.deepEqual(afterwards, {
      entries: before.entries - 2,
      counted: before.counted - 2,
      replays: before.replays - 2,
    });
    for (const date of [TODAY, YESTERDAY]) {
      const board = (await send(getRequest({ date }))).body;
      assert.equal(board.total, totals[date] - 1);
      assert.ok(!board.entries.some((row) => row.name === "Forget Me"));
    }
    const { rows } = await api.pool.query("SELECT count(*)::int AS n FROM entries WHERE name = 'Forget Me'");
    assert.equal(rows[0].n, 0);
    for (const { body, answer } of mine) {
      const replay = await send(new Request(`${ORIGIN}/api/scores/replay?date=${body.date}&entry=${answer.entry}`));
      assert.equal(replay.status, 404);
      assert.ok(purged.includes(`replay-${body.date}-${answer.entry}`));
    }
    assert.ok(purged.includes(`board-${TODAY}`) && purged.includes(`board-${YESTERDAY}`));
    // The shared board keeps its other member and their entry; the board the leaver was alone on is gone.
    const board = await send(new Request(`${ORIGIN}/api/friends/${shared}?date=${TODAY}`));
    assert.deepEqual([board.body.members, board.body.entries.map((row) => row.name)], [1, ["Stays Here"]]);
    assert.equal((await send(new Request(`${ORIGIN}/api/friends/${alone}?date=${TODAY}`))).status, 404);
    const kept = await send(new Request(`${ORIGIN}/api/scores/rank?date=${TODAY}&id=${theirs.body.id}`));
    assert.equal(kept.body.you.name, "Stays Here");
    // Again: nothing left to forget.
    assert.deepEqual((await forget({ player: leaver })).body, { forgotten: true, entries: 0, boards: 0 });
  });
});

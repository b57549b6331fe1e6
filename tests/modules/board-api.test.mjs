// The page's board reads (web/js/scores/board-api.js): the public board's URL names only the day, the player's
// own row comes from the rank read and is marked among the top rows.
import assert from "node:assert/strict";
import { afterEach, test } from "node:test";
import { createClock } from "../../web/common/clock.js";
import { createBoardApi, withOwnRow } from "../../web/js/scores/board-api.js";

const { fetchDailyBoard } = createBoardApi({ clock: createClock({ read: () => Date.parse("2026-12-03T12:00:00Z") }) });

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

const row = (rank, entry, name) => ({ rank, entry, name, score: 1000 - rank, won: true });
const BOARD = { date: "2026-12-03", entries: [row(1, 7, "Ann"), row(2, 9, "Bo")], total: 2, you: null };

/** A fetch that answers each URL from `answers` (JSON, 200) and records what was asked. */
function stubFetch(answers) {
  const asked = [];
  globalThis.fetch = async (url, init) => {
    asked.push({ url, cache: init?.cache });
    if (!(url in answers)) return new Response("{}", { status: 404 });
    return new Response(JSON.stringify(answers[url]), { status: 200 });
  };
  return asked;
}

test("without an id: only the public board, through the caches", async () => {
  const asked = stubFetch({ "/api/scores?date=2026-12-03": BOARD });
  const answer = await fetchDailyBoard("/api/scores", "2026-12-03");
  assert.deepEqual(asked, [{ url: "/api/scores?date=2026-12-03", cache: "default" }]);
  assert.deepEqual(answer.board, BOARD);
});

test("with an id: the own row is read apart and marked among the top rows", async () => {
  const you = { ...row(2, 9, "Bo"), id: "x".repeat(22), you: true, winners: 3, winners_below: 1 };
  const asked = stubFetch({
    "/api/scores?date=2026-12-03": BOARD,
    [`/api/scores/rank?date=2026-12-03&id=${"x".repeat(22)}`]: { date: "2026-12-03", total: 3, you },
  });
  const answer = await fetchDailyBoard("/api/scores", "2026-12-03", "x".repeat(22));
  assert.equal(asked.length, 2);
  assert.ok(asked.every(({ url }) => !url.startsWith("/api/scores?") || !url.includes("id=")));
  assert.deepEqual(answer.board.you, you);
  assert.equal(answer.board.total, 3, "the fresher total of the two");
  assert.deepEqual(
    answer.board.entries.map((entry) => entry.you === true),
    [false, true],
  );
});

test("an own row below the top rows is kept apart; a failed rank read leaves the board as it came", async () => {
  const far = { ...row(75, 400, "Me"), id: "y".repeat(22), you: true };
  assert.deepEqual(withOwnRow(BOARD, far).entries, BOARD.entries);
  assert.equal(withOwnRow(BOARD, far).you, far);
  stubFetch({ "/api/scores?date=2026-12-03": BOARD });
  const answer = await fetchDailyBoard("/api/scores", "2026-12-03", "y".repeat(22));
  assert.deepEqual([answer.failed, answer.board.you, answer.board.total], [false, null, 2]);
  // A board answer that carries its own row (a server before the split) keeps it.
  assert.equal(withOwnRow({ ...BOARD, you: far }, null).you, far);
});

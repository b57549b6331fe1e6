// Loading a board (web/js/scores/board-loader.js), as the daily board and the friends' boards both do.
import assert from "node:assert/strict";
import { test } from "node:test";

import { createClock } from "../../web/common/clock.js";
import { createBoardLoader, REFRESH_MS } from "../../web/js/scores/board-loader.js";

/** A loader over answers the test releases by hand: {loader, asked, answer(key, reply), shown, state}. */
function harness({ keep = null } = {}) {
  const state = { wanted: "2026-12-01", ms: Date.parse("2026-12-01T10:00:00Z") };
  const waiting = new Map();
  const asked = [];
  const shown = [];
  const loader = createBoardLoader({
    wanted: () => state.wanted,
    fetchAnswer: (key) => {
      asked.push(key);
      return new Promise((resolve) => waiting.set(key, resolve));
    },
    clock: createClock({ read: () => state.ms }),
    keep,
    onShown: (board) => shown.push(board),
  });
  const answer = async (key, reply) => {
    waiting.get(key)(reply);
    waiting.delete(key);
    for (let i = 0; i < 5; i += 1) await Promise.resolve();
  };
  return { loader, asked, answer, shown, state };
}

const board = (date) => ({ board: { date, entries: [] }, offline: false, failed: false });

test("one request for the board wanted answers every caller; fresh asks anew", async () => {
  const { loader, asked, answer, shown } = harness();
  const first = loader.load();
  assert.equal(loader.load(), first);
  assert.deepEqual(asked, ["2026-12-01"]);
  await answer("2026-12-01", board("2026-12-01"));
  await first;
  assert.equal(loader.current().board.date, "2026-12-01");
  assert.equal(shown.length, 1);
  loader.load({ fresh: true });
  assert.deepEqual(asked, ["2026-12-01", "2026-12-01"]);
});

test("an answer that comes after the wanted board changed (the day turned) is dropped for the new one", async () => {
  const { loader, asked, answer, shown, state } = harness();
  const loading = loader.load();
  state.wanted = "2026-12-02";
  await answer("2026-12-01", board("2026-12-01"));
  assert.deepEqual(asked, ["2026-12-01", "2026-12-02"]);
  assert.equal(loader.current(), null);
  await answer("2026-12-02", board("2026-12-02"));
  await loading;
  assert.deepEqual(
    shown.map((s) => s.key),
    ["2026-12-02"],
  );
});

test("offline, the board kept for that day is shown; online, the answer is kept", async () => {
  const kept = new Map([["2026-12-01", { board: { date: "2026-12-01", entries: ["old"] }, seenAt: 5 }]]);
  const keep = {
    read: (key) => kept.get(key) ?? null,
    write: (key, value, seenAt) => kept.set(key, { board: value, seenAt }),
  };
  const { loader, answer, state } = harness({ keep });
  const offline = loader.load();
  await answer("2026-12-01", { board: null, offline: true, failed: false });
  await offline;
  assert.deepEqual(loader.current().board.entries, ["old"]);
  assert.equal(loader.current().offline, true);
  assert.equal(loader.current().seenAt, 5);
  state.wanted = "2026-12-02";
  const online = loader.load();
  await answer("2026-12-02", board("2026-12-02"));
  await online;
  assert.equal(kept.get("2026-12-02").seenAt, state.ms);
});

test("stale: another board wanted, not lately, or a clock set back", async () => {
  const { loader, answer, state } = harness();
  assert.equal(loader.stale(), true);
  const loading = loader.load();
  await answer("2026-12-01", board("2026-12-01"));
  await loading;
  assert.equal(loader.stale(), false);
  state.ms += REFRESH_MS + 1;
  assert.equal(loader.stale(), true);
  state.ms -= REFRESH_MS + 1000; // set back
  assert.equal(loader.stale(), true);
  state.ms += 1000;
  state.wanted = "2026-12-02";
  assert.equal(loader.stale(), true);
  assert.equal(loader.current(), null);
});

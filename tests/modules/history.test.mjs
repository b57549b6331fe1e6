// The player's history (web/js/base/history.js): counts, bests and the daily streak.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { afterDailyStart, afterGame, EMPTY_HISTORY, streakOn } from "../../web/js/base/history.js";

const started = (...dates) => dates.reduce(afterDailyStart, EMPTY_HISTORY);

describe("the daily streak", () => {
  test("grows by one a day, across a month's and a year's end", () => {
    assert.equal(started("2026-12-30", "2026-12-31", "2027-01-01").streak, 3);
    assert.equal(started("2026-02-28", "2026-03-01").streak, 2);
  });

  test("a missed day starts it again at 1", () => {
    assert.equal(started("2026-12-01", "2026-12-02", "2026-12-04").streak, 1);
  });

  test("the same day twice counts once", () => {
    assert.equal(started("2026-12-01", "2026-12-02", "2026-12-02").streak, 2);
    assert.equal(streakOn(started("2026-12-02"), "2026-12-02"), 1);
  });

  test("starting the daily is its one attempt, not yet finished", () => {
    assert.deepEqual(started("2026-12-01").daily, { date: "2026-12-01", finished: false });
  });
});

describe("finished games", () => {
  const game = (won, score, best_ms = null) => ({ won, score, stats: { reactions: { best_ms } } });

  test("count played and won; practice leaves the daily alone", () => {
    const h = afterGame(afterGame(EMPTY_HISTORY, game(true, 0)), game(false, 0));
    assert.deepEqual([h.played, h.won, h.daily, h.bestDaily], [2, 1, null, null]);
  });

  test("a daily's score is the day's; the best daily and the quickest slap are kept", () => {
    let h = afterGame(EMPTY_HISTORY, game(true, 900, 480), "2026-12-01");
    h = afterGame(h, game(false, 300, 520), "2026-12-02");
    assert.deepEqual(h.daily, { date: "2026-12-02", finished: true, score: 300, won: false });
    assert.deepEqual([h.bestDaily, h.bestReaction], [900, 480]);
    assert.equal(afterGame(h, game(true, 0, 410)).bestReaction, 410);
  });

  test("leave the history they were given unchanged", () => {
    const before = structuredClone(EMPTY_HISTORY);
    afterGame(EMPTY_HISTORY, game(true, 5, 400), "2026-12-01");
    afterDailyStart(EMPTY_HISTORY, "2026-12-01");
    assert.deepEqual(EMPTY_HISTORY, before);
  });
});

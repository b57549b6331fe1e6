// The player's history (web/js/base/history.js): counts, bests and the daily streak.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  afterDailyStart,
  afterGame,
  EMPTY_HISTORY,
  KEPT_DAILIES,
  streakOn,
  withDaily,
} from "../../web/js/base/history.js";

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

describe("the last dailies kept for the menu's chart", () => {
  const daily = (date, score, won = true, median_ms = 600) => ({ date, score, won, median_ms });

  test("a finished daily is kept with its score, outcome and median reaction", () => {
    const result = { won: true, score: 420, stats: { reactions: { best_ms: 300, median_ms: 612.4 } } };
    const next = afterGame(EMPTY_HISTORY, result, "2026-12-01");
    assert.deepEqual(next.dailies, [{ date: "2026-12-01", score: 420, won: true, median_ms: 612 }]);
  });

  test("a practice game adds no daily; a history from before the list starts one", () => {
    const practice = afterGame(EMPTY_HISTORY, { won: true, score: 5, stats: {} });
    assert.deepEqual(practice.dailies, []);
    const old = { ...EMPTY_HISTORY, dailies: undefined };
    assert.equal(afterGame(old, { won: false, score: 3, stats: {} }, "2026-12-01").dailies.length, 1);
  });

  test("a game with no slap keeps no median", () => {
    assert.equal(withDaily([], daily("2026-12-01", 10, false, null))[0].median_ms, null);
  });

  test("the same date again replaces it, and the list stays in date order", () => {
    const kept = [daily("2026-12-03", 1), daily("2026-12-01", 2), daily("2026-12-03", 9)].reduce(withDaily, []);
    assert.deepEqual(
      kept.map((d) => [d.date, d.score]),
      [
        ["2026-12-01", 2],
        ["2026-12-03", 9],
      ],
    );
  });

  test(`only the newest ${KEPT_DAILIES} are kept`, () => {
    let kept = [];
    for (let day = 1; day <= 40; day += 1) {
      kept = withDaily(kept, daily(new Date(Date.UTC(2027, 0, day)).toISOString().slice(0, 10), day));
    }
    assert.equal(kept.length, KEPT_DAILIES);
    assert.equal(kept[0].date, "2027-01-11");
    assert.equal(kept.at(-1).score, 40);
  });

  test("a bad date or score is refused with a clear error", () => {
    assert.throws(() => withDaily([], daily("1 Dec", 3)), /not YYYY-MM-DD/);
    assert.throws(() => withDaily([], daily("2026-12-01", "3")), /not an integer/);
  });
});

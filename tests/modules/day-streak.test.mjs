// The menu's "Day streak": a day counts once its daily is finished (web/js/base/history.js, shownStreak).
import assert from "node:assert/strict";
import { test } from "node:test";

import { createHistoryStore } from "../../web/js/base/history-store.js";
import { memoryBackend } from "../../web/js/base/local-store.js";

const WIN = { won: true, score: 1500, stats: null };

test("a first daily under way is no streak yet; finished, it is one day", () => {
  const storage = createHistoryStore(memoryBackend());
  assert.equal(storage.dayStreak("2026-12-01"), 0);
  storage.recordDailyStart("2026-12-01");
  assert.equal(storage.dayStreak("2026-12-01"), 0);
  storage.recordGame(WIN, { dailyDate: "2026-12-01" });
  assert.equal(storage.dayStreak("2026-12-01"), 1);
});

test("the next day's daily under way keeps yesterday's streak until it is finished", () => {
  const storage = createHistoryStore(memoryBackend());
  storage.recordDailyStart("2026-12-01");
  storage.recordGame(WIN, { dailyDate: "2026-12-01" });
  storage.recordDailyStart("2026-12-02");
  assert.equal(storage.dayStreak("2026-12-02"), 1);
  storage.recordGame(WIN, { dailyDate: "2026-12-02" });
  assert.equal(storage.dayStreak("2026-12-02"), 2);
});

test("the streak turns with the day: kept through the next day, over the day after with no daily", () => {
  const storage = createHistoryStore(memoryBackend());
  storage.recordDailyStart("2026-12-01");
  storage.recordGame(WIN, { dailyDate: "2026-12-01" });
  assert.equal(storage.dayStreak("2026-12-02"), 1); // today's daily may still come
  assert.equal(storage.dayStreak("2026-12-03"), 0); // no daily on the 2nd: the run is over
  assert.equal(storage.dayStreak("2026-12-01"), 1); // a clock set back sees it again
});

// Where you stand (web/js/scores/charts.js): the day's distribution and your last 30 days as shapes and words.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  betterThan,
  DISTRIBUTION_SIZE,
  distributionChart,
  HISTORY_SIZE,
  historyChart,
  roundTop,
} from "../../web/js/scores/charts.js";

const distribution = {
  bin: 100,
  wins: [
    [300, 2],
    [500, 4],
  ],
  losses: [
    [0, 3],
    [300, 1],
  ],
};

describe("the day's score distribution", () => {
  test("one bar per non-empty bin, wins and losses stacked, placed along the score axis", () => {
    const chart = distributionChart(distribution);
    assert.deepEqual(
      chart.bars.map((bar) => [bar.from, bar.to, bar.wins, bar.losses]),
      [
        [0, 99, 0, 3],
        [300, 399, 2, 1],
        [500, 599, 4, 0],
      ],
    );
    const slot = DISTRIBUTION_SIZE.width / 6; // bins 0..500: six slots, two of them empty
    assert.deepEqual(
      chart.bars.map((bar) => Math.round(bar.x - 0.5)),
      [0, 3, 5].map((index) => Math.round(index * slot)),
    );
    const [, middle, tallest] = chart.bars;
    assert.equal(tallest.winsHeight, chart.plotHeight); // the tallest bar fills the plot
    assert.equal(tallest.winsY, 0);
    assert.equal(middle.winsHeight + middle.lossesHeight, (3 / 4) * chart.plotHeight);
    assert.equal(middle.lossesY + middle.lossesHeight, middle.winsY); // losses sit on the wins
  });

  test("your score's bar is marked, and the sentence says your percentage", () => {
    const you = { score: 540, won: true, winners: 6, winners_below: 2 };
    const chart = distributionChart(distribution, you);
    assert.deepEqual(
      chart.bars.filter((bar) => bar.yours).map((bar) => bar.from),
      [500],
    );
    assert.equal(chart.percent, 33);
    // The bars are ranges: the sentence names the lowest and the highest range, never their bare edges.
    assert.deepEqual(chart.text, [
      { key: "charts.distribution.summary", params: { count: 10, lowRange: [0, 99], highRange: [500, 599] } },
      { key: "charts.distribution.better", params: { score: 540, percent: 33 } },
    ]);
  });

  test("the only winner so far is said so, not 'better than 0%'", () => {
    const you = { score: 540, won: true, winners: 1, winners_below: 0 };
    const chart = distributionChart(distribution, you);
    assert.deepEqual(chart.text[1], { key: "charts.distribution.onlyWinner", params: { score: 540 } });
  });

  test("the axis names the lowest and the highest range; the scale is the tallest bar's count", () => {
    const chart = distributionChart(distribution);
    assert.deepEqual(
      chart.labels.map((label) => label.value),
      [
        [0, 99],
        [500, 599],
      ],
    );
    assert.equal(chart.tallest, 4);
  });

  test("better than: winners below over winners, rounded; none for a loss", () => {
    assert.equal(betterThan({ winners: 40, winners_below: 29 }), 73);
    assert.equal(betterThan({ winners: 3, winners_below: 2 }), 67);
    assert.equal(betterThan({ winners: 1, winners_below: 0 }), 0);
    assert.equal(betterThan({ winners: 5, winners_below: null }), null);
    assert.equal(betterThan(null), null);
  });

  test("a loss marks its bar and says the score without a percentage", () => {
    const chart = distributionChart(distribution, { score: 40, won: false, winners: null, winners_below: null });
    assert.deepEqual(
      chart.bars.filter((bar) => bar.yours).map((bar) => bar.from),
      [0],
    );
    assert.equal(chart.text[1].key, "charts.distribution.yourLoss");
  });

  test("without you, nothing is marked and the sentence sums up the day", () => {
    const chart = distributionChart(distribution);
    assert.equal(chart.bars.filter((bar) => bar.yours).length, 0);
    assert.deepEqual(
      chart.text.map((sentence) => sentence.key),
      ["charts.distribution.summary"],
    );
  });

  test("no games, or no distribution, is no chart", () => {
    assert.equal(distributionChart({ bin: 100, wins: [], losses: [] }), null);
    assert.equal(distributionChart(undefined), null);
  });

  test("one bin fills the width", () => {
    const chart = distributionChart(
      { bin: 50, wins: [[150, 1]], losses: [] },
      { score: 170, winners: 1, winners_below: 0 },
    );
    assert.equal(chart.bars.length, 1);
    assert.equal(chart.bars[0].width, DISTRIBUTION_SIZE.width - 1);
    assert.ok(chart.bars[0].yours);
    assert.deepEqual(chart.text[0], {
      key: "charts.distribution.summaryOneRange",
      params: { count: 1, range: [150, 199] },
    });
  });

  test("right to left mirrors the bars and the axis: low scores on the right", () => {
    const ltr = distributionChart(distribution);
    const rtl = distributionChart(distribution, null, { rtl: true });
    for (const [left, right] of ltr.bars.map((bar, index) => [bar, rtl.bars[index]])) {
      assert.ok(Math.abs(right.x - (DISTRIBUTION_SIZE.width - left.x - left.width)) < 1e-9);
    }
    assert.deepEqual(rtl.labels, [
      { value: [0, 99], x: DISTRIBUTION_SIZE.width, anchor: "end" },
      { value: [500, 599], x: 0, anchor: "start" },
    ]);
  });

  test("a malformed answer is refused with a clear error", () => {
    assert.throws(() => distributionChart({ bin: 0, wins: [], losses: [] }), /bin 0/);
    assert.throws(() => distributionChart({ bin: 100, wins: [[150, 1]], losses: [] }), /bin 150 is off/);
    assert.throws(() => distributionChart({ bin: 100, wins: [[100, 0]], losses: [] }), /count 0/);
    assert.throws(() => distributionChart({ bin: 100, wins: "many", losses: [] }), /not a list/);
  });
});

describe("your last 30 days", () => {
  const daily = (date, score, median_ms = 600, won = true) => ({ date, score, won, median_ms });
  const today = "2026-12-01";

  test("a bar per day played, on a 30-day axis ending today", () => {
    const chart = historyChart([daily("2026-11-02", 100), daily("2026-11-30", 400), daily(today, 200)], today);
    const slot = HISTORY_SIZE.width / 30;
    assert.deepEqual(
      chart.bars.map((bar) => [bar.date, Math.round((bar.x - 1) / slot)]),
      [
        ["2026-11-02", 0],
        ["2026-11-30", 28],
        ["2026-12-01", 29],
      ],
    );
    assert.equal(chart.topScore, 500); // 400 rounded up to a scale's round top
    assert.ok(Math.abs(chart.bars[1].height - (chart.plotHeight * 4) / 5) < 1e-9);
    assert.ok(Math.abs(chart.bars[0].height - chart.plotHeight / 5) < 1e-9);
    assert.deepEqual(
      chart.labels.map((label) => label.date),
      ["2026-11-02", today],
    );
  });

  test("days older than 30 are left out; none left is no chart", () => {
    assert.equal(historyChart([daily("2026-11-01", 100)], today), null);
    assert.equal(historyChart([], today), null);
    assert.equal(historyChart([daily("2026-11-01", 5), daily(today, 7)], today).bars.length, 1);
  });

  test("one day is one bar and one point", () => {
    const chart = historyChart([daily(today, 90, 640)], today);
    assert.equal(chart.bars.length, 1);
    assert.equal(chart.points.length, 1);
    assert.equal(chart.points[0].y, chart.plotHeight / 2); // one median sits halfway up
    // One median is one number, not "from 640 to 640 ms".
    assert.deepEqual(chart.text, [
      { key: "charts.history.summary", params: { count: 1, best: 90, bestDate: today, latest: 90 } },
      { key: "charts.history.reactionOne", params: { ms: 640 } },
    ]);
  });

  test("a lost day of few points is not drawn as a full bar: the scale reaches at least the win floor", () => {
    const chart = historyChart([daily(today, 50, 600, false)], today, { floor: 200 });
    assert.equal(chart.topScore, 200);
    assert.equal(chart.bars[0].height, chart.plotHeight / 4);
  });

  test("a scale's round top: 1, 2, 2.5 or 5 times a power of ten", () => {
    assert.deepEqual([1, 3, 50, 51, 240, 260, 999, 1001].map(roundTop), [1, 5, 50, 100, 250, 500, 1000, 2000]);
  });

  test("the reaction line breaks over a day not played or without a median", () => {
    const chart = historyChart(
      [
        daily("2026-11-25", 1, 700),
        daily("2026-11-26", 2, 650),
        daily("2026-11-27", 3, null),
        daily("2026-11-28", 4, 600),
        daily("2026-11-30", 5, 500),
      ],
      today,
    );
    assert.deepEqual(
      chart.runs.map((run) => run.map((point) => point.ms)),
      [[700, 650], [600], [500]],
    );
    const heights = chart.points.map((point) => point.y);
    assert.equal(Math.min(...heights), chart.plotHeight * 0.1); // the slowest, 700 ms, highest
    assert.ok(Math.abs(Math.max(...heights) - chart.plotHeight * 0.9) < 1e-9); // the quickest, 500 ms, lowest
    assert.deepEqual(chart.text[1], { key: "charts.history.reactionRange", params: { fastest: 500, slowest: 700 } });
  });

  test("no median at all says so", () => {
    assert.deepEqual(
      historyChart([daily(today, 3, null)], today).text.map((sentence) => sentence.key),
      ["charts.history.summary"],
    );
  });

  test("right to left puts day 1 on the right", () => {
    const ltr = historyChart([daily("2026-11-02", 100)], today);
    const rtl = historyChart([daily("2026-11-02", 100)], today, { rtl: true });
    assert.ok(Math.abs(rtl.bars[0].x - (HISTORY_SIZE.width - ltr.bars[0].x - ltr.bars[0].width)) < 1e-9);
    assert.ok(Math.abs(rtl.points[0].x - (HISTORY_SIZE.width - ltr.points[0].x)) < 1e-9);
    assert.deepEqual(rtl.labels[0], { date: "2026-11-02", x: HISTORY_SIZE.width, anchor: "end" });
  });

  test("a bad kept entry is refused with a clear error", () => {
    assert.throws(() => historyChart([daily("yesterday", 3)], today), /not YYYY-MM-DD/);
    assert.throws(() => historyChart([daily(today, -3)], today), /score -3/);
  });
});

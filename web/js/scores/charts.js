// Where you stand, as shapes with no DOM: the day's score distribution with your bar marked, and your last 30
// dailies (score and median reaction per day), each with the sentence a screen reader says (an i18n key and its
// parameters). chart-view.js draws them in SVG.

import { DAY_MS, utcDay } from "../../common/clock.js";

export const DISTRIBUTION_SIZE = Object.freeze({ width: 320, height: 110, axis: 18 });
export const HISTORY_SIZE = Object.freeze({ width: 320, height: 130, axis: 18 });
export const HISTORY_DAYS = 30;

/** "better than 73% of today's winners": round(100 × winners_below / winners), or null for a loss or no winners. */
export function betterThan(you) {
  if (!you || !Number.isInteger(you.winners) || !Number.isInteger(you.winners_below) || you.winners < 1) return null;
  return Math.round((100 * you.winners_below) / you.winners);
}

function checkBins(bins, what, width) {
  if (!Array.isArray(bins)) throw new TypeError(`distribution.${what}: not a list`);
  for (const bin of bins) {
    const [from, count] = Array.isArray(bin) ? bin : [];
    if (!Number.isInteger(from) || from % width !== 0) throw new RangeError(`distribution.${what}: bin ${from} is off`);
    if (!Number.isInteger(count) || count < 1) throw new RangeError(`distribution.${what}: count ${count} at ${from}`);
  }
}

/** x in a left-to-right box, mirrored for right to left. */
const place = (x, width, total, rtl) => (rtl ? total - x - width : x);

/**
 * The server's distribution ({bin, wins, losses}) as stacked bars, one per non-empty score bin, placed along the
 * score axis (low scores at the start: left, or right in a right-to-left page); you: the board's `you` or null
 * (its score's bar is marked). Null when there is nothing to draw; a malformed distribution is refused.
 */
export function distributionChart(distribution, you = null, { rtl = false, size = DISTRIBUTION_SIZE } = {}) {
  if (distribution === null || distribution === undefined) return null;
  const width = distribution.bin;
  if (!Number.isInteger(width) || width < 1) throw new RangeError(`distribution.bin ${width}: not a positive integer`);
  checkBins(distribution.wins, "wins", width);
  checkBins(distribution.losses, "losses", width);
  const byFrom = new Map();
  for (const [kind, bins] of [
    ["wins", distribution.wins],
    ["losses", distribution.losses],
  ]) {
    for (const [from, count] of bins) {
      const bar = byFrom.get(from) ?? { from, to: from + width - 1, wins: 0, losses: 0 };
      bar[kind] += count;
      byFrom.set(from, bar);
    }
  }
  if (byFrom.size === 0) return null;
  const froms = [...byFrom.keys()].sort((a, b) => a - b);
  const first = froms[0];
  const slots = (froms.at(-1) - first) / width + 1;
  const plotHeight = size.height - size.axis;
  const slot = size.width / slots;
  const gap = slot >= 6 ? 1 : 0;
  const tallest = Math.max(...[...byFrom.values()].map((bar) => bar.wins + bar.losses));
  const yourScore = Number.isInteger(you?.score) ? you.score : null;
  const bars = froms.map((from) => {
    const bar = byFrom.get(from);
    const barWidth = Math.max(1, slot - gap);
    const x = place(((from - first) / width) * slot + gap / 2, barWidth, size.width, rtl);
    const winsHeight = (bar.wins / tallest) * plotHeight;
    const lossesHeight = (bar.losses / tallest) * plotHeight;
    return {
      ...bar,
      x,
      width: barWidth,
      winsY: plotHeight - winsHeight,
      winsHeight,
      lossesY: plotHeight - winsHeight - lossesHeight,
      lossesHeight,
      yours: yourScore !== null && yourScore >= from && yourScore <= bar.to,
    };
  });
  const games = bars.reduce((sum, bar) => sum + bar.wins + bar.losses, 0);
  const lowest = bars[0];
  const highest = bars.at(-1);
  const percent = betterThan(you);
  // The bars are score ranges: the sentence and the axis name the lowest and the highest range, not their edges.
  const summary =
    bars.length === 1
      ? { key: "charts.distribution.summaryOneRange", params: { count: games, range: [lowest.from, lowest.to] } }
      : {
          key: "charts.distribution.summary",
          params: { count: games, lowRange: [lowest.from, lowest.to], highRange: [highest.from, highest.to] },
        };
  const text = [summary];
  if (yourScore !== null) text.push(placeOf(yourScore, you, percent));
  return {
    ...size,
    plotHeight,
    bars,
    tallest,
    labels: axisLabels([lowest.from, lowest.to], [highest.from, highest.to], size.width, rtl).map(
      ([value, x, anchor]) => ({ value, x, anchor }),
    ),
    percent,
    text,
  };
}

/** Your place among the day's games, as a sentence: the only win so far, better than n% of the winners, or a loss. */
function placeOf(score, you, percent) {
  if (you?.won === true && you.winners === 1) return { key: "charts.distribution.onlyWinner", params: { score } };
  if (percent !== null) return { key: "charts.distribution.better", params: { score, percent } };
  return { key: "charts.distribution.yourLoss", params: { score } };
}

/** The smallest of 1, 2, 2.5 and 5 times a power of ten that is at least `value` (>= 1): a scale's round top. */
export function roundTop(value) {
  const power = 10 ** Math.floor(Math.log10(Math.max(1, value)));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

/** The axis' two ends, [value, x, text-anchor] each, in an SVG drawn left to right: the first at the start. */
function axisLabels(first, last, width, rtl) {
  return rtl
    ? [
        [first, width, "end"],
        [last, 0, "start"],
      ]
    : [
        [first, 0, "start"],
        [last, width, "end"],
      ];
}

const isoDay = (number) => utcDay(number * DAY_MS);

function dayNumber(isoDay) {
  const time = Date.parse(`${isoDay}T00:00:00Z`);
  if (Number.isNaN(time)) throw new RangeError(`daily date ${isoDay}: not YYYY-MM-DD`);
  return Math.round(time / DAY_MS);
}

/**
 * Your dailies of the 30 days up to `today` (history.js keeps {date, score, won, median_ms}) as a bar per day
 * played (its score) and a line of median reactions (a gap where a day had none), each on its own scale, day 1
 * at the start (left, or right in a right-to-left page). The score scale runs from 0 to a round top at least
 * `floor` (the least a win scores: a lost day's few points never fill the chart as a win would). Null when none
 * of the dailies falls in those 30 days.
 */
export function historyChart(dailies, today, { rtl = false, size = HISTORY_SIZE, floor = 1 } = {}) {
  const last = dayNumber(today);
  const shown = (dailies ?? [])
    .map((daily) => ({ ...daily, day: HISTORY_DAYS - 1 - (last - dayNumber(daily.date)) }))
    .filter((daily) => daily.day >= 0 && daily.day < HISTORY_DAYS)
    .sort((a, b) => a.day - b.day);
  if (shown.length === 0) return null;
  for (const daily of shown) {
    if (!Number.isInteger(daily.score) || daily.score < 0) throw new RangeError(`daily score ${daily.score} is off`);
  }
  const plotHeight = size.height - size.axis;
  const slot = size.width / HISTORY_DAYS;
  const barWidth = Math.max(1, slot - 2);
  const topScore = roundTop(Math.max(1, floor, ...shown.map((daily) => daily.score)));
  const medians = shown.map((daily) => daily.median_ms).filter((ms) => Number.isFinite(ms));
  const slowest = Math.max(1, ...medians);
  const fastest = medians.length ? Math.min(...medians) : null;
  // Reactions on their own scale, spread over the plot's middle 80% (slower higher); one value sits halfway.
  const reactionY = (ms) =>
    plotHeight * (slowest === fastest ? 0.5 : 0.1 + (0.8 * (slowest - ms)) / (slowest - fastest));
  const centre = (day) => place(day * slot + slot / 2, 0, size.width, rtl);
  const bars = shown.map((daily) => {
    const height = (daily.score / topScore) * plotHeight;
    return {
      date: daily.date,
      score: daily.score,
      won: Boolean(daily.won),
      x: place(daily.day * slot + 1, barWidth, size.width, rtl),
      y: plotHeight - height,
      width: barWidth,
      height,
    };
  });
  // The reaction line: one run of points per stretch of consecutive days with a median.
  const runs = [];
  let previous = null;
  for (const daily of shown) {
    if (!Number.isFinite(daily.median_ms)) {
      previous = null;
      continue;
    }
    const point = {
      date: daily.date,
      ms: daily.median_ms,
      x: centre(daily.day),
      y: reactionY(daily.median_ms),
    };
    if (previous === null || daily.day !== previous + 1) runs.push([]);
    runs.at(-1).push(point);
    previous = daily.day;
  }
  const best = shown.reduce((top, daily) => (daily.score > top.score ? daily : top));
  const latest = shown.at(-1);
  const text = [
    {
      key: "charts.history.summary",
      params: { count: shown.length, best: best.score, bestDate: best.date, latest: latest.score },
    },
  ];
  if (medians.length) {
    text.push(
      fastest === slowest
        ? { key: "charts.history.reactionOne", params: { ms: fastest } }
        : { key: "charts.history.reactionRange", params: { fastest, slowest } },
    );
  }
  return {
    ...size,
    plotHeight,
    bars,
    runs,
    points: runs.flat(),
    topScore,
    labels: axisLabels(isoDay(last - HISTORY_DAYS + 1), today, size.width, rtl).map(([date, x, anchor]) => ({
      date,
      x,
      anchor,
    })),
    text,
  };
}

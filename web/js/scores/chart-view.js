// Draws the charts of charts.js in plain SVG (text content only), each a figure with its sentence as caption:
// the SVG is role="img" labelled by that sentence, so a screen reader says it where a sighted player reads it.

import { formatDate, formatDayMonth, formatNumber, formatPercent, formatRange, t } from "../base/i18n.js";
import { ruleNumbers } from "../base/rule-numbers.js";
import { distributionChart, historyChart } from "./charts.js";

const SVG = "http://www.w3.org/2000/svg";

function svgElement(tag, attributes = {}) {
  const el = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, String(value));
  return el;
}

function htmlElement(tag, className, text = "") {
  const el = document.createElement(tag);
  el.className = className;
  el.textContent = text;
  return el;
}

const isRtl = () => document.documentElement.dir === "rtl";
const round = (value) => Math.round(value * 10) / 10;

/** The frame of a chart: the SVG (drawn left to right: charts.js mirrored the shapes itself) and its sentence. */
function frame(figure, { title, sentence, legend, width, height }) {
  const captionId = `${figure.id}-text`;
  const svg = svgElement("svg", {
    viewBox: `0 0 ${width} ${height}`,
    role: "img",
    "aria-labelledby": captionId,
    direction: "ltr",
    class: "chart-svg",
    "data-testid": `${figure.dataset.testid}-svg`,
  });
  const heading = htmlElement("p", "chart-title", title);
  const keys = htmlElement("p", "chart-legend");
  keys.setAttribute("aria-hidden", "true"); // the sentence says it all
  for (const [kind, text] of legend) keys.append(htmlElement("span", `chart-key chart-key-${kind}`, text), " ");
  const caption = htmlElement("figcaption", "chart-text", sentence);
  caption.id = captionId;
  caption.dataset.testid = `${figure.dataset.testid}-text`;
  figure.replaceChildren(heading, svg, keys, caption);
  return svg;
}

function axisText(svg, { x, anchor }, text, height) {
  const label = svgElement("text", { x, y: height - 4, "text-anchor": anchor, class: "chart-axis" });
  label.textContent = text;
  svg.append(label);
}

/** The scale: a faint line at the top of the plot and what it stands for ("12 games", "1,000 points"), at the
 * start of the line (left, or right in a right-to-left page). */
function scaleText(svg, width, text) {
  svg.append(svgElement("line", { x1: 0, x2: width, y1: 0.5, y2: 0.5, class: "chart-grid" }));
  const rtl = isRtl();
  const label = svgElement("text", {
    x: rtl ? width - 2 : 2,
    y: 11,
    "text-anchor": rtl ? "end" : "start",
    class: "chart-axis chart-scale",
  });
  label.textContent = text;
  svg.append(label);
}

/** A chart's sentences ({key, params} each) in the page's words: ranges as ranges, percentages by the language. */
function sentences(list, formats = {}) {
  return list
    .map(({ key, params }) => {
      const shown = { ...params };
      for (const [name, format] of Object.entries(formats)) if (name in shown) shown[name] = format(shown[name]);
      for (const [name, value] of Object.entries(shown)) {
        if (Array.isArray(value)) shown[name] = formatRange(value[0], value[1]);
      }
      if ("percent" in shown) shown.percent = formatPercent(params.percent);
      return t(key, shown);
    })
    .join(" ");
}

/** What each figure shows now: its chart and the page's language, as text (alreadyDrawn). */
const drawn = new WeakMap();

/** Hides the figure, saying why in the console when the data was malformed. */
function hide(figure, error = null) {
  if (error) console.warn("charts: not drawn", error);
  figure.replaceChildren();
  figure.hidden = true;
  drawn.delete(figure);
}

/**
 * Whether `figure` shows `chart` already, in the page's language: then it is left as it is, so that the panel's
 * every redraw (a status changing, the same board fetched again) neither rebuilds it nor makes a screen reader
 * lose its place in it. Otherwise the figure is marked as showing it (drawn next).
 */
function alreadyDrawn(figure, chart) {
  const shown = JSON.stringify([document.documentElement.lang, chart]);
  if (!figure.hidden && drawn.get(figure) === shown) return true;
  drawn.set(figure, shown);
  return false;
}

/** The chart `make` lays out, or null with `figure` hidden: no data, or data it refuses (said in the console). */
function chartOrHidden(figure, make) {
  let chart;
  try {
    chart = make();
  } catch (error) {
    hide(figure, error);
    return null;
  }
  if (!chart) hide(figure);
  return chart;
}

/**
 * The day's distribution in `figure` from the board's answer ({distribution, you}); hidden when there is none.
 */
export function drawDistribution(figure, board) {
  const chart = chartOrHidden(figure, () =>
    distributionChart(board?.distribution ?? null, board?.you ?? null, { rtl: isRtl() }),
  );
  if (!chart || alreadyDrawn(figure, chart)) return;
  const svg = frame(figure, {
    title: t("charts.distribution.title"),
    sentence: sentences(chart.text),
    legend: [
      ["won", t("charts.legend.won")],
      ["lost", t("charts.legend.lost")],
      ...(chart.bars.some((bar) => bar.yours) ? [["you", t("charts.legend.you")]] : []),
    ],
    width: chart.width,
    height: chart.height,
  });
  for (const bar of chart.bars) {
    const group = svgElement("g", { class: bar.yours ? "chart-bar yours" : "chart-bar", "data-from": bar.from });
    if (bar.lossesHeight > 0) {
      const attrs = {
        x: round(bar.x),
        y: round(bar.lossesY),
        width: round(bar.width),
        height: round(bar.lossesHeight),
      };
      group.append(svgElement("rect", { ...attrs, class: "chart-lost" }));
    }
    if (bar.winsHeight > 0) {
      const attrs = { x: round(bar.x), y: round(bar.winsY), width: round(bar.width), height: round(bar.winsHeight) };
      group.append(svgElement("rect", { ...attrs, class: "chart-won" }));
    }
    if (bar.yours) {
      const middle = round(bar.x + bar.width / 2);
      group.append(svgElement("line", { x1: middle, x2: middle, y1: 0, y2: chart.plotHeight, class: "chart-you" }));
    }
    svg.append(group);
  }
  svg.append(
    svgElement("line", { x1: 0, x2: chart.width, y1: chart.plotHeight, y2: chart.plotHeight, class: "chart-base" }),
  );
  for (const label of chart.labels) axisText(svg, label, formatRange(...label.value), chart.height);
  scaleText(svg, chart.width, t("charts.scale.games", { count: chart.tallest }));
  figure.hidden = false;
}

/** The least a win scores, from the engine (1 before it has loaded: the scale then follows the scores alone). */
function winFloor() {
  try {
    return ruleNumbers().win_floor;
  } catch {
    return 1;
  }
}

/** The player's last 30 dailies (history.js) up to `today` in `figure`; hidden when none falls in them. */
export function drawHistory(figure, dailies, today) {
  const chart = chartOrHidden(figure, () => historyChart(dailies, today, { rtl: isRtl(), floor: winFloor() }));
  if (!chart || alreadyDrawn(figure, chart)) return;
  const svg = frame(figure, {
    title: t("charts.history.title"),
    sentence: sentences(chart.text, { bestDate: formatDayMonth }),
    // The bars' two colours (a won day, a lost day in grey) and the line, each named.
    legend: [
      ["won", t("charts.legend.wonDay")],
      ["lost", t("charts.legend.lostDay")],
      ...(chart.points.length ? [["reaction", t("charts.legend.reaction")]] : []),
    ],
    width: chart.width,
    height: chart.height,
  });
  for (const bar of chart.bars) {
    const rect = svgElement("rect", {
      x: round(bar.x),
      y: round(bar.y),
      width: round(bar.width),
      height: round(Math.max(bar.height, 1)),
      class: bar.won ? "chart-day chart-won" : "chart-day chart-lost",
      "data-date": bar.date,
    });
    const tip = svgElement("title");
    tip.textContent = `${formatDate(bar.date)}: ${formatNumber(bar.score)}`;
    rect.append(tip);
    svg.append(rect);
  }
  svg.append(
    svgElement("line", { x1: 0, x2: chart.width, y1: chart.plotHeight, y2: chart.plotHeight, class: "chart-base" }),
  );
  for (const run of chart.runs) {
    const points = run.map((point) => `${round(point.x)},${round(point.y)}`).join(" ");
    if (run.length > 1) svg.append(svgElement("polyline", { points, class: "chart-reaction" }));
  }
  for (const point of chart.points) {
    svg.append(svgElement("circle", { cx: round(point.x), cy: round(point.y), r: 2.5, class: "chart-reaction-point" }));
  }
  for (const label of chart.labels) axisText(svg, label, formatDayMonth(label.date), chart.height);
  scaleText(svg, chart.width, t("charts.scale.points", { count: chart.topScore }));
  figure.hidden = false;
}

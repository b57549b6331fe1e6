// The result panel: how the game ended, the score and its breakdown exactly as the engine's result gives them,
// your game in figures (cards and piles won, burns, slap-backs, your reactions), and after the daily a way to
// share it and the time to the next one.

import { formatCountdown, formatMinus, formatNumber, t } from "../base/i18n.js";
import { ruleNumbers } from "../base/rule-numbers.js";
import { resultTitle } from "../table/words.js";
import { share, shareText } from "./share.js";

const TICK_MS = 1000;

/** [label, value] rows of a result's breakdown: a win's base, penalties and floor; a loss's slapped piles. */
function breakdownRows(result) {
  const b = result.breakdown;
  if (!result.won) {
    return [[t("result.piles", { count: b.piles_slapped, per: b.per_pile }), formatNumber(b.piles_score)]];
  }
  const rows = [
    [t("result.base"), formatNumber(b.base)],
    [t("result.seconds", { count: b.seconds }), formatMinus(b.seconds_penalty)],
    [t("result.wrongSlaps", { count: b.wrong_slaps }), formatMinus(b.wrong_slap_penalty)],
  ];
  if (b.floor_applied) rows.push([t("result.floor"), formatNumber(b.floor)]);
  return rows;
}

/** Your slaps this game, and the CPU speed they match (the engine's figures). */
function reactionsText(stats) {
  const reactions = stats?.reactions;
  if (!reactions || reactions.median_ms === null || reactions.median_ms === undefined) return t("result.noReactions");
  return t("result.reactions", {
    median: reactions.median_ms,
    best: reactions.best_ms,
    speed: t(`speed.${reactions.speed}`),
    typical: reactions.speed_slap_ms,
  });
}

/** Why you were eliminated (the rule this game played), or "" when you were not. */
function eliminatedWhy(view) {
  if (view.result.reason !== "eliminated") return "";
  return view.lenient ? t("result.eliminatedWhyLenient", { count: ruleNumbers().strikes }) : t("result.eliminatedWhy");
}

/**
 * Fills #result from a finished game's view; showing and hiding it is the app state's panel ("result"). clock: the
 * page's wall clock (web/common/clock.js), whose next midnight the countdown counts to.
 */
export function createResultPanel({ events, clock }) {
  const $ = (id) => document.getElementById(id);
  const title = $("result-title");
  const shareButton = $("share");
  const shareStatus = $("share-status");
  const countdown = $("result-countdown");
  let shared = null; // the text to share, after a daily
  let ticker = 0;

  function drawCountdown() {
    countdown.textContent = t("countdown.next", { time: formatCountdown(clock.msToNextDay()) });
  }

  function show(view, { scored = false, timeline = [] } = {}) {
    const result = view.result;
    $("result-body").scrollTop = 0; // a new result is read from its title
    title.textContent = resultTitle(result);
    $("result-score").textContent = formatNumber(result.score);
    $("result-score-label").textContent = t(view.mode === "daily" ? "result.score" : "result.scorePractice");
    const table = $("result-breakdown");
    table.replaceChildren();
    for (const [label, value] of [...breakdownRows(result), [t("result.total"), formatNumber(result.score)]]) {
      const row = table.insertRow();
      const th = document.createElement("th");
      th.scope = "row";
      th.textContent = label;
      row.append(th);
      row.insertCell().textContent = value;
    }
    table.rows[table.rows.length - 1].className = "total";
    const stats = result.stats;
    $("result-stats").textContent = stats
      ? t("result.stats", {
          cards: stats.cards_won,
          piles: stats.piles_won,
          burns: stats.burns,
          backs: stats.slap_backs,
        })
      : "";
    $("result-reactions").textContent = reactionsText(stats);
    // Whether the score reached the board is the leaderboard's to say (below, once the server answered).
    const note = scored ? t("result.dailyDone") : t("result.practice");
    const why = $("result-why");
    why.textContent = eliminatedWhy(view);
    why.hidden = !why.textContent;
    $("result-note").textContent = `${note} ${t("result.deal", { seed: String(view.seed) })}`;

    shared = scored ? shareText(view, timeline) : null;
    $("result-share").hidden = !scored;
    shareStatus.textContent = "";
    clearInterval(ticker);
    if (scored) {
      drawCountdown();
      ticker = setInterval(drawCountdown, TICK_MS);
    }
  }

  shareButton.addEventListener("click", async () => {
    if (!shared) return;
    const outcome = await share(shared);
    shareStatus.textContent = outcome === "cancelled" ? "" : t(`share.${outcome}`);
    if (outcome === "failed") shareStatus.textContent += `\n${shared}`;
  });
  events.on("state", ({ panel }) => {
    if (panel !== "result") clearInterval(ticker);
  });

  /** Holds `element` (the daily board) in the result's body, which it scrolls with, above the result's buttons. */
  const holdBoard = (element) => $("result-body").append(element);

  return { show, sharedText: () => shared, holdBoard };
}

// The result panel: how the game ended, the score and its breakdown exactly as the engine's result gives them.

import { formatMinus, formatNumber, t } from "../app/i18n.js";
import { resultTitle } from "../table/words.js";

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

/** Fills #result from a finished game's view; showing and hiding it is the app state's panel ("result"). */
export function createResultPanel() {
  const $ = (id) => document.getElementById(id);
  const title = $("result-title");

  function show(view, { scored }) {
    const result = view.result;
    title.textContent = resultTitle(result);
    $("result-score").textContent = formatNumber(result.score);
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
    const note = scored ? t("result.dailySaved") : t("result.practice");
    $("result-note").textContent = `${note} ${t("result.deal", { seed: String(view.seed) })}`;
  }

  return { show };
}

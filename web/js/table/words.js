// The words for what lies on the table: cards, seats and how a game ended, in the page's language.

import { t } from "../app/i18n.js";

/** "7H" -> {rank: "7", suit: "H"}. */
export function parseCard(card) {
  return { rank: card.slice(0, -1), suit: card.slice(-1) };
}

/** "7H" -> "seven of hearts". */
export function cardName(card) {
  const { rank, suit } = parseCard(card);
  return t("card.name", { rank: t(`rank.${rank}`), suit: t(`suit.${suit}`) });
}

export function seatName(seat) {
  return t(`seat.${seat}`);
}

/** What a seat did, in words: yours in the second person (yourKey), another's naming the seat (theirKey). */
export function saidOf(seat, yourKey, theirKey, params = {}) {
  return seat === "south" ? t(yourKey, params) : t(theirKey, { ...params, seat: seatName(seat) });
}

/** The result's title: who won, or how the game ended. */
export function resultTitle(result) {
  if (result.reason === "time_limit") return result.won ? t("result.time_limitWon") : t("result.time_limit");
  if (result.won) return t("result.won");
  if (result.reason === "eliminated") return t("result.eliminated");
  if (result.reason === "resigned") return t("result.resigned");
  return t("result.cpu_won", { winner: result.winner ? seatName(result.winner) : "" });
}

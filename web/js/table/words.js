// The words for what lies on the table: cards, seats, why a slap was wrong and how a game ended, in the page's
// language.

import { t } from "../base/i18n.js";
import { ruleNumbers } from "../base/rule-numbers.js";

/** "7H" -> {rank: "7", suit: "H"}. */
export function parseCard(card) {
  return { rank: card.slice(0, -1), suit: card.slice(-1) };
}

/** "7H" -> "seven of hearts". */
export function cardName(card) {
  const { rank, suit } = parseCard(card);
  return t("card.name", { rank: t(`rank.${rank}`), suit: t(`suit.${suit}`) });
}

/** "7" -> "7", "Q" -> "Q" (or the language's letter for a queen): the rank as a card's corner shows it. */
export function rankLabel(rank) {
  return /^\d+$/.test(rank) ? rank : t(`rank.short.${rank}`);
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

/**
 * Why the engine refused a slap (a wrong_slap event's `reason` and its details), in one sentence:
 * "Too late — North was first by 12 ms.", "7 and 8 don't match."...
 */
export function wrongSlapWhy(e) {
  const params = { seat: e.by ? seatName(e.by) : "", ms: e.ms, pattern: e.pattern ? t(`pattern.${e.pattern}`) : "" };
  switch (e.reason) {
    case "too_late":
    case "covered":
      return t(`why.${e.reason}${e.by === "south" ? "You" : ""}`, params);
    case "burned_cards":
    case "empty_pile":
      return t(`why.${e.reason}`);
    case "no_pattern": {
      const ranks = (e.cards ?? []).map((card) => rankLabel(parseCard(card).rank));
      if (ranks.length === 2) return t("why.no_pattern.two", { under: ranks[0], top: ranks[1] });
      if (ranks.length === 3) return t("why.no_pattern.three", { bottom: ranks[0], under: ranks[1], top: ranks[2] });
      return t("why.no_pattern.one");
    }
    default:
      return null;
  }
}

/**
 * What your wrong slap costs and why, in words (the toast's text and the screen reader's). The points it costs
 * ("−20") only in a scored game: practice is not scored.
 */
export function yourWrongSlap(e, { scored = true } = {}) {
  const why = wrongSlapWhy(e);
  const burn = scored ? "Scored" : "";
  if (why === null) return t(e.burned ? `event.wrongSlapYou${burn}` : "event.wrongSlapYouNoCard", ruleNumbers());
  return `${why} ${t(e.burned ? `why.burn${burn}` : "why.noCard", ruleNumbers())}`;
}

/** Your slap just too late (a late_slap event) for a pattern another player took (who was first, by how many ms)
 * or the next card covered (which card, how many ms before), and that it costs nothing. */
export function yourLateSlap(e) {
  const why =
    e.reason === "covered"
      ? t("why.coveredBy", { card: cardName(e.card), pattern: t(`pattern.${e.pattern}`), ms: e.ms })
      : t("why.too_late", { seat: seatName(e.by), ms: e.ms });
  return `${why} ${t("why.lateFree")}`;
}

/** Your won slap, with its reaction time when a card of another player made the pattern. */
export function yourWonSlap(e) {
  const pattern = t(`pattern.${e.pattern}`);
  return e.reaction_ms ? t("event.slapWonYouMs", { pattern, ms: e.reaction_ms }) : t("event.slapWonYou", { pattern });
}

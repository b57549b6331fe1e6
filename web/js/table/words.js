// The words for what lies on the table: cards, seats, why a slap was wrong and how a game ended, in the page's
// language.

import { t } from "../base/i18n.js";
import { ruleNumbers, yourSeat } from "../base/rule-numbers.js";

/** "7H" -> {rank: "7", suit: "H"}; a Joker of the Jokers house rule, "JKR" or "JKB" -> {rank: "JK", suit: "R"}. */
export function parseCard(card) {
  return { rank: card.slice(0, -1), suit: card.slice(-1) };
}

export const JOKER = "JK";

/** "7H" -> "seven of hearts"; "JKR" -> "joker". */
export function cardName(card) {
  const { rank, suit } = parseCard(card);
  if (rank === JOKER) return t("card.joker");
  return t("card.name", { rank: t(`rank.${rank}`), suit: t(`suit.${suit}`) });
}

/** "7" -> "7", "Q" -> "Q" (or the language's letter for a queen): the rank as a card's corner shows it. */
export function rankLabel(rank) {
  return /^\d+$/.test(rank) ? rank : t(`rank.short.${rank}`);
}

// Whose game the table shows: yours (played or watched), or another player's watched game, whose South is told
// by the player's name in the third person. Set by the watch (app/watching.js) while it is open.
let perspective = { watching: false, name: null };

/** The table is a watched game (watching: no prompts to act), and South is `name`'s (null: yours). */
export function setPerspective({ watching = false, name = null } = {}) {
  perspective = { watching: Boolean(watching), name: watching && name !== null ? String(name) : null };
}

/** Whether the table shows a watched game rather than one being played. */
export function isWatching() {
  return perspective.watching;
}

/** Whether `seat` is the player reading the page: South, unless the table shows someone else's game. */
export function isYou(seat) {
  return seat === yourSeat() && perspective.name === null;
}

/**
 * A player's name set apart from the words around it (Unicode's first-strong isolate): "Amal <b>" keeps its own
 * direction inside an Urdu sentence, and an Urdu name inside an English one.
 */
export function isolate(name) {
  return `\u2068${name}\u2069`;
}

/** "West", "You", or the watched player's name for South in their game. */
export function seatName(seat) {
  return seat === yourSeat() && perspective.name !== null ? isolate(perspective.name) : t(`seat.${seat}`);
}

/** What a seat did, in words: yours in the second person (yourKey), another's naming the seat (theirKey). */
export function saidOf(seat, yourKey, theirKey, params = {}) {
  return isYou(seat) ? t(yourKey, params) : t(theirKey, { ...params, seat: seatName(seat) });
}

/** The result's title: who won, or how the game ended; a watched player's in the third person. */
export function resultTitle(result) {
  const them = perspective.name === null ? "" : "Them";
  const name = { name: perspective.name === null ? "" : isolate(perspective.name) };
  if (result.reason === "time_limit")
    return result.won ? t(`result.time_limitWon${them}`, name) : t("result.time_limit");
  if (result.won) return t(`result.won${them}`, name);
  if (result.reason === "eliminated") return t(`result.eliminated${them}`, name);
  if (result.reason === "resigned") return t(`result.resigned${them}`, name);
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
      if (isYou(e.by)) return t(`why.${e.reason}You`, params);
      // The watched player slapped a pattern they had taken (or covered) themselves.
      if (e.by === yourSeat() && e.reason === "too_late") return t("why.too_lateThem", params);
      return t(`why.${e.reason}`, params);
    case "burned_cards":
    case "empty_pile":
      return t(`why.${e.reason}`);
    case "no_pattern": {
      if (e.house_rules) return t("why.no_pattern.house"); // none of the rules in play showed
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

// Coaches the guided first game: the first time something happens at the table, one line says what it means.
// It reads only the engine's events and view (which patterns count is the engine's to say, never this file's).

import { sentenceStart, t } from "../base/i18n.js";
import { yourSeat } from "../base/rule-numbers.js";
import { cardName, seatName } from "./words.js";

const FLIPS_TO_TEACH = 2; // "your turn: flip" is said until you have flipped this many times
// Out of cards this long (game time), you are told what can still happen and offered a new deal: nobody should
// sit and watch for minutes.
export const OFFER_AFTER_MS = 20_000;

/**
 * line: the element the tips are written to (the deal line, in a guided game); onNewDeal(): called when the
 * player takes the new deal offered while out of cards.
 */
export function createCoach({ line, onNewDeal = () => {} }) {
  let active = false;
  let taught = new Set();
  let flips = 0;
  let outSince = null; // game ms since when you have had no cards
  let tip = null; // {key, event, offer}: the tip shown, kept raw so that a new language says it again

  function text({ key, event }) {
    switch (key) {
      case "coach.slapWon":
        return t(key, { seat: seatName(event.seat), pattern: t(`pattern.${event.pattern}`) });
      case "coach.payCard": {
        // Who played the face card gets the pile if the payer finds none: say who, or that it was you.
        const yours = event.seat === yourSeat();
        const params = { card: cardName(event.card), payer: seatName(event.payer), count: event.owed };
        return t(yours ? "coach.payCardYou" : key, { ...params, seat: seatName(event.seat) });
      }
      default:
        return t(key);
    }
  }

  function show(key, event = null, offer = false) {
    tip = { key, event, offer };
    draw();
  }

  /** Out of cards for OFFER_AFTER_MS: what can still happen, and a new deal; back in: the offer goes. */
  function watchOutOfCards(view) {
    const out = view.seats?.[0]?.status === "out";
    if (!out) {
      outSince = null;
      if (tip?.offer) show("coach.watch");
      return;
    }
    outSince ??= view.clock;
    if (!tip?.offer && view.clock - outSince >= OFFER_AFTER_MS) show("coach.stillOut", null, true);
  }

  /** Once per kind and game: a tip already given is not given again. */
  function teach(key, event = null) {
    if (taught.has(key)) return;
    taught.add(key);
    show(key, event);
  }

  function observe(view, events = []) {
    if (!active) return;
    for (const e of events) {
      if (e.type === "flip" && e.seat === yourSeat()) flips += 1;
      else if (e.type === "pay_card") teach("coach.payCard", e);
      else if (e.type === "slap_won") teach(e.seat === yourSeat() ? "coach.slapWonYou" : "coach.slapWon", e);
      else if (e.type === "wrong_slap" && e.seat === yourSeat()) teach("coach.wrongSlap", e);
      else if (e.type === "player_out" && e.seat === yourSeat()) teach("coach.out", e);
    }
    if (view.your_turn && !view.challenge && flips < FLIPS_TO_TEACH) show("coach.flip");
    else if (tip?.key === "coach.flip" && flips >= FLIPS_TO_TEACH) show("coach.watch");
    watchOutOfCards(view);
  }

  /** A new game: coaching on (the guided game) or off. Returns whether it coaches. */
  function start(on) {
    active = Boolean(on);
    taught = new Set();
    flips = 0;
    outSince = null;
    tip = null;
    // The first view says whose turn it is (observe): until then, nothing claims it is yours.
    if (active) show("coach.watch");
    return active;
  }

  /** Writes the tip again (in a new language); false when there is none to write. */
  function draw() {
    if (!active || !tip) return false;
    line.textContent = sentenceStart(text(tip));
    if (tip.offer) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "coach-new-deal";
      button.dataset.testid = "coach-new-deal";
      button.textContent = t("result.again");
      button.addEventListener("click", () => onNewDeal());
      line.append(" ", button);
    }
    return true;
  }

  return { start, observe, draw, isActive: () => active };
}

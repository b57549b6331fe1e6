// Coaches the guided first game: the first time something happens at the table, one line says what it means.
// It reads only the engine's events and view (which patterns count is the engine's to say, never this file's).

import { sentenceStart, t } from "../app/i18n.js";
import { cardName, seatName } from "./words.js";

const FLIPS_TO_TEACH = 2; // "your turn: flip" is said until you have flipped this many times

/** line: the element the tips are written to (the deal line, in a guided game). */
export function createCoach({ line }) {
  let active = false;
  let taught = new Set();
  let flips = 0;
  let tip = null; // {key, event}: the tip shown, kept raw so that a new language says it again

  function text({ key, event }) {
    switch (key) {
      case "coach.slapWon":
        return t(key, { seat: seatName(event.seat), pattern: t(`pattern.${event.pattern}`) });
      case "coach.payCard": {
        // Who played the face card gets the pile if the payer finds none: say who, or that it was you.
        const yours = event.seat === "south";
        const params = { card: cardName(event.card), payer: seatName(event.payer), count: event.owed };
        return t(yours ? "coach.payCardYou" : key, { ...params, seat: seatName(event.seat) });
      }
      default:
        return t(key);
    }
  }

  function show(key, event = null) {
    tip = { key, event };
    draw();
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
      if (e.type === "flip" && e.seat === "south") flips += 1;
      else if (e.type === "pay_card") teach("coach.payCard", e);
      else if (e.type === "slap_won") teach(e.seat === "south" ? "coach.slapWonYou" : "coach.slapWon", e);
      else if (e.type === "wrong_slap" && e.seat === "south") teach("coach.wrongSlap", e);
      else if (e.type === "player_out" && e.seat === "south") teach("coach.out", e);
    }
    if (view.your_turn && !view.challenge && flips < FLIPS_TO_TEACH) show("coach.flip");
    else if (tip?.key === "coach.flip" && flips >= FLIPS_TO_TEACH) show("coach.watch");
  }

  /** A new game: coaching on (the guided game) or off. Returns whether it coaches. */
  function start(on) {
    active = Boolean(on);
    taught = new Set();
    flips = 0;
    tip = null;
    if (active) show("coach.flip");
    return active;
  }

  /** Writes the tip again (in a new language); false when there is none to write. */
  function draw() {
    if (!active || !tip) return false;
    line.textContent = sentenceStart(text(tip));
    return true;
  }

  return { start, observe, draw, isActive: () => active };
}

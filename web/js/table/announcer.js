// Says what matters to screen readers through one polite live region, at most once per ~800 ms, newest important first.

import { pageClock } from "../base/clock.js";
import { sentenceStart, t } from "../base/i18n.js";
import { yourSeat } from "../base/rule-numbers.js";
import {
  cardName,
  isWatching,
  isYou,
  resultTitle,
  saidOf,
  seatName,
  yourLateSlap,
  yourWonSlap,
  yourWrongSlap,
} from "./words.js";

export const GAP_MS = 800;
// Higher wins a pending slot; an equal or higher newcomer replaces what waits.
export const PRIORITY = Object.freeze({ turn: 1, table: 2, you: 3, end: 4 });

/**
 * region: the live region element (role=status, aria-live=polite).
 * What is said: your turn (and what you still owe), a challenge and its count, who won a pile,
 * your wrong slaps, players out, back or eliminated, and the end. CPU flips are never said.
 */
export function createAnnouncer(region, { gapMs = GAP_MS, now = pageClock.now } = {}) {
  let pending = null; // {text, priority, valid}
  let lastSaidAt = -Infinity;
  let timer = 0;
  let toggle = false;
  let latest = null; // the latest view, to drop a "your turn" that is no longer true
  let turnSaid = false;
  const log = []; // [ms, text] for tests and debugging

  function say(text, priority, valid = null) {
    if (pending && priority < pending.priority) return;
    pending = { text, priority, valid };
    pump();
  }

  /** What happened to a seat, said of you (and first) or of another player. */
  function sayOfSeat(seat, youKey, otherKey) {
    say(saidOf(seat, youKey, otherKey), isYou(seat) ? PRIORITY.you : PRIORITY.table);
  }

  function pump() {
    if (timer || !pending) return;
    const wait = Math.max(0, lastSaidAt + gapMs - now());
    timer = setTimeout(emit, wait);
  }

  function emit() {
    timer = 0;
    const next = pending;
    pending = null;
    if (!next || (next.valid && !next.valid(latest))) return;
    // The same words twice in a row must still be spoken: alternate an invisible trailing space.
    toggle = !toggle;
    const text = sentenceStart(next.text);
    region.textContent = text + (toggle ? "" : "\u00a0");
    lastSaidAt = now();
    log.push([Math.round(lastSaidAt), text]);
    if (next.priority === PRIORITY.turn) turnSaid = true;
  }

  function onEvent(e, view) {
    switch (e.type) {
      case "pay_card": {
        const params = { card: cardName(e.card), payer: seatName(e.payer), owed: e.owed };
        say(isYou(e.payer) ? t("say.challengeYou", params) : t("say.challenge", params), PRIORITY.table);
        break;
      }
      case "slap_won":
        if (isYou(e.seat)) say(yourWonSlap(e), PRIORITY.you);
        else say(t("event.slapWon", { pattern: t(`pattern.${e.pattern}`), seat: seatName(e.seat) }), PRIORITY.table);
        break;
      case "pile_taken":
        if (e.how !== "slap")
          say(saidOf(e.seat, "event.pileTakenYou", "event.pileTaken", { count: e.cards }), PRIORITY.table);
        break;
      case "wrong_slap":
        if (isYou(e.seat)) say(yourWrongSlap(e, { scored: view?.mode === "daily" }), PRIORITY.you);
        else if (e.seat === yourSeat()) say(t("event.wrongSlap", { seat: seatName(e.seat) }), PRIORITY.table);
        break;
      case "late_slap":
        if (isYou(e.seat)) say(yourLateSlap(e), PRIORITY.you);
        break;
      case "player_out":
        sayOfSeat(e.seat, "event.playerOutYou", "event.playerOut");
        break;
      case "player_back":
        sayOfSeat(e.seat, "event.playerBackYou", "event.playerBack");
        break;
      case "player_eliminated":
        sayOfSeat(e.seat, "event.eliminatedYou", "event.eliminated");
        break;
      case "game_over":
        if (view.result)
          say(t("say.over", { title: resultTitle(view.result), score: view.result.score }), PRIORITY.end);
        break;
      default:
        break;
    }
  }

  /** Called with every view the actuator draws and the events that led to it. */
  function observe(view, events = []) {
    latest = view;
    for (const e of events) onEvent(e, view);
    if (!view.your_turn || view.over || isWatching()) {
      turnSaid = false;
      return;
    }
    if (!turnSaid) {
      const text = view.challenge ? t("say.youPay", { left: view.challenge.left }) : t("say.yourTurn");
      say(text, PRIORITY.turn, (v) => Boolean(v?.your_turn && !v.over));
    }
  }

  function reset() {
    clearTimeout(timer);
    timer = 0;
    pending = null;
    turnSaid = false;
    latest = null;
    region.textContent = "";
  }

  return { observe, reset, say, log: () => log.slice() };
}

// What the table draws, and when, with no DOM: views that arrive between two frames are drawn once, in the next
// frame (the newest view, with every event since the last frame, in order); and what a frame's events show
// (seat flashes, the pile's glow, a message, your reaction time, the pile flying to its taker, sounds).

import { yourSeat } from "../base/rule-numbers.js";

/**
 * requestFrame: requestAnimationFrame (or a stand-in); draw(view, events): what a frame does. put() queues and
 * asks for one frame however many views come before it; flush() draws what is queued now (also safe inside
 * another frame callback); forgetEvents() drops queued events, keeping the view (a new game's first frame).
 */
export function createFrameQueue(requestFrame, draw) {
  let view = null;
  let events = [];
  let requested = false;

  function flush() {
    requested = false;
    if (!view) return;
    const frame = [view, events];
    view = null;
    events = [];
    draw(...frame);
  }

  function put(nextView, nextEvents = []) {
    view = nextView;
    if (nextEvents.length) events = events.concat(nextEvents);
    if (!requested) {
      requested = true;
      requestFrame(flush);
    }
  }

  function forgetEvents() {
    events = [];
  }

  return { put, flush, forgetEvents };
}

/**
 * The feedback a frame's events give, in order: {flash: {seat, key, params, bad}}, {pile: "won" | "wrong"},
 * {toast: {event, bad, urgent}} (the message about that event; urgent ones replace what is showing),
 * {reaction: ms}, {taken: seat} (the pile flies there); and the set of sounds, each played once per frame.
 */
export function feedbackOf(events) {
  const effects = [];
  const sounds = new Set();
  const flash = (seat, key, params = {}, bad = false) => effects.push({ flash: { seat, key, params, bad } });
  const toast = (event, bad = false, urgent = false) => effects.push({ toast: { event, bad, urgent } });
  for (const e of events) {
    const yours = e.seat === yourSeat();
    switch (e.type) {
      case "flip":
      case "pay_card":
        sounds.add("flip");
        break;
      case "slap_won":
        flash(e.seat, "flash.slap");
        effects.push({ pile: "won" });
        toast(e, false, yours);
        if (yours && e.reaction_ms) effects.push({ reaction: e.reaction_ms });
        sounds.add(yours ? "won" : "slap");
        break;
      case "wrong_slap":
        flash(e.seat, "flash.wrong", {}, true);
        if (yours) {
          effects.push({ pile: "wrong" });
          toast(e, true, true);
          sounds.add("wrong");
        } else {
          toast(e);
        }
        break;
      case "pile_taken":
        flash(e.seat, "flash.taken", { count: e.cards });
        effects.push({ taken: e.seat });
        if (e.how !== "slap") toast(e); // a slap's own message already said who took it
        sounds.add("taken");
        break;
      case "player_out":
        flash(e.seat, "flash.out", {}, true);
        toast(e, yours);
        break;
      case "late_slap": // only too late: it cost nothing, and only the slapper is told
        if (yours) toast(e, false, true);
        break;
      case "player_back":
        flash(e.seat, "flash.back");
        toast(e);
        break;
      case "player_eliminated":
        flash(e.seat, "flash.eliminated", {}, true);
        toast(e, yours);
        break;
      default:
        break;
    }
  }
  return { effects, sounds: [...sounds] };
}

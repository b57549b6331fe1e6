// Draws the engine's view inside requestAnimationFrame and turns its events into brief, non-blocking feedback.

import { formatClock, formatNumber, t } from "../base/i18n.js";
import { tableSettings, yourSeat } from "../base/rule-numbers.js";
import { createMessageLine } from "./message-line.js";
import { createFrameQueue, feedbackOf } from "./schedule.js";
import {
  cardName,
  isWatching,
  isYou,
  JOKER,
  parseCard,
  rankLabel,
  saidOf,
  seatName,
  yourLateSlap,
  yourWonSlap,
  yourWrongSlap,
} from "./words.js";

const RED_SUITS = new Set(["H", "D"]);
const TOAST_MS = 1600;
const TOAST_READ_MS = 700; // the least a message stays before the next one replaces it
const GHOST_MS = 400;
const REACTION_MS = 1500; // how long your reaction time stays beside the pile

/** The classes that animate a card in from each seat (enter-south...), by the engine's seat names. */
const enterClasses = () => tableSettings().seats.map((seat) => `enter-${seat}`);

function createCardElement(card) {
  const { rank, suit } = parseCard(card);
  const el = document.createElement("div");
  el.className = RED_SUITS.has(suit) ? "card red" : "card";
  el.dataset.card = card;
  el.setAttribute("role", "img");
  if (rank === JOKER) return drawJoker(el, suit);
  const corner = `<span>${rankLabel(rank)}</span><svg aria-hidden="true"><use href="#suit-${suit}"/></svg>`;
  // What the card shows is drawn for the eye; its name (aria-label, "seven of hearts") is what is read.
  el.innerHTML =
    `<span class="card-corner" aria-hidden="true">${corner}</span>` +
    `<span class="card-face"><svg aria-hidden="true"><use href="#suit-${suit}"/></svg></span>` +
    `<span class="card-corner end" aria-hidden="true">${corner}</span>`;
  el.addEventListener("animationend", () => el.classList.remove(...enterClasses()));
  return el;
}

/** A Joker (the Jokers house rule): a star in its corners and on its face, red or black. */
function drawJoker(el, colour) {
  el.className = colour === "R" ? "card joker red" : "card joker";
  const corner = `<span>${rankLabel(JOKER)}</span>`;
  el.innerHTML =
    `<span class="card-corner" aria-hidden="true">${corner}</span>` +
    `<span class="card-face" aria-hidden="true">${rankLabel(JOKER)}</span>` +
    `<span class="card-corner end" aria-hidden="true">${corner}</span>`;
  el.addEventListener("animationend", () => el.classList.remove(...enterClasses()));
  return el;
}

/**
 * Starts the CSS animation that `name` gives `el`, from its beginning even if it is running or has ended.
 * Restarting through the Web Animations API costs a style update; the older trick (remove the class, read
 * offsetWidth, add it back) forced a whole layout in the middle of the frame that draws the input.
 */
function replay(el, name) {
  // Its own and its pseudo-elements' animations (the pile's glow is on ::after), not its children's.
  const animations = el.classList.contains(name)
    ? el.getAnimations({ subtree: true }).filter((animation) => animation.effect?.target === el)
    : [];
  for (const animation of animations) {
    animation.cancel();
    animation.play();
  }
  el.classList.add(name);
}

/** announcer (optional): told of every drawn view and its events, for the screen-reader live region. */
export function createActuator({ sound, announcer = null }) {
  const $ = (id) => document.getElementById(id);
  const pile = $("pile");
  const pileCards = $("pile-cards");
  const toast = $("toast");
  const reaction = $("reaction");
  const packButton = $("your-pack");
  // The seats as the page lays them out (index.html); the engine's views and events name them.
  const seats = Object.fromEntries(
    Array.from(document.querySelectorAll(".seat[data-seat]"), (root) => {
      const seat = root.dataset.seat;
      return [
        seat,
        {
          root,
          name: root.querySelector(".seat-name"),
          count: root.querySelector(".seat-count"),
          status: root.querySelector(".seat-status"),
          flash: root.querySelector(".seat-flash"),
        },
      ];
    }),
  );
  // The pile's one-shot animations keep no fill: drop their class once they end, so the next one starts anew.
  pile.addEventListener("animationend", (event) => {
    if (event.target === pile) pile.classList.remove("won", "wrong");
  });
  const cardCache = new Map();
  const memo = new Map(); // last text/attribute written, so unchanged frames touch no DOM
  const messages = createMessageLine(toast, { showMs: TOAST_MS, readMs: TOAST_READ_MS });
  let reactionTimer = 0;

  function cardElement(card) {
    if (!cardCache.has(card)) cardCache.set(card, createCardElement(card));
    const el = cardCache.get(card);
    el.setAttribute("aria-label", cardName(card));
    return el;
  }

  function setText(el, text) {
    if (memo.get(el) !== text) {
      memo.set(el, text);
      el.textContent = text;
    }
  }

  function setClass(el, name, on) {
    el.classList.toggle(name, Boolean(on));
  }

  // A view and its events are drawn in the next animation frame (or by flush()): schedule.js.
  const frames = createFrameQueue(requestAnimationFrame, (view, events) => {
    feedback(events, view);
    draw(view, events);
    announcer?.observe(view, events);
  });

  function draw(view, events) {
    drawSeats(view);
    drawPile(view, events);
    drawStatus(view);
  }

  function drawSeats(view) {
    for (const info of view.seats) {
      const seat = seats[info.seat];
      const cardsText = t("cards", { count: info.cards });
      let statusText = t(`status.${info.status}`);
      if (view.lenient && info.strikes > 0) statusText += ` · ${t("status.strikes", { count: info.strikes })}`;
      setText(seat.name, seatName(info.seat)); // South is "You", or the watched player's name
      setText(seat.count, formatNumber(info.cards));
      setText(seat.status, statusText);
      setClass(seat.root, "is-out", info.status === "out");
      setClass(seat.root, "is-eliminated", info.status === "eliminated");
      setClass(seat.root, "is-empty", info.cards === 0);
      setClass(seat.root, "is-turn", view.turn === info.seat && !view.over);
      const label = t("seat.label", { seat: seatName(info.seat), cards: cardsText, status: statusText });
      if (memo.get(seat.root) !== label) {
        memo.set(seat.root, label);
        seat.root.setAttribute("aria-label", label);
      }
    }
    // Your turn's highlight and hint are a prompt to act: none while a game is watched.
    const prompt = view.your_turn && !view.over && !isWatching();
    setClass(seats[yourSeat()].root, "is-your-turn", prompt);
    // Your pack is the flip button: its name says what the seat shows, and the hint when it is shown.
    const you = view.seats.find((info) => info.seat === yourSeat());
    let packLabel = seats[yourSeat()].root.getAttribute("aria-label");
    if (you && prompt) packLabel += ` — ${t("table.flipHint")}`;
    if (memo.get(packButton) !== packLabel) {
      memo.set(packButton, packLabel);
      packButton.setAttribute("aria-label", packLabel);
    }
  }

  function drawPile(view, events) {
    const top = view.pile.top;
    const key = `${top.join(",")}/${view.pile.size}`;
    if (memo.get(pileCards) !== key) {
      memo.set(pileCards, key);
      const flipped = new Map();
      for (const e of events) if (e.type === "flip" || e.type === "pay_card") flipped.set(e.card, e.seat);
      const nodes = top.map(cardElement);
      const last = top[top.length - 1];
      if (last && flipped.has(last)) {
        const el = nodes[nodes.length - 1];
        el.classList.remove(...enterClasses());
        el.classList.add(`enter-${flipped.get(last)}`);
      }
      pileCards.replaceChildren(...nodes);
      pile.setAttribute("aria-label", pileLabel(view.pile));
    }
    setText($("pile-size"), t("pile.size", { count: view.pile.size }));
    setText($("pile-burned"), t("pile.burned", { count: view.pile.burned }));
    setClass(pile, "has-burned", view.pile.burned > 0);
  }

  /** "Pile, 12 cards. From the top: two of clubs, king of spades, seven of hearts". */
  function pileLabel({ top, size }) {
    if (!size) return t("table.pileEmpty");
    const sizeText = t("pile.size", { count: size });
    if (!top.length) return t("table.pileNoTop", { size: sizeText });
    return t("table.pile", { size: sizeText, cards: [...top].reverse().map(cardName).join(", ") });
  }

  function turnText(view) {
    if (view.over) return t("turn.over");
    if (view.collecting) {
      return isYou(view.collecting.by)
        ? t("turn.collectingYou")
        : t("turn.collecting", { seat: seatName(view.collecting.by) });
    }
    if (view.your_turn && isWatching()) {
      // A watched game says whose turn it is, never "flip!".
      if (!isYou(yourSeat())) return t("turn.seat", { seat: seatName(yourSeat()) });
      return view.challenge ? t("say.youPay", { left: view.challenge.left }) : t("say.yourTurn");
    }
    if (view.your_turn) return view.challenge ? t("turn.youPay") : t("turn.you");
    return view.turn ? t("turn.seat", { seat: seatName(view.turn) }) : "\u00a0";
  }

  function challengeText(view) {
    const c = view.challenge;
    if (!c || view.over) return "\u00a0";
    const params = { payer: seatName(c.payer), owed: c.owed, left: c.left };
    return isYou(c.payer) ? t("challenge.youPay", params) : t("challenge.pays", params);
  }

  function drawStatus(view) {
    setText($("turn"), turnText(view));
    setText($("challenge"), challengeText(view));
    setText($("clock"), formatClock(view.over && view.result ? view.result.duration_ms : view.clock));
    setText($("wrong"), formatNumber(view.wrong_slaps));
    // The daily: what a win would score now, or the final score. Practice is not scored, and says so.
    const scored = view.mode === "daily";
    setText($("score"), scored ? formatNumber(view.score) : t("stats.notScored"));
    if (memo.get("score:scored") !== scored) {
      memo.set("score:scored", scored);
      $("score").classList.toggle("unscored", !scored); // words, not a number: smaller, so a phone's header fits
    }
  }

  // ---- Feedback from events: flashes, toasts, sounds; never blocks input ----

  function flashSeat(seat, text, bad = false) {
    const el = seats[seat].flash;
    el.textContent = text;
    el.classList.toggle("bad", bad);
    replay(el, "show");
  }

  function showToast(text, bad = false, urgent = false) {
    messages.show(text, bad, { urgent });
  }

  function showReaction(ms) {
    reaction.textContent = t("table.reaction", { ms });
    reaction.classList.add("show");
    clearTimeout(reactionTimer);
    reactionTimer = setTimeout(() => reaction.classList.remove("show"), REACTION_MS);
  }

  function sendPileTo(seat) {
    if (!pileCards.children.length) return;
    const ghost = pileCards.cloneNode(true);
    ghost.removeAttribute("id");
    ghost.setAttribute("aria-hidden", "true");
    ghost.style.pointerEvents = "none";
    pile.append(ghost);
    requestAnimationFrame(() => ghost.classList.add("taken", `taken-${seat}`));
    setTimeout(() => ghost.remove(), GHOST_MS);
  }

  /** The message about one event: yours in your words, another seat's by its name. */
  function toastText(e, view) {
    switch (e.type) {
      case "slap_won":
        return isYou(e.seat)
          ? yourWonSlap(e)
          : t("event.slapWon", { pattern: t(`pattern.${e.pattern}`), seat: seatName(e.seat) });
      case "wrong_slap":
        return isYou(e.seat)
          ? yourWrongSlap(e, { scored: view.mode === "daily" })
          : t("event.wrongSlap", { seat: seatName(e.seat) });
      case "late_slap":
        return yourLateSlap(e);
      case "pile_taken":
        return saidOf(e.seat, "event.pileTakenYou", "event.pileTaken", { count: e.cards });
      case "player_out":
        return saidOf(e.seat, "event.playerOutYou", "event.playerOut");
      case "player_back":
        return saidOf(e.seat, "event.playerBackYou", "event.playerBack");
      case "player_eliminated":
        return saidOf(e.seat, "event.eliminatedYou", "event.eliminated");
      default:
        return "";
    }
  }

  function feedback(events, view) {
    const { effects, sounds } = feedbackOf(events);
    for (const effect of effects) {
      if (effect.flash) flashSeat(effect.flash.seat, t(effect.flash.key, effect.flash.params), effect.flash.bad);
      else if (effect.pile) replay(pile, effect.pile);
      else if (effect.toast) showToast(toastText(effect.toast.event, view), effect.toast.bad, effect.toast.urgent);
      else if (effect.reaction) showReaction(effect.reaction);
      else if (effect.taken) sendPileTo(effect.taken);
    }
    for (const name of sounds) sound.play(name);
  }

  function reset() {
    announcer?.reset();
    memo.clear();
    frames.forgetEvents();
    messages.clear();
    reaction.classList.remove("show");
  }

  return { update: frames.put, flush: frames.flush, reset };
}

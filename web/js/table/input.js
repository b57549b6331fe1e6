// Turns keys and taps into named intents ("flip", "slap", "menu") carrying the event's own time.

import { pageClock } from "../base/clock.js";

// Any finger counts (one thumb flips while the other slaps); a mouse only with its main button.
function isPrimaryPointer(event) {
  return event.pointerType !== "mouse" || event.button === 0;
}

/**
 * onIntent(name, time) is called synchronously from the event handler, with the event's own time on the page's
 * clock (clock.eventTime). isPlaying() gates the game keys, so Enter and Space work normally in the menus.
 * table: the element whose parts (and SLAP!) take the game keys when focused; any other focused control takes its
 * own Enter and Space (the Menu button opens the menu, it does not slap).
 */
export function createInput({ table, pack, pile, slapButton, onIntent, isPlaying, clock = pageClock }) {
  const intend = (intent, event) => onIntent(intent, clock.eventTime(event));
  const keysArePlays = (target) =>
    !(target instanceof Element) ||
    target === document.body ||
    target === document.documentElement ||
    target === slapButton ||
    table.contains(target);

  function onKeyDown(event) {
    if (event.key === "Escape") {
      intend("menu", event);
      return;
    }
    if (!isPlaying() || !keysArePlays(event.target)) return;
    const intent = event.key === "Enter" ? "flip" : event.key === " " || event.code === "Space" ? "slap" : null;
    if (!intent) return;
    event.preventDefault(); // no scrolling, no button activation
    if (event.repeat) return; // holding a key is one action, not a stream of them
    intend(intent, event);
  }

  function onPointer(intent) {
    return (event) => {
      if (!isPrimaryPointer(event)) return;
      event.preventDefault(); // no focus change, no text selection, no emulated mouse events
      if (!isPlaying()) return;
      intend(intent, event);
    };
  }

  function pressed(event) {
    slapButton.classList.add("pressed");
    const release = () => slapButton.classList.remove("pressed");
    slapButton.addEventListener("pointerup", release, { once: true });
    slapButton.addEventListener("pointercancel", release, { once: true });
    return event;
  }

  const flipHandler = onPointer("flip");
  const slapHandler = onPointer("slap");
  window.addEventListener("keydown", onKeyDown);
  pack.addEventListener("pointerdown", flipHandler);
  pile.addEventListener("pointerdown", slapHandler);
  slapButton.addEventListener("pointerdown", (event) => slapHandler(pressed(event)));
  // Screen readers and switch access activate with a synthetic click (no pointer: detail 0): the same intents.
  // Real taps and clicks (detail >= 1) were already handled on pointerdown; keys never reach here (prevented).
  const assistive = (intent) => (event) => {
    if (event.detail !== 0 || !isPlaying()) return;
    intend(intent, event);
  };
  pack.addEventListener("click", assistive("flip"));
  pile.addEventListener("click", assistive("slap"));
  slapButton.addEventListener("click", assistive("slap"));
  // Keyboard users reach SLAP! with Tab; its Enter/Space are the game keys above.
  slapButton.setAttribute("aria-keyshortcuts", "Space");
  pack.setAttribute("aria-keyshortcuts", "Enter");
}

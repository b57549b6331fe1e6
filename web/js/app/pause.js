// Pauses the game while the player cannot play it: a panel over the table (the menu), a dialog (how to play,
// about, a question) or the page hidden. The engine's clock is game time, so a pause simply stops advancing it;
// the table is covered meanwhile (body[data-paused]), so nobody studies the pile for free.

/**
 * events: the app's emitter; games: {isRunning, pause, resume}; dialogsOpen(): whether a modal dialog is open;
 * onHidden(): what to do when the page is hidden mid-game (open the menu, so the player comes back to a pause).
 * Returns {update()}: call it when a dialog opens or closes.
 */
export function startPausing({ events, games, dialogsOpen, onHidden }) {
  function shouldPause() {
    const { phase, panel } = events.state();
    return phase === "playing" && (panel !== null || dialogsOpen() || document.visibilityState === "hidden");
  }

  function update() {
    const pause = games.isRunning() && shouldPause();
    // A game on the table waits under a watch, paused but not covered: the table is the watch's then.
    if (pause || events.state().phase === "watching") games.pause();
    else if (games.isRunning()) games.resume();
    document.body.toggleAttribute("data-paused", pause);
  }

  events.on("state", update);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden" && events.state().phase === "playing") onHidden();
    update();
  });
  update();
  return { update };
}

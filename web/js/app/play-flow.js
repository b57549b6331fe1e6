// What the player's choices do to the game on the table: resume it, give it up, or leave it for another. Nothing
// running is ever lost without a question: giving up or leaving asks first, and a scored daily ends only then.

import { t } from "../base/i18n.js";

/** The question before giving up or leaving `running` ({scored, ...}); `leaving`: for another game. */
function question(running, leaving) {
  const kind = running.scored ? "daily" : "practice";
  return {
    title: t(`ask.${leaving ? "leave" : "giveUp"}.${kind}.title`),
    text: t(`ask.${leaving ? "leave" : "giveUp"}.${kind}.text`),
    stay: t("ask.stay"),
    leave: t(`ask.${leaving ? "leave" : "giveUp"}.${kind}.action`),
  };
}

/**
 * events: the app's emitter; games: the game keeper (start, current, leave, resign); confirm: the question
 * dialog ({ask}); beforeStart(): run in the player's gesture before a game starts (sound is set up there).
 */
export function createPlayFlow({ events, games, confirm, beforeStart = () => {} }) {
  function resume() {
    if (games.current()) events.setState({ panel: null });
  }

  /** Starts the chosen game; over a running one, asks first (the daily on the table is simply resumed). */
  async function choose(choice) {
    const running = games.current();
    if (running) {
      if (choice.mode === "daily" && running.scored) {
        resume();
        return;
      }
      if (!(await confirm.ask(question(running, true)))) return;
      games.leave();
    }
    beforeStart();
    games.start(choice);
  }

  /** Gives the running game up, after a question; its result shows as for any end. */
  async function giveUp() {
    const running = games.current();
    if (!running || !(await confirm.ask(question(running, false)))) return;
    games.resign();
  }

  return { choose, resume, giveUp };
}

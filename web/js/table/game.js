// Drives one game session: starts it through the bridge, sends timed flips and slaps, wakes the engine in a rAF loop.

import { pageClock } from "../app/clock.js";

/**
 * Game time: whole ms since the deal on `clock`'s timeline, never going back (the engine refuses a time before
 * one it was given). at(pageTime) for an input's own time, now() for a frame.
 */
function createGameTime(clock) {
  let start = 0;
  let last = 0;

  function at(pageTime) {
    last = Math.max(last, Math.floor(pageTime - start));
    return last;
  }

  return {
    restart() {
      start = clock.now();
      last = 0;
    },
    at,
    now: () => at(clock.now()),
    /** Game ms now, without telling the engine: whether a frame is due. */
    peek: () => Math.floor(clock.now() - start),
  };
}

/**
 * bridge: the ewar.bridge module (a Pyodide proxy). actuator: draws views and events.
 * onOver(view, session) runs once when the engine says the game is over.
 * clock: the page's clock ({now(), eventTime(event)}); act() takes times on its timeline.
 */
export function createGame({ bridge, actuator, onOver, clock = pageClock }) {
  const time = createGameTime(clock);
  let session = null;
  let view = null;
  let running = false;

  function apply(answerJson) {
    const answer = JSON.parse(answerJson);
    view = answer.view;
    actuator.update(view, answer.events);
    return answer;
  }

  /**
   * Start a session. mode "daily" (date required) or "practice" (seed, speed, lenient).
   * Python's None is passed as undefined: Pyodide turns JavaScript null into jsnull, not None.
   */
  function start({ mode, seed, speed = "normal", lenient = false, date }) {
    stop();
    session?.destroy();
    session =
      mode === "daily"
        ? bridge.new_game("daily", undefined, undefined, undefined, date) // the engine sets the daily's rules
        : bridge.new_game("practice", seed, speed, Boolean(lenient), undefined);
    actuator.reset();
    time.restart();
    apply(session.frame(0));
    running = true;
    requestAnimationFrame(tick);
    return view;
  }

  function tick() {
    if (!running) return;
    const now = time.peek();
    const due = view.wake_at !== null && now >= view.wake_at;
    const newSecond = Math.floor(now / 1000) !== Math.floor(view.clock / 1000);
    if (due || newSecond) apply(session.frame(time.now()));
    actuator.flush();
    if (view.over) finish();
    else requestAnimationFrame(tick);
  }

  /** A human intent ("flip" or "slap") at the input's own time (clock.eventTime of its event). */
  function act(intent, pageTime) {
    if (!running) return null;
    const answer = apply(session[intent](time.at(pageTime)));
    if (view.over) finish();
    return answer;
  }

  function finish() {
    if (!running) return;
    running = false;
    actuator.flush();
    onOver(view, session);
  }

  function stop() {
    running = false;
  }

  return {
    start,
    act,
    stop,
    view: () => view,
    isRunning: () => running,
    replay: () => session?.replay() ?? null,
  };
}

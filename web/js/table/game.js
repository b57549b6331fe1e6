// Drives one game session: starts or restores it through the bridge, sends timed flips, slaps and a resignation,
// wakes the engine in a rAF loop, and stops its clock while the game is paused.

import { pageClock } from "../base/clock.js";

/**
 * Game time: whole ms since the deal on `clock`'s timeline, not counting the time spent paused, never going back
 * (the engine refuses a time before one it was given). at(pageTime) for an input's own time, now() for a frame.
 */
function createGameTime(clock) {
  let start = 0;
  let last = 0;
  let pausedAt = null; // page time the pause began, or null while the clock runs

  /** Game ms at a page time; a time inside a pause counts as the pause's start. */
  function at(pageTime) {
    const until = pausedAt === null ? pageTime : Math.min(pageTime, pausedAt);
    last = Math.max(last, Math.floor(until - start));
    return last;
  }

  return {
    /** The clock starts at `fromMs` of game time (0 for a new deal, the saved clock for a restored game). */
    restart(fromMs = 0) {
      start = clock.now() - fromMs;
      last = fromMs;
      pausedAt = null;
    },
    pause() {
      pausedAt ??= clock.now();
    },
    resume() {
      if (pausedAt === null) return;
      start += clock.now() - pausedAt;
      pausedAt = null;
    },
    at,
    now: () => at(clock.now()),
    /** Game ms now, without telling the engine: whether a frame is due. */
    peek: () => Math.floor((pausedAt ?? clock.now()) - start),
  };
}

/**
 * bridge: the ewar.bridge module (a Pyodide proxy). actuator: draws views and events.
 * onOver(view, session) runs once when the engine says the game is over; onChange(view, events) after every
 * answer that changed the game (an action, or a frame with events): the moment to save it.
 * clock: the page's clock ({now(), eventTime(event)}); act() takes times on its timeline.
 */
export function createGame({ bridge, actuator, onOver, onChange = () => {}, clock = pageClock }) {
  const time = createGameTime(clock);
  let session = null;
  let view = null;
  let running = false;
  let paused = false;
  let frameRequested = false;

  function apply(answerJson, { acted = false } = {}) {
    const answer = JSON.parse(answerJson);
    view = answer.view;
    actuator.update(view, answer.events);
    if (acted || answer.events.length) onChange(view, answer.events);
    return answer;
  }

  function begin(newSession, clockMs) {
    stop();
    session?.destroy();
    session = newSession;
    actuator.reset();
    time.restart(clockMs);
    paused = false;
    apply(session.frame(clockMs));
    running = true;
    requestFrame();
    return view;
  }

  /**
   * Start a session. mode "daily" (date required) or "practice" (seed, speed: one the engine names, lenient, houseRules: the engine's
   * names of the house rules on; or a past daily's date, played again with its own deal and computer players).
   * Python's None is passed as undefined: Pyodide turns JavaScript null into jsnull, not None.
   */
  function start({ mode, seed, speed, lenient = false, date, houseRules = [] }) {
    const fresh =
      mode === "daily"
        ? bridge.new_game("daily", undefined, undefined, undefined, date) // the engine sets the daily's rules
        : bridge.new_game("practice", seed, speed, Boolean(lenient), date ?? undefined, [...houseRules]);
    return begin(fresh, 0);
  }

  /**
   * The game of a saved record (replay JSON) at its saved clock, as it was; throws (the engine's ReplayError or
   * TimeBeforeClockError, as a PythonError) when the record cannot be played, changing nothing.
   */
  function restore(replayJson, clockMs) {
    const restored = bridge.resume(replayJson, clockMs);
    return begin(restored, clockMs);
  }

  function requestFrame() {
    if (frameRequested || !running || paused) return;
    frameRequested = true;
    requestAnimationFrame(tick);
  }

  function tick() {
    frameRequested = false;
    if (!running || paused) return;
    const now = time.peek();
    const due = view.wake_at !== null && now >= view.wake_at;
    const newSecond = Math.floor(now / 1000) !== Math.floor(view.clock / 1000);
    if (due || newSecond) apply(session.frame(time.now()));
    actuator.flush();
    if (view.over) finish();
    else requestFrame();
  }

  /** A human intent ("flip" or "slap") at the input's own time (clock.eventTime of its event). */
  function act(intent, pageTime) {
    if (!running || paused) return null;
    return done(apply(session[intent](time.at(pageTime)), { acted: true }));
  }

  /** The human gives up now (paused or not: it is chosen from the menu); the game ends as a loss. */
  function resign() {
    if (!running) return null;
    return done(apply(session.resign(time.now()), { acted: true }));
  }

  function done(answer) {
    if (view.over) finish();
    return answer;
  }

  /**
   * Stops the game's clock: nothing happens at the table until resume(). The engine is brought up to the moment
   * of the pause first, so the view (and the saved game) hold the exact time played.
   */
  function pause() {
    if (!running || paused) return;
    apply(session.frame(time.now()));
    if (view.over) {
      finish();
      return;
    }
    paused = true;
    time.pause();
  }

  function resume() {
    if (!running || !paused) return;
    paused = false;
    time.resume();
    requestFrame();
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
    restore,
    act,
    resign,
    stop,
    pause,
    resume,
    view: () => view,
    isRunning: () => running,
    isPaused: () => running && paused,
    replay: () => session?.replay() ?? null,
  };
}

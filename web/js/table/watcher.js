// Plays a finished game's record back on the table: its own rAF loop moves the watch's time (start + elapsed page
// time × speed), asks the engine's watch session for the table at that moment and hands it to the actuator. The
// player's game is not involved: nothing here acts, saves or sends.

import { pageClock } from "../base/clock.js";

export const SPEEDS = Object.freeze([1, 2, 4]);

/**
 * bridge: the ewar.bridge module; actuator: draws views and events (the table's own); clock: the page's clock.
 * onMoment(ms, view) after every drawn moment; onEnd(view) once the watch reaches the game's end.
 */
export function createWatcher({ bridge, actuator, clock = pageClock, onMoment = () => {}, onEnd = () => {} }) {
  let session = null;
  let timeline = null;
  let moment = 0; // the watch's time, in game ms
  let speed = 1;
  let playing = false;
  let anchor = { page: 0, game: 0 }; // where the running watch's time is measured from
  let frameRequested = false;

  function draw(answerJson) {
    const answer = JSON.parse(answerJson);
    if (answer.error) throw new Error(answer.error.message);
    actuator.update(answer.view, answer.events);
    actuator.flush();
    onMoment(moment, answer.view);
    return answer.view;
  }

  /** Opens a record (replay JSON) at its start; returns its timeline. Throws when the record cannot be watched. */
  function open(recordJson) {
    close();
    session = bridge.watch(recordJson); // a PythonError (ReplayError) for a malformed or unfinished record
    timeline = JSON.parse(session.timeline());
    speed = 1;
    seek(0);
    return timeline;
  }

  /** Jumps to `ms` of game time (clamped to the game): the table as it was then, without replaying the way. */
  function seek(ms) {
    if (!session) return null;
    moment = Math.min(Math.max(Math.floor(ms), 0), timeline.duration_ms);
    anchor = { page: clock.now(), game: moment };
    actuator.reset();
    const view = draw(session.seek(moment));
    if (moment >= timeline.duration_ms) finish(view);
    return view;
  }

  function play() {
    if (!session || playing) return;
    if (moment >= timeline.duration_ms) seek(0); // from the end, play starts the game again
    playing = true;
    anchor = { page: clock.now(), game: moment };
    requestFrame();
  }

  function pause() {
    if (!playing) return;
    advance();
    playing = false;
  }

  /** 1, 2 or 4 game seconds per page second, from now on. */
  function setSpeed(value) {
    if (!SPEEDS.includes(value)) throw new Error(`a watch speed is one of ${SPEEDS.join(", ")}, not ${value}`);
    if (playing) advance();
    speed = value;
    anchor = { page: clock.now(), game: moment };
  }

  function advance() {
    const target = Math.min(timeline.duration_ms, Math.floor(anchor.game + (clock.now() - anchor.page) * speed));
    if (target <= moment && moment > 0) return null;
    moment = target;
    const view = draw(session.frame(moment));
    if (moment >= timeline.duration_ms) finish(view);
    return view;
  }

  function finish(view) {
    playing = false;
    onEnd(view);
  }

  function requestFrame() {
    if (frameRequested || !playing) return;
    frameRequested = true;
    requestAnimationFrame(tick);
  }

  function tick() {
    frameRequested = false;
    if (!playing) return;
    advance();
    requestFrame();
  }

  /** Stops watching and lets the engine's session go. */
  function close() {
    playing = false;
    session?.destroy?.();
    session = null;
    timeline = null;
  }

  return {
    open,
    play,
    pause,
    seek,
    setSpeed,
    close,
    isOpen: () => session !== null,
    isPlaying: () => playing,
    speed: () => speed,
    moment: () => moment,
    timeline: () => timeline,
  };
}

// The page's game clock: performance.now()'s timeline, the one input events are stamped on. (Wall time and days
// are web/common/clock.js's.) A test that fakes performance.now() brings the events' stamps onto its timeline on
// its own side (tests/web/pagedriver.py), so the page reads both the same way on every clock.

/** Now, in ms on the page's timeline. */
function now() {
  return performance.now();
}

/** When an input event happened, on now()'s timeline: its own stamp, however long it waited for the main thread. */
function eventTime(event) {
  return Math.min(event.timeStamp, now());
}

/** The clock the page runs on; game and input take it as a parameter, so another can be given. */
export const pageClock = Object.freeze({ now, eventTime });

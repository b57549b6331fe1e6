// The page's clock: performance.now()'s timeline, the one input events are stamped on. A test may drive it with a
// fake clock (Playwright's page.clock), so that whole games play in seconds; game times stay right either way.

// Two readings of the same clock taken one after the other differ by less than this (timers are coarsened to
// 5-100 µs); a fake clock and the real one differ by far more.
const SAME_CLOCK_MS = 1;

/** Now, in ms on the page's timeline. */
function now() {
  return performance.now();
}

/**
 * When an input event happened, on now()'s timeline: in real use exactly its own event.timeStamp, however long it
 * waited for the main thread. Should a fake clock drive performance.now() but not the stamps of events, the
 * event's age is measured on the stamps' own timeline (against a fresh event's stamp) and taken back from now().
 * Never later than now.
 */
function eventTime(event) {
  const stamp = event.timeStamp;
  const current = now();
  const stampNow = new Event("ewar-clock-probe").timeStamp;
  if (Math.abs(stampNow - current) < SAME_CLOCK_MS) return Math.min(stamp, current);
  return current - Math.max(0, stampNow - stamp);
}

/** The clock the page runs on; game and input take it as a parameter, so another can be given. */
export const pageClock = Object.freeze({ now, eventTime });

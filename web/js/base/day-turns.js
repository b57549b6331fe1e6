// The UTC day turning under an open page: one signal for everything that shows a date (the boards' tabs, the
// daily, the countdowns, the streak), heard the same in every panel.

// A timer to the next midnight misses a day that turns otherwise: a clock set back (or forward by hand), a tab
// asleep through midnight. These catch them: a coarse periodic look, and the page shown again.
const CHECK_EVERY_MS = 60_000;

/**
 * Calls onTurn({today, previous}) each time clock.today() changes: at each UTC midnight (a timer to it, re-armed),
 * and when a look finds the date moved by other means (a clock set back or ahead, a sleeping tab: a check every
 * minute and when the page becomes visible). timers: {setTimeout, clearTimeout, setInterval, clearInterval}; doc:
 * the document whose visibility is heard (none in a worker). Returns {today, check, stop}.
 */
export function watchDayTurns({ clock, onTurn, timers = globalThis, doc = globalThis.document }) {
  let today = clock.today();
  let timer = 0;

  function check() {
    const now = clock.today();
    if (now !== today) {
      const previous = today;
      today = now;
      onTurn({ today, previous });
    }
    arm();
  }

  function arm() {
    timers.clearTimeout(timer);
    timer = timers.setTimeout(check, clock.msToNextDay());
  }

  const onVisible = () => {
    if (doc.visibilityState !== "hidden") check();
  };
  const interval = timers.setInterval(check, CHECK_EVERY_MS);
  doc?.addEventListener("visibilitychange", onVisible);
  arm();

  return {
    today: () => today,
    check,
    stop() {
      timers.clearTimeout(timer);
      timers.clearInterval(interval);
      doc?.removeEventListener("visibilitychange", onVisible);
    },
  };
}

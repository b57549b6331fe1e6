// The one wall clock (web/common/clock.js) and the day's turn under an open page (web/js/base/day-turns.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { addDays, createClock, DAY_MS, dayStart, msToNextDay, previousDay, utcDay } from "../../web/common/clock.js";
import { watchDayTurns } from "../../web/js/base/day-turns.js";

const at = (text) => Date.parse(text);

test("days: the UTC date of a time, the day before and after, the ms to the next midnight", () => {
  assert.equal(utcDay(at("2026-11-30T23:59:59.999Z")), "2026-11-30");
  assert.equal(utcDay(at("2026-12-01T00:00:00Z")), "2026-12-01");
  assert.equal(previousDay("2026-03-01"), "2026-02-28");
  assert.equal(addDays("2026-12-31", 1), "2027-01-01");
  assert.equal(msToNextDay(at("2026-11-30T23:59:59Z")), 1000);
  assert.equal(msToNextDay(at("2026-12-01T00:00:00Z")), DAY_MS);
  assert.ok(Number.isNaN(dayStart("2026-12-1")));
  assert.throws(() => previousDay("yesterday"), RangeError);
});

test("a clock reads its source only: now, today and the next midnight follow it", () => {
  let ms = at("2026-11-30T23:59:00Z");
  const clock = createClock({ read: () => ms });
  assert.equal(clock.today(), "2026-11-30");
  assert.equal(clock.msToNextDay(), 60_000);
  ms += 60_000;
  assert.equal(clock.today(), "2026-12-01");
  ms -= 3 * 60_000; // set back
  assert.equal(clock.today(), "2026-11-30");
  assert.throws(() => createClock({}), TypeError);
});

test("the server's Date header is believed beyond a minute's skew, kept, and a bad header changes nothing", () => {
  const kept = [];
  const device = at("2026-11-30T23:00:00Z");
  const clock = createClock({ read: () => device, keepOffset: (ms) => kept.push(ms) });
  clock.learnServerTime(new Date(device + 30_000).toUTCString()); // within a minute: the device is right
  assert.equal(clock.now(), device);
  clock.learnServerTime(new Date(device + 2 * 3_600_000).toUTCString()); // the device is two hours behind
  assert.equal(clock.today(), "2026-12-01");
  assert.deepEqual(kept, [2 * 3_600_000]);
  for (const header of [null, "", "soon"]) clock.learnServerTime(header);
  assert.equal(clock.now(), device + 2 * 3_600_000);
  const again = createClock({ read: () => device, offsetMs: kept[0] }); // the next visit starts from what was kept
  assert.equal(again.today(), "2026-12-01");
});

/**
 * Time as a device has it: timers run on a steady count (moveTo(ms) runs the due ones, in order), while the wall
 * clock read() may be set apart from it (setTo(ms), a clock set by hand).
 */
function fakeTime(start) {
  let steady = 0;
  let shift = start; // wall time = steady + shift
  let next = 1;
  const pending = new Map(); // id -> {at, run, every}, at on the steady count
  const add = (run, delay, every) => {
    pending.set(next, { at: steady + delay, run, every });
    return next++;
  };
  const timers = {
    setTimeout: (run, delay) => add(run, delay, 0),
    setInterval: (run, every) => add(run, every, every),
    clearTimeout: (id) => pending.delete(id),
    clearInterval: (id) => pending.delete(id),
  };
  function moveTo(wall) {
    const target = wall - shift;
    for (;;) {
      const due = [...pending.entries()].filter(([, t]) => t.at <= target).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      const [id, timer] = due;
      steady = timer.at;
      if (timer.every) timer.at += timer.every;
      else pending.delete(id);
      timer.run();
    }
    steady = target;
  }
  return { timers, moveTo, setTo: (wall) => (shift = wall - steady), read: () => steady + shift };
}

function fakeDocument() {
  const listeners = new Set();
  return {
    visibilityState: "visible",
    addEventListener: (_name, listener) => listeners.add(listener),
    removeEventListener: (_name, listener) => listeners.delete(listener),
    show() {
      this.visibilityState = "visible";
      for (const listener of listeners) listener();
    },
  };
}

test("the day turns at midnight, once, and again at the next", () => {
  const time = fakeTime(at("2026-11-30T23:59:58Z"));
  const clock = createClock({ read: time.read });
  const turns = [];
  const watch = watchDayTurns({ clock, onTurn: (turn) => turns.push(turn), timers: time.timers, doc: null });
  time.moveTo(at("2026-11-30T23:59:59.999Z"));
  assert.deepEqual(turns, []);
  time.moveTo(at("2026-12-01T00:00:00Z"));
  assert.deepEqual(turns, [{ today: "2026-12-01", previous: "2026-11-30" }]);
  time.moveTo(at("2026-12-01T23:00:00Z"));
  assert.equal(turns.length, 1);
  time.moveTo(at("2026-12-02T00:00:00Z"));
  assert.deepEqual(turns.at(-1), { today: "2026-12-02", previous: "2026-12-01" });
  watch.stop();
  time.moveTo(at("2026-12-04T00:00:00Z"));
  assert.equal(turns.length, 2);
});

test("a clock set back turns the day back within the minute's look; a page shown again looks at once", () => {
  const time = fakeTime(at("2026-12-01T00:00:30Z"));
  const clock = createClock({ read: time.read });
  const doc = fakeDocument();
  const turns = [];
  watchDayTurns({ clock, onTurn: (turn) => turns.push(turn), timers: time.timers, doc });
  time.setTo(at("2026-11-30T22:00:00Z")); // set back: no timer is due
  time.moveTo(time.read() + 59_000);
  assert.deepEqual(turns, []); // heard at the next look, a minute after the page started watching
  time.moveTo(time.read() + 1_000);
  assert.deepEqual(turns, [{ today: "2026-11-30", previous: "2026-12-01" }]);
  // Asleep over midnight (no timer ran): shown again, the page hears the day at once.
  time.setTo(at("2026-12-03T08:00:00Z"));
  doc.show();
  assert.deepEqual(turns.at(-1), { today: "2026-12-03", previous: "2026-11-30" });
  assert.equal(turns.length, 2);
});

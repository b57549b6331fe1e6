// Wall time and UTC days. Each runtime makes ONE clock at its composition root (the page's main.js, the service
// worker's worker.js, each function's entry file) and hands it to whatever decides by the date; tests hand in
// their own. The day arithmetic below is pure: it converts times it is given and never reads the time itself.

import { DAY_MS, utcDay } from "./contract.js";

export { DAY_MS, utcDay };

// Within this the device's clock is taken as right; beyond it the server's Date header is believed (docs/scores.md).
const SKEW_MS = 60_000;
const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** The epoch ms of a date's UTC midnight ("2026-11-30" -> ...); NaN for text that is no YYYY-MM-DD date. */
export function dayStart(date) {
  const text = String(date ?? "");
  return DATE_PATTERN.test(text) ? Date.parse(`${text}T00:00:00Z`) : Number.NaN;
}

/** The date `days` after `date` (before it when negative): addDays("2026-12-01", -1) -> "2026-11-30". */
export function addDays(date, days) {
  const start = dayStart(date);
  if (Number.isNaN(start)) throw new RangeError(`date ${JSON.stringify(date)}: not YYYY-MM-DD`);
  return utcDay(start + days * DAY_MS);
}

/** "2026-11-30" -> "2026-11-29". */
export function previousDay(date) {
  return addDays(date, -1);
}

/** Ms from the epoch time `ms` to the next UTC midnight, when the next daily deal begins: in (0, DAY_MS]. */
export function msToNextDay(ms) {
  return DAY_MS - (((ms % DAY_MS) + DAY_MS) % DAY_MS);
}

/**
 * A clock. read(): the time source in epoch ms (the system's at a composition root, a test's own in tests).
 * offsetMs: how far the server's clock is known to be ahead of the source; keepOffset(ms) is told each new offset
 * (the page keeps it across visits). The clock: now() (epoch ms, the server's time once known), today() (the UTC
 * date of now), msToNextDay(), and learnServerTime(dateHeader), which believes an answer's Date header when the
 * source is more than a minute off it: a device clock set ahead opens no daily early, nor a locked deal.
 */
export function createClock({ read, offsetMs = 0, keepOffset = () => {} }) {
  if (typeof read !== "function") throw new TypeError("createClock needs read(): the time source in epoch ms");
  let offset = Number.isFinite(offsetMs) ? offsetMs : 0;
  const now = () => read() + offset;
  return Object.freeze({
    now,
    today: () => utcDay(now()),
    msToNextDay: () => msToNextDay(now()),
    /** Learns the server's time from a Date header (text); a header missing or unreadable changes nothing. */
    learnServerTime(dateHeader) {
      const serverMs = Date.parse(dateHeader ?? "");
      if (!Number.isFinite(serverMs)) return;
      const seen = serverMs - read();
      const next = Math.abs(seen) > SKEW_MS ? seen : 0;
      if (next === offset) return;
      offset = next;
      keepOffset(offset);
    },
  });
}

/** The system's clock (Date.now), for a composition root; options as createClock's. */
export function systemClock(options = {}) {
  return createClock({ ...options, read: () => Date.now() });
}

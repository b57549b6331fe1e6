// When to send a daily score again: how a server's answer is read (decided, or "not now" and for how long), and
// the page's backoff between tries. No I/O: the outbox (page and service worker) and the leaderboard use it.
import { RATE_LIMITS } from "./contract.js";

/** The page's waits between tries while scores stay in the outbox; the last one repeats. */
export const BACKOFF_MS = [5_000, 15_000, 30_000, 60_000];
// A 429 without Retry-After: the posting function's whole rate-limit window (docs/scores.md) has passed by then.
export const RATE_LIMITED_WAIT_MS = RATE_LIMITS.postScores.windowSize * 1000;

/** A Retry-After header (seconds, or an HTTP date) as ms from `now` (epoch ms); null when absent or unreadable. */
export function retryAfterMs(header, now) {
  const text = String(header ?? "").trim();
  if (!text) return null;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** Whether the server decided (2xx, or a 4xx but 429: the entry leaves the outbox) or said "not now". */
export function isDecided(status) {
  return status >= 200 && status < 300 ? true : status >= 400 && status < 500 && status !== 429;
}

/** How long to wait after a "not now" answer: its Retry-After, else the posting limit's window for a 429, else no wait. */
export function waitAfter(status, retryAfterHeader, now) {
  const said = retryAfterMs(retryAfterHeader, now);
  if (said !== null) return said;
  return status === 429 ? RATE_LIMITED_WAIT_MS : 0;
}

/**
 * The delay before try number `attempt` (0 for the first retry): the backoff's step, or longer when a server
 * asked to be left alone until `retryAt` (ms since the epoch, or null).
 */
export function retryDelay(attempt, retryAt, now) {
  const backoff = BACKOFF_MS[Math.min(Math.max(0, attempt), BACKOFF_MS.length - 1)];
  const asked = retryAt === null ? 0 : retryAt - now;
  return Math.max(backoff, asked);
}

// The score outbox's retry policy (web/common/retry-policy.js): which answers are final, how long "not now" lasts.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  BACKOFF_MS,
  isDecided,
  RATE_LIMITED_WAIT_MS,
  retryAfterMs,
  retryDelay,
  waitAfter,
} from "../../web/common/retry-policy.js";

const NOW = Date.parse("2026-12-01T10:00:00Z");

describe("Retry-After", () => {
  test("is read as seconds or as an HTTP date, never as a negative wait", () => {
    const headers = ["2", "120", "Tue, 01 Dec 2026 10:01:30 GMT", "Tue, 01 Dec 2026 09:00:00 GMT"];
    assert.deepEqual(
      headers.map((header) => retryAfterMs(header, NOW)),
      [2_000, 120_000, 90_000, 0],
    );
  });

  test("absent or unreadable is null, not zero", () => {
    for (const header of ["soon", "", "  ", null, undefined]) assert.equal(retryAfterMs(header, NOW), null);
  });
});

describe("which answers are final", () => {
  test("2xx and 4xx but 429 leave the outbox", () => {
    for (const status of [200, 201, 400, 404, 409, 413, 422]) assert.equal(isDecided(status), true, status);
  });

  test("429, 5xx, 3xx and anything below 200 stay for a later try", () => {
    for (const status of [0, 101, 199, 301, 304, 429, 500, 502, 503]) assert.equal(isDecided(status), false, status);
  });
});

describe("how long not now lasts", () => {
  test("a Retry-After is obeyed whatever the status", () => {
    assert.equal(waitAfter(503, "30", NOW), 30_000);
    assert.equal(waitAfter(429, "2", NOW), 2_000);
  });

  test("a 429 without one waits out the rate limit's window; a 5xx without one may try again at once", () => {
    assert.equal(waitAfter(429, null, NOW), RATE_LIMITED_WAIT_MS);
    assert.equal(RATE_LIMITED_WAIT_MS, 180_000); // the posting function's window: 10 posts in 3 minutes
    assert.equal(waitAfter(503, "", NOW), 0);
  });
});

describe("the page's backoff", () => {
  test("steps up and then repeats its last step", () => {
    const delays = [0, 1, 2, 3, 4, 10].map((attempt) => retryDelay(attempt, null, NOW));
    assert.deepEqual(delays, [...BACKOFF_MS, BACKOFF_MS.at(-1), BACKOFF_MS.at(-1)]);
    assert.ok(BACKOFF_MS.every((ms, index) => index === 0 || ms > BACKOFF_MS[index - 1]));
  });

  test("a server that asked for longer is waited for; one that asked for less does not shorten the step", () => {
    assert.equal(retryDelay(0, NOW + 90_000, NOW), 90_000);
    assert.equal(retryDelay(2, NOW + 1_000, NOW), BACKOFF_MS[2]);
    assert.equal(retryDelay(0, NOW - 5_000, NOW), BACKOFF_MS[0]);
  });
});

// Background Sync for daily scores: the service worker's "sync" event sends the queued submissions
// (web/worker/worker.js, a module worker: self.addEventListener("sync", handleSync)).

/* eslint-env serviceworker */

import { FLUSHED_MESSAGE, flush, SYNC_TAG } from "../common/outbox.js";

/** Tells the open pages that answers arrived, so they redraw their leaderboard. */
async function tellPages(result) {
  const pages = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  for (const page of pages)
    page.postMessage({ type: FLUSHED_MESSAGE, settled: result.settled.length, kept: result.kept });
}

async function flushAndTell(clock) {
  const result = await flush((url, init) => fetch(url, init), { clock });
  if (result.settled.length) await tellPages(result);
  // A rejected sync is retried later by the browser: that is what we want while something is still waiting.
  if (result.kept > 0) throw new Error(`${result.kept} score(s) still waiting to be sent`);
  return result;
}

/**
 * The "sync" event handler on `clock` (the worker's, common/clock.js): handles the tag "ewar-scores" and returns
 * true, ignores any other tag.
 */
export function handleSync(event, clock) {
  if (event.tag !== SYNC_TAG) return false;
  event.waitUntil(flushAndTell(clock));
  return true;
}

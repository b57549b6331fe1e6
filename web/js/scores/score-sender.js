// Sending daily scores: each scored daily's record (records.js: draft -> queued -> sent or refused), kept in storage,
// queued in the outbox (web/common/outbox.js) once a name is known, sent now and retried on the backoff, and brought
// up to date with the answers the service worker may have got.
//
// Each daily result gets one submission id, made here and stored with it: every retry sends the same id,
// so the server keeps one entry per game whatever happens to the network.

import { answerFor, enqueue, flush, pending, SYNC_TAG } from "../../common/outbox.js";
import { retryDelay } from "../../common/retry-policy.js";
import { awaitsName, draftRecord, NAME_REFUSALS, recordAfter, submissionOf } from "./records.js";

/** 128 random bits, base64url without padding: 22 characters. */
export function newSubmissionId() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

async function requestBackgroundSync() {
  try {
    const registration = await navigator.serviceWorker?.getRegistration();
    await registration?.sync?.register(SYNC_TAG);
  } catch {
    // No Background Sync here (or not allowed): the page sends on load and on "online" instead.
  }
}

/**
 * scoreStore, playerStore: the page's stores (records; the player id); clock: the page's wall clock; dates(): the days whose records
 * are kept (the board's open days and the earlier day picked). Told: onChange() when what is shown of the sending
 * changed; onNameRefused(record) for a name the server newly refused; onSent({settled}) after each send, awaited
 * (settled: the board changed).
 */
export function createScoreSender({ scoreStore, playerStore, clock, dates, onChange, onNameRefused, onSent }) {
  let sending = false;
  let lastFlush = null;
  let retryIndex = 0;
  let retryTimer = null;

  const records = () => scoreStore.scoreRecords(dates());
  const recordFor = (date) => records()[date] ?? null;
  const saveRecord = (rec) => scoreStore.saveScoreRecord(rec, dates());

  /** The newest result waiting for a name: never sent, or refused for its name. */
  const awaitingName = () => dates().map(recordFor).find(awaitsName) ?? null;

  /** Brings the records up to date with the outbox and the answers (which the service worker may have got). */
  async function reconcile() {
    const waiting = new Set((await pending()).map((submission) => submission.id));
    for (const rec of Object.values(records())) {
      if (rec.state !== "queued" || waiting.has(rec.id)) continue;
      const answer = await answerFor(rec.id);
      if (answer && answer.answeredAt >= (rec.queuedAt ?? 0)) {
        saveRecord(recordAfter(rec, { type: "answer", answer }));
      } else if (!answer && rec.replay) {
        await enqueue(submissionOf(rec), { clock }); // lost from the outbox (cleared storage, a crash): same id again
      }
    }
  }

  /** A scored daily's record, made (a draft) the first time its game is over. */
  function keepFinished({ date, view, replay }) {
    const kept = recordFor(date);
    if (kept) return kept;
    const rec = draftRecord({ date, id: newSubmissionId(), view, replay, now: clock.now() });
    saveRecord(rec);
    return rec;
  }

  async function queue(draft, name) {
    const rec = recordAfter(draft, { type: "queue", name, at: clock.now(), player: playerStore.playerId() });
    saveRecord(rec);
    await enqueue(submissionOf(rec), { clock });
    requestBackgroundSync();
    await sendNow();
  }

  /** Sends again later: when the server asked (Retry-After), and never sooner than the backoff's next step. */
  function scheduleRetry(retryAt = null) {
    clearTimeout(retryTimer);
    if (navigator.onLine === false) return; // the "online" event sends
    retryTimer = setTimeout(sendNow, retryDelay(retryIndex, retryAt, clock.now()));
    retryIndex += 1;
  }

  /** One send and what follows from its answers. "Sending" lasts until the next try is timed: a status that says
   * "waiting" is never drawn before the page knows when it sends again. */
  async function sendOnce() {
    let result;
    try {
      result = await flush(undefined, { clock });
    } catch (error) {
      console.warn("scores: the outbox could not be sent", error);
      result = { settled: [], kept: 1, offline: false };
    }
    lastFlush = result;
    const refusedBefore = new Set(
      Object.values(records())
        .filter(awaitsName)
        .map((rec) => rec.id),
    );
    await reconcile();
    const refusedName = Object.values(records()).find(
      (rec) => rec.state === "refused" && NAME_REFUSALS.has(rec.error?.code) && !refusedBefore.has(rec.id),
    );
    if (refusedName) onNameRefused(refusedName);
    if (result.kept > 0) {
      scheduleRetry(result.retryAt ?? null);
      requestBackgroundSync();
    } else {
      retryIndex = 0;
    }
    return result;
  }

  async function sendNow() {
    clearTimeout(retryTimer);
    sending = true;
    onChange();
    let result;
    try {
      result = await sendOnce();
    } finally {
      sending = false;
      onChange();
    }
    await onSent({ settled: (result.settled?.length ?? 0) > 0 });
  }

  /** Sends whatever waits in the outbox now, and again whenever the network comes back. */
  function start() {
    window.addEventListener("online", () => sendNow());
    reconcile()
      .then(sendNow)
      .catch((error) => console.warn("scores:", error));
  }

  return {
    records,
    recordFor,
    awaitingName,
    reconcile,
    keepFinished,
    queue,
    sendNow,
    start,
    isSending: () => sending,
    lastFlush: () => lastFlush,
  };
}

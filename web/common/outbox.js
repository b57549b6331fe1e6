// The daily-score outbox: submissions wait in IndexedDB until the server has answered them (no DOM: the service worker imports it too).
//
// enqueue(submission)  keeps {id, name, date, score, replay} and the optional player (the device's id, which puts
//                      the score on its friends' boards) (one entry per id: enqueuing it again changes nothing)
// pending()            the submissions still waiting, oldest first
// flush(fetchImpl)     POSTs each; an entry leaves the outbox only once the server answered 2xx or 4xx
//                      (the answer is kept, see answerFor); a 429, a 5xx or a network error keeps it for a
//                      later flush, and a Retry-After is honoured: the entry is not sent again before then
// answerFor(id)        {id, status, ok, body, answeredAt} of a submission the server answered, or null

import { DAY_MS, ENDPOINTS, OPTIONAL_RECORD_FIELDS, RECORD_FIELDS } from "./contract.js";
import { isDecided, waitAfter } from "./retry-policy.js";

export const SYNC_TAG = "ewar-scores";
export const ENDPOINT = ENDPOINTS.scores;
/** What the service worker posts to its pages after sending queued scores. */
export const FLUSHED_MESSAGE = "ewar-scores-flushed";

const DB_NAME = "ewar-scores";
const DB_VERSION = 1;
const OUTBOX = "outbox";
const ANSWERS = "answers";
const KEEP_ANSWERS_MS = 3 * DAY_MS;
const LOCK_NAME = "ewar-scores-flush";

let opening = null;
let lastFlush = Promise.resolve();

function promised(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function done(transaction) {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error ?? new Error("IndexedDB transaction aborted"));
  });
}

/** IndexedDB where there is one; a Map-backed stand-in (lost on reload) where it is blocked. */
function openStore() {
  opening ??= openIndexedDb().catch(() => memoryStore());
  return opening;
}

function openIndexedDb() {
  if (typeof indexedDB === "undefined") return Promise.reject(new Error("no IndexedDB"));
  const request = indexedDB.open(DB_NAME, DB_VERSION);
  request.onupgradeneeded = () => {
    const db = request.result;
    if (!db.objectStoreNames.contains(OUTBOX)) db.createObjectStore(OUTBOX, { keyPath: "id" });
    if (!db.objectStoreNames.contains(ANSWERS)) db.createObjectStore(ANSWERS, { keyPath: "id" });
  };
  return promised(request).then((db) => {
    db.onversionchange = () => {
      db.close();
      opening = null;
    };
    return indexedDbStore(db);
  });
}

function indexedDbStore(db) {
  return {
    async all(name) {
      return promised(db.transaction(name, "readonly").objectStore(name).getAll());
    },
    async get(name, id) {
      return (await promised(db.transaction(name, "readonly").objectStore(name).get(id))) ?? null;
    },
    async addIfNew(name, value) {
      const transaction = db.transaction(name, "readwrite");
      const store = transaction.objectStore(name);
      const existing = await promised(store.get(value.id));
      if (!existing) store.put(value);
      await done(transaction);
      return !existing;
    },
    /** Moves a submission from the outbox to the answers in one transaction. */
    async settle(answer) {
      const transaction = db.transaction([OUTBOX, ANSWERS], "readwrite");
      transaction.objectStore(OUTBOX).delete(answer.id);
      transaction.objectStore(ANSWERS).put(answer);
      await done(transaction);
    },
    async put(name, value) {
      const transaction = db.transaction(name, "readwrite");
      transaction.objectStore(name).put(value);
      await done(transaction);
    },
    async remove(name, id) {
      const transaction = db.transaction(name, "readwrite");
      transaction.objectStore(name).delete(id);
      await done(transaction);
    },
  };
}

function memoryStore() {
  const stores = { [OUTBOX]: new Map(), [ANSWERS]: new Map() };
  return {
    all: async (name) => [...stores[name].values()].map((value) => structuredClone(value)),
    get: async (name, id) => structuredClone(stores[name].get(id) ?? null),
    async addIfNew(name, value) {
      if (stores[name].has(value.id)) return false;
      stores[name].set(value.id, structuredClone(value));
      return true;
    },
    async settle(answer) {
      stores[OUTBOX].delete(answer.id);
      stores[ANSWERS].set(answer.id, structuredClone(answer));
    },
    put: async (name, value) => {
      stores[name].set(value.id, structuredClone(value));
    },
    remove: async (name, id) => {
      stores[name].delete(id);
    },
  };
}

function body(submission) {
  const present = OPTIONAL_RECORD_FIELDS.filter(
    (field) => submission[field] !== undefined && submission[field] !== null,
  );
  return Object.fromEntries([...RECORD_FIELDS, ...present].map((field) => [field, submission[field]]));
}

function checkClock(clock) {
  if (typeof clock?.now !== "function") throw new TypeError("the outbox needs the runtime's clock (common/clock.js)");
}

/**
 * Queues a submission, stamped by `clock` (common/clock.js); false when one with this id is already waiting (it is
 * kept as it was).
 */
export async function enqueue(submission, { clock } = {}) {
  checkClock(clock);
  const missing = RECORD_FIELDS.filter((field) => submission?.[field] === undefined);
  if (missing.length) throw new TypeError(`score submission without ${missing.join(", ")}`);
  const store = await openStore();
  return store.addIfNew(OUTBOX, { ...body(submission), queuedAt: clock.now() });
}

/** The submissions waiting to be sent, oldest first. */
export async function pending() {
  const store = await openStore();
  const entries = await store.all(OUTBOX);
  return entries.sort((a, b) => a.queuedAt - b.queuedAt).map(body);
}

/** The server's answer to a submission that has left the outbox, or null. */
export async function answerFor(id) {
  const store = await openStore();
  return store.get(ANSWERS, id);
}

async function readAnswerBody(response) {
  try {
    return await response.json();
  } catch {
    return null;
  }
}

/**
 * One POST: "settled" (the server decided: 2xx or a 4xx other than 429), "retry" (429 or 5xx: not now, with
 * the time to wait) or "offline" (no answer at all).
 */
async function send(store, submission, fetchImpl, endpoint, clock) {
  let response;
  try {
    response = await fetchImpl(endpoint, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body(submission)),
      cache: "no-store",
      credentials: "same-origin",
    });
  } catch {
    return { outcome: "offline", id: submission.id };
  }
  const { status } = response;
  if (!isDecided(status)) {
    const wait = waitAfter(status, response.headers?.get?.("Retry-After"), clock.now());
    if (wait > 0) await store.put(OUTBOX, { ...submission, notBefore: clock.now() + wait });
    return { outcome: "retry", id: submission.id, status: response.status, waitMs: wait };
  }
  const answer = {
    id: submission.id,
    date: submission.date,
    status: response.status,
    ok: response.ok,
    body: await readAnswerBody(response),
    answeredAt: clock.now(),
  };
  await store.settle(answer);
  return { outcome: "settled", ...answer };
}

async function pruneAnswers(store, now) {
  for (const answer of await store.all(ANSWERS)) {
    if (now - answer.answeredAt > KEEP_ANSWERS_MS) await store.remove(ANSWERS, answer.id);
  }
}

async function flushOnce(fetchImpl, endpoint, clock) {
  const store = await openStore();
  const waiting = (await store.all(OUTBOX)).sort((a, b) => a.queuedAt - b.queuedAt);
  const result = { settled: [], kept: 0, offline: false, retryAt: null };
  const keepUntil = (at) => {
    if (at && (result.retryAt === null || at < result.retryAt)) result.retryAt = at;
  };
  for (const [index, submission] of waiting.entries()) {
    if (submission.notBefore > clock.now()) {
      result.kept += 1; // the server asked us to wait
      keepUntil(submission.notBefore);
      continue;
    }
    const sent = await send(store, submission, fetchImpl, endpoint, clock);
    if (sent.waitMs) keepUntil(clock.now() + sent.waitMs);
    if (sent.outcome === "settled") {
      result.settled.push(sent);
      continue;
    }
    result.kept += 1;
    if (sent.outcome === "offline") {
      result.offline = true;
      result.kept += waiting.length - index - 1; // no network: the rest would fail the same way
      break;
    }
  }
  await pruneAnswers(store, clock.now());
  return result;
}

/** The Web Locks API (pages and workers alike) keeps a page and its service worker from sending at once. */
function exclusively(work) {
  const locks = globalThis.navigator?.locks;
  return locks?.request ? locks.request(LOCK_NAME, work) : work();
}

/**
 * Sends every waiting submission. Resolves to {settled: [answers...], kept: n, offline: bool, retryAt}: retryAt
 * is the earliest time (ms since the epoch) a server that said "not now" asked to be tried again, or null.
 * Calls run one after the other, each over what is waiting when it starts. Sending an id twice is
 * harmless anyway: the server answers the stored result with repeated: true, never a second entry. clock: the
 * runtime's clock (common/clock.js), which stamps the answers and times the waits a server asked for.
 */
export function flush(fetchImpl = globalThis.fetch.bind(globalThis), { endpoint = ENDPOINT, clock } = {}) {
  checkClock(clock);
  const run = () => exclusively(() => flushOnce(fetchImpl, endpoint, clock));
  const result = lastFlush.then(run, run);
  lastFlush = result.catch(() => {});
  return result;
}

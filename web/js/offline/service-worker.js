// Offline play: registers the service worker once the engine has loaded, checks for new versions at the pauses
// in play, and passes on what the worker says (a new version waiting, daily scores it sent in the background).

import { FLUSHED_MESSAGE } from "../../common/outbox.js";

const WORKER_URL = "./sw.js";
const UPDATE_CHECK_MS = 30 * 60 * 1000;

/** Asks a worker a question over a MessageChannel. */
function ask(worker, message, timeoutMs = 5000) {
  return new Promise((resolve, reject) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => reject(new Error(`service worker did not answer ${message.type}`)), timeoutMs);
    channel.port1.onmessage = (event) => {
      clearTimeout(timer);
      resolve(event.data);
    };
    worker.postMessage(message, [channel.port2]);
  });
}

/** Resolves once the app has left its loading phase: the worker's downloads wait for the game's own. */
function afterLoading(events) {
  return new Promise((resolve) => {
    if (events.state().phase !== "loading") {
      resolve();
      return;
    }
    const stop = events.on("state", ({ phase }) => {
      if (phase === "loading") return;
      stop();
      resolve();
    });
  });
}

/**
 * Registers the worker. events: the app's emitter; banner: the update offer ({offer(), isOffered()}).
 * Sets window.ewarOffline = {status(), checkForUpdate(), acceptUpdate(), registered} for tests and tools.
 * Returns null where there can be no service worker (an insecure context, an old browser).
 */
export function startOffline({ events, banner }) {
  const container = navigator.serviceWorker;
  if (!container || !window.isSecureContext) return null;
  let registration = null;
  let accepted = false;

  // A waiting worker is offered however the page learns of it: its statechange, an updatefound that arrives after
  // the worker has already installed (registration.installing is then null), or the end of an update check.
  function offerIfWaiting() {
    if (registration?.waiting && container.controller) banner.offer();
  }

  // Each installing worker is watched once, from whichever sign of it comes first: an updatefound event or an update
  // check that finds it installing.
  const watched = new WeakSet();
  function watchInstalling(worker) {
    if (!worker) {
      offerIfWaiting();
      return;
    }
    if (watched.has(worker)) return;
    watched.add(worker);
    const offerOnceInstalled = () => {
      if (worker.state === "installed" && container.controller) banner.offer();
    };
    worker.addEventListener("statechange", offerOnceInstalled);
    offerOnceInstalled(); // it may have installed before it was seen
  }

  function acceptUpdate() {
    accepted = true;
    const waiting = registration?.waiting;
    if (!waiting) {
      location.reload(); // the new version is already active (another tab took it): just load it
      return;
    }
    waiting.postMessage({ type: "skip-waiting" });
    setTimeout(() => location.reload(), 4000); // in case controllerchange never comes
  }

  async function checkForUpdate() {
    if (!registration || !navigator.onLine) return false;
    try {
      await registration.update();
    } catch {
      return false; // offline or the server is away: try again at the next pause
    }
    watchInstalling(registration.installing);
    return Boolean(registration.installing || registration.waiting);
  }

  async function status() {
    const controller = container.controller;
    const answer = controller ? await ask(controller, { type: "status" }) : null;
    return {
      controlled: Boolean(controller),
      waiting: Boolean(registration?.waiting),
      updateOffered: banner.isOffered(),
      ...answer,
    };
  }

  let hadController = Boolean(container.controller);
  container.addEventListener("controllerchange", () => {
    if (accepted) location.reload();
    else if (hadController) banner.offer(); // another tab accepted a new version: this page is now the old one
    hadController = true;
  });
  container.addEventListener("message", (event) => {
    if (event.data?.type === FLUSHED_MESSAGE) events.emit("leaderboard-changed", { reason: "sent-by-worker" });
  });
  banner.onAccept(acceptUpdate);

  const registered = afterLoading(events).then(async () => {
    registration = await container.register(WORKER_URL, { scope: "./", type: "module" });
    offerIfWaiting();
    if (registration.installing) watchInstalling(registration.installing);
    registration.addEventListener("updatefound", () => watchInstalling(registration.installing));
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") checkForUpdate();
    });
    events.on("state", ({ phase, previous }) => {
      if (phase === "over" && previous.phase !== "over") checkForUpdate();
    });
    setInterval(checkForUpdate, UPDATE_CHECK_MS);
    return registration;
  });
  registered.catch((error) => console.warn("service worker not registered; the game still plays online", error));
  window.ewarOffline = { status, checkForUpdate, acceptUpdate, registered };
  return window.ewarOffline;
}

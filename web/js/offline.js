// Offline play: registers the service worker, and offers a new version at the next pause in play (never mid-game).

const WORKER_URL = "./sw.js";
const PAUSES = new Set(["ready", "over", "error"]); // body states where a reload loses nothing
const UPDATE_CHECK_MS = 30 * 60 * 1000;

const state = () => document.body.dataset.state;

/** Resolves once the page has finished loading (or failed to): the worker's downloads wait for the game's own. */
function afterLoading() {
  return new Promise((resolve) => {
    const check = () => {
      if (state() !== "loading") {
        observer.disconnect();
        resolve();
      }
    };
    const observer = new MutationObserver(check);
    observer.observe(document.body, { attributes: true, attributeFilter: ["data-state"] });
    check();
  });
}

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

/** Shows the banner only while an update is pending and play is paused. */
function createBanner(element, onAccept) {
  let pending = false;
  const render = () => {
    element.hidden = !(pending && PAUSES.has(state()));
  };
  new MutationObserver(render).observe(document.body, { attributes: true, attributeFilter: ["data-state"] });
  element.querySelector("button")?.addEventListener("click", onAccept);
  return {
    offer() {
      pending = true;
      render();
    },
    isOffered: () => pending,
  };
}

/**
 * Registers the worker and wires the update banner (#update-banner holding one button).
 * Sets window.ewarOffline = { status(), checkForUpdate(), acceptUpdate() } for tests and tools.
 */
export function startOffline({ banner = document.getElementById("update-banner") } = {}) {
  const container = navigator.serviceWorker;
  if (!container || !window.isSecureContext) return null;
  let registration = null;
  let accepted = false;
  const offer = banner ? createBanner(banner, acceptUpdate) : { offer() {}, isOffered: () => false };

  function watchInstalling(worker) {
    worker?.addEventListener("statechange", () => {
      if (worker.state === "installed" && container.controller) offer.offer();
    });
  }

  async function acceptUpdate() {
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
    return Boolean(registration.installing || registration.waiting);
  }

  async function status() {
    const controller = container.controller;
    const answer = controller ? await ask(controller, { type: "status" }) : null;
    return {
      controlled: Boolean(controller),
      waiting: Boolean(registration?.waiting),
      updateOffered: offer.isOffered(),
      ...answer,
    };
  }

  let hadController = Boolean(container.controller);
  container.addEventListener("controllerchange", () => {
    if (accepted) location.reload();
    else if (hadController) offer.offer(); // another tab accepted a new version: this page is now the old one
    hadController = true;
  });

  window.ewarOffline = { status, checkForUpdate, acceptUpdate };

  const ready = afterLoading().then(async () => {
    registration = await container.register(WORKER_URL, { scope: "./", type: "module" });
    if (registration.waiting && container.controller) offer.offer();
    watchInstalling(registration.installing);
    registration.addEventListener("updatefound", () => watchInstalling(registration.installing));
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") checkForUpdate();
    });
    new MutationObserver(() => state() === "over" && checkForUpdate()).observe(document.body, {
      attributes: true,
      attributeFilter: ["data-state"],
    });
    setInterval(checkForUpdate, UPDATE_CHECK_MS);
    return registration;
  });
  ready.catch((error) => console.warn("service worker not registered; the game still plays online", error));
  window.ewarOffline.registered = ready;
  return window.ewarOffline;
}

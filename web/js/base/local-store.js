// The page's one door to localStorage: each role's store (settings, history, the running game, scores, friends'
// boards, the player id, the loader's choices) reads and writes its own keys through a backend made here, which
// falls back to memory where storage is unavailable. A bad or blocked read reads as nothing; a refused write loses
// only that write.

/** A backend that keeps its items in memory (localStorage blocked, or a test). */
export function memoryBackend() {
  const items = new Map();
  return {
    getItem: (key) => (items.has(key) ? items.get(key) : null),
    setItem: (key, value) => {
      items.set(key, String(value));
    },
    removeItem: (key) => {
      items.delete(key);
    },
  };
}

/** This page's localStorage, or memory where it is blocked. Made once by a script's composition root and shared
 * by every store it makes, so that in memory too every role sees the same items. */
export function pageBackend() {
  try {
    const store = window.localStorage;
    const probe = "ewar.probe";
    store.setItem(probe, "1");
    store.removeItem(probe);
    return store;
  } catch {
    return memoryBackend();
  }
}

/** Text and JSON reads and writes of `backend`'s keys, none of which ever throws. */
export function keyed(backend) {
  function readText(key) {
    try {
      return backend.getItem(key);
    } catch {
      return null;
    }
  }

  function writeText(key, text) {
    try {
      backend.setItem(key, text);
    } catch {
      // Full or blocked storage: the game goes on, only this save is lost.
    }
  }

  /** The object kept at `key` over `fallback`'s fields; `fallback` alone when nothing or no JSON is kept. */
  function readJson(key, fallback) {
    try {
      const text = backend.getItem(key);
      return text ? { ...fallback, ...JSON.parse(text) } : { ...fallback };
    } catch {
      return { ...fallback };
    }
  }

  const writeJson = (key, value) => writeText(key, JSON.stringify(value));

  function remove(...keys) {
    for (const key of keys) {
      try {
        backend.removeItem(key);
      } catch {
        // Storage refused (private mode): nothing was kept there either.
      }
    }
  }

  return { readText, writeText, readJson, writeJson, remove };
}

/** The entries of `byDate` ({date: value}) whose date is one of `dates`. */
export function onlyDates(byDate, dates) {
  return Object.fromEntries(Object.entries(byDate).filter(([date]) => dates.includes(date)));
}

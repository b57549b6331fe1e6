// window.ewar: what tests, benchmarks and the browser's console may ask the page (read-only, plus newGame, which
// only a page served from this machine has: the test and benchmark servers, python build.py serve).

/** Served from this machine (the tests' and the developer's servers), not from the deployed site. */
const LOCAL_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

/**
 * games: the game starter (view, replay, start), watching: the watch (app/watching.js), announcer: the live region's log. engine: set once loaded.
 * missingKeys and language come from the page's i18n. lockedDeal(seed): the daily a deal still belongs to, or null
 * (a practice deal is refused here as in the menu: no rehearsal of an open or coming daily).
 */
export function exposeToTools({ games, watching, announcer, missingKeys, language, engine, lockedDeal }) {
  const newGame = (options = {}) => {
    const lock = options.mode === "practice" && Number.isSafeInteger(options.seed) ? lockedDeal(options.seed) : null;
    if (lock) throw new Error(`deal ${options.seed} is the daily of ${lock.date}: no practice before ${lock.opens_at}`);
    return games.start(options);
  };
  window.ewar = {
    view: () => games.view() ?? null,
    ...(LOCAL_HOSTS.has(location.hostname) ? { newGame } : {}),
    replay: () => games.replay() ?? null,
    /** While watching: the watch's moment (game ms), speed and whether it plays; else null. */
    watch: () =>
      watching.isWatching()
        ? { moment: watching.watcher.moment(), speed: watching.watcher.speed(), playing: watching.watcher.isPlaying() }
        : null,
    missingKeys,
    announcements: () => announcer.log(),
    language,
    engine: {
      path: engine.path,
      reason: engine.reason,
      origin: engine.origin ?? null, // a snapshot's: "device" (made here) or "build"
      version: String(engine.bridge.ENGINE_VERSION),
      buildInfo: engine.buildInfo,
      installer: engine.installer ?? null,
    },
  };
}

// window.ewar: what tests, benchmarks and the browser's console may ask the page (read-only, plus newGame).

/**
 * games: the game starter (view, replay, start), watching: the watch (app/watching.js), announcer: the live region's log. engine: set once loaded.
 * missingKeys and language come from the page's i18n.
 */
export function exposeToTools({ games, watching, announcer, missingKeys, language, engine }) {
  window.ewar = {
    view: () => games.view() ?? null,
    newGame: (options) => games.start(options),
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

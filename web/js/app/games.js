// The games the player plays: deals them (the day's one scored daily, practice deals, the guided first game),
// keeps the one on the table saved after every change so a reload brings it back, pauses and resumes it, lets the
// player give it up, and ends each: records it, shows its result and tells the app ("game-finished").

import { randomSeed } from "../base/deals.js";
import { formatDate, t } from "../base/i18n.js";
import { offeredSpeed, tableSettings } from "../base/rule-numbers.js";
import { createGame } from "../table/game.js";

/** The guided first game's settings: practice against the slowest computer players, with the lenient rule. */
const guided = () => ({ speed: tableSettings().speeds[0], lenient: true });

/**
 * bridge: the engine's bridge; actuator: draws the table; result: the result panel; dealLine: the element that
 * names the deal being played; coach: the guided game's coach (table/coach.js), which writes that line then;
 * settingsStore, historyStore, runningGameStore: the player's settings, what this device played, the game on the
 * table as saved (base/settings-store.js, base/history-store.js, running-game-store.js).
 * clock: the page's wall clock (web/common/clock.js), whose UTC day names the daily.
 */
export function createGames({
  events,
  settingsStore,
  historyStore,
  runningGameStore,
  clock,
  bridge,
  actuator,
  result,
  dealLine,
  coach,
}) {
  const game = createGame({ bridge, actuator, onOver: finished, onChange: changed });
  let current = null; // {scored, date, dailyPractice, guided} of the game on the table
  let timeline = []; // [game ms, your cards] at each change of your cards: the game's picture when shared
  let saveTimer = 0;

  /**
   * What to deal for a choice: the daily is scored once a day (its first start counts); after that, Daily deals
   * the same deal as practice. options: {mode: "daily"}, {mode: "guided"} or
   * {mode: "practice", seed?, speed?, lenient?, houseRules?} or {mode: "pastDaily", date}: a daily that can no
   * longer be sent, played again as practice with that date's deal and computer players.
   */
  function dealFor(options) {
    if (options.mode === "daily") {
      const date = clock.today();
      if (!historyStore.dailyRecord(date)) {
        historyStore.recordDailyStart(date);
        return [
          { mode: "daily", date },
          { scored: true, date },
        ];
      }
      const seed = bridge.daily_seed(date);
      return [
        { mode: "practice", seed, ...tableSettings().daily },
        { scored: false, date, dailyPractice: true },
      ];
    }
    if (options.mode === "pastDaily") {
      return [
        { mode: "practice", date: options.date, ...tableSettings().daily },
        { scored: false, date: options.date, pastDaily: true },
      ];
    }
    if (options.mode === "guided") {
      return [
        { mode: "practice", seed: randomSeed(), ...guided() },
        { scored: false, date: null, guided: true },
      ];
    }
    const settings = settingsStore.settings();
    const start = {
      mode: "practice",
      seed: options.seed ?? randomSeed(),
      speed: offeredSpeed(options.speed ?? settings.speed),
      lenient: options.lenient ?? settings.lenient,
      houseRules: options.houseRules ?? settings.houseRules ?? [],
    };
    return [start, { scored: false, date: null }];
  }

  /** Deals and plays (replacing whatever is on the table: the caller asked first); returns the first view. */
  function start(options = {}) {
    const [deal, about] = dealFor(options);
    current = about;
    timeline = [];
    historyStore.rememberWelcome(); // a first game was dealt: the first visit's welcome has done its job
    coach.start(about.guided);
    const view = game.start(deal);
    changed(view);
    drawDealLine(view);
    events.setState({ phase: "playing", panel: null });
    return view;
  }

  /**
   * The game saved before a reload, a crash or a closed tab, back on the table, paused (the caller opens the menu
   * over it). Returns {view} or {failed: reason} (the record no longer plays, say after an engine update: it is
   * dropped, and a daily that was not finished may be played again), or null when nothing was saved.
   */
  function restoreSaved() {
    const saved = runningGameStore.runningGame();
    if (!saved) return null;
    try {
      game.restore(saved.replay, saved.clock);
    } catch (error) {
      runningGameStore.clearRunningGame();
      if (saved.about?.scored) historyStore.forgetDailyStart(saved.about.date);
      console.warn("the saved game could not be restored", error);
      return {
        failed: String(error?.message ?? error)
          .split("\n")
          .filter(Boolean)
          .pop(),
      };
    }
    game.pause();
    current = saved.about ?? { scored: false, date: null };
    timeline = Array.isArray(saved.timeline) ? saved.timeline : [];
    coach.start(current.guided);
    const view = game.view();
    drawDealLine(view);
    events.setState({ phase: "playing" });
    return { view };
  }

  /**
   * After every action and happening: the guided game's coach hears it, the game's picture grows, and the game
   * is saved (soon, off the input).
   */
  function changed(view, happenings = []) {
    coach.observe(view, happenings);
    const cards = view.seats[0].cards;
    if (timeline.length === 0 || timeline[timeline.length - 1][1] !== cards) timeline.push([view.clock, cards]);
    if (!saveTimer) saveTimer = setTimeout(saveNow, 0);
  }

  function saveNow() {
    clearTimeout(saveTimer);
    saveTimer = 0;
    if (!game.isRunning()) return;
    runningGameStore.saveRunningGame({ replay: game.replay(), clock: game.view().clock, about: current, timeline });
  }

  function finished(view, session) {
    clearTimeout(saveTimer);
    saveTimer = 0;
    runningGameStore.clearRunningGame();
    const scored = current.scored;
    historyStore.recordGame(view.result, { dailyDate: scored ? current.date : null });
    const about = { ...current, timeline: [...timeline] };
    result.show(view, about);
    events.setState({ phase: "over", panel: "result" });
    events.emit("game-finished", { view, replay: session.replay(), scored, date: current.date, about });
  }

  /** Gives the game on the table up: a loss that ends it, with its result shown like any other end. */
  function resign() {
    return game.resign();
  }

  /** Leaves the game on the table for another: a scored daily is given up (it ends, and counts as played). */
  function leave() {
    if (!game.isRunning()) return;
    if (current.scored) {
      game.resign();
      return;
    }
    game.stop();
    runningGameStore.clearRunningGame();
  }

  function drawDealLine(view) {
    if (coach.draw()) return; // the guided game's line is its coach's
    const seed = String(view.seed);
    let text;
    if (view.mode === "daily") text = t("app.dealDaily", { date: formatDate(view.date), seed });
    else if (current?.dailyPractice) text = t("app.dealDailyPractice", { date: formatDate(current.date), seed });
    else if (current?.pastDaily) text = t("app.dealPastDaily", { date: formatDate(current.date), seed });
    else if (current?.guided) text = t("app.dealGuided", { seed });
    else text = t("app.dealPractice", { seed, speed: t(`speed.${view.speed}`) });
    const rules = view.house_rules ?? [];
    if (rules.length) text = t("app.dealHouse", { deal: text, rules: rules.map((r) => t(`pattern.${r}`)).join(", ") });
    dealLine.textContent = text;
  }

  /** In a new language: the table and the deal line drawn again. */
  events.on("language", () => {
    const view = game.view();
    if (!view) return;
    actuator.reset();
    actuator.update(view);
    actuator.flush();
    drawDealLine(view);
  });

  // A closing tab or a reload: the last moment to save the game, paused at that moment.
  addEventListener("pagehide", () => {
    if (game.isRunning() && !game.isPaused()) game.pause();
    saveNow();
  });

  return {
    start,
    restoreSaved,
    /** Starts the deal of the game on the table again, as practice. */
    replayDeal() {
      const view = game.view();
      if (current?.pastDaily) return start({ mode: "pastDaily", date: current.date });
      return start({
        mode: "practice",
        seed: view.seed,
        speed: view.speed,
        lenient: view.lenient,
        houseRules: view.house_rules ?? [],
      });
    },
    resign,
    leave,
    pause() {
      if (!game.isRunning() || game.isPaused()) return;
      game.pause();
      saveNow();
    },
    resume: game.resume,
    act: game.act,
    isRunning: game.isRunning,
    isPaused: game.isPaused,
    /** What the game on the table is ({scored, date, dailyPractice, guided}), or null. */
    current: () => (game.isRunning() ? current : null),
    view: game.view,
    replay: game.replay,
  };
}

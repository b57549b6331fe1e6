// Starts the games the player asks for (the day's one scored daily, practice deals) and ends them: records each
// finished game, shows its result and tells the app ("game-finished").

import { createGame } from "../table/game.js";
import { randomSeed, todayUtc } from "./deals.js";
import { formatDate, t } from "./i18n.js";

/**
 * bridge: the engine's bridge; actuator: draws the table; result: the result panel; dealLine: the element that
 * names the deal being played.
 */
export function createGames({ events, storage, bridge, actuator, result, dealLine }) {
  const game = createGame({ bridge, actuator, onOver: finished });
  let current = null; // {scored, date, dailyPractice} of the game on the table

  /**
   * What to deal for a choice: the daily is scored once a day (its first start counts); after that, Daily deals
   * the same deal as practice. options: {mode: "daily"} or {mode: "practice", seed?, speed?, lenient?}.
   */
  function dealFor(options) {
    if (options.mode === "daily") {
      const date = todayUtc();
      if (!storage.dailyRecord(date)) {
        storage.recordDailyStart(date);
        return [
          { mode: "daily", date },
          { scored: true, date },
        ];
      }
      const seed = bridge.daily_seed(date);
      return [
        { mode: "practice", seed, speed: "normal", lenient: false },
        { scored: false, date, dailyPractice: true },
      ];
    }
    const settings = storage.settings();
    const start = {
      mode: "practice",
      seed: options.seed ?? randomSeed(),
      speed: options.speed ?? settings.speed,
      lenient: options.lenient ?? settings.lenient,
    };
    return [start, { scored: false, date: null }];
  }

  /** Deals and plays; returns the first view. */
  function start(options = {}) {
    const [deal, about] = dealFor(options);
    current = about;
    const view = game.start(deal);
    drawDealLine(view);
    events.setState({ phase: "playing", panel: null });
    return view;
  }

  function finished(view, session) {
    const scored = current.scored;
    storage.recordGame(view.result, { dailyDate: scored ? current.date : null });
    result.show(view, { scored });
    events.setState({ phase: "over", panel: "result" });
    events.emit("game-finished", { view, replay: session.replay(), scored, date: current.date });
  }

  function drawDealLine(view) {
    const seed = String(view.seed);
    let text;
    if (view.mode === "daily") text = t("app.dealDaily", { date: formatDate(view.date), seed });
    else if (current?.dailyPractice) text = t("app.dealDailyPractice", { date: formatDate(current.date), seed });
    else text = t("app.dealPractice", { seed, speed: t(`speed.${view.speed}`) });
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

  return {
    start,
    /** Starts the deal of the game on the table again, as practice. */
    replayDeal() {
      const view = game.view();
      return start({ mode: "practice", seed: view.seed, speed: view.speed, lenient: view.lenient });
    },
    act: game.act,
    isRunning: game.isRunning,
    view: game.view,
    replay: game.replay,
  };
}

// Joins the pieces: catalog, loading screen, engine, input, game, menus, history and the test hooks.

import { watchOverlays } from "./a11y.js";
import { createActuator } from "./actuator.js";
import { createAnnouncer } from "./announcer.js";
import { createGame, parseSeed, randomSeed, todayUtc } from "./game.js";
import { createHelp } from "./help.js";
import {
  chooseLanguage, currentLanguage, formatDate, loadLanguage, missingKeys, requestedLanguage, t, translatePage,
} from "./i18n.js";
import { createInput } from "./input.js";
import { onDailyFinished, startLeaderboard } from "./leaderboard.js";
import { loadEngine, LoadError, PHASES } from "./loader.js";
import { createMenu } from "./menu.js";
import { createSound } from "./sound.js";
import { createStorage } from "./storage.js";

const $ = (id) => document.getElementById(id);

function setState(state) {
  document.body.dataset.state = state;
}

/** Lists only the phases this load goes through (a memory snapshot needs no package installer). */
function showPhases(_path, phases) {
  for (const item of $("phases").children) item.hidden = !phases.includes(item.dataset.phase);
}

function showProgress(phase, phaseFraction, total) {
  const percent = Math.round(total * 100);
  $("progress-fill").style.inlineSize = `${percent}%`;
  $("progress").setAttribute("aria-valuenow", String(percent));
  const index = PHASES.indexOf(phase);
  for (const item of $("phases").children) {
    const at = PHASES.indexOf(item.dataset.phase);
    item.classList.toggle("done", at < index || (at === index && phaseFraction >= 1));
    item.classList.toggle("active", at === index && phaseFraction < 1);
  }
}

function showLoadError(error) {
  console.error(error);
  const el = $("load-error");
  el.textContent = error instanceof LoadError
    ? t(error.key, error.params)
    : t("loading.errorGeneric", { message: error?.message ?? String(error) });
  const reload = document.createElement("button");
  reload.type = "button";
  reload.className = "primary";
  reload.textContent = t("loading.reload");
  reload.addEventListener("click", () => location.reload());
  el.append(document.createElement("br"), reload);
  el.hidden = false;
  setState("error");
}

function dealLine(view, dailyPracticeDate) {
  const seed = String(view.seed);
  if (view.mode === "daily") return t("app.dealDaily", { date: formatDate(view.date), seed });
  if (dailyPracticeDate) return t("app.dealDailyPractice", { date: formatDate(dailyPracticeDate), seed });
  return t("app.dealPractice", { seed, speed: t(`speed.${view.speed}`) });
}

export async function boot() {
  const storage = createStorage();
  try {
    await loadLanguage(chooseLanguage(storage.settings().language));
    translatePage();
  } catch (error) {
    console.warn("catalog not loaded, keeping the page's built-in English", error);
  }
  const sound = createSound(() => storage.settings().sound);
  const announcer = createAnnouncer($("announcer"));
  const actuator = createActuator({ sound, announcer });
  let game = null;
  let bridge = null;
  let current = null; // {scored, date} of the game on the table

  window.ewar = {
    view: () => game?.view() ?? null,
    newGame: (options) => startGame(options),
    replay: () => game?.replay() ?? null,
    missingKeys,
    announcements: () => announcer.log(),
    language: () => currentLanguage(),
  };

  function startGame(options = {}) {
    const settings = storage.settings();
    let start;
    current = { scored: false, date: null };
    if (options.mode === "daily") {
      const date = todayUtc();
      if (storage.dailyRecord(date)) {
        start = { mode: "practice", seed: bridge.daily_seed(date), speed: "normal", lenient: false };
        current = { scored: false, date, dailyPractice: true };
      } else {
        storage.recordDailyStart(date);
        start = { mode: "daily", date };
        current = { scored: true, date };
      }
    } else {
      start = {
        mode: "practice",
        seed: options.seed ?? randomSeed(),
        speed: options.speed ?? settings.speed,
        lenient: options.lenient ?? settings.lenient,
      };
    }
    menu.close();
    actuator.hideResult();
    const view = game.start(start);
    $("deal-line").textContent = dealLine(view, current.dailyPractice ? current.date : null);
    setState("playing");
    return view;
  }

  function finished(view, session) {
    setState("over");
    storage.recordGame(view.result, { dailyDate: current.scored ? current.date : null });
    actuator.showResult(view, { scored: current.scored });
    if (current.scored) {
      const replay = session.replay();
      onDailyFinished({ replay: () => replay, view }, $("leaderboard")).catch((error) => console.warn(error));
    }
  }

  function openMenu() {
    actuator.hideResult();
    menu.open({ canResume: game?.isRunning() ?? false });
  }

  const menu = createMenu({
    storage,
    // Start is a user gesture: audio is set up there (~200 ms on first use), not on the game's first flip.
    onStart: (choice) => {
      sound.unlock();
      startGame(choice);
    },
    onResume: () => menu.close(),
    onSoundChange: (on) => on && sound.unlock(),
  });
  menu.close();
  startLeaderboard({ panel: $("leaderboard"), storage });

  const isPlaying = () => document.body.dataset.state === "playing" && !menu.isOpen();
  createInput({
    pack: document.querySelector('[data-testid="pack-south"]'),
    pile: $("pile"),
    slapButton: $("slap"),
    isPlaying,
    onIntent: (intent, timeStamp) => {
      sound.unlock();
      if (intent === "menu") {
        if (help.isOpen()) return; // Escape closes the open dialog (its own cancel), nothing else
        if (menu.isOpen() && menu.isResumable()) menu.close();
        else if (document.body.dataset.state !== "loading") openMenu();
        return;
      }
      if (game && isPlaying()) game.act(intent, timeStamp);
    },
  });
  $("menu-button").addEventListener("click", openMenu);

  // Languages, how to play, about; panels that cover the table keep it inert and take focus.
  const help = createHelp({ helpDialog: $("help-dialog"), aboutDialog: $("about-dialog") });
  help.render();
  const picker = $("language");
  picker.value = currentLanguage();
  picker.addEventListener("change", () => switchLanguage(picker.value));
  $("open-help").addEventListener("click", (event) => help.openHelp(event.currentTarget));
  $("open-about").addEventListener("click", (event) => help.openAbout(event.currentTarget));
  $("menu-title").tabIndex = -1;
  watchOverlays({
    overlays: [$("loading"), $("menu"), $("result")],
    background: [document.querySelector(".bar"), $("table"), document.querySelector(".controls")],
    focusOnOpen: (overlay) => ({ menu: $("menu-title"), result: $("result-title") })[overlay.id] ?? null,
    playTarget: $("your-pack"),
  });

  async function switchLanguage(code) {
    storage.saveSettings({ language: code });
    if (requestedLanguage()) {
      const url = new URL(location.href);
      url.searchParams.delete("lang");
      history.replaceState(history.state, "", url);
    }
    try {
      await loadLanguage(code);
    } catch (error) {
      console.warn("catalog not loaded", error);
      picker.value = currentLanguage();
      return;
    }
    translatePage();
    help.render();
    picker.value = currentLanguage();
    if (menu.isOpen()) menu.open({ canResume: menu.isResumable() });
    const view = game?.view();
    if (view) {
      actuator.reset();
      actuator.update(view);
      actuator.flush();
      $("deal-line").textContent = dealLine(view, current?.dailyPractice ? current.date : null);
    }
  }
  $("again").addEventListener("click", () => startGame({ mode: "practice" }));
  $("replay-deal").addEventListener("click", () => {
    const view = game.view();
    startGame({ mode: "practice", seed: view.seed, speed: view.speed, lenient: view.lenient });
  });
  $("to-menu").addEventListener("click", () => {
    setState("ready");
    openMenu();
  });

  try {
    const engine = await loadEngine({ onProgress: showProgress, onPath: showPhases });
    bridge = engine.bridge;
    window.ewar.engine = {
      path: engine.path, reason: engine.reason, version: bridge.ENGINE_VERSION, buildInfo: engine.buildInfo,
      installer: engine.installer ?? null,
    };
  } catch (error) {
    showLoadError(error);
    return;
  }
  game = createGame({ bridge, actuator, onOver: finished });

  const dealParam = parseSeed(new URLSearchParams(location.search).get("deal"));
  if (dealParam !== null) menu.setDeal(dealParam);
  $("loading").hidden = true;
  setState("ready");
  menu.open();
}

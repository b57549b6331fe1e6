// The page's entry module: makes each part, joins them through the app's events, loads the engine (whose load
// engine/start.js began with the page) and opens the menu.

import { systemClock } from "../../common/clock.js";
import { NAME_MAX } from "../../common/names.js";
import { createClockStore } from "../base/clock-store.js";
import { watchDayTurns } from "../base/day-turns.js";
import { parseSeed } from "../base/deals.js";
import { createAppEvents } from "../base/events.js";
import { createHistoryStore } from "../base/history-store.js";
import { currentLanguage, missingKeys, setSharedParams, translatePage } from "../base/i18n.js";
import { pageBackend } from "../base/local-store.js";
import { ruleNumbers, setRuleNumbers, setTableSettings, tableSettings } from "../base/rule-numbers.js";
import { createSettingsStore } from "../base/settings-store.js";
import { loadEngine } from "../engine/engine-load.js";
import { startOffline } from "../offline/service-worker.js";
import { createUpdateBanner } from "../offline/update-banner.js";
import { createConfirm } from "../panels/confirm.js";
import { createHelp, fillDocDialogs } from "../panels/help.js";
import { createLoadingPanel } from "../panels/loading.js";
import { createMenu } from "../panels/menu.js";
import { showPanels } from "../panels/overlays.js";
import { createResultPanel } from "../panels/result.js";
import { pageAddress, share } from "../panels/share.js";
import { createBoardApi } from "../scores/board-api.js";
import { createFriends } from "../scores/friends.js";
import { createFriendsStore } from "../scores/friends-store.js";
import { createLeaderboard } from "../scores/leaderboard.js";
import { createPlayerStore } from "../scores/player-store.js";
import { createScoreStore } from "../scores/score-store.js";
import { createActuator } from "../table/actuator.js";
import { createAnnouncer } from "../table/announcer.js";
import { createCoach } from "../table/coach.js";
import { createInput } from "../table/input.js";
import { fillSeats } from "../table/seats.js";
import { createSound } from "../table/sound.js";
import { createGames } from "./games.js";
import { createLanguage } from "./language.js";
import { startPausing } from "./pause.js";
import { createPlayFlow } from "./play-flow.js";
import { createRunningGameStore } from "./running-game-store.js";
import { exposeToTools } from "./tools.js";
import { createWatching } from "./watching.js";

const $ = (id) => document.getElementById(id);

async function boot() {
  performance.mark("ewar:app-start"); // every module of the app has arrived and run
  // The app's state; body[data-state] mirrors the phase for the style sheets and tests.
  const events = createAppEvents();
  // What this device keeps, one store per role, all on one backend (localStorage, or memory where it is blocked).
  const backend = pageBackend();
  const settingsStore = createSettingsStore(backend);
  const historyStore = createHistoryStore(backend);
  const runningGameStore = createRunningGameStore(backend);
  const scoreStore = createScoreStore(backend);
  const playerStore = createPlayerStore(backend);
  const friendsStore = createFriendsStore(backend);
  // Forget me, on this device: the player id and everything kept beside it for the boards.
  const forgetPlayer = () => {
    for (const store of [playerStore, scoreStore, friendsStore]) store.forget();
  };
  // What the boards read and send: the dailies played and sent (your row, a locked Watch) and the player id.
  const boardStores = { historyStore, scoreStore, playerStore };
  events.on("state", ({ phase }) => {
    document.body.dataset.state = phase;
  });
  // The page's one wall clock (the server's time once an answer told it), and the UTC day's turn heard by all.
  const clockStore = createClockStore(backend);
  const clock = systemClock({ offsetMs: clockStore.serverOffset(), keepOffset: clockStore.keepServerOffset });
  watchDayTurns({ clock, onTurn: (turn) => events.emit("day-turned", turn) });
  const boardApi = createBoardApi({ clock });

  // The seats, then the words: every part draws in the chosen language (the name rules' numbers quoted).
  setSharedParams({ name_max: NAME_MAX });
  fillSeats();
  fillDocDialogs([$("help-dialog"), $("about-dialog")]);
  await createLanguage({ events, settingsStore, picker: $("language") }).start();

  // The loading panel follows the engine's load from now on.
  const loading = createLoadingPanel();
  const engineLoad = loadEngine({ onProgress: loading.showProgress, onPath: loading.showPath });

  // The table, the panels over it, the leaderboard and offline play.
  const sound = createSound(() => settingsStore.settings().sound);
  const announcer = createAnnouncer($("announcer"));
  const actuator = createActuator({ sound, announcer });
  showPanels({
    events,
    panels: { loading: $("loading"), menu: $("menu"), result: $("result") },
    background: [document.querySelector(".bar"), $("table"), document.querySelector(".controls")],
    focusOnOpen: { menu: $("menu-title"), result: $("result-title") },
    playTarget: $("your-pack"),
  });
  let pausing = null; // the pause follows the dialogs too, once the game can be paused
  const dialogToggled = () => pausing?.update();
  const help = createHelp({ helpDialog: $("help-dialog"), aboutDialog: $("about-dialog"), onToggle: dialogToggled });
  const confirm = createConfirm({ dialog: $("confirm-dialog"), onToggle: dialogToggled });
  events.on("language", help.relabel);
  const result = createResultPanel({ events, clock });
  placeBoard($("leaderboard"), { events, result });
  createLeaderboard({
    panel: $("leaderboard"),
    settingsStore,
    ...boardStores,
    forgetPlayer,
    events,
    ask: confirm.ask,
    clock,
    api: boardApi,
  }).start();
  createFriends({
    panel: $("friends"),
    friendsStore,
    ...boardStores,
    events,
    shareText: share,
    base: pageAddress(),
    clock,
    api: boardApi,
  }).start();
  startOffline({ events, banner: createUpdateBanner({ element: $("update-banner"), events }) });

  // The engine.
  let engine;
  try {
    engine = await engineLoad;
  } catch (error) {
    loading.showError(error);
    events.setState({ phase: "error" });
    return;
  }
  setRuleNumbers(engine.bridge.rule_numbers());
  setTableSettings(engine.bridge.table_settings());
  // The words that quote the engine's numbers (three strikes, the largest deal number...) are filled now that they are known.
  setSharedParams({ ...ruleNumbers(), max_seed: tableSettings().max_seed });
  translatePage();

  // No rehearsal: a daily's deal is no practice while it can be sent, unless you have played that daily.
  const lockedDeal = (seed) => {
    const lock = JSON.parse(engine.bridge.practice_lock(seed, clock.now()));
    return lock && !historyStore.dailyRecord(lock.date) ? lock : null;
  };

  // Games, the menu that starts them, the pause, and the keys and taps that play them.
  const dealLine = $("deal-line");
  // Out of cards for a while in the guided game, the coach offers a new one (asked first, as any leave).
  const coach = createCoach({ line: dealLine, onNewDeal: () => flow.choose({ mode: "guided" }) });
  const games = createGames({
    events,
    settingsStore,
    historyStore,
    runningGameStore,
    clock,
    bridge: engine.bridge,
    actuator,
    result,
    dealLine,
    coach,
  });
  const flow = createPlayFlow({ events, games, confirm, beforeStart: () => sound.unlock() });
  const menu = createMenu({
    events,
    settingsStore,
    historyStore,
    clock,
    // Start is a user gesture: audio is set up there (~200 ms on first use), not on the game's first flip.
    onStart: flow.choose,
    onResume: flow.resume,
    onGiveUp: flow.giveUp,
    onSoundChange: (on) => on && sound.unlock(),
    lockedDeal,
    houseRules: JSON.parse(engine.bridge.house_rule_names()),
    speeds: tableSettings().speeds,
  });
  // An earlier day's board offers its daily again, as practice, once it can no longer be sent (the engine says).
  events.on("play-past-daily", ({ date }) => {
    const open = JSON.parse(engine.bridge.practice_lock(engine.bridge.daily_seed(date), clock.now()));
    if (open === null) flow.choose({ mode: "pastDaily", date });
  });
  const openMenu = () => menu.open({ running: games.current() });
  const watching = createWatching({
    events,
    bridge: engine.bridge,
    actuator,
    bar: $("watch-bar"),
    statuses: { own: $("watch-own-status"), board: $("watch-status") },
    redrawGame: () => {
      actuator.reset();
      const view = games.view();
      if (view) actuator.update(view);
      actuator.flush();
    },
  });
  $("watch-own").addEventListener("click", () => watching.watchOwn());
  // A board row's Watch (the daily board's and the friends' boards'): your own row's game is told as yours.
  events.on("watch-entry", ({ date, entry, own }) => watching.watchEntry(date, entry, { own }));
  pausing = startPausing({
    events,
    games,
    dialogsOpen: () => help.isOpen() || confirm.isOpen(),
    onHidden: openMenu,
  });
  const isPlaying = () => events.state().phase === "playing" && events.state().panel === null && !games.isPaused();
  const toggleMenu = () => {
    if (help.isOpen() || confirm.isOpen()) return; // Escape closes the open dialog (its own cancel), nothing else
    if (menu.isOpen() && menu.isResumable()) flow.resume();
    else openMenu();
  };

  createInput({
    table: $("table"),
    pack: document.querySelector('[data-testid="pack-south"]'),
    pile: $("pile"),
    slapButton: $("slap"),
    isPlaying,
    onIntent: (intent, time) => {
      sound.unlock();
      if (intent === "menu" && watching.isWatching()) watching.close();
      else if (intent === "menu") toggleMenu();
      else if (isPlaying()) games.act(intent, time);
    },
  });
  $("menu-button").addEventListener("click", openMenu);
  $("open-help").addEventListener("click", (event) => help.openHelp(event.currentTarget));
  $("open-about").addEventListener("click", (event) => help.openAbout(event.currentTarget));
  $("again").addEventListener("click", () => games.start({ mode: "practice" }));
  $("replay-deal").addEventListener("click", () => games.replayDeal());
  $("to-menu").addEventListener("click", () => {
    events.setState({ phase: "ready" });
    openMenu();
  });
  exposeToTools({ games, watching, announcer, missingKeys, language: currentLanguage, engine, lockedDeal });

  // Ready: the game saved before a reload comes back, paused under the menu; else the menu opens, on the deal of
  // ?deal=N if the address names one.
  const restored = games.restoreSaved();
  const dealParam = parseSeed(new URLSearchParams(location.search).get("deal"));
  if (dealParam !== null) menu.setDeal(dealParam);
  if (restored?.view) {
    menu.open({ running: games.current(), keepMode: dealParam !== null });
    return;
  }
  events.setState({ phase: "ready" });
  performance.mark("ewar:app-ready");
  menu.open({ restoreFailed: restored?.failed ?? null, keepMode: dealParam !== null });
}

/** The daily board goes where it asks to be ("board-place"): in the result (result.holdBoard), or back in the menu. */
function placeBoard(board, { events, result }) {
  const home = { parent: board.parentElement, next: board.nextSibling };
  events.on("board-place", ({ where }) => {
    if (where === "result") return result.holdBoard(board);
    if (board.parentElement === home.parent) return;
    home.parent.insertBefore(board, home.next?.parentNode === home.parent ? home.next : null);
  });
}

boot();

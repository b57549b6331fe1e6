// The menu: over a running game it is the pause screen (resume, give up); on a first visit it welcomes with a short
// how-to and a guided first game; it offers the daily or practice (CPU speed, deal number), sound, the player's
// history and the time to the next daily. It says what to start, never how.

import { dealDigits, parseSeed } from "../base/deals.js";
import { formatCountdown, formatDate, formatNumber, t, translatePage } from "../base/i18n.js";
import { offeredSpeed } from "../base/rule-numbers.js";
import { drawHistory } from "../scores/chart-view.js";

const TICK_MS = 1000;

/**
 * events: the app's emitter (the menu is shown while its state's panel is "menu"); settingsStore, historyStore: the
 * player's settings and what this device played (base/settings-store.js, base/history-store.js). onStart(choice)
 * when the player deals; onResume() to go back to the game; onGiveUp() to give it up; onSoundChange(on); lockedDeal(seed):
 * {date, opens_at} when that deal is a daily still open for the leaderboard (no rehearsal), else null. houseRules:
 * the engine's names of the house rules practice may add (a switch each, in that order). speeds: the engine's CPU
 * speeds, slowest first (the select's options, in the catalogs' words; the saved one selected, else the engine's
 * default, said so when a saved speed is no longer offered). clock: the page's wall clock
 * (web/common/clock.js); the menu follows the day's turn ("day-turned": the daily offered again, the countdown,
 * the streak and the history's days).
 */
export function createMenu({
  events,
  settingsStore,
  historyStore,
  clock,
  onStart,
  onResume,
  onGiveUp,
  onSoundChange,
  lockedDeal = () => null,
  houseRules = [],
  speeds,
}) {
  const $ = (id) => document.getElementById(id);
  const form = $("menu-form");
  const modeButtons = [...document.querySelectorAll(".mode[data-mode]")];
  const speed = $("speed");
  const deal = $("deal");
  deal.maxLength = dealDigits(); // as long as the engine's largest deal number
  const lenient = $("lenient");
  const sound = $("sound");
  const note = $("menu-note");
  const start = $("start");
  const countdown = $("menu-countdown");
  const houseSwitches = drawHouseSwitches($("house-rules"), houseRules);
  const speedNote = drawSpeeds(speed, speeds);
  let mode = "daily";
  let running = null; // what the game on the table is ({scored, dailyPractice, ...}), or null
  let restoreFailed = null;
  let ticker = 0;

  function selectMode(next) {
    mode = next === "daily" ? "daily" : "practice";
    for (const button of modeButtons) button.setAttribute("aria-checked", String(button.dataset.mode === mode));
    $("practice-options").disabled = mode === "daily";
    describe();
  }

  /**
   * The mode to offer: the running game's kind; on a first visit practice (the welcome's first game comes before
   * the daily); else the daily until it is played on `day` (today by default); else practice.
   */
  function offeredOn(day) {
    if (running) return running.scored || running.dailyPractice ? "daily" : "practice";
    if (!historyStore.welcomed()) return "practice";
    return historyStore.dailyRecord(day) ? "practice" : "daily";
  }
  const sensibleMode = () => offeredOn(clock.today());

  function describe() {
    const record = historyStore.dailyRecord(clock.today());
    let text = "";
    if (mode === "daily" && running?.scored) {
      text = t("menu.dailyRunning");
    } else if (mode === "daily" && record) {
      text = record.finished ? t("menu.dailyDone", { score: record.score }) : t("menu.dailyStarted");
    } else if (mode === "practice" && deal.value.trim() && parseSeed(deal.value) === null) {
      text = t("menu.dealInvalid");
    } else if (mode === "practice" && lockOf(deal.value)) {
      const lock = lockOf(deal.value);
      text = t("menu.dealLocked", { date: formatDate(lock.date), time: formatCountdown(lock.opens_at - clock.now()) });
    }
    note.textContent = text;
    const h = historyStore.history();
    const none = t("history.none");
    $("history-line").textContent = t(h.bestReaction === null ? "history.line" : "history.lineReaction", {
      played: h.played,
      won: h.won,
      best: h.bestDaily === null ? none : formatNumber(h.bestDaily),
      streak: historyStore.dayStreak(clock.today()),
      reaction: h.bestReaction,
    });
    drawHistory($("history-chart"), h.dailies ?? [], clock.today());
    drawCountdown();
  }

  function drawCountdown() {
    const played = historyStore.dailyRecord(clock.today())?.finished;
    countdown.textContent = t(played ? "countdown.played" : "countdown.next", {
      time: formatCountdown(clock.msToNextDay()),
    });
  }

  /** The lock on a typed deal number (a daily still open for the leaderboard), or null. */
  function lockOf(text) {
    const seed = text.trim() ? parseSeed(text) : null;
    return seed === null ? null : lockedDeal(seed);
  }

  /** The house rules switched on, in the engine's order. */
  const chosenHouseRules = () => houseSwitches.filter((input) => input.checked).map((input) => input.value);

  /**
   * What the player chose: {mode, seed|null, speed, lenient, houseRules}, or null if the deal number is invalid or
   * locked.
   */
  function choice() {
    if (mode === "daily") return { mode: "daily" };
    const text = deal.value.trim();
    const seed = text ? parseSeed(text) : null;
    if (text && seed === null) return null;
    if (lockOf(text)) return null;
    return { mode: "practice", seed, speed: speed.value, lenient: lenient.checked, houseRules: chosenHouseRules() };
  }

  function drawPaused() {
    $("welcome").hidden = Boolean(running) || historyStore.welcomed();
    $("menu-title").textContent = t(running ? "menu.titlePaused" : "menu.title");
    $("menu-paused").hidden = !running;
    $("give-up").textContent = t(running?.scored ? "menu.giveUpDaily" : "menu.giveUp");
    // Over a running game, resuming it is the first choice; dealing another is second.
    start.classList.toggle("primary", !running);
    start.classList.toggle("secondary", Boolean(running));
    start.textContent = t(running ? "menu.startOther" : "menu.start");
    const restore = $("restore-note");
    restore.hidden = !restoreFailed;
    restore.textContent = restoreFailed ? t("menu.restoreFailed") : "";
  }

  /**
   * Shows the menu at its top, on the sensible mode (again, in the current language, if it is open).
   * running: the game on the table ({scored, ...}) when there is one; restoreFailed: why a saved game did not
   * come back, if that happened.
   */
  function open({ running: game = null, restoreFailed: failed = null, keepMode = false } = {}) {
    running = game;
    if (failed !== null) restoreFailed = failed;
    if (!keepMode) selectMode(sensibleMode());
    drawPaused();
    describe();
    const wasOpen = isOpen();
    events.setState({ panel: "menu" });
    if (!wasOpen) {
      form.scrollTop = 0;
      $("menu").scrollTop = 0;
    }
    clearInterval(ticker);
    ticker = setInterval(drawCountdown, TICK_MS);
  }

  const isOpen = () => events.state().panel === "menu";

  function setDeal(seed) {
    deal.value = seed === null || seed === undefined ? "" : String(seed);
    selectMode("practice");
  }

  const settings = settingsStore.settings();
  // A speed saved by an older page that the engine no longer offers: its default instead, kept and said once.
  speed.value = offeredSpeed(settings.speed);
  if (settings.speed && speed.value !== settings.speed) {
    settingsStore.saveSettings({ speed: speed.value });
    speedNote.hidden = false;
    speed.setAttribute("aria-describedby", speedNote.id);
  }
  const drawSpeedNote = () => {
    speedNote.textContent = t("menu.speedGone", { speed: t(`speed.${speed.value}`) });
  };
  drawSpeedNote();
  lenient.checked = Boolean(settings.lenient);
  const savedRules = Array.isArray(settings.houseRules) ? settings.houseRules : [];
  for (const input of houseSwitches) input.checked = savedRules.includes(input.value);
  sound.checked = Boolean(settings.sound);
  selectMode(sensibleMode());

  for (const button of modeButtons) button.addEventListener("click", () => selectMode(button.dataset.mode));
  speed.addEventListener("change", () => {
    settingsStore.saveSettings({ speed: speed.value });
    speedNote.hidden = true;
    speed.removeAttribute("aria-describedby");
  });
  lenient.addEventListener("change", () => settingsStore.saveSettings({ lenient: lenient.checked }));
  for (const input of houseSwitches) {
    input.addEventListener("change", () => settingsStore.saveSettings({ houseRules: chosenHouseRules() }));
  }
  sound.addEventListener("change", () => {
    settingsStore.saveSettings({ sound: sound.checked });
    onSoundChange(sound.checked);
  });
  deal.addEventListener("input", () => describe());
  $("resume").addEventListener("click", () => onResume());
  $("guided-start").addEventListener("click", () => onStart({ mode: "guided" }));
  $("welcome-daily").addEventListener("click", () => onStart({ mode: "daily" }));
  $("give-up").addEventListener("click", () => onGiveUp());
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const chosen = choice();
    if (!chosen) {
      describe();
      deal.focus();
      return;
    }
    onStart(chosen);
  });

  events.on("language", () => {
    drawSpeedNote();
    if (isOpen()) open({ running, keepMode: true });
  });
  // A new day: the daily is offered again when the menu offered what the day before made sensible (the player's
  // own pick of a mode stays), and every line that names the day is drawn anew.
  events.on("day-turned", ({ previous }) => {
    if (mode === offeredOn(previous)) selectMode(sensibleMode());
    else describe();
  });
  events.on("state", ({ panel }) => {
    if (panel === "menu") return;
    clearInterval(ticker);
    restoreFailed = null; // said once
  });

  return { open, setDeal, isOpen, isResumable: () => running !== null };
}

/**
 * The CPU speed select's options: the engine's names as values, the catalogs' words (speed.<name>) as text. Returns
 * the note under it, hidden, that says when a saved speed was no longer offered.
 */
function drawSpeeds(select, names) {
  select.replaceChildren(
    ...names.map((name) => {
      const option = document.createElement("option");
      option.value = name;
      option.dataset.i18n = `speed.${name}`;
      return option;
    }),
  );
  translatePage(select);
  const note = document.createElement("p");
  note.className = "menu-note";
  note.id = "speed-note";
  note.dataset.testid = "speed-note";
  note.setAttribute("role", "status");
  note.hidden = true;
  select.closest("label").after(note);
  return note;
}

/** A switch for each house rule in `box` (before its note), named in words by the catalogs; the inputs. */
function drawHouseSwitches(box, names) {
  const note = box.querySelector(".house-note");
  const inputs = names.map((name) => {
    const label = document.createElement("label");
    label.className = "check";
    const input = document.createElement("input");
    input.type = "checkbox";
    input.value = name;
    input.dataset.testid = `house-${name}`;
    const words = document.createElement("span");
    words.dataset.i18n = `menu.house.${name}`;
    label.append(input, words);
    box.insertBefore(label, note);
    return input;
  });
  box.hidden = names.length === 0;
  translatePage(box);
  return inputs;
}

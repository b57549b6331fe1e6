// The menu: mode, CPU speed, deal number, sound and the player's history; it says what to start, never how.

import { parseSeed, todayUtc } from "../app/deals.js";
import { formatNumber, t } from "../app/i18n.js";

/**
 * events: the app's emitter (the menu is shown while its state's panel is "menu"). onStart(choice) when the
 * player deals; onResume() for "back to the game"; onSoundChange(on).
 */
export function createMenu({ events, storage, onStart, onResume, onSoundChange }) {
  const $ = (id) => document.getElementById(id);
  const form = $("menu-form");
  const modeButtons = [...document.querySelectorAll(".mode[data-mode]")];
  const speed = $("speed");
  const deal = $("deal");
  const lenient = $("lenient");
  const sound = $("sound");
  const note = $("menu-note");
  let mode = "daily";
  let resumable = false;

  function selectMode(next) {
    mode = next === "daily" ? "daily" : "practice";
    for (const button of modeButtons) button.setAttribute("aria-checked", String(button.dataset.mode === mode));
    $("practice-options").disabled = mode === "daily";
    storage.saveSettings({ mode });
    describe();
  }

  function describe() {
    const record = storage.dailyRecord(todayUtc());
    let text = "";
    if (mode === "daily" && record) {
      text = record.finished ? t("menu.dailyDone", { score: record.score }) : t("menu.dailyStarted");
    } else if (mode === "practice" && deal.value.trim() && parseSeed(deal.value) === null) {
      text = t("menu.dealInvalid");
    }
    note.textContent = text;
    const h = storage.history();
    const none = t("history.none");
    $("history-line").textContent = t("history.line", {
      played: h.played,
      won: h.won,
      best: h.bestDaily === null ? none : formatNumber(h.bestDaily),
      streak: h.streak,
    });
  }

  /** What the player chose: {mode, seed|null, speed, lenient}, or null if the deal number is invalid. */
  function choice() {
    if (mode === "daily") return { mode: "daily" };
    const text = deal.value.trim();
    const seed = text ? parseSeed(text) : null;
    if (text && seed === null) return null;
    return { mode: "practice", seed, speed: speed.value, lenient: lenient.checked };
  }

  /** Shows the menu (again, in the current language, if it is open); canResume offers "back to the game". */
  function open({ canResume = false } = {}) {
    resumable = canResume;
    const start = $("start");
    start.textContent = t("menu.start");
    let resume = $("resume");
    if (canResume && !resume) {
      resume = document.createElement("button");
      resume.type = "button";
      resume.id = "resume";
      resume.dataset.testid = "resume";
      resume.addEventListener("click", () => onResume());
      start.after(resume);
    }
    if (resume) {
      resume.hidden = !canResume;
      resume.textContent = t("menu.resume");
    }
    describe();
    events.setState({ panel: "menu" });
  }

  const isOpen = () => events.state().panel === "menu";

  function setDeal(seed) {
    deal.value = seed === null || seed === undefined ? "" : String(seed);
    selectMode("practice");
  }

  const settings = storage.settings();
  speed.value = settings.speed;
  lenient.checked = Boolean(settings.lenient);
  sound.checked = Boolean(settings.sound);
  selectMode(settings.mode);

  for (const button of modeButtons) button.addEventListener("click", () => selectMode(button.dataset.mode));
  speed.addEventListener("change", () => storage.saveSettings({ speed: speed.value }));
  lenient.addEventListener("change", () => storage.saveSettings({ lenient: lenient.checked }));
  sound.addEventListener("change", () => {
    storage.saveSettings({ sound: sound.checked });
    onSoundChange(sound.checked);
  });
  deal.addEventListener("input", () => describe());
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

  events.on("language", () => isOpen() && open({ canResume: resumable }));

  return { open, setDeal, isOpen, isResumable: () => resumable };
}

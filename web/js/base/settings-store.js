// The player's settings (speed, sound, language, lenient, house rules, the board's nickname), kept under one key.

import { keyed } from "./local-store.js";

const KEY_SETTINGS = "ewar.settings";

export const DEFAULT_SETTINGS = Object.freeze({
  speed: null, // the CPU speed picked for practice (an engine's name); none yet: the engine's default
  sound: true,
  language: null,
  lenient: false,
  houseRules: [], // the house rules switched on for practice (their engine names)
});

/** backend: the page's (local-store.js, pageBackend). */
export function createSettingsStore(backend) {
  const kept = keyed(backend);
  const settings = () => kept.readJson(KEY_SETTINGS, DEFAULT_SETTINGS);

  /** Keeps `changes` over the settings kept; returns the settings now kept. */
  function saveSettings(changes) {
    const next = { ...settings(), ...changes };
    kept.writeJson(KEY_SETTINGS, next);
    return next;
  }

  return { settings, saveSettings };
}

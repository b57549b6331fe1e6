// The numbers and names of the game the page quotes and uses (scoring, strikes, pauses; the seats, the speeds,
// the daily's settings, the largest deal number), as the engine gives them: the page keeps no copy of its own.

let numbers = null;

/** Takes the engine's bridge.rule_numbers() answer (JSON text), once the engine has loaded. */
export function setRuleNumbers(json) {
  numbers = Object.freeze(JSON.parse(json));
}

/** {win_base, per_second, per_wrong_slap, win_floor, per_pile, ...}; throws before the engine has loaded. */
export function ruleNumbers() {
  if (!numbers) throw new Error("the engine's rule numbers are not known yet: it has not loaded");
  return numbers;
}

let settings = null;

/** Takes the engine's bridge.table_settings() answer (JSON text), once the engine has loaded. */
export function setTableSettings(json) {
  settings = Object.freeze(JSON.parse(json));
}

/** {seats (in play order), you, speeds, daily: {speed, lenient}, max_seed}; throws before the engine has loaded. */
export function tableSettings() {
  if (!settings) throw new Error("the engine's table settings are not known yet: it has not loaded");
  return settings;
}

/** The seat of the player at this page's table, as the engine names it. */
export function yourSeat() {
  return tableSettings().you;
}

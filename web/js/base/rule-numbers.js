// The numbers and names of the game the page quotes and uses (scoring, strikes, pauses; the seats, the speeds,
// the daily's settings, the largest deal number), as the engine gives them: the page keeps no copy of its own.

/** One answer of the engine's bridge (JSON text), kept once the engine has loaded; read before, it throws. */
function engineAnswer(what) {
  let value = null;
  return {
    set: (json) => {
      value = Object.freeze(JSON.parse(json));
    },
    get: () => {
      if (!value) throw new Error(`the engine's ${what} are not known yet: it has not loaded`);
      return value;
    },
  };
}

const numbers = engineAnswer("rule numbers");
const settings = engineAnswer("table settings");

/** Takes the engine's bridge.rule_numbers() answer (JSON text), once the engine has loaded. */
export const setRuleNumbers = numbers.set;

/** {win_base, per_second, per_wrong_slap, win_floor, per_pile, strikes, pay_ace, ...}; throws before the engine has loaded. */
export const ruleNumbers = numbers.get;

/** Takes the engine's bridge.table_settings() answer (JSON text), once the engine has loaded. */
export const setTableSettings = settings.set;

/**
 * {seats (in play order), you, speeds (slowest first), default_speed, daily: {speed, lenient}, max_seed}; throws before
 * the engine has loaded.
 */
export const tableSettings = settings.get;

/** The CPU speed a practice game plays at for `name` (a saved choice, or none): that one if the engine offers it, else
 * the engine's default. */
export function offeredSpeed(name) {
  const { speeds, default_speed: fallback } = tableSettings();
  return speeds.includes(name) ? name : fallback;
}

/** The seat of the player at this page's table, as the engine names it. */
export function yourSeat() {
  return tableSettings().you;
}

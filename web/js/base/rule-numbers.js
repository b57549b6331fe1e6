// The numbers of the game the page quotes (scoring, strikes, pauses), as the engine gives them: the page keeps
// no copy of its own.

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

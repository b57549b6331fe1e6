// Deal numbers: a fresh random deal, and a typed deal number checked. (The days: web/common/clock.js.)

import { tableSettings } from "./rule-numbers.js";

/** A fresh deal number from 0 to the engine's largest (max_seed), uniform, from the platform's cryptographic generator. */
export function randomSeed() {
  const max = tableSettings().max_seed; // a safe integer: at most 53 bits
  const bits = max.toString(2).length;
  const highBits = Math.max(0, bits - 32);
  const lowMask = bits >= 32 ? 0xffffffff : 2 ** bits - 1;
  for (;;) {
    // As many random bits as max has; a draw above max is drawn again (under one time in two).
    const [high, low] = crypto.getRandomValues(new Uint32Array(2));
    const seed = (high % 2 ** highBits) * 2 ** 32 + ((low & lowMask) >>> 0);
    if (seed <= max) return seed;
  }
}

/** How many digits the engine's largest deal number has: the most a deal number may be typed with. */
export function dealDigits() {
  return String(tableSettings().max_seed).length;
}

/** "12345" -> 12345; anything that is not a whole number from 0 to the engine's largest deal number -> null. */
export function parseSeed(text) {
  const trimmed = String(text ?? "").trim();
  if (!/^\d+$/.test(trimmed) || trimmed.length > dealDigits()) return null;
  const seed = Number(trimmed);
  return seed <= tableSettings().max_seed ? seed : null;
}

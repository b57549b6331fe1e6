// Deal numbers: a fresh random deal, and a typed deal number checked. (The days: web/common/clock.js.)

import { tableSettings } from "./rule-numbers.js";

/** A fresh deal number in 0..2**53-1 from the platform's cryptographic generator. */
export function randomSeed() {
  const [high, low] = crypto.getRandomValues(new Uint32Array(2));
  return (high & 0x1fffff) * 2 ** 32 + low;
}

/** "12345" -> 12345; anything that is not a whole number from 0 to the engine's largest deal number -> null. */
export function parseSeed(text) {
  const trimmed = String(text ?? "").trim();
  if (!/^\d{1,16}$/.test(trimmed)) return null;
  const seed = Number(trimmed);
  return seed <= tableSettings().max_seed ? seed : null;
}

// Deal numbers and days: a fresh random deal, a typed deal number checked, and the UTC days dailies belong to.

import { DAY_MS } from "../../common/contract.js";
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

// How far the server's clock is from this device's, once an answer's Date header said (0 within a minute): a
// device clock set ahead does not open tomorrow's daily, nor take today's out of its lock (docs/scores.md).
const OFFSET_KEY = "ewar.serverOffsetMs";
const SKEW_MS = 60_000;
let serverOffsetMs = readOffset();

function readOffset() {
  try {
    const kept = Number(globalThis.localStorage?.getItem(OFFSET_KEY));
    return Number.isFinite(kept) ? kept : 0;
  } catch {
    return 0; // storage blocked: the device's clock until the server is heard
  }
}

/** Learns the server's time from an answer's Date header (text); a header missing or unreadable changes nothing. */
export function learnServerTime(dateHeader, deviceMs = Date.now()) {
  const serverMs = Date.parse(dateHeader ?? "");
  if (!Number.isFinite(serverMs)) return;
  const offset = serverMs - deviceMs;
  serverOffsetMs = Math.abs(offset) > SKEW_MS ? offset : 0;
  try {
    globalThis.localStorage?.setItem(OFFSET_KEY, String(serverOffsetMs));
  } catch {
    // kept for this page only
  }
}

/** Now (epoch ms) by the server's clock when it is known, else the device's. */
export function nowMs() {
  return Date.now() + serverOffsetMs;
}

/** Today's UTC date, "2026-11-30": the day whose daily deal is played now, wherever the player is. */
export function todayUtc(now = new Date(nowMs())) {
  return now.toISOString().slice(0, 10);
}

/** "2026-11-30" -> "2026-11-29". */
export function previousDay(date) {
  return new Date(Date.parse(`${date}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);
}

/** Ms from `now` to the next UTC midnight, when the next daily deal begins. */
export function msToNextDaily(now = nowMs()) {
  return DAY_MS - (((now % DAY_MS) + DAY_MS) % DAY_MS);
}

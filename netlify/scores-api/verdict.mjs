// The judge's verdict as the API answers it: every refusal of the Python judge (ewar/judge.py) is a 422 under
// the judge's own code; an acceptance gives the facts the board keeps. No rule is checked here.
import { Rejection } from "../lib/submission.mjs";

const CODE_PATTERN = /^[a-z][a-z_]{0,39}$/;

const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * The facts of an accepted verdict ({ score, won, reason, duration_ms, wrong_slaps, piles_slapped,
 * actions_sha256, game_sha256 }: game_sha256 is the game's path without its milliseconds; one game, one entry
 * goes by timing, samegame.mjs), or a Rejection(422) carrying the judge's code and message. A verdict of neither shape is an internal
 * failure (thrown as a plain Error: the caller answers 503).
 */
export function factsOf(verdict) {
  if (verdict?.ok === false) {
    const code = verdict.error?.code;
    if (typeof code !== "string" || !CODE_PATTERN.test(code)) throw new Error(`the judge answered code ${code}`);
    throw new Rejection(422, code, String(verdict.error.message ?? code));
  }
  if (verdict?.ok !== true) throw new Error("the judge answered neither ok nor an error");
  const facts = {
    score: verdict.score,
    won: verdict.won,
    reason: verdict.reason,
    duration_ms: verdict.duration_ms,
    wrong_slaps: verdict.wrong_slaps,
    piles_slapped: verdict.piles_slapped,
    actions_sha256: verdict.actions_sha256,
    game_sha256: verdict.game_sha256,
  };
  const counts = [facts.score, facts.duration_ms, facts.wrong_slaps, facts.piles_slapped];
  if (
    !counts.every((value) => Number.isSafeInteger(value) && value >= 0) ||
    typeof facts.won !== "boolean" ||
    ![facts.actions_sha256, facts.game_sha256].every((digest) => typeof digest === "string" && SHA256_HEX.test(digest))
  ) {
    throw new Error("the judge's acceptance lacks a fact the board needs");
  }
  return facts;
}

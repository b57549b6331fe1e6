// Accepting a replay: cheap checks of the record's settings, then of the engine's verdict (rules stay in Python).
import { Rejection } from "./submission.mjs";

/** The physically-impossible-play bound: a valid slap sooner than this after the card that made its pattern. */
export const MIN_REACTION_MS = 100;

const reject = (code, message) => {
  throw new Rejection(422, code, message);
};

/** Settings that need no replaying: engine version, daily mode, the claimed date, standard rules. */
export function checkRecord(replay, date, engineVersion) {
  if (typeof replay.engine !== "string" || !Array.isArray(replay.actions)) {
    reject("invalid_replay", "The replay is not a game record (engine, actions...).");
  }
  if (replay.engine !== engineVersion) {
    reject("engine_version", `This game was made by engine ${JSON.stringify(replay.engine)}; the current one is ` +
      `${engineVersion}. Update the page and play again.`);
  }
  if (replay.mode !== "daily") reject("not_daily", "Only daily games go on the leaderboard.");
  if (replay.date !== date) reject("date_mismatch", "The replay is of another day's game than the date sent.");
  if (replay.speed !== "normal" || replay.lenient !== false) {
    reject("not_standard", "Daily games are played at normal speed with the standard rules.");
  }
}

function wrongSlapsOf(verdict) {
  const count = verdict.wrong_slaps ?? verdict.result?.breakdown?.wrong_slaps ?? 0;
  return Number.isSafeInteger(count) ? count : 0;
}

/** The engine's verdict against the envelope; returns the facts the leaderboard keeps. */
export function checkVerdict(verdict, submission, engine) {
  if (!verdict || verdict.ok !== true) {
    const error = verdict?.error ?? {};
    reject("invalid_replay", `The replay does not replay: ${error.code ?? "error"}: ${error.message ?? ""}`.trim());
  }
  if (verdict.engine_version !== engine.engineVersion) reject("engine_version", "Replayed by another engine version.");
  if (verdict.mode !== "daily") reject("not_daily", "Only daily games go on the leaderboard.");
  if (verdict.date !== submission.date) reject("date_mismatch", "The replay is of another day's game.");
  if (verdict.seed !== engine.dailySeed(submission.date)) reject("not_daily", "The replay is not that day's deal.");
  if (verdict.speed !== "normal" || verdict.lenient !== false) {
    reject("not_standard", "Daily games are played at normal speed with the standard rules.");
  }
  if (verdict.finished !== true || !verdict.result) reject("unfinished", "The game in the replay is not over.");
  if (verdict.result.score !== submission.score) {
    reject("score_mismatch", `The replay scores ${verdict.result.score}, not ${submission.score}.`);
  }
  const reaction = verdict.min_reaction_ms;
  if (reaction !== null && reaction !== undefined && !(reaction >= MIN_REACTION_MS)) {
    reject("impossible_play", `A valid slap came ${reaction} ms after its card; under ${MIN_REACTION_MS} ms is ` +
      "faster than a human can react.");
  }
  return {
    score: verdict.result.score,
    won: verdict.result.won === true,
    duration_ms: verdict.result.duration_ms,
    wrong_slaps: wrongSlapsOf(verdict),
  };
}

// The API's contract (web/common/contract.js) against every other place that must agree with it and cannot import
// it: the functions' literal configs (their paths and rate limits, as Netlify's bundler reads them), the engine's
// own copy of the day's length and the submission window (ewar/deal.py), the codes the functions answer and the
// words the page has for them.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { config as boardConfig } from "../../netlify/functions/board/board.mjs";
import { config as friendsConfig } from "../../netlify/functions/friends/friends.mjs";
import { config as postConfig } from "../../netlify/functions/scores/scores.mjs";
import {
  DAY_MS,
  ENDPOINTS,
  FRIENDS_REFUSALS,
  friendsPath,
  RATE_LIMITS,
  SCORE_REFUSALS,
  SUBMISSION_DAYS,
  submissionDates,
} from "../../web/common/contract.js";
import { RATE_LIMITED_WAIT_MS } from "../../web/common/retry-policy.js";
import { refusalKey } from "../../web/js/scores/friends-state.js";
import { reasonOf } from "../../web/js/scores/records.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const PYTHON = process.env.PYTHON ?? "python3";
const LANGUAGES = ["en", "fr", "ko", "vi", "ur"];

/** The source text of every .mjs and .py file below `folder`. */
function sources(folder) {
  return readdirSync(path.join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(mjs|py)$/.test(entry.name))
    .map((entry) => readFileSync(path.join(entry.parentPath, entry.name), "utf8"))
    .join("\n");
}

describe("the functions' literal configs follow the contract", () => {
  test("each function's paths are the contract's endpoints", () => {
    assert.equal(postConfig.path, ENDPOINTS.scores);
    assert.deepEqual(boardConfig.path, [ENDPOINTS.scores, ENDPOINTS.player, ENDPOINTS.rank, ENDPOINTS.replay]);
    assert.deepEqual(friendsConfig.path, [ENDPOINTS.friends, friendsPath(":code"), friendsPath(":code", true)]);
  });

  test("the limits the functions declare are the contract's, which the page's retry policy follows", () => {
    const declared = (config) => ({
      windowLimit: config.rateLimit.windowLimit,
      windowSize: config.rateLimit.windowSize,
    });
    assert.deepEqual(declared(postConfig), RATE_LIMITS.postScores);
    assert.deepEqual(declared(boardConfig), RATE_LIMITS.readScores);
    assert.deepEqual(declared(friendsConfig), RATE_LIMITS.friends);
    // After a 429 with no Retry-After the page waits the posting limit's whole window: 10 in 180 s.
    assert.equal(RATE_LIMITED_WAIT_MS, postConfig.rateLimit.windowSize * 1000);
  });
});

describe("the engine's copy of the day and the submission window", () => {
  test("ewar/deal.py's DAY_MS and SUBMISSION_DAYS are the contract's", () => {
    const script = "import json; from ewar import deal; print(json.dumps([deal.DAY_MS, deal.SUBMISSION_DAYS]))";
    const [dayMs, submissionDays] = JSON.parse(execFileSync(PYTHON, ["-c", script], { cwd: ROOT, encoding: "utf8" }));
    assert.equal(dayMs, DAY_MS);
    assert.equal(submissionDays, SUBMISSION_DAYS);
  });

  test("the window is today's and yesterday's UTC dates, turning at midnight", () => {
    const midnight = Date.parse("2026-12-01T00:00:00Z");
    assert.deepEqual(submissionDates(midnight - 1), ["2026-11-30", "2026-11-29"]);
    assert.deepEqual(submissionDates(midnight), ["2026-12-01", "2026-11-30"]);
  });
});

describe("the refusal codes the page words", () => {
  const answered = `${sources("netlify")}\n${sources("ewar")}`;
  const catalogs = Object.fromEntries(
    LANGUAGES.map((language) => [
      language,
      JSON.parse(readFileSync(path.join(ROOT, "web", "i18n", `${language}.json`), "utf8")),
    ]),
  );

  test("every score refusal in the contract is a code the function or the judge answers, worded in five languages", () => {
    for (const code of SCORE_REFUSALS) {
      assert.ok(answered.includes(`"${code}"`), `${code} is answered nowhere`);
      const { key } = reasonOf({ status: code === "implausible_play" ? 422 : 409, code, entry: 1 });
      assert.ok(key.startsWith("leaderboard.reason.") || key.startsWith("leaderboard.name"), `${code}: ${key}`);
      assert.ok(!["leaderboard.reason.unverified", "leaderboard.reason.other"].includes(key), `${code}: ${key}`);
      for (const language of LANGUAGES) assert.ok(catalogs[language][key], `${language} has no ${key}`);
    }
  });

  test("every friends' refusal in the contract is answered and has words of its own", () => {
    for (const code of FRIENDS_REFUSALS) {
      assert.ok(answered.includes(`"${code}"`), `${code} is answered nowhere`);
      const key = refusalKey({ status: 400, body: { error: code } });
      assert.notEqual(key, "friends.errorFailed", code);
      for (const language of LANGUAGES) assert.ok(catalogs[language][key], `${language} has no ${key}`);
    }
  });

  test("a code outside the contract is worded as a general failure, not as one of its refusals", () => {
    assert.equal(refusalKey({ status: 400, body: { error: "no_such_code" } }), "friends.errorFailed");
    assert.equal(reasonOf({ status: 400, code: "no_such_code", message: "m" }).key, "leaderboard.reason.other");
  });
});

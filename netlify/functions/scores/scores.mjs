// The posting function: POST /api/scores (netlify/scores-api/handler.mjs), under its own rate limit. Netlify's
// bundler reads this config as literal code, so every value in it is written out here
// (tests/build/test_netlify_build.py checks the manifest's trafficRules).
import { systemClock } from "../../../web/common/clock.js";
import { answeredBy } from "../../lib/answer.mjs";
import { createScoresHandler } from "../../scores-api/handler.mjs";

/**
 * 10 posts in 3 minutes per client IP on this domain: a household posts a few scores a day (a retry or a second
 * name included); a script that posted 62 records in 10 s gets 10.
 */
export const config = {
  path: "/api/scores",
  method: ["POST"],
  rateLimit: { windowLimit: 10, windowSize: 180, aggregateBy: ["ip", "domain"] },
};

// The function's one wall clock, made here and handed in.
const handler = createScoresHandler({ clock: systemClock() });

export default async (request) => answeredBy("scores", await handler(request));

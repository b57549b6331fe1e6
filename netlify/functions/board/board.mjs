// The reading function: GET /api/scores (the day's board), GET /api/scores/rank (the caller's own row), DELETE
// /api/scores/player (forget me) and GET /api/scores/replay (an entry's replay), and the 405 of every other method
// but POST, under a rate limit of its own: the scores API the posting function serves too
// (netlify/scores-api/handler.mjs). The config is literal code (Netlify's bundler reads it so).
import { systemClock } from "../../../web/common/clock.js";
import { answeredBy } from "../../lib/answer.mjs";
import { createScoresHandler } from "../../scores-api/handler.mjs";

/** 120 reads a minute per client IP on this domain: two a second for a whole minute, far past a household's. */
export const config = {
  path: ["/api/scores", "/api/scores/player", "/api/scores/rank", "/api/scores/replay"],
  method: ["GET", "HEAD", "PUT", "PATCH", "DELETE", "OPTIONS"],
  rateLimit: { windowLimit: 120, windowSize: 60, aggregateBy: ["ip", "domain"] },
};

// The function's one wall clock, made here and handed in.
const handler = createScoresHandler({ clock: systemClock() });

export default async (request) => answeredBy("board", await handler(request));

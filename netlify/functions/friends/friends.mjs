// The friends' boards function: /api/friends (handler.mjs), under a rate limit of its own. Netlify's bundler reads
// this config as literal code (tests/build/test_netlify_build.py checks the manifest's trafficRules).
import { systemClock } from "../../../web/common/clock.js";
import { answeredBy } from "../../lib/answer.mjs";
import { createFriendsHandler } from "./handler.mjs";

/**
 * 30 requests a minute per client IP on this domain: a household creates, joins and reads a few boards a day; a
 * script guessing codes gets 30 guesses a minute at a 60-bit code.
 */
export const config = {
  path: ["/api/friends", "/api/friends/:code", "/api/friends/:code/members"],
  method: ["GET", "POST", "PUT", "DELETE"],
  rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ["ip", "domain"] },
};

// The function's one wall clock, made here and handed in.
const handler = createFriendsHandler({ clock: systemClock() });

export default async (request) => answeredBy("friends", await handler(request));

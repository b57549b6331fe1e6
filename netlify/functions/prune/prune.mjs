// The chores function: a Netlify Scheduled Function that deletes what the board keeps no longer (chores.mjs:
// replays and entries past their days, player hashes past the friends' boards' window, idle friends' boards).
// It has no path: no player's request reaches it or waits for it. Netlify's bundler reads this config as literal
// code, so the schedule is written out here (tests/function/prune.test.mjs checks it).
import { systemClock } from "../../../web/common/clock.js";
import { createPruneHandler } from "./handler.mjs";

/** Every hour, on the hour (UTC): nothing is kept more than an hour past its time. */
export const config = {
  schedule: "@hourly",
};

// The function's one wall clock, made here and handed in.
const handler = createPruneHandler({ clock: systemClock() });

export default async (request) => handler(request);

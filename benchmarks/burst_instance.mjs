// One function instance of the burst benchmark (bench_burst.mjs), as a process of its own: the posting function's
// handler over the database access named by BURST_MODE, serving one request at a time as Netlify runs an instance.
// Requests come and answers go over the IPC channel: {n, url, method, headers, body} → {n, status, retryAfter, ms}.

import { connectionPerStatement, poolOfOne } from "../netlify/database/pool.mjs";
import { createScoresHandler } from "../netlify/scores-api/handler.mjs";
import { standInEngine } from "../tools/harness/fixtures.mjs";
import { systemClock } from "../web/common/clock.js";

const MODES = { "pool-of-one": poolOfOne, "per-statement": connectionPerStatement };
const makeDb = MODES[process.env.BURST_MODE];
if (!makeDb) throw new Error(`BURST_MODE must be one of ${Object.keys(MODES).join(", ")}`);
const db = makeDb(process.env.BURST_DATABASE_URL, "burst");
const engine = standInEngine();
const handler = createScoresHandler({ database: () => db, getEngine: async () => engine, clock: systemClock() });
// Errors the handler logs (a refused connection) are counted by the answers' 503s: kept off the terminal.
console.error = () => {};

process.on("message", async ({ n, url, method, headers, body }) => {
  const response = await handler(new Request(url, { method, headers, body }));
  await response.arrayBuffer();
  process.send({ n, status: response.status, retryAfter: response.headers.get("retry-after") });
});
process.on("disconnect", async () => {
  await db.end();
  process.exit(0);
});
process.send({ ready: true });

// The scheduled chores' handler (prune.mjs): runs the retention chores (chores.mjs) within the time a scheduled
// function has, logs what went, and answers it (Netlify ignores a scheduled function's answer; tests read it).
import { netlifyDatabase } from "../../database/pool.mjs";
import { runChores } from "./chores.mjs";

/** Netlify gives a scheduled function 30 s; the chores stop starting batches after this, the rest waits an hour. */
export const BUDGET_MS = 20_000;

/**
 * A chores handler. `database`: a function returning the db (Netlify Database when absent); `clock`: the wall clock
 * (web/common/clock.js; prune.mjs makes it).
 */
export function createPruneHandler({ database = netlifyDatabase("prune"), clock, budgetMs = BUDGET_MS } = {}) {
  if (typeof clock?.now !== "function") throw new TypeError("a handler needs its clock (web/common/clock.js)");
  return async function prune(_request) {
    const started = clock.now();
    try {
      const done = await runChores(database(), started, { budgetMs });
      console.log(`prune: ${JSON.stringify(done)}`);
      return new Response(JSON.stringify(done), { status: 200, headers: { "content-type": "application/json" } });
    } catch (error) {
      console.error("prune: the chores failed (the next hour tries again):", error?.stack ?? error);
      return new Response(JSON.stringify({ error: "chores_failed", message: String(error?.message ?? error) }), {
        status: 500,
        headers: { "content-type": "application/json" },
      });
    }
  };
}

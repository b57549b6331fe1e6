// Netlify Database's connection pool for a function, made on first use (a missing database is then the caller's
// 503). An idle connection the server drops is logged, not left to crash the instance; the next query opens another.
import { getDatabase } from "@netlify/database";

/** A function returning the pool, made on its first call; `label` names the function in the log. */
export function netlifyDatabase(label) {
  let pool = null;
  return () => {
    if (!pool) {
      pool = getDatabase().pool;
      pool.on?.("error", (error) => console.error(`${label}: idle database connection lost: ${error.message}`));
    }
    return pool;
  };
}

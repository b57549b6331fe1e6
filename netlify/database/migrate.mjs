// Applies netlify/database/migrations/ in order to a database, the way Netlify does on deploy: for local runs
// (PGlite), the tests and the benchmarks. Each migration runs in one transaction with its row in ewar_migrations.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");
const MIGRATION_NAME = /^(\d+)_[a-z0-9_-]+\.sql$/;

/** The migration files, in their numbers' order: [{ name, sql }]. */
export function migrations(dir = MIGRATIONS_DIR) {
  return readdirSync(dir)
    .filter((file) => MIGRATION_NAME.test(file))
    .sort((a, b) => Number(MIGRATION_NAME.exec(a)[1]) - Number(MIGRATION_NAME.exec(b)[1]))
    .map((file) => ({ name: file, sql: readFileSync(path.join(dir, file), "utf8") }));
}

/**
 * Applies the migrations `db` has not had. `db.exec(sql)` runs a script of several statements (PGlite has it; a
 * pg client's query() does the same with no parameters). Resolves to the names applied.
 */
export async function migrate(db) {
  const run = (sql) => (typeof db.exec === "function" ? db.exec(sql) : db.query(sql));
  await run("CREATE TABLE IF NOT EXISTS ewar_migrations (name text PRIMARY KEY, applied_at timestamptz DEFAULT now())");
  const { rows } = await db.query("SELECT name FROM ewar_migrations");
  const done = new Set(rows.map((row) => row.name));
  const applied = [];
  for (const { name, sql } of migrations()) {
    if (done.has(name)) continue;
    await run(`BEGIN;\n${sql}\n;INSERT INTO ewar_migrations (name) VALUES ('${name.replaceAll("'", "''")}');\nCOMMIT;`);
    applied.push(name);
  }
  return applied;
}

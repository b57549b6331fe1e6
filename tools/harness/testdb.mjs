// Fresh databases on a real PostgreSQL server for the tests and benchmarks: the server is the one
// EWAR_TEST_DATABASE_URL names (the test command starts one: tools/builder/postgres.py); each caller gets a database
// of its own, migrated, dropped after.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { migrate } from "../../netlify/database/migrate.mjs";

export const TEST_DATABASE_ENV = "EWAR_TEST_DATABASE_URL";

/** The server's URL, or a clear error saying how to get one. */
export function testServerUrl() {
  const url = process.env[TEST_DATABASE_ENV];
  if (!url) {
    throw new Error(
      `${TEST_DATABASE_ENV} is not set: run through \`python build.py test\`, or start a server with ` +
        "`python -m tools.builder.postgres -- COMMAND` (it sets the variable for COMMAND)",
    );
  }
  return url;
}

const withDatabase = (url, name) => {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
};

/**
 * A new migrated database (empty when `migrated` is false): { url, pool (a pg Pool of `max` connections), empty(),
 * drop() }. drop() ends the pool and drops the database.
 */
export async function freshDatabase({ max = 10, migrated = true } = {}) {
  const server = testServerUrl();
  const name = `ewar_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = withDatabase(server, name);
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle connection ended by the server (the drop below) is no test's failure.
  pool.on("error", () => {});
  if (migrated) await migrate(pool);
  return {
    url,
    pool,
    /** Empties every table the migrations made, identities restarted: as a new migrated database has them (a
     * CREATE DATABASE costs ~0.1-0.3 s of waiting; this a few ms). */
    async empty() {
      const { rows } = await pool.query(
        "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'ewar_migrations'",
      );
      const tables = rows.map((row) => `"${row.tablename}"`);
      if (tables.length) await pool.query(`TRUNCATE ${tables.join(", ")} RESTART IDENTITY CASCADE`);
    },
    async drop() {
      await pool.end();
      const cleaner = new pg.Client({ connectionString: server });
      await cleaner.connect();
      try {
        await cleaner.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await cleaner.end();
      }
    },
  };
}

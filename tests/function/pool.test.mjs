// How the functions reach the database (netlify/database/pool.mjs): a pool of one holds at most one connection,
// a connection per statement holds none between statements, the serverless driver's HTTP client is used on
// Netlify, and a refused connection is tried again while any other error is not.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  CONNECT_TRIES,
  connectionPerStatement,
  netlifyDatabase,
  oneStatementDatabase,
  poolOfOne,
} from "../../netlify/database/pool.mjs";
import { freshDatabase } from "../../tools/harness/testdb.mjs";

let fresh;
before(async () => {
  fresh = await freshDatabase({ max: 2 });
});
after(async () => {
  await fresh?.drop();
});

/** Resolves once `check()` holds, or fails after `ms` (a closed connection leaves the server's list soon after). */
async function eventually(check, ms = 3000) {
  const until = performance.now() + ms;
  while (!(await check())) {
    if (performance.now() > until) assert.fail("the condition never held");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Connections to the test database other than the watcher's own. */
async function connectionsOf(pool, url) {
  const name = new URL(url).pathname.slice(1);
  const { rows } = await pool.query(
    "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
    [name],
  );
  return rows[0].n;
}

test("a pool of one answers ten concurrent statements on one connection, and lets it go when idle", async () => {
  const db = poolOfOne(fresh.url, "test");
  const watcher = fresh.pool;
  const baseline = await connectionsOf(watcher, fresh.url);
  try {
    const seen = new Set();
    const answers = await Promise.all(
      Array.from({ length: 10 }, async (_, at) => {
        const { rows } = await db.query("SELECT $1::int AS n, pg_backend_pid() AS pid", [at]);
        seen.add(rows[0].pid);
        return rows[0].n;
      }),
    );
    assert.deepEqual(answers, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    assert.equal(seen.size, 1, "every statement ran on the same one connection");
    assert.equal(await connectionsOf(watcher, fresh.url), baseline + 1);
    // IDLE_MS later the pool has closed it.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await eventually(async () => (await connectionsOf(watcher, fresh.url)) === baseline);
  } finally {
    await db.end();
  }
});

test("a connection per statement holds none once its statement has answered", async () => {
  const db = connectionPerStatement(fresh.url);
  const baseline = await connectionsOf(fresh.pool, fresh.url);
  const { rows } = await db.query("SELECT 41 + $1::int AS n", [1]);
  assert.equal(rows[0].n, 42);
  await eventually(async () => (await connectionsOf(fresh.pool, fresh.url)) === baseline);
});

test("a refused connection is tried again, up to CONNECT_TRIES; a statement's own error is not", async () => {
  const calls = [];
  const refusing = (failures, code) => ({
    async query(text, params) {
      calls.push(text);
      if (calls.length <= failures) throw Object.assign(new Error("sorry, too many clients already"), { code });
      return { rows: [{ text, params }] };
    },
  });
  const db = oneStatementDatabase(refusing(CONNECT_TRIES - 1, "53300"));
  assert.deepEqual((await db.query("SELECT 1", [])).rows, [{ text: "SELECT 1", params: [] }]);
  assert.equal(calls.length, CONNECT_TRIES);

  calls.length = 0;
  const always = oneStatementDatabase(refusing(Number.POSITIVE_INFINITY, "53300"));
  await assert.rejects(always.query("SELECT 1", []), { code: "53300" });
  assert.equal(calls.length, CONNECT_TRIES);

  calls.length = 0;
  const unique = oneStatementDatabase(refusing(1, "23505"));
  await assert.rejects(unique.query("INSERT", []), { code: "23505" });
  assert.equal(calls.length, 1, "a broken constraint is the caller's answer, never sent twice");
});

test("on Netlify (the serverless driver) the functions query over HTTP; elsewhere through a pool of one", () => {
  const saved = { url: process.env.NETLIFY_DB_URL, driver: process.env.NETLIFY_DB_DRIVER };
  try {
    process.env.NETLIFY_DB_URL = "postgresql://user:secret@db.example.invalid/main";
    process.env.NETLIFY_DB_DRIVER = "serverless";
    assert.equal(netlifyDatabase("test")().how, "one statement per HTTP request");
    delete process.env.NETLIFY_DB_DRIVER;
    const local = netlifyDatabase("test")();
    assert.equal(local.how, "pool of one");
    local.end();
  } finally {
    for (const [key, name] of [
      ["url", "NETLIFY_DB_URL"],
      ["driver", "NETLIFY_DB_DRIVER"],
    ]) {
      if (saved[key] === undefined) delete process.env[name];
      else process.env[name] = saved[key];
    }
  }
});

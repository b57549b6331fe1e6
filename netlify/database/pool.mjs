// How a function instance talks to Netlify Database without holding connections (docs/deploy.md, "Database
// connections"). Every query of the functions is one statement, so none needs a connection of its own:
// - on Netlify (@netlify/database's "serverless" driver) each statement is one HTTP request to the database's
//   proxy (`httpClient`): no connection is held by an instance between, or during, its requests;
// - anywhere else (the "server" driver: a long-lived server, or a plain PostgreSQL) a pg pool of ONE connection
//   that closes after IDLE_MS idle: an instance serves one request at a time, so a second would only sit idle.
// A refused connection (the server's "too many clients") is retried briefly: no statement ran, nothing is lost.
import { getDatabase } from "@netlify/database";
import pg from "pg";

/** Connections a pool of one holds: at most one, and none once idle for IDLE_MS. */
export const POOL_SIZE = 1;
export const IDLE_MS = 1000;
/** Tries of a statement whose connection the server refused, and the wait before each retry (ms, jittered). */
export const CONNECT_TRIES = 4;
const RETRY_WAIT_MS = [25, 75, 200];
/** Postgres' SQLSTATEs for "no connection for you now": too many connections, and the server starting/stopping. */
const REFUSED_CODES = new Set(["53300", "57P03"]);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether `error` says the connection was refused before any statement ran (safe to try again). */
export function connectionRefused(error) {
  return REFUSED_CODES.has(error?.code) || error?.code === "ECONNREFUSED" || error?.code === "EAGAIN";
}

/** `query(text, params)` tried again after a refused connection, up to CONNECT_TRIES in all. */
function retryingRefusals(query) {
  return async (text, params) => {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await query(text, params);
      } catch (error) {
        if (!connectionRefused(error) || attempt + 1 >= CONNECT_TRIES) throw error;
        const wait = RETRY_WAIT_MS[Math.min(attempt, RETRY_WAIT_MS.length - 1)];
        await sleep(wait / 2 + Math.random() * wait);
      }
    }
  };
}

/** A db over Neon's HTTP query function (`getDatabase().httpClient`): one HTTP request a statement. */
export function oneStatementDatabase(httpClient) {
  return {
    how: "one statement per HTTP request",
    query: retryingRefusals(async (text, params = []) => {
      const result = await httpClient.query(text, params, { fullResults: true });
      return { rows: result.rows };
    }),
    async end() {},
  };
}

/** A db over a pg pool of one connection to `connectionString`, closed after IDLE_MS idle. */
export function poolOfOne(connectionString, label = "database") {
  const pool = new pg.Pool({ connectionString, max: POOL_SIZE, idleTimeoutMillis: IDLE_MS });
  pool.on("error", (error) => console.error(`${label}: idle database connection lost: ${error.message}`));
  return {
    how: "pool of one",
    query: retryingRefusals((text, params) => pool.query(text, params)),
    end: () => pool.end(),
  };
}

/**
 * A db that opens a connection for each statement and closes it after: what the HTTP driver costs the database
 * (a connection only while a statement runs), on a plain PostgreSQL. The burst benchmark's stand-in for Netlify.
 */
export function connectionPerStatement(connectionString) {
  return {
    how: "connection per statement",
    query: retryingRefusals(async (text, params) => {
      const client = new pg.Client({ connectionString });
      await client.connect();
      try {
        return await client.query(text, params);
      } finally {
        await client.end().catch(() => {});
      }
    }),
    async end() {},
  };
}

/**
 * A function returning this instance's db, made on its first call (a missing database is then the caller's 503):
 * one statement per HTTP request on Netlify, a pool of one elsewhere. `label` names the function in the log.
 */
export function netlifyDatabase(label) {
  let db = null;
  return () => {
    if (!db) {
      const database = getDatabase();
      if (database.driver === "serverless") {
        db = oneStatementDatabase(database.httpClient);
      } else {
        // The library's own pool (up to 10 connections) is never used: ended before it opens one.
        database.pool.end().catch(() => {});
        db = poolOfOne(database.connectionString, label);
      }
    }
    return db;
  };
}

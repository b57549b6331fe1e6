// Issue #22's reads and writes on a big day, against a real PostgreSQL server (EWAR_TEST_DATABASE_URL; run it
// under `python -m tools.builder.postgres -- ...`), side by side with the global board's read they sit beside:
// the global view (now with the day's distribution), the distribution alone, a friends' board of 50 members, an
// entry's replay, and a join+leave pair. A day of --day-entries entries (each with a player hash) and --boards
// boards of 50 members are bulk-inserted with generate_series; each figure is p50/p99 over --queries calls of the
// store (the SQL, not HTTP).
//
// Usage: node benchmarks/bench_friends.mjs [--day-entries 200000] [--boards 2000] [--queries 500] [--json]
import { createHash } from "node:crypto";
import { parseArgs } from "node:util";
import { FriendsStore, MEMBER_LIMIT } from "../netlify/database/friends-store.mjs";
import { deflateReplay, ScoreStore } from "../netlify/database/scores-store.mjs";
import { newCode } from "../netlify/functions/friends/handler.mjs";
import { canonicalJson } from "../netlify/lib/submission.mjs";
import { standInReplay } from "../tools/harness/fixtures.mjs";
import { freshDatabase } from "../tools/harness/testdb.mjs";
import { loadBoardDay } from "./board_day.mjs";

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const round = (value, places = 2) => Math.round(value * 10 ** places) / 10 ** places;
const summary = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: round(percentile(sorted, 50)), p99: round(percentile(sorted, 99)) };
};
const playerHash = (g) => createHash("sha256").update(`player${g}`).digest();

async function load(pool, date, entries, boards) {
  await loadBoardDay(pool, date, entries, { withPlayers: true });
  const deflated = deflateReplay(canonicalJson(standInReplay({ score: 1500, actions: Array(400).fill("slap") })));
  await pool.query(
    `INSERT INTO replays (day, id, deflated) SELECT $1::date, 'day' || lpad(g::text, 11, '0'), $2
     FROM generate_series(1, least($3::int, 5000)) AS g`,
    [date, deflated, entries],
  );
  const codes = Array.from({ length: boards }, () => newCode());
  await pool.query(
    `INSERT INTO friend_boards (code, name, members, last_used)
     SELECT code, 'Board ' || ord, ${MEMBER_LIMIT - 1}, 1796000000000 FROM unnest($1::text[]) WITH ORDINALITY AS b(code, ord)`,
    [codes],
  );
  // Board b's 49 members: players spread over the day (a member may be on several boards).
  await pool.query(
    `INSERT INTO friend_members (code, player_sha256)
     SELECT code, sha256(('player' || (1 + ((ord * 7919 + k * 104729) % $2::int)))::bytea)
     FROM unnest($1::text[]) WITH ORDINALITY AS b(code, ord), generate_series(0, ${MEMBER_LIMIT - 2}) AS k
     ON CONFLICT DO NOTHING`,
    [codes, entries],
  );
  await pool.query(
    "UPDATE friend_boards b SET members = (SELECT count(*) FROM friend_members m WHERE m.code = b.code)",
  );
  for (const table of ["entries", "buckets", "replays", "friend_boards", "friend_members"]) {
    await pool.query(`VACUUM ANALYZE ${table}`);
  }
  return codes;
}

async function main() {
  const { values } = parseArgs({
    options: {
      "day-entries": { type: "string", default: "200000" },
      boards: { type: "string", default: "2000" },
      queries: { type: "string", default: "500" },
      json: { type: "boolean", default: false },
    },
  });
  const entries = Number(values["day-entries"]);
  const boards = Number(values.boards);
  const queries = Number(values.queries);
  const date = "2026-12-01";
  const database = await freshDatabase({ max: 4 });
  try {
    const started = performance.now();
    const codes = await load(database.pool, date, entries, boards);
    const loadS = round((performance.now() - started) / 1000, 1);
    const scores = new ScoreStore(database.pool);
    const friends = new FriendsStore(database.pool);
    const { rows: seqs } = await database.pool.query(
      "SELECT min(seq)::float8 AS low FROM entries JOIN replays USING (day, id) WHERE day = $1::date",
      [date],
    );
    const timings = { global_view: [], distribution: [], friends_board: [], entry_replay: [], join_leave: [] };
    const time = async (label, call) => {
      const t = performance.now();
      const answer = await call();
      timings[label].push(performance.now() - t);
      return answer;
    };
    let boardRows = 0;
    for (let at = 0; at < queries; at += 1) {
      const code = codes[at % codes.length];
      const view = await time("global_view", () =>
        scores.view(date, `day${String(1 + (at % entries)).padStart(11, "0")}`),
      );
      if (view.entries.length !== 50 || !view.distribution.wins.length)
        throw new Error("the global view came back short");
      await time("distribution", () =>
        database.pool.query(
          `SELECT json_agg(x) FROM (SELECT won, least(score / 50, 59) * 50 AS bin, sum(entries)::int AS n
           FROM buckets WHERE day = $1::date GROUP BY 1, 2) x`,
          [date],
        ),
      );
      const board = await time("friends_board", () => friends.view(code, date, 1796000000000 + at));
      boardRows += board.entries.length;
      const replay = await time("entry_replay", () => scores.entryReplay(date, seqs[0].low + (at % 5000)));
      if (!replay?.replay_json) throw new Error("a replay came back empty");
      const player = playerHash(`bench${at}`);
      await time("join_leave", async () => {
        if ((await friends.join(code, player, 1796000000000)).joined !== true) throw new Error("the join did not join");
        await friends.leave(code, player, 1796000000000);
      });
    }
    const base = summary(timings.global_view).p50;
    const rows = Object.entries(timings).map(([label, values]) => {
      const { p50, p99 } = summary(values);
      return { label, p50_ms: p50, p99_ms: p99, vs_global_p50: round(p50 / base) };
    });
    const result = { entries, boards, queries, load_s: loadS, mean_board_rows: round(boardRows / queries, 1), rows };
    if (values.json) {
      console.log(JSON.stringify(result));
      return;
    }
    console.log(
      `A day of ${entries} entries, ${boards} friends' boards of ~${MEMBER_LIMIT - 1} members (loaded in ${loadS} s); ` +
        `${queries} calls each; a friends' board listed ${result.mean_board_rows} entries on average`,
    );
    console.log(`${"query".padEnd(16)} ${"p50 ms".padStart(8)} ${"p99 ms".padStart(8)} ${"p50 / global".padStart(13)}`);
    for (const row of rows) {
      console.log(
        `${row.label.padEnd(16)} ${String(row.p50_ms).padStart(8)} ${String(row.p99_ms).padStart(8)} ${String(row.vs_global_p50).padStart(13)}`,
      );
    }
  } finally {
    await database.drop();
  }
}

await main();

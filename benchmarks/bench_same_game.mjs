// One game is its timing (issue 29), side by side in one run, through the scores handler on a real PostgreSQL
// server (the stand-in judge: the games are played and scored beforehand in CPython, benchmarks/honest_games.py;
// the copy check under test reads only the record's actions):
//
// 1. Honest players of both models (tools/harness/players.py: lognormal, ex-Gaussian; the last 200 ms of a tap
//    unstoppable), --players of each on ONE date, half at 300-450 ms and half at 450-750 ms: how many are refused
//    as copies (duplicate_record). Target 0. With how many share a path, and the index's cost per lookup.
// 2. Copies of --originals stored games, every kind (tools/harness/copies.mjs): how many of each are refused.
// 3. The griefing replay: nine slowed copies of the commonest top paths posted first (the griefer's own games on
//    the deal), then 300 honest players: how many of them, and of the best 40, are refused.
// 4. The search bot: per date, the best of --bot-plays games of a player that never misses a pattern, timed like
//    a person (300-450 ms), beside the best of --honest-per-date honest games of both models.
//
// Usage: python -m tools.builder.postgres -- node benchmarks/bench_same_game.mjs [--players 10000]
//        [--originals 250] [--bot-plays 1000] [--honest-per-date 2000] [--dates 2027-02-11,2027-06-23,2027-09-05]
//        [--only search]
import { execFileSync } from "node:child_process";
import path from "node:path";
import { parseArgs } from "node:util";
import { ScoreStore } from "../netlify/database/scores-store.mjs";
import { createScoresHandler } from "../netlify/scores-api/handler.mjs";
import { CANDIDATES, lookupOf, playerActions } from "../netlify/scores-api/samegame.mjs";
import { copiesOf } from "../tools/harness/copies.mjs";
import { newId, postRequest, ROOT, standInEngine, standInReplay, timedPool } from "../tools/harness/fixtures.mjs";
import { freshDatabase } from "../tools/harness/testdb.mjs";

const { values: options } = parseArgs({
  options: {
    players: { type: "string", default: "10000" },
    originals: { type: "string", default: "250" },
    "bot-plays": { type: "string", default: "1000" },
    "honest-per-date": { type: "string", default: "2000" },
    date: { type: "string", default: "2027-04-17" },
    dates: { type: "string", default: "2027-02-11,2027-06-23,2027-09-05" },
    only: { type: "string", default: "" },
  },
});
const PLAYERS = Number(options.players);
const CONCURRENCY = 4;

/** `list` grouped by `key(item)`: a Map of arrays, in first-seen order. */
function groupBy(list, key) {
  const groups = new Map();
  for (const item of list) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const ms = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms`;
};
const noonOf = (date) => Date.parse(`${date}T12:00:00Z`);

/** Games of `model` on `date` (benchmarks/honest_games.py), `players` of them with medians in `medians`. */
function games(date, model, players, medians, seedBase) {
  const output = execFileSync(
    "nice",
    ["-n", "10", process.env.PYTHON ?? "python3", path.join(ROOT, "benchmarks", "honest_games.py")].concat(
      ["--date", date, "--model", model, "--players", String(players), "--medians", medians],
      ["--seed-base", String(seedBase)],
    ),
    { cwd: ROOT, encoding: "utf8", maxBuffer: 1024 * 2 ** 20 },
  );
  return JSON.parse(output).games;
}

/** A handler with the stand-in judge over a fresh database, its clock at noon of `date`. */
async function boardOf(date) {
  const fresh = await freshDatabase();
  const handle = createScoresHandler({
    database: () => fresh.pool,
    getEngine: async () => standInEngine(),
    clock: { now: () => noonOf(date) },
  });
  let names = 0;
  return {
    fresh,
    store: new ScoreStore(fresh.pool),
    /** Posts `actions` as a record scoring `score`: its status and error code. */
    async post(actions, score, won = true) {
      names += 1;
      const body = {
        id: newId(),
        name: `P${names}`,
        date,
        score,
        replay: standInReplay({ score, won, actions }),
      };
      const response = await handle(postRequest(body));
      const answer = await response.json();
      return { status: response.status, error: answer.error ?? null, entry: answer.entry };
    },
  };
}

const biggestPaths = (list) =>
  [...groupBy(list, (game) => game.path).values()].map((group) => group.length).sort((a, b) => b - a);

async function honestDay(date) {
  console.log(`\n1. Honest players on ${date}, ${PLAYERS} of each model (half 300-450 ms, half 450-750 ms)`);
  const started = performance.now();
  const byModel = {};
  for (const [model, base] of [
    ["lognormal", 1],
    ["exgaussian", 500_000],
  ]) {
    byModel[model] = [
      ...games(date, model, PLAYERS / 2, "300:450", base),
      ...games(date, model, PLAYERS / 2, "450:750", base + PLAYERS),
    ];
  }
  console.log(`   played in ${((performance.now() - started) / 1000).toFixed(0)} s (CPython)`);
  const board = await boardOf(date);
  // The two models' players arrive interleaved, as on a real day.
  const arrivals = byModel.lognormal.flatMap((game, at) => [game, byModel.exgaussian[at]]);
  const refused = { lognormal: 0, exgaussian: 0 };
  const otherErrors = [];
  const latencies = await timedPool(arrivals.length, CONCURRENCY, async (at) => {
    const game = arrivals[at];
    const answer = await board.post(game.replay.actions, game.score, game.won);
    game.entry = answer.entry;
    if (answer.error === "duplicate_record") refused[game.model] += 1;
    else if (answer.status !== 201) otherErrors.push(answer.error);
  });
  for (const model of ["lognormal", "exgaussian"]) {
    const list = byModel[model];
    const fast = list.filter((game) => game.median_ms <= 450);
    const top = [...list].sort((a, b) => b.score - a.score).slice(0, 100);
    console.log(
      `   ${model.padEnd(10)}: ${refused[model]} of ${list.length} refused as copies; paths: ${new Set(list.map((g) => g.path)).size}` +
        ` (biggest ${biggestPaths(list).slice(0, 3).join(", ")}); 300-450 ms: ${fast.length} players on ` +
        `${new Set(fast.map((g) => g.path)).size} paths; the top 100 on ${new Set(top.map((g) => g.path)).size} paths`,
    );
  }
  const everyone = [...byModel.lognormal, ...byModel.exgaussian];
  console.log(
    `   both models: ${everyone.length} players on ${new Set(everyone.map((g) => g.path)).size} paths, ` +
      `biggest ${biggestPaths(everyone).slice(0, 5).join(", ")}; other refusals: ${otherErrors.length}`,
  );
  console.log(`   POST through the handler, ${CONCURRENCY} at a time: ${ms(latencies)}`);
  // The index's cost: rows entry_marks gives one lookup, on the full day.
  const sample = everyone.slice(0, 200);
  const rows = [];
  const lookups = [];
  for (const game of sample) {
    const { marks, minShared } = lookupOf(playerActions(game.replay.actions));
    const t = performance.now();
    await board.store.nearCopies(date, marks, { limit: CANDIDATES, minShared });
    lookups.push(performance.now() - t);
    const { rows: counted } = await board.fresh.pool.query(
      "SELECT count(*)::int AS n FROM entry_marks WHERE day = $1::date AND mark = ANY($2::int[])",
      [date, marks],
    );
    rows.push(counted[0].n);
  }
  const { rows: plan } = await board.fresh.pool.query(
    `EXPLAIN SELECT seq FROM entry_marks WHERE day = $1::date AND mark = ANY($2::int[])`,
    [date, lookupOf(playerActions(sample[0].replay.actions)).marks],
  );
  const { rows: size } = await board.fresh.pool.query("SELECT count(*)::int AS n FROM entry_marks");
  const meanRows = rows.reduce((a, b) => a + b, 0) / rows.length;
  console.log(
    `   lookup of near-copies on the day of ${everyone.length} entries (${size[0].n} marks): ${ms(lookups)}; ` +
      `mark rows read per lookup: mean ${meanRows.toFixed(0)}, max ${Math.max(...rows)}; plan: ${plan[0]["QUERY PLAN"].trim()}`,
  );
  return { board, everyone };
}

async function copies({ board, everyone }) {
  const originals = Number(options.originals);
  const stored = everyone.filter((game) => game.entry !== undefined);
  const step = Math.max(1, Math.floor(stored.length / originals));
  const chosen = stored.filter((_, at) => at % step === 0).slice(0, originals);
  console.log(
    `\n2. Copies of ${chosen.length} stored honest games (both models), each kind posted after the day above`,
  );
  const tally = new Map();
  let n = 0;
  for (const game of chosen) {
    n += 1;
    for (const copy of copiesOf(game.replay.actions, n)) {
      const answer = await board.post(copy.actions, game.score, game.won);
      const row = tally.get(copy.kind) ?? { refused: 0, stored: 0 };
      if (answer.error === "duplicate_record") row.refused += 1;
      else row.stored += 1;
      tally.set(copy.kind, row);
    }
  }
  for (const [kind, row] of tally) {
    console.log(`   ${kind.padEnd(42)} refused ${row.refused} of ${row.refused + row.stored}`);
  }
  await board.fresh.drop();
}

async function griefing(date) {
  console.log(`\n3. Griefing on ${date}: nine slowed copies of the commonest top paths first, then 300 honest players`);
  const griefersGames = games(date, "lognormal", 600, "300:400", 900_000);
  const topPaths = [...groupBy(griefersGames, (game) => game.path).values()]
    .filter((group) => group[0].won)
    .sort((a, b) => b.length - a.length || b[0].score - a[0].score)
    .slice(0, 9);
  const board = await boardOf(date);
  for (const [group] of topPaths.map((g) => [g[0]])) {
    const slowed = group.replay.actions.map(([time, kind]) => [Math.round(time * 1.02) + 400, kind]);
    const answer = await board.post(slowed, Math.max(0, group.score - 25), true);
    if (answer.status !== 201) throw new Error(`a griefer's copy was refused: ${answer.error}`);
  }
  const later = [
    ...games(date, "lognormal", 150, "300:450", 950_000),
    ...games(date, "exgaussian", 150, "300:450", 960_000),
  ];
  const griefedPaths = new Set(topPaths.map((group) => group[0].path));
  const onGriefedPaths = later.filter((game) => griefedPaths.has(game.path)).length;
  const refused = [];
  for (const game of later) {
    const answer = await board.post(game.replay.actions, game.score, game.won);
    if (answer.status !== 201) refused.push(game);
  }
  const best40 = [...later].sort((a, b) => b.score - a.score).slice(0, 40);
  const best40Refused = best40.filter((game) => refused.includes(game)).length;
  console.log(
    `   later honest players refused: ${refused.length} of ${later.length} (${onGriefedPaths} of them on a griefed ` +
      `path); of the best 40: ${best40Refused} refused (before: 21 of 40 blocked by path)`,
  );
  await board.fresh.drop();
}

/** The board's order: every win above every loss, then the higher score. */
const boardBest = (list) =>
  list.reduce((best, game) =>
    game.won > best.won || (game.won === best.won && game.score > best.score) ? game : best,
  );
const shown = (game) => `${game.score} ${game.won ? "won" : "lost"}`;

function search() {
  const dates = options.dates.split(",");
  const bots = Number(options["bot-plays"]);
  const honest = Number(options["honest-per-date"]);
  console.log(
    `\n4. The search bot (${bots} plays a date, never missing, person-timed 300-450 ms) against ${honest} honest ` +
      "players a date (both models, 300-750 ms), by the board's order (every win above every loss)",
  );
  console.log("   date        bot's best    best honest   honest wins: 99.9th pct  bot above every honest game");
  for (const date of dates) {
    const started = performance.now();
    const botBest = boardBest(games(date, "bot", bots, "300:450", 1));
    const people = [
      ...games(date, "lognormal", honest / 2, "300:750", 1),
      ...games(date, "exgaussian", honest / 2, "300:750", 1),
    ];
    const best = boardBest(people);
    const wins = people
      .filter((game) => game.won)
      .map((game) => game.score)
      .sort((a, b) => a - b);
    const above = botBest.won > best.won || (botBest.won === best.won && botBest.score > best.score);
    console.log(
      `   ${date}  ${shown(botBest).padStart(10)}  ${shown(best).padStart(12)}  ${String(wins.length ? percentile(wins, 99.9) : "-").padStart(24)}` +
        `  ${above ? "yes" : "no"} (${((performance.now() - started) / 1000).toFixed(0)} s)`,
    );
  }
}

// --only search: part 4 alone (it needs no database).
if (options.only !== "search") {
  const day = await honestDay(options.date);
  await copies(day);
  await griefing(options.dates.split(",")[0]);
}
search();

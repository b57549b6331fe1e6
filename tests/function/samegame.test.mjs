// One game is its timing (issue 29): the rule (samegame.mjs) on its own, then through the real API on PostgreSQL:
// every kind of copy refused, honest games of one path all stored, a copy posted first blocking no later honest
// game, concurrent posts, and one player id, one entry a day.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { compareGames, lookupOf, marksOf } from "../../netlify/scores-api/samegame.mjs";
import { copiesOf, personActions } from "../../tools/harness/copies.mjs";
import {
  assertRefusal,
  datesAround,
  getRequest,
  newId,
  postRequest,
  ROOT,
  sharedTestEngine,
  standInEngine,
  standInReplay,
  startTestApi,
  testNow,
} from "../../tools/harness/fixtures.mjs";

/** `list` grouped by `key(item)`: a Map of arrays, in first-seen order. */
function groupBy(list, key) {
  const groups = new Map();
  for (const item of list) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

const NOW = testNow();
const DATES = datesAround(NOW);
const COPY_KINDS = copiesOf(personActions(1), 1).map((copy) => copy.kind);

let names = 0;
function freshName() {
  names += 1;
  return `Timer ${names}`;
}

async function send(request, target) {
  const response = await target.handle(request);
  return { status: response.status, headers: response.headers, body: await response.json() };
}
const post = (body, target) => send(postRequest(body), target);

/** A stand-in record of `actions` (the stand-in judge accepts any). */
const standIn = (actions, overrides = {}) => ({
  id: newId(),
  name: freshName(),
  date: DATES.today,
  score: 900,
  replay: standInReplay({ score: 900, actions }),
  ...overrides,
});

async function withStandIn(body) {
  const stand = await startTestApi({ nowMs: NOW, getEngine: async () => standInEngine() });
  try {
    await body(stand);
  } finally {
    await stand.close();
    await stand.remove();
  }
}

/** Several people's actions with the same kinds in the same order (one path), each timed by its own draws. */
function samePath(people, seed) {
  const pattern = personActions(seed);
  return Array.from({ length: people }, (_, at) =>
    personActions(1000 * seed + at).map(([time], index) => [time, pattern[index][1]]),
  );
}

describe("the rule: a copy is the same game, two people are not", () => {
  test("every kind of copy of a person's game is the same game and shares marks with it", () => {
    for (let seed = 1; seed <= 200; seed += 1) {
      const original = personActions(seed);
      const own = new Set(marksOf(original));
      for (const copy of copiesOf(original, seed)) {
        const found = compareGames(original, copy.actions);
        assert.ok(found.same, `${copy.kind} of game ${seed}: ${JSON.stringify(found)}`);
        const lookup = lookupOf(copy.actions);
        const shared = lookup.marks.filter((mark) => own.has(mark)).length;
        assert.ok(shared >= lookup.minShared, `${copy.kind} of game ${seed} shares ${shared} marks`);
      }
    }
  });

  test("people who play the same path are not the same game", () => {
    const people = samePath(30, 7);
    for (let a = 0; a < people.length; a += 1) {
      for (let b = a + 1; b < people.length; b += 1) {
        assert.equal(compareGames(people[a], people[b]).same, false, `people ${a} and ${b}`);
      }
    }
  });

  test("a short game says too little to be called a copy", () => {
    const short = personActions(3, 10);
    assert.equal(compareGames(short, short).same, false);
  });
});

describe("copies through the API (stand-in judge, PostgreSQL)", () => {
  test("every kind of copy is refused (409 duplicate_record, naming the entry) and stores nothing", async () => {
    await withStandIn(async (stand) => {
      const original = personActions(11);
      const first = await post(standIn(original), stand);
      assert.equal(first.status, 201);
      const refused = [];
      for (const copy of copiesOf(original, 11)) {
        const body = await assertRefusal((request) => send(request, stand), postRequest(standIn(copy.actions)), {
          status: 409,
          code: "duplicate_record",
          rows: () => stand.stored(),
        });
        assert.match(body.message, new RegExp(`entry ${first.body.entry}\\b`));
        assert.equal(body.entry, first.body.entry); // a field of the answer, for the page's own words
        refused.push(copy.kind);
      }
      assert.deepEqual(refused, COPY_KINDS);
    });
  });

  test("a copy posted first blocks no later honest game: people of one path are all stored", async () => {
    await withStandIn(async (stand) => {
      const [griefer, ...people] = samePath(21, 5);
      const slowed = griefer.map(([time, kind]) => [Math.round(time * 1.1) + 700, kind]);
      assert.equal((await post(standIn(slowed), stand)).status, 201);
      for (const actions of people) assert.equal((await post(standIn(actions), stand)).status, 201);
      assert.deepEqual(await stand.stored(), { entries: 21, counted: 21, replays: 21 });
    });
  });

  test("20 concurrent copies of one game: one entry, 19 duplicate_record, nothing half stored", async () => {
    await withStandIn(async (stand) => {
      const copies = [...copiesOf(personActions(21), 21), ...copiesOf(personActions(21), 22)].slice(0, 20);
      const answers = await Promise.all(copies.map((copy) => post(standIn(copy.actions), stand)));
      const codes = answers.map((answer) => (answer.status === 201 ? 201 : answer.body.error)).sort();
      assert.deepEqual(codes, [201, ...Array(19).fill("duplicate_record")]);
      assert.deepEqual(await stand.stored(), { entries: 1, counted: 1, replays: 1 });
      const { rows } = await stand.pool.query("SELECT count(DISTINCT seq)::int AS n FROM entry_marks");
      assert.equal(rows[0].n, 1, "only the stored entry keeps marks");
    });
  });

  test("20 concurrent honest games of one path: 20 entries", async () => {
    await withStandIn(async (stand) => {
      const answers = await Promise.all(samePath(20, 9).map((actions) => post(standIn(actions), stand)));
      assert.deepEqual(
        answers.map((answer) => answer.status),
        Array(20).fill(201),
      );
    });
  });
});

describe("one player id, one entry a day", () => {
  test("a second record from the same player id that day is refused (409 player_entered); the first stays", async () => {
    await withStandIn(async (stand) => {
      const player = newId("p");
      const first = standIn(personActions(31), { player });
      assert.equal((await post(first, stand)).status, 201);
      const body = await assertRefusal(
        (request) => send(request, stand),
        postRequest(standIn(personActions(32), { player })),
        { status: 409, code: "player_entered", rows: () => stand.stored() },
      );
      assert.match(body.message, /one daily game a day/);
      const again = await post(first, stand);
      assert.deepEqual([again.status, again.body.repeated], [200, true], "the same submission again is its repeat");
      const yesterday = await post(standIn(personActions(33), { player, date: DATES.yesterday }), stand);
      assert.equal(yesterday.status, 201, "yesterday's daily is another day's entry");
      const view = await send(getRequest({ date: DATES.today, id: first.id }), stand);
      assert.deepEqual([view.body.total, view.body.you.name], [1, first.name]);
    });
  });
});

describe("the real engine: the best players of a deal share its path, and each is stored", () => {
  let api;
  let group;
  before(async () => {
    const output = execFileSync(
      process.env.PYTHON ?? "python3",
      [path.join(ROOT, "benchmarks", "honest_games.py"), "--date", DATES.today, "--model", "lognormal"].concat([
        "--players",
        "150",
        "--medians",
        "300:340",
      ]),
      { cwd: ROOT, encoding: "utf8", maxBuffer: 64 * 2 ** 20 },
    );
    const byPath = groupBy(JSON.parse(output).games, (game) => game.path);
    group = [...byPath.values()].sort((a, b) => b.length - a.length)[0];
    await sharedTestEngine();
    api = await startTestApi({ nowMs: NOW });
  });
  after(async () => {
    await api?.close();
    await api?.remove();
  });

  test("players of one path are all stored; the same record again is refused", async () => {
    assert.ok(group.length >= 3, `the commonest path of 150 players at 300-340 ms has ${group.length}`);
    const chosen = group.slice(0, 4);
    for (const game of chosen) {
      const answer = await post(
        { id: newId(), name: freshName(), date: DATES.today, score: game.score, replay: game.replay },
        api,
      );
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
    }
    const copy = {
      id: newId(),
      name: freshName(),
      date: DATES.today,
      score: chosen[0].score,
      replay: chosen[0].replay,
    };
    assert.equal((await post(copy, api)).body.error, "duplicate_record");
  });
});

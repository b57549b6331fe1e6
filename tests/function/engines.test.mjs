// A new engine costs nobody a score (issue 30): a daily played on the page's earlier engine, queued in the outbox
// before a deploy and sent after it, is judged by the engine it was played on, which the function keeps
// (netlify/engines/, build step kept_engines); a record of the new engine is judged by the new one in the same
// run. Three engine versions in one test process: the build's own (dist/) and the kept 3.1.0 and 4.0.0.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";
import { engineLoader, loadEngine } from "../../netlify/scores-api/engine.mjs";
import { datesAround, newId, pythonReplays, ROOT, startTestApi, testNow } from "../../tools/harness/fixtures.mjs";
import { createClock } from "../../web/common/clock.js";
import { enqueue, flush, pending } from "../../web/common/outbox.js";

const NOW = testNow();
const clock = createClock({ read: () => NOW });
const { today } = datesAround(NOW);
const KEPT = JSON.parse(readFileSync(path.join(ROOT, "dist", "build-info.json"), "utf8")).kept_engines ?? {};
const OLD = "3.1.0";

/** A daily of `date` played on the kept engine `version` (its wheel first on the path) by a human-like player. */
function playedOn(version, date, play) {
  const wheel = path.join(ROOT, KEPT[version]);
  const script = path.join(ROOT, "tools", "harness", "replays.py");
  const output = execFileSync(process.env.PYTHON ?? "python3", [script, "--date", date, "--plays", play], {
    cwd: path.join(ROOT, "tools", "harness"),
    // The wheel before the checkout: its ewar is the one imported; the checkout gives the harness's players.
    env: { ...process.env, PYTHONPATH: [wheel, ROOT].join(path.delimiter) },
    maxBuffer: 64 * 2 ** 20,
    encoding: "utf8",
  });
  return JSON.parse(output);
}

let oldGame;
let newGame;
let api;
const getEngine = engineLoader({ root: ROOT });

before(async () => {
  assert.ok(KEPT[OLD], `the build keeps engine ${OLD} (netlify/engines/kept.json; python build.py build)`);
  const old = playedOn(OLD, today, "450:1");
  assert.equal(old.engine_version, OLD);
  oldGame = old.plays[0];
  assert.ok(oldGame.verdict.ok, "engine 3.1.0 accepts its own player's game");
  newGame = pythonReplays(today, ["450:2"]).plays[0];
  assert.notEqual(newGame.replay.engine, OLD);
  api = await startTestApi({ nowMs: NOW, getEngine });
});

after(async () => {
  await api?.close();
  await api?.remove();
});

const submissionOf = (game, name) => ({ id: newId(), name, date: today, score: game.score, replay: game.replay });
const postTo = (target) => (url, init) => target.handle(new Request(new URL(url, "http://127.0.0.1:8000"), init));
const entryEngine = async (id) =>
  (await api.pool.query("SELECT engine_version FROM entries WHERE id = $1", [id])).rows[0]?.engine_version;

test("a record queued on the earlier engine before the deploy is judged by that engine after it", async () => {
  const queued = submissionOf(oldGame, "Before deploy");
  await enqueue(queued, { clock });
  const offline = await flush(() => Promise.reject(new TypeError("offline")), { clock });
  assert.equal(offline.offline, true); // before the deploy: no network, the record waits
  assert.deepEqual(
    (await pending()).map((s) => s.id),
    [queued.id],
  );

  const sent = await flush(postTo(api), { clock }); // after the deploy: the function runs the new engine
  assert.equal(sent.settled.length, 1);
  const [answer] = sent.settled;
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  assert.equal(answer.body.score, oldGame.verdict.score);
  assert.equal(await entryEngine(queued.id), OLD);
  assert.deepEqual(await pending(), []);
});

test("in the same run, a record of the new engine is judged by the new engine", async () => {
  const submission = submissionOf(newGame, "After deploy");
  const response = await api.handle(
    new Request("http://127.0.0.1:8000/api/scores", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(submission),
    }),
  );
  assert.equal(response.status, 201, await response.clone().text());
  assert.equal(await entryEngine(submission.id), newGame.replay.engine);
  const [current, kept] = await Promise.all([getEngine(), getEngine(OLD)]);
  assert.notEqual(current, kept); // two engines, one loaded each
  assert.deepEqual([current.engineVersion, kept.engineVersion], [newGame.replay.engine, OLD]);
});

test("without the kept engine the record is refused engine_version, and an engine nobody keeps still is", async () => {
  const alone = await loadEngine({ root: ROOT, keptWheels: {} });
  assert.equal(alone.judge(oldGame.replay, today, oldGame.score).error.code, "engine_version");
  const unknown = await getEngine("2.0.0");
  assert.equal(unknown.engineVersion, newGame.replay.engine); // the build's own judges it...
  const verdict = unknown.judge({ ...oldGame.replay, engine: "2.0.0" }, today, oldGame.score);
  assert.equal(verdict.error.code, "engine_version"); // ...and refuses it
});

test("every engine the function keeps judges a record its own player made: no version still live is refused", async () => {
  const versions = Object.keys(KEPT);
  assert.ok(versions.includes("4.0.0"), "the engine before this one is kept too (it may have served dailies)");
  for (const [index, version] of versions.entries()) {
    const played = playedOn(version, today, `500:${10 + index}`);
    assert.equal(played.engine_version, version);
    const [game] = played.plays;
    const submission = submissionOf(game, `Kept engine ${"ABCDEFGH"[index]}`);
    const response = await api.handle(
      new Request("http://127.0.0.1:8000/api/scores", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(submission),
      }),
    );
    assert.equal(response.status, 201, `${version}: ${await response.clone().text()}`);
    assert.equal((await response.json()).score, game.verdict.score);
    assert.equal(await entryEngine(submission.id), version);
  }
});

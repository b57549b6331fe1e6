// Runs submissions through the scores function (a database on the test PostgreSQL server, the build's engine in
// Pyodide) for the pytest checks. Each submission goes to a board of its own (the database emptied before it, as
// a new one has it), so the one-game-one-entry and one-name rules of a shared board do not mix into the comparison
// of verdicts.
// stdin: {"submissions": [{id, name, date, score, replay}...]}
// stdout: [{"status", "body", "verdict"}...] in the same order (verdict: the judge in Pyodide, as is).
import { postRequest, sharedTestEngine, startTestApi } from "../../tools/harness/fixtures.mjs";
import { freshDatabase } from "../../tools/harness/testdb.mjs";

// The API's clock half a day ahead: today's dailies (an hour-long one among them) always fit in the day so far,
// whatever the hour the tests run (the judge refuses a daily longer than its UTC day had run).
const CLOCK_AHEAD_MS = 12 * 60 * 60 * 1000;

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

async function main() {
  const { submissions } = await readStdin();
  const engine = await sharedTestEngine();
  const results = [];
  const database = await freshDatabase();
  try {
    for (const submission of submissions) {
      await database.empty();
      const api = await startTestApi({ nowMs: Date.now() + CLOCK_AHEAD_MS, database });
      try {
        const response = await api.handle(postRequest(submission));
        const verdict = engine.judge(submission.replay, submission.date, submission.score);
        results.push({ status: response.status, body: await response.json(), verdict });
      } finally {
        await api.close();
      }
    }
  } finally {
    await database.drop();
  }
  await new Promise((resolve) => process.stdout.write(`${JSON.stringify(results)}\n`, resolve));
}

await main();
process.exit(0);

// Runs submissions through the scores function (local Blobs server, the build's engine in Pyodide) for the pytest
// checks. Each submission goes to a board of its own (a deploy context of its own), so the one-record-one-entry
// and one-name rules of a shared board do not mix into the comparison of verdicts.
// stdin: {"submissions": [{id, name, date, score, replay}...]}
// stdout: [{"status", "body", "verdict"}...] in the same order (verdict: the judge in Pyodide, as is).
import { postRequest, sharedTestEngine, startTestApi } from "../../netlify/functions/scores/fixtures.mjs";

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

async function main() {
  const { submissions } = await readStdin();
  const engine = await sharedTestEngine();
  const api = await startTestApi();
  try {
    const results = [];
    for (const [at, submission] of submissions.entries()) {
      const verdict = engine.judge(submission.replay, submission.date, submission.score);
      const response = await api.handle(postRequest(submission), { deploy: { context: `check-${at}` } });
      results.push({ status: response.status, body: await response.json(), verdict });
    }
    await new Promise((resolve) => process.stdout.write(`${JSON.stringify(results)}\n`, resolve));
  } finally {
    await api.close();
    api.remove();
  }
}

await main();
process.exit(0);

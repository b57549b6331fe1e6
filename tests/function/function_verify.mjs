// Runs submissions through the scores function (local Blobs server, engine in Pyodide) for the pytest checks.
// stdin: {"submissions": [{id, name, date, score, replay}...]}
// stdout: [{"status", "body", "verdict"}...] in the same order (verdict: bridge.verify in Pyodide, as is).
import { buildTestWheel, postRequest, sharedTestEngine, startTestApi } from
  "../../netlify/functions/scores/fixtures.mjs";

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

async function main() {
  const { submissions } = await readStdin();
  const engine = await sharedTestEngine({ wheelPath: buildTestWheel() });
  const api = await startTestApi();
  try {
    const results = [];
    for (const submission of submissions) {
      const verdict = engine.verify(submission.replay);
      const response = await api.handle(postRequest(submission));
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

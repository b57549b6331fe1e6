// Serves the two functions from their Netlify bundles (unzipped .netlify/functions/scores.zip and board.zip), not
// from the source tree, over a fresh migrated database on the test PostgreSQL server (EWAR_TEST_DATABASE_URL):
// what tests/build/test_netlify_build.py calls.
//
//   node tests/build/bundled_function.mjs --post DIR --read DIR
//
// Prints "Serving bundled function at URL" once it listens (127.0.0.1, a free port). Each bundle gets what
// Netlify's runtime gives a function: its folder as the working directory and LAMBDA_TASK_ROOT, the database in
// NETLIFY_DB_URL, and (request, context) calls of its default export; POST goes to one, every other method to the
// other, as their configs' methods route them.
import http from "node:http";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { toWebRequest } from "../../netlify/web-request.mjs";
import { freshDatabase } from "../../tools/harness/testdb.mjs";

const HOST = "127.0.0.1";

function listen(server) {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, HOST, () => resolve(`http://${HOST}:${server.address().port}`));
  });
}

async function send(res, response) {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body) await pipeline(Readable.fromWeb(response.body), res);
  else res.end();
}

async function main() {
  const { values } = parseArgs({ options: { post: { type: "string" }, read: { type: "string" } } });
  if (!values.post || !values.read) throw new Error("--post and --read are required");
  const database = await freshDatabase();
  process.env.NETLIFY_DB_URL = database.url;
  const postBundle = path.resolve(values.post);
  process.env.LAMBDA_TASK_ROOT = postBundle;
  process.chdir(postBundle);
  const load = (bundle, file) => import(pathToFileURL(path.join(path.resolve(bundle), file)));
  const { default: postHandler } = await load(values.post, "netlify/functions/scores/scores.mjs");
  const { default: readHandler } = await load(values.read, "netlify/functions/board/board.mjs");
  const context = { deploy: { context: "dev", id: "bundle-test" }, ip: HOST };
  const server = http.createServer(async (req, res) => {
    try {
      const handler = req.method === "POST" ? postHandler : readHandler;
      await send(res, await handler(toWebRequest(req, `http://${req.headers.host}`), context));
    } catch (error) {
      console.error(error);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    }
  });
  const stop = async () => {
    server.close();
    await database.drop().catch(() => {});
    process.exit(0);
  };
  process.on("SIGTERM", stop);
  console.log(`Serving bundled function at ${await listen(server)}`);
}

main().catch((error) => {
  console.error(error.stack ?? error);
  process.exit(1);
});

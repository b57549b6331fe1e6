// Serves the scores function from its Netlify bundle (an unzipped .netlify/functions/scores.zip), not from the
// source tree, against the real local Blobs server: what tests/build/test_netlify_build.py calls.
//
//   node tests/build/bundled_function.mjs --bundle DIR --data DIR
//
// Prints "Serving bundled function at URL" once it listens (127.0.0.1, a free port). The bundle gets what Netlify's
// runtime gives a function: its folder as the working directory and LAMBDA_TASK_ROOT, the Blobs context in
// NETLIFY_BLOBS_CONTEXT, and (request, context) calls of its default export.
import { randomBytes } from "node:crypto";
import { mkdir } from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { BlobsServer } from "@netlify/blobs/server";
import { toWebRequest } from "../../tools/web-request.mjs";

const HOST = "127.0.0.1";
const SITE_ID = "ewar-bundle-test";

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

/** Netlify's own local Blobs server, on loopback only (its start() would listen on every interface). */
async function startBlobs(directory) {
  await mkdir(directory, { recursive: true });
  const token = randomBytes(24).toString("base64url");
  const blobs = new BlobsServer({ directory, token });
  const server = http.createServer((req, res) => {
    blobs.handleRequest(toWebRequest(req, blobs.address)).then(
      (response) => send(res, response),
      () => res.writeHead(500).end(),
    );
  });
  blobs.address = await listen(server);
  return { url: blobs.address, token };
}

async function main() {
  const { values } = parseArgs({ options: { bundle: { type: "string" }, data: { type: "string" } } });
  if (!values.bundle || !values.data) throw new Error("--bundle and --data are required");
  const bundle = path.resolve(values.bundle);
  const blobs = await startBlobs(path.resolve(values.data));
  const blobsContext = { edgeURL: blobs.url, uncachedEdgeURL: blobs.url, siteID: SITE_ID, token: blobs.token };
  process.env.NETLIFY_BLOBS_CONTEXT = Buffer.from(JSON.stringify(blobsContext)).toString("base64");
  process.env.LAMBDA_TASK_ROOT = bundle;
  process.chdir(bundle);
  const { default: handler } = await import(pathToFileURL(path.join(bundle, "netlify/functions/scores/scores.mjs")));
  const context = { deploy: { context: "dev", id: "bundle-test" }, site: { id: SITE_ID }, ip: HOST };
  const server = http.createServer(async (req, res) => {
    try {
      await send(res, await handler(toWebRequest(req, `http://${req.headers.host}`), context));
    } catch (error) {
      console.error(error);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    }
  });
  console.log(`Serving bundled function at ${await listen(server)}`);
}

main().catch((error) => {
  console.error(error.stack ?? error);
  process.exit(1);
});

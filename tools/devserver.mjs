// Local development server: serves a built dist/ folder with the headers netlify.toml declares, and mounts the
// scores API at /api/scores and the friends' boards at /api/friends.
//
//   node tools/devserver.mjs [--dir dist] [--port 8000] [--host 127.0.0.1] [--netlify-toml netlify.toml]
//                            [--data-dir .local-data/board] [--api-module netlify/local.mjs] [--log]
//                            [--no-rate-limit]
//
// Static files get netlify.toml's [[headers]], parsed and matched by Netlify's own parser (@netlify/headers-parser,
// as netlify-cli does), over a content type by extension and Netlify's default Cache-Control. API responses keep
// their own headers (Netlify applies custom headers to static files only).
// --port 0 picks a free port; the "Serving Egyptian War at URL" line names the one in use.
// The API module must export startLocalApi({ dataDir, rateLimit }) resolving to { handle(Request): Response }
// (and optionally close()). When it does not exist, the API paths answer 503.

import { createReadStream } from "node:fs";
import { access, realpath, stat } from "node:fs/promises";
import { createServer } from "node:http";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { parseAllHeaders } from "@netlify/headers-parser";
import { toWebRequest } from "../netlify/web-request.mjs";
import { createClock } from "../web/common/clock.js";
import { DAY_MS, ENDPOINTS } from "../web/common/contract.js";

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const API_PREFIXES = [ENDPOINTS.scores, ENDPOINTS.friends];

const MIME_TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".webmanifest": "application/manifest+json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".wasm": "application/wasm",
  ".whl": "application/zip",
  ".zip": "application/zip",
  ".data": "application/octet-stream",
  ".bin": "application/octet-stream",
};

// What Netlify sends for a file whose rules set no Cache-Control: revalidate every time (ETag + 304).
const DEFAULT_CACHE_CONTROL = "public, max-age=0, must-revalidate";

function readOptions(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      dir: { type: "string", default: "dist" },
      port: { type: "string", default: "8000" },
      host: { type: "string", default: "127.0.0.1" },
      "netlify-toml": { type: "string", default: path.join(REPO_ROOT, "netlify.toml") },
      "data-dir": { type: "string", default: ".local-data/board" },
      "api-module": { type: "string", default: path.join(REPO_ROOT, "netlify", "local.mjs") },
      log: { type: "boolean", default: false },
      // The browser tests post many games from one client within minutes, past the posting limit.
      "no-rate-limit": { type: "boolean", default: false },
      // The tests' API runs its clock this far ahead, so a game of today always fits in the day so far,
      // whatever the hour the tests run (the judge refuses a daily longer than its UTC day had run).
      "api-clock-ahead-ms": { type: "string", default: "0" },
    },
  });
  const clockAheadMs = Number(values["api-clock-ahead-ms"]);
  if (!Number.isInteger(clockAheadMs) || clockAheadMs < 0 || clockAheadMs >= DAY_MS) {
    throw new Error(`--api-clock-ahead-ms must be whole ms from 0 to under a day, not ${values["api-clock-ahead-ms"]}`);
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`--port must be 0..65535, not ${values.port}`);
  }
  return {
    dir: path.resolve(values.dir),
    port,
    host: values.host,
    netlifyToml: path.resolve(values["netlify-toml"]),
    dataDir: path.resolve(values["data-dir"]),
    apiModule: path.resolve(values["api-module"]),
    log: values.log,
    rateLimit: !values["no-rate-limit"],
    clockAheadMs,
  };
}

/** netlify.toml's [[headers]] rules ({for, forRegExp, values}); a syntax error stops the server. */
async function loadHeaderRules(netlifyToml) {
  await access(netlifyToml);
  const { headers, errors } = await parseAllHeaders({ netlifyConfigPath: netlifyToml, minimal: false });
  if (errors.length > 0) throw new Error(`${netlifyToml}: ${errors.map((error) => error.message).join("; ")}`);
  return headers;
}

/** The headers the rules declare for a URL path; a later rule wins a name an earlier one set (as in netlify-cli). */
function declaredHeaders(rules, urlPath) {
  const declared = {};
  for (const { forRegExp, values } of rules) {
    if (!forRegExp.test(urlPath)) continue;
    for (const [name, value] of Object.entries(values)) declared[name.toLowerCase()] = value;
  }
  return declared;
}

function contentType(filePath) {
  return MIME_TYPES[path.extname(filePath).toLowerCase()] ?? "application/octet-stream";
}

function sendText(res, status, text, headers = {}) {
  const body = Buffer.from(`${text}\n`);
  res.writeHead(status, {
    "Content-Type": "text/plain; charset=utf-8",
    "Content-Length": body.length,
    "Cache-Control": "no-store",
    ...headers,
  });
  res.end(res.req.method === "HEAD" ? undefined : body);
}

// Map a raw request path to a file inside root, or null (404) for anything odd or outside.
async function resolveFile(root, rawPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return null;
  }
  if (decoded.includes("\0") || decoded.includes("\\")) return null;
  const segments = decoded.split("/");
  if (segments.some((segment) => segment === "..")) return null;
  let candidate = path.join(root, ...segments.filter(Boolean));
  if (candidate !== root && !candidate.startsWith(root + path.sep)) return null;
  let info;
  try {
    info = await stat(candidate);
    if (info.isDirectory()) {
      candidate = path.join(candidate, "index.html");
      info = await stat(candidate);
      if (!decoded.endsWith("/")) return { redirect: `${rawPath}/` };
    }
    if (!info.isFile()) return null;
    const real = await realpath(candidate);
    const realRoot = await realpath(root);
    if (!real.startsWith(realRoot + path.sep)) return null;
  } catch {
    return null;
  }
  return { file: candidate, info };
}

async function serveStatic(options, req, res, rawPath, search) {
  if (req.method !== "GET" && req.method !== "HEAD") {
    sendText(res, 405, "Method Not Allowed", { Allow: "GET, HEAD" });
    return;
  }
  const found = await resolveFile(options.dir, rawPath);
  if (!found) {
    sendText(res, 404, "Not Found");
    return;
  }
  if (found.redirect) {
    res.writeHead(301, { Location: found.redirect + search, "Content-Length": 0 });
    res.end();
    return;
  }
  const { file, info } = found;
  const etag = `W/"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
  const headers = {
    "content-type": contentType(file),
    "cache-control": DEFAULT_CACHE_CONTROL,
    etag,
    "last-modified": info.mtime.toUTCString(),
    ...declaredHeaders(options.headerRules, decodeURIComponent(rawPath)),
  };
  if (req.headers["if-none-match"] === etag) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  res.writeHead(200, { ...headers, "content-length": info.size });
  if (req.method === "HEAD") {
    res.end();
    return;
  }
  await pipeline(createReadStream(file), res);
}

// WHATWG Response -> node:http response, streamed.
async function sendWebResponse(res, response, method) {
  const headers = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers["set-cookie"] = cookies;
  res.writeHead(response.status, response.statusText || undefined, headers);
  if (!response.body || method === "HEAD") {
    res.end();
    return;
  }
  await pipeline(Readable.fromWeb(response.body), res);
}

async function loadApi(options) {
  try {
    await access(options.apiModule);
  } catch {
    console.log(`No ${path.relative(REPO_ROOT, options.apiModule)}: ${API_PREFIXES.join(" and ")} answer 503`);
    return null;
  }
  const { startLocalApi } = await import(pathToFileURL(options.apiModule).href);
  const ahead = options.clockAheadMs ?? 0;
  const clock = createClock({ read: () => Date.now() + ahead });
  return startLocalApi({ dataDir: options.dataDir, rateLimit: options.rateLimit, clock });
}

function isApiPath(rawPath) {
  return API_PREFIXES.some((prefix) => rawPath === prefix || rawPath.startsWith(`${prefix}/`));
}

function makeHandler(options, api) {
  return async function handle(req, res) {
    const started = Date.now();
    const rawUrl = req.url ?? "/";
    const queryAt = rawUrl.indexOf("?");
    const rawPath = queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt);
    const search = queryAt === -1 ? "" : rawUrl.slice(queryAt);
    try {
      if (isApiPath(rawPath)) {
        if (!api) sendText(res, 503, "The scores API is not available (no netlify/local.mjs)");
        else {
          const origin = `http://${req.headers.host ?? `${options.host}:${options.port}`}`;
          await sendWebResponse(res, await api.handle(toWebRequest(req, origin)), req.method);
        }
      } else if (!rawPath.startsWith("/")) {
        sendText(res, 400, "Bad Request");
      } else {
        await serveStatic(options, req, res, rawPath, search);
      }
    } catch (error) {
      if (error?.code === "ERR_STREAM_PREMATURE_CLOSE") return; // the client went away
      console.error(`${req.method} ${rawUrl}:`, error);
      if (!res.headersSent) sendText(res, 500, "Internal Server Error");
      else res.destroy(error);
    }
    if (options.log) {
      console.log(`${req.method} ${rawUrl} ${res.statusCode} ${Date.now() - started} ms`);
    }
  };
}

function closeOnSignals(server, api) {
  let closing = false;
  async function shutdown(signal) {
    if (closing) return;
    closing = true;
    server.close();
    server.closeAllConnections();
    await api?.close?.();
    console.log(`Stopped (${signal})`);
    process.exit(0);
  }
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));
}

async function main() {
  const options = readOptions(process.argv.slice(2));
  options.headerRules = await loadHeaderRules(options.netlifyToml);
  const api = await loadApi(options);
  const server = createServer(makeHandler(options, api));
  server.on("clientError", (_error, socket) => socket.destroy());
  closeOnSignals(server, api);
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, resolve);
  });
  const { port } = server.address();
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  console.log(`Serving Egyptian War at http://${host}:${port}/`);
}

main().catch((error) => {
  console.error(error.message ?? error);
  process.exit(1);
});

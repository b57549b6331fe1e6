// The API's answers: JSON with the cache policy the caller names, never sniffed as anything else.

/** A JSON answer with `status`; `cacheControl` defaults to no-store; `extraHeaders` (Retry-After...) are added. */
export function json(status, body, cacheControl = "no-store", extraHeaders = {}) {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": cacheControl,
      "x-content-type-options": "nosniff",
      ...extraHeaders,
    },
  });
}

/** The header naming the function that answered: how `python build.py smoke` sees the routing of a live deploy. */
export const FUNCTION_HEADER = "x-ewar-function";

/** `response` with FUNCTION_HEADER set to `name` (a function's folder: scores, board, friends). */
export function answeredBy(name, response) {
  response.headers.set(FUNCTION_HEADER, name);
  return response;
}

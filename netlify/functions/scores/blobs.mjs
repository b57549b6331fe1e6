// Netlify Blobs as the scores store uses it: one store per deploy context, one attempt per request, and a write
// counts only when the store answered 2xx with an ETag (anything else is a StoreFault: the caller answers 503).
import { getStore } from "@netlify/blobs";

/** The production store; every other deploy context gets its own (see storeNameFor). */
export const PRODUCTION_STORE = "ewar-scores";
const REQUEST_TIMEOUT_MS = 8_000;
const FAULT_HEADER = "x-ewar-store-fault";

/** The store did not do what was asked (an error status, no ETag, a timeout): nothing may be taken as written. */
export class StoreFault extends Error {}

/** Conditional writes kept losing to other writers; trying again later will do. */
export class StoreBusy extends Error {}

/**
 * The store of a deploy context: production data only for "production"; deploy previews, branch deploys, dev
 * and anything unknown each write their own store, so no preview ever touches the production board.
 */
export function storeNameFor(deployContext) {
  if (deployContext === "production") return PRODUCTION_STORE;
  const suffix = String(deployContext ?? "unknown")
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "-")
    .slice(0, 40);
  return `${PRODUCTION_STORE}-${suffix || "unknown"}`;
}

const STATUSES_OK = {
  GET: [200, 304, 404],
  HEAD: [200, 304, 404],
  PUT: [200, 201, 204, 412],
  DELETE: [200, 204, 404],
};

/**
 * @netlify/blobs 11 retries a 429, a 5xx or a network error five times, 5 s apart, and then reports a conditional
 * write that got a 429, 401, 403 or 5xx as written ({modified: true}). This fetch makes one attempt: any other
 * status (or a network error) comes back as a 400 marked with FAULT_HEADER, which the client neither retries nor
 * takes for success, and which StoreTable turns into a StoreFault.
 */
export function singleAttemptFetch(baseFetch = globalThis.fetch) {
  const fault = (what) =>
    // x-nf-error is where the client reads an error's details for its message.
    new Response(null, { status: 400, headers: { [FAULT_HEADER]: what, "x-nf-error": `the store answered ${what}` } });
  return async (url, init = {}) => {
    let response;
    try {
      response = await baseFetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    } catch (error) {
      return fault(`network: ${error.name}`);
    }
    const method = String(init.method ?? "GET").toUpperCase();
    if ((STATUSES_OK[method] ?? [200]).includes(response.status)) return response;
    await response.body?.cancel().catch(() => {});
    return fault(String(response.status));
  };
}

/**
 * The scores store of a deploy context. `blobOptions` (siteID, token, edgeURL, uncachedEdgeURL, fetch) only for
 * local use and tests; in production Netlify's environment configures the client.
 */
export function openStore(deployContext, blobOptions = {}) {
  const { fetch: baseFetch, ...rest } = blobOptions;
  const name = storeNameFor(deployContext);
  return new StoreTable(getStore({ consistency: "strong", ...rest, fetch: singleAttemptFetch(baseFetch), name }), name);
}

async function guarded(what, operation) {
  try {
    return await operation();
  } catch (error) {
    if (error instanceof StoreFault || error instanceof StoreBusy) throw error;
    throw new StoreFault(`${what}: ${error.message}`);
  }
}

/** JSON blobs with the few operations the scores need, each one request, each failure a StoreFault. */
export class StoreTable {
  #store;

  constructor(store, name) {
    this.#store = store;
    this.name = name;
  }

  /** The JSON at `key`, or null. */
  async read(key) {
    return guarded(`read ${key}`, () => this.#store.get(key, { type: "json" }));
  }

  /**
   * { data, etag } or null. A server that sends no ETag with a read (BlobsServer itself, unless run through
   * netlify/local-blobs.mjs) is asked for the ETag in a listing before and after a second read: the read is of the
   * version that ETag names only when the two agree.
   */
  async readWithEtag(key) {
    return guarded(`read ${key}`, async () => {
      const found = await this.#store.getWithMetadata(key, { type: "json" });
      if (!found || found.data === null) return null;
      if (found.etag) return { data: found.data, etag: found.etag };
      const listedEtag = async () =>
        (await this.#store.list({ prefix: key })).blobs.find((blob) => blob.key === key)?.etag;
      const before = await listedEtag();
      const again = await this.#store.get(key, { type: "json" });
      const after = await listedEtag();
      if (!before || again === null) throw new StoreFault(`read ${key}: no ETag`);
      if (before !== after) throw new StoreBusy(`read ${key}: it changed while read`);
      return { data: again, etag: before };
    });
  }

  /** Writes `value` unless `key` exists: the new ETag, or null when the key was taken. */
  async createOnly(key, value) {
    return this.#write(key, value, { onlyIfNew: true });
  }

  /** Writes `value` if `key` still has `etag`: the new ETag, or null when it changed. */
  async replaceIfMatch(key, value, etag) {
    return this.#write(key, value, { onlyIfMatch: etag });
  }

  /** Writes `value` whatever is there (idempotent records only): the new ETag. */
  async put(key, value) {
    return this.#write(key, value, {});
  }

  /** Deletes `key` (absent is fine). */
  async remove(key) {
    return guarded(`delete ${key}`, () => this.#store.delete(key));
  }

  /** Every key under `prefix`. */
  async keys(prefix) {
    return guarded(`list ${prefix}`, async () => (await this.#store.list({ prefix })).blobs.map((blob) => blob.key));
  }

  /** One write: the new ETag, or null when its condition failed. */
  async #write(key, value, condition) {
    return guarded(`write ${key}`, async () => {
      const result = await this.#store.set(key, JSON.stringify(value), condition);
      if (result.modified === false) return null;
      if (!result.etag) throw new StoreFault(`write ${key}: the store answered without an ETag`);
      return result.etag;
    });
  }
}

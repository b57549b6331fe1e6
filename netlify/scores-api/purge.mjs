// Purging cached answers at Netlify's CDN by tag (@netlify/functions' purgeCache, Netlify's own client of its purge
// API). Deployed functions get the purge token from the platform (NETLIFY_PURGE_API_TOKEN); anywhere else nothing
// sits in Netlify's CDN, so there is nothing to purge and nothing is sent.

/**
 * A purger: `purge(tags)` resolves to true when Netlify took the purge, false when there is no CDN here or the
 * purge failed (logged: the cached copy then lives out its short time, BOARD_CDN_CACHE).
 */
export function cdnPurger({ env = process.env, label = "scores" } = {}) {
  return async function purge(tags) {
    if (!env.NETLIFY_PURGE_API_TOKEN) return false;
    try {
      const { purgeCache } = await import("@netlify/functions");
      await purgeCache({ tags });
      return true;
    } catch (error) {
      console.error(`${label}: purging ${tags.join(", ")} at the CDN failed: ${error.message}`);
      return false;
    }
  };
}

// The scores API's contract as the page, the service worker, the functions and the tests share it: values written
// once here. (A function's `config` must stay literal code for Netlify's bundler, so the functions write their
// limits out again and tests/function/scores.test.mjs checks them against these.)

/** Per-client limits the deployed functions declare: at most windowLimit requests in windowSize seconds. */
export const RATE_LIMITS = Object.freeze({
  postScores: Object.freeze({ windowLimit: 10, windowSize: 180 }),
  readScores: Object.freeze({ windowLimit: 120, windowSize: 60 }),
  friends: Object.freeze({ windowLimit: 30, windowSize: 60 }),
});

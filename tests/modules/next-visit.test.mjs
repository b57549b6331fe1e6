// The policy that lets a visit fetch the memory snapshot for the next one (web/js/engine/next-visit.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { reasonNotToFetch } from "../../web/js/engine/next-visit.js";

test("a browser without navigator.connection fetches it (Safari, Firefox)", () => {
  assert.equal(reasonNotToFetch(undefined), null);
});

test("a slow estimate on a fixed link still fetches it", () => {
  assert.equal(reasonNotToFetch({ effectiveType: "3g", downlink: 1.35, saveData: false }), null);
  assert.equal(reasonNotToFetch({ type: "wifi", effectiveType: "4g", downlink: 10, saveData: false }), null);
});

test("saving data or a cellular link does not", () => {
  assert.equal(
    reasonNotToFetch({ saveData: true, effectiveType: "4g", downlink: 10 }),
    "the browser asks to save data",
  );
  assert.equal(reasonNotToFetch({ type: "cellular", effectiveType: "4g", downlink: 10 }), "a cellular link");
});

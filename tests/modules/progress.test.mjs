// The loading bar's runtime phase moves while bytes arrive, not only when a whole file is in
// (web/js/engine/progress.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { creepingFraction, progressReporter } from "../../web/js/engine/progress.js";

test("between two files the bar keeps moving, and stays short of the end", () => {
  const shown = [0, 1000, 2000, 4000, 8000, 60_000].map((ms) => creepingFraction(0.16, ms));
  assert.equal(shown[0], 0.16);
  for (let i = 1; i < shown.length; i++) assert.ok(shown[i] > shown[i - 1], shown);
  assert.ok(shown[2] - shown[0] > 0.1, "two seconds move the bar visibly");
  assert.ok(shown.at(-1) < 1);
});

test("more bytes in never show less, and every file in is the whole phase", () => {
  assert.ok(creepingFraction(0.5, 3000) > creepingFraction(0.16, 3000));
  assert.equal(creepingFraction(1, 0), 1);
});

test("the bar never goes back when a creep estimate is followed by a smaller real fraction", () => {
  const totals = [];
  const report = progressReporter((_phase, _fraction, total) => totals.push(total), { runtime: 0.8, engine: 0.2 });
  report("runtime", creepingFraction(0.1, 6000));
  report("runtime", 0.3);
  assert.equal(totals[1], totals[0]);
});

// Deal numbers (base/deals.js): a fresh one is drawn from 0 to the engine's largest deal number, whatever that is,
// and a typed one is refused above it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { dealDigits, parseSeed, randomSeed } from "../../web/js/base/deals.js";
import { setTableSettings } from "../../web/js/base/rule-numbers.js";
import { useEngineSettings } from "./engine-settings.mjs";

const settings = useEngineSettings();

test("a fresh deal number is a whole number from 0 to the engine's largest, and deals vary", () => {
  const seeds = Array.from({ length: 200 }, randomSeed);
  for (const seed of seeds) assert.ok(Number.isSafeInteger(seed) && seed >= 0 && seed <= settings.max_seed, seed);
  assert.ok(new Set(seeds).size > 190);
  // Their top bits are used too: about half the draws lie in the upper half of the range.
  const upper = seeds.filter((seed) => seed > settings.max_seed / 2).length;
  assert.ok(upper > 60 && upper < 140, upper);
});

test("a typed deal number is the engine's: whole, at most its largest, no longer than it", () => {
  assert.equal(dealDigits(), String(settings.max_seed).length);
  assert.equal(parseSeed(` ${settings.max_seed} `), settings.max_seed);
  for (const bad of ["", "-1", "1.5", "1e3", "0x10", "７", String(settings.max_seed + 1), "9".repeat(30)]) {
    assert.equal(parseSeed(bad), null, bad);
  }
});

test("the bound is the engine's: a smaller largest deal number bounds every draw and each number comes", () => {
  try {
    for (const max of [0, 9, 2 ** 32 + 5, 2 ** 34 - 1]) {
      setTableSettings(JSON.stringify({ ...settings, max_seed: max }));
      const seeds = Array.from({ length: 400 }, randomSeed);
      assert.ok(
        seeds.every((seed) => Number.isInteger(seed) && seed >= 0 && seed <= max),
        `${max}`,
      );
      if (max === 9) assert.equal(new Set(seeds).size, 10);
      if (max === 2 ** 34 - 1) assert.ok(seeds.some((seed) => seed >= 2 ** 32));
      assert.equal(parseSeed(String(max)), max);
      assert.equal(parseSeed(String(max + 1)), null);
      assert.equal(dealDigits(), String(max).length);
      assert.equal(parseSeed("0".repeat(dealDigits())), 0);
      assert.equal(parseSeed("0".repeat(dealDigits() + 1)), null); // longer than the field lets anyone type
    }
  } finally {
    setTableSettings(JSON.stringify(settings));
  }
});

// The CPU speed a practice game plays at (base/rule-numbers.js offeredSpeed): a saved one the engine names, else the
// engine's default, with the engine's own table settings.
import assert from "node:assert/strict";
import { test } from "node:test";
import { offeredSpeed } from "../../web/js/base/rule-numbers.js";
import { useEngineSettings } from "./engine-settings.mjs";

const settings = useEngineSettings();

test("a speed the engine offers is kept", () => {
  for (const speed of settings.speeds) assert.equal(offeredSpeed(speed), speed);
});

test("none saved, or one the engine no longer offers, is the engine's default", () => {
  assert.ok(settings.speeds.includes(settings.default_speed));
  for (const saved of [null, undefined, "", "turbo", "Normal", 1]) {
    assert.equal(offeredSpeed(saved), settings.default_speed, String(saved));
  }
});

// The name key: names that render alike share a key, in any case and with any marks drawn on them.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { nameKey } from "../../netlify/lib/lookalike.mjs";
import { checkName } from "../../web/common/names.js";

/** The key of a name as the function stores it: its normal form first (names.js). */
const keyOf = (raw) => {
  const checked = checkName(raw);
  assert.ok(checked.ok, `${raw}: ${checked.message}`);
  return nameKey(checked.name);
};

describe("one key for names that render alike", () => {
  const alike = [
    ["Alice", "ALICE", "alice", "aLiCe"],
    ["Alice", "Al\u0131\u0307ce", "Al\u0131ce", "AL\u0130CE", "A\u0301lice", "Ali\u0308ce", "Alic\u0327e"],
    ["Alice", "A1ice", "AIice", "Aiice"],
    ["Control One", "control one", "C0ntrol One", "Contro1 One", "CONTROL ONE"],
    ["TOP", "ТОР", "top"],
    ["ABE", "АВЕ", "ΑΒΕ", "abe"],
    ["modern", "rnodern"],
    ["José", "Jose", "JOSÉ", "Jose\u0301"],
    ["Alice", "Alice.", "Alice'", "Alice_", "Al.ice", "A-l-i-c-e", "'Alice'"],
    ["\u0639\u0627\u0626\u0634\u06c1", "\u0639\u0640\u0627\u0626\u0640\u0640\u0634\u06c1"],
  ];
  for (const names of alike) {
    test(names.join(" = "), () => {
      const keys = names.map(keyOf);
      assert.deepEqual(new Set(keys).size, 1, JSON.stringify(Object.fromEntries(names.map((n, at) => [n, keys[at]]))));
    });
  }

  test("the two names of issue 18 beside Alice", () => {
    assert.equal(keyOf("Al\u0131\u0307ce"), keyOf("Alice"));
    assert.equal(keyOf("ALICE"), keyOf("Alice"));
  });
});

describe("names that differ keep different keys", () => {
  const apart = [
    ["Alice", "Alicia"],
    ["Bob", "Rob"],
    ["김민준", "김민수"],
    ["Ada", "Ida"],
    ["Tip", "Top"],
    ["Ivan", "Иван"],
    ["Ada", "Adam"],
    ["Ana", "Anna"],
  ];
  for (const [a, b] of apart) {
    test(`${a} ≠ ${b}`, () => assert.notEqual(keyOf(a), keyOf(b)));
  }
});

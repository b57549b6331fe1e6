// The name rules of issue 29 through the real API on PostgreSQL: each refusal answers 400 invalid_name with its
// reason (names.js), and names that differ only by punctuation, symbols or elongation are one name on a day.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { personActions } from "../../tools/harness/copies.mjs";
import {
  assertRefusal,
  datesAround,
  newId,
  postRequest,
  standInEngine,
  standInReplay,
  startTestApi,
  testNow,
} from "../../tools/harness/fixtures.mjs";

const NOW = testNow();
const { today } = datesAround(NOW);

let seeds = 500;
function record(name) {
  seeds += 1;
  return {
    id: newId(),
    name,
    date: today,
    score: 900,
    replay: standInReplay({ score: 900, actions: personActions(seeds) }),
  };
}

async function send(request, target) {
  const response = await target.handle(request);
  return { status: response.status, headers: response.headers, body: await response.json() };
}

describe("names through the API", () => {
  test("each refusal is 400 invalid_name with its reason, and stores nothing", async () => {
    const api = await startTestApi({ nowMs: NOW, getEngine: async () => standInEngine() });
    try {
      const cases = [
        ["A", "letters"],
        ["\u0640".repeat(20), "letters"],
        ["Alice\u{1D165}", "marks"],
        ["Al\u0456ce", "mixed_scripts"],
        ["Admin", "reserved"],
        ["Moderator", "reserved"],
        ["Shit Head", "offensive"],
        ["Connard", "offensive"],
        ["개새끼", "offensive"],
        ["Alice<b>", "character"],
      ];
      for (const [name, reason] of cases) {
        const body = await assertRefusal((request) => send(request, api), postRequest(record(name)), {
          status: 400,
          code: "invalid_name",
          rows: () => api.stored(),
        });
        assert.equal(body.reason, reason, name);
      }
    } finally {
      await api.close();
      await api.remove();
    }
  });

  test("beside Alice, Alice. Alice' Alice_ and Al.ice are name_taken", async () => {
    const api = await startTestApi({ nowMs: NOW, getEngine: async () => standInEngine() });
    try {
      assert.equal((await send(postRequest(record("Alice")), api)).status, 201);
      for (const name of ["Alice.", "Alice'", "Alice_", "Al.ice"]) {
        await assertRefusal((request) => send(request, api), postRequest(record(name)), {
          status: 409,
          code: "name_taken",
          rows: () => api.stored(),
        });
      }
    } finally {
      await api.close();
      await api.remove();
    }
  });
});

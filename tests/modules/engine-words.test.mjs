// The words that quote a game number (the lenient rule's strikes, the name rules' longest name) take it as a
// placeholder from the engine or the name rules: in every language, another number gives other words, and no
// catalog writes the number itself. The catalogs are loaded by web/js/base/i18n.js as the page loads them.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { NAME_MAX } from "../../web/common/names.js";
import { LANGUAGES, loadLanguage, setSharedParams, t, translatePage } from "../../web/js/base/i18n.js";
import { engineAnswer } from "./engine-settings.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const catalogOf = (language) => JSON.parse(readFileSync(path.join(ROOT, "web", "i18n", `${language}.json`), "utf8"));
const STRIKE_KEYS = ["menu.lenient", "result.eliminatedWhyLenient"];
const NAME_KEYS = [
  "leaderboard.nameHint",
  "leaderboard.nameEmpty",
  "leaderboard.nameInvalid",
  "leaderboard.nameRefused.too_long",
];

before(() => {
  // What the page's loadLanguage and translatePage touch: the catalogs' fetch and the document.
  globalThis.fetch = async (url) => {
    const language = String(url).match(/i18n\/(\w+)\.json$/)[1];
    return { ok: true, json: async () => catalogOf(language) };
  };
  globalThis.document = { baseURI: "http://page.test/", documentElement: {}, title: "" };
});

describe("the words follow the engine's numbers", () => {
  const engine = JSON.parse(engineAnswer("rule_numbers"));

  for (const language of LANGUAGES) {
    test(`${language}: the strikes and the longest name are placeholders, not words`, async () => {
      await loadLanguage(language);
      const format = (n) => new Intl.NumberFormat(language).format(n);
      for (const strikes of [engine.strikes, engine.strikes + 2]) {
        setSharedParams({ strikes, name_max: NAME_MAX + 5 });
        for (const key of STRIKE_KEYS) assert.match(t(key, { count: strikes }), new RegExp(format(strikes)), key);
        assert.match(t("help.rules.out.3"), new RegExp(format(strikes)));
        for (const key of NAME_KEYS) assert.match(t(key), new RegExp(format(NAME_MAX + 5)), key);
      }
      const catalog = catalogOf(language);
      for (const key of NAME_KEYS) assert.doesNotMatch(catalog[key], new RegExp(`\\b${NAME_MAX}\\b`), key);
    });
  }

  // The deck, a hand, the Jokers' deck, the pay counts and the largest deal number: each text quoting one takes the
  // engine's (another number, other words), and no catalog writes the engine's own figure there.
  const QUOTED = {
    "help.rules.deal": ["deck", "hand"],
    "help.rules.win.1": ["deck"],
    "menu.house.jokers": ["deck_jokers"],
    "welcome.pay": ["pay_jack", "pay_ace"],
    "menu.dealInvalid": ["max_seed"],
  };
  const given = { ...engine, max_seed: JSON.parse(engineAnswer("table_settings")).max_seed };
  for (const language of LANGUAGES) {
    test(`${language}: the deck, a hand, the pay counts and the largest deal number are placeholders`, async () => {
      await loadLanguage(language);
      const format = (n) => new Intl.NumberFormat(language).format(n);
      const other = Object.fromEntries(Object.keys(given).map((name, index) => [name, 700 + index]));
      setSharedParams(other);
      const catalog = catalogOf(language);
      for (const [key, names] of Object.entries(QUOTED)) {
        for (const name of names) {
          assert.ok(t(key).includes(format(other[name])), `${key}: ${name}`);
          assert.ok(!catalog[key].includes(String(given[name])), `${key} writes ${given[name]}`);
        }
      }
      setSharedParams(given);
    });
  }

  test("the menu's label is counted by the engine's strikes once they are known, and keeps its text before", async () => {
    await loadLanguage("en");
    const label = { dataset: { i18n: "menu.lenient", i18nCount: "later_number" }, textContent: "as loaded" };
    const root = { querySelectorAll: (selector) => (selector === "[data-i18n]" ? [label] : []) };
    translatePage(root);
    assert.equal(label.textContent, "as loaded");
    setSharedParams({ later_number: engine.strikes });
    translatePage(root);
    assert.equal(label.textContent, `${engine.strikes} strikes when out of cards`);
  });
});

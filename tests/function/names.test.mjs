// The name rules (web/common/names.js); the look-alike key is lookalike.test.mjs's.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { OFFENSIVE_LANGUAGES } from "../../netlify/lib/submission.mjs";
import { checkName, MARKS_MAX, NAME_MAX, normalizeName, plainForm, SHOWING_MIN } from "../../web/common/names.js";

const refusedFor = (raw) => {
  const checked = checkName(raw);
  assert.equal(checked.ok, false, `${JSON.stringify(raw)} was accepted as ${JSON.stringify(checked.name)}`);
  assert.equal(typeof checked.message, "string");
  return checked.reason;
};

describe("a name's normal form", () => {
  test("NFKC, trimmed, runs of spaces made one", () => {
    const cases = [
      ["Zoe\u0308", "Zoë"],
      ["  Ada  ", "Ada"],
      ["a   b", "a b"],
      ["\uff21\uff44\uff41", "Ada"],
      ["Ada\u3000Lovelace", "Ada Lovelace"],
      ["\u00a0Ada", "Ada"],
      ["ﬁona", "fiona"],
    ];
    for (const [raw, normal] of cases) {
      assert.equal(normalizeName(raw), normal, raw);
      assert.deepEqual(checkName(raw), { ok: true, name: normal }, raw);
    }
  });

  test("names in the scripts people write, with their marks", () => {
    for (const name of [
      "김민준",
      "Nguyễn Văn-An",
      "عائشہ",
      "O'Neil_2.0",
      "田中さん",
      "山田 太郎",
      "Tanaka田中",
      "ทดสอบ",
      "नमस्ते",
      "Ελένη",
      "Иван",
      "ნინო",
      "Հայկ",
      "דוד",
      "١٢٣ علي",
      "น้ำ",
      "Nguyễn Thị Ộ",
    ]) {
      assert.deepEqual(checkName(name), { ok: true, name: name.normalize("NFKC") }, name);
    }
  });
});

describe("refused names (the attacks of issue 12)", () => {
  test("empty, or nothing but punctuation", () => {
    for (const raw of ["", "   ", "---", "'.'", "😀"]) assert.equal(refusedFor(raw), "empty", raw);
  });

  test(`longer than ${NAME_MAX} characters after normalising`, () => {
    assert.equal(refusedFor("n".repeat(NAME_MAX + 1)), "too_long");
    assert.equal(checkName("n".repeat(NAME_MAX)).ok, true);
    assert.equal(refusedFor("\ufdfa\ufdfa"), "too_long"); // each expands to 18 characters under NFKC
  });

  test("Hangul fillers, which draw nothing", () => {
    for (const raw of ["\u3164\u3164\u3164", "A\u3164B", "\u115f", "\u1160x", "\uffa0x"]) {
      assert.equal(refusedFor(raw), "invisible", raw);
    }
  });

  test("controls, formats, joiners, bidi overrides and other invisibles", () => {
    for (const raw of [
      "Ada\u0007",
      "a\nb",
      "Control\u034f One",
      "Ada\u200b",
      "Ada\u200d",
      "Ada\u202e",
      "Ada\u2066",
      "A\ufeffda",
      "Ada\u00ad",
      "Ada\ue000",
      "A\u2028B",
      "Ada\ufe0f",
      "\ud800x",
    ]) {
      assert.equal(refusedFor(raw), "invisible", JSON.stringify(raw));
    }
  });

  test(`more than ${MARKS_MAX} marks on one letter, or a mark on nothing`, () => {
    assert.equal(refusedFor(`a${"\u0301".repeat(19)}`), "marks");
    assert.equal(refusedFor(`\u0e01${"\u0e48".repeat(18)}`), "marks");
    assert.equal(refusedFor("a\u0301\u0302\u0303"), "marks");
    assert.equal(refusedFor("\u1ec5\u0301"), "marks"); // ễ is e with two marks already
    assert.equal(checkName("ba\u0301\u0323").ok, true);
    assert.equal(refusedFor("\u0301a"), "marks");
    assert.equal(refusedFor("a \u0301"), "marks");
  });

  test("letters of two scripts (a Cyrillic С in a Latin name), and Latin with Hangul and kana at once", () => {
    for (const raw of ["\u0421ontrol One", "Аda", "Pаypal", "abc١٢٣", "日本さん한국"]) {
      assert.equal(refusedFor(raw), "mixed_scripts", raw);
    }
  });

  test("scripts made of look-alikes of Latin or nobody's everyday writing", () => {
    for (const raw of ["Ꮯontrol", "ᏟᎪᎡᎠ", "𐌀𐌁", "ᚠᚢᚦ"]) assert.equal(refusedFor(raw), "script", raw);
  });

  test("symbols, markup and emoji", () => {
    for (const raw of ["<b>Ada</b>", "a&b", "Ada!", "Ada 😀", "a/b", "Ada©"]) {
      assert.equal(refusedFor(raw), "character", raw);
    }
  });

  test("not text", () => {
    for (const raw of [7, null, undefined, ["Ada"]]) assert.equal(refusedFor(raw), "type");
  });
});

describe("refused names (issue 29): each for its real reason", () => {
  test(`fewer than ${SHOWING_MIN} letters or digits that show (an elongation is a bare line)`, () => {
    for (const raw of ["A", "7", "\u0640".repeat(20), "\u0628\u0640\u0640\u0640\u0640", "A.", "-x-"]) {
      assert.equal(refusedFor(raw), "letters", JSON.stringify(raw));
    }
    assert.equal(checkName("Al").ok, true);
    assert.equal(checkName("\u0628\u0640\u0627").ok, true, "an elongation inside a name of two letters");
  });

  test("a mark of a symbol (U+1D165 draws a box) or an enclosing mark after a letter", () => {
    assert.equal(refusedFor("Alice\u{1D165}"), "marks");
    assert.equal(refusedFor("Alice\u20DD"), "marks");
  });

  test("letters of two scripts are told as mixed scripts", () => {
    assert.equal(refusedFor("Al\u0456ce"), "mixed_scripts");
  });

  test("names kept for the board itself, however written", () => {
    for (const raw of ["Admin", "ADMIN", "Ad.min", "Moderator", "Ádmin", "Egyptian War", "egyptian-war", "EWAR"]) {
      assert.equal(refusedFor(raw), "reserved", raw);
    }
    assert.equal(checkName("Admiral").ok, true);
  });

  test("offensive words of the list the server passes, as whole words or in scripts without spaces", () => {
    const offensive = ["shit", "connard", "씨발"].map(plainForm);
    const refused = (raw) => checkName(raw, { offensive });
    for (const raw of ["Shit", "Big Shit", "S.h.i.t", "s h i t", "Connard", "le connard", "나씨발놈"]) {
      assert.equal(refused(raw).reason, "offensive", raw);
    }
    for (const raw of ["Shitake", "Cassandra", "Connardo"]) assert.equal(refused(raw).ok, true, raw);
  });

  test("the server's list covers the page's languages it has (en, fr, ko) and Urdu's (hi, fa, ar)", () => {
    assert.deepEqual(OFFENSIVE_LANGUAGES, ["en", "fr", "ko", "hi", "fa", "ar"]);
  });
});

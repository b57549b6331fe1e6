// A name's look-alike key: two names with the same key render alike, and one day's board holds one of them
// (the entries table's unique (day, name_key)). Unicode's confusable data comes through unhomoglyph.
import unhomoglyph from "unhomoglyph";

// Marks drawn on or around a letter (nonspacing and enclosing): a dot on a dotless i renders as an i.
const DRAWN_MARKS = /[\p{Mn}\p{Me}]/gu;
// After the skeleton and lower case, i, l, 1 and | may still differ only by a serif: one letter for all.
const I_L_FAMILY = /[il1|ǀ]/gu;
// What changes no letter a reader sees: punctuation ("Al.ice", "Alice_"), symbols, any mark left without its
// letter, and the Arabic elongation (a longer joining line).
const UNSEEN_IN_KEY = /[\p{P}\p{S}\p{M}\u0640]/gu;
const ROUNDS = 4;

const bare = (text) => text.normalize("NFKD").replace(DRAWN_MARKS, "");

/**
 * One round: decompose (NFKD) and drop drawn marks, map confusables to their prototypes, fold case, and map and
 * fold again (a prototype may be a capital, "0" → "O"; a lower-case letter may fold to a look-alike of another).
 */
function fold(text) {
  const once = bare(unhomoglyph(bare(text))).toLowerCase();
  return bare(unhomoglyph(once)).toLowerCase();
}

/**
 * The look-alike key of a name (in its normal form): case folded, combining marks dropped, confusables mapped
 * (UTS #39's confusables.txt) until nothing changes, punctuation, symbols, marks and elongations dropped, then
 * the i/l/1/I family made one. Stricter than Unicode's skeleton on purpose: "José" and "Jose", "Ali" and "All",
 * "Alice" and "Al.ice" are one key.
 */
export function nameKey(name) {
  let key = name;
  for (let round = 0; round < ROUNDS; round += 1) {
    const next = fold(key);
    if (next === key) break;
    key = next;
  }
  return key.replace(UNSEEN_IN_KEY, "").replace(I_L_FAMILY, "l");
}

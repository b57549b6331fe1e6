// The daily board's name rules, one module for the page and the scores function: a name's normal form, and why
// a name is refused. No imports, so the page loads it as it is; look-alikes of other names are the server's job,
// and so is the offensive-word list (a dependency the server passes in: netlify/lib/submission.mjs).

/** At most this many characters (code points) after normalisation. */
export const NAME_MAX = 20;
/** At most this many combining marks on one letter (Vietnamese, Thai and Indic names need two). */
export const MARKS_MAX = 2;

/**
 * UAX #31's recommended scripts (Table 5): the scripts of modern everyday writing. Letters of other scripts
 * (historic ones, and limited-use ones such as Cherokee, whose letters copy Latin ones) are refused.
 */
export const NAME_SCRIPTS = Object.freeze([
  "Arabic",
  "Armenian",
  "Bengali",
  "Bopomofo",
  "Cyrillic",
  "Devanagari",
  "Ethiopic",
  "Georgian",
  "Greek",
  "Gujarati",
  "Gurmukhi",
  "Han",
  "Hangul",
  "Hebrew",
  "Hiragana",
  "Kannada",
  "Katakana",
  "Khmer",
  "Lao",
  "Latin",
  "Malayalam",
  "Myanmar",
  "Oriya",
  "Sinhala",
  "Tamil",
  "Telugu",
  "Thaana",
  "Thai",
  "Tibetan",
]);

// Writing systems that mix scripts by design (UTS #39 "resolved script sets"): Japanese, Korean, Chinese+Bopomofo.
const WRITING_SYSTEMS = Object.freeze({
  Han: ["Japanese", "Korean", "Chinese"],
  Hiragana: ["Japanese"],
  Katakana: ["Japanese"],
  Hangul: ["Korean"],
  Bopomofo: ["Chinese"],
});
const CJK_SYSTEMS = ["Japanese", "Korean", "Chinese"];

const SCRIPT_TESTS = NAME_SCRIPTS.map((script) => [script, new RegExp(`^\\p{scx=${script}}$`, "u")]);
const NEUTRAL = /^[\p{scx=Common}\p{scx=Inherited}]$/u;
// Nothing a reader could see, or that changes how the rest is drawn: controls, formats (bidi, joiners),
// private use, unassigned, separators other than the space, and default-ignorables (the Hangul fillers, U+034F).
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]|(?! )\p{Zs}/u;
const LETTER = /^\p{L}$/u;
const MARK = /^\p{M}$/u;
const ALLOWED_OTHER = /^[\p{Nd} \-_.']$/u;
const LETTER_OR_DIGIT = /[\p{L}\p{Nd}]/u;
// Letters or digits that show: not an elongation (the Arabic tatweel draws a bare line).
const SHOWING = /[\p{L}\p{Nd}]/gu;
const ELONGATION = /\u0640/gu;
/** A name needs at least this many letters or digits that show. */
export const SHOWING_MIN = 2;
// Marks of symbols, not letters (U+1D165, a musical stem, draws a box after a letter): Common-script marks.
const SYMBOL_MARK = /^[\p{Me}]$|^(?=\p{M})\p{scx=Common}$/u;

/**
 * Names that would pass for the board's own voice: compared by their plain form (`plainForm`), whole.
 */
export const RESERVED_NAMES = Object.freeze([
  "admin",
  "administrator",
  "moderator",
  "mod",
  "operator",
  "staff",
  "support",
  "official",
  "system",
  "root",
  "egyptian war",
  "egyptianwar",
  "ewar",
  "leaderboard",
  "anonymous",
]);

/** A refusal: a stable reason (for the page's own words) and an English sentence. */
const refusal = (reason, message) => ({ ok: false, reason, message });

/** The scripts a character belongs to, with the writing systems they are part of; null for neutral ones. */
function scriptsOf(char) {
  if (NEUTRAL.test(char)) return null;
  const scripts = new Set();
  for (const [script, test] of SCRIPT_TESTS) {
    if (!test.test(char)) continue;
    scripts.add(script);
    for (const system of WRITING_SYSTEMS[script] ?? []) scripts.add(system);
  }
  return scripts;
}

/** The items every set holds. */
function intersect(sets) {
  const [first, ...rest] = sets;
  return new Set([...first].filter((item) => rest.every((set) => set.has(item))));
}

/**
 * UTS #39 "highly restrictive": all in one script, or Latin with one of the CJK writing systems. Returns null when
 * allowed, else the refusal.
 */
function scriptRefusal(chars) {
  const sets = [];
  for (const char of chars) {
    const scripts = scriptsOf(char);
    if (scripts === null) continue;
    if (scripts.size === 0) {
      return refusal("script", `"${char}" is not from a script names use (Latin, Cyrillic, Arabic, Han...).`);
    }
    sets.push(scripts);
  }
  if (sets.length === 0 || intersect(sets).size > 0) return null;
  const withoutLatin = sets.filter((set) => !set.has("Latin"));
  if (withoutLatin.length > 0 && CJK_SYSTEMS.some((system) => intersect(withoutLatin).has(system))) return null;
  return refusal("mixed_scripts", "A name is written in one script (letters from two scripts can look alike).");
}

/** Letters carry at most MARKS_MAX marks, counted decomposed (á is a and one mark); a mark sits on a letter. */
function marksRefusal(name) {
  let marks = 0;
  let afterLetter = false;
  for (const char of name.normalize("NFD")) {
    if (MARK.test(char)) {
      marks += 1;
      if (!afterLetter) return refusal("marks", "An accent or other mark must sit on a letter.");
      if (SYMBOL_MARK.test(char)) return refusal("marks", "That mark is not one a letter takes.");
      if (marks > MARKS_MAX) return refusal("marks", `At most ${MARKS_MAX} accents or marks on one letter.`);
    } else {
      marks = 0;
      afterLetter = LETTER.test(char);
    }
  }
  return null;
}

/** NFKC, trimmed, runs of spaces made one: the form a name is stored and shown in. */
export function normalizeName(raw) {
  return raw.normalize("NFKC").trim().replace(/ {2,}/g, " ");
}

/**
 * A name's plain form, for the word lists: decomposed, marks, punctuation, symbols and elongations dropped, lower
 * case, one space between words. "Ad.min!" and "ádmin" are "admin".
 */
export function plainForm(name) {
  return name
    .normalize("NFKD")
    .replace(/[\p{M}\p{P}\p{S}\u0640]/gu, " ")
    .toLowerCase()
    .trim()
    .replace(/\s+/g, " ");
}

const LATIN_ONLY = /^[\p{scx=Latin}\p{Nd} ]+$/u;

/**
 * Words of `words` (plain forms) found in `name`: a Latin-script entry matches whole words of the name (or the
 * name with its spaces taken out: "f u c k"); an entry in another script anywhere in the name run together (those
 * scripts may write no spaces).
 */
function offensiveWord(name, words) {
  const plain = plainForm(name);
  const tokens = new Set([...plain.split(" "), plain, plain.replaceAll(" ", "")]);
  const together = plain.replaceAll(" ", "");
  return words.find((word) => (LATIN_ONLY.test(word) ? tokens.has(word) : together.includes(word))) ?? null;
}

/**
 * Checks a name as typed. Answers { ok: true, name } with the normal form, or { ok: false, reason, message } with
 * reason one of "type", "empty", "too_long", "invisible", "character", "marks", "script", "mixed_scripts",
 * "letters" (fewer than SHOWING_MIN letters or digits that show), "reserved", "offensive". `offensive`: the plain
 * forms of the words a name may not hold (the server's list; the page passes none).
 */
export function checkName(raw, { offensive = [] } = {}) {
  if (typeof raw !== "string") return refusal("type", "A name is text.");
  if (!raw.isWellFormed()) return refusal("invisible", "The name holds a broken character.");
  const name = normalizeName(raw);
  const chars = [...name];
  if (!LETTER_OR_DIGIT.test(name)) return refusal("empty", "A name needs at least one letter or digit.");
  if (chars.length > NAME_MAX) return refusal("too_long", `A name is at most ${NAME_MAX} characters.`);
  if (INVISIBLE.test(name)) return refusal("invisible", "Invisible and control characters are not allowed in names.");
  const stranger = chars.find((char) => !LETTER.test(char) && !MARK.test(char) && !ALLOWED_OTHER.test(char));
  if (stranger !== undefined) {
    return refusal("character", `"${stranger}" is not allowed: use letters, digits, spaces and - _ . '`);
  }
  const found = marksRefusal(name) ?? scriptRefusal(chars);
  if (found) return found;
  if ((name.replace(ELONGATION, "").match(SHOWING) ?? []).length < SHOWING_MIN) {
    return refusal("letters", `A name needs at least ${SHOWING_MIN} letters or digits.`);
  }
  if (RESERVED_NAMES.includes(plainForm(name)) || RESERVED_NAMES.includes(plainForm(name).replaceAll(" ", ""))) {
    return refusal("reserved", "That name is kept for the board itself: pick another.");
  }
  if (offensiveWord(name, offensive)) return refusal("offensive", "That name holds a word the board does not show.");
  return { ok: true, name };
}

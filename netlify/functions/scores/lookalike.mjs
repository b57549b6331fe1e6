// Which names look alike: Unicode's confusable skeletons (UTS #39, data of confusables.txt through unhomoglyph),
// compared without case. Two names with the same key cannot both be on one day's board.
import { createHash } from "node:crypto";
import unhomoglyph from "unhomoglyph";

/** UTS #39's skeleton: decompose, map each character to its prototype, decompose again. */
function skeleton(text) {
  return unhomoglyph(text.normalize("NFD")).normalize("NFD");
}

/**
 * The look-alike class of a (normalised) name: the skeleton folded to lower case and skeletoned again, since a
 * prototype may be a capital ("0" → "O") and a lower-case letter may fold to a look-alike of another ("Ο" → "ο").
 */
export function lookalikeKey(name) {
  return skeleton(skeleton(name).toLowerCase()).toLowerCase();
}

/** A short, key-safe digest of a name's look-alike class (a Blobs key part). */
export function lookalikeDigest(name) {
  return createHash("sha256").update(lookalikeKey(name)).digest("hex").slice(0, 32);
}

// A device's player id (the page makes it at random): its check, and the only form the database keeps, its SHA-256.
import { createHash } from "node:crypto";
import { ID_PATTERN } from "../../web/common/contract.js";
import { Rejection } from "./submission.mjs";

/** The checked player id, or a Rejection(400, "invalid_player"). */
export function checkPlayer(player) {
  if (typeof player !== "string" || !ID_PATTERN.test(player)) {
    throw new Rejection(400, "invalid_player", "The player id must be 16 to 64 characters from A-Z a-z 0-9 _ -.");
  }
  return player;
}

/** The 32 bytes stored for a player id; the id itself is never stored. */
export const playerHash = (player) => createHash("sha256").update(player, "utf8").digest();

// This device's player id: random, made once and kept, sent with its dailies and its friends' boards' requests.

import { ID_PATTERN } from "../../common/contract.js";
import { keyed } from "../base/local-store.js";

const KEY_PLAYER = "ewar.player";

/** backend: the page's (local-store.js, pageBackend). */
export function createPlayerStore(backend) {
  const kept = keyed(backend);

  /** This device's player id: 32 random base64url characters, made once (crypto.getRandomValues) and kept. */
  function playerId() {
    const id = kept.readText(KEY_PLAYER);
    if (id && ID_PATTERN.test(id)) return id;
    const made = randomId(24);
    kept.writeText(KEY_PLAYER, made);
    return made;
  }

  /** Forget me, on this device: the next request makes a new id. */
  const forget = () => kept.remove(KEY_PLAYER);

  return { playerId, forget };
}

/** `bytes` random bytes as base64url without padding. */
function randomId(bytes) {
  const random = crypto.getRandomValues(new Uint8Array(bytes));
  return btoa(String.fromCharCode(...random))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

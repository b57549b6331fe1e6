// The friends' boards this device joined, oldest first: [{code, name}] (friends-state.js decides joins and leaves).

import { keyed } from "../base/local-store.js";

const KEY_FRIENDS = "ewar.friends";

/** backend: the page's (local-store.js, pageBackend). */
export function createFriendsStore(backend) {
  const kept = keyed(backend);

  /** The joined boards; a damaged list reads as none, a damaged item is left out. */
  function friendsBoards() {
    try {
      const list = JSON.parse(kept.readText(KEY_FRIENDS) ?? "[]");
      return Array.isArray(list) ? list.filter((b) => typeof b?.code === "string" && typeof b?.name === "string") : [];
    } catch {
      return [];
    }
  }

  const saveFriendsBoards = (list) => kept.writeJson(KEY_FRIENDS, list);

  /** Forget me, on this device: no board joined. */
  const forget = () => kept.remove(KEY_FRIENDS);

  return { friendsBoards, saveFriendsBoards, forget };
}

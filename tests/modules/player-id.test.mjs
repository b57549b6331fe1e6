// The device's player id and its joined friends' boards, as their stores keep them (player-store.js, friends-store.js).
import assert from "node:assert/strict";
import { test } from "node:test";
import { createFriendsStore } from "../../web/js/scores/friends-store.js";
import { createPlayerStore } from "../../web/js/scores/player-store.js";

function memory() {
  const items = new Map();
  return {
    items,
    getItem: (key) => (items.has(key) ? items.get(key) : null),
    setItem: (key, value) => items.set(key, String(value)),
    removeItem: (key) => items.delete(key),
  };
}

test("the player id is made once, kept, and fits the server's pattern", () => {
  const backend = memory();
  const first = createPlayerStore(backend).playerId();
  assert.match(first, /^[A-Za-z0-9_-]{32}$/);
  assert.equal(createPlayerStore(backend).playerId(), first); // a reload: the same id
  assert.notEqual(createPlayerStore(memory()).playerId(), first); // another device: another id
});

test("a kept id the server would refuse is replaced, not sent", () => {
  const backend = memory();
  backend.setItem("ewar.player", "short<id>");
  const id = createPlayerStore(backend).playerId();
  assert.match(id, /^[A-Za-z0-9_-]{32}$/);
  assert.equal(backend.getItem("ewar.player"), id);
});

test("the joined boards are kept as a list; damaged storage reads as none", () => {
  const backend = memory();
  const storage = createFriendsStore(backend);
  assert.deepEqual(storage.friendsBoards(), []);
  storage.saveFriendsBoards([{ code: "abcdefghijkl", name: "Team" }]);
  assert.deepEqual(createFriendsStore(backend).friendsBoards(), [{ code: "abcdefghijkl", name: "Team" }]);
  backend.setItem("ewar.friends", "{not json");
  assert.deepEqual(storage.friendsBoards(), []);
  backend.setItem("ewar.friends", JSON.stringify([{ code: 3 }, { code: "abcdefghijkl", name: "T" }]));
  assert.deepEqual(storage.friendsBoards(), [{ code: "abcdefghijkl", name: "T" }]);
});

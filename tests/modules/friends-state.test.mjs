// The friends' boards' links, joined list and refusals (web/js/scores/friends-state.js).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  afterJoin,
  afterLeave,
  dayLink,
  friendsLink,
  isBoardCode,
  isOwnEntry,
  linkRequest,
  refusalKey,
} from "../../web/js/scores/friends-state.js";

const BASE = "https://ewar.example/";

describe("links", () => {
  test("a friends' board link carries its code and is read back", () => {
    const link = friendsLink(BASE, "abcdefgh2345");
    assert.equal(link, "https://ewar.example/?friends=abcdefgh2345");
    assert.deepEqual(linkRequest(new URL(link).search), { friends: "abcdefgh2345" });
  });

  test("a code that cannot be one is flagged, not sent", () => {
    assert.deepEqual(linkRequest("?friends=<b>x</b>"), { friends: null, badCode: true });
    assert.deepEqual(linkRequest("?friends="), { friends: null, badCode: true });
    assert.equal(isBoardCode("abcdefgh2341"), false); // 1 is not base32
    assert.equal(isBoardCode("abcdefgh234"), false);
  });

  test("a daily share opens that day's board; a bad date opens nothing", () => {
    assert.deepEqual(linkRequest(new URL(dayLink(BASE, "2026-12-01")).search), { board: "2026-12-01" });
    assert.deepEqual(linkRequest("?board=2026-13-45"), {});
    assert.deepEqual(linkRequest("?board=tomorrow"), {});
    assert.deepEqual(linkRequest(""), {});
  });
});

describe("the joined boards", () => {
  test("joining twice keeps one entry, with the newest name", () => {
    const once = afterJoin([], { code: "aaaaaaaaaaaa", name: "Team" });
    const twice = afterJoin(once, { code: "aaaaaaaaaaaa", name: "Team B" });
    assert.deepEqual(twice, [{ code: "aaaaaaaaaaaa", name: "Team B" }]);
    const more = afterJoin(twice, { code: "bbbbbbbbbbbb", name: "Work" });
    assert.deepEqual(
      more.map((b) => b.code),
      ["aaaaaaaaaaaa", "bbbbbbbbbbbb"],
    );
  });

  test("leaving removes only that board", () => {
    const boards = [
      { code: "aaaaaaaaaaaa", name: "A" },
      { code: "bbbbbbbbbbbb", name: "B" },
    ];
    assert.deepEqual(afterLeave(boards, "aaaaaaaaaaaa"), [{ code: "bbbbbbbbbbbb", name: "B" }]);
    assert.deepEqual(afterLeave(boards, "cccccccccccc"), boards);
  });
});

describe("refusals in words", () => {
  test("the server's codes each have their message", () => {
    assert.equal(refusalKey({ status: 400, body: { error: "invalid_name" } }), "leaderboard.nameInvalid");
    assert.equal(refusalKey({ status: 404, body: { error: "not_found" } }), "friends.errorNotFound");
    assert.equal(refusalKey({ status: 409, body: { error: "board_full" } }), "friends.errorFull");
    assert.equal(refusalKey({ status: 429, body: { error: "rate_limited" } }), "friends.errorBusy");
  });

  test("no answer is offline; an unknown refusal or a bare 5xx is said as such", () => {
    assert.equal(refusalKey({ offline: true }), "friends.errorOffline");
    assert.equal(refusalKey({ status: 400, body: { error: "invalid_body" } }), "friends.errorFailed");
    assert.equal(refusalKey({ status: 502, body: null }), "friends.errorBusy");
  });
});

describe("your row on a friends' board", () => {
  const sent = { state: "sent", name: "Bob", score: 540, entry: 17 };
  test("the entry your sent daily was given is yours, and no other", () => {
    assert.equal(isOwnEntry({ entry: 17, name: "Bob", score: 540 }, sent), true);
    assert.equal(isOwnEntry({ entry: 18, name: "Bob", score: 540 }, sent), false);
  });
  test("a record kept before entries were kept matches by name and score", () => {
    const old = { state: "sent", name: "Bob", score: 540 };
    assert.equal(isOwnEntry({ entry: 3, name: "Bob", score: 540 }, old), true);
    assert.equal(isOwnEntry({ entry: 3, name: "Bob", score: 541 }, old), false);
  });
  test("nothing is yours before your daily is sent", () => {
    assert.equal(isOwnEntry({ entry: 17, name: "Bob", score: 540 }, { ...sent, state: "queued" }), false);
    assert.equal(isOwnEntry({ entry: 17 }, null), false);
  });
});

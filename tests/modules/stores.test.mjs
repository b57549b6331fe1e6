// The page's stores, one per role (settings, history, the running game, scores, the player id, friends' boards, the
// loader's choices): a profile the page kept before they were split still reads whole, and each store writes only its
// own keys.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createRunningGameStore } from "../../web/js/app/running-game-store.js";
import { createClockStore } from "../../web/js/base/clock-store.js";
import { createHistoryStore } from "../../web/js/base/history-store.js";
import { memoryBackend } from "../../web/js/base/local-store.js";
import { createSettingsStore } from "../../web/js/base/settings-store.js";
import { createLoaderStore } from "../../web/js/engine/loader-store.js";
import { createFriendsStore } from "../../web/js/scores/friends-store.js";
import { createPlayerStore } from "../../web/js/scores/player-store.js";
import { createScoreStore } from "../../web/js/scores/score-store.js";

// localStorage as the one storage.js of commit 3c65cfe left it, after a few games, two dailies, a queued score, a
// board seen, a friends' board joined, a game on the table and a snapshot loaded.
const OLD_PROFILE = {
  "ewar.deviceSnapshotFailed": "key-1",
  "ewar.friends": '[{"code":"abcdefghijkl","name":"Team"}]',
  "ewar.game": '{"replay":"{\\"v\\":1}","clock":1234,"about":{"scored":false},"timeline":[],"savedAt":1796295539841}',
  "ewar.history":
    '{"played":3,"won":2,"bestDaily":1500,"streak":2,"lastDailyDate":"2026-12-01","daily":{"date":"2026-12-01","finished":true,"score":700,"won":false},"bestReaction":null,"dailies":[{"date":"2026-11-30","score":1500,"won":true,"median_ms":null},{"date":"2026-12-01","score":700,"won":false,"median_ms":null}]}',
  "ewar.leaderboards": '{"2026-12-01":{"board":{"date":"2026-12-01","entries":[]},"seenAt":2}}',
  "ewar.load": "micropip",
  "ewar.player": "aWM3fMzX4P7-JaMRRpG-TlVqr1_JVaxK",
  "ewar.scores":
    '{"2026-12-01":{"id":"AAAAAAAAAAAAAAAAAAAAAA","date":"2026-12-01","score":700,"won":false,"state":"queued","name":"Old Timer","player":"aWM3fMzX4P7-JaMRRpG-TlVqr1_JVaxK","queuedAt":1,"replay":"{}"}}',
  "ewar.settings":
    '{"speed":"fast","sound":false,"language":"fr","lenient":true,"houseRules":["sandwich"],"nickname":"Old Timer"}',
  "ewar.snapshotFile": "pyodide/engine-0123456789abcdef.snapshot.gz",
  "ewar.snapshotLoaded": "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
  "ewar.welcomed": "1",
};

function oldProfile() {
  const backend = memoryBackend();
  for (const [key, value] of Object.entries(OLD_PROFILE)) backend.setItem(key, value);
  return backend;
}

function storesOn(backend) {
  return {
    settings: createSettingsStore(backend),
    history: createHistoryStore(backend),
    running: createRunningGameStore(backend),
    scores: createScoreStore(backend),
    player: createPlayerStore(backend),
    friends: createFriendsStore(backend),
    loader: createLoaderStore(backend),
  };
}

const DATES = ["2026-12-01", "2026-11-30"];

test("a profile kept before the split reads whole: settings, name, history, records, boards, player id, friends", () => {
  const stores = storesOn(oldProfile());
  assert.deepEqual(stores.settings.settings(), {
    speed: "fast",
    sound: false,
    language: "fr",
    lenient: true,
    houseRules: ["sandwich"],
    nickname: "Old Timer",
  });
  const history = stores.history.history();
  assert.deepEqual([history.played, history.won, history.bestDaily], [3, 2, 1500]);
  assert.deepEqual(
    history.dailies.map((d) => [d.date, d.score]),
    [
      ["2026-11-30", 1500],
      ["2026-12-01", 700],
    ],
  );
  assert.equal(stores.history.dayStreak("2026-12-01"), 2);
  assert.deepEqual(stores.history.dailyRecord("2026-12-01"), {
    date: "2026-12-01",
    finished: true,
    score: 700,
    won: false,
  });
  assert.equal(stores.history.welcomed(), true);
  const record = stores.scores.scoreRecords(DATES)["2026-12-01"];
  assert.deepEqual([record.id, record.state, record.name], ["AAAAAAAAAAAAAAAAAAAAAA", "queued", "Old Timer"]);
  assert.deepEqual(stores.scores.keptBoard("2026-12-01"), { board: { date: "2026-12-01", entries: [] }, seenAt: 2 });
  assert.equal(stores.player.playerId(), "aWM3fMzX4P7-JaMRRpG-TlVqr1_JVaxK");
  assert.equal(record.player, stores.player.playerId()); // the queued record goes out under the same id
  assert.deepEqual(stores.friends.friendsBoards(), [{ code: "abcdefghijkl", name: "Team" }]);
  assert.deepEqual([stores.running.runningGame().replay, stores.running.runningGame().clock], ['{"v":1}', 1234]);
  assert.equal(stores.loader.forcedLoadPath(), "micropip");
  assert.equal(stores.loader.snapshotSeen(), "f".repeat(64));
  assert.equal(stores.loader.snapshotFileSeen(), "pyodide/engine-0123456789abcdef.snapshot.gz");
  assert.equal(stores.loader.deviceSnapshotFailed(), "key-1");
});

test("the new stores write the old keys in the old formats: a page of either side reads the other's", () => {
  const backend = memoryBackend();
  const stores = storesOn(backend);
  stores.settings.saveSettings(JSON.parse(OLD_PROFILE["ewar.settings"]));
  stores.history.rememberWelcome();
  stores.history.recordGame({ won: true, score: 900, stats: null });
  stores.history.recordDailyStart("2026-11-30");
  stores.history.recordGame({ won: true, score: 1500, stats: null }, { dailyDate: "2026-11-30" });
  stores.history.recordDailyStart("2026-12-01");
  stores.history.recordGame({ won: false, score: 700, stats: null }, { dailyDate: "2026-12-01" });
  stores.scores.saveScoreRecord(JSON.parse(OLD_PROFILE["ewar.scores"])["2026-12-01"], DATES);
  stores.scores.keepBoard("2026-12-01", { date: "2026-12-01", entries: [] }, 2, DATES);
  stores.friends.saveFriendsBoards([{ code: "abcdefghijkl", name: "Team" }]);
  stores.loader.rememberSnapshot("f".repeat(64), "pyodide/engine-0123456789abcdef.snapshot.gz");
  stores.loader.rememberDeviceSnapshotFailure("key-1");
  for (const key of [
    "ewar.settings",
    "ewar.welcomed",
    "ewar.history",
    "ewar.scores",
    "ewar.leaderboards",
    "ewar.friends",
    "ewar.snapshotLoaded",
    "ewar.snapshotFile",
    "ewar.deviceSnapshotFailed",
  ]) {
    assert.equal(backend.getItem(key), OLD_PROFILE[key], key);
  }
});

test("each store forgets only its own keys; forget me clears the player's and keeps the rest", () => {
  const backend = oldProfile();
  const stores = storesOn(backend);
  for (const store of [stores.player, stores.scores, stores.friends]) store.forget(); // main.js's forgetPlayer
  for (const key of ["ewar.player", "ewar.scores", "ewar.leaderboards", "ewar.friends"]) {
    assert.equal(backend.getItem(key), null, key);
  }
  for (const key of ["ewar.settings", "ewar.history", "ewar.welcomed", "ewar.game", "ewar.snapshotLoaded"]) {
    assert.equal(backend.getItem(key), OLD_PROFILE[key], key);
  }
  assert.notEqual(stores.player.playerId(), JSON.parse(OLD_PROFILE["ewar.scores"])["2026-12-01"].player);
});

test("blocked storage loses nothing but the write: every read answers as empty, no call throws", () => {
  const refusing = {
    getItem: () => {
      throw new Error("SecurityError");
    },
    setItem: () => {
      throw new Error("QuotaExceededError");
    },
    removeItem: () => {
      throw new Error("SecurityError");
    },
  };
  const stores = storesOn(refusing);
  assert.equal(stores.settings.saveSettings({ speed: "fast" }).speed, "fast");
  assert.equal(stores.settings.settings().speed, null); // none picked: the engine's default applies
  assert.equal(stores.history.welcomed(), false);
  assert.deepEqual(stores.scores.scoreRecords(DATES), {});
  assert.deepEqual(stores.friends.friendsBoards(), []);
  assert.equal(stores.running.runningGame(), null);
  assert.match(stores.player.playerId(), /^[A-Za-z0-9_-]{32}$/);
  stores.running.clearRunningGame();
  stores.player.forget();
});

test("the clock's store keeps the server's offset under its one key, and reads 0 for nothing or junk", () => {
  const backend = memoryBackend();
  const clockStore = createClockStore(backend);
  assert.equal(clockStore.serverOffset(), 0);
  clockStore.keepServerOffset(-93_000);
  assert.equal(backend.getItem("ewar.serverOffsetMs"), "-93000");
  assert.equal(createClockStore(backend).serverOffset(), -93_000); // the next visit reads it
  backend.setItem("ewar.serverOffsetMs", "soon");
  assert.equal(clockStore.serverOffset(), 0);
});

// What the table draws when (web/js/table/schedule.js): one frame for a burst of views, and the feedback events give.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { createFrameQueue, feedbackOf } from "../../web/js/table/schedule.js";
import { useEngineSettings } from "./engine-settings.mjs";

useEngineSettings();

function frames() {
  const asked = [];
  const drawn = [];
  const queue = createFrameQueue(
    (callback) => asked.push(callback),
    (view, events) => drawn.push({ view, events }),
  );
  const runFrame = () => asked.shift()();
  return { queue, asked, drawn, runFrame };
}

describe("the frame queue", () => {
  test("views between two frames are drawn once: the newest, with every event in order", () => {
    const { queue, asked, drawn, runFrame } = frames();
    queue.put({ n: 1 }, [{ type: "flip", seat: "south" }]);
    queue.put({ n: 2 }, []);
    queue.put({ n: 3 }, [
      { type: "flip", seat: "west" },
      { type: "flip", seat: "north" },
    ]);
    assert.equal(asked.length, 1);
    assert.equal(drawn.length, 0);
    runFrame();
    assert.deepEqual(drawn, [
      { view: { n: 3 }, events: ["south", "west", "north"].map((seat) => ({ type: "flip", seat })) },
    ]);
  });

  test("a view after a frame asks for the next frame; a frame with nothing queued draws nothing", () => {
    const { queue, asked, drawn, runFrame } = frames();
    queue.put({ n: 1 });
    runFrame();
    queue.put({ n: 2 });
    assert.equal(asked.length, 1);
    runFrame();
    queue.flush();
    assert.deepEqual(
      drawn.map((frame) => frame.view.n),
      [1, 2],
    );
  });

  test("flush draws now, and the frame asked for before it then draws nothing twice", () => {
    const { queue, drawn, runFrame } = frames();
    queue.put({ n: 1 }, [{ type: "flip" }]);
    queue.flush();
    runFrame();
    assert.deepEqual(drawn, [{ view: { n: 1 }, events: [{ type: "flip" }] }]);
  });

  test("forgetting the events keeps the view", () => {
    const { queue, drawn, runFrame } = frames();
    queue.put({ n: 1 }, [{ type: "slap_won", seat: "west" }]);
    queue.forgetEvents();
    runFrame();
    assert.deepEqual(drawn, [{ view: { n: 1 }, events: [] }]);
  });
});

describe("the feedback of a frame's events", () => {
  test("your won slap: flash, the pile glows, an urgent message, your reaction time, one sound", () => {
    const slap = { type: "slap_won", seat: "south", pattern: "double", reaction_ms: 512 };
    assert.deepEqual(feedbackOf([slap]), {
      effects: [
        { flash: { seat: "south", key: "flash.slap", params: {}, bad: false } },
        { pile: "won" },
        { toast: { event: slap, bad: false, urgent: true } },
        { reaction: 512 },
      ],
      sounds: ["won"],
    });
  });

  test("another seat's slap: no reaction time, a message that waits its turn, the slap sound", () => {
    const slap = { type: "slap_won", seat: "west", pattern: "sandwich", reaction_ms: 300 };
    const { effects, sounds } = feedbackOf([slap]);
    assert.deepEqual(effects.at(-1), { toast: { event: slap, bad: false, urgent: false } });
    assert.deepEqual(sounds, ["slap"]);
  });

  test("a wrong slap: yours marks the pile and sounds; another seat's is only told", () => {
    const yours = feedbackOf([{ type: "wrong_slap", seat: "south" }]);
    assert.deepEqual(
      yours.effects.map((effect) => Object.keys(effect)[0]),
      ["flash", "pile", "toast"],
    );
    assert.deepEqual(yours.sounds, ["wrong"]);
    const theirs = feedbackOf([{ type: "wrong_slap", seat: "east" }]);
    assert.deepEqual(
      theirs.effects.map((effect) => Object.keys(effect)[0]),
      ["flash", "toast"],
    );
    assert.deepEqual(theirs.sounds, []);
  });

  test("a slap just too late: you are told at once, with no flash, no mark and no sound; another seat's is not told", () => {
    const late = { type: "late_slap", seat: "south", pattern: "double", by: "north", ms: 12 };
    assert.deepEqual(feedbackOf([late]), {
      effects: [{ toast: { event: late, bad: false, urgent: true } }],
      sounds: [],
    });
    assert.deepEqual(feedbackOf([{ ...late, seat: "west" }]), { effects: [], sounds: [] });
  });

  test("a pile taken by a slap is not told twice; taken after a challenge it is", () => {
    const bySlap = feedbackOf([{ type: "pile_taken", seat: "north", cards: 9, how: "slap" }]);
    assert.deepEqual(bySlap.effects, [
      { flash: { seat: "north", key: "flash.taken", params: { count: 9 }, bad: false } },
      { taken: "north" },
    ]);
    const byChallenge = feedbackOf([{ type: "pile_taken", seat: "north", cards: 9, how: "challenge" }]);
    assert.equal(byChallenge.effects.length, 3);
    assert.deepEqual(byChallenge.sounds, ["taken"]);
  });

  test("many flips make one flip sound; events with no feedback give none", () => {
    const events = [{ type: "flip" }, { type: "pay_card" }, { type: "flip" }, { type: "turn" }];
    assert.deepEqual(feedbackOf(events), { effects: [], sounds: ["flip"] });
  });

  test("your being out or eliminated reads as bad news; another seat's does not", () => {
    for (const type of ["player_out", "player_eliminated"]) {
      const toastOf = (seat) => feedbackOf([{ type, seat }]).effects.find((effect) => effect.toast).toast.bad;
      assert.equal(toastOf("south"), true, type);
      assert.equal(toastOf("west"), false, type);
    }
  });
});

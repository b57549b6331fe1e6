// Copies of a game's record, every kind the board must refuse (issue 29), for the tests and
// benchmarks/bench_same_game.mjs: the whole game shifted, each action jittered, slaps added or removed, and
// these combined. Seeded: the same seed makes the same copy.

/** SplitMix32-style generator: a function returning floats in [0, 1), the same for the same seed. */
export function seeded(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return ((z ^ (z >>> 16)) >>> 0) / 2 ** 32;
  };
}

/** The submission window: a record may arrive up to two days after its day began. */
export const WINDOW_MS = 2 * 86_400_000;
export const JITTER_MS = 15;

const sorted = (actions) => [...actions].sort((a, b) => a[0] - b[0]);
const shift = (actions, by) => actions.map(([time, kind]) => [time + by, kind]);

function jitter(actions, random, { alternate = false } = {}) {
  return actions.map(([time, kind], at) => {
    const by = alternate ? (at % 2 ? JITTER_MS : -JITTER_MS) : Math.round((random() * 2 - 1) * JITTER_MS);
    return [time + by, kind];
  });
}

/** `count` slaps (valid or wrong: the record does not say) at random moments of the game. */
function addSlaps(actions, count, random) {
  const first = actions[0][0];
  const span = actions.at(-1)[0] - first;
  const added = Array.from({ length: count }, () => [first + 1 + Math.floor(random() * span), "s"]);
  return sorted([...actions, ...added]);
}

function removeSlaps(actions, count, random) {
  const slaps = actions.flatMap((action, at) => (action[1] === "s" ? [at] : []));
  const gone = new Set();
  while (gone.size < Math.min(count, slaps.length)) gone.add(slaps[Math.floor(random() * slaps.length)]);
  return actions.filter((_, at) => !gone.has(at));
}

/**
 * Every kind of copy of `actions` ([[ms, "f" | "s"]...]) with the draws of `seed`: [{ kind, actions }]. Shifts go up
 * to the submission window; jitters up to ±15 ms on each action; one to three slaps added or removed; combinations.
 */
export function copiesOf(actions, seed) {
  const random = seeded(seed);
  const anyShift = () => 1 + Math.floor(random() * WINDOW_MS);
  const upTo3 = () => 1 + Math.floor(random() * 3);
  return [
    { kind: "identical", actions },
    { kind: "shifted 1 ms", actions: shift(actions, 1) },
    { kind: "shifted up to the window", actions: shift(actions, anyShift()) },
    { kind: "jittered ±15 ms", actions: jitter(actions, random) },
    { kind: "jittered ±15 ms alternately", actions: jitter(actions, random, { alternate: true }) },
    { kind: "slaps added (1-3)", actions: addSlaps(actions, upTo3(), random) },
    { kind: "slaps removed (1-3)", actions: removeSlaps(actions, upTo3(), random) },
    { kind: "3 slaps added", actions: addSlaps(actions, 3, random) },
    { kind: "3 slaps removed", actions: removeSlaps(actions, 3, random) },
    {
      kind: "shifted, jittered, slaps added",
      actions: jitter(addSlaps(shift(actions, anyShift()), upTo3(), random), random),
    },
    {
      kind: "shifted, jittered, slaps removed",
      actions: jitter(removeSlaps(shift(actions, anyShift()), upTo3(), random), random),
    },
    {
      kind: "shifted, jittered, 3 added and 3 removed",
      actions: jitter(addSlaps(removeSlaps(shift(actions, anyShift()), 3, random), 3, random), random, {
        alternate: random() < 0.5,
      }),
    },
  ];
}

/**
 * A person's action list with the draws of `seed` (for stand-in records): `count` actions, each a lognormal-ish
 * 250-2,000 ms after the one before, one in four a slap.
 */
export function personActions(seed, count = 60) {
  const random = seeded(seed);
  let time = 400 + Math.floor(random() * 600);
  return Array.from({ length: count }, () => {
    const action = [time, random() < 0.25 ? "s" : "f"];
    time += Math.round(250 * Math.exp(random() * 2));
    return action;
  });
}

// Drives one game session: starts it through the bridge, sends timed flips and slaps, wakes the engine in a rAF loop.

const MAX_SEED = Number.MAX_SAFE_INTEGER; // 2**53 - 1

/** A fresh deal number in 0..2**53-1 from the platform's cryptographic generator. */
export function randomSeed() {
  const [high, low] = crypto.getRandomValues(new Uint32Array(2));
  return (high & 0x1fffff) * 2 ** 32 + low;
}

/** "12345" -> 12345; anything that is not a whole number in 0..2**53-1 -> null. */
export function parseSeed(text) {
  const trimmed = String(text ?? "").trim();
  if (!/^\d{1,16}$/.test(trimmed)) return null;
  const seed = Number(trimmed);
  return seed <= MAX_SEED ? seed : null;
}

export function todayUtc(now = new Date()) {
  return now.toISOString().slice(0, 10);
}

/**
 * bridge: the ewar.bridge module (a Pyodide proxy). actuator: draws views and events.
 * onOver(view, session) runs once when the engine says the game is over.
 */
export function createGame({ bridge, actuator, onOver }) {
  let session = null;
  let startPerf = 0;
  let lastSent = 0;
  let view = null;
  let running = false;

  function apply(answerJson) {
    const answer = JSON.parse(answerJson);
    view = answer.view;
    actuator.update(view, answer.events);
    return answer;
  }

  /** Game ms for a performance.now()-timeline stamp, never before the last time sent to the engine. */
  function toGameTime(stamp) {
    lastSent = Math.max(lastSent, Math.floor(stamp - startPerf));
    return lastSent;
  }

  /**
   * Start a session. mode "daily" (date required) or "practice" (seed, speed, lenient).
   * Python's None is passed as undefined: Pyodide turns JavaScript null into jsnull, not None.
   */
  function start({ mode, seed, speed = "normal", lenient = false, date }) {
    stop();
    session?.destroy();
    session = mode === "daily"
      ? bridge.new_game("daily", undefined, "normal", false, date)
      : bridge.new_game("practice", seed, speed, Boolean(lenient), undefined);
    actuator.reset();
    startPerf = performance.now();
    lastSent = 0;
    apply(session.frame(0));
    running = true;
    requestAnimationFrame(tick);
    return view;
  }

  function tick() {
    if (!running) return;
    const now = Math.floor(performance.now() - startPerf);
    const due = view.wake_at !== null && now >= view.wake_at;
    const newSecond = Math.floor(now / 1000) !== Math.floor(view.clock / 1000);
    if (due || newSecond) apply(session.frame(toGameTime(performance.now())));
    actuator.flush();
    if (view.over) finish();
    else requestAnimationFrame(tick);
  }

  /** A human intent ("flip" or "slap") at the input event's own timeStamp. */
  function act(intent, timeStamp) {
    if (!running) return null;
    const answer = apply(session[intent](toGameTime(timeStamp)));
    if (view.over) finish();
    return answer;
  }

  function finish() {
    if (!running) return;
    running = false;
    actuator.flush();
    onOver(view, session);
  }

  function stop() {
    running = false;
  }

  return {
    start,
    act,
    stop,
    view: () => view,
    isRunning: () => running,
    replay: () => session?.replay() ?? null,
  };
}

"""The page's shared modules on their own, in the browser: the app's one emitter (web/js/base/events.js) and the
page's clock (web/js/base/clock.js), which gives an input event its own time on real and on faked time alike."""

from __future__ import annotations

EMITTER = """
async () => {
  const { createAppEvents } = await import("./js/base/events.js");
  const events = createAppEvents();
  const heard = [];
  const stop = events.on("state", (state) => heard.push([state.phase, state.panel, state.previous.phase]));
  events.on("language", () => { throw new Error("a listener that fails"); });
  events.on("language", ({ language }) => heard.push(["language", language]));
  events.setState({ phase: "ready", panel: "menu" });
  events.setState({ phase: "ready" });  // nothing changed: nobody hears it
  events.setState({ panel: null, phase: "playing" });
  stop();
  events.setState({ phase: "over", panel: "result" });  // no longer heard
  const reported = [];
  window.addEventListener("error", (event) => { reported.push(event.message); event.preventDefault(); });
  events.emit("language", { language: "fr" });
  const refused = [];
  for (const attempt of [() => events.emit("langauge"), () => events.on("stat", () => {}),
                         () => events.setState({ phase: "paused" }), () => events.setState({ panel: "help" })]) {
    try { attempt(); } catch (error) { refused.push(error.constructor.name + ": " + error.message); }
  }
  return { heard, state: events.state(), reported, refused };
}
"""


def test_the_emitter_tells_each_change_once_and_refuses_unknown_names(bare_page) -> None:
    result = bare_page.evaluate(EMITTER)
    assert result["heard"] == [
        ["ready", "menu", "loading"],
        ["playing", None, "ready"],
        ["language", "fr"],  # heard although the listener before it failed
    ]
    assert result["state"] == {"phase": "over", "panel": "result"}
    assert len(result["reported"]) == 1 and "a listener that fails" in result["reported"][0]
    assert result["refused"] == [
        'TypeError: unknown app event "langauge"',
        'TypeError: unknown app event "stat"',
        'TypeError: unknown phase "paused"',
        'TypeError: unknown panel "help"',
    ]


# An input event, then eventTime() read a while after it (the main thread was busy), with the page's real clock
# and with performance.now() running 5 s ahead of the events' stamps (a fake clock that leaves them alone).
EVENT_TIME = """
async () => {
  const { pageClock } = await import("./js/base/clock.js");
  const busy = (ms) => { const end = performance.now() + ms; while (performance.now() < end) {} };
  const real = performance.now.bind(performance);
  const event = new KeyboardEvent("keydown", { key: "Enter" });
  const stamp = event.timeStamp;
  busy(30);
  const onRealTime = { time: pageClock.eventTime(event), stamp, now: real() };
  const later = new KeyboardEvent("keydown", { key: " " });
  busy(30);
  performance.now = () => real() + 5000;
  try {
    const before = performance.now();
    const time = pageClock.eventTime(later);
    return { onRealTime, onFakeTime: { time, before, after: performance.now() } };
  } finally {
    delete performance.now;
  }
}
"""


def test_an_input_event_keeps_its_own_time_on_real_and_on_fake_time(bare_page) -> None:
    result = bare_page.evaluate(EVENT_TIME)
    real = result["onRealTime"]
    assert real["time"] == real["stamp"]  # exactly the event's own time, however late it is read
    assert real["now"] - real["time"] >= 29
    fake = result["onFakeTime"]
    # Its age (~30 ms) taken back from the faked now: on the faked timeline, never later than now.
    assert fake["before"] - 40 <= fake["time"] <= fake["before"] - 25
    assert fake["time"] <= fake["after"]

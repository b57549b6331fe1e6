"""The page's shared modules on their own, in the browser: the app's one emitter (web/js/base/events.js) and the
page's clock (web/js/base/clock.js), which gives an input event its own time, on the real clock and a test's fake
one alike."""

from __future__ import annotations

from pagedriver import advance, freeze_time, open_held

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


# An input event, then eventTime() read a while after it (the main thread was busy): its own time, never later
# than now.
EVENT_TIME = """
async () => {
  const { pageClock } = await import("./js/base/clock.js");
  const busy = (ms) => { const end = performance.now() + ms; while (performance.now() < end) {} };
  const event = new KeyboardEvent("keydown", { key: "Enter" });
  const stamp = event.timeStamp;
  busy(30);
  return { time: pageClock.eventTime(event), stamp, now: performance.now() };
}
"""


def test_an_input_event_keeps_its_own_time(new_context) -> None:
    """On the real clock: the event's own stamp, however late it is read."""
    page = open_held(new_context(clock=False))
    result = page.evaluate(EVENT_TIME)
    assert result["time"] == result["stamp"]
    assert result["now"] - result["time"] >= 29


def test_an_input_event_s_time_is_on_a_fake_clock_s_timeline_with_no_help_from_the_page(
    bare_page,
) -> None:
    """Playwright's fake clock, installed before the page loaded and paused 5 s on: an event's time is the paused
    clock's now, as the game's clock reads it (the page has no branch for a fake clock)."""
    freeze_time(bare_page)
    advance(bare_page, 5000)
    result = bare_page.evaluate(
        """async () => {
          const { pageClock } = await import("./js/base/clock.js");
          const event = new KeyboardEvent("keydown", { key: " " });
          return { time: pageClock.eventTime(event), now: pageClock.now(), date: Date.now() };
        }"""
    )
    assert result["time"] == result["now"] >= 5000

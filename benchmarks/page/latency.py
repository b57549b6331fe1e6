"""Input latency and long tasks in play: a scripted player presses keys and taps while js/latency_hooks.js
times each input that changed the pile or your pack, to the end of the frame that drew it."""

from __future__ import annotations

import random
import time

from .scripts import page_script
from .stats import percentile
from .visits import READY_TIMEOUT_MS

HOOKS_STATE = (
    "({ samples: window.__latency.samples, unchanged: window.__latency.unchanged,"
    " longTasks: window.__latency.longTasks, longFrames: window.__latency.longFrames,"
    " started: window.__latency.started })"
)


def slappable(view: dict) -> bool:
    top = [card[:-1] for card in view["pile"]["top"]]
    return (len(top) >= 2 and top[-1] == top[-2]) or (len(top) >= 3 and top[-1] == top[-3])


def element_centre(page, selector: str) -> tuple[float, float]:
    box = page.locator(selector).bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def play_for_latency(browser, url: str, inputs: int, max_seconds: float) -> dict:
    """Play fast practice games (snapshot path) until `inputs` inputs were drawn or `max_seconds` passed,
    half keyboard and half pointer; return the latency and long-task figures."""
    context = browser.new_context(
        service_workers="block", viewport={"width": 1280, "height": 800}, bypass_csp=True
    )
    context.add_init_script(page_script("init.js"))
    rng = random.Random(7)
    try:
        page = context.new_page()
        page.goto(url + "?load=snapshot")
        page.wait_for_function("window.__bench.readyAt !== null", timeout=READY_TIMEOUT_MS)
        # As a player does: Deal in the menu (a user gesture: audio is set up there), then fast deals by seed.
        page.click('[data-testid="start"]')
        page.wait_for_function("document.body.dataset.state === 'playing'")
        seed = 1000
        page.evaluate(f"window.ewar.newGame({{ mode: 'practice', seed: {seed}, speed: 'fast' }})")
        page.evaluate(page_script("latency_hooks.js"))
        pack = element_centre(page, '[data-testid="pack-south"]')
        pile = element_centre(page, "#pile")
        games, sent, use_pointer = 1, 0, False
        deadline = time.monotonic() + max_seconds
        while time.monotonic() < deadline:
            view = page.evaluate("window.ewar.view()")
            south = view["seats"][0]
            if view["over"] or south["status"] != "playing":
                seed += 1
                games += 1
                page.evaluate(
                    f"window.ewar.newGame({{ mode: 'practice', seed: {seed}, speed: 'fast' }})"
                )
                continue
            if view["your_turn"]:
                intent = "flip"
            elif slappable(view) or (south["cards"] > 8 and rng.random() < 0.08):
                intent = (
                    "slap"  # a real slap, or now and then a wrong one (a burn changes your pack)
                )
            else:
                page.wait_for_timeout(15)
                continue
            if use_pointer:
                x, y = pack if intent == "flip" else pile
                page.mouse.click(x, y)
            else:
                page.keyboard.press("Enter" if intent == "flip" else " ")
            use_pointer = not use_pointer
            sent += 1
            page.wait_for_timeout(20)
            if (
                sent % 20 == 0
                and page.evaluate(
                    "window.__latency.samples.filter((s) => s.painted !== null).length"
                )
                >= inputs
            ):
                break
        page.wait_for_timeout(200)
        state = page.evaluate(HOOKS_STATE)
    finally:
        context.close()
    return latency_figures(state, sent, games)


def latency_figures(state: dict, sent: int, games: int) -> dict:
    """The figures of one play from what the hooks recorded: latency percentiles (all, by input type),
    the vsync wait and the frame's own work, long tasks and long animation frames."""
    done = [s for s in state["samples"] if s["painted"] is not None]
    latencies = sorted(s["painted"] - s["t0"] for s in done)
    next_frame = sum(1 for s in done if s["framesSkipped"] == 0)
    in_frame = sorted(s["painted"] - s["frame"] for s in done)
    # The part no page can cut: from the input to the start of the next frame (vsync), ~U(0, 16.7 ms) at 60 Hz.
    to_frame = sorted(max(0.0, s["frame"] - s["t0"]) for s in done)
    by_type = {
        kind: sorted(s["painted"] - s["t0"] for s in done if s["type"] == kind)
        for kind in ("keydown", "pointerdown")
    }
    long_tasks = [duration for start, duration in state["longTasks"] if start >= state["started"]]
    frames = [(d, s, w) for start, d, s, w in state["longFrames"] if start >= state["started"]]
    heaviest = sorted(frames, key=lambda frame: -frame[1])[:3]
    return {
        "inputs_sent": sent,
        "samples": len(latencies),
        "unchanged_inputs": state["unchanged"],
        "undrawn_inputs": len(state["samples"]) - len(done),
        "games": games,
        "p50": percentile(latencies, 50),
        "p95": percentile(latencies, 95),
        "max": latencies[-1] if latencies else None,
        "drawn_in_next_frame": next_frame,
        "frame_work_p50": percentile(in_frame, 50),
        "frame_work_p95": percentile(in_frame, 95),
        "wait_for_frame_p50": percentile(to_frame, 50),
        "wait_for_frame_p95": percentile(to_frame, 95),
        "by_type": {
            k: {"n": len(v), "p50": percentile(v, 50), "p95": percentile(v, 95)}
            for k, v in by_type.items()
        },
        "long_tasks": len(long_tasks),
        "longest_task": max(long_tasks, default=0),
        "long_frames": len(frames),
        "longest_frame_script_ms": max((scripts for _d, scripts, _w in frames), default=0),
        "script_ms_in_long_frames": sum(scripts for _d, scripts, _w in frames),
        "frame_ms_in_long_frames": sum(d for d, _scripts, _w in frames),
        "heaviest_scripts": [[round(scripts), where] for _d, scripts, where in heaviest],
    }

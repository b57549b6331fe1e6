// Input latency, evaluated once in a game (page.evaluate calls the function; the results stay in
// window.__latency). An input counts when the engine's view of the pile or of your pack changed (read before
// and after the page's own handler); its latency runs from event.timeStamp to the end of the frame that first
// changed the pile or pack element after it (a message posted from that frame runs once it rendered).
() => {
  const pile = document.getElementById("pile");
  const pack = document.querySelector('[data-testid="pack-south"]');
  const state = { samples: [], unchanged: 0, current: null, longTasks: [], started: performance.now() };
  const snap = () => {
    const v = window.ewar.view();
    return v ? JSON.stringify([v.pile, v.seats[0].cards, v.seats[0].status]) : "";
  };
  const counts = (e) => e.type === "pointerdown" || e.key === "Enter" || e.key === " ";
  window.addEventListener("keydown", onCapture, true);
  window.addEventListener("pointerdown", onCapture, true);
  window.addEventListener("keydown", onBubble);
  window.addEventListener("pointerdown", onBubble);
  function onCapture(e) {
    if (!counts(e)) return;
    state.current = { type: e.type, t0: e.timeStamp, before: snap(), mutated: null, painted: null };
  }
  function onBubble(e) {
    const input = state.current;
    if (!counts(e) || !input || input.t0 !== e.timeStamp) return;
    if (snap() === input.before) {
      state.unchanged += 1;
      if (input.mutated === null) state.current = null;
      return;
    }
    delete input.before;
    state.samples.push(input);
  }
  // Every frame's start (the rAF timestamp), to tell whether a change was drawn in the first frame after input.
  state.frameStarts = [];
  const recordFrame = (ts) => {
    state.frameStarts.push(ts);
    if (state.frameStarts.length > 4000) state.frameStarts.splice(0, 2000);
    requestAnimationFrame(recordFrame);
  };
  requestAnimationFrame(recordFrame);
  const observer = new MutationObserver(() => {
    const input = state.current;
    if (!input || input.mutated !== null) return;
    input.mutated = performance.now();
    input.frame = document.timeline.currentTime; // the start of the frame drawing it (we are inside its rAF)
    input.framesSkipped = state.frameStarts.filter((ts) => ts > input.t0 && ts < input.frame).length;
    state.current = null;
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      input.painted = performance.now();
    };
    channel.port2.postMessage(0);
  });
  const watch = { subtree: true, childList: true, attributes: true, characterData: true };
  observer.observe(pile, watch);
  observer.observe(pack, watch);
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) state.longTasks.push([entry.startTime, entry.duration]);
  }).observe({ type: "longtask" });
  // Long animation frames say whose script took the time: ours (the engine call in game.js) or nobody's.
  state.longFrames = [];
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        const scripts = entry.scripts.reduce((sum, script) => sum + script.duration, 0);
        const top = entry.scripts.reduce((a, b) => (b.duration > (a?.duration ?? -1) ? b : a), null);
        const where = top
          ? `${top.invoker} ${(top.sourceURL || "").split("/").pop()} ${top.sourceFunctionName || ""}`.trim()
          : "";
        state.longFrames.push([entry.startTime, entry.duration, scripts, where]);
      }
    }).observe({ type: "long-animation-frame" });
  } catch {}
  window.__latency = state;
};

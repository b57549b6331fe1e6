// Added to every page before its own scripts: when the body first says "ready", and every long task.
(() => {
  window.__bench = { readyAt: null, longTasks: [] };
  const check = () => {
    if (window.__bench.readyAt === null && document.body?.dataset.state === "ready") {
      window.__bench.readyAt = performance.now();
    }
  };
  new MutationObserver(check).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-state"] });
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__bench.longTasks.push([entry.startTime, entry.duration]);
    }).observe({ type: "longtask", buffered: true });
  } catch {}
})();

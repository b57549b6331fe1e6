// Evaluated once a page is ready (page.evaluate calls the function): its timings, bytes and engine path.
() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const resources = performance.getEntriesByType("resource");
  const fcp = performance.getEntriesByName("first-contentful-paint")[0];
  return {
    ready: window.__bench.readyAt,
    fcp: fcp ? fcp.startTime : null,
    bytes: (nav ? nav.transferSize : 0) + resources.reduce((sum, r) => sum + (r.transferSize || 0), 0),
    files: [
      [location.pathname, nav ? nav.transferSize : 0],
      ...resources.map((r) => [new URL(r.name).pathname, r.transferSize || 0]),
    ],
    path: window.ewar?.engine?.path ?? null,
    reason: window.ewar?.engine?.reason ?? null,
    origin: window.ewar?.engine?.origin ?? null, // a snapshot's: "device" (made by this browser) or "build"
    connection: navigator.connection ? navigator.connection.effectiveType : null,
    // Where the time went: the page's own marks (ms from navigation), the DOM's milestones and the measures.
    marks: Object.fromEntries([
      ["html", nav ? nav.responseEnd : null],
      ["dom-content-loaded", nav ? nav.domContentLoadedEventEnd : null],
      ...performance.getEntriesByType("mark").map((m) => [m.name.replace(/^ewar:/, ""), m.startTime]),
      ...performance.getEntriesByType("measure").map((m) => [`${m.name.replace(/^ewar:/, "")} (ms)`, m.duration]),
    ]),
  };
};

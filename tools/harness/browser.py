"""The browser as the tests (and the benchmarks that compare with them) start and wait on it."""

# V8 compiles Pyodide's 9.6 MB of WebAssembly anew in every fresh context (a test's). Lazily, function by function
# as they are first called, and with the baseline compiler only, a page is ready in about 2/3 of the time.
# --liftoff-only keeps it to that compiler: with --no-wasm-tier-up instead, Chromium 156 still optimized hot
# functions, for ~0.6 s of CPU in a 2 s test game (with it, a page load and a short game take 0.76x the CPU).
# Every new context opens a browser window, and Chromium 156 loads that window's omnibox popup, a WebUI page, in a
# renderer of its own (~150 MB, ~0.5 s of CPU, beside the page under test); the tests never use the address bar.
# benchmarks/ measure the page with Chromium's defaults, as a player's browser has them.
WASM_BASELINE_ONLY = "--js-flags=--wasm-lazy-compilation --liftoff-only"
NO_OMNIBOX_POPUP = "--disable-features=WebUIOmniboxAimPopup,WebUIOmniboxPopup"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    WASM_BASELINE_ONLY,
    NO_OMNIBOX_POPUP,
]

# Resolves when the page is controlled by a worker whose cache holds the whole build.
PRECACHED = """
async () => {
  await window.ewarOffline.registered;
  await navigator.serviceWorker.ready;
  if (!navigator.serviceWorker.controller) {
    await new Promise((resolve) => navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true }));
  }
  return window.ewarOffline.status();
}
"""

"""Offline play, measured in real Chromium: what the first visit transfers (raw, and gzip / brotli as a
CDN would serve it), what the service worker stores, and time to interactive (navigation -> body
state "ready") cold, on a repeat visit served by the worker, and offline.

    python benchmarks/bench_offline.py [--runs 5] [--dist dist] [--chromium /usr/bin/chromium]

Builds dist/ first (a no-op when it is up to date) and serves it with tools/devserver.mjs.
Brotli comes from the `brotli` module when installed, else from Node's zlib (Node is needed anyway).
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from common import CHROMIUM, CHROMIUM_ARGS, ROOT, load_build_module

from tools.harness.browser import PRECACHED  # the offline tests' own wait for a full precache

READY_MS = 120_000
# Types a CDN compresses on the fly (Netlify and others): text, JSON, JavaScript, WebAssembly.
COMPRESSIBLE = (".html", ".js", ".mjs", ".css", ".json", ".webmanifest", ".svg", ".wasm", ".txt")

# Records when the page reaches "ready", on the page's own clock (0 = navigation start).
READY_PROBE = """
(() => {
  const mark = () => {
    if (document.body && document.body.dataset.state === "ready" && !window.__ewarReadyAt) {
      window.__ewarReadyAt = performance.now();
    }
  };
  new MutationObserver(mark).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-state"] });
})();
"""


def brotli_sizes(paths: list[Path]) -> tuple[dict[Path, int], str]:
    """Brotli sizes at quality 11 (precompressed) and 5 (on the fly); keyed by path."""
    try:
        import brotli  # type: ignore[import-not-found]

        return {
            p: (
                len(brotli.compress(p.read_bytes(), quality=11)),
                len(brotli.compress(p.read_bytes(), quality=5)),
            )
            for p in paths
        }, "python brotli"
    except ImportError:
        script = (
            "const z=require('zlib'),fs=require('fs');const out={};"
            "for(const p of JSON.parse(process.argv[1])){const b=fs.readFileSync(p);"
            "const q=(n)=>z.brotliCompressSync(b,{params:{[z.constants.BROTLI_PARAM_QUALITY]:n,"
            "[z.constants.BROTLI_PARAM_SIZE_HINT]:b.length}}).length;out[p]=[q(11),q(5)];}"
            "console.log(JSON.stringify(out));"
        )
        done = subprocess.run(
            ["node", "-e", script, json.dumps([str(p) for p in paths])],
            check=True,
            capture_output=True,
            text=True,
        )
        return {Path(k): tuple(v) for k, v in json.loads(done.stdout).items()}, "node zlib"


def human(n: float) -> str:
    return f"{n / 1e6:8.2f} MB"


def new_context(chromium, url: str, profiles: Path, executable: str | None):
    """A fresh persistent profile, as a player's browser has (an incognito-like context keeps its HTTP
    cache in memory with a small per-entry limit, which would make the worker download the wasm twice)."""
    profile = Path(tempfile.mkdtemp(prefix="profile-", dir=profiles))
    context = chromium.launch_persistent_context(
        profile, executable_path=executable, args=CHROMIUM_ARGS, headless=True, base_url=url
    )
    context.add_init_script(READY_PROBE)
    return context


def ready_ms(page) -> float:
    page.wait_for_function("window.__ewarReadyAt !== undefined", timeout=READY_MS)
    return page.evaluate("window.__ewarReadyAt")


def engine_path(page) -> str:
    return page.evaluate("window.ewar && window.ewar.engine ? window.ewar.engine.path : '?'")


def first_visit(context, url: str) -> dict:
    """A fresh profile: the page loads, then the worker precaches. Counts what came over the network."""
    responses = []
    context.on("response", lambda r: responses.append(r))
    page = context.pages[0] if context.pages else context.new_page()
    page.goto("/")
    tti = ready_ms(page)
    path = engine_path(page)
    status = page.evaluate(PRECACHED)
    page.wait_for_timeout(500)
    rows = []
    for response in responses:
        if not response.url.startswith(url) or "/api/" in response.url:
            continue
        sizes = response.request.sizes()
        rel = response.url[len(url) :].split("?")[0] or "index.html"
        rows.append(
            {
                "file": rel,
                "by_worker": response.request.service_worker is not None,
                "status": response.status,
                "body": sizes["responseBodySize"],
                "headers": sizes["responseHeadersSize"],
            }
        )
    usage = page.evaluate("navigator.storage.estimate().then((e) => e.usage)")
    cached = page.evaluate("""async () => {
        let total = 0, files = 0;
        for (const name of await caches.keys()) {
          const cache = await caches.open(name);
          for (const request of await cache.keys()) {
            total += (await (await cache.match(request)).arrayBuffer()).byteLength;
            files += 1;
          }
        }
        return { total, files };
    }""")
    return {
        "context": context,
        "page": page,
        "tti": tti,
        "path": path,
        "status": status,
        "rows": rows,
        "usage": usage,
        "cached": cached,
    }


def timed_reload(page) -> float:
    page.reload()
    return ready_ms(page)


def main(argv: list[str] | None = None) -> int:
    options = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    options.add_argument("--runs", type=int, default=5)
    options.add_argument("--dist", type=Path, default=ROOT / "dist")
    options.add_argument("--chromium", default=CHROMIUM)
    args = options.parse_args(argv)

    from playwright.sync_api import sync_playwright

    build = load_build_module()
    result = build.build(dist=args.dist, log=lambda _line: None)
    dist = result.dist
    info = json.loads((dist / "build-info.json").read_text())
    print(
        f"build {info['build_id']}  pyodide {info['pyodide_version']}  engine {info['engine_version']}"
        f"  snapshot: {'yes' if info.get('snapshot') else 'no'}"
    )

    with (
        build.DevServer(dist) as url,
        sync_playwright() as playwright,
        tempfile.TemporaryDirectory(prefix="ewar-bench-") as profiles,
    ):
        chromium, executable = playwright.chromium, args.chromium or None
        visit = first_visit(new_context(chromium, url, Path(profiles), executable), url)
        report_bytes(visit, dist)
        try:
            cold, cold_paths = [], set()
            for _ in range(args.runs):
                context = new_context(chromium, url, Path(profiles), executable)
                page = context.pages[0] if context.pages else context.new_page()
                page.goto("/")
                cold.append(ready_ms(page))
                cold_paths.add(engine_path(page))
                context.close()

            page, context = visit["page"], visit["context"]
            repeat, repeat_paths = [], set()
            for _ in range(args.runs):
                repeat.append(timed_reload(page))
                repeat_paths.add(engine_path(page))
            served = page.evaluate("""performance.getEntriesByType("resource").concat(
                performance.getEntriesByType("navigation")).filter((e) => e.name.startsWith(location.origin)
                && !e.name.includes("/api/")).every((e) => e.workerStart > 0)""")

            context.set_offline(True)
            offline, offline_paths = [], set()
            for _ in range(args.runs):
                offline.append(timed_reload(page))
                offline_paths.add(engine_path(page))
        finally:
            visit["context"].close()

    print()
    print(f"Time to interactive (navigation -> ready), {args.runs} runs each, ms:")
    print(f"  first visit        {visit['tti']:8.0f}               (engine via {visit['path']})")
    for name, runs, paths in (
        ("cold (new profile)", cold, cold_paths),
        ("repeat, by worker", repeat, repeat_paths),
        ("offline", offline, offline_paths),
    ):
        print(
            f"  {name:<18} {statistics.median(runs):8.0f} median  "
            f"[{min(runs):.0f}..{max(runs):.0f}]  (engine via {'/'.join(sorted(paths))})"
        )
    c = statistics.median(cold)
    print(
        f"  repeat / cold = {statistics.median(repeat) / c:.2f}, offline / cold = {statistics.median(offline) / c:.2f}"
        f"  (aim: < 1.5 s and <= 0.5)"
    )
    print(f"  every same-origin file of the repeat visit came through the worker: {served}")
    return 0


def report_bytes(visit: dict, dist: Path) -> None:
    rows = visit["rows"]
    page_rows = [r for r in rows if not r["by_worker"]]
    worker_rows = [r for r in rows if r["by_worker"]]

    def wire(selected):
        return sum(max(r["body"], 0) + max(r["headers"], 0) for r in selected)

    files = sorted({r["file"] for r in rows if (dist / r["file"]).is_file()})
    paths = [dist / f for f in files]
    br, brotli_from = brotli_sizes([p for p in paths if p.suffix in COMPRESSIBLE])
    raw = gz = br11 = br5 = 0
    for p in paths:
        data = p.read_bytes()
        raw += len(data)
        if p.suffix in COMPRESSIBLE:
            gz += len(gzip.compress(data, 6))
            br11 += br[p][0]
            br5 += br[p][1]
        else:
            gz += len(data)
            br11 += len(data)
            br5 += len(data)
    status = visit["status"]
    print()
    print("First visit (new profile, local dev server, no compression):")
    print(f"  page requests       {len(page_rows):3d}  {human(wire(page_rows))} on the wire")
    print(
        f"  worker precache     {len(worker_rows):3d}  {human(wire(worker_rows))} on the wire"
        f"  ({sum(1 for r in worker_rows if r['body'] == 0)} revalidated from the HTTP cache: 304, no body)"
    )
    print(f"  total               {len(rows):3d}  {human(wire(rows))}")
    print(
        f"Those {len(files)} distinct files as a CDN would send them (already-compressed .zip/.whl/.gz/.png as is):"
    )
    print(f"  raw                 {human(raw)}")
    print(f"  gzip -6             {human(gz)}")
    print(
        f"  brotli q5 (on the fly) {human(br5)}   brotli q11 (precompressed) {human(br11)}   [{brotli_from}]"
    )
    print("Stored by the worker:")
    print(
        f"  cache {status['cache']}: {status['files']} files, {human(status['bytes'])} listed in sw.js"
    )
    print(
        f"  Cache Storage bodies {human(visit['cached']['total'])} in {visit['cached']['files']} entries;"
        f" navigator.storage usage {human(visit['usage'])}"
    )


if __name__ == "__main__":
    sys.exit(main())

"""The game page in real Chromium, measured (benchmarks/bench_page.py is its command line).

serve: the copy of dist/ and the bare loadPyodide() page; visits: one page visit (profile, readiness, load facts);
first_visit: first visits through the CDN stand-in; load_paths: cold/warm/throttled loads of each path;
latency: input latency and long tasks in play; stats, report and chart: what is printed and drawn;
runner: one run of all that; js/ (read by scripts): the JavaScript the page runs for them.
"""

# benchmarks/common.py puts the checkout on the path: tools/harness/ (build_module, network_link) serves the benchmarks too.
import common  # noqa: F401, E402

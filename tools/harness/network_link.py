"""A network link (and a CPU slow-down) emulated on a page over the DevTools Protocol: for the browser tests
and the page benchmarks."""

from __future__ import annotations


def emulate_link(page, mbps: float, rtt_ms: float, cpu: float | None = None) -> None:
    """Throttle this page's network to `mbps` both ways with `rtt_ms` of latency; slow its CPU `cpu` times
    when given."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    rate = mbps * 1_000_000 / 8
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": rtt_ms, "downloadThroughput": rate, "uploadThroughput": rate},
    )
    if cpu is not None:
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": cpu})

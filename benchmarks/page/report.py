"""What a run prints: the first visits, the load-path tables and the play figures, as plain-text tables."""

from __future__ import annotations

import os

from .first_visit import phone_link
from .load_paths import RTT_MS


def seconds(ms: float | None) -> str:
    return "—" if ms is None else f"{ms / 1000:.2f} s"


def megabytes(n: float) -> str:
    return f"{n / 1e6:.2f} MB"


def table(rows: list[list[str]], header: list[str]) -> str:
    widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(len(header))]

    def line(cells: list[str]) -> str:
        return "  ".join(str(c).ljust(w) for c, w in zip(cells, widths)).rstrip()

    return "\n".join([line(header), line(["-" * w for w in widths]), *map(line, rows)])


def first_visit_report(results: dict) -> list[str]:
    out = [
        "",
        (
            f"First visit through a CDN stand-in (tools/builder/cdn.py: brotli q{results['brotli_quality']} for text"
            " and wasm, as sent, headers included): fresh profile, page + the offline precache after it"
        ),
    ]
    for link_name, pages in results["links"].items():
        bare = pages["bare loadPyodide"]
        rows = []
        for name, v in pages.items():
            rows.append(
                [
                    name + ("" if name.startswith("bare") else f" ({'/'.join(v['paths'])})"),
                    seconds(v["cold_tti_ms"]),
                    f"{v['cold_tti_ms'] / bare['cold_tti_ms']:.2f}",
                    seconds(v["warm_tti_ms"]),
                    megabytes(v["page_bytes"]),
                    megabytes(v["precache_bytes"]),
                    megabytes(v["total_bytes"]),
                    "yes" if v["total_bytes"] <= results["budget"] else "NO",
                ]
            )
        title = "unthrottled" if link_name == "unthrottled" else f"phone link: {phone_link()}"
        out += [
            f"{title} (median of {len(bare['cold_tti_all_ms'])}; runs cold ms: "
            + "; ".join(f"{name}: {v['cold_tti_all_ms']}" for name, v in pages.items())
            + ")",
            table(
                rows,
                [
                    "page",
                    "TTI cold",
                    "vs bare",
                    "TTI repeat",
                    "page bytes",
                    "precache",
                    "first visit",
                    "<= 5 MB",
                ],
            ),
        ]
    ours = results["links"]["unthrottled"]["our page (its own choice)"]
    files = sorted({**ours["page_files"]}.items(), key=lambda item: -item[1])
    rows = [
        [path, megabytes(sent), megabytes(ours["precache_files"].get(path, 0))]
        for path, sent in files[:14]
    ]
    extra = {p: s for p, s in ours["precache_files"].items() if p not in ours["page_files"]}
    rows += [
        [path + " (precache only)", megabytes(0), megabytes(sent)]
        for path, sent in extra.items()
        if sent > 2000
    ]
    out += [
        "Our page's first visit (unthrottled), by file",
        table(rows, ["file", "page", "precache"]),
    ]
    return out


def play_report(play: dict, title: str) -> list[str]:
    """The input-latency and long-task lines of one build's play."""
    out: list[str] = []
    rows = [
        [
            "all",
            str(play["samples"]),
            f"{play['p50']:.1f} ms",
            f"{play['p95']:.1f} ms",
            f"{play['max']:.1f} ms",
        ]
    ]
    for kind, v in play["by_type"].items():
        if v["n"]:
            rows.append([kind, str(v["n"]), f"{v['p50']:.1f} ms", f"{v['p95']:.1f} ms", ""])
    out += [
        "",
        (
            f"Input -> pile/pack drawn, {title} ({play['inputs_sent']} inputs sent over {play['games']} games"
            f" at fast speed; {play['unchanged_inputs']} changed nothing,"
            f" {play['undrawn_inputs']} not drawn before the next input)"
        ),
        table(rows, ["inputs", "n", "p50", "p95", "max"]),
        (
            f"Drawn in the first frame after the input: {play['drawn_in_next_frame']} of"
            f" {play['samples']}; input -> that frame's start (waiting for vsync): p50"
            f" {play['wait_for_frame_p50']:.1f} ms, p95 {play['wait_for_frame_p95']:.1f} ms;"
            f" frame start -> rendered: p50 {play['frame_work_p50']:.1f} ms,"
            f" p95 {play['frame_work_p95']:.1f} ms"
        ),
        f"Long tasks (> 50 ms) during play: {play['long_tasks']}, longest {play['longest_task']:.0f} ms",
        (
            f"Long animation frames (> 50 ms): {play['long_frames']}, in which scripts ran"
            f" {play['script_ms_in_long_frames']:.0f} of {play['frame_ms_in_long_frames']:.0f} ms"
            f" (longest script share in one frame {play['longest_frame_script_ms']:.0f} ms;"
            f" heaviest: {play['heaviest_scripts']})"
        ),
    ]
    return out


def report(results: dict) -> str:
    machine = (
        f"Machine: {os.cpu_count()} cores, load average {results['load_before']} before and"
        f" {results['load_after']} after (other processes share the CPU: compare with care)"
    )
    first = first_visit_report(results["first_visit"]) if results.get("first_visit") else []
    if not results["variants"]:
        return "\n".join([machine, *first])
    return "\n".join([machine, *first, "", page_report(results)])


def page_report(results: dict) -> str:
    variants = results["variants"]
    bare = variants["bare loadPyodide"]
    rows = []
    for name, v in variants.items():
        ratio_cold = v["cold_tti_ms"] / bare["cold_tti_ms"]
        ratio_warm = v["warm_tti_ms"] / bare["warm_tti_ms"]
        rows.append(
            [
                name + (f" ({v['path']})" if name == "default policy" else ""),
                seconds(v["fcp_ms"]),
                seconds(v["cold_tti_ms"]),
                seconds(v["warm_tti_ms"]),
                f"{ratio_cold:.2f} / {ratio_warm:.2f}",
                megabytes(v["cold_bytes"]),
                megabytes(v["cold_bytes_gzip"]),
            ]
        )
    out = [
        f"Page load (median of {results['runs']} runs; cold = empty profile, warm = second visit, disk cache)",
        table(
            rows,
            ["page", "FCP", "TTI cold", "TTI warm", "vs bare cold/warm", "cold bytes", "≈ gzip -6"],
        ),
        "runs (ms): "
        + "; ".join(
            f"{name}: cold {v['cold_tti_all_ms']} warm {v['warm_tti_all_ms']}"
            for name, v in variants.items()
        ),
    ]
    sw = results.get("service_worker_repeat")
    if sw:
        out.append(
            f"Repeat visit served by the service worker: TTI {seconds(sw['ready'])} via {sw['path']} "
            f"({sw['reason']}), {megabytes(sw['bytes'])} from the network"
        )
    if results["throttled"]:
        baseline = [name for name in variants if name.startswith("baseline")]
        rows = []
        for mbps, row in results["throttled"].items():
            rows.append(
                [
                    f"{mbps} Mbps, {RTT_MS} ms RTT",
                    seconds(row["bare loadPyodide"]["cold_tti_ms"]),
                    seconds(row["micropip path"]["cold_tti_ms"]),
                    seconds(row["snapshot path"]["cold_tti_ms"]),
                    f"{seconds(row['default policy']['cold_tti_ms'])} ({row['default policy']['path']})",
                    str(row["default policy"]["connection"]),
                    *(seconds(row[name]["cold_tti_ms"]) for name in baseline),
                ]
            )
        header = [
            "network",
            "bare",
            "micropip",
            "snapshot",
            "default policy",
            "effectiveType",
            *baseline,
        ]
        out += ["", "Cold loads under DevTools throttling", table(rows, header)]
    for key, title in (("play", "this build"), ("play_baseline", "the baseline build")):
        if results.get(key):
            out += play_report(results[key], title)
    return "\n".join(out)

"""The first visits drawn: cold TTI against bare Pyodide per link, and bytes against the budget (SVG)."""

from __future__ import annotations

from .first_visit import FIRST_VISIT_PAGES, phone_link


def first_visit_chart(results: dict) -> str:
    """An SVG of the first visits: cold TTI against bare Pyodide per link, and bytes against the budget."""
    from html import escape

    pages = list(FIRST_VISIT_PAGES)
    colours = {
        "bare loadPyodide": "#8a8a8a",
        "our page (its own choice)": "#1f77b4",
        "micropip path": "#2ca02c",
        "snapshot path": "#d62728",
    }
    links = results["links"]
    width, left, bar, gap = 800, 210, 16, 6
    panel_height = len(pages) * (bar + gap) + 30
    height = 40 + panel_height * (len(links) + 1) + 30
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        'font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        '<text x="10" y="22" font-size="15" font-weight="bold">A first visit (fresh profile): time to interactive '
        "and bytes as a CDN sends them</text>",
    ]

    def panel(
        top: float, title: str, values: dict[str, float], unit: str, limit: float | None
    ) -> None:
        top_value = max([*values.values(), limit or 0]) * 1.15
        scale = (width - left - 60) / top_value
        parts.append(f'<text x="10" y="{top + 14}" font-weight="bold">{escape(title)}</text>')
        if limit:  # drawn first: the bars and their labels go over it
            x = left + limit * scale
            bottom = top + 24 + len(pages) * (bar + gap)
            parts.append(
                f'<line x1="{x:.1f}" y1="{top + 20}" x2="{x:.1f}" y2="{bottom}" stroke="black" '
                'stroke-dasharray="4 3"/>'
            )
            parts.append(
                f'<text x="{x + 3:.1f}" y="{bottom + 10}" font-size="11">{limit:g} {unit} budget</text>'
            )
        for index, name in enumerate(pages):
            y = top + 24 + index * (bar + gap)
            value = values[name]
            parts.append(
                f'<text x="{left - 8}" y="{y + bar - 4}" text-anchor="end">{escape(name)}</text>'
            )
            parts.append(
                f'<rect x="{left}" y="{y}" width="{value * scale:.1f}" height="{bar}" fill="{colours[name]}"/>'
            )
            label = f"{value:.2f} {unit}"
            if unit == "s":
                label += f" ({value / values[pages[0]]:.2f}× bare)"
            parts.append(
                f'<text x="{left + value * scale + 4:.1f}" y="{y + bar - 4}" stroke="white" '
                f'stroke-width="3" paint-order="stroke">{label}</text>'
            )

    top = 40.0
    for link_name, measured in links.items():
        title = (
            "Time to interactive, unthrottled (median)"
            if link_name == "unthrottled"
            else f"Time to interactive, phone link: {phone_link()} (median)"
        )
        panel(top, title, {name: measured[name]["cold_tti_ms"] / 1000 for name in pages}, "s", None)
        top += panel_height
    bytes_title = f"First visit: page + offline precache (brotli q{results['brotli_quality']} as the CDN stand-in sends)"
    first = links["unthrottled"]
    panel(
        top,
        bytes_title,
        {name: first[name]["total_bytes"] / 1e6 for name in pages},
        "MB",
        results["budget"] / 1e6,
    )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"

"""Static SVG charts for the report: plain markup, no scripts, readable in print.

>>> '<svg' in sparkline_bars([1, 3, 2], width=30, height=10, label="demo")
True
"""

from __future__ import annotations

from html import escape
from typing import List, Optional, Sequence, Tuple

# Okabe–Ito (colour-blind safe), then Tableau 20's darker tones for more than eight systems.
PALETTE = ["#000000", "#E69F00", "#56B4E9", "#009E73", "#D55E00", "#0072B2", "#CC79A7", "#F0E442",
           "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
           "#bcbd22", "#17becf", "#393b79", "#637939"]
MARKERS = ["circle", "square", "triangle", "diamond"]


def _isolated(text: str) -> str:
    """Text for an SVG ``<text>``/``<title>`` (no ``<bdi>`` there): escaped and wrapped in U+2068/U+2069 (first strong
    isolate … pop directional isolate), so direction controls in a system name stay inside it."""
    return f"\u2068{escape(text)}\u2069"


def colour(index: int) -> str:
    return PALETTE[index % len(PALETTE)]


def _num(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def sparkline_bars(counts: Sequence[int], width: int = 120, height: int = 28, label: str = "",
                   fill: str = "#4a6fa5") -> str:
    """A tiny bar chart (one bar per bin), with an accessible title."""
    top = max(max(counts, default=0), 1)
    bar = width / max(len(counts), 1)
    bars = []
    for index, count in enumerate(counts):
        h = height * count / top
        bars.append(f'<rect x="{_num(index * bar + 0.5)}" y="{_num(height - h)}" width="{_num(bar - 1)}" '
                    f'height="{_num(h)}" fill="{fill}"/>')
    return (f'<svg class="spark" role="img" width="{width}" height="{height}" viewBox="0 0 {width} {height}">'
            f'<title>{_isolated(label)}</title><line x1="0" y1="{height}" x2="{width}" y2="{height}" stroke="#999"/>'
            + "".join(bars) + "</svg>")


def stacked_bar(parts: Sequence[Tuple[int, str, str]], width: int = 220, height: int = 16) -> str:
    """One horizontal bar split into (count, colour, name) parts."""
    total = max(sum(count for count, _, _ in parts), 1)
    x, rects, titles = 0.0, [], []
    for count, fill, name in parts:
        w = width * count / total
        rects.append(f'<rect x="{_num(x)}" y="0" width="{_num(w)}" height="{height}" fill="{fill}">'
                     f'<title>{_isolated(name)}: {count}</title></rect>')
        titles.append(f"\u2068{name}\u2069 {count}")
        x += w
    return (f'<svg class="bar" role="img" width="{width}" height="{height}" viewBox="0 0 {width} {height}">'
            f'<title>{escape(", ".join(titles))}</title>' + "".join(rects) + "</svg>")


def line_chart(labels: Sequence[str], series: Sequence[Tuple[str, Sequence[Optional[float]]]], y_max: float,
               y_label: str, width: int = 640, height: int = 260) -> str:
    """Lines over categorical x labels, one per (name, values) series, with a legend beside."""
    left, right, top, bottom = 44, 170, 10, 40
    plot_w, plot_h = width - left - right, height - top - bottom
    step = plot_w / max(len(labels) - 1, 1)
    parts = [f'<svg class="chart" role="img" width="{width}" height="{height}" viewBox="0 0 {width} {height}">',
             f"<title>{escape(y_label)}</title>"]
    for tick in range(0, 5):
        value = y_max * tick / 4
        y = top + plot_h - plot_h * tick / 4
        parts.append(f'<line x1="{left}" y1="{_num(y)}" x2="{left + plot_w}" y2="{_num(y)}" stroke="#ddd"/>')
        parts.append(f'<text x="{left - 4}" y="{_num(y + 4)}" text-anchor="end" class="tick">{value:.2g}</text>')
    for index, label in enumerate(labels):
        x = left + index * step
        parts.append(f'<text x="{_num(x)}" y="{top + plot_h + 16}" text-anchor="middle" class="tick">{escape(label)}</text>')
    parts.append(f'<text x="{left + plot_w / 2:.0f}" y="{height - 4}" text-anchor="middle" class="tick">'
                 f"{escape(y_label)}</text>")
    for number, (name, values) in enumerate(series):
        points = [(left + i * step, top + plot_h - plot_h * min(v, y_max) / y_max)
                  for i, v in enumerate(values) if v is not None]
        stroke = colour(number)
        dash = ' stroke-dasharray="5 3"' if number >= 8 else ""
        if len(points) > 1:
            parts.append(f'<polyline fill="none" stroke="{stroke}" stroke-width="1.6"{dash} points="'
                         + " ".join(f"{_num(x)},{_num(y)}" for x, y in points) + '"/>')
        for x, y in points:
            parts.append(_marker(number, x, y, stroke))
        legend_y = top + 12 + number * 14
        parts.append(_marker(number, left + plot_w + 14, legend_y - 4, stroke))
        parts.append(f'<text x="{left + plot_w + 24}" y="{legend_y}" class="legend">{_isolated(name)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _marker(number: int, x: float, y: float, fill: str) -> str:
    shape = MARKERS[number % len(MARKERS)] if number >= 8 else "circle"  # past 8 colours, shapes tell lines apart
    if shape == "square":
        return f'<rect x="{_num(x - 3)}" y="{_num(y - 3)}" width="6" height="6" fill="{fill}"/>'
    if shape == "triangle":
        return f'<polygon points="{_num(x)},{_num(y - 4)} {_num(x - 4)},{_num(y + 3)} {_num(x + 4)},{_num(y + 3)}" fill="{fill}"/>'
    if shape == "diamond":
        return f'<polygon points="{_num(x)},{_num(y - 4)} {_num(x - 4)},{_num(y)} {_num(x)},{_num(y + 4)} {_num(x + 4)},{_num(y)}" fill="{fill}"/>'
    return f'<circle cx="{_num(x)}" cy="{_num(y)}" r="3" fill="{fill}"/>'


def scatter(xs: Sequence[float], ys: Sequence[float], top: float, x_label: str, y_label: str,
            size: int = 190) -> str:
    """System (y) against baseline (x) per segment, with the diagonal; points above it favour the system."""
    pad = 26
    plot = size - 2 * pad
    scale = plot / top if top else 1.0
    parts = [f'<svg class="scatter" role="img" width="{size}" height="{size}" viewBox="0 0 {size} {size}">',
             f"<title>{_isolated(y_label)} against {_isolated(x_label)}</title>",
             f'<rect x="{pad}" y="{pad}" width="{plot}" height="{plot}" fill="none" stroke="#999"/>',
             f'<line x1="{pad}" y1="{pad + plot}" x2="{pad + plot}" y2="{pad}" stroke="#999" stroke-dasharray="3 3"/>']
    for x, y in zip(xs, ys):
        cx = pad + min(max(x, 0.0), top) * scale
        cy = pad + plot - min(max(y, 0.0), top) * scale
        parts.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="1.6" fill="#0072B2" fill-opacity="0.45"/>')
    parts.append(f'<text x="{pad + plot / 2:.0f}" y="{size - 6}" text-anchor="middle" class="tick">{_isolated(x_label)}</text>')
    parts.append(f'<text x="10" y="{pad + plot / 2:.0f}" text-anchor="middle" class="tick" '
                 f'transform="rotate(-90 10 {pad + plot / 2:.0f})">{_isolated(y_label)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def shade(value: Optional[float], low: float, high: float) -> str:
    """A background colour for a heat-map cell: light to darker blue over [low, high]."""
    if value is None or high <= low:
        return ""
    t = min(max((value - low) / (high - low), 0.0), 1.0)
    lightness = 97 - 35 * t
    return f"background:hsl(210,60%,{lightness:.0f}%)"


def legend_items(names: List[str]) -> str:
    return "".join(f'<span class="key"><span class="swatch" style="background:{colour(i)}"></span><bdi>{escape(n)}</bdi></span>'
                   for i, n in enumerate(names))

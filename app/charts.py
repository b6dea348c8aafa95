"""Server-rendered SVG charts, so the pages need no charting script (and pass a strict CSP)."""

from flask_babel import format_percent, gettext
from markupsafe import Markup, escape

WIDTH, HEIGHT = 560, 260
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 16, 40


def reach_chart(reached, key="reach"):
    """Bar chart of ``{tile: share}``; shares are 0..1, in the reader's language.

    ``key`` tells the charts of one page apart (their titles' ids).
    """
    title = gettext("Share of games that reached each tile")
    tiles = list(reached)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    slot = plot_w / max(len(tiles), 1)
    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-labelledby="chart-title-{key}" '
        f'xmlns="http://www.w3.org/2000/svg"><title id="chart-title-{key}">{escape(title)}</title>'
    ]
    for percent in range(0, 101, 25):
        y = TOP + plot_h * (1 - percent / 100)
        parts.append(
            f'<line class="chart-grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" y2="{y:.1f}"/>'
            f'<text class="chart-axis" x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">'
            f"{format_percent(percent / 100)}</text>"
        )
    for index, tile in enumerate(tiles):
        share = float(reached[tile])
        x = LEFT + index * slot + slot * 0.2
        bar_h = plot_h * share
        label = f"{tile}: {format_percent(share)}"
        parts.append(
            f'<rect class="chart-bar" x="{x:.1f}" y="{TOP + plot_h - bar_h:.1f}" width="{slot * 0.6:.1f}" '
            f'height="{bar_h:.1f}"><title>{escape(label)}</title></rect>'
            f'<text class="chart-value" x="{x + slot * 0.3:.1f}" y="{TOP + plot_h - bar_h - 4:.1f}" '
            f'text-anchor="middle">{format_percent(share)}</text>'
            f'<text class="chart-axis" x="{x + slot * 0.3:.1f}" y="{HEIGHT - BOTTOM + 18}" text-anchor="middle">'
            f"{escape(tile)}</text>"
        )
    parts.append("</svg>")
    return Markup("".join(parts))

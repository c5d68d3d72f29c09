"""A line chart of every player's total after each round (flet-charts)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import flet as ft
import flet_charts as fch

from app.i18n import _
from app.ui.widgets import player_colour


def _nice_step(span: float) -> int:
    """A round step for about four grid lines over ``span`` points."""
    raw = max(span / 4, 1)
    magnitude = 10 ** (len(str(int(raw))) - 1)
    for m in (1, 2, 5, 10):
        if raw <= m * magnitude:
            return int(m * magnitude)
    return int(10 * magnitude)


def totals_chart(
    players: Sequence[str], running: Sequence[Mapping[str, int]], height: int = 190
) -> ft.Control:
    """The chart with its legend; round 0 is everybody at 0.

    Args:
        players: names in seat order (the colours follow the seats).
        running: per round, each player's total after it (``Standings.running``).
    """
    points = [dict.fromkeys(players, 0), *running]
    values = [v for row in points for v in row.values()] or [0]
    lo, hi = min(values), max(values)
    if lo == hi:
        lo, hi = lo - 10, hi + 10
    step = _nice_step(hi - lo)
    lo = (lo // step) * step
    hi = -((-hi) // step) * step
    n = len(points) - 1
    series = [
        fch.LineChartData(
            points=[
                fch.LineChartDataPoint(x=x, y=row.get(p, 0), tooltip=f"{p}: {row.get(p, 0)}")
                for x, row in enumerate(points)
            ],
            color=player_colour(i),
            stroke_width=3,
            point=n <= 30,
        )
        for i, p in enumerate(players)
    ]
    x_step = max(1, -(-n // 8))
    chart = fch.LineChart(
        data_series=series,
        min_x=0,
        max_x=max(n, 1),
        min_y=lo,
        max_y=hi,
        height=height,
        interactive=True,
        horizontal_grid_lines=fch.ChartGridLines(
            interval=step, width=1, color=ft.Colors.BLUE_GREY_100
        ),
        left_axis=fch.ChartAxis(label_size=44, label_spacing=step),
        bottom_axis=fch.ChartAxis(
            label_size=22,
            labels=[
                fch.ChartAxisLabel(value=x, label=ft.Text(str(x), size=11))
                for x in range(0, n + 1, x_step)
            ],
        ),
        border=ft.Border.all(1, ft.Colors.BLUE_GREY_100),
    )
    legend = ft.Row(
        [
            ft.Row(
                [
                    ft.Container(width=14, height=4, bgcolor=player_colour(i)),
                    ft.Text(p, size=13),
                ],
                spacing=4,
            )
            for i, p in enumerate(players)
        ],
        wrap=True,
        spacing=14,
    )
    last = points[-1]
    summary = _("Chart of the totals over {n} rounds; now {totals}").format(
        n=n, totals=", ".join(f"{p} {last.get(p, 0)}" for p in players)
    )
    return ft.Semantics(
        label=summary,
        container=True,
        # right padding: the last x-axis label is centred on the chart's edge and was cut off
        content=ft.Column(
            [ft.Container(chart, padding=ft.Padding.only(right=14)), legend], spacing=6
        ),
    )

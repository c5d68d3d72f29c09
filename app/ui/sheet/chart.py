"""A line chart of every player's total after each round (flet-charts).

A long game is drawn from at most :data:`MAX_POINTS` points per player (:func:`sample_rounds`):
what a phone is sent and what its session keeps stays the same size however long the game.
:class:`TotalsChart` can be brought up to date in place (:meth:`TotalsChart.set_totals`): the
points that did not change stay the same objects, so Flet sends a watching phone only the
new ones.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import flet as ft
import flet_charts as fch

from app.i18n import _, ngettext
from app.ui.common.widgets import number, player_colour

MAX_POINTS = 41
"""Most points drawn per player: round 0, then every ``step``-th round, and the last round."""
MARKERS_UP_TO = 30
"""Rounds up to which every point gets a marker."""


def _nice_step(span: float) -> int:
    """A round step for about four grid lines over ``span`` points."""
    raw = max(span / 4, 1)
    magnitude = 10 ** (len(str(int(raw))) - 1)
    for m in (1, 2, 5, 10):
        if raw <= m * magnitude:
            return int(m * magnitude)
    return int(10 * magnitude)


def sample_rounds(n: int, max_points: int = MAX_POINTS) -> list[int]:
    """The rounds (x values, 0 = before the first round) the chart draws for ``n`` rounds.

    Every round while they fit in ``max_points``; else round 0, every ``step``-th round with
    ``step`` the smallest power of two that fits, and round ``n``. A power of two keeps the
    drawn rounds the same while a game grows, so adding a round usually adds or moves only
    the last point.

    Returns:
        Increasing x values from 0 to ``n``; at most ``max_points`` (≥ 3) of them.
    """
    if n + 1 <= max_points:
        return list(range(n + 1))
    step = 1
    while -(-n // step) + 1 > max_points:  # 0, step, 2·step … below n, and n itself
        step *= 2
    xs = list(range(0, n, step))
    xs.append(n)
    return xs


def final_differs(
    players: Sequence[str],
    running: Sequence[Mapping[str, int]],
    final: Mapping[str, int] | None,
) -> bool:
    """Do the game's totals ``final`` (game-end bonuses included) differ from the sums of the
    rounds (the last of ``running``)? Then the chart ends with one more point: the totals."""
    if final is None or not running:
        return False
    last = running[-1]
    return any(final.get(p, 0) != last.get(p, 0) for p in players)


def chart_points(
    players: Sequence[str],
    running: Sequence[Mapping[str, int]],
    max_points: int = MAX_POINTS,
    final: Mapping[str, int] | None = None,
) -> dict[str, list[tuple[int, int]]]:
    """What the chart draws: per player, ``(round, total after it)`` at :func:`sample_rounds`,
    and, where the game's totals ``final`` differ from the last round's (game-end bonuses:
    gin's boxes and game bonus, Carousel's round bonuses …), a last point ``(rounds + 1,
    final total)``: the chart ends on the totals the sheet shows (issue 10, point 10).

    Args:
        players: names in seat order.
        running: per round, each player's total after it (``Standings.running``).
        final: the game's totals (``Standings.totals``), or None.
    """
    xs = sample_rounds(len(running), max_points)
    out = {p: [(x, running[x - 1].get(p, 0) if x else 0) for x in xs] for p in players}
    if final is not None and final_differs(players, running, final):
        for p in players:
            out[p].append((len(running) + 1, final.get(p, 0)))
    return out


def _y_range(
    players: Sequence[str],
    running: Sequence[Mapping[str, int]],
    final: Mapping[str, int] | None = None,
) -> tuple[int, int, int]:
    """Lowest and highest gridline and the grid step; over every round, drawn or not, and the
    final totals."""
    lo = hi = 0
    for row in [*running, *([final] if final is not None else [])]:
        for p in players:
            v = row.get(p, 0)
            if v < lo:
                lo = v
            elif v > hi:
                hi = v
    if lo == hi:
        lo, hi = lo - 10, hi + 10
    step = _nice_step(hi - lo)
    return (lo // step) * step, -((-hi) // step) * step, step


def _point(player: str, x: int, y: int) -> fch.LineChartDataPoint:
    """A point of the chart. A point never changes once made (a moved point is a new one), so
    it is isolated for Flet: sending the chart does not walk into the points it keeps. The
    tooltip is given as an object: as a string Flet makes a new one at every update and sends
    every point again."""
    point = fch.LineChartDataPoint(
        x=x, y=y, tooltip=fch.LineChartDataPointTooltip(text=f"{player}: {number(y)}")
    )
    object.__setattr__(point, "_isolated", True)
    return point


class TotalsChart:
    """The chart with its legend; round 0 is everybody at 0.

    Attributes:
        control: the control to put on the screen.
        chart: the ``LineChart`` inside it.
        points: what is drawn now (:func:`chart_points`).

    Args:
        players: names in seat order (the colours follow the seats).
        running: per round, each player's total after it (``Standings.running``).
        final: the game's totals with the game-end bonuses (``Standings.totals``): where they
            differ from the last round's, the chart ends on them (:func:`chart_points`).
    """

    def __init__(
        self,
        players: Sequence[str],
        running: Sequence[Mapping[str, int]],
        final: Mapping[str, int] | None = None,
        height: int = 190,
    ) -> None:
        self.players = list(players)
        self.series = [
            fch.LineChartData(points=[], color=player_colour(i), stroke_width=3)
            for i in range(len(self.players))
        ]
        self.chart = fch.LineChart(
            data_series=self.series,
            min_x=0,
            max_x=1,
            height=height,
            interactive=True,
            horizontal_grid_lines=fch.ChartGridLines(
                interval=10, width=1, color=ft.Colors.OUTLINE_VARIANT
            ),
            left_axis=fch.ChartAxis(label_size=44, label_spacing=10),
            bottom_axis=fch.ChartAxis(label_size=22, labels=[]),
            border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
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
                for i, p in enumerate(self.players)
            ],
            wrap=True,
            spacing=14,
        )
        self.control = ft.Semantics(
            label="",
            container=True,
            # right padding: the last x-axis label is centred on the chart's edge and was cut
            content=ft.Column(
                [ft.Container(self.chart, padding=ft.Padding.only(right=14)), legend], spacing=6
            ),
        )
        # isolated for Flet: an update of the screen around it does not walk its points;
        # the sheet sends it alone (app/ui/sheet/score_sheet.py)
        object.__setattr__(self.control, "_isolated", True)
        self.points: dict[str, list[tuple[int, int]]] = {}
        self._labels: dict[int, fch.ChartAxisLabel] = {}
        self._y_labels: dict[int, fch.ChartAxisLabel] = {}
        self.set_totals(running, final)

    def set_totals(
        self, running: Sequence[Mapping[str, int]], final: Mapping[str, int] | None = None
    ) -> None:
        """Draw ``running`` (the players stay those given at the start) and the game's totals
        ``final`` where they differ from the last round's, keeping every point and axis label
        that did not change."""
        players = self.players
        if not final_differs(players, running, final):
            final = None
        points = chart_points(players, running, final=final)
        n = len(running)
        for series, p in zip(self.series, players, strict=True):
            new = points[p]
            old = self.points.get(p, [])
            keep = 0
            while keep < min(len(old), len(new)) and old[keep] == new[keep]:
                keep += 1
            series.points = series.points[:keep] + [_point(p, x, y) for x, y in new[keep:]]
            series.point = n <= MARKERS_UP_TO
        self.points = points
        lo, hi, step = _y_range(players, running, final)
        chart = self.chart
        chart.max_x = max(n + (1 if final is not None else 0), 1)
        chart.min_y, chart.max_y = lo, hi
        assert chart.horizontal_grid_lines is not None and chart.left_axis is not None
        chart.horizontal_grid_lines.interval = step
        chart.left_axis.label_spacing = step
        y_labels = {  # "−20" with a true minus sign, as the table writes it; kept if unchanged
            v: self._y_labels.get(v)
            or fch.ChartAxisLabel(value=v, label=ft.Text(number(v), size=11))
            for v in range(lo, hi + 1, step)
        }
        self._y_labels = y_labels
        chart.left_axis.labels = list(y_labels.values())
        x_step = max(1, -(-n // 8))
        labels = {}
        for x in range(0, n + 1, x_step):
            label = self._labels.get(x)
            if label is None or getattr(label.label, "value", None) != str(x):  # was "end"
                label = fch.ChartAxisLabel(value=x, label=ft.Text(str(x), size=11))
            labels[x] = label
        if final is not None:  # the totals' point, after the last round: "end"
            for x in [x for x in labels if x > n + 1 - x_step]:
                del labels[x]  # the round labels it would overlap
            label = self._labels.get(n + 1)
            if label is None or getattr(label.label, "value", None) != _("end"):
                label = fch.ChartAxisLabel(value=n + 1, label=ft.Text(_("end"), size=11))
            labels[n + 1] = label
        self._labels = labels
        assert chart.bottom_axis is not None
        chart.bottom_axis.labels = list(labels.values())
        last = final if final is not None else (running[-1] if running else {})
        self.control.label = ngettext(
            "Chart of the totals over {n} round; now {totals}",
            "Chart of the totals over {n} rounds; now {totals}",
            n,
        ).format(n=n, totals=", ".join(f"{p} {number(last.get(p, 0))}" for p in players))


def totals_chart(
    players: Sequence[str],
    running: Sequence[Mapping[str, int]],
    height: int = 190,
    final: Mapping[str, int] | None = None,
) -> ft.Control:
    """The chart with its legend (see :class:`TotalsChart`)."""
    return TotalsChart(players, running, final, height).control

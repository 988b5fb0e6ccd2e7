"""The score chart's end labels, placed apart (no browser needed): each inside the chart, none
on another, and none moved further from its line's end than the others' room needs."""

from __future__ import annotations

import pytest

from bot.web.game import CHART_HEIGHT, LABEL_GAP, apart


@pytest.mark.parametrize(
    "ends",
    [
        [24.0, 216.0, 216.0, 216.0],  # one leader, three still at nought (Nowa Gwinea, 4 players)
        [216.0, 24.0, 216.0],
        [24.0, 30.0, 216.0, 216.0, 216.0, 216.0],
        [24.0, 24.0, 24.0, 216.0],
        [120.0, 121.0, 122.0],
    ],
)
def test_labels_stay_inside_the_chart_apart_and_near_their_lines(ends):
    """With three seats at nought at the chart's foot, the crowd there was pushed up by shifting
    every label, the leader's too: its label left the top of the chart, where the SVG cuts it off
    (on a phone, the leader's score was not shown)."""
    placed = apart(ends, CHART_HEIGHT)
    for y in placed:
        assert LABEL_GAP / 2 - 1e-9 <= y <= CHART_HEIGHT - LABEL_GAP / 2 + 1e-9, placed
    order = sorted(range(len(ends)), key=lambda i: (ends[i], i))
    for a, b in zip(order, order[1:], strict=False):
        assert placed[b] - placed[a] >= LABEL_GAP - 1e-9, placed  # in their lines' order, apart
    # A label with room beside its line's end stays there.
    lone = [i for i in order if all(abs(ends[i] - ends[j]) >= 3 * LABEL_GAP for j in order if j != i)]
    for i in lone:
        if LABEL_GAP / 2 <= ends[i] <= CHART_HEIGHT - LABEL_GAP / 2:
            assert placed[i] == ends[i], (i, placed)

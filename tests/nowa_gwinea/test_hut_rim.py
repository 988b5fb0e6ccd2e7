"""A hut on the board's rim is outlined inside the board: its edge (and the thicker mark of
the player's last hut) was drawn centred on the frame, half of it past the board, so a hut
built legally looked as if it stuck out over the edge, which the rules forbid."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops

from engines.nowa_gwinea.rules import board_info
from renderers import nowa_gwinea as R

HUTS = ["L0E7", "I0A1", "U1A4"]  # on the right and bottom rim, the left and top, the top


@pytest.mark.parametrize("size", [30, 32, 43, 72])
@pytest.mark.parametrize("last", [None, "L0E7", "I0A1"])
def test_huts_on_the_rim_stay_inside_the_board(size, last):
    info = board_info(1, "A")
    margin, side = 12, 8 * size

    def drawn(huts) -> Image.Image:
        canvas = Image.new("RGB", (side + 2 * margin + 10, side + 2 * margin + 10), R.BACKGROUND)
        R._board(canvas, info, -1, huts, R.HUT, margin, margin, size, last=last)
        return canvas

    with_huts = drawn(HUTS)
    changed = ImageChops.difference(drawn([]), with_huts).getbbox()
    assert changed, "no hut was drawn"
    assert (margin, margin) <= changed[:2] and changed[2:] <= (margin + side + 1, margin + side + 1), changed
    edge = R.MARK if last == "L0E7" else R.INK  # H8's outline is still drawn, inside the rim
    y = margin + 7 * size + size // 2
    assert edge in {with_huts.getpixel((margin + side - k, y)) for k in range(1, 12)}

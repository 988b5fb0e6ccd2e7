"""A renderer for the test game Nim: one column of stones per pile."""

from __future__ import annotations

from renderers.colours import INK, high_contrast
from renderers.encoding import to_png
from renderers.layout import seat_name
from renderers.shapes import new_canvas
from renderers.typeset import centred_text, font


def render(
    view,
    *,
    names=None,
    last_action: str | None = None,
    language: str | None = None,
    contrast: bool = False,
    ended: str | None = None,
    options: str | None = None,
) -> bytes:
    """The board (the table's test game is drawn in English whatever ``language`` asks; ``ended``:
    the title's words instead of whose turn it is, see :func:`renderers.layout.ended`; ``options``:
    the options in words, on a line under the title)."""
    width = 120 + 90 * len(view.piles)
    image, draw = new_canvas(width, 360)
    title = "Nim"
    if ended is not None:
        title += f"  -  {ended}"
    elif view.winner is not None:
        title += f"  -  {seat_name(names, view.winner)} wins"
    else:
        title += f"  -  {seat_name(names, view.turn)} to play"
    draw.text((16, 12), title, font=font(22, True), fill=INK)
    for i, n in enumerate(view.piles):
        x = 80 + 90 * i
        for k in range(n):
            y = 300 - 36 * k
            draw.ellipse((x - 15, y - 15, x + 15, y + 15), fill=(120, 120, 120), outline=INK)
        centred_text(draw, (x, 335), "ABCDE"[i], font(20, True))
    if view.seat is not None:
        draw.text((16, 44), f"your secret: {view.secrets[view.seat]}", font=font(16), fill=INK)
    if last_action:
        draw.text((16, 66), f"Last: {last_action}", font=font(16), fill=INK)
    if options:
        draw.text((16, 88), f"Options: {options}", font=font(16), fill=INK)
    return to_png(high_contrast(image) if contrast else image)

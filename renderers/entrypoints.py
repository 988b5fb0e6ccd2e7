"""A game's entry points, ``render`` and ``draw_board``, made from the function that draws its
board (:func:`board_entry_points`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PIL import Image

from renderers.colours import high_contrast
from renderers.encoding import encode, palette_image
from renderers.layout import ended as ended_as
from renderers.layout import options_said
from renderers.translation import speaking

# --------------------------------------------------------------------------- entry points


Picture = Callable[[Any, Sequence[str] | None, str | None], Image.Image]


def board_entry_points(
    picture: Picture, game: str | None = None
) -> tuple[Callable[..., bytes], Callable[..., Image.Image]]:
    """A game's ``render`` and ``draw_board`` from the function that draws its board, ``picture(view,
    names, last_action)``: both take ``names``, ``last_action`` and ``language`` (default English),
    keyword-only; ``draw_board`` draws in the language, ``render`` encodes the PNG, with the
    palette of ``game`` (:mod:`renderers.palettes`) when it has one.  ``ended``: what the header
    says instead of whose turn it is (see :func:`renderers.layout.ended`); ``options``: the game's
    options in words, for the header's line of them (see :func:`renderers.layout.options_said`)."""

    def draw_board(
        view: Any,
        *,
        names: Sequence[str] | None = None,
        last_action: str | None = None,
        language: str | None = None,
        contrast: bool = False,
        ended: str | None = None,
        options: str | None = None,
    ) -> Image.Image:
        with speaking(language), ended_as(ended, names), options_said(options):
            image = picture(view, names, last_action)
        return high_contrast(image) if contrast else image

    def render(
        view: Any,
        *,
        names: Sequence[str] | None = None,
        last_action: str | None = None,
        language: str | None = None,
        contrast: bool = False,
        ended: str | None = None,
        options: str | None = None,
    ) -> bytes:
        """The board as PNG bytes, its words in ``language`` (default English), in the
        high-contrast palette (:func:`high_contrast`) when ``contrast``."""
        image = draw_board(
            view,
            names=names,
            last_action=last_action,
            language=language,
            contrast=contrast,
            ended=ended,
            options=options,
        )
        return encode(image, palette_image(game) if game and not contrast else None)

    return render, draw_board

"""The line of a board picture's header that says the game's options ("Options: up to 2 new
dishes per turn"): the options that differ from the game's defaults, in the game's words, less
those the game's pictures state already (a renderer's ``OPTIONS_SHOWN``: Guanga's mode, say).

Every place that draws a game's board asks here, so the pictures say the options the lobby, the
alt text and ``/game describe`` say.  No Discord here.
"""

from __future__ import annotations

from collections.abc import Mapping

import engines
from bot.texts import game_option_words
from languages import ENGLISH, Language


def board_options(game: str, options: Mapping[str, object], t: Language = ENGLISH) -> str | None:
    """The ``options`` argument of ``game``'s renderer (its ``render`` and ``draw_board``) for a
    board drawn in ``t``: its options in words, those its pictures state already left out; None
    when none is left."""
    try:
        renderer = engines.get(game).load_renderer()
    except (ImportError, KeyError, ValueError):  # a game that is not installed (a damaged session)
        return None
    shown: frozenset[str] = getattr(renderer, "OPTIONS_SHOWN", frozenset())
    words = game_option_words(game, {k: v for k, v in options.items() if k not in shown}, t)
    return "; ".join(words) if words else None

"""The terminal table: any registered game played in a terminal, hot-seat and against computer
players, and exported games replayed move by move (``python -m bot.terminal``; the README's
*Play in the terminal* says how to use it).

- :mod:`bot.terminal.cli`: the command line and its one-line refusals.
- :mod:`bot.terminal.play`: a game at the prompt, its boards and its export; what each move
  shows is asked of :mod:`bot.public`, as at the Discord table.
- :mod:`bot.terminal.replay`: ``--replay FILE [--step]``.
- :mod:`bot.terminal.prompt`: the prompt, the table's words at it, the moves by kind, the result.

Imports :mod:`bot` services (export, public, texts, describe, sessions, time) and the engines;
never Discord.
"""

from __future__ import annotations

from bot.terminal.cli import main

__all__ = ["main"]

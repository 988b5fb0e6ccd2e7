"""Whole games played by the computer players (:func:`bench.history.whole_game`), each played once
per test process: the web pages' tests store the same seeded games again and again (Guanga's
two-player game of seed 5 by six tests, on both back ends), and a game's moves and end depend
on nothing but the arguments.  Each call gets a copy of its own, so nothing a test does to the
moves or the final state reaches the next."""

from __future__ import annotations

import copy
import functools
import inspect
import json
from typing import Any

from bench import history
from bot.sessions import Played

SIGNATURE = inspect.signature(history.whole_game)


@functools.cache
def _played(arguments: str) -> tuple[list[Played], Any]:
    return history.whole_game(**json.loads(arguments))


@functools.wraps(history.whole_game)
def whole_game(*args: Any, **kwargs: Any) -> tuple[list[Played], Any]:
    """:func:`bench.history.whole_game`, played once per process (played afresh with a ``stop``,
    which sees every move)."""
    if kwargs.get("stop") is not None:
        return history.whole_game(*args, **kwargs)
    arguments = SIGNATURE.bind(*args, **kwargs)
    arguments.apply_defaults()
    del arguments.arguments["stop"]
    return copy.deepcopy(_played(json.dumps(arguments.arguments, sort_keys=True)))

"""Game positions to draw: the start, the middle and the end of seeded games played by the
computer, for the gallery, the render benchmark and the renderer tests.

Each position carries the last action in words, as the table passes it to a renderer: the
public line of the most recent move that had any (``Event.text_for(None)``), seats named, put in
words by the game's optional ``worded`` (Guacamole's cards named, not written as codes).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import engines
import languages
from engines.core import TABLE, Engine, Event, config_from_options, name_seats, rng_for

NAMES = ("Ana", "Beto", "Cusi", "Dora", "Eloy", "Fátima")

# Per game: the player counts and options that change the picture.
SETUPS: dict[str, tuple[tuple[int, dict[str, Any]], ...]] = {
    "guacamole": tuple((n, {}) for n in range(2, 7)),
    "guanga": (
        (1, {"mode": "artisan"}),
        (2, {"mode": "beginner"}),
        (2, {"mode": "apprentice", "stoppers": True}),
        (3, {"mode": "master"}),
        (4, {"mode": "apprentice"}),
    ),
    "tiwanaku": (
        (1, {}),
        (2, {}),
        (2, {"board": "long"}),
        (3, {}),
        (4, {}),
    ),
    "nowa_gwinea": (
        (1, {}),
        (2, {}),
        (3, {"boards": "each"}),
        (4, {"side": "hard"}),
    ),
    "pachakuna": (
        (2, {"board": "A"}),
        (2, {"board": "B", "max_turns": 60}),
        (2, {"board": "random"}),
    ),
}


@dataclass(frozen=True)
class Position:
    game: str
    label: str  # e.g. "3p-start"
    players: int
    options: dict[str, Any]
    state: Any
    last_event: Event | None
    names: tuple[str, ...]

    @property
    def module(self) -> Engine:
        return engines.get(self.game).load()

    @property
    def last_action(self) -> str | None:
        """The last move's public line in English (as the table would post it)."""
        return self.last_action_in(None)

    def last_action_in(self, language: str | None) -> str | None:
        """The last move's public line in ``language``, seats named, as a spectator reads it:
        its kept sentence put in words by the game's optional ``worded`` (as the table's
        ``bot.public.event_line`` asks :meth:`Event.words_for` too)."""
        if self.last_event is None:
            return None
        line = self.last_event.words_for(
            None, languages.language(language), getattr(self.module, "worded", None)
        )
        return name_seats(line, self.names) if line else None

    def view(self, seat: int | None):
        return self.module.view_for(self.state, seat)


def _public_event(events) -> Event | None:
    """The move's first public event: what was done (the lines after it are its consequences)."""
    return next((e for e in events if e.text_for(None)), None)


def play(game: str, players: int, options: dict[str, Any], seed: int, limit: int = 4000):
    """(state, last public event) after every move of one computer game, the start first."""
    module = engines.get(game).load()
    config = config_from_options(module.Config, players, options)
    state = module.new_game(config, players, seed)
    last: Event | None = None
    out = [(state, last)]
    for k in range(limit):
        if module.outcome(state) is not None:
            break
        due = sorted(module.to_move(state))
        if due:
            seat = due[0]
            legal = list(module.legal_moves(state, seat))
            move = module.computer_move(module.view_for(state, seat), legal, rng_for(seed, "cpu", k))
        else:
            seat = TABLE
            move = list(module.legal_moves(state, TABLE))[0]
        state, events = module.apply_move(state, seat, move)
        last = _public_event(events) or last
        out.append((state, last))
    return out


def positions(game: str, seed: int = 7) -> list[Position]:
    """Start, middle and end of a game for every setup of ``game``.

    The games are played once per process and kept (the gallery, the benchmark and the renderer
    tests all draw the same ones): each call gets a list of its own, of the same positions (their
    states are never changed: an engine's moves make new states)."""
    return list(_positions(game, seed))


@cache
def _positions(game: str, seed: int) -> tuple[Position, ...]:
    out = []
    for players, options in SETUPS[game]:
        history = play(game, players, options, seed + players)
        tag = f"{players}p" + "".join(f"-{k}={v}" for k, v in options.items())
        names = NAMES[:players]
        for stage, index in (("start", 0), ("middle", len(history) // 2), ("end", len(history) - 1)):
            state, last = history[index]
            out.append(Position(game, f"{tag}-{stage}", players, options, state, last, names))
    return tuple(out)

"""Pure rule engines, one package per game, and the registry that names them.

See :mod:`engines.core` for the contract every engine module follows.  The
registry maps a game's short name to its engine module, its renderer module,
its player range and title; the table, the terminal and the tests look games
up here and never import a game by hand.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, cast

from engines.core import Engine, Option, config_options

if TYPE_CHECKING:  # the type checker holds every game's package to the engine contract
    from engines import guacamole, guanga, nowa_gwinea, pachakuna, tiwanaku

    _GUACAMOLE: Engine = guacamole
    _GUANGA: Engine = guanga
    _NOWA_GWINEA: Engine = nowa_gwinea
    _PACHAKUNA: Engine = pachakuna
    _TIWANAKU: Engine = tiwanaku


@dataclass(frozen=True)
class GameInfo:
    name: str
    title: str
    engine: str
    renderer: str | None
    min_players: int
    max_players: int

    def load(self) -> Engine:
        return cast(Engine, importlib.import_module(self.engine))

    def load_renderer(self) -> ModuleType | None:
        return importlib.import_module(self.renderer) if self.renderer else None

    def options(self) -> list[Option]:
        return config_options(self.load().Config)


GAMES: dict[str, GameInfo] = {}


def register(info: GameInfo) -> GameInfo:
    GAMES[info.name] = info
    return info


def get(name: str) -> GameInfo:
    try:
        return GAMES[name]
    except KeyError:
        known = ", ".join(sorted(GAMES)) or "none"
        raise KeyError(f"no game called {name!r}; the games are: {known}") from None


for _name, _title, _lo, _hi in (
    ("guanga", "Guanga: Tejidos Andinos", 1, 4),
    ("tiwanaku", "Tiwanaku", 1, 4),
    ("pachakuna", "P'achakuna", 2, 2),
    ("nowa_gwinea", "Nowa Gwinea", 1, 4),
    ("guacamole", "Guacamole", 2, 6),
):
    register(GameInfo(_name, _title, f"engines.{_name}", f"renderers.{_name}", _lo, _hi))


def title(name: str) -> str:
    """A game's title, or ``name`` itself when no registered game has it (a row of a game this
    build does not have)."""
    return GAMES[name].title if name in GAMES else name


def available() -> dict[str, GameInfo]:
    """The registered games whose engine package is present in this build."""
    out = {}
    for name, info in GAMES.items():
        try:
            info.load()
        except ModuleNotFoundError as exc:
            if exc.name != info.engine:
                raise
            continue
        out[name] = info
    return out

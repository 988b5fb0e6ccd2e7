"""Shared helpers for the Tiwanaku tests: a fixed 5 x 5 map and shortcuts."""

from __future__ import annotations

import engines.tiwanaku as T
from engines.tiwanaku.rules import BoardSize

#     1 2 3 4 5
# A   F M M M M     2 3 5 1 2
# B   F M D D D     1 4 2 4 5
# C   S D D F F     2 3 1 3 1
# D   S F F F D     1 5 2 4 2
# E   M M M D D     2 3 1 3 1
TERRAIN = "FMMMMFMDDDSDDFFSFFFDMMMDD"
CROPS = "2351214245231311524223131"


def cell(name: str, cols: int = 5) -> int:
    return "ABCDE".index(name[0].upper()) * cols + int(name[1:]) - 1


def fixed(players: int = 2, start: tuple[str, ...] = ("A3", "A4", "D4")) -> T.State:
    """A short-board game on the fixed map above, nothing explored, all explorers off."""
    s = T.new_game(T.Config(players=players, board=BoardSize.SHORT), players, 1)
    s.terrain = list(TERRAIN)
    s.crops = [int(x) for x in CROPS]
    s.discovered = [False] * 25
    s.cultivated = [False] * 25
    s.start_cells = [cell(n) for n in start]
    for c in s.start_cells:
        s.discovered[c] = True
        s.cultivated[c] = True
    return s


def put(s: T.State, seat: int, *names: str) -> None:
    for n in names:
        c = cell(n, s.cols)
        s.explorer[c] = seat
        s.reserve[seat] -= 1


def discover(s: T.State, *names: str) -> None:
    for n in names:
        s.discovered[cell(n, s.cols)] = True


def cultivate(s: T.State, *names: str) -> None:
    for n in names:
        c = cell(n, s.cols)
        s.discovered[c] = True
        s.cultivated[c] = True


def play(s: T.State, seat: int, text: str):
    return T.apply_move(s, seat, T.parse_move(text))


def texts(events) -> str:
    return " | ".join(e.text for e in events)


def to_the_end(rounds: int) -> tuple[T.State, T.State]:
    """The fixed map's last hidden space discovered in round ``rounds`` (the final divinations),
    and the game over when its player passes."""
    s = fixed(2)
    for name in (f"{r}{c}" for r in "ABCDE" for c in range(1, 6)):
        if name != "A1":
            discover(s, name)
    s.round = rounds
    final, _ = play(s, 0, "+A1")
    over, _ = play(final, 0, "pass")
    assert (final.phase, over.phase) == ("final", "over")
    return final, over

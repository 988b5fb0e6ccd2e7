"""Helpers for building P'achakuna test states."""

from __future__ import annotations

from engines import pachakuna as P
from engines.pachakuna import data as D
from engines.pachakuna.rules import Llama


def fresh(board: str = "A", seed: int = 1, max_turns: int = 0) -> P.State:
    return P.new_game(P.Config(board=P.Board(board), max_turns=max_turns), 2, seed)


def all_tiles(state: P.State, code: str) -> P.State:
    """Every terrain tile becomes ``code`` (e.g. ``"M0"``: black walks rows, white is stuck)."""
    for c in D.TILE_CELLS:
        state.tiles[c] = code
    return state


def put(state: P.State, seat: int, ident: int, cell: int, load: str | None = "white") -> Llama:
    """Place (or create) llama ``ident`` of ``seat`` on ``cell`` with ``load``."""
    lm = P.rules.llama(state, seat, ident)
    if lm is None:
        lm = Llama(seat, ident, cell, load)
        state.llamas.append(lm)
    lm.cell = cell
    lm.load = load
    return lm


def give(state: P.State, seat: int, **counts: int) -> None:
    for k, v in counts.items():
        state.supply[seat][k] = v


def play(state: P.State, seat: int, *moves: str) -> P.State:
    for text in moves:
        state, _ = P.apply_move(state, seat, P.parse_move(text))
    return state


def demands_all(state: P.State) -> list[str]:
    return sorted(state.bag + state.used + [d for d in state.demands.values() if d])


def set_demand(state: P.State, village: int, demand: str | None) -> None:
    """Put ``demand`` on ``village``, swapping it with wherever it was (keeps all 42 accounted for)."""
    old = state.demands[village]
    if demand is None:
        if old:
            state.used.append(old)
        state.demands[village] = None
        return
    if old == demand:
        return
    for zone in (state.bag, state.used):
        if demand in zone:
            i = zone.index(demand)
            if old:
                zone[i] = old
            else:
                zone.pop(i)
            break
    else:
        other = next(v for v, d in state.demands.items() if d == demand)
        state.demands[other] = old
    state.demands[village] = demand

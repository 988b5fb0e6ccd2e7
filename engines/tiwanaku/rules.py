"""Tiwanaku rules: state, setup, legal moves, applying moves, views, outcome."""

from __future__ import annotations

import dataclasses
import enum
import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NoReturn

from engines.core import (
    N_,
    NEVER,
    PUBLIC,
    Event,
    GameOver,
    IllegalMove,
    NotYourTurn,
    Outcome,
    Privacy,
    Said,
    SetupError,
    can_read,
    echo,
    listed,
    rank_by,
    said,
    said_n,
    term,
    tiebreak_said,
)
from engines.tiwanaku.board import cell_name, edge_cells, generate, neighbours4, terrain_counts
from engines.tiwanaku.data import (
    EXPLORERS,
    LONG_COLS,
    MAX_CUBES,
    ROW_LETTERS,
    ROWS,
    SCALE_TOP,
    SHORT_COLS,
    TERRAIN_NAMES,
    TERRAINS,
)
from engines.tiwanaku.moves import (
    Divine,
    Done,
    Enter,
    Extra,
    Leave,
    Move,
    Pass,
    Peek,
    Step,
    Trade,
    parse_move,
)

TITLE = "Tiwanaku"
MIN_PLAYERS = 1
MAX_PLAYERS = 4
SCHEMA = 1

# phases (trades and offerings are open in all three, on one's own turn)
ACTION = "action"  # the player chooses an action
DIVINING = "divining"  # after a correct guess: guess again with another explorer, or done
FINAL = "final"  # the final divination round
OVER = "over"


class BoardSize(enum.Enum):
    AUTO = "auto"
    SHORT = "short"
    LONG = "long"


@dataclass(frozen=True)
class Config:
    players: int = 2
    board: BoardSize = field(
        default=BoardSize.AUTO,
        metadata={
            "help": N_(
                "short: 5 x 5 (1-2 players only), long: 5 x 9; auto: short for 1-2 players, long for 3-4"
            )
        },
    )

    def validate(self) -> None:
        if not isinstance(self.players, int) or not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise SetupError(
                "Tiwanaku takes {least} to {most} players, not {players}",
                least=MIN_PLAYERS,
                most=MAX_PLAYERS,
                players=self.players,
            )
        if not isinstance(self.board, BoardSize):
            raise SetupError("{option board} must be auto, short or long")
        if self.board is BoardSize.SHORT and self.players > 2:
            raise SetupError(
                "the short 5 x 5 board is for 1 or 2 players; 3 or 4 players play the long board"
            )

    @property
    def cols(self) -> int:
        if self.board is BoardSize.LONG or (self.board is BoardSize.AUTO and self.players > 2):
            return LONG_COLS
        return SHORT_COLS


@dataclass
class State:
    config: Config
    seed: int
    cols: int
    terrain: list[str]  # hidden: the disc's terrain per cell
    crops: list[int]  # hidden: the disc's crop per cell
    start_cells: list[int]  # cells revealed (terrain and crop) at setup
    discovered: list[bool]
    cultivated: list[bool]
    explorer: list[int]  # seat standing on each cell, -1 for none
    reserve: list[int]  # explorers off the board, per seat
    cubes: list[list[int]]  # per seat, count per terrain (TERRAINS order)
    scores: list[int]
    scales: list[list[int]]  # per seat, level (0..5) of the stone on each crop's scale
    correct: list[int]
    wrong: list[int]
    peeks: list[dict[int, str]]  # per seat: cell -> terrain letter or crop digit seen on the disc
    peek_counts: list[int]  # per seat: every peek made (a cell looked at twice counts twice)
    turn: int = 0
    phase: str = ACTION
    actions_left: int = 1
    final_out: list[bool] = field(default_factory=list)
    final_starter: int = -1
    cube_points: list[int] = field(default_factory=list)
    last: str | None = None
    last_seat: int = -1
    last_cells: list[int] = field(default_factory=list)  # every cell the last turn changed
    cells_turn: int = -1  # the turn (``turns``) that last_cells belong to
    moves: int = 0
    round: int = 1
    turns: int = 1  # turn_number: goes up when a turn ends (final divinations included)


# --------------------------------------------------------------------------- setup


def new_game(config: Config, seats: int, seed: int) -> State:
    config.validate()
    if seats != config.players:
        raise SetupError(
            "the config is for {players} but {seats} were given",
            players=said_n(config.players, "{n} player", "{n} players"),
            seats=said_n(seats, "{n} seat", "{n} seats"),
        )
    cols = config.cols
    terrain, crops, revealed = generate(seed, cols)
    n = ROWS * cols
    discovered = [False] * n
    cultivated = [False] * n
    for c in revealed:
        discovered[c] = True
        cultivated[c] = True
    return State(
        config=config,
        seed=seed,
        cols=cols,
        terrain=terrain,
        crops=crops,
        start_cells=list(revealed),
        discovered=discovered,
        cultivated=cultivated,
        explorer=[-1] * n,
        reserve=[EXPLORERS[seats]] * seats,
        cubes=[[0] * len(TERRAINS) for _ in range(seats)],
        scores=[0] * seats,
        scales=[[0] * SCALE_TOP for _ in range(seats)],
        correct=[0] * seats,
        wrong=[0] * seats,
        peeks=[{} for _ in range(seats)],
        peek_counts=[0] * seats,
        final_out=[False] * seats,
        cube_points=[0] * seats,
    )


# --------------------------------------------------------------------------- helpers


def P(seat: int) -> str:
    """How an event names a seat (the table puts the player's name in)."""
    return "{p" + str(seat) + "}"


def _name(state: State, c: int) -> str:
    return cell_name(c, state.cols)


def _names(state: State, cells) -> str | Said:
    """Cells in notation (``B1, C2``), or the word for none."""
    cells = sorted(cells)
    if not cells:
        return term("tiwanaku cells", "none")
    return ", ".join(_name(state, c) for c in cells)


def _index(state: State, row: int, col: int) -> int | None:
    if 0 <= row < ROWS and 0 <= col < state.cols:
        return row * state.cols + col
    return None


def _cell_or_refuse(state: State, row: int, col: int) -> int:
    c = _index(state, row, col)
    if c is None:
        raise IllegalMove(
            "{cell} is off the board; rows are A-E and columns 1-{cols}",
            cell=f"{ROW_LETTERS[row]}{col + 1}",
            cols=state.cols,
        )
    return c


def terrain(letter: str) -> Said:
    """A terrain by its letter, as a word of the game (``swamp``), translated where it is shown."""
    return TERRAIN_NAMES[letter]


def _some_cubes(k: int, letter: str) -> Said:
    """``k`` (1 or more) cubes of one terrain: ``a swamp cube``, ``two swamp cubes``."""
    kind = terrain(letter)
    if k == 1:
        return said("a {terrain} cube", terrain=kind)
    if k == 2:
        return said("two {terrain} cubes", terrain=kind)
    if k == 3:
        return said("three {terrain} cubes", terrain=kind)
    if k == 4:
        return said("four {terrain} cubes", terrain=kind)
    return said_n(k, "{n} {terrain} cube", "{n} {terrain} cubes", terrain=kind)


def _listed(items: list[Said]) -> Said:
    """Items in a list that ends with "and": ``a, b and c`` (one item: itself)."""
    if len(items) == 1:
        return items[0]
    if len(items) == 2:
        return said("{a} and {b}", a=items[0], b=items[1])
    return said("{a}, {b}", a=items[0], b=_listed(items[1:]))


def commas(items: list[Said]) -> Said:
    """Items separated by commas only: ``a, b, c``."""
    return items[0] if len(items) == 1 else said("{a}, {b}", a=items[0], b=commas(items[1:]))


def cube_words(counts: list[int]) -> Said:
    """Offering cubes in words: ``two swamp cubes and a desert cube``."""
    parts = [_some_cubes(k, t) for t, k in zip(TERRAINS, counts, strict=True) if k]
    if not parts:
        return said("no cubes")
    return _listed(parts)


def cubes_given(letters: str) -> Said:
    """Cubes written as terrain letters (``DD``) in words (``two desert cubes``)."""
    return cube_words([letters.count(t) for t in TERRAINS])


def _cube_text(counts: list[int]) -> str:
    """:func:`cube_words` in English."""
    return cube_words(counts).in_words()


def cubes_of(letters: str) -> str:
    """:func:`cubes_given` in English."""
    return cubes_given(letters).in_words()


def own_explorers(state: State, seat: int) -> list[int]:
    return [c for c, s in enumerate(state.explorer) if s == seat]


def divinable(state: State, seat: int) -> list[int]:
    """Cells where ``seat`` has an explorer on a discovered, uncultivated tile."""
    return [c for c in own_explorers(state, seat) if state.discovered[c] and not state.cultivated[c]]


def destinations(state: State, seat: int, src: int) -> set[int]:
    """Where the explorer on ``src`` may go: one step, or on along a path of its
    owner's explorers and cultivated tiles, never over an opponent."""
    n4 = neighbours4(state.cols)
    explorer, cultivated = state.explorer, state.cultivated
    seen = {src}
    frontier = [src]
    out: set[int] = set()
    while frontier:
        c = frontier.pop()
        for nb in n4[c]:
            if nb in seen:
                continue
            seen.add(nb)
            occ = explorer[nb]
            if occ == seat:
                frontier.append(nb)  # walk over one's own explorer, never stop there
            elif occ >= 0:
                continue  # an opponent blocks
            elif cultivated[nb]:
                out.add(nb)  # a free cultivated tile: stop here or walk on
                frontier.append(nb)
            else:
                out.add(nb)  # an empty space or an uncultivated tile: stop only
    return out


def entries(state: State, seat: int) -> list[int]:
    if state.reserve[seat] <= 0:
        return []
    return sorted(c for c in edge_cells(state.cols) if state.explorer[c] < 0)


def _can_offer(state: State, seat: int) -> bool:
    return all(k >= 1 for k in state.cubes[seat])


def empty_cells(state: State) -> list[int]:
    return [c for c, d in enumerate(state.discovered) if not d]


# --------------------------------------------------------------------------- turn order


def to_move(state: State) -> set[int]:
    if state.phase == OVER:
        return set()
    return {state.turn}


def turn_number(state: State) -> int:
    """Turns so far plus one: up when a player's actions are used, and at each turn of the final round."""
    return state.turns


def _next_turn(state: State, events: list[Event]) -> None:
    n = state.config.players
    state.turns += 1
    state.turn = (state.turn + 1) % n
    if state.turn == 0:
        state.round += 1
    state.phase = ACTION
    state.actions_left = 1


def _settle_divining(state: State, seat: int, events: list[Event]) -> None:
    """After a right guess the divining lasts while the player can still use it: another explorer
    to divine with, or, on the turn's last action, an offering that could buy one more (the
    ruling opens offerings "after a correct divination": knowing the guess was right, the player
    may buy an action then, or peek, or trade, or say done).  Otherwise the action ends by
    itself, after the guess or after whatever used up what was left (an offering, a trade)."""
    if state.phase != DIVINING or divinable(state, seat):
        return
    if state.actions_left == 1 and _can_offer(state, seat):
        return
    _end_action(state, events)


def _end_action(state: State, events: list[Event]) -> None:
    """One action is finished: another if an offering bought one, else the next player."""
    if state.phase == FINAL or state.phase == OVER:
        return
    state.actions_left -= 1
    if state.actions_left > 0:
        state.phase = ACTION
    else:
        _next_turn(state, events)


def _start_final(state: State, seat: int, events: list[Event]) -> None:
    state.turns += 1
    state.phase = FINAL
    state.actions_left = 0
    state.final_starter = seat
    state.turn = seat
    events.append(
        Event.told(
            said(
                "All the land is discovered. Final divinations: starting with {player}, each player in turn "
                "divines with one explorer or passes; a pass or a wrong guess ends that player's part.",
                player=P(seat),
            ),
            kind="final",
        )
    )
    _final_advance(state, events, first=True)


def _final_advance(state: State, events: list[Event], first: bool = False) -> None:
    """Move the final round on to the next player still in (who can divine), or end the game."""
    n = state.config.players
    for seat in range(n):
        if not state.final_out[seat] and not divinable(state, seat):
            state.final_out[seat] = True
    if all(state.final_out):
        _finish(state, events)
        return
    start = state.turn if first else (state.turn + 1) % n
    if not first:
        state.turns += 1
    for k in range(n):
        seat = (start + k) % n
        if not state.final_out[seat]:
            state.turn = seat
            return


def _finish(state: State, events: list[Event]) -> None:
    state.phase = OVER
    state.actions_left = 0
    for seat in range(state.config.players):
        pts = sum(state.cubes[seat])
        state.cube_points[seat] = pts
        state.scores[seat] += pts
        if pts:
            events.append(
                Event.told(
                    said_n(
                        pts,
                        "{player} scores {n} point for the offering cubes left over",
                        "{player} scores {n} points for the offering cubes left over",
                        player=P(seat),
                    ),
                    kind="score",
                )
            )
    summary = ", ".join(f"{P(s)} {state.scores[s]}" for s in range(state.config.players))
    events.append(Event.told(said("The game is over. Final scores: {scores}.", scores=summary), kind="end"))


# --------------------------------------------------------------------------- legal moves


class _Moves:
    """Every move that names cells, built once per board width (moves are frozen values)."""

    def __init__(self, cols: int) -> None:
        cells = range(ROWS * cols)
        self.enter = [Enter(c // cols, c % cols) for c in cells]
        self.leave = [Leave(c // cols, c % cols) for c in cells]
        self.step = [[Step(a // cols, a % cols, b // cols, b % cols) for b in cells] for a in cells]
        self.divine = [[Divine(c // cols, c % cols, v) for v in range(1, 6)] for c in cells]
        self.peek = [Peek(c // cols, c % cols) for c in cells]


@functools.cache
def _moves(cols: int) -> _Moves:
    return _Moves(cols)


_TRADES = {a + b: [Trade(a + b, t) for t in TERRAINS] for i, a in enumerate(TERRAINS) for b in TERRAINS[i:]}


def legal_moves(state: State, seat: int) -> list[Move]:
    if seat not in to_move(state):
        return []
    cols = state.cols
    made = _moves(cols)
    out: list[Move] = []
    if state.phase == ACTION:
        for c in entries(state, seat):
            out.append(made.enter[c])
        for src in own_explorers(state, seat):
            steps = made.step[src]
            for dst in sorted(destinations(state, seat, src)):
                out.append(steps[dst])
            out.append(made.leave[src])
    for c in divinable(state, seat):
        out += made.divine[c]
    if state.phase == DIVINING:
        out.append(Done())
    if state.phase == FINAL:
        out.append(Pass())
    # trades and offerings: at any moment of one's own turn
    held = state.cubes[seat]
    if sum(held) >= 2:
        # the pairs of cubes held, in the order of the terrains (a pair of one terrain needs two)
        for i, a in enumerate(TERRAINS):
            for j in range(i, len(TERRAINS)):
                if held[i] >= (2 if i == j else 1) and held[j] >= 1:
                    out += _TRADES[a + TERRAINS[j]]
    if _can_offer(state, seat):
        if state.phase != FINAL:
            out.append(Extra())
        cultivated, discovered, peeked = state.cultivated, state.discovered, state.peeks[seat]
        for c in range(ROWS * cols):
            # the cells _peek_problem allows, without wording the refusals of the others
            if cultivated[c]:
                continue
            seen = peeked.get(c)
            if seen is None or (discovered[c] and not seen.isdigit()):
                out.append(made.peek[c])
    return out


def _peek_problem(state: State, seat: int, c: int) -> Said | None:
    """Why ``seat`` may not peek at ``c`` (the whole refusal), or ``None``."""
    if state.cultivated[c]:
        return said(
            "{cell} is already cultivated; its crop is on the board; "
            "peek at a space still hidden or an uncultivated tile",
            cell=_name(state, c),
        )
    if c in state.peeks[seat]:
        if state.discovered[c] and not state.peeks[seat][c].isdigit():
            return None
        return said(
            "you have already looked at {cell}; peek at a space still hidden or an uncultivated tile",
            cell=_name(state, c),
        )
    return None


# --------------------------------------------------------------------------- apply


def _copy(state: State) -> State:
    """A copy deep enough that the new state shares nothing mutable with the old one."""
    return dataclasses.replace(
        state,
        # terrain, crops and start_cells never change after setup: shared safely
        discovered=list(state.discovered),
        cultivated=list(state.cultivated),
        explorer=list(state.explorer),
        reserve=list(state.reserve),
        cubes=[list(c) for c in state.cubes],
        scores=list(state.scores),
        scales=[list(s) for s in state.scales],
        correct=list(state.correct),
        wrong=list(state.wrong),
        peeks=[dict(p) for p in state.peeks],
        peek_counts=list(state.peek_counts),
        final_out=list(state.final_out),
        cube_points=list(state.cube_points),
        last_cells=list(state.last_cells),
    )


def apply_move(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    if state.phase == OVER:
        raise GameOver("the game is over; see the final scores")
    if seat not in to_move(state):
        raise NotYourTurn("it is {player}'s turn, not yours", player=P(state.turn))
    handler = _HANDLERS.get(type(move))
    if handler is None:
        raise IllegalMove("{move} is not a Tiwanaku move", move=echo(move))
    new = _copy(state)
    events: list[Event] = []
    handler(new, seat, move, events)
    _settle_divining(new, seat, events)
    new.moves += 1
    new.last = str(move)
    new.last_seat = seat
    return new, events


def _changed(state: State, *cells: int) -> None:
    """The turn changes ``cells`` (none: a pass): kept for the picture's highlight, which holds
    every cell of one turn; the first change of a new turn starts it over."""
    if state.cells_turn != state.turns:
        state.last_cells = []
        state.cells_turn = state.turns
    state.last_cells.extend(cells)


def _require_phase(state: State, move: Move, *phases: str) -> None:
    if state.phase in phases:
        return
    if state.phase == FINAL:
        raise IllegalMove(
            "{move} is not allowed in the final divinations; now you may: {allowed}",
            move=str(move),
            allowed=_may_now(state, state.turn),
        )
    if state.phase == DIVINING:
        raise IllegalMove(
            "you are in the middle of divining; now you may: {allowed}", allowed=_may_now(state, state.turn)
        )
    raise IllegalMove(
        "{move} is not allowed now: choose an action (enter, move, explore or divine)", move=str(move)
    )


def _arrive(state: State, seat: int, c: int, events: list[Event], src: int | None) -> None:
    """An explorer stops on ``c``, entering (``src`` is ``None``) or coming from ``src``: an empty
    space is discovered (Explore)."""
    state.explorer[c] = seat
    _changed(state, c)
    values: dict[str, Any] = {"player": P(seat), "cell": _name(state, c)}
    if src is not None:
        values["src"] = _name(state, src)
    if state.discovered[c]:
        if src is None:
            told = said("{player} enters on {cell}", **values)
        else:
            told = said("{player} moves from {src} to {cell}", **values)
        events.append(Event.told(told, kind="move"))
        return
    state.discovered[c] = True
    t = state.terrain[c]
    values["terrain"] = terrain(t)
    held = state.cubes[seat]
    if sum(held) < MAX_CUBES:
        held[TERRAINS.index(t)] += 1
        if src is None:
            told = said(
                "{player} enters on {cell} and discovers {terrain} and takes a {terrain} cube", **values
            )
        else:
            told = said(
                "{player} moves from {src} to {cell} and discovers {terrain} and takes a {terrain} cube",
                **values,
            )
    elif src is None:
        told = said_n(
            MAX_CUBES,
            "{player} enters on {cell} and discovers {terrain}; already holding {n} cube, "
            "the {terrain} cube is not taken",
            "{player} enters on {cell} and discovers {terrain}; already holding {n} cubes, "
            "the {terrain} cube is not taken",
            **values,
        )
    else:
        told = said_n(
            MAX_CUBES,
            "{player} moves from {src} to {cell} and discovers {terrain}; already holding {n} cube, "
            "the {terrain} cube is not taken",
            "{player} moves from {src} to {cell} and discovers {terrain}; already holding {n} cubes, "
            "the {terrain} cube is not taken",
            **values,
        )
    events.append(Event.told(told, kind="explore"))
    if not empty_cells(state):
        _start_final(state, seat, events)


def _do_enter(state: State, seat: int, move: Enter, events: list[Event]) -> None:
    _require_phase(state, move, ACTION)
    c = _cell_or_refuse(state, move.row, move.col)
    if state.reserve[seat] <= 0:
        raise IllegalMove(
            "all your explorers are on the board; now you may: {allowed}", allowed=_may_now(state, seat)
        )
    free = entries(state, seat)
    if c not in free:
        if c not in edge_cells(state.cols):
            raise IllegalMove(
                "{cell} is not on the edge; you may enter on the free edge cells {cells}",
                cell=_name(state, c),
                cells=_names(state, free),
            )
        raise IllegalMove(
            "{cell} is occupied; you may enter on the free edge cells {cells}",
            cell=_name(state, c),
            cells=_names(state, free),
        )
    state.reserve[seat] -= 1
    _arrive(state, seat, c, events, None)
    _end_action(state, events)


def _no_explorer_on(state: State, seat: int, c: int) -> NoReturn:
    mine = own_explorers(state, seat)
    if not mine:
        raise IllegalMove(
            "you have no explorer on {cell}, nor anywhere on the board; bring one in on a free edge "
            "cell, like +A1",
            cell=_name(state, c),
        )
    raise IllegalMove(
        "you have no explorer on {cell}; yours are on {cells}",
        cell=_name(state, c),
        cells=_names(state, mine),
    )


def _do_step(state: State, seat: int, move: Step, events: list[Event]) -> None:
    _require_phase(state, move, ACTION)
    src = _cell_or_refuse(state, move.row, move.col)
    dst = _cell_or_refuse(state, move.to_row, move.to_col)
    if state.explorer[src] != seat:
        _no_explorer_on(state, seat, src)
    dests = destinations(state, seat, src)
    if not dests:
        raise IllegalMove(
            "the explorer on {src} is hemmed in and cannot move; take it off the board ({src}-out) "
            "or use another explorer",
            src=_name(state, src),
        )
    if dst not in dests:
        raise IllegalMove(
            "the explorer on {src} cannot stop on {cell}; it can reach {cells}",
            src=_name(state, src),
            cell=_name(state, dst),
            cells=_names(state, dests),
        )
    state.explorer[src] = -1
    _changed(state, src)
    _arrive(state, seat, dst, events, src)
    _end_action(state, events)


def _do_leave(state: State, seat: int, move: Leave, events: list[Event]) -> None:
    _require_phase(state, move, ACTION)
    src = _cell_or_refuse(state, move.row, move.col)
    if state.explorer[src] != seat:
        _no_explorer_on(state, seat, src)
    state.explorer[src] = -1
    state.reserve[seat] += 1
    _changed(state, src)
    events.append(
        Event.told(
            said(
                "{player} takes the explorer on {cell} off the board", player=P(seat), cell=_name(state, src)
            ),
            kind="move",
        )
    )
    _end_action(state, events)


def _advance_scale(state: State, seat: int, crop: int) -> int:
    """Move the stone on crop's scale up one level; return the diversity points."""
    scale = state.scales[seat]
    if scale[crop - 1] >= SCALE_TOP:
        return 1
    scale[crop - 1] += 1
    level = scale[crop - 1]
    return sum(1 for lv in scale if lv == level)


def _do_divine(state: State, seat: int, move: Divine, events: list[Event]) -> None:
    _require_phase(state, move, ACTION, DIVINING, FINAL)
    c = _cell_or_refuse(state, move.row, move.col)
    options = divinable(state, seat)
    if not options:
        raise IllegalMove(
            "you cannot divine on {cell}: none of your explorers stands on a discovered tile without "
            "a crop, so there is nothing to divine now",
            cell=_name(state, c),
        )
    if c not in options:
        if state.explorer[c] != seat:
            raise IllegalMove(
                "you have no explorer on {cell}; you may divine on {cells}",
                cell=_name(state, c),
                cells=_names(state, options),
            )
        raise IllegalMove(
            "{cell} is already cultivated; you may divine on {cells}",
            cell=_name(state, c),
            cells=_names(state, options),
        )
    name = _name(state, c)
    truth = state.crops[c]
    state.cultivated[c] = True
    _changed(state, c)
    if move.crop == truth:
        state.scores[seat] += truth
        state.correct[seat] += 1
        bonus = _advance_scale(state, seat, truth)
        state.scores[seat] += bonus
        events.append(
            Event.told(
                said_n(
                    truth,
                    "{player} divines crop {n} on {cell} correctly: {n} point and {bonus} for diversity",
                    "{player} divines crop {n} on {cell} correctly: {n} points and {bonus} for diversity",
                    player=P(seat),
                    cell=name,
                    bonus=bonus,
                ),
                kind="divine",
            )
        )
        if state.phase == FINAL:
            _final_advance(state, events)
            return
        if state.phase == ACTION:
            state.phase = DIVINING
        return
    state.scores[seat] -= truth
    state.wrong[seat] += 1
    events.append(
        Event.told(
            said_n(
                truth,
                "{player} guesses {guess} on {cell} but the disc shows {n}: "
                "the {n} is planted and {player} loses {n} point",
                "{player} guesses {guess} on {cell} but the disc shows {n}: "
                "the {n} is planted and {player} loses {n} points",
                player=P(seat),
                guess=move.crop,
                cell=name,
            ),
            kind="divine",
        )
    )
    if state.phase == FINAL:
        state.final_out[seat] = True
        _final_advance(state, events)
        return
    _next_turn(state, events)  # a wrong guess ends the whole turn


_MAY_NOW: tuple[tuple[type, str], ...] = (  # each kind of move a turn allows, its example after it
    (Enter, N_("bring in an explorer ({move})")),
    (Step, N_("move or explore ({move})")),
    (Leave, N_("take an explorer off ({move})")),
    (Divine, N_("divine a crop ({move})")),
    (Done, N_("stop divining ({move})")),
    (Pass, N_("leave the final divinations ({move})")),
    (Trade, N_("trade cubes ({move})")),
    (Extra, N_("offer for an extra action ({move})")),
    (Peek, N_("offer for a look at a disc ({move})")),
)


def _may_now(state: State, seat: int) -> Said:
    """What ``seat`` may do now, a kind of move at a time, each with one of its legal moves."""
    first: dict[type, Move] = {}
    for m in legal_moves(state, seat):
        first.setdefault(type(m), m)
    kinds = [said(words, move=str(first[kind])) for kind, words in _MAY_NOW if kind in first]
    return listed(kinds, semicolons=True) if kinds else said("no other move")  # choices, as Guanga lists them


def _do_done(state: State, seat: int, move: Done, events: list[Event]) -> None:
    if state.phase != DIVINING:
        raise IllegalMove(
            "done only ends a run of divinations; now you may: {allowed}", allowed=_may_now(state, seat)
        )
    events.append(Event.told(said("{player} stops divining", player=P(seat)), kind="move"))
    _end_action(state, events)


def _do_pass(state: State, seat: int, move: Pass, events: list[Event]) -> None:
    if state.phase != FINAL:
        if state.phase == DIVINING:
            raise IllegalMove("pass is only for the final divinations; say done to stop divining")
        raise IllegalMove(
            "pass is only for the final divinations; now you may: {allowed}", allowed=_may_now(state, seat)
        )
    state.final_out[seat] = True
    _changed(state)
    events.append(
        Event.told(said("{player} passes and leaves the final divinations", player=P(seat)), kind="move")
    )
    _final_advance(state, events)


def _do_trade(state: State, seat: int, move: Trade, events: list[Event]) -> None:
    held = state.cubes[seat]
    need = [0] * len(TERRAINS)
    for t in move.give:
        need[TERRAINS.index(t)] += 1
    if any(h < k for h, k in zip(held, need, strict=True)):
        if not any(held):
            raise IllegalMove(
                "you hold no cubes, so you cannot give {give}; stopping an explorer on a hidden space"
                " gives you a cube of its terrain",
                give=cubes_given(move.give),
            )
        raise IllegalMove(
            "you hold {held}; you cannot give {give}", held=cube_words(held), give=cubes_given(move.give)
        )
    for i, k in enumerate(need):
        held[i] -= k
    held[TERRAINS.index(move.get)] += 1
    events.append(
        Event.told(
            said(
                "{player} trades {give} for a {terrain} cube",
                player=P(seat),
                give=cubes_given(move.give),
                terrain=terrain(move.get),
            ),
            kind="cubes",
        )
    )


def _spend_offering(state: State, seat: int, move: Move) -> None:
    if not _can_offer(state, seat):
        if not any(state.cubes[seat]):
            raise IllegalMove(
                "an offering needs one cube of each terrain (swamp, desert, mountain and forest); you hold no"
                " cubes, and stopping an explorer on a hidden space gives you a cube of its terrain"
            )
        raise IllegalMove(
            "an offering needs one cube of each terrain (swamp, desert, mountain and forest); you hold {held}",
            held=cube_words(state.cubes[seat]),
        )
    state.cubes[seat] = [k - 1 for k in state.cubes[seat]]


def _do_extra(state: State, seat: int, move: Extra, events: list[Event]) -> None:
    if state.phase == FINAL:
        raise IllegalMove(
            "the final divinations have no actions to buy; now you may: {allowed}",
            allowed=_may_now(state, seat),
        )
    _spend_offering(state, seat, move)
    state.actions_left += 1
    events.append(
        Event.told(
            said("{player} makes an offering to Pachamama for an extra action", player=P(seat)),
            kind="offering",
        )
    )


def _do_peek(state: State, seat: int, move: Peek, events: list[Event]) -> None:
    c = _cell_or_refuse(state, move.row, move.col)
    problem = _peek_problem(state, seat, c)
    if problem is not None:
        raise IllegalMove(problem)
    _spend_offering(state, seat, move)
    name = _name(state, c)
    if state.discovered[c]:
        seen = str(state.crops[c])
        told = said(
            "{player} makes an offering and sees crop {crop} under {cell} on the disc",
            player=P(seat),
            crop=seen,
            cell=name,
        )
    else:
        seen = state.terrain[c]
        told = said(
            "{player} makes an offering and sees {terrain} under {cell} on the disc",
            player=P(seat),
            terrain=terrain(seen),
            cell=name,
        )
    state.peeks[seat][c] = seen
    state.peek_counts[seat] += 1
    events.append(
        Event.told(
            told,
            visible_to={seat},
            public=said(
                "{player} makes an offering to Pachamama and looks at the disc in secret", player=P(seat)
            ),
            kind="peek",
        )
    )


_HANDLERS: dict[type, Callable[[State, int, Any, list[Event]], None]] = {
    Enter: _do_enter,
    Step: _do_step,
    Leave: _do_leave,
    Divine: _do_divine,
    Done: _do_done,
    Pass: _do_pass,
    Trade: _do_trade,
    Extra: _do_extra,
    Peek: _do_peek,
}


# --------------------------------------------------------------------------- views


@dataclass(frozen=True)
class View:
    seat: int | None
    players: int
    rows: int
    cols: int
    terrain: tuple[str | None, ...]  # known terrain letter per cell (None: still hidden)
    crops: tuple[int | None, ...]  # crop placed per cell (None: not cultivated)
    explorer: tuple[int, ...]  # seat on each cell, -1 for none
    start_cells: tuple[int, ...]  # cells revealed at setup
    terrain_totals: dict[str, int]  # how many cells of each terrain the map holds
    peeks: dict[int, str]  # what this seat saw on the disc (cell -> terrain letter or crop digit)
    peek_counts: tuple[int, ...]  # how many peeks each seat made
    reserve: tuple[int, ...]
    cubes: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]
    scales: tuple[tuple[int, ...], ...]
    correct: tuple[int, ...]
    wrong: tuple[int, ...]
    turn: int
    phase: str
    actions_left: int
    final_out: tuple[bool, ...]
    cube_points: tuple[int, ...]
    empty_left: int
    last: str | None
    last_seat: int
    last_cells: tuple[int, ...]
    round: int

    @property
    def may_divine_again(self) -> bool:
        """Whether the player to move, after a right guess, has another explorer to divine with
        (else the divining lasts only for an offering: see :func:`_settle_divining`)."""
        return any(
            seat == self.turn and self.terrain[c] is not None and self.crops[c] is None
            for c, seat in enumerate(self.explorer)
        )


@functools.lru_cache(maxsize=64)
def _terrain_totals(terrain: tuple[str, ...]) -> dict[str, int]:
    return terrain_counts(terrain)  # copied for each view: a view's dict is its own


def live_peeks(state: State, seat: int | None) -> dict[int, str]:
    """What ``seat`` saw on the disc that the board does not show yet (cell -> terrain letter or
    crop digit, by cell): a peeked terrain until the tile is discovered, a peeked crop until it
    is planted.  Nothing for a spectator."""
    if seat is None:
        return {}
    return {
        c: seen
        for c, seen in sorted(state.peeks[seat].items())
        if not (state.cultivated[c] if seen.isdigit() else state.discovered[c])
    }


def view_for(state: State, seat: int | None) -> View:
    discovered, cultivated = state.discovered, state.cultivated
    last = state.last
    if last is not None:
        mark = move_privacy(state, state.last_seat, parse_move(last))
        if not readable(state, mark, seat):
            last = mark.mask
    peeks = live_peeks(state, seat)
    return View(
        seat=seat,
        players=state.config.players,
        rows=ROWS,
        cols=state.cols,
        terrain=tuple([t if d else None for t, d in zip(state.terrain, discovered, strict=True)]),
        crops=tuple([v if c else None for v, c in zip(state.crops, cultivated, strict=True)]),
        explorer=tuple(state.explorer),
        start_cells=tuple(state.start_cells),
        terrain_totals=dict(_terrain_totals(tuple(state.terrain))),
        peeks=peeks,
        peek_counts=tuple(state.peek_counts),
        reserve=tuple(state.reserve),
        cubes=tuple(tuple(c) for c in state.cubes),
        scores=tuple(state.scores),
        scales=tuple(tuple(s) for s in state.scales),
        correct=tuple(state.correct),
        wrong=tuple(state.wrong),
        turn=state.turn,
        phase=state.phase,
        actions_left=state.actions_left,
        final_out=tuple(state.final_out),
        cube_points=tuple(state.cube_points),
        empty_left=discovered.count(False),
        last=last,
        last_seat=state.last_seat,
        last_cells=tuple(state.last_cells),
        round=state.round,
    )


# --------------------------------------------------------------------------- what is public


def move_privacy(state: State, seat: int, move: Move) -> Privacy:
    """Where a player peeked stays theirs for good (others learn only that a peek happened)."""
    if isinstance(move, Peek):
        return Privacy(owner=seat, until=NEVER, mask="peek")
    return PUBLIC


def undoable(state: State, seat: int, move: Move) -> bool:
    """Whether ``move``, played by ``seat`` from ``state``, could be taken back by consent: it
    shows nothing of Pachamama's disc and involves no chance.

    Not undoable: a divination (it tells whether the guess was right), a peek, a step that
    discovers a hidden space, and any move that ends the game.  Undoable: trades, an offering
    for an extra action, and an explorer entering, moving or leaving over discovered tiles.
    """
    if isinstance(move, str):
        move = parse_move(move)
    if isinstance(move, Divine | Peek):
        return False
    after, _ = apply_move(state, seat, move)
    return (
        after.discovered == state.discovered
        and after.cultivated == state.cultivated
        and after.peeks == state.peeks
        and outcome(after) is None
    )


def readable(state: State, privacy: Privacy, reader: int | None) -> bool:
    return can_read(privacy, reader, over=state.phase == OVER)


def summary(view: View) -> str | Said:
    """The seat's cubes, explorers in reserve, score and private peeks, in a line or two
    (``""`` for a view from outside the game)."""
    if view.seat is None:
        return ""
    me = view.seat
    held = [
        said("{terrain} {count}", terrain=terrain(t), count=k)
        for t, k in zip(TERRAINS, view.cubes[me], strict=True)
        if k
    ]
    cubes: Said = commas(held) if held else term("tiwanaku cubes", "none")
    if view.phase == OVER and view.cube_points[me]:  # offered at the end, a point each
        cubes = said_n(
            view.cube_points[me],
            "{cubes}, scored for {n} point",
            "{cubes}, scored for {n} points",
            cubes=cubes,
        )
    if not view.peeks:
        return said(
            "You: score {score}; cubes: {cubes}; explorers off the board: {reserve}",
            score=view.scores[me],
            cubes=cubes,
            reserve=view.reserve[me],
        )
    seen = commas(
        [
            said("{cell} crop {crop}", cell=cell_name(c, view.cols), crop=v)
            if v.isdigit()
            else said("{cell} {terrain}", cell=cell_name(c, view.cols), terrain=terrain(v))
            for c, v in view.peeks.items()
        ]
    )
    return said(
        "You: score {score}; cubes: {cubes}; explorers off the board: {reserve}\nWhat you saw on the disc: {seen}",
        score=view.scores[me],
        cubes=cubes,
        reserve=view.reserve[me],
        seen=seen,
    )


# --------------------------------------------------------------------------- outcome


def scores_now(state: State) -> tuple[float, ...]:
    """Each seat's points so far (for the results card's chart)."""
    return tuple(float(v) for v in state.scores)


MORE_CORRECT = said("more correct divinations")
"""The tiebreak: more right guesses."""


def outcome(state: State) -> Outcome | None:
    if state.phase != OVER:
        return None
    n = state.config.players
    seats = range(n)
    keys: list[tuple[str | None, dict[int, Any]]] = [
        ("score", {s: state.scores[s] for s in seats}),
        (MORE_CORRECT.msg, {s: state.correct[s] for s in seats}),
    ]
    ranking, tiebreak = rank_by(seats, keys)
    return Outcome.told(
        scores=tuple(float(s) for s in state.scores),
        ranking=ranking,
        reason=said("all the land was discovered and the final divinations are over"),
        tiebreak=None if tiebreak is None else tiebreak_said(keys, tiebreak, MORE_CORRECT),
        details={
            "correct": list(state.correct),
            "wrong": list(state.wrong),
            "cube_points": list(state.cube_points),
        },
    )


# --------------------------------------------------------------------------- storage


def to_dict(state: State) -> dict:
    return {
        "schema": SCHEMA,
        "config": {"players": state.config.players, "board": state.config.board.value},
        "seed": state.seed,
        "cols": state.cols,
        "terrain": "".join(state.terrain),
        "crops": "".join(str(v) for v in state.crops),
        "start_cells": list(state.start_cells),
        "discovered": [int(d) for d in state.discovered],
        "cultivated": [int(d) for d in state.cultivated],
        "explorer": list(state.explorer),
        "reserve": list(state.reserve),
        "cubes": [list(c) for c in state.cubes],
        "scores": list(state.scores),
        "scales": [list(s) for s in state.scales],
        "correct": list(state.correct),
        "wrong": list(state.wrong),
        "peeks": [{str(c): v for c, v in sorted(p.items())} for p in state.peeks],
        "peek_counts": list(state.peek_counts),
        "turn": state.turn,
        "phase": state.phase,
        "actions_left": state.actions_left,
        "final_out": [bool(x) for x in state.final_out],
        "final_starter": state.final_starter,
        "cube_points": list(state.cube_points),
        "last": state.last,
        "last_seat": state.last_seat,
        "last_cells": list(state.last_cells),
        "cells_turn": state.cells_turn,
        "moves": state.moves,
        "round": state.round,
        "turns": state.turns,
    }


def from_dict(data: dict) -> State:
    if data.get("schema") != SCHEMA:
        raise SetupError("unsupported Tiwanaku state schema {schema}", schema=repr(data.get("schema")))
    cfg = data["config"]
    config = Config(players=cfg["players"], board=BoardSize(cfg["board"]))
    return State(
        config=config,
        seed=data["seed"],
        cols=data["cols"],
        terrain=list(data["terrain"]),
        crops=[int(ch) for ch in data["crops"]],
        start_cells=list(data["start_cells"]),
        discovered=[bool(x) for x in data["discovered"]],
        cultivated=[bool(x) for x in data["cultivated"]],
        explorer=list(data["explorer"]),
        reserve=list(data["reserve"]),
        cubes=[list(c) for c in data["cubes"]],
        scores=list(data["scores"]),
        scales=[list(s) for s in data["scales"]],
        correct=list(data["correct"]),
        wrong=list(data["wrong"]),
        peeks=[{int(c): v for c, v in p.items()} for p in data["peeks"]],
        peek_counts=list(data.get("peek_counts", [len(p) for p in data["peeks"]])),  # older snapshots
        turn=data["turn"],
        phase=data["phase"],
        actions_left=data["actions_left"],
        final_out=[bool(x) for x in data["final_out"]],
        final_starter=data["final_starter"],
        cube_points=list(data["cube_points"]),
        last=data["last"],
        last_seat=data["last_seat"],
        last_cells=list(data["last_cells"]),
        cells_turn=data.get("cells_turn", -1),  # snapshots from before: the next change starts over
        moves=data["moves"],
        round=data["round"],
        turns=data.get("turns", data["moves"] + 1),  # snapshots from before turns were counted
    )

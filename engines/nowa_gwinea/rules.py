"""The rules of Nowa Gwinea: options, moves, state, rounds and scoring."""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from engines.core import (
    N_,
    PUBLIC,
    TABLE,
    UNKNOWN,
    Event,
    GameOver,
    IllegalMove,
    MalformedMove,
    NotYourTurn,
    Outcome,
    Privacy,
    Said,
    SetupError,
    at_round_end,
    can_read,
    echo,
    quoted,
    rank_by,
    rng_for,
    said,
    said_n,
)

from .data import ANIMAL_TERMS, ANIMALS, BOARDS, FRUIT_BONUS, ROUNDS, BoardSide, board_side
from .geometry import (
    CANONICAL,
    PIECE_BITS,
    PIECES,
    PLACEMENTS,
    Placement,
    cell_name,
    cell_of,
    cells_of,
    covering_any,
    linked_to,
    placement,
    placement_from_text,
    placements_in,
    village_problems,
)

TITLE = "Nowa Gwinea"
MIN_PLAYERS = 1
MAX_PLAYERS = 4
SCHEMA = 1


# --------------------------------------------------------------------------- options


class Side(enum.Enum):
    STANDARD = "standard"
    HARD = "hard"


class Deal(enum.Enum):
    SHARED = "shared"
    EACH = "each"


@dataclass(frozen=True)
class Config:
    players: int = 2
    side: Side = field(
        default=Side.STANDARD,
        metadata={"help": N_("which side of the task boards everyone plays: standard (A) or hard (B)")},
    )
    hard_seats: str = field(
        default="",
        metadata={
            "help": N_(
                "seat numbers (1-4, comma separated) that play the hard side whatever "
                "'side' says, e.g. '1,2' for the grown-ups"
            )
        },
    )
    boards: Deal = field(
        default=Deal.SHARED,
        metadata={"help": N_("shared: everyone gets the same board each round; each: one board per player")},
    )
    water_target: int = field(
        default=5,
        metadata={
            "help": N_("water holes needed to call Gwinea (variant: fewer than 5)"),
            "choices": (1, 2, 3, 4, 5),
        },
    )
    fruit_for_all: bool = field(
        default=False,
        metadata={
            "help": N_(
                "variant: players who did not cover all the water holes (with water_target: the number "
                "needed to call) score 2 points per fruit bush covered"
            )
        },
    )
    hard_reroll: bool = field(
        default=True,
        metadata={
            "help": N_(
                "when hard boards are in play, roll the die again until it shows a totem "
                "whose hard task needs 6 huts or more to cover all 5 water holes (with a lower "
                "water_target, fewer huts may do)"
            )
        },
    )

    def validate(self) -> None:
        if not isinstance(self.players, int) or not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise SetupError(
                "Nowa Gwinea takes {least} to {most} players, not {players}",
                least=MIN_PLAYERS,
                most=MAX_PLAYERS,
                players=self.players,
            )
        if not isinstance(self.side, Side):
            raise SetupError("{option side} must be standard or hard")
        if not isinstance(self.boards, Deal):
            raise SetupError("{option boards} must be shared or each")
        if not isinstance(self.hard_reroll, bool):
            raise SetupError("{option hard_reroll} must be yes or no")
        if self.water_target not in (1, 2, 3, 4, 5):
            raise SetupError(
                "{option water_target} must be 1 to 5 water holes, not {value}", value=self.water_target
            )
        self.hard_seat_set()

    def check_new(self) -> None:
        """A new table's options that contradict each other (see ``new_config_from_options``)."""
        if self.side is Side.HARD and self.hard_seat_set():
            raise SetupError(
                "with side hard every seat already plays the hard side, so hard_seats adds nobody; "
                "leave hard_seats out, or keep side standard and list in hard_seats the seats that play hard"
            )

    def hard_seat_set(self) -> frozenset[int]:
        """Seats (0-based) playing the hard side because of ``hard_seats``."""
        text = (self.hard_seats or "").replace(" ", "")
        if not text:
            return frozenset()
        # an example the refusals give: a list this game takes ('1,3' names no seat 3 of two)
        example = "1,3" if self.players >= 3 else "1,2"
        out = set()
        for part in text.split(","):
            if not part.isdecimal() or not 1 <= int(part) <= self.players:  # (isdigit takes "²")
                if self.players == 1:
                    raise SetupError(
                        "a one-player game has only seat 1, so {option hard_seats} can only be '1' (or set "
                        "{option side} to hard); {part} is not seat 1",
                        part=echo(part),
                    )
                raise SetupError(
                    "{option hard_seats} lists seat numbers 1 to {most} separated by commas, like '{example}'; "
                    "{part} is not one",
                    most=self.players,
                    example=example,
                    part=echo(part),
                )
            if int(part) - 1 in out:
                raise SetupError(
                    "{option hard_seats} names seat {seat} twice; list each seat once, like '{example}'",
                    seat=int(part),
                    example="1" if self.players == 1 else example,
                )
            out.add(int(part) - 1)
        return frozenset(out)

    def side_of(self, seat: int) -> str:
        if self.side is Side.HARD or seat in self.hard_seat_set():
            return "B"
        return "A"


# --------------------------------------------------------------------------- moves


@dataclass(frozen=True)
class Place:
    """Build hut ``piece`` in orientation ``orient`` with its anchor square on ``anchor``."""

    piece: str
    orient: int
    anchor: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "orient", CANONICAL[self.piece][self.orient])

    def __str__(self) -> str:
        return f"{self.piece}{self.orient}{cell_name(self.anchor)}"


_PLACE_MOVES: list[Place] = [Place(pl.piece, pl.orient, pl.anchor) for pl in PLACEMENTS]  # by placement index


@dataclass(frozen=True)
class Remove:
    """Take hut ``piece`` back out of your village."""

    piece: str

    def __str__(self) -> str:
        return f"remove {self.piece}"


@dataclass(frozen=True)
class Gwinea:
    """Call "Gwinea!": your legal village covers the water holes; the round ends."""

    def __str__(self) -> str:
        return "gwinea"


@dataclass(frozen=True)
class Done:
    """Stop building for this round (the round ends when everyone has stopped)."""

    def __str__(self) -> str:
        return "done"


@dataclass(frozen=True)
class Timeout:
    """The round's deadline has passed (sent by the table, seat ``None``)."""

    def __str__(self) -> str:
        return "timeout"


Move = Place | Remove | Gwinea | Done | Timeout

_PLACE = re.compile(r"^([FILNPTUVWXYZ])\s*([0-7])\s*([A-H])\s*([1-8])$")
_REMOVE = re.compile(r"^(?:REMOVE|RM|-)\s*([FILNPTUVWXYZ])$")


def _not_a_move(shown: str) -> MalformedMove:
    """The refusal of a text (or object) that is no move, saying how moves are written."""
    return MalformedMove(
        "{text} is not a Nowa Gwinea move; write a hut letter (F I L N P T U V W X Y Z), an orientation "
        "0-7 and the anchor square, like F3C4; or 'remove F', 'gwinea', 'done'",
        text=shown,
    )


_LOOSE_PLACE = re.compile(r"^([A-Z])(\d*)([A-Z])(\d+)$")
_LOOSE_REMOVE = re.compile(r"^(?:REMOVE|RM|-)\s*([A-Z0-9]+)$")


def _what_is_wrong(shown: str, flat: str) -> MalformedMove | None:
    """The refusal naming the one part of a hut's move that is wrong, when the rest reads as one."""
    m = _LOOSE_REMOVE.match(flat)
    if m:
        return MalformedMove(
            "{text} is not a Nowa Gwinea move: {letter} is not a hut; the huts are F I L N P T U V W X Y Z",
            text=shown,
            letter=m.group(1),
        )
    m = _LOOSE_PLACE.match(flat.replace(" ", ""))
    if not m:
        return None
    letter, turn, row, column = m.groups()
    if letter not in PIECES:
        return MalformedMove(
            "{text} is not a Nowa Gwinea move: {letter} is not a hut; the huts are F I L N P T U V W X Y Z",
            text=shown,
            letter=letter,
        )
    if not turn:
        return MalformedMove(
            "{text} is not a Nowa Gwinea move: the orientation is missing; write the hut, an orientation "
            "0-7 and the square, like {example}",
            text=shown,
            example=f"{letter}0{row}{column}",
        )
    if turn not in "01234567" or len(turn) > 1:
        return MalformedMove(
            "{text} is not a Nowa Gwinea move: there is no orientation {turn}; they go from 0 to 7, "
            "as the hut chart shows",
            text=shown,
            turn=turn,
        )
    if row > "H" or column not in "12345678" or len(column) > 1:
        return MalformedMove(
            "{text} is not a Nowa Gwinea move: {square} is not on the board; rows go A-H and columns "
            "1-8, like C4",
            text=shown,
            square=row + column,
        )
    return None


def parse_move(text: str) -> Move:
    raw = (text or "").strip().upper()
    flat = re.sub(r"\s+", " ", raw)
    if flat in ("GWINEA", "GWINEA!", "CALL"):
        return Gwinea()
    if flat in ("DONE", "PASS", "STOP"):
        return Done()
    if flat in ("TIMEOUT", "DEADLINE"):
        return Timeout()
    m = _REMOVE.match(flat)
    if m:
        return Remove(m.group(1))
    m = _PLACE.match(flat.replace(" ", ""))
    if m:
        anchor = cell_of(m.group(3) + m.group(4))
        return Place(m.group(1), int(m.group(2)), anchor)
    raise _what_is_wrong(quoted(text), flat) or _not_a_move(quoted(text))


# --------------------------------------------------------------------------- state


@dataclass
class State:
    config: Config
    seed: int
    deck: list[int]  # board numbers in draw order
    drawn: int  # how many boards have been drawn
    round: int  # 1..9
    boards: list[int]  # each seat's board this round
    sides: list[str]  # each seat's side ("A" / "B")
    totem: int  # rolled animal, index into ANIMALS
    villages: list[list[str]]  # each seat's huts, placement texts in build order
    done: list[bool]
    since: list[int]  # step when the seat's water count last changed
    complete_at: list[int | None]  # step when the village became complete (legal, enough water)
    scores: list[int]
    history: list[dict]  # finished rounds, villages revealed
    step: int = 0
    last: list[str | None] = field(default_factory=list)
    over: bool = False


def new_game(config: Config, seats: int, seed: int) -> State:
    config.validate()
    if seats != config.players:
        players = said_n(config.players, "{n} player", "{n} players")
        wrong = said_n(
            seats,
            "the config is for {players} but {n} seat was given",
            "the config is for {players} but {n} seats were given",
            players=players,
        )
        raise SetupError(wrong)
    rng = rng_for(seed, "deck")
    deck: list[int] = []
    needed = ROUNDS * (seats if config.boards is Deal.EACH else 1)
    while len(deck) < needed:
        # when the stack runs out, the used boards are shuffled into a new stack
        batch = list(range(1, BOARDS + 1))
        rng.shuffle(batch)
        deck.extend(batch)
    state = State(
        config=config,
        seed=seed,
        deck=deck,
        drawn=0,
        round=0,
        boards=[0] * seats,
        sides=[config.side_of(s) for s in range(seats)],
        totem=0,
        villages=[[] for _ in range(seats)],
        done=[False] * seats,
        since=[0] * seats,
        complete_at=[None] * seats,
        scores=[0] * seats,
        history=[],
        last=[None] * seats,
    )
    _start_round(state)
    return state


def _start_round(state: State) -> list[Event]:
    n = state.config.players
    state.round += 1
    if state.config.boards is Deal.EACH:
        state.boards = state.deck[state.drawn : state.drawn + n]
        state.drawn += n
    else:
        state.boards = [state.deck[state.drawn]] * n
        state.drawn += 1
    state.totem, rerolled = _roll(state)
    if state.config.hard_reroll and state.config.boards is Deal.EACH:
        _fit_hard_boards(state)
    state.villages = [[] for _ in range(n)]
    state.done = [False] * n
    state.since = [state.step] * n
    state.complete_at = [None] * n
    state.last = [None] * n
    values = {"round": state.round, "rounds": ROUNDS, "animal": ANIMAL_TERMS[state.totem]}
    if state.config.boards is Deal.EACH and n > 1:  # whose board is which: "{p0} 3, {p1} 14"
        each = ", ".join(f"{_seat(seat)} {board}" for seat, board in enumerate(state.boards))
        if rerolled:
            told = said(
                "Round {round} of {rounds}: one board each ({boards}); the die shows the {animal} (rolled "
                "again until a hard task needing 6 huts or more for all 5 water holes came up). Everyone "
                "builds at once!",
                boards=each,
                **values,
            )
        else:
            told = said(
                "Round {round} of {rounds}: one board each ({boards}); the die shows the {animal}. "
                "Everyone builds at once!",
                boards=each,
                **values,
            )
    elif rerolled:
        told = said(
            "Round {round} of {rounds}: board {boards}; the die shows the {animal} (rolled again until "
            "a hard task needing 6 huts or more for all 5 water holes came up). Everyone builds at once!",
            boards=str(state.boards[0]),
            **values,
        )
    else:
        told = said(
            "Round {round} of {rounds}: board {boards}; the die shows the {animal}. Everyone builds at once!",
            boards=str(state.boards[0]),
            **values,
        )
    return [Event.told(told, kind="round")]


HARD_HUTS = 6
"""With ``hard_reroll``, a hard task in play needs at least this many huts (the ruling) to cover
all 5 water holes: the data records no other size, so with a lower ``water_target`` the die is
still rolled by these sizes, and the round's announcement says "for all 5 water holes"."""


def _hard_enough(task: BoardSide, totem: int) -> bool:
    return task.sizes[totem] >= HARD_HUTS


def _roll(state: State) -> tuple[int, bool]:
    """The round's die roll and whether it was rolled again.

    With ``hard_reroll`` and hard boards in play, the die is rolled until it
    shows a totem whose task needs 6 huts or more on every hard board in play
    (the shipped data records each task's smallest village).  Each board has
    such a totem; with one board each, several hard boards may share none: then
    the totems needing 6 on the most of them count, and ``_fit_hard_boards``
    deals the other hard seats new boards."""
    rng = rng_for(state.seed, "die", state.round)
    face = rng.randrange(6)
    hard = [board_side(b, side) for b, side in zip(state.boards, state.sides, strict=True) if side == "B"]
    if not (state.config.hard_reroll and hard):
        return face, False
    tough = [sum(_hard_enough(t, k) for t in hard) for k in range(6)]
    best = max(tough)
    rolled = False
    while tough[face] < best:
        face, rolled = rng.randrange(6), True
    return face, rolled


def _fit_hard_boards(state: State) -> None:
    """One board each: a hard board whose task for the rolled totem needs
    fewer than 6 huts goes back into the stack for the next one that needs 6
    or more (boards are dealt face down, so this is a deal like any other).
    If the rest of the stack has none, the board stays."""
    n = state.config.players
    first = state.drawn - n
    for seat in range(n):
        if state.sides[seat] != "B" or _hard_enough(board_side(state.boards[seat], "B"), state.totem):
            continue
        here = first + seat
        # only from the same stack: a board comes round again only after a reshuffle
        for j in range(state.drawn, min(len(state.deck), (here // BOARDS + 1) * BOARDS)):
            board = state.deck[j]
            later_round = state.deck[j - j % n : j - j % n + n]  # rounds deal n boards each
            if (
                board not in state.boards
                and state.deck[here] not in later_round
                and _hard_enough(board_side(board, "B"), state.totem)
            ):
                state.deck[here], state.deck[j] = board, state.deck[here]
                state.boards[seat] = board
                break


def copy_state(state: State) -> State:
    """A copy that shares nothing mutable with ``state`` (the config is frozen): what a trip
    through to_dict and from_dict gives, without the trip."""
    return State(
        config=state.config,
        seed=state.seed,
        deck=list(state.deck),
        drawn=state.drawn,
        round=state.round,
        boards=list(state.boards),
        sides=list(state.sides),
        totem=state.totem,
        villages=[list(v) for v in state.villages],
        done=list(state.done),
        since=list(state.since),
        complete_at=list(state.complete_at),
        scores=list(state.scores),
        history=[_copy_round(h) for h in state.history],
        step=state.step,
        last=list(state.last),
        over=state.over,
    )


def _copy_round(h: dict) -> dict:
    return {
        **h,
        "boards": list(h["boards"]),
        "sides": list(h["sides"]),
        "villages": [list(v) for v in h["villages"]],
        "rows": [dict(r) for r in h["rows"]],
    }


# --------------------------------------------------------------------------- helpers


def task_of(state: State, seat: int) -> BoardSide:
    return board_side(state.boards[seat], state.sides[seat])


def huts_of(state: State, seat: int) -> list[Placement]:
    return [placement_from_text(t) for t in state.villages[seat]]


@dataclass(frozen=True)
class Status:
    huts: int
    water: int
    fruit: int
    broken: Said | None  # why the village breaks a rule
    complete: bool


def status(state: State, seat: int) -> Status:
    task = task_of(state, seat)
    huts = huts_of(state, seat)
    occupied = 0
    for h in huts:
        occupied |= h.mask
    broken = village_problems(huts, task.totems[state.totem], task.other_totems(state.totem))
    water = (occupied & task.water_mask).bit_count()
    fruit = (occupied & task.fruit_mask).bit_count()
    complete = bool(huts) and broken is None and water >= state.config.water_target
    return Status(len(huts), water, fruit, broken, complete)


def _placement_error(state: State, seat: int, pl: Placement) -> Said | None:
    """Why ``pl`` may not be built in ``seat``'s village now (``None``: it may)."""
    task = task_of(state, seat)
    huts = huts_of(state, seat)
    name = pl.text
    for h in huts:
        if h.piece == pl.piece:
            return said(
                "hut {hut} is already in your village (take it back with 'remove {hut}')", hut=pl.piece
            )
    for h in huts:
        if h.mask & pl.mask:
            where = ", ".join(cell_name(c) for c in pl.cells if h.mask >> c & 1)
            return said("{place} would lie on hut {hut} at {cells}", place=name, hut=h.piece, cells=where)
    other = task.other_totems(state.totem)
    if pl.mask & other:
        c = next(c for c in pl.cells if other >> c & 1)
        return said(
            "{place} would cover the {animal} totem at {cell}; only the rolled {rolled} may be covered",
            place=name,
            animal=ANIMAL_TERMS[task.totems.index(c)],
            cell=cell_name(c),
            rolled=ANIMAL_TERMS[state.totem],
        )
    for h in huts:
        if h.edge & pl.mask:
            return said(
                "{place} would touch hut {hut} along an edge; huts may touch only at their corners",
                place=name,
                hut=h.piece,
            )
    rolled = task.totems[state.totem]
    if not huts:
        if not pl.mask >> rolled & 1:
            return said(
                "your first hut must cover the rolled {animal} totem at {cell}",
                animal=ANIMAL_TERMS[state.totem],
                cell=cell_name(rolled),
            )
    elif not any(h.corner & pl.mask for h in huts):
        return said("{place} touches none of your huts; each hut must touch another at a corner", place=name)
    return None


def _may_remove(huts: list[Placement], piece: str, rolled: int, other: int, broken: bool) -> bool:
    """Whether hut ``piece`` may be taken back from ``huts`` (``broken``: they break the rules
    already); :func:`_removal_error` says why not."""
    rest = [h for h in huts if h.piece != piece]
    return not rest or broken or village_problems(rest, rolled, other) is None


def _removal_error(state: State, seat: int, piece: str) -> Said | None:
    """Why hut ``piece`` may not be taken back now (``None``: it may).

    The village must stay one group grown from the hut on the rolled totem:
    that hut goes last, and a hut linking others to it stays while they do.
    A village already broken (only a state saved under older rules can be)
    may lose any hut, so that it can be repaired."""
    huts = huts_of(state, seat)
    task = task_of(state, seat)
    rolled = task.totems[state.totem]
    other = task.other_totems(state.totem)
    broken = village_problems(huts, rolled, other) is not None
    if _may_remove(huts, piece, rolled, other, broken):
        return None
    rest = [h for h in huts if h.piece != piece]
    allowed = [
        h.piece for h in huts if village_problems([o for o in huts if o is not h], rolled, other) is None
    ]
    if allowed:
        may = said("you may take back {huts}", huts=", ".join(allowed))
    else:
        may = said("you may take back no hut but the last one")
    gone = next(h for h in huts if h.piece == piece)
    animal = ANIMAL_TERMS[state.totem]
    if gone.mask >> rolled & 1:
        return said(
            "hut {hut} covers the rolled {animal} totem and the village is grown from it, "
            "so it goes only when it is your last hut; {may}",
            hut=piece,
            animal=animal,
            may=may,
        )
    root = next(h for h in rest if h.mask >> rolled & 1)
    cut = [h.piece for h in rest if h not in linked_to(rest, root)]
    return said_n(
        len(cut),
        "taking hut {hut} back would split your village: hut {huts} would no longer be linked "
        "to hut {root} on the {animal} totem; {may}",
        "taking hut {hut} back would split your village: huts {huts} would no longer be linked "
        "to hut {root} on the {animal} totem; {may}",
        hut=piece,
        huts=", ".join(cut),
        root=root.piece,
        animal=animal,
        may=may,
    )


def _legal_placements(state: State, seat: int) -> list[Placement]:
    task = task_of(state, seat)
    huts = huts_of(state, seat)
    used = {h.piece for h in huts}
    blocked = task.other_totems(state.totem)
    corners = 0
    for h in huts:
        blocked |= h.mask | h.edge
        corners |= h.corner
    if not huts:
        need = 1 << task.totems[state.totem]
    else:
        need = corners
    # as sets of placements: those covering a needed cell and no blocked one, of huts not used
    # (in index order, which is hut by hut in PIECES order)
    fits = covering_any(need) & ~covering_any(blocked)
    for p in used:
        fits &= ~PIECE_BITS[p]
    return placements_in(fits)


def _examples(state: State, seat: int, piece: str | None) -> Said:
    legal = _legal_placements(state, seat)
    if piece is not None:
        same = [pl for pl in legal if pl.piece == piece]
        if same:
            return said("hut {hut} fits at {places}", hut=piece, places=", ".join(pl.text for pl in same[:6]))
    if not legal:
        return said("no hut fits anywhere now; you may 'remove' a hut, call 'gwinea' if ready, or say 'done'")
    return said("legal placements include {places}", places=", ".join(pl.text for pl in legal[:6]))


# --------------------------------------------------------------------------- contract


def to_move(state: State) -> set[int]:
    if state.over:
        return set()
    return {s for s in range(state.config.players) if not state.done[s]}


def waiting(state: State, seat: int) -> Said | None:
    """Why ``seat``, not to move, waits: it said ``done`` while others still build (``None``
    when it is to move, or the game is over)."""
    if state.over or not 0 <= seat < state.config.players or not state.done[seat]:
        return None
    building = ", ".join(_seat(s) for s in sorted(to_move(state)))
    if state.round >= ROUNDS:  # no round comes after the last: its end is the game's
        return said(
            "you have finished building round {round}, the last; still building: {seats}. The game "
            "ends when this round does",
            round=state.round,
            seats=building,
        )
    return said(
        "you have finished building round {round}; still building: {seats}. You will be mentioned "
        "when the next round starts",
        round=state.round,
        seats=building,
    )


def turn_number(state: State) -> int:
    """The round being played (1..9): everyone builds at once, and a round is one turn."""
    return state.round


def legal_moves(state: State, seat: int | None) -> list[Move]:
    if state.over:
        return []
    if seat is None or seat == TABLE:
        return [Timeout()]
    if seat not in to_move(state):
        return []
    moves: list[Move] = [_PLACE_MOVES[pl.index] for pl in _legal_placements(state, seat)]
    huts = huts_of(state, seat)
    task = task_of(state, seat)
    rolled, other = task.totems[state.totem], task.other_totems(state.totem)
    broken = village_problems(huts, rolled, other) is not None
    moves.extend(Remove(t[0]) for t in state.villages[seat] if _may_remove(huts, t[0], rolled, other, broken))
    if status(state, seat).complete:
        moves.append(Gwinea())
    moves.append(Done())
    return moves


def apply_move(state: State, seat: int | None, move: Move) -> tuple[State, list[Event]]:
    if state.over:
        over = said_n(
            ROUNDS,
            "the game is over: its {n} round has been played",
            "the game is over: all {n} rounds have been played",
        )
        raise GameOver(over)
    if isinstance(move, Timeout):
        if seat is not None and seat != TABLE:
            raise NotYourTurn(
                "only the table ends a round at its deadline; build, call 'gwinea' or say 'done'"
            )
        new = copy_state(state)
        new.step += 1
        events = [Event.told(said("Time is up for round {round}!", round=state.round), kind="deadline")]
        events += _end_round(new, None)
        return new, events
    if seat is None or not 0 <= seat < state.config.players:
        raise NotYourTurn("only the seated players build villages")
    if state.done[seat]:
        raise NotYourTurn(waiting(state, seat) or said("you have finished building this round"))
    if isinstance(move, Place):
        return _place(state, seat, move)
    if isinstance(move, Remove):
        return _remove(state, seat, move)
    if isinstance(move, Gwinea):
        return _gwinea(state, seat)
    if isinstance(move, Done):
        return _done(state, seat)
    raise _not_a_move(repr(move))


def _seat(seat: int) -> str:
    """A seat as sentences write it (the table puts the name in)."""
    return f"{{p{seat}}}"


def _touch(new: State, seat: int, before: Status) -> None:
    after = status(new, seat)
    if after.water != before.water:
        new.since[seat] = new.step
    if after.complete and new.complete_at[seat] is None:
        new.complete_at[seat] = new.step
    elif not after.complete:
        new.complete_at[seat] = None


def _place(state: State, seat: int, move: Place) -> tuple[State, list[Event]]:
    if cells_of(move.piece, move.orient, move.anchor) is None:
        hint = _examples(state, seat, move.piece)
        raise IllegalMove(
            "{move} would stick out over the edge of the board; {hint}", move=str(move), hint=hint
        )
    pl = placement(move.piece, move.orient, move.anchor)
    assert pl is not None
    why = _placement_error(state, seat, pl)
    if why is not None:
        hint = _examples(state, seat, None if "already" in why.msg else move.piece)
        raise IllegalMove("{problem}; {hint}", problem=why, hint=hint)
    before = status(state, seat)
    new = copy_state(state)
    new.step += 1
    new.villages[seat].append(pl.text)
    new.last[seat] = pl.text
    _touch(new, seat, before)
    st = status(new, seat)
    values = {
        "p0": _seat(seat),
        "hut": pl.piece,
        "cells": " ".join(cell_name(c) for c in pl.cells),
        "place": pl.text,
        "water": _water_holes(st.water),
        "fruit": _fruit_bushes(st.fruit),
    }
    if st.complete:
        told = said(
            "{p0} built hut {hut} on {cells} ({place}): {water} and {fruit} covered; you may call 'gwinea'",
            **values,
        )
    else:
        told = said("{p0} built hut {hut} on {cells} ({place}): {water} and {fruit} covered", **values)
    # Building is private: the others learn that a hut was built (the public board shows each
    # village's hut count), not where; the channel hears of calls, finishes and round ends.
    public = said("{p0} built a hut", p0=_seat(seat))
    return new, [Event.told(told, visible_to={seat}, public=public, kind="place")]


def _water_holes(n: int) -> Said:
    return said_n(n, "{n} water hole", "{n} water holes")


def _fruit_bushes(n: int) -> Said:
    return said_n(n, "{n} fruit bush", "{n} fruit bushes")


def _remove(state: State, seat: int, move: Remove) -> tuple[State, list[Event]]:
    texts = state.villages[seat]
    idx = next((i for i, t in enumerate(texts) if t[0] == move.piece), None)
    if idx is None:
        if texts:
            have = ", ".join(t[0] for t in texts)
            raise IllegalMove(
                "hut {hut} is not in your village; your huts are: {huts}", hut=move.piece, huts=have
            )
        raise IllegalMove("hut {hut} is not in your village; you have no huts on the board", hut=move.piece)
    why = _removal_error(state, seat, move.piece)
    if why is not None:
        raise IllegalMove(why)
    before = status(state, seat)
    new = copy_state(state)
    new.step += 1
    del new.villages[seat][idx]
    new.last[seat] = str(move)
    _touch(new, seat, before)
    st = status(new, seat)
    if st.broken:
        told = said(
            "{p0} took hut {hut} back; careful, the village breaks the rules now ({problem}) and would score 0",
            p0=_seat(seat),
            hut=move.piece,
            problem=st.broken,
        )
    else:
        told = said("{p0} took hut {hut} back", p0=_seat(seat), hut=move.piece)
    public = said("{p0} took a hut back", p0=_seat(seat))
    return new, [Event.told(told, visible_to={seat}, public=public, kind="remove")]


def _gwinea(state: State, seat: int) -> tuple[State, list[Event]]:
    st = status(state, seat)
    target = state.config.water_target
    if st.broken:
        raise IllegalMove("you cannot call Gwinea: {problem}; fix the village first", problem=st.broken)
    if not st.huts or st.water < target:
        short = said_n(
            target,
            "you cannot call Gwinea yet: your village covers {water} of the {n} water hole needed; keep building",
            "you cannot call Gwinea yet: your village covers {water} of the {n} water holes needed; keep building",
            water=st.water,
        )
        raise IllegalMove(short)
    new = copy_state(state)
    new.step += 1
    new.last[seat] = "gwinea"
    events = [
        Event.told(
            said("{p0} calls Gwinea! Round {round} ends.", p0=_seat(seat), round=state.round), kind="gwinea"
        )
    ]
    for other in sorted(to_move(state) - {seat}):
        cut_off = said(
            "{p0} was still building when {p1} called: {p0}'s village scores as it stands.",
            p0=_seat(other),
            p1=_seat(seat),
        )
        events.append(Event.told(cut_off, kind="cut_off"))
    events += _end_round(new, seat)
    return new, events


def _done(state: State, seat: int) -> tuple[State, list[Event]]:
    new = copy_state(state)
    new.step += 1
    new.done[seat] = True
    new.last[seat] = "done"
    events = [Event.told(said("{p0} has finished building for this round", p0=_seat(seat)), kind="done")]
    if all(new.done):
        everyone = said("Everyone has finished building; round {round} ends.", round=state.round)
        events.append(Event.told(everyone, kind="deadline"))
        events += _end_round(new, None)
    return new, events


def deadline_caller(state: State) -> int | None:
    """Who counts as the caller when a round ends without a call: whoever
    completed a legal village first; otherwise the legal village with the most
    water holes (earliest to reach that count); nobody if no water is covered.

    With ``fruit_for_all`` only a completed village is a caller: the variant
    gives everyone short of the water holes 2 points per fruit bush, and a
    village short of them counted as the caller would lose that for the
    bonus (less for 1, 2 or 4 fruit bushes than a rival level with it).  So
    when nobody completed a village, nobody has the bonus and every legal
    village scores its water holes and 2 per fruit bush (a choice where the
    texts are silent)."""
    stats = [status(state, s) for s in range(state.config.players)]
    complete = [s for s in range(state.config.players) if stats[s].complete]
    if complete:
        return min(complete, key=lambda s: (state.complete_at[s], s))
    if state.config.fruit_for_all:
        return None
    ok = [s for s in range(state.config.players) if stats[s].broken is None and stats[s].water > 0]
    if not ok:
        return None
    return min(ok, key=lambda s: (-stats[s].water, state.since[s], s))


def round_points(state: State, caller: int | None) -> list[dict[str, Any]]:
    out = []
    for s in range(state.config.players):
        st = status(state, s)
        if st.broken:
            pts = 0
        else:
            pts = st.water
            if s == caller:
                pts += FRUIT_BONUS[st.fruit]
            elif state.config.fruit_for_all and st.water < state.config.water_target:
                # the variant consoles those who did not cover all the water holes, which with
                # water_target are the ones needed to call (the rulings)
                pts += 2 * st.fruit
        broken = None if st.broken is None else st.broken.in_words()  # stored in English
        out.append({"water": st.water, "fruit": st.fruit, "broken": broken, "points": pts})
    return out


def _end_round(state: State, caller: int | None) -> list[Event]:
    how = "gwinea" if caller is not None else "deadline"
    if caller is None:
        caller = deadline_caller(state)
    rows = round_points(state, caller)
    for s, row in enumerate(rows):
        state.scores[s] += row["points"]
    state.history.append(
        {
            "round": state.round,
            "boards": list(state.boards),
            "sides": list(state.sides),
            "totem": state.totem,
            "villages": [list(v) for v in state.villages],
            "caller": caller,
            "how": how,
            "rows": rows,
        }
    )
    parts = []
    for s, row in enumerate(rows):
        if row["broken"]:
            problem = status(state, s).broken
            parts.append(
                said("{p0} 0 points (the village breaks the rules: {problem})", p0=_seat(s), problem=problem)
            )
            continue
        values = {"p0": _seat(s), "water": _water_holes(row["water"]), "fruit": _fruit_bushes(row["fruit"])}
        if s == caller and row["fruit"]:
            parts.append(
                said_n(
                    row["points"],
                    "{p0} {n} point ({water}, {fruit} + fruit bonus)",
                    "{p0} {n} points ({water}, {fruit} + fruit bonus)",
                    **values,
                )
            )
        else:
            parts.append(
                said_n(
                    row["points"],
                    "{p0} {n} point ({water}, {fruit})",
                    "{p0} {n} points ({water}, {fruit})",
                    **values,
                )
            )
    scores = _joined("; ", parts)
    lead_values: dict[str, Any] = {"round": state.round, "scores": scores}
    if how != "deadline":
        template = N_("Round {round} scores: {scores}.")
    elif caller is None and state.config.fruit_for_all:
        template = N_(
            "Round {round} scores: {scores}. Nobody called Gwinea, and no village covers the water holes "
            "needed: no fruit bonus, and every legal village scores 2 per fruit bush."
        )
    elif caller is None:
        template = N_(
            "Round {round} scores: {scores}. Nobody called Gwinea, and no village covers a water hole: "
            "no fruit bonus."
        )
    else:
        lead_values["p0"] = _seat(caller)
        if status(state, caller).complete:
            template = N_(
                "Round {round} scores: {scores}. Nobody called Gwinea: the fruit bonus goes to {p0}, "
                "who completed a village first."
            )
        elif any(
            other != caller and row["broken"] is None and row["water"] == rows[caller]["water"]
            for other, row in enumerate(rows)
        ):  # another legal village covers as many: the earlier to reach that count has the bonus
            template = N_(
                "Round {round} scores: {scores}. Nobody called Gwinea: the fruit bonus goes to {p0}, "
                "whose legal village covers the most water holes and reached that count first."
            )
        else:
            template = N_(
                "Round {round} scores: {scores}. Nobody called Gwinea: the fruit bonus goes to {p0}, "
                "whose legal village covers the most water holes."
            )
    lead = Said(template, lead_values)
    events = [Event.told(lead, kind="score")]
    if state.round >= ROUNDS:
        state.over = True
        state.done = [True] * state.config.players
        res = outcome(state)
        assert res is not None
        events.append(Event.told(_game_over(res), kind="end"))
    else:
        events += _start_round(state)
    return events


def _joined(separator: str, parts: list[Said]) -> Said:
    """Sentences one after the other, ``separator`` between them: punctuation only, the same in
    every language, so it is no message to translate (each part is translated on its own)."""
    names = [f"part{i}" for i in range(len(parts))]
    template = separator.join(f"{{{name}}}" for name in names)
    return Said(template, dict(zip(names, parts, strict=True)))


def _game_over(res: Outcome) -> Said:
    """The last event's sentence: the rounds played, who won and with how many points."""
    rounds = said_n(ROUNDS, "{n} round", "{n} rounds")
    best = int(res.scores[res.winners[0]])
    winners = [_seat(s) for s in res.winners]
    if len(winners) == 1:
        return said_n(
            best,
            "The game is over after {rounds}; {p0} wins with {n} point.",
            "The game is over after {rounds}; {p0} wins with {n} points.",
            rounds=rounds,
            p0=winners[0],
        )
    if len(winners) == 2:
        shared = said("{p0} and {p1}", p0=winners[0], p1=winners[1])
    elif len(winners) == 3:
        shared = said("{p0}, {p1} and {p2}", p0=winners[0], p1=winners[1], p2=winners[2])
    else:
        shared = said("{p0}, {p1}, {p2} and {p3}", p0=winners[0], p1=winners[1], p2=winners[2], p3=winners[3])
    return said_n(
        best,
        "The game is over after {rounds}; {winners} win with {n} point.",
        "The game is over after {rounds}; {winners} win with {n} points.",
        rounds=rounds,
        winners=shared,
    )


def scores_now(state: State) -> tuple[float, ...]:
    """Each seat's points from the rounds played so far (for the results card's chart)."""
    return tuple(float(v) for v in state.scores)


def outcome(state: State) -> Outcome | None:
    if not state.over:
        return None
    seats = range(state.config.players)
    # points alone rank the seats (a tie is shared), so no tiebreak ever decides
    ranking, _tiebreak = rank_by(seats, [("points", dict(enumerate(state.scores)))])
    reason = said_n(ROUNDS, "the only round was played", "all {n} rounds were played")
    return Outcome.told(
        [float(x) for x in state.scores],
        ranking,
        reason,
        None,
        {"per_round": [[row["points"] for row in h["rows"]] for h in state.history]},
    )


# --------------------------------------------------------------------------- views


@dataclass(frozen=True)
class BoardInfo:
    board: int
    side: str
    totems: tuple[str, ...]
    water: tuple[str, ...]
    fruit: tuple[str, ...]


@lru_cache(maxsize=256)
def board_info(board: int, side: str) -> BoardInfo:
    t = board_side(board, side)
    return BoardInfo(
        board,
        side,
        tuple(cell_name(c) for c in t.totems),
        tuple(cell_name(c) for c in t.water),
        tuple(cell_name(c) for c in t.fruit),
    )


@dataclass(frozen=True)
class View:
    seat: int | None
    players: int
    round: int
    rounds: int
    over: bool
    totem: int
    animal: str
    water_target: int
    fruit_for_all: bool
    boards: tuple[BoardInfo, ...]  # each seat's board this round (public)
    villages: tuple[Any, ...]  # own huts (placement texts); UNKNOWN for others
    huts: tuple[int, ...]  # huts built, per seat (public count)
    done: tuple[bool, ...]
    to_move: tuple[int, ...]
    scores: tuple[int, ...]
    water: int | None  # own village: water holes covered
    fruit: int | None
    broken: Said | None  # own village: why it breaks a rule
    can_call: bool
    last_move: str | None  # own last move
    deck_left: int
    last_round: dict | None  # the finished round, every village revealed
    per_round: tuple[tuple[int, ...], ...]  # points per finished round
    stack_left: int = BOARDS  # boards left in the stack on the table (it holds 32; see stack_left())


def view_for(state: State, seat: int | None) -> View:
    n = state.config.players
    mine = seat if seat is not None and 0 <= seat < n else None
    own = mine is not None
    st = status(state, mine) if mine is not None else None
    return View(
        seat=seat,
        players=n,
        round=state.round,
        rounds=ROUNDS,
        over=state.over,
        totem=state.totem,
        animal=ANIMALS[state.totem],
        water_target=state.config.water_target,
        fruit_for_all=state.config.fruit_for_all,
        boards=tuple(board_info(state.boards[s], state.sides[s]) for s in range(n)),
        villages=tuple(tuple(state.villages[s]) if own and s == seat else UNKNOWN for s in range(n)),
        huts=tuple(len(v) for v in state.villages),
        done=tuple(state.done),
        to_move=tuple(sorted(to_move(state))),
        scores=tuple(state.scores),
        water=st.water if st else None,
        fruit=st.fruit if st else None,
        broken=st.broken if st else None,
        can_call=bool(st and mine is not None and st.complete and not state.done[mine]) and not state.over,
        last_move=state.last[mine] if mine is not None else None,
        deck_left=len(state.deck) - state.drawn,
        last_round=dict(state.history[-1]) if state.history else None,
        per_round=tuple(tuple(row["points"] for row in h["rows"]) for h in state.history),
        stack_left=stack_left(state),
    )


def stack_left(state: State) -> int:
    """The boards left in the stack on the table: the 32 boards less those drawn since the used
    ones were last shuffled into a new stack (``deck_left`` counts the whole planned deal, which
    with one board each for 4 players runs to a second stack)."""
    return BOARDS - 1 - (state.drawn - 1) % BOARDS if state.drawn else BOARDS


# --------------------------------------------------------------------------- what is public


def move_privacy(state: State, seat: int, move: Move) -> Privacy:
    """Building and taking back huts stays the builder's secret until the round ends.

    Such moves are quiet: the channel hears of calls, finishes and round
    ends, not of every hut.
    """
    if isinstance(move, Place):
        return Privacy(owner=seat, until=at_round_end(state.round), mask="hut ?", quiet=True)
    if isinstance(move, Remove):
        return Privacy(owner=seat, until=at_round_end(state.round), mask="remove ?", quiet=True)
    return PUBLIC


def undoable(state: State, seat: int, move: Move) -> bool:
    """Whether ``move``, played by ``seat`` from ``state``, could be taken back by consent: it
    reveals no village and rolls no die.

    Not undoable: calling Gwinea, a ``done`` that ends the round (the villages are revealed and
    the die is rolled for the next round), the table's timeout, and any move that ends the game.
    Undoable: building or removing a hut (secret to its builder), and ``done`` while others are
    still building.  (Taking back one's own hut is also a rule of the game: ``remove``.)
    """
    if isinstance(move, str):
        move = parse_move(move)
    if isinstance(move, Gwinea | Timeout) or move is None:
        return False
    after, _ = apply_move(state, seat, move)
    return after.round == state.round and after.drawn == state.drawn and not after.over


def readable(state: State, privacy: Privacy, reader: int | None) -> bool:
    return can_read(privacy, reader, over=state.over, rounds_ended=len(state.history))


def summary(view: View) -> str | Said:
    """The seat's village this round (huts, water, fruit, any broken rule), a few lines kept for
    translation (``""`` for a spectator)."""
    if view.seat is None:
        return ""
    huts = view.villages[view.seat]
    lines = [
        said(
            "Round {round} of {rounds}, totem: {animal}. Your score: {score}",
            round=view.round,
            rounds=view.rounds,
            animal=ANIMAL_TERMS[view.totem],
            score=view.scores[view.seat],
        )
    ]
    if huts:
        lines.append(
            said(
                "Your village: {huts} (water {water} of {target}, fruit {fruit})",
                huts=" ".join(huts),
                water=view.water,
                target=view.water_target,
                fruit=view.fruit,
            )
        )
    else:
        lines.append(said("Your village: no huts yet"))
    if view.broken:
        lines.append(said("It breaks a rule: {problem}", problem=view.broken))
    elif view.can_call:
        lines.append(said("You may call 'gwinea'."))
    return _joined("\n", lines)


# --------------------------------------------------------------------------- storage


def to_dict(state: State) -> dict:
    c = state.config
    return {
        "schema": SCHEMA,
        "config": {
            "players": c.players,
            "side": c.side.value,
            "hard_seats": c.hard_seats,
            "boards": c.boards.value,
            "water_target": c.water_target,
            "fruit_for_all": c.fruit_for_all,
            "hard_reroll": c.hard_reroll,
        },
        "seed": state.seed,
        "deck": list(state.deck),
        "drawn": state.drawn,
        "round": state.round,
        "boards": list(state.boards),
        "sides": list(state.sides),
        "totem": state.totem,
        "villages": [list(v) for v in state.villages],
        "done": list(state.done),
        "since": list(state.since),
        "complete_at": list(state.complete_at),
        "scores": list(state.scores),
        "history": [
            {
                **h,
                "boards": list(h["boards"]),
                "sides": list(h["sides"]),
                "villages": [list(v) for v in h["villages"]],
                "rows": [dict(r) for r in h["rows"]],
            }
            for h in state.history
        ],
        "step": state.step,
        "last": list(state.last),
        "over": state.over,
    }


def from_dict(data: dict) -> State:
    if data.get("schema") != SCHEMA:
        raise SetupError("unsupported Nowa Gwinea state schema {schema}", schema=repr(data.get("schema")))
    c = data["config"]
    config = Config(
        players=c["players"],
        side=Side(c["side"]),
        hard_seats=c["hard_seats"],
        boards=Deal(c["boards"]),
        water_target=c["water_target"],
        fruit_for_all=c["fruit_for_all"],
        # states saved before the option existed rolled the die once
        hard_reroll=c.get("hard_reroll", False),
    )
    return State(
        config=config,
        seed=data["seed"],
        deck=list(data["deck"]),
        drawn=data["drawn"],
        round=data["round"],
        boards=list(data["boards"]),
        sides=list(data["sides"]),
        totem=data["totem"],
        villages=[list(v) for v in data["villages"]],
        done=list(data["done"]),
        since=list(data["since"]),
        complete_at=list(data["complete_at"]),
        scores=list(data["scores"]),
        history=[
            {
                **h,
                "boards": list(h["boards"]),
                "sides": list(h["sides"]),
                "villages": [list(v) for v in h["villages"]],
                "rows": [dict(r) for r in h["rows"]],
            }
            for h in data["history"]
        ],
        step=data["step"],
        last=list(data["last"]),
        over=data["over"],
    )

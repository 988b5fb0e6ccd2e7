"""The rules of Nowa Gwinea: options, moves, state, rounds and scoring."""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field
from typing import Any

from engines.core import (
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
    SetupError,
    at_round_end,
    can_read,
    plural,
    quoted,
    rank_by,
    rng_for,
)

from .data import ANIMALS, BOARDS, FRUIT_BONUS, ROUNDS, BoardSide, board_side
from .geometry import (
    BY_PIECE,
    CANONICAL,
    PIECES,
    Placement,
    cell_name,
    cell_of,
    cells_of,
    linked_to,
    placement,
    placement_from_text,
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
        metadata={"help": "which side of the task boards everyone plays: standard (A) or hard (B)"},
    )
    hard_seats: str = field(
        default="",
        metadata={
            "help": "seat numbers (1-4, comma separated) that play the hard side whatever "
            "'side' says, e.g. '1,2' for the grown-ups"
        },
    )
    boards: Deal = field(
        default=Deal.SHARED,
        metadata={"help": "shared: everyone gets the same board each round; each: one board per player"},
    )
    water_target: int = field(
        default=5,
        metadata={
            "help": "water holes needed to call Gwinea (variant: fewer than 5)",
            "choices": (1, 2, 3, 4, 5),
        },
    )
    fruit_for_all: bool = field(
        default=False,
        metadata={
            "help": "variant: players who did not cover all the water holes score 2 points per "
            "fruit bush covered"
        },
    )
    hard_reroll: bool = field(
        default=True,
        metadata={
            "help": "when hard boards are in play, roll the die again until it shows a totem "
            "whose hard task needs 6 huts or more"
        },
    )

    def validate(self) -> None:
        if not isinstance(self.players, int) or not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise SetupError(f"Nowa Gwinea takes {MIN_PLAYERS} to {MAX_PLAYERS} players, not {self.players}")
        if not isinstance(self.side, Side):
            raise SetupError("side must be standard or hard")
        if not isinstance(self.boards, Deal):
            raise SetupError("boards must be shared or each")
        if not isinstance(self.hard_reroll, bool):
            raise SetupError("hard_reroll must be yes or no")
        if self.water_target not in (1, 2, 3, 4, 5):
            raise SetupError(f"water_target must be 1 to 5 water holes, not {self.water_target}")
        self.hard_seat_set()

    def hard_seat_set(self) -> frozenset[int]:
        """Seats (0-based) playing the hard side because of ``hard_seats``."""
        text = (self.hard_seats or "").replace(" ", "")
        if not text:
            return frozenset()
        out = set()
        for part in text.split(","):
            if not part.isdigit() or not 1 <= int(part) <= self.players:
                raise SetupError(
                    f"hard_seats lists seat numbers 1 to {self.players} separated by commas, like '1,3'; "
                    f"{part!r} is not one"
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
_HELP = (
    "write a hut letter (F I L N P T U V W X Y Z), an orientation 0-7 and the anchor square, "
    "like F3C4; or 'remove F', 'gwinea', 'done'"
)


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
    raise MalformedMove(f"{quoted(text)} is not a Nowa Gwinea move; {_HELP}")


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
        raise SetupError(
            f"the config is for {plural(config.players, 'player')} but {plural(seats, 'seat')} were given"
        )
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
    where = "board " + ", ".join(str(b) for b in sorted(set(state.boards)))
    return [
        Event(
            f"Round {state.round} of {ROUNDS}: {where}; the die shows the {ANIMALS[state.totem]}"
            f"{' (rolled again until a hard task needing 6 huts or more came up)' if rerolled else ''}. "
            "Everyone builds at once!",
            kind="round",
        )
    ]


HARD_HUTS = 6
"""With ``hard_reroll``, a hard task in play needs at least this many huts (the ruling)."""


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
    return from_dict(to_dict(state))


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
    broken: str | None
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


def _placement_error(state: State, seat: int, pl: Placement) -> str | None:
    """Why ``pl`` may not be built in ``seat``'s village now (``None``: it may)."""
    task = task_of(state, seat)
    huts = huts_of(state, seat)
    name = pl.text
    for h in huts:
        if h.piece == pl.piece:
            return f"hut {pl.piece} is already in your village (take it back with 'remove {pl.piece}')"
    for h in huts:
        if h.mask & pl.mask:
            where = ", ".join(cell_name(c) for c in pl.cells if h.mask >> c & 1)
            return f"{name} would lie on hut {h.piece} at {where}"
    other = task.other_totems(state.totem)
    if pl.mask & other:
        c = next(c for c in pl.cells if other >> c & 1)
        animal = ANIMALS[task.totems.index(c)]
        return (
            f"{name} would cover the {animal} totem at {cell_name(c)}; only the rolled "
            f"{ANIMALS[state.totem]} may be covered"
        )
    for h in huts:
        if h.edge & pl.mask:
            return f"{name} would touch hut {h.piece} along an edge; huts may touch only at their corners"
    rolled = task.totems[state.totem]
    if not huts:
        if not pl.mask >> rolled & 1:
            return f"your first hut must cover the rolled {ANIMALS[state.totem]} totem at {cell_name(rolled)}"
    elif not any(h.corner & pl.mask for h in huts):
        return f"{name} touches none of your huts; each hut must touch another at a corner"
    return None


def _removal_error(state: State, seat: int, piece: str) -> str | None:
    """Why hut ``piece`` may not be taken back now (``None``: it may).

    The village must stay one group grown from the hut on the rolled totem:
    that hut goes last, and a hut linking others to it stays while they do.
    A village already broken (only a state saved under older rules can be)
    may lose any hut, so that it can be repaired."""
    huts = huts_of(state, seat)
    task = task_of(state, seat)
    rolled = task.totems[state.totem]
    other = task.other_totems(state.totem)
    rest = [h for h in huts if h.piece != piece]
    if not rest or village_problems(huts, rolled, other) is not None:
        return None
    if village_problems(rest, rolled, other) is None:
        return None
    allowed = [
        h.piece for h in huts if village_problems([o for o in huts if o is not h], rolled, other) is None
    ]
    may = "you may take back " + (", ".join(allowed) if allowed else "no hut but the last one")
    gone = next(h for h in huts if h.piece == piece)
    if gone.mask >> rolled & 1:
        return (
            f"hut {piece} covers the rolled {ANIMALS[state.totem]} totem and the village is grown from it, "
            f"so it goes only when it is your last hut; {may}"
        )
    root = next(h for h in rest if h.mask >> rolled & 1)
    cut = [h.piece for h in rest if h not in linked_to(rest, root)]
    return (
        f"taking hut {piece} back would split your village: hut{'s' if len(cut) > 1 else ''} "
        f"{', '.join(cut)} would no longer be linked to hut {root.piece} on the {ANIMALS[state.totem]} "
        f"totem; {may}"
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
    out = []
    for p in PIECES:
        if p in used:
            continue
        for pl in BY_PIECE[p]:
            if not pl.mask & blocked and pl.mask & need:
                out.append(pl)
    return out


def _examples(state: State, seat: int, piece: str | None) -> str:
    legal = _legal_placements(state, seat)
    if piece is not None:
        same = [pl for pl in legal if pl.piece == piece]
        if same:
            return f"hut {piece} fits at " + ", ".join(pl.text for pl in same[:6])
    if not legal:
        return "no hut fits anywhere now; you may 'remove' a hut, call 'gwinea' if ready, or say 'done'"
    return "legal placements include " + ", ".join(pl.text for pl in legal[:6])


# --------------------------------------------------------------------------- contract


def to_move(state: State) -> set[int]:
    if state.over:
        return set()
    return {s for s in range(state.config.players) if not state.done[s]}


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
    moves: list[Move] = [Place(pl.piece, pl.orient, pl.anchor) for pl in _legal_placements(state, seat)]
    moves.extend(Remove(t[0]) for t in state.villages[seat] if _removal_error(state, seat, t[0]) is None)
    if status(state, seat).complete:
        moves.append(Gwinea())
    moves.append(Done())
    return moves


def apply_move(state: State, seat: int | None, move: Move) -> tuple[State, list[Event]]:
    if state.over:
        raise GameOver("the game is over: all 9 rounds have been played")
    if isinstance(move, Timeout):
        if seat is not None and seat != TABLE:
            raise NotYourTurn(
                "only the table ends a round at its deadline; build, call 'gwinea' or say 'done'"
            )
        new = copy_state(state)
        new.step += 1
        events = [Event(f"Time is up for round {state.round}!", kind="deadline")]
        events += _end_round(new, None)
        return new, events
    if seat is None or not 0 <= seat < state.config.players:
        raise NotYourTurn("only the seated players build villages")
    if state.done[seat]:
        waiting = ", ".join(f"{{p{s}}}" for s in sorted(to_move(state)))
        raise NotYourTurn(f"you have finished building this round; waiting for {waiting}")
    if isinstance(move, Place):
        return _place(state, seat, move)
    if isinstance(move, Remove):
        return _remove(state, seat, move)
    if isinstance(move, Gwinea):
        return _gwinea(state, seat)
    if isinstance(move, Done):
        return _done(state, seat)
    raise MalformedMove(f"{move!r} is not a Nowa Gwinea move; {_HELP}")


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
        raise IllegalMove(
            f"{move} would stick out over the edge of the board; {_examples(state, seat, move.piece)}"
        )
    pl = placement(move.piece, move.orient, move.anchor)
    assert pl is not None
    why = _placement_error(state, seat, pl)
    if why is not None:
        raise IllegalMove(f"{why}; {_examples(state, seat, None if 'already' in why else move.piece)}")
    before = status(state, seat)
    new = copy_state(state)
    new.step += 1
    new.villages[seat].append(pl.text)
    new.last[seat] = pl.text
    _touch(new, seat, before)
    st = status(new, seat)
    cells = " ".join(cell_name(c) for c in pl.cells)
    text = (
        f"{{p{seat}}} built hut {pl.piece} on {cells} ({pl.text}): "
        f"{plural(st.water, 'water hole')} and {plural(st.fruit, 'fruit bush', 'fruit bushes')} covered"
    )
    if st.complete:
        text += "; you may call 'gwinea'"
    # Building is private: the others learn that a hut was built (the public board shows each
    # village's hut count), not where; the channel hears of calls, finishes and round ends.
    return new, [
        Event(text, visible_to=frozenset({seat}), public_text=f"{{p{seat}}} built a hut", kind="place")
    ]


def _remove(state: State, seat: int, move: Remove) -> tuple[State, list[Event]]:
    texts = state.villages[seat]
    idx = next((i for i, t in enumerate(texts) if t[0] == move.piece), None)
    if idx is None:
        have = ", ".join(t[0] for t in texts) or "none"
        raise IllegalMove(f"hut {move.piece} is not in your village; your huts are: {have}")
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
    text = f"{{p{seat}}} took hut {move.piece} back"
    if st.broken:
        text += f"; careful, the village breaks the rules now ({st.broken}) and would score 0"
    return new, [
        Event(text, visible_to=frozenset({seat}), public_text=f"{{p{seat}}} took a hut back", kind="remove")
    ]


def _gwinea(state: State, seat: int) -> tuple[State, list[Event]]:
    st = status(state, seat)
    target = state.config.water_target
    if st.broken:
        raise IllegalMove(f"you cannot call Gwinea: {st.broken}; fix the village first")
    if not st.huts or st.water < target:
        raise IllegalMove(
            f"you cannot call Gwinea yet: your village covers {st.water} of the {plural(target, 'water hole')} needed; "
            "keep building"
        )
    new = copy_state(state)
    new.step += 1
    new.last[seat] = "gwinea"
    events = [Event(f"{{p{seat}}} calls Gwinea! Round {state.round} ends.", kind="gwinea")]
    for other in sorted(to_move(state) - {seat}):
        events.append(
            Event(
                f"{{p{other}}} was still building when {{p{seat}}} called: "
                f"{{p{other}}}'s village scores as it stands.",
                kind="cut_off",
            )
        )
    events += _end_round(new, seat)
    return new, events


def _done(state: State, seat: int) -> tuple[State, list[Event]]:
    new = copy_state(state)
    new.step += 1
    new.done[seat] = True
    new.last[seat] = "done"
    events = [Event(f"{{p{seat}}} has finished building for this round", kind="done")]
    if all(new.done):
        events.append(Event(f"Everyone has finished building; round {state.round} ends.", kind="deadline"))
        events += _end_round(new, None)
    return new, events


def deadline_caller(state: State) -> int | None:
    """Who counts as the caller when a round ends without a call: whoever
    completed a legal village first; otherwise the legal village with the most
    water holes (earliest to reach that count); nobody if no water is covered."""
    stats = [status(state, s) for s in range(state.config.players)]
    complete = [s for s in range(state.config.players) if stats[s].complete]
    if complete:
        return min(complete, key=lambda s: (state.complete_at[s], s))
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
                # the variant consoles those who did not cover all the water holes
                pts += 2 * st.fruit
        out.append({"water": st.water, "fruit": st.fruit, "broken": st.broken, "points": pts})
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
            parts.append(f"{{p{s}}} 0 points (the village breaks the rules: {row['broken']})")
        else:
            extra = " + fruit bonus" if s == caller and row["fruit"] else ""
            water = plural(row["water"], "water hole")
            fruit = plural(row["fruit"], "fruit bush", "fruit bushes")
            parts.append(f"{{p{s}}} {plural(row['points'], 'point')} ({water}, {fruit}{extra})")
    lead = f"Round {state.round} scores: " + "; ".join(parts) + "."
    if how == "deadline":
        if caller is None:
            lead += " Nobody called Gwinea, and no village covers a water hole: no fruit bonus."
        elif status(state, caller).complete:
            lead += f" Nobody called Gwinea: the fruit bonus goes to {{p{caller}}}, who completed a village first."
        else:
            lead += (
                f" Nobody called Gwinea: the fruit bonus goes to {{p{caller}}}, "
                "whose legal village covers the most water holes."
            )
    events = [Event(lead, kind="score")]
    if state.round >= ROUNDS:
        state.over = True
        state.done = [True] * state.config.players
        res = outcome(state)
        assert res is not None
        win = " and ".join(f"{{p{s}}}" for s in res.winners)
        events.append(
            Event(
                f"The game is over after {plural(ROUNDS, 'round')}; {win} "
                f"{'win' if len(res.winners) > 1 else 'wins'} with "
                f"{plural(int(res.scores[res.winners[0]]), 'point')}.",
                kind="end",
            )
        )
    else:
        events += _start_round(state)
    return events


def outcome(state: State) -> Outcome | None:
    if not state.over:
        return None
    seats = range(state.config.players)
    ranking, tiebreak = rank_by(seats, [("points", dict(enumerate(state.scores)))])
    return Outcome(
        scores=tuple(float(x) for x in state.scores),
        ranking=ranking,
        reason=f"all {plural(ROUNDS, 'round')} were played",
        tiebreak=tiebreak,
        details={"per_round": [[row["points"] for row in h["rows"]] for h in state.history]},
    )


# --------------------------------------------------------------------------- views


@dataclass(frozen=True)
class BoardInfo:
    board: int
    side: str
    totems: tuple[str, ...]
    water: tuple[str, ...]
    fruit: tuple[str, ...]


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
    broken: str | None
    can_call: bool
    last_move: str | None  # own last move
    deck_left: int
    last_round: dict | None  # the finished round, every village revealed
    per_round: tuple[tuple[int, ...], ...]  # points per finished round


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
    )


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


def readable(state: State, privacy: Privacy, reader: int | None) -> bool:
    return can_read(privacy, reader, over=state.over, rounds_ended=len(state.history))


def summary(view: View) -> str:
    """The seat's village this round (huts, water, fruit, any broken rule), in plain text."""
    if view.seat is None:
        return ""
    huts = view.villages[view.seat]
    lines = [
        f"Round {view.round} of {view.rounds}, totem: {view.animal}. Your score: {view.scores[view.seat]}",
        f"Your village: {' '.join(huts) if huts else 'no huts yet'}"
        + (f" (water {view.water} of {view.water_target}, fruit {view.fruit})" if huts else ""),
    ]
    if view.broken:
        lines.append(f"It breaks a rule: {view.broken}")
    elif view.can_call:
        lines.append("You may call 'gwinea'.")
    return "\n".join(lines)


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
        raise SetupError(f"unsupported Nowa Gwinea state schema {data.get('schema')!r}")
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

"""Nim, the small game the table's tests play.

Players take turns removing stones from one pile; whoever takes the last stone
wins.  It is defined only in the tests and registered by them, so that the
table, the terminal and the Discord stand-in are exercised by a real engine
that follows the whole contract in a few lines.

Notation: the pile's letter and how many stones to take, ``B3`` takes three
stones from pile B.  Each seat holds a hidden "secret" number, used to test
that private views stay private.  ``skip`` is a table move: when a turn's
deadline passes the table skips the late player's turn.
"""

from __future__ import annotations

import dataclasses
import os
import random
import re
import threading
from dataclasses import dataclass, field

from engines.core import (
    N_,
    PUBLIC,
    TABLE,
    UNKNOWN,
    Event,
    GameOver,
    IllegalMove,
    Kind,
    MalformedMove,
    MoveWords,
    NotYourTurn,
    Outcome,
    Privacy,
    Section,
    SetupError,
    can_read,
    rng_for,
    said,
    said_n,
)

TITLE = "Nim"
MIN_PLAYERS = 1
MAX_PLAYERS = 4
EDITION = 1
SCHEMA = 1
TABLE_MOVES = True


@dataclass(frozen=True)
class Config:
    players: int = 2
    piles: int = field(default=3, metadata={"help": "number of piles", "choices": (1, 2, 3, 4, 5)})

    def validate(self) -> None:
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise SetupError(f"Nim takes {MIN_PLAYERS} to {MAX_PLAYERS} players, not {self.players}")
        if not 1 <= self.piles <= 5:
            raise SetupError("Nim takes 1 to 5 piles")


@dataclass(frozen=True)
class Move:
    pile: int
    count: int

    def __str__(self) -> str:
        return f"{'ABCDE'[self.pile]}{self.count}"


@dataclass(frozen=True)
class Skip:
    def __str__(self) -> str:
        return "skip"


@dataclass
class State:
    config: Config
    seed: int
    piles: list[int]
    secrets: list[int]
    turn: int = 0
    winner: int | None = None
    last: str | None = None
    moves: int = 0


@dataclass(frozen=True)
class View:
    seat: int | None
    players: int
    piles: tuple[int, ...]
    secrets: tuple[object, ...]
    turn: int
    winner: int | None
    last: str | None


def new_game(config: Config, seats: int, seed: int) -> State:
    config.validate()
    if seats != config.players:
        raise SetupError(f"the config is for {config.players} players but {seats} seats were given")
    rng = rng_for(seed, "setup")
    piles = [rng.randint(2, 6) for _ in range(config.piles)]
    secrets = [rng.randint(100, 999) for _ in range(seats)]
    return State(config=config, seed=seed, piles=piles, secrets=secrets)


_MOVE = re.compile(r"^\s*([A-Ea-e])\s*(\d{1,2})\s*$")


def parse_move(text: str) -> Move:
    if (text or "").strip().lower() == "skip":
        return Skip()
    if (text or "").strip().lower() == "crash":
        # A deliberate bug, so the tests can check how the table survives one.
        raise RuntimeError("the Nim engine crashed on purpose")
    m = _MOVE.match(text or "")
    if not m:
        raise MalformedMove(f"{text!r} is not a Nim move; write a pile letter and a count, like B3")
    return Move("ABCDE".index(m.group(1).upper()), int(m.group(2)))


def to_move(state: State) -> set[int]:
    return set() if state.winner is not None else {state.turn}


def turn_number(state: State) -> int:
    """Every Nim move is a whole turn."""
    return state.moves + 1


KINDS = (Kind("take"), Kind("skip"))
WORDS = {
    "kind.take": N_("Take stones"),
    "kind.skip": N_("Skip"),
    "group.take": N_("Pile {pile}:"),
    "move.take": N_("take {count}"),
    "move.skip": N_("skip the late player's turn"),
}


def move_words(state: State, seat: int, move) -> MoveWords:
    if isinstance(move, Skip):
        return MoveWords("skip", "move.skip")
    pile = "ABCDE"[move.pile]
    return MoveWords(
        "take", "move.take", {"count": move.count, "pile": pile}, group=pile, group_args={"pile": pile}
    )


def legal_moves(state: State, seat: int) -> list[Move]:
    if seat == TABLE:
        return [Skip()] if state.winner is None else []
    if seat not in to_move(state):
        return []
    return [Move(p, c) for p, n in enumerate(state.piles) for c in range(1, n + 1)]


def apply_move(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    if state.winner is not None:
        raise GameOver("the game is over")
    if isinstance(move, Skip):
        if seat != TABLE:
            raise IllegalMove("only the table skips a turn, when its deadline passes")
        new = dataclasses.replace(state, piles=list(state.piles), secrets=list(state.secrets))
        new.turn = (state.turn + 1) % state.config.players
        new.moves += 1
        return new, [Event.told(said("{p0} ran out of time and was skipped", p0=f"{{p{state.turn}}}"))]
    if seat != state.turn:
        raise NotYourTurn(f"it is seat {state.turn + 1}'s turn, not yours")
    if not 0 <= move.pile < len(state.piles):
        letters = ", ".join("ABCDE"[: len(state.piles)])
        raise IllegalMove(f"there is no pile {str(move)[0]}; the piles are {letters}")
    have = state.piles[move.pile]
    if not 1 <= move.count <= have:
        raise IllegalMove(
            said_n(
                have,
                "pile {pile} has {n} stone; take 1",
                "pile {pile} has {n} stones; take 1 to {n}",
                pile=str(move)[0],
            )
        )
    new = dataclasses.replace(state, piles=list(state.piles), secrets=list(state.secrets))
    new.piles[move.pile] -= move.count
    new.last = str(move)
    new.moves += 1
    mover = f"{{p{seat}}}"
    events = [
        Event.told(
            said_n(
                move.count,
                "{p0} took {n} from pile {pile}",
                "{p0} took {n} from pile {pile}",
                p0=mover,
                pile=str(move)[0],
            )
        )
    ]
    if sum(new.piles) == 0:
        new.winner = seat
        events.append(Event.told(said("{p0} took the last stone and wins", p0=mover), kind="end"))
    else:
        new.turn = (seat + 1) % state.config.players
    return new, events


def view_for(state: State, seat: int | None) -> View:
    secrets = tuple(s if i == seat else UNKNOWN for i, s in enumerate(state.secrets))
    return View(seat, state.config.players, tuple(state.piles), secrets, state.turn, state.winner, state.last)


def move_privacy(state: State, seat: int, move) -> Privacy:
    """Every Nim move is public."""
    return PUBLIC


def readable(state: State, privacy: Privacy, reader: int | None) -> bool:
    return can_read(privacy, reader, over=state.winner is not None)


def scores_now(state: State) -> tuple[float, ...]:
    """1 for the winner once there is one, else 0."""
    return tuple(1.0 if state.winner == s else 0.0 for s in range(len(state.secrets)))


def undoable(state: State, seat: int, move) -> bool:
    """Nim has no chance and taking stones shows nothing hidden: a move is undoable unless it
    ends the game (the table's ``skip`` is never taken back by a player)."""
    if isinstance(move, str):
        move = parse_move(move)
    if seat == TABLE:
        return False
    after, _ = apply_move(state, seat, move)
    return outcome(after) is None


def summary(view: View) -> str:
    return "" if view.seat is None else f"Your secret number: {view.secrets[view.seat]}"


def describe(view: View, *, ended: bool = False) -> list[Section]:
    """The piles in words: whose turn, then each pile; the view's own secret number last,
    privately."""
    if view.winner is not None:
        turn = said("{p0} won", p0=f"{{p{view.winner}}}")
    elif ended:  # the table ended the game (a resignation, an abandon): nobody is to move
        turn = said("nobody to move")
    else:
        turn = said("{p0} to move", p0=f"{{p{view.turn}}}")
    sections = [
        Section(said("Turn"), (turn,)),
        Section(
            said("Piles"),
            tuple(
                said_n(n, "pile {pile}: {n} stone", "pile {pile}: {n} stones", pile="ABCDE"[i])
                for i, n in enumerate(view.piles)
            ),
        ),
    ]
    if view.seat is not None:
        sections.append(
            Section(
                said("Your secret"), (said("secret number {secret}", secret=view.secrets[view.seat]),), True
            )
        )
    return sections


def outcome(state: State) -> Outcome | None:
    if state.winner is None:
        return None
    n = state.config.players
    scores = tuple(1.0 if s == state.winner else 0.0 for s in range(n))
    losers = tuple(s for s in range(n) if s != state.winner)
    ranking = ((state.winner,), losers) if losers else ((state.winner,),)
    return Outcome.told(scores, ranking, said("the last stone was taken"))


def to_dict(state: State) -> dict:
    return {
        "schema": SCHEMA,
        "config": {"players": state.config.players, "piles": state.config.piles},
        "seed": state.seed,
        "piles": state.piles,
        "secrets": state.secrets,
        "turn": state.turn,
        "winner": state.winner,
        "last": state.last,
        "moves": state.moves,
    }


def from_dict(data: dict) -> State:
    if data.get("schema") != SCHEMA:
        raise SetupError(f"unsupported Nim state schema {data.get('schema')!r}")
    return State(
        config=Config(**data["config"]),
        seed=data["seed"],
        piles=list(data["piles"]),
        secrets=list(data["secrets"]),
        turn=data["turn"],
        winner=data["winner"],
        last=data["last"],
        moves=data["moves"],
    )


HANG = "NIM_STRONG_HANGS"
"""When this environment variable is set (in a computer worker's environment), the strong
level never answers: the tests of a hung worker."""


def computer_move(
    view: View, legal: list, rng: random.Random, level: str = "normal", seconds=None, deadline=None
):
    """Play the nim-sum strategy when two play; otherwise take from the largest pile.

    ``easy`` takes a random move half the time; ``strong`` plays as ``normal``
    (the nim-sum strategy is already perfect for two), after "searching" until
    ``deadline()`` when it is given, as a strong search by the clock does."""
    if level == "easy" and rng.random() < 0.5:
        return rng.choice(legal)
    if level == "strong" and os.environ.get(HANG):
        threading.Event().wait()
    if level == "strong" and deadline is not None:
        while not deadline():
            pass
    xor = 0
    for n in view.piles:
        xor ^= n
    if xor and view.players == 2:
        for move in legal:
            if view.piles[move.pile] - move.count == view.piles[move.pile] ^ xor:
                return move
    return rng.choice(legal)


# Nim's sentences in Spanish: the test game is not extracted with the bot's own messages, so the
# tests that read it in Spanish add these to a copy of the Spanish catalogue (see
# tests/support/nim_spanish.py).
SPANISH: dict[str | tuple[str, str], str | tuple[str, str]] = {
    ("{p0} took {n} from pile {pile}", "{p0} took {n} from pile {pile}"): (
        "{p0} tomó {n} piedra del montón {pile}",
        "{p0} tomó {n} piedras del montón {pile}",
    ),
    "{p0} took the last stone and wins": "{p0} tomó la última piedra y gana",
    "{p0} ran out of time and was skipped": "A {p0} se le acabó el tiempo y se saltó su turno",
    ("pile {pile} has {n} stone; take 1", "pile {pile} has {n} stones; take 1 to {n}"): (
        "el montón {pile} tiene {n} piedra; toma 1",
        "el montón {pile} tiene {n} piedras; toma de 1 a {n}",
    ),
    "the last stone was taken": "se tomó la última piedra",
    "Take stones": "Tomar piedras",
    "Skip": "Saltar",
    "Pile {pile}:": "Montón {pile}:",
    "take {count}": "tomar {count}",
    "skip the late player's turn": "saltar el turno del jugador que se retrasa",
    "{p0} won": "{p0} ganó",
    "{p0} to move": "le toca a {p0}",
    "Turn": "Turno",
    "Piles": "Montones",
    ("pile {pile}: {n} stone", "pile {pile}: {n} stones"): (
        "montón {pile}: {n} piedra",
        "montón {pile}: {n} piedras",
    ),
    "Your secret": "Tu secreto",
    "secret number {secret}": "número secreto {secret}",
}

"""The engine contract shared by every game.

Every game package under ``engines/`` exposes the same module-level surface, so
that the table, the terminal, the tests and the benchmarks drive any engine
alike::

    Config                      frozen dataclass of options, with validate()
    new_game(config, seats, seed) -> State
    parse_move(text) -> Move     and str(move) for the compact notation
    legal_moves(state, seat) -> list[Move]   (or an iterator when large)
    apply_move(state, seat, move) -> (State, list[Event])
    to_move(state) -> set[int]
    view_for(state, seat | None) -> View
    outcome(state) -> Outcome | None
    to_dict(state) -> dict       from_dict(data) -> State
    computer_move(view, legal, rng, level="normal", seconds=None, deadline=None) -> Move
    determinize(view, rng) -> State
    move_privacy(state, seat, move) -> Privacy
    readable(state, privacy, reader) -> bool
    summary(view) -> str | Said
    describe(view) -> list[Section]
    turn_number(state) -> int
    move_words(state, seat, move) -> MoveWords
    undoable(state, seat, move) -> bool
    scores_now(state) -> tuple[float, ...]   each seat's score if scored now (results chart)

plus the constants ``TITLE``, ``MIN_PLAYERS``, ``MAX_PLAYERS``, ``RULES_HELP`` (the rules
in a few lines, for a help command), ``KINDS`` and ``WORDS`` (a game's kinds of move and
its words for moves, below), and ``EDITION``: the edition of the game's rules and of its
states' form, a whole number raised by one by any change after which a game played before it
would no longer give the same states (``to_dict``) or the same outcome.  Exports carry it, so
that one made with an earlier edition is replayed by its moves and result alone
(:mod:`bot.export`); ``tests/table/test_editions.py`` holds an export of each edition and
fails when a change needs a new one.  :class:`Engine` is this surface as a ``typing.Protocol``: the
type checker holds every game's package to it, and everything that holds an engine to its
names and types.

What is public.  A game decides in ONE place what each of its moves looks
like to each reader: ``move_privacy`` gives an accepted move its
:class:`Privacy` mark (called with the state *before* the move; public, or
secret to its mover until a reveal point: the end of round N, the end of the
game, or never), and ``readable`` says whether ``reader`` (a seat, or
``None`` for anyone not seated) may read that move's notation in the state
given.  A reader who may not read it sees the move's events instead
(:meth:`Event.text_for`: "Ana kept a secret order"), and compact places such
as a board's "last move" label show :attr:`Privacy.mask`.  Views use the same
two functions for their "last move" fields, and the table stores each move's
mark with its log row, so every surface (channel, log, history, exports)
asks the same question.  :func:`can_read` does the common part.

Turns.  ``turn_number(state)`` counts the game's turns: it goes up when a
turn ends (or, where everyone acts at once, when a round ends: Nowa Gwinea's
rounds, Guanga's opening choice of orders) and at no other time, and never
goes down.  Moves inside one turn (Guacamole's
prepare, ability, dish and draws; a Tiwanaku trade before its action) leave
it alone.  The table posts the board to the channel once per turn, when this
number changes (or the game ends), and confirms the steps inside a turn to
their player alone.

Moves in words.  ``move_words(state, seat, move)`` describes a legal move as
a :class:`MoveWords`: its kind (one of the game's ``KINDS``, in the order
menus show them), the message id and arguments of its label, and where a
kind has many moves, the group it belongs to within the kind (the hut of a
Nowa Gwinea placement, the card a Tomathor swap gives away), and the
regions a menu may go through when there are too many to list (the row of
the board: ``regions``, message ids ``region.<...>``).  ``WORDS`` is
the game's catalogue of English texts by message id (``kind.<key>`` names
each kind, ``group.<kind>`` a group (or the move's ``group_text``), ``option.<name>`` and
``option.<name>.<value>`` the lobby's options); :func:`say` puts the
arguments in.  A move's whole description is its group's words followed by
its own (``Hut F`` ``on B2 B3 C2 C3 D2``); a menu that names the group above
its moves shows the move's own words only.  Every game keeps these in one module (``engines/<game>/words.py``), so a
move is described in one place and a translation adds a catalogue.  Seats
in arguments are written ``{pN}`` as in events.

Sentences for translation.  Engines speak English and know no other
language, but they keep each sentence they give a player whole, as a
:class:`Said`: its English template (the message id, with named
placeholders) and the values put in.  Events (:meth:`Event.told`), refusals
(``IllegalMove("you have no {card} in hand", card=...)``), outcomes
(:meth:`Outcome.told`) and ``WORDS`` (marked with :func:`N_`) all do; words of
a game's vocabulary inside a sentence are values made with :func:`term`, and
counts use :func:`said_n`.  The table puts them in each reader's language
(:meth:`Said.in_words`); the English ``text`` fields stay filled, so a stored
log or export reads the same without a catalogue.

Undo by consent.  ``undoable(state, seat, move)`` says whether ``move``, played by
``seat`` from ``state``, could be taken back if every player agrees: it reveals
nothing that was hidden from anyone (a card laid from a hand, a space discovered,
a village shown) and involves no chance (a card drawn, a die rolled, a random
choice), and it does not end the game.  The table allows an undo only when every
move since the one taken back answers yes.  Each game documents its answers.

``summary(view)`` is the view's seat's own holdings (hand, secret order,
village...) in a few plain-text lines, for the terminal and for text replies;
it reads only the view, so it cannot tell more than the view does.

``describe(view)`` is the board in words, for a screen reader (``/game describe``, the
terminal's ``describe``): a list of :class:`Section`, each a heading and one line per item,
the public ones first in the order a player scans the board (whose turn and the scores
first), then, for a seat's view, its private part marked ``private``.  It too reads only the
view; a spectator's view gives no private section.  Coordinates and pieces are named as the
move notation and the board's labels name them, and every line is a :class:`Said`.

Computer players.  ``computer_move`` chooses from ``legal`` using only
``view`` (never the state) and ``rng`` (seeded by the table from the game's
seed and the move number).  ``level`` is one of :data:`LEVELS`: ``easy``
sometimes takes a random legal move, ``normal`` is the game's heuristic
player, ``strong`` searches (see :mod:`engines.search`) within ``seconds`` of
thinking, turned into a fixed number of simulations so that the same seed
always gives the same move.  To sample what it cannot see, each game also
offers ``determinize(view, rng) -> State``: a full state that agrees with the
view (``view_for(determinize(view, rng), view.seat) == view``).

Engines speak in seats ``0..n-1`` and import only the standard library.  All
randomness is derived from the game's seed (see :func:`rng_for`); the module
level :mod:`random` functions are never used.

Where it is kept.  This module holds the constants, privacy marks, outcomes, randomness, the
small helpers and the :class:`Engine` protocol; sentences, events, refusals and move words
are in :mod:`engines.sentences`, options in :mod:`engines.options`.  Every name is re-exported
here, so games, renderers and the table import them all from ``engines.core``.  It imports the
standard library and those two modules only.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import itertools
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from engines.options import (
    Option,
    config_from_options,
    config_options,
    given_twice,
    new_config_from_options,
    options_of,
    parse_option_text,
)
from engines.sentences import (
    END,
    N_,
    Event,
    GameOver,
    IllegalMove,
    Kind,
    Level,
    MalformedMove,
    MoveError,
    MoveWords,
    NotYourTurn,
    Said,
    Section,
    SetupError,
    Told,
    Translates,
    echo,
    in_words,
    listed,
    listing,
    name_seats,
    plural,
    possessive,
    said,
    said_n,
    say,
    step_lines,
    term,
    told_lines,
)

__all__ = [
    "echo",
    "parse_option_text",
    "given_twice",
    "new_config_from_options",
    "SetupError",
    "MoveError",
    "NotYourTurn",
    "IllegalMove",
    "MalformedMove",
    "GameOver",
    "Event",
    "END",
    "Outcome",
    "Option",
    "config_options",
    "config_from_options",
    "rng_for",
    "rank_by",
    "tie_figures",
    "tiebreak_said",
    "jsonable",
    "name_seats",
    "possessive",
    "options_of",
    "UNKNOWN",
    "TABLE",
    "Privacy",
    "PUBLIC",
    "NEVER",
    "AT_END",
    "at_round_end",
    "can_read",
    "LEVELS",
    "DEFAULT_LEVEL",
    "check_level",
    "quoted",
    "plural",
    "Kind",
    "Level",
    "MoveWords",
    "say",
    "N_",
    "Said",
    "Section",
    "said",
    "said_n",
    "listed",
    "listing",
    "Told",
    "step_lines",
    "told_lines",
    "term",
    "in_words",
    "Section",
    "Translates",
    "Rules",
    "Engine",
]

UNKNOWN = "?"
"""What a view shows in place of something its seat may not see."""

TABLE = -1
"""The seat of moves the table makes itself, never a player: a round's deadline
passing, say.  An engine that has such moves lists them in
``legal_moves(state, TABLE)`` and accepts them only from ``TABLE``; the table
plays the first of them when a deadline passes."""


LEVELS = ("easy", "normal", "strong")
"""The computer player's levels, weakest first."""

DEFAULT_LEVEL = "normal"
"""The level of a seat that names none, and of a seat taken over from a person."""


def check_level(level: str) -> str:
    """``level`` if it is one of :data:`LEVELS`; otherwise ``ValueError`` naming them."""
    if level not in LEVELS:
        raise ValueError(f"unknown computer level {level!r}; the levels are {', '.join(LEVELS)}")
    return level


# --------------------------------------------------------------------------- privacy

NEVER = "never"
"""A reveal point: the move stays its mover's secret for good."""

AT_END = "end"
"""A reveal point: everyone may read the move once the game is over."""


def at_round_end(number: int) -> str:
    """A reveal point: everyone may read the move once round ``number`` has ended."""
    return f"round:{int(number)}"


@dataclass(frozen=True)
class Privacy:
    """Who may read a move's notation, and from when everyone may.

    ``owner`` is the seat whose secret the move is (``None``: a public move);
    ``until`` the reveal point (:data:`NEVER`, :data:`AT_END` or
    :func:`at_round_end`); ``mask`` the short stand-in for the notation
    shown to others where a board has room for a few characters only
    (``"keep ?"``).  ``quiet`` says the channel need not hear of the move on
    its own (a hut built in a simultaneous round): its public event lines
    go to the log, not to a new board post.
    """

    owner: int | None = None
    until: str = NEVER
    mask: str = "?"
    quiet: bool = False

    @property
    def public(self) -> bool:
        return self.owner is None

    def to_dict(self) -> dict[str, Any]:
        if self.owner is None:
            return {"owner": None}
        return {"owner": self.owner, "until": self.until, "mask": self.mask, "quiet": self.quiet}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Privacy:
        if data.get("owner") is None:
            return PUBLIC
        return cls(
            owner=int(data["owner"]),
            until=str(data.get("until", NEVER)),
            mask=str(data.get("mask", "?")),
            quiet=bool(data.get("quiet", False)),
        )


PUBLIC = Privacy()
"""The mark of a move everyone may read."""


def can_read(privacy: Privacy, reader: int | None, *, over: bool, rounds_ended: int = 0) -> bool:
    """The common rule behind every game's ``readable``.

    A public move is read by all, a secret one by its owner, and by everyone
    once its reveal point has passed: the game is ``over`` (for
    :data:`AT_END` and round reveals), or ``rounds_ended`` rounds have
    ended (for :func:`at_round_end`).  :data:`NEVER` is never passed, and an
    unknown reveal point counts as never.
    """
    if privacy.owner is None or (reader is not None and reader == privacy.owner):
        return True
    until = privacy.until
    if until == AT_END:
        return over
    if until.startswith("round:"):
        try:
            number = int(until.partition(":")[2])
        except ValueError:
            return False
        return over or rounds_ended >= number
    return False


# --------------------------------------------------------------------------- outcome


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    ``scores[seat]`` is the final score; ``ranking`` lists groups of seats,
    best first, seats in one group sharing that place (a shared win is a first
    group of several seats).  ``reason`` says why the game ended, ``tiebreak``
    names the rule that separated tied scores (``None`` if none was needed),
    both in English; ``reason_said`` and ``tiebreak_said`` keep them for
    translation (:meth:`told` fills both from a :class:`Said`).
    """

    scores: tuple[float, ...]
    ranking: tuple[tuple[int, ...], ...]
    reason: str
    tiebreak: str | None = None
    details: Mapping[str, Any] = field(default_factory=dict)
    reason_said: Said | None = None
    tiebreak_said: Said | None = None

    @classmethod
    def told(
        cls,
        scores: Sequence[float],
        ranking: Sequence[Sequence[int]],
        reason: Said,
        tiebreak: Said | None = None,
        details: Mapping[str, Any] | None = None,
    ) -> Outcome:
        """An outcome whose reason and tiebreak are kept for translation."""
        return cls(
            scores=tuple(scores),
            ranking=tuple(tuple(g) for g in ranking),
            reason=reason.in_words(),
            tiebreak=None if tiebreak is None else tiebreak.in_words(),
            details=details or {},
            reason_said=reason,
            tiebreak_said=tiebreak,
        )

    def reason_in(self, language: Translates | None = None) -> str:
        """Why the game ended, in ``language`` (seats still as ``{pN}``)."""
        return self.reason_said.in_words(language) if self.reason_said is not None else self.reason

    def tiebreak_in(self, language: Translates | None = None) -> str | None:
        """The tiebreak that decided, in ``language`` (``None`` if none was needed)."""
        return self.tiebreak_said.in_words(language) if self.tiebreak_said is not None else self.tiebreak

    @property
    def winners(self) -> tuple[int, ...]:
        return self.ranking[0] if self.ranking else ()

    def place_of(self, seat: int) -> int:
        """1-based place of ``seat`` (tied seats share a place)."""
        place = 1
        for group in self.ranking:
            if seat in group:
                return place
            place += len(group)
        raise KeyError(seat)

    def to_dict(self) -> dict[str, Any]:
        return {
            "scores": list(self.scores),
            "ranking": [list(g) for g in self.ranking],
            "reason": self.reason,
            "tiebreak": self.tiebreak,
            "details": jsonable(dict(self.details)),
            **({"reason_said": self.reason_said.to_dict()} if self.reason_said is not None else {}),
            **({"tiebreak_said": self.tiebreak_said.to_dict()} if self.tiebreak_said is not None else {}),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Outcome:
        return cls(
            scores=tuple(data["scores"]),
            ranking=tuple(tuple(g) for g in data["ranking"]),
            reason=data["reason"],
            tiebreak=data.get("tiebreak"),
            details=data.get("details") or {},
            reason_said=Said.from_dict(data["reason_said"]) if data.get("reason_said") else None,
            tiebreak_said=Said.from_dict(data["tiebreak_said"]) if data.get("tiebreak_said") else None,
        )


def rank_by(
    seats: Iterable[int], keys: Sequence[tuple[str | None, Mapping[int, Any]]]
) -> tuple[tuple[tuple[int, ...], ...], str | None]:
    """Rank seats by successive keys (higher is better) and report the tiebreak.

    ``keys`` is a list of ``(name, {seat: value})``; the first is the score
    (its name is ignored), the others are tiebreakers in order.  Returns the
    ranking groups and the name of the deepest tiebreaker that actually
    separated two seats who were tied on everything before it (``None`` if
    no tiebreaker mattered).  Seats still equal on every key share a group.
    """
    seats = list(seats)

    def key(s: int) -> tuple[Any, ...]:
        return tuple(values[s] for _, values in keys)

    ordered = sorted(seats, key=key, reverse=True)
    groups: list[list[int]] = []
    for s in ordered:
        if groups and key(groups[-1][0]) == key(s):
            groups[-1].append(s)
        else:
            groups.append([s])
    used: str | None = None
    for a, b in itertools.pairwise(ordered):
        ka, kb = key(a), key(b)
        if ka[0] == kb[0] and ka != kb:
            depth = next(i for i in range(len(ka)) if ka[i] != kb[i])
            if used is None or depth > [n for n, _ in keys].index(used):
                used = keys[depth][0]
    return tuple(tuple(sorted(g)) for g in groups), used


def tiebreak_said(
    keys: Sequence[tuple[str | None, Mapping[int, Any]]],
    used: str,
    rule: Said,
    shown: Callable[[Any], Any] = lambda value: value,
) -> Said:
    """The tiebreaker ``used`` as an outcome says it: ``rule`` (its name in words), with what it
    weighed for the seats it separated where it decided alone (:func:`tie_figures`): "more dishes
    ({p0} 2, {p1} 1)"."""
    figures = tie_figures(keys, used, shown)
    return rule if figures is None else said("{rule} ({figures})", rule=rule, figures=figures)


def tie_figures(
    keys: Sequence[tuple[str | None, Mapping[int, Any]]],
    used: str,
    shown: Callable[[Any], Any] = lambda value: value,
) -> str | None:
    """What the tiebreaker ``used`` (a name :func:`rank_by` reported) weighed: for each group of
    seats level on the score and on every tiebreaker before it, and apart on it, the seats with
    their values on it, best first (``{p1} 3, {p0} 2``; two such groups apart by ``"; "``), each
    value as ``shown`` writes it; None when no group was decided by it alone."""
    names = [name for name, _ in keys]
    depth = names.index(used)
    values = keys[depth][1]
    score = keys[0][1]
    groups = []
    for total in sorted(set(score.values()), reverse=True):
        tied = sorted(s for s in score if score[s] == total)
        level = all(len({keys[i][1][s] for s in tied}) == 1 for i in range(1, depth))
        if len(tied) > 1 and level and len({values[s] for s in tied}) > 1:
            ordered = sorted(tied, key=lambda s: values[s], reverse=True)
            groups.append(", ".join(f"{{p{s}}} {shown(values[s])}" for s in ordered))
    return "; ".join(groups) or None


# --------------------------------------------------------------------------- randomness


def rng_for(seed: int | str, *keys: object) -> random.Random:
    """A generator determined by the game's seed and a path of keys.

    ``rng_for(seed, "setup")`` shuffles the decks; ``rng_for(seed, "die", 3)``
    rolls round three's die.  Using a path instead of one long-lived
    generator keeps states small and JSON friendly, and every draw replays
    exactly from the seed.
    """
    material = "\x1f".join([str(seed), *map(str, keys)]).encode()
    return random.Random(int.from_bytes(hashlib.sha256(material).digest()[:8], "big"))


# --------------------------------------------------------------------------- helpers


def quoted(text: object, limit: int = 40) -> str:
    """``text`` quoted for an error message (:func:`echo`: Discord's markdown and mentions
    escaped), cut to about ``limit`` characters, so that a refusal of a huge input still fits a
    message and ends by saying what is allowed."""
    return echo(text, limit - 2)


_PLAIN = frozenset({str, int, float, bool, type(None)})


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    """A dataclass's field names, looked up once per class."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


def jsonable(obj: Any) -> Any:
    """Turn dataclasses, enums, tuples, sets and frozensets into plain JSON values."""
    kind = type(obj)
    if kind in _PLAIN:  # the exact types only: an enum built on str or int is handled below
        return obj
    if kind is list or kind is tuple:
        return [jsonable(v) for v in obj]
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {name: jsonable(getattr(obj, name)) for name in _field_names(kind)}
    if isinstance(obj, enum.Enum):
        return obj.value
    if isinstance(obj, Mapping):
        return {str(k): jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (set, frozenset)):
        return sorted(jsonable(v) for v in obj)
    if isinstance(obj, (list, tuple)):
        return [jsonable(v) for v in obj]
    return obj


# --------------------------------------------------------------------------- the contract


class Rules(Protocol):
    """What playing a game on needs from its rules: the part of the contract a search (and a
    game's ``rules`` module, which :class:`engines.search.Game` holds) offers.

    States, moves and views differ from game to game, so they are ``Any`` here; the names, the
    arities and the other types are what a type checker holds every engine to."""

    def legal_moves(self, state: Any, seat: int, /) -> Iterable[Any]: ...

    def apply_move(self, state: Any, seat: int, move: Any, /) -> tuple[Any, list[Event]]: ...

    def to_move(self, state: Any, /) -> set[int]: ...

    def view_for(self, state: Any, seat: int | None, /) -> Any: ...

    def outcome(self, state: Any, /) -> Outcome | None: ...


class Engine(Rules, Protocol):
    """A game's engine module, as the table, the terminal, the renderers and the benchmarks
    hold it: every name of the contract in this module's docstring, with its types.

    ``engines/__init__.py`` checks each game's package against it.  ``TABLE_MOVES`` (an engine
    that makes moves of its own when a deadline passes, see :data:`TABLE`) and ``pointless(state,
    seat, move) -> bool`` (a legal move no player wants, which menus and autocomplete leave out,
    see :func:`bot.choices.offered`) and ``tell_turn(told) -> lines`` (a turn's events told the
    way a player would tell them, see :data:`Told` and :func:`told_lines`; without it the table
    tells a turn one line of event sentences) and ``worded(said) -> Said`` (one event's sentence as a
    player reads it, where the game stores codes in it: Guacamole's cards, named in words; see
    :func:`bot.public.seen`; such a game's notation holds those codes too, so the table's one-line
    account of a move, in ``/game log`` and ``/game status``, gives its sentences before it, see
    :func:`bot.texts.describe_in`) and ``SEATED_AS_JOINED`` (an engine whose players
    keep the lobby's seat numbers at the start instead of a shuffled order, see
    :meth:`bot.sessions.lobby.Lobby.start`) and ``earlier_options(edition, seats, options) ->
    options`` (the options that play a game of an earlier :data:`EDITION` the way it was played,
    where a later edition changed a default, see :func:`bot.export.replay`) and ``waiting(state, seat)
    -> Said | None`` (why a seat that is not to move waits, when the game has more to say than
    whose turn it is: a Nowa Gwinea builder who said done) and ``RENAMED`` (a mapping from a name
    as the game once wrote it in its sentences to how it writes it now, so that a move's events
    stored before the change read the new way, see :func:`bot.sessions.model.record_of`) and ``OPTIONS_SAID`` (the
    options its ``describe`` states in its own lines, which the table's line of options leaves out,
    see :func:`bot.describe.options_lines`) are optional, so they are not members:
    the table asks for them with ``getattr``."""

    __name__: str  # the package's import name (``engines.guanga``), as a process of its own imports it

    @property
    def TITLE(self) -> str: ...

    @property
    def MIN_PLAYERS(self) -> int: ...

    @property
    def MAX_PLAYERS(self) -> int: ...

    @property
    def EDITION(self) -> int: ...

    @property
    def KINDS(self) -> tuple[Kind, ...]: ...

    @property
    def WORDS(self) -> Mapping[str, str]: ...

    @property
    def RULES_HELP(self) -> str: ...

    @property
    def Config(self) -> type[Any]: ...

    def new_game(self, config: Any, seats: int, seed: int, /) -> Any: ...

    def parse_move(self, text: str, /) -> Any: ...

    def to_dict(self, state: Any, /) -> dict[str, Any]: ...

    def from_dict(self, data: dict[str, Any], /) -> Any: ...

    def computer_move(
        self,
        view: Any,
        legal: list[Any],
        rng: random.Random,
        level: str = ...,
        seconds: float | None = ...,
        /,
        deadline: Callable[[], bool] | None = ...,
    ) -> Any: ...

    def determinize(self, view: Any, rng: random.Random, /) -> Any: ...

    def move_privacy(self, state: Any, seat: int, move: Any, /) -> Privacy: ...

    def readable(self, state: Any, privacy: Privacy, reader: int | None, /) -> bool: ...

    def summary(self, view: Any, /) -> str | Said: ...

    def describe(self, view: Any, /, *, ended: bool = False) -> list[Section]: ...

    def turn_number(self, state: Any, /) -> int: ...

    def move_words(self, state: Any, seat: int, move: Any, /) -> MoveWords: ...

    def undoable(self, state: Any, seat: int, move: Any, /) -> bool: ...

    def scores_now(self, state: Any, /) -> tuple[float, ...]: ...

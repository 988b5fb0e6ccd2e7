"""A game as a JSON file anyone can keep, share and replay (``/game export``, ``--replay``).

The file (format :data:`FORMAT`, version :data:`VERSION`) holds the game, its
options, the players (by name; with their Discord user ids only on servers
that allow it, ``EXPORT_IDS_SERVERS``), every move with its seat, notation,
time and the lines everyone may read, and the result.  A league seat handed to a
substitute during the game names its earlier holders (``earlier_holders``: each one's
name and the last move that was theirs), so that each move is put to whoever made it
(:func:`names_at`).

What a reader of the file may see of each move is what a spectator may see of
it (:func:`bot.public.seen` with no seat), the one rule every surface asks:
the lines are the public ones, and a move's notation is there only where the
channel may read it.

While the game runs, an export is what the channel has been told: no seed
(from the seed anyone could deal the cards again), each move's notation only
where the game makes it public, and only the moves of turns the channel has
heard of.  Such a file is a record, not a replay: ``--replay`` says so.

Once the game has ended the file carries the seed, the notation of every move
the channel may read by then (secrets kept until the end are read by all), and
after each move a short digest of the game's state (the first 16 hex digits of
the SHA-256 of its JSON), so that a replay that disagrees says at which move.

A move kept secret for good (a Tiwanaku peek: nobody but its player ever learns
where it looked; also, in a game abandoned before its reveal point, a secret the
rules had not revealed yet) is in the file as its ``secret`` mask (``"peek"``)
with no notation.  From the first such move on, the digest after each move is
of the spectator's view of the game (``view``), not of the whole state: a
digest of the whole state would give the secret away to anyone who tried each
possible move against it.  ``--replay`` replays such a move by the first legal
move of that seat with the same mask that leads to the same spectator's view,
so it checks every public move, every spectator's view and the result, and
says that the secret moves themselves were not checked (and cannot be: they
are not in the file).  The states it shows after a secret move are one way the
game could have gone, the same for a spectator.

The file names the ``edition`` of the game's rules it was made with (``EDITION``, see
:mod:`engines.core`; a file without one is of edition 1).  An edition changes the states'
form or the rules, so the digests of a file made with an earlier edition than this Pukllay
plays are not compared: ``--replay`` then replays its moves with the options that play its
game the way it was played, checks that each is legal and that the result is the same, and
says so.  A file of a later edition is refused: a newer Pukllay replays it.

The whole file carries a SHA-256 ``digest`` of its content: a file damaged in
transit or edited by hand is refused before anything is replayed.  (Anyone
can recompute that digest; what makes a forged game fail is the replay:
every move must be legal and reproduce the recorded states and result.)

No Discord and no SQL here: the table passes the session and its log rows.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import NotRequired, TypedDict, cast

import engines
from bot import public, texts
from bot.history import browsable, start_state
from bot.public import MoveRecord
from bot.replaying import UNDO, undo_target, walk, with_taken_back
from bot.sessions import Refusal, Session, SessionService, record_of
from bot.storage import MoveRow
from engines.core import (
    TABLE,
    Engine,
    Event,
    MoveError,
    Outcome,
    SetupError,
    config_from_options,
    jsonable,
    name_seats,
    quoted,
)

FORMAT = "pukllay-game"
VERSION = 1
LIMIT = 8 * 1024 * 1024  # the largest file --replay reads (Discord's upload limit without boosts)


class ExportError(ValueError):
    """A file that cannot be replayed; the message says why, in one line."""


class Holder(TypedDict):
    """Someone who held a seat before it was handed over: the moves up to ``through`` were theirs."""

    name: str
    through: int
    user_id: NotRequired[str]  # on servers that allow it


class Player(TypedDict):
    """A player as :func:`build` writes it."""

    seat: int
    name: str
    computer: bool
    resigned: NotRequired[bool]  # only for a player who resigned
    user_id: NotRequired[str]  # a person's Discord user id, on servers that allow it
    earlier_holders: NotRequired[list[Holder]]  # a seat handed to a league's substitute: before them


class MoveEntry(TypedDict):
    """A move of the log as :func:`build` writes it."""

    number: int
    seat: int
    move: str | None  # None where the channel may not read it
    time: str
    computer: bool
    lines: list[str]  # what everyone may read of it
    undo: NotRequired[int]  # an undo entry: the move it took back to
    secret: NotRequired[str]  # a move kept secret for good (ended games): its mask
    view: NotRequired[str]  # ended games, from the first such move on: the spectator's view's digest
    after: NotRequired[str]  # ended games, before any such move: the state's digest


class Body(TypedDict):
    """An export as :func:`build` writes it, but for its digest."""

    format: str
    version: int
    game: str
    edition: int
    title: str
    number: int
    status: str
    options: dict[str, object]
    players: list[Player]
    moves: list[MoveEntry]
    seed: NotRequired[int]  # this and the rest: once the game has ended
    ended: NotRequired[str | None]
    result: NotRequired[dict[str, object] | None]  # the table's result (Outcome.to_dict)
    rules_outcome: NotRequired[dict[str, object] | None]  # the rules' outcome of the last state


class Export(Body):
    """An export as :func:`build` writes it."""

    digest: str


class Loaded(TypedDict):
    """An export as :func:`load` vouches for it: the fields it checks are of their kind, the
    others are whatever the file holds (anyone may have written it)."""

    format: str
    version: int
    digest: str
    game: str
    options: dict[str, object]
    players: list[dict[str, object]]
    moves: list[object]  # each checked by :func:`replay`
    seed: NotRequired[int]
    edition: NotRequired[object]  # checked by :func:`edition`
    title: NotRequired[object]
    number: NotRequired[object]
    status: NotRequired[object]
    ended: NotRequired[object]
    result: NotRequired[object]  # read by :func:`final_outcome`
    rules_outcome: NotRequired[object]


def canonical(data: object) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def state_digest(module: Engine, state: object) -> str:
    return hashlib.sha256(canonical(module.to_dict(state)).encode()).hexdigest()[:16]


def view_digest(module: Engine, state: object) -> str:
    """The digest of what a spectator sees of ``state`` (its view for no seat)."""
    return hashlib.sha256(canonical(jsonable(module.view_for(state, None))).encode()).hexdigest()[:16]


def digest_of(data: Mapping[str, object]) -> str:
    """The digest of everything in ``data`` but its ``digest``."""
    return hashlib.sha256(canonical({k: v for k, v in data.items() if k != "digest"}).encode()).hexdigest()


def seal(data: Mapping[str, object]) -> dict[str, object]:
    """``data`` with the digest of everything else in it."""
    return {**{k: v for k, v in data.items() if k != "digest"}, "digest": digest_of(data)}


def build(
    session: Session,
    rows: Sequence[MoveRow],
    records: Sequence[MoveRecord],
    *,
    with_ids: bool = False,
) -> Export:
    """The export of ``session``: ``rows`` its whole log (oldest first), ``records`` the same
    moves with their events and marks."""
    module = session.engine
    ended = session.status in ("finished", "abandoned")
    shown = len(records) if ended else browsable(session, len(records))
    seated = sorted(((s.seat, s) for s in session.seats if s.seat is not None), key=lambda pair: pair[0])
    players = []
    for seat, s in seated:
        player: Player = {"seat": seat, "name": s.name, "computer": s.computer}
        if s.resigned:
            player["resigned"] = True
        if with_ids and s.user_id is not None and not s.computer:
            player["user_id"] = str(s.user_id)
        before = []
        for h in sorted((h for h in session.earlier if h.seat == seat), key=lambda h: h.until):
            held: Holder = {"name": h.name or s.name, "through": h.until}
            if with_ids:
                held["user_id"] = str(h.user_id)
            before.append(held)
        if before:
            player["earlier_holders"] = before
        players.append(player)
    moves = []
    state = start_state(session) if ended else session.state
    states = walk(module, state, rows[:shown]) if ended else None
    kept = False  # a move kept secret for good came before: digests of the spectator's view only
    for row, record in zip(rows[:shown], records[:shown], strict=True):
        seen = public.seen(module, session.state, record, None, as_stored=True)  # what the channel may read
        names = session.names_at(row.number)  # a line that starts with a name keeps it as written
        entry: MoveEntry = {
            "number": row.number,
            "seat": row.seat,
            "move": seen.notation,
            "time": row.created_at,
            "computer": record.by_computer,
            "lines": [texts.sentence(name_seats(t, names), names) for t in seen.lines],
        }
        target = undo_target(record.move)
        if target is not None:
            entry["undo"] = target
        if states is not None:
            state = next(states).after
            if seen.notation is None:
                entry["secret"] = seen.mask
                kept = True
            if kept:
                entry["view"] = view_digest(module, state)
            else:
                entry["after"] = state_digest(module, state)
        moves.append(entry)
    data: Body = {
        "format": FORMAT,
        "version": VERSION,
        "game": session.info.name,
        "edition": module.EDITION,
        "title": session.info.title,
        "number": session.id,
        "status": session.status,
        "options": session.row.options,
        "players": players,
        "moves": moves,
    }
    if ended:  # ``state`` is the state after the last move
        data["seed"] = session.row.seed
        data["ended"] = session.row.end_reason
        data["result"] = session.row.outcome
        rules = module.outcome(state)
        data["rules_outcome"] = rules.to_dict() if rules is not None else None
    return {**data, "digest": digest_of(data)}


async def export_session(service: SessionService, session: Session, *, with_ids: bool = False) -> Export:
    """The export of a started game, read from its log."""
    if session.state is None or session.status == "lobby":
        raise Refusal("game #{number} has not started, so there is nothing to export yet", number=session.id)
    rows = await service.store.history.moves(session.id)
    records = [record_of(r, session.engine) for r in rows]
    if any(r.privacy is None for r in records):
        records = await service.logbook.replayed(session, records)
    session = await service.logbook.with_holders(session)  # each move put to whoever made it
    return build(session, rows, with_taken_back(records, rows), with_ids=with_ids)


def dump(data: Mapping[str, object]) -> bytes:
    return json.dumps(data, indent=1, ensure_ascii=False).encode()


# ------------------------------------------------------------------ reading and replaying


@dataclass(frozen=True)
class Step:
    """One move replayed: its entry, the state after it and its events.

    For a move kept secret for good, ``move`` is its mask (``"peek"``), ``secret`` is true,
    and ``events`` are what a spectator reads of a move standing in for it."""

    number: int
    seat: int
    move: str
    state: object  # the game's state, for the engine
    events: tuple[Event, ...]
    secret: bool = False


def public_events(events: Sequence[Event]) -> tuple[Event, ...]:
    """``events`` as a spectator reads them (an event with no public line left out)."""
    out = []
    for e in events:
        if e.visible_to is None:
            out.append(e)
        elif e.public_text is not None:
            out.append(Event(e.public_text, kind=e.kind, said=e.public_said))
    return tuple(out)


def stand_in(
    module: Engine, state: object, seat: int, mask: str, view: str, *, exact: bool = True
) -> tuple[object, list[Event]]:
    """A legal move of ``seat`` marked secret with ``mask`` that leads to the spectator's view
    ``view``: (the state after it, its events); :class:`LookupError` when there is none.  Not
    ``exact`` (an export of an earlier edition, whose views may have another form): failing
    that, the first legal move under the same mask (the replay's result must still agree)."""
    first: tuple[object, list[Event]] | None = None
    for move in module.legal_moves(state, seat):
        mark = module.move_privacy(state, seat, move)
        if mark.public or mark.mask != mask:
            continue
        after, events = module.apply_move(state, seat, move)
        if view_digest(module, after) == view:
            return after, events
        if first is None and not exact:
            first = (after, events)
    if first is not None:
        return first
    raise LookupError(mask)


def load(raw: bytes | str) -> Loaded:
    """Read and check an export; :class:`ExportError` says what is wrong with it."""
    if isinstance(raw, bytes):
        if len(raw) > LIMIT:
            raise ExportError(f"the file is {len(raw)} bytes; an export is at most {LIMIT}")
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ExportError("the file is not text (UTF-8); it is not a Pukllay export") from None
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise ExportError(
            f"the file is not valid JSON ({exc.msg} at line {exc.lineno}); it may be cut short"
        ) from None
    except ValueError:  # well formed, but a number longer than Python reads (over 4300 digits)
        raise ExportError(
            "the file holds a number thousands of digits long; it is not a Pukllay export"
        ) from None
    except RecursionError:
        raise ExportError("the file nests its values too deeply; it is not a Pukllay export") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ExportError("this is not a Pukllay game export (its 'format' is not 'pukllay-game')")
    if data.get("version") != VERSION:
        raise ExportError(
            f"this export is of format version {data.get('version')!r}; this Pukllay reads version {VERSION}"
        )
    if not isinstance(data.get("digest"), str) or digest_of(data) != data["digest"]:
        raise ExportError(
            "the file's digest does not match its content: it was damaged or edited after export"
        )
    for key, kind in (("game", str), ("options", dict), ("players", list), ("moves", list)):
        if not isinstance(data.get(key), kind):
            raise ExportError(f"the export's {key!r} is missing or of the wrong kind")
    if not all(isinstance(p, dict) for p in data["players"]):
        raise ExportError("the export's 'players' are not each a player (an object with a name)")
    if "seed" in data and (not isinstance(data["seed"], int) or isinstance(data["seed"], bool)):
        raise ExportError(f"the export's seed {data['seed']!r} is not a whole number")
    if data["game"] not in engines.GAMES:
        raise ExportError(f"this export is of {data['game']!r}, a game this Pukllay does not have")
    loaded = cast(Loaded, data)  # the fields Loaded names, each checked above
    edition(loaded)
    return loaded


def edition(data: Loaded) -> int:
    """The edition of the game's rules an export was made with (see ``EDITION`` in
    :mod:`engines.core`): 1 for a file from before exports named it.  :class:`ExportError`
    for one that is not a whole number from 1 to the edition this Pukllay plays."""
    info = engines.get(data["game"])
    made, current = data.get("edition", 1), info.load().EDITION
    if not isinstance(made, int) or isinstance(made, bool) or made < 1:
        raise ExportError(f"the export's edition {made!r} is not a whole number from 1 up")
    if made > current:
        raise ExportError(
            f"this export was made with edition {made} of {info.title}'s rules, and this Pukllay plays "
            f"edition {current}: a newer Pukllay replays it"
        )
    return made


def names_at(data: Loaded, number: int) -> list[str]:
    """The players' names as they were at move ``number``: each seat's name, or the name of whoever
    held it then when it was handed over later (``earlier_holders``; a malformed one is left out)."""
    out = []
    for i, p in enumerate(data["players"]):
        name = str(p.get("name", f"P{i + 1}"))
        held = p.get("earlier_holders")
        for h in sorted(
            (h for h in held if _holder_entry(h)) if isinstance(held, list) else (),
            key=lambda h: h["through"],
        ):
            if number <= h["through"]:
                name = h["name"]
                break
        out.append(name)
    return out


def _holder_entry(entry: object) -> bool:
    return (
        isinstance(entry, dict)
        and isinstance(entry.get("name"), str)
        and isinstance(entry.get("through"), int)
        and not isinstance(entry.get("through"), bool)
    )


def earlier(data: Loaded) -> bool:
    """Whether an export was made with an earlier edition of its game's rules than this
    Pukllay plays: its moves and result are then checked, not the states after each move."""
    return edition(data) < engines.get(data["game"]).load().EDITION


def replay(data: Loaded) -> Iterator[Step]:
    """Replay a checked export move by move; :class:`ExportError` at the first disagreement.

    An export made with an earlier edition of the game's rules (:func:`earlier`) is replayed
    with the options that play its game the way it was played (the engine's
    ``earlier_options``, where an edition changed a default); every move must still be legal
    and the result the same (its scores, ranking and details: the words that tell it, which an
    edition may change, are not compared, :func:`untold`), nor are the digests of the states
    after each move, which an edition may change; a move kept secret stands in by one that leads
    to its recorded view or, where the edition changed the views' form, by a legal move under the
    same mask (:func:`stand_in`)."""
    if "seed" not in data:
        raise ExportError(
            "this export was made while the game was running, so it holds no seed and no hidden moves; "
            "export the game again once it has ended to replay it"
        )
    module = engines.get(data["game"]).load()
    n = len(data["players"])
    made = edition(data)
    older = made < module.EDITION
    # what a refusal adds for a file of an earlier edition: the rules it was made with
    made_with = (
        f" (the export was made with edition {made} of {module.TITLE}'s rules; this Pukllay plays "
        f"edition {module.EDITION})"
        if older
        else ""
    )
    options = data["options"]
    state: object
    adapt = getattr(module, "earlier_options", None)
    if older and adapt is not None:
        options = adapt(made, n, options)
    try:
        config = config_from_options(module.Config, n, options)
        state = module.new_game(config, n, int(data["seed"]))
    except (SetupError, TypeError, ValueError) as exc:
        raise ExportError(f"the export's options do not make a game: {exc}") from None
    states: dict[int, object] = {0: state}
    for i, entry in enumerate(data["moves"], 1):
        if not isinstance(entry, dict):
            raise ExportError(f"move {i} has no notation")
        seat = entry.get("seat")
        if not isinstance(seat, int) or not (seat == TABLE or 0 <= seat < n):
            raise ExportError(f"move {i} names seat {seat!r}, not one of the game's seats")
        move, mask = entry.get("move"), entry.get("secret")
        if move is None and isinstance(mask, str) and isinstance(entry.get("view"), str) and seat != TABLE:
            try:
                state, raw = stand_in(module, state, seat, mask, entry["view"], exact=not older)
            except (LookupError, MoveError):
                raise ExportError(
                    f"move {i} (kept secret: {mask}) has no legal move that leads to the recorded view"
                    + made_with
                ) from None
            states[i] = state
            yield Step(i, seat, mask, state, public_events(raw), secret=True)
            continue
        if not isinstance(move, str):
            raise ExportError(f"move {i} has no notation")
        target = undo_target(move)
        if move.startswith(UNDO) and (target is None or not 1 <= target < i):
            raise ExportError(f"entry {i} takes back to move {target!r}, which is not an earlier move")
        events: tuple[Event, ...] = ()
        if target is not None:
            state = states[target - 1]
        else:
            try:
                state, raw = module.apply_move(state, seat, module.parse_move(move))
            except MoveError as exc:
                raise ExportError(f"move {i} ({move!r}) is refused by the rules: {exc}" + made_with) from None
            events = tuple(raw)
        states[i] = state
        if not older:
            if entry.get("after") is not None and entry["after"] != state_digest(module, state):
                raise ExportError(f"the replay disagrees with the export at move {i} ({move!r})")
            if entry.get("view") is not None and entry["view"] != view_digest(module, state):
                raise ExportError(f"the replay disagrees with the export at move {i} ({move!r})")
        yield Step(i, seat, move, state, events)
    recorded = data.get("rules_outcome")
    reached = module.outcome(state)
    found: object = reached.to_dict() if reached is not None else None
    if older:  # an edition may tell the same result in other words: the result itself must agree
        found, recorded = untold(found), untold(recorded)
    if found != recorded:
        raise ExportError(
            f"the replay ends with a different result from the export's, after move {len(data['moves'])}"
            + made_with
        )


WORDS = ("reason", "reason_said", "tiebreak", "tiebreak_said")
"""The parts of a stored outcome that tell it in words (why the game ended, the tiebreak)."""


def untold(outcome: object) -> object:
    """A stored outcome without its words (:data:`WORDS`): the scores, ranking and details."""
    if not isinstance(outcome, dict):
        return outcome
    return {k: v for k, v in outcome.items() if k not in WORDS}


def final_outcome(data: Loaded) -> Outcome | None:
    """The result the export records (``None``: none); :class:`ExportError` for one that is not
    a result."""
    result = data.get("result")
    if not result:
        return None
    try:
        if not isinstance(result, dict):
            raise TypeError(result)
        return Outcome.from_dict(result)
    except (KeyError, TypeError, ValueError, AttributeError):
        raise ExportError(f"the export's result {quoted(result)} is not a result") from None

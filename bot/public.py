"""What each reader may see of a game: the one place the table asks.

A *reader* is a seat number, or ``None`` for anyone who is not seated (the
channel, spectators).  Every text the table shows about a game is built here
from :class:`MoveRecord` values (a move, its events and its privacy mark,
whether just played or read back from the log) and the game's current state:
the channel's post at the end of a turn, the mover's private confirmation,
``/game log``, ``/game status``, ``/game list`` and the lobby.  Counts meet
their nouns through :func:`engines.core.plural` only.  Later surfaces (history
pages, exports, a board header with the last action in words) should ask
:func:`seen` too, so that one rule decides what is public.

The rule itself is the game's (``move_privacy`` and ``readable`` in its
engine, see :mod:`engines.core`): a reader who may read a move sees its
notation; one who may not sees only the move's events as that reader may
read them ("Ana kept a secret order").  A move read back from a log written
before marks were stored, which could not be replayed, is shown safely: its
notation to its mover only, and to the others a line that says nothing.

No Discord here (texts use Discord's markdown and mentions, nothing more).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any

from bot.replaying import undo_target
from engines.core import END, TABLE, Event, Outcome, Privacy, name_seats, plural, say
from languages import ENGLISH, Language

if TYPE_CHECKING:
    from bot.sessions import MoveResult, RatingChange, Session

MESSAGE_LIMIT = 2000

Reader = int | None


def clip(text: str, limit: int = MESSAGE_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def number(value: float) -> str:
    """A score as people write it: ``12``, not ``12.0``."""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


@dataclass(frozen=True)
class MoveRecord:
    """One accepted move: who, what, how it was marked and what it caused.

    ``events`` and ``privacy`` are ``None`` for a move read from a log written
    before they were stored (and not recovered by replaying the game).
    """

    seat: int
    move: str
    by_computer: bool
    events: tuple[Event, ...] | None
    privacy: Privacy | None
    number: int | None = None


@dataclass(frozen=True)
class Seen:
    """One move as one reader may see it (seats still written ``{pN}``)."""

    seat: int
    notation: str | None  # the notation, when this reader may read it
    lines: tuple[str, ...]  # the move's event lines this reader may read
    mask: str  # a short stand-in for the notation, where it is hidden
    quiet: bool  # the channel need not hear of this move on its own

    def summary(self) -> str:
        """The move in one line: its events, else its notation, else that it happened."""
        if self.lines:
            return "; ".join(self.lines)
        if self.notation is not None:
            who = "The table" if self.seat == TABLE else f"{{p{self.seat}}}"
            return f"{who} played `{self.notation}`"
        return f"{{p{self.seat}}} made a move only they can see"


def seen(engine: ModuleType, state: Any, record: MoveRecord, reader: Reader) -> Seen:
    """What ``reader`` may see of ``record`` while the game is at ``state``."""
    mark = record.privacy
    if mark is None:
        readable = record.seat == TABLE or (reader is not None and reader == record.seat)
        mask, quiet = "?", False
    else:
        readable = record.seat == TABLE or bool(engine.readable(state, mark, reader))
        mask, quiet = mark.mask, mark.quiet
    lines = tuple(t for e in record.events or () if (t := e.text_for(reader)))
    return Seen(record.seat, record.move if readable else None, lines, mask, quiet)


# ------------------------------------------------------------------ the channel and the mover


def event_lines(
    session: Session,
    records: Iterable[MoveRecord],
    reader: Reader = None,
    *,
    channel: bool = True,
    limit: int = 12,
) -> list[str]:
    """Lines for ``reader`` on what ``records`` did, names put in.

    With ``channel`` (the public message after a move), quiet moves (a hut
    built in a simultaneous round) are left out, and a move with no line the
    reader may read adds nothing; otherwise every move gives at least its
    one-line summary.
    """
    names = session.names()
    lines: list[str] = []
    for record in records:
        s = seen(session.engine, session.state, record, reader)
        if channel and s.quiet:
            continue
        if s.lines:
            lines.extend(s.lines)
        elif not channel:
            lines.append(s.summary())
        elif not record.events and s.notation is not None:
            lines.append(s.summary())  # a move the engine said nothing about is shown by its notation
    named = [name_seats(t, names) for t in lines]
    if len(named) > limit:
        named = named[: limit - 1] + [f"… and {len(named) - limit + 1} more (see /game log)"]
    return named


def last_action(session: Session, records: Sequence[MoveRecord]) -> str | None:
    """The board header's "last action": the first line everyone may read of the
    last of ``records`` that has one (quiet moves included: their public line
    says only that something happened)."""
    for record in reversed(records):
        lines = event_lines(session, [record], None, channel=False, limit=1)
        if lines:
            return lines[0]
    return None


def own_lines(session: Session, records: Iterable[MoveRecord], seat: int, limit: int = 5) -> list[str]:
    """What ``seat`` made happen with its own moves, as it may read it (for its private reply)."""
    names = session.names()
    out: list[str] = []
    for record in records:
        if record.seat != seat or record.by_computer:
            continue
        out.extend(name_seats(t, names) for t in seen(session.engine, session.state, record, seat).lines)
    return out[:limit]


def has_public_news(session: Session, result: MoveResult) -> bool:
    """Whether the channel should hear of ``result`` now: a turn (or a round) ended, the game
    did, or the table said something.  Steps inside a turn are told to their player alone,
    and the channel hears all of them when the turn ends."""
    return bool(result.turn_ended or result.finished or result.note)


def next_line(
    session: Session,
    already: frozenset[int] = frozenset(),
    away: Mapping[int, str] | None = None,
    t: Language = ENGLISH,
) -> str:
    """Who acts next, in ``t``.  Those newly called on are mentioned (pinged); those in ``already``
    (who were acting before, and still are) are named without a ping; ``away``: user id ->
    "away until ..." for those taking time away."""
    if session.status != "active" or session.damaged:
        return ""
    waiting = session.waiting_on()
    if not waiting:
        return ""
    away = away or {}
    who = ", ".join(
        (s.name if s.seat in already else s.mention)
        + (f" ({away[s.user_id]})" if s.user_id is not None and s.user_id in away else "")
        for s in waiting
    )
    return t.gettext("**Next:** {players}", players=who)


def turn_lines(
    session: Session, records: Sequence[MoveRecord], *, finished: bool = False, reader: Reader = None
) -> list[str]:
    """What the channel may read of ``records``: one line per turn (a run of one seat's moves),
    its events as sentences.

    Quiet moves (a hut built in a simultaneous round) are left out; so, once the
    game is over, is the engine's own end summary (:data:`engines.core.END`),
    since the outcome is shown once below it.  ``reader``: a seat reading them privately (what
    that seat may read), else the channel.
    """
    names = session.names()
    runs: list[tuple[int, list[str]]] = []
    for record in records:
        s = seen(session.engine, session.state, record, reader)
        if s.quiet and reader is None:
            continue
        if record.events is None or (not record.events and s.notation is not None):
            texts = [s.summary()]  # no stored events: its notation if readable, else that it happened
        else:
            texts = [
                t for e in record.events if (t := e.text_for(reader)) and not (finished and e.kind == END)
            ]
        if not texts:
            continue
        if runs and runs[-1][0] == record.seat:
            runs[-1][1].extend(texts)
        else:
            runs.append((record.seat, list(texts)))
    return [" ".join(sentence(name_seats(t, names)) for t in texts) for _, texts in runs]


def sentence(text: str) -> str:
    """An event's line as a sentence: a capital first letter and a full stop."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def outcome_lines(session: Session, outcome: Outcome | None) -> list[str]:
    """The result, once: why the game ended, then each seat's place and score."""
    if outcome is None:
        return []
    names = session.names()
    lines = [f"**Game over**: {name_seats(outcome.reason, names)}."]
    place = 1
    resigned = {s.seat for s in session.seats if s.resigned}
    for group in outcome.ranking:
        for seat in group:
            tag = " (resigned)" if seat in resigned else ""
            lines.append(
                f"{ordinal(place)}: {session.by_seat(seat).mention}: {number(outcome.scores[seat])}{tag}"
            )
        place += len(group)
    if outcome.tiebreak:
        lines.append(f"Tie broken by: {outcome.tiebreak}.")
    return lines


RATING_MEANING = (
    "a cautious estimate of skill: everyone starts at 0, wins raise it, losses can take it "
    "below 0, and it settles as the table grows sure of a player"
)


def signed(value: float) -> str:
    return f"+{number(value)}" if value >= 0 else f"-{number(-value)}"


def rating_lines(changes: Sequence[RatingChange]) -> list[str]:
    """How each person's rating moved, and what the number means."""
    if not changes:
        return []
    moved = ", ".join(
        f"{c.name} {number(c.before)} → {number(c.after)} ({signed(round(c.after - c.before, 1))})"
        for c in changes
    )
    return [f"**Ratings**: {moved}. (The rating is {RATING_MEANING}.)"]


def next_steps(session: Session) -> str:
    """What to do after a game."""
    return (
        f"Play again with `/{session.info.name} new`; `/game log` shows the moves and "
        f"`/game ratings` the league table."
    )


def board_text(
    session: Session,
    records: Sequence[MoveRecord],
    *,
    header: str | None = None,
    note: str | None = None,
    outcome: Outcome | None = None,
    ratings: Sequence[RatingChange] = (),
    ping: bool = True,
    away: Mapping[int, str] | None = None,
    clock: str | None = None,
    t: Language = ENGLISH,
) -> str:
    """The channel's post with the board: what happened since the last post (one line a
    turn), the result if the game is over, and who acts next (mentioned when ``ping``; in ``t``,
    the server's language: the moves are told in the engine's words, English for now)."""
    finished = session.status == "finished"
    lines = [header] if header else []
    if note:
        lines.append(note[0].upper() + note[1:] + ("" if note.endswith((".", "!")) else "."))
    told = turn_lines(session, records, finished=finished)
    if len(told) > 15:
        told = told[:14] + [f"… and {plural(len(told) - 14, 'more turn')} (see /game log)"]
    lines.extend(told)
    if finished:
        if outcome is None and session.row.outcome:
            outcome = Outcome.from_dict(session.row.outcome)
        lines.extend(outcome_lines(session, outcome))
        lines.extend(rating_lines(ratings))
        lines.append(next_steps(session))
    elif session.status == "abandoned":
        lines.append(f"This game was abandoned. {next_steps(session)}")
    waiting = frozenset() if ping else frozenset(session.to_move())
    nxt = next_line(session, waiting, away, t)
    if nxt and clock:
        nxt = f"{nxt}\n{clock}"
    body = "\n".join(lines)
    room = MESSAGE_LIMIT - len(nxt) - 1  # the mention must survive clipping
    return (clip(body, room) + ("\n" + nxt if nxt else "")).strip() or session.info.title


def channel_text(session: Session, result: MoveResult | None, header: str | None = None) -> str:
    """The public message for ``result`` alone (its moves as records), for callers without the log."""
    records = list(result.played) if result is not None else []
    return board_text(
        session,
        records,
        header=header,
        note=result.note if result is not None else None,
        outcome=result.outcome if result is not None else None,
        ratings=result.ratings if result is not None else (),
        ping=result is None or result.turn_ended,
    )


# ------------------------------------------------------------------ /game log, status, list


def describe(session: Session, record: MoveRecord, reader: Reader) -> str:
    """One move in one line for ``reader``: who and the notation, or its public lines."""
    names = session.names()
    s = seen(session.engine, session.state, record, reader)
    who = "the table" if record.seat == TABLE else names[record.seat] if record.seat < len(names) else "?"
    if undo_target(record.move) is not None:  # an undo entry: its line says what it took back
        return name_seats(s.summary(), names)
    if s.notation is not None:
        return f"{who}{' (computer)' if record.by_computer else ''}: `{s.notation}`"
    return name_seats(s.summary(), names) + (" (played by the computer)" if record.by_computer else "")


def log_line(session: Session, record: MoveRecord, reader: Reader) -> str:
    head = f"{record.number}. " if record.number is not None else ""
    return head + describe(session, record, reader)


def log_text(session: Session, records: Sequence[MoveRecord], reader: Reader) -> str:
    """``/game log`` for ``reader``: one line per move, newest last, kept under the message limit."""
    if not records:
        return "No moves yet."
    lines = [log_line(session, r, reader) for r in records]
    while len("\n".join(lines)) > MESSAGE_LIMIT and len(lines) > 1:
        lines.pop(0)  # keep the most recent moves
    return clip("\n".join(lines))


def option_words(session: Session) -> list[str]:
    """The options that differ from the game's defaults, in the game's words
    (``option.<name>.<value>``, else ``option.<name>`` with the value put in)."""
    try:
        words = getattr(session.engine, "WORDS", {})
        defaults = {o.name: o.default for o in session.info.options()}
    except (ImportError, ValueError):  # a game that is not installed (a damaged session)
        words, defaults = {}, {}
    out = []
    for name, value in session.row.options.items():
        if name in defaults and value == defaults[name]:
            continue
        specific = f"option.{name}.{value}"
        if specific in words:
            out.append(words[specific])
        elif f"option.{name}" in words:
            out.append(say(words, f"option.{name}", {"value": value}))
        else:
            out.append(f"{name.replace('_', ' ')}: {value}")
    return out


def options_text(session: Session, t: Language = ENGLISH) -> str:
    """The options in words (the game's own words, English for now), or "standard rules" in ``t``."""
    return "; ".join(option_words(session)) or t.gettext("standard rules")


def seat_line(session: Session, index: int, t: Language = ENGLISH) -> str:
    """The lobby's line for the seat at ``index``: its number, its name, and who hosts or which
    computer level plays it (the level is an option value, the same in every language)."""
    seat = session.seats[index]
    if seat.computer:
        return t.gettext(
            "{number}. {name} (computer, {level})",
            number=index + 1,
            name=seat.name,
            level=seat.computer_level,
        )
    if seat.user_id == session.row.host_id:
        return t.gettext("{number}. {name} (host)", number=index + 1, name=seat.name)
    return t.gettext("{number}. {name}", number=index + 1, name=seat.name)


def lobby_text(session: Session, t: Language = ENGLISH) -> str:
    """The lobby message in ``t`` (the server's language): options in words, the seats, and what
    happens next."""
    seats = "\n".join(seat_line(session, i, t) for i in range(len(session.seats)))
    info = session.info
    taken, most, least = len(session.seats), session.row.max_players, info.min_players
    if session.status == "lobby":
        if taken >= most:
            state = t.ngettext(
                "The table is full ({n} seat): the host can press Start.",
                "The table is full ({n} seats): the host can press Start.",
                most,
            )
        elif taken >= least:
            state = t.ngettext(
                "{n} seat of {most} taken: ready to start (the host presses Start), or wait for more players.",
                "{n} seats of {most} taken: ready to start (the host presses Start), or wait for more players.",
                taken,
                most=most,
            )
        else:  # two counts, two sentences: each has its own plural
            state = " ".join(
                (
                    t.ngettext("{n} seat of {most} taken.", "{n} seats of {most} taken.", taken, most=most),
                    t.ngettext(
                        "{game} needs at least {n} player (Join, or Add computer).",
                        "{game} needs at least {n} players (Join, or Add computer).",
                        least,
                        game=info.title,
                    ),
                )
            )
    elif session.status == "active":
        state = t.gettext("The game has started.")
    elif session.status == "finished" and session.row.lobby_channel_id:
        state = result_line(session)
    else:
        state = t.gettext("This lobby is closed ({reason}).", reason=session.row.end_reason or session.status)
    if session.row.lobby_channel_id:
        state = f"{state}\n{thread_line(session, t)}"
    spec = session.clock
    lines = [
        t.gettext("**{game}**: new game", game=info.title),
        t.gettext("Options: {options}", options=options_text(session, t)),
    ]
    if spec is not None:
        lines.append(t.gettext("Clock: `{clock}`, {meaning}", clock=spec.text, meaning=spec.describe()))
    return clip("\n".join([*lines, seats, state]))


THREAD_NAME_LIMIT = 100


def thread_name(title: str, number: int, host: str) -> str:
    """A game's thread: its title, number and host, within Discord's 100 characters."""
    return f"{title} #{number} · {host}"[:THREAD_NAME_LIMIT]


def thread_line(session: Session, t: Language = ENGLISH) -> str:
    """The lobby message's line about the game's thread (the lobby message is in the parent channel)."""
    where = f"<#{session.row.channel_id}>"
    if session.status == "lobby":
        return t.gettext(
            "The game lives in its thread {thread}: join here or with /game join there, then play there.",
            thread=where,
        )
    if session.status == "active":
        return t.gettext("The game is being played in {thread}.", thread=where)
    return t.gettext("The game was played in {thread}.", thread=where)


def opening_text(title: str, host: str) -> str:
    """The lobby message while its thread is being opened."""
    return f"**{title}**: {host} is opening a new game..."


def thread_welcome(session: Session) -> str:
    """The first message in a game's thread."""
    return clip(
        f"This thread holds **{session.info.title}** game #{session.id}, opened by "
        f"{host_name(session)}. Join with the lobby's buttons in <#{session.row.lobby_channel_id}> or "
        "with /game join here; the host starts it with /game start. Boards, turns and results are posted here."
    )


def host_name(session: Session) -> str:
    return next((s.name for s in session.seats if s.user_id == session.row.host_id), "its host")


def result_line(session: Session) -> str:
    """One line for the lobby message once the game is over: who won, or why it ended."""
    if session.status == "finished" and session.row.outcome:
        outcome = Outcome.from_dict(session.row.outcome)
        first = outcome.ranking[0] if outcome.ranking else ()
        names = " and ".join(session.by_seat(s).name for s in first)
        if names:
            verb = "win" if len(first) > 1 else "wins"
            return f"Result: {names} {verb} ({name_seats(outcome.reason, session.names())})."
    return f"Result: none ({session.row.end_reason or session.status})."


def full_table_text(session: Session) -> str:
    """The ping for the host when the last seat is taken."""
    host = f"<@{session.row.host_id}>"
    return (
        f"{host}, your {session.info.title} table is full ({plural(session.row.max_players, 'seat')}): "
        "press Start on the lobby message, or use /game start."
    )


def status_text(
    session: Session,
    moves_played: int,
    last: MoveRecord | None = None,
    reader: Reader = None,
    away: Mapping[int, str] | None = None,
    clock: str | None = None,
) -> str:
    """``/game status`` for a running game, or one that ended here (lobbies show their lobby text);
    ``away``: user id -> "away until ..." for those taking time away."""
    away = away or {}
    ordered = sorted(session.seats, key=lambda s: s.seat if s.seat is not None else s.join_order)
    seats = "\n".join(
        f"{i + 1}. {s.name}{s.tag}{' (resigned)' if s.resigned else ''}"
        f"{f' ({away[s.user_id]})' if s.user_id is not None and s.user_id in away else ''}"
        for i, s in enumerate(ordered)
    )
    lines = [
        f"**{session.info.title}** (game #{session.id}): {plural(moves_played, 'move')} played",
        f"Options: {options_text(session)}",
        seats,
    ]
    if session.damaged:
        lines.append(
            f"⚠️ This game is damaged ({session.damaged}); the host or an admin can /game abandon it."
        )
    elif session.status == "finished":
        outcome = Outcome.from_dict(session.row.outcome) if session.row.outcome else None
        lines.extend(outcome_lines(session, outcome) or [f"**Game over**: {session.row.end_reason}."])
        lines.append(next_steps(session))
    elif session.status == "abandoned":
        lines.append(f"This game was abandoned ({session.row.end_reason}). {next_steps(session)}")
    else:
        lines.append(f"Waiting on: {', '.join(s.name for s in session.waiting_on()) or 'nobody'}")
        if clock:
            lines.append(clock)
    if last is not None and not session.damaged:
        lines.append("Last: " + describe(session, last, reader))
    return clip("\n".join(lines))


def list_line(session: Session) -> str:
    who = ", ".join(seat.name for seat in session.seats)
    if session.damaged:
        extra = "damaged: ask the host or an admin to /game abandon it"
    elif session.status == "active":
        extra = f"waiting on {', '.join(x.name for x in session.waiting_on()) or 'nobody'}"
    else:
        extra = f"lobby, {plural(len(session.seats), 'seat')} of {session.row.max_players} taken"
    return f"<#{session.row.channel_id}> · {session.info.title} ({extra}): {who}"


def list_text(sessions: Sequence[Session]) -> str:
    """``/game list``: the games given (already filtered to what the asker may see)."""
    if not sessions:
        from bot.sessions import new_game_hint

        return f"No games you can see right now; {new_game_hint()}."
    return clip("\n".join(list_line(s) for s in sessions))


# ------------------------------------------------------------------ /game history


def history_text(session: Session, number: int, shown: int, record: MoveRecord | None, reader: Reader) -> str:
    """A history page for ``reader``: which move, who made it, and its event lines as that reader
    may read them (the mover's private lines only to the mover's own seat)."""
    title = f"**{session.info.title}** (game #{session.id}), move {number} of {shown}"
    if session.status == "active":
        title += " (the game goes on)"
    if number == 0 or record is None:
        return clip(f"{title}\nThe board before the first move.")
    names = session.names()
    s = seen(session.engine, session.state, record, reader)
    who = (
        "the table" if record.seat == TABLE else names[record.seat] if 0 <= record.seat < len(names) else "?"
    )
    by = " (played by the computer)" if record.by_computer else ""
    if undo_target(record.move) is not None:
        return clip("\n".join([title, *(sentence(name_seats(t, names)) for t in s.lines)]))
    if s.notation is not None:
        head = f"{who}{by} played `{s.notation}`."
    else:
        head = f"{who}{by} moved (the move itself is hidden from you)."
    lines = [title, head[0].upper() + head[1:]]
    lines.extend(sentence(name_seats(t, names)) for t in s.lines)
    return clip("\n".join(lines))


def history_label(session: Session, number: int, seat: int | None) -> str:
    """A jump target in the history select: ``Move 12: Ana``."""
    if number == 0:
        return "The start"
    names = session.names()
    who = (
        "the table" if seat == TABLE else names[seat] if seat is not None and 0 <= seat < len(names) else "?"
    )
    return f"Move {number}: {who}"

"""Fewer waits and following, the decisions and the words (no Discord, no SQL).

- **Forced moves.** When a person's seat has exactly one legal move, and they allow it
  (``/me autoplay``; in a league only if the league allows it too), the table plays it for them
  :data:`AUTOPLAY_DELAY` seconds after the board that gave it to them, or the step inside a
  turn that did (theirs, or a computer's in a round played at once: it posts no board), as a
  scheduler job, unless the game changed meanwhile.
- **A pass declared ahead** (``/play pass-ahead``), in a game whose notation has ``pass``
  (Tiwanaku, Guacamole): when the turn being played ends and the seat is to move with ``pass``
  legal, it is played at once; when that turn ends and the seat is not to move (the board changed
  in another way), or ``pass`` is not legal, the declaration is dropped.
- **The 80 % warning.** Once per turn, when a seat has used :data:`WARN_AT` of the time its clock
  gave it for the turn (a bank: the bank it had when the turn began), its person is told.
- **The digest.** Reminders list every game waiting on the person, the least time left first
  (games without a clock last, the longest waiting first), every ``remind_hours`` or once a day at
  the hour they chose (``/me digest``).

Imports: :mod:`bot.notices`, :mod:`bot.sessions` (types), :mod:`bot.storage` (types),
:mod:`bot.time`, :mod:`engines.core`, :mod:`languages`.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from datetime import timedelta

from bot import notices
from bot.notices import SettingError, Waiting
from bot.sessions import Session, seats_said
from bot.storage import PersonRow
from bot.texts import MESSAGE_LIMIT, clip
from bot.time import gameclock as gc
from engines.core import Engine, MoveError, Said, echo, said
from languages import ENGLISH, N_, Language

AUTOPLAY_DELAY = 60.0
"""Seconds between the board that leaves a seat one legal move and the table playing it."""
WARN_AT = 0.8
"""The share of a turn's time after which its player is warned."""
PASS = "pass"
FOLLOWS_MOST = 50
"""How many people one person may follow."""
_HOUR = re.compile(r"^\s*(\d{1,2})(?::00)?\s*$")


def only_move(engine: Engine, state: object, seat: int) -> str | None:
    """The seat's move when it has exactly one legal move (in notation), else None."""
    moves = list(itertools.islice(iter(engine.legal_moves(state, seat)), 2))
    return str(moves[0]) if len(moves) == 1 else None


def has_pass(engine: Engine) -> bool:
    """Whether the game's notation has a ``pass`` move."""
    try:
        engine.parse_move(PASS)
    except (MoveError, ValueError):
        return False
    return True


def pass_legal(engine: Engine, state: object, seat: int) -> bool:
    return any(str(m) == PASS for m in engine.legal_moves(state, seat))


def autoplay_note(session: Session, seat: int, move: str | None) -> Said:
    """The board's note after the table played a seat's only move: ``move`` is its notation as
    everyone may read it, None for a move kept from the others (a secret order), which the note
    does not name."""
    if move is None:
        return said("{player} had one legal move; it was played for them", player=seats_said([seat]))
    return said(
        "{player} had one legal move, `{move}`; it was played for them",
        player=seats_said([seat]),
        move=move,
    )


def pass_note(session: Session, seat: int) -> Said:
    return said("{player} passed, as they had declared ahead", player=seats_said([seat]))


# ------------------------------------------------------------------ clocks


def turn_budget(spec: gc.ClockSpec, banks: gc.Banks, seat: int) -> tuple[float, float] | None:
    """(when the seat's turn began, the time its clock gave it for the turn), or None when its
    clock does not run (not to move, out of time, no clock)."""
    if seat not in banks.since or seat in banks.pending:
        return None
    return banks.since[seat], banks.banks.get(seat, spec.start)


def warning_due(spec: gc.ClockSpec, banks: gc.Banks, seat: int) -> float | None:
    """When the seat will have used :data:`WARN_AT` of its turn's time (time away not counted:
    the job looks again when it fires)."""
    found = turn_budget(spec, banks, seat)
    if found is None:
        return None
    since, budget = found
    return since + WARN_AT * budget


def seconds_left(session: Session, seat: int, now: float, away: Callable[[int], gc.Away]) -> float | None:
    """How long the seat has left on its clock now (None: no clock runs for it)."""
    spec = session.clock
    if spec is None or session.status != "active" or turn_budget(spec, session.banks, seat) is None:
        return None
    return gc.left(spec, session.banks, seat, now, away(seat))


def by_time_left(games: Sequence[Waiting]) -> list[Waiting]:
    """The digest's order: the least time left first, then games without a clock, the longest
    waiting first."""
    return sorted(games, key=lambda w: (w.left is None, w.left or 0.0, -w.seconds))


def warning_text(session: Session, left: float, guild_name: str, link: str, t: Language = ENGLISH) -> str:
    return t.ngettext(
        "⏳ {time} left on your clock in **{game}** #{number} on **{server}** for this turn: you have "
        "used 80 %. Play it there: {link}",
        "⏳ {time} left on your clock in **{game}** #{number} on **{server}** for this turn: you have "
        "used 80 %. Play it there: {link}",
        notices.waited_count(left),
        game=session.info.title,
        number=session.id,
        server=guild_name,
        time=notices.waited(left, t),
        link=link,
    )


def warning_mention(user_id: int, left: float, t: Language = ENGLISH) -> str:
    return t.ngettext(
        "{person}, {time} left on your clock in this game for this turn: you have used 80 %.",
        "{person}, {time} left on your clock in this game for this turn: you have used 80 %.",
        notices.waited_count(left),
        person=f"<@{user_id}>",
        time=notices.waited(left, t),
    )


# ------------------------------------------------------------------ the digest


def parse_hour(text: str) -> int | None:
    """The digest's hour as typed: ``18`` or ``18:00`` (local time), or ``off``."""
    if text.strip().lower() in ("off", "none", "no"):
        return None
    m = _HOUR.match(text)
    if not m or not 0 <= int(m.group(1)) <= 23:
        raise SettingError(
            N_("{text} is not an hour of the day; write a whole hour from 0 to 23, e.g. 18 or 18:00, or off"),
            text=echo(text),
        )
    return int(m.group(1))


def next_digest(person: PersonRow, hour: int, now: float) -> float:
    """The next time it is ``hour``:00 in the person's time zone, after ``now``."""
    here = notices.local(person, now)
    due = here.replace(hour=hour, minute=0, second=0, microsecond=0)
    if due <= here:
        due = (due + timedelta(days=1)).replace(hour=hour)
    return due.timestamp()


def after_away(person: PersonRow, hour: int | None, until: float) -> float:
    """When a reminder due during time away that ends at ``until`` comes: then, or with a daily
    digest (``hour``), at its first hour from then on (not a second reminder on that day)."""
    return until if hour is None else next_digest(person, hour, until - 1)


def digest_settings(hour: int | None, t: Language = ENGLISH) -> str:
    if hour is None:
        return t.gettext("Your reminders come every so many hours while it is your turn (/me notify).")
    return t.gettext(
        "Your reminders come once a day at {hour}:00 in your time zone, listing every game waiting on you, "
        "the least time left first. /me digest at:off goes back to reminders every so many hours.",
        hour=f"{hour:02d}",
    )


# ------------------------------------------------------------------ following and /play next


def follow_text(
    session: Session, names: Sequence[str], guild_name: str, link: str, t: Language = ENGLISH
) -> str:
    return clip(
        t.gettext(
            "{players} started **{game}** #{number} on **{server}**: {link}\nYou follow them; /me unfollow stops this.",
            players=", ".join(names),
            game=session.info.title,
            number=session.id,
            server=guild_name,
            link=link,
        ),
        MESSAGE_LIMIT,
    )


def watch_text(board: str, link: str, t: Language = ENGLISH) -> str:
    """A watched game's public post, as a DM: the post's own text, then where it is."""
    tail = t.gettext("(You watch this game; /play watch in its channel stops it.) {link}", link=link)
    return clip(board, MESSAGE_LIMIT - len(tail) - 1) + "\n" + tail


def next_text(w: Waiting, others: int, link: str, t: Language = ENGLISH) -> str:
    head = t.gettext(
        "**{game}** #{number} on **{server}** has waited longest for you ({time}): {link}",
        game=w.session.info.title,
        number=w.session.id,
        server=w.guild_name,
        time=notices.waited(w.seconds, t),
        link=link,
    )
    if not others:
        return head
    return (
        head
        + "\n"
        + t.ngettext(
            "{n} more game waits on you (/game mine lists them).",
            "{n} more games wait on you (/game mine lists them).",
            others,
        )
    )

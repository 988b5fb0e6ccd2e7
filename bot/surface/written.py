"""Names as the bot's Discord messages write them: with Discord's markdown and mentions escaped.

A player's display name may hold ``**``, ``__``, backticks, ``~~``, ``||``, a list's ``1.``, a heading's ``#``,
a quote's ``>`` or a trailing backslash.  Written into a message unescaped, it would be formatted
(and an unmatched mark would format the text after it); escaped, it reads as the player wrote it.
The table's texts (:mod:`bot.texts`, :mod:`bot.results`...) take names from a session, and the
alt text, the web pages and the terminal keep them as written; so the Discord side hands those
texts :func:`session`, the same session whose names are escaped, and escapes with :func:`name`
any name it writes itself.  Pure code: no Discord.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from bot.league.names import shown

if TYPE_CHECKING:
    from bot.notices import Waiting
    from bot.sessions import RatingChange, Seat, Session


def name(text: str) -> str:
    """``text`` (a person's or a computer seat's name) as a message writes it: its markdown and
    mentions escaped, so it shows as written and formats nothing around it."""
    return shown(text)


def session(found: Session) -> Session:
    """``found`` with every seat's name as a message writes it (see :func:`name`), for building
    the words of a Discord message; never for a picture, its alt text or anything stored."""
    return replace(
        found,
        seats=[replace(s, name=name(s.name)) for s in found.seats],
        earlier=tuple(replace(h, name=name(h.name)) for h in found.earlier),
    )


def mention(seat: Seat) -> str:
    """``seat``'s mention, or its name as a message writes it when it has none (a computer seat)."""
    return seat.mention if seat.mention != seat.name else name(seat.name)


def ratings(changes: Sequence[RatingChange]) -> list[RatingChange]:
    """The rating changes of a finished game, each person's name as a message writes it."""
    return [replace(c, name=name(c.name)) for c in changes]


def waiting(games: Sequence[Waiting]) -> list[Waiting]:
    """Games waiting on someone (a reminder, ``/game mine``), each session's names as a message
    writes them (see :func:`session`)."""
    return [replace(w, session=session(w.session)) for w in games]

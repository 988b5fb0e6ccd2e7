"""How ``/game status`` names each seat of a game: one line a seat, in one phrase whatever is
true of it (a computer, a player who resigned and whose seat the computer plays on, a league's
substitute and whom they play for, someone taking time away).

Pure code: no storage calls, no Discord.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from languages import ENGLISH, Language

if TYPE_CHECKING:
    from bot.sessions import Session


def seat_lines(session: Session, away: Mapping[int, str], t: Language = ENGLISH) -> list[str]:
    """The seats, numbered in seat order, in ``t``; ``away``: user id -> "away until ..."."""
    ordered = sorted(session.seats, key=lambda s: s.seat if s.seat is not None else s.join_order)
    first: dict[int, str] = {}  # a seat handed to a league's substitute: whom they play for
    for held in sorted(session.earlier, key=lambda h: h.until):
        first.setdefault(held.seat, held.name)
    lines = []
    for i, s in enumerate(ordered):
        name = s.name
        if s.seat is not None and first.get(s.seat):
            name = t.gettext("{substitute} (for {original})", substitute=s.name, original=first[s.seat])
        level = t.gettext(s.computer_level) if s.computer else ""
        if s.computer and s.resigned:  # the computer plays on for one who resigned
            line = t.gettext(
                "{number}. {name}, resigned; the computer plays on ({level})",
                number=i + 1,
                name=name,
                level=level,
            )
        elif s.computer:
            line = t.gettext("{number}. {name} (computer, {level})", number=i + 1, name=name, level=level)
        elif s.resigned:
            line = t.gettext("{number}. {name}, resigned", number=i + 1, name=name)
        else:
            line = t.gettext("{number}. {name}", number=i + 1, name=name)
        if s.user_id is not None and s.user_id in away:
            line = f"{line}, {away[s.user_id]}"  # its date ends in (zone): no brackets in brackets
        lines.append(line)
    return lines

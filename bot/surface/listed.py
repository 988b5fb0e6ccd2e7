"""What autocomplete last listed for each player in each game, so that a choice picked from a list
made before the board changed is not played as another move.

A choice's value is the move's notation (``P1A1``), and its name says what the move does then
(``P1A1 — Slot 1 (green kuntur) on A1``).  Between the list and the command's sending, the same
notation may come to do something else: the player refreshed Guanga's basket from the menu, or a
Guacamole pile's top card changed.  A command whose move was on the player's last list, sent after
the game moved on, is played only if the move's words are still the words the list showed;
otherwise it is refused as stale, naming both, and the board is shown as it is now.  A move typed
by hand (not on the list) is played as typed.

The lists live in this process only (a restart forgets them, and the check with them); the
autocomplete and the command of one server reach the same process.  Imports: discord-free.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot import choices
from bot.sessions import Session, StaleMove
from languages import ENGLISH, Language

LIMIT = 2000
"""Lists kept at most (one per player and game: the newest); past it, the oldest are forgotten."""


@dataclass(frozen=True)
class Listing:
    version: int  # the game's version when the list was made
    names: dict[str, str]  # value -> the choice's name


class Listed:
    """The last autocomplete list of each (game, player)."""

    def __init__(self) -> None:
        self.lists: dict[tuple[int, int], Listing] = {}

    def keep(self, session: Session, user_id: int, pairs: Sequence[tuple[str, str]]) -> None:
        """Remember the ``(name, value)`` pairs autocomplete offered ``user_id`` in ``session``."""
        key = (session.id, user_id)
        self.lists.pop(key, None)
        self.lists[key] = Listing(session.version, {value: name for name, value in pairs})
        while len(self.lists) > LIMIT:
            del self.lists[next(iter(self.lists))]

    def check(self, session: Session, user_id: int, text: str, t: Language = ENGLISH) -> None:
        """Refuse ``text`` (StaleMove) when it was on the player's last list and the game has moved
        on since in a way that changed what it does.  A move from the list uses the list up
        (sent again after a refusal, it is played); another move leaves it."""
        key, move = (session.id, user_id), text.strip()
        listing = self.lists.get(key)
        if listing is None or move not in listing.names:
            return
        del self.lists[key]
        if listing.version == session.version:
            return
        seat = session.seat_of(user_id)
        if seat is None or seat.seat is None or session.state is None:
            return  # refused further on, in its own words
        engine = session.engine
        now = [m for m in choices.offered(engine, session.state, seat.seat) if str(m) == move]
        if not now:
            return  # no longer legal: the engine refuses it, saying what is allowed
        (entry,) = choices.entries(engine, session.state, seat.seat, now[:1], session.names(), t)
        shown, then = listing.names[move], choices.named(entry)
        if shown != then:
            raise StaleMove(
                "the board changed since that list was shown: `{move}` was “{shown}” there and is "
                "“{now}” now; send it again to play it as it is now",
                move=move,
                shown=shown,
                now=then,
            )

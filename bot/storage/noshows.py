"""League no-shows: each league's rules, the no-shows counted, the substitutes' list and the seats
handed to substitutes (both back ends; the rules are in :mod:`bot.league.noshows`).

A seat handed to a substitute changes the session's seat (its person, name and flags, the
session's version bumped and its turn deadline armed again, as every seat change does), the
game's clocks (the substitute's full start) and, when the result is the substitute's, the league
seat, in one transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from bot.league.noshows import ORIGINAL, SUBSTITUTE, Rules, first_holder
from bot.storage.base import (
    Body,
    Clocked,
    Concern,
    all_,
    fits,
    one,
    run,
    the_one,
    upsert,
)
from bot.storage.games import arm, seats_changed


@dataclass(frozen=True)
class NoShow:
    user_id: int
    round: int
    game_id: int
    action: str
    at: float


@dataclass(frozen=True)
class Substitute:
    user_id: int
    name: str


@dataclass(frozen=True)
class Held:
    """What a seat held as it was handed on: the moves so far (the holder's turns among them),
    the holder's resignation as the seat held it (None: none) and the seat's name."""

    moves: int
    resigned_after: int | None
    name: str | None


def give_seat(session_id: int, seat: int, substitute: Substitute) -> Body[Held]:
    """The session's ``seat`` made ``substitute``'s, played by a person and not resigned; what it
    held until then."""
    # Where the log stands: the moves so far were the original's turns (their profile's),
    # those after are the substitute's; the original's resignation as the seat held it.
    held = yield from the_one(
        "SELECT st.resigned, st.resigned_after, (SELECT COALESCE(MAX(number), 0) FROM moves"
        " WHERE session_id = ?), st.display_name FROM seats st WHERE st.session_id = ? AND st.seat = ?",
        session_id,
        session_id,
        seat,
    )
    resigned_after = (held[1] or 0) if held[0] else None
    yield from run(
        "UPDATE seats SET user_id = ?, display_name = ?, is_computer = 0, resigned = 0,"
        " resigned_after = NULL WHERE session_id = ? AND seat = ?",
        substitute.user_id,
        substitute.name,
        session_id,
        seat,
    )
    return Held(held[2], resigned_after, held[3])


def league_seat_of(game_id: int, original: int) -> Body[int]:
    """The league seat ``original`` plays in the game: their own, or, for a substitute whose result
    counted for the player before them, that player's (back through each handover)."""
    gave = yield from all_(
        "SELECT substitute_id, original_id FROM league_substitutions WHERE game_id = ?", game_id
    )
    holders = yield from all_("SELECT user_id FROM league_seats WHERE game_id = ?", game_id)
    seated = {int(r[0]) for r in holders}
    league_seat = original
    if league_seat not in seated:
        league_seat = first_holder({int(r[0]): int(r[1]) for r in gave}, original)
    return league_seat


def credit_league_seat(
    league_id: int, game_id: int, league_seat: int, substitute: Substitute, credit: str, stamp: str
) -> Body[None]:
    """The league seat as ``credit`` says: the substitute's (who joins the league's players, once),
    or the original's, played for them (``original``) or forfeited (``nobody``)."""
    if credit == SUBSTITUTE:  # they take the dropped player's place in the league's table
        joined = yield from one(
            "SELECT 1 FROM league_players WHERE league_id = ? AND user_id = ?",
            league_id,
            substitute.user_id,
        )
        if joined is None:
            yield from run(
                "INSERT INTO league_players (league_id, user_id, display_name, joined_at) VALUES (?, ?, ?, ?)",
                league_id,
                substitute.user_id,
                substitute.name,
                stamp,
            )
        yield from run(
            "UPDATE league_seats SET user_id = ?, forfeit = 0 WHERE game_id = ? AND user_id = ?",
            substitute.user_id,
            game_id,
            league_seat,
        )
    else:  # the original's seat: played for them, or forfeited (nobody's: a late player's too)
        yield from run(
            "UPDATE league_seats SET forfeit = ? WHERE game_id = ? AND user_id = ?",
            int(credit != ORIGINAL),
            game_id,
            league_seat,
        )


def record_handover(
    league_id: int,
    game_id: int,
    seat: int,
    original: int,
    substitute: Substitute,
    credit: str,
    now: float,
    held: Held,
) -> Body[None]:
    """The handover kept (who held the seat, until which move, their resignation and name), and the
    substitute taken off the league's list."""
    yield from run(
        "INSERT INTO league_substitutions (game_id, original_id, substitute_id, credit, at, seat,"
        " moves_before, resigned_after, original_name) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        game_id,
        original,
        substitute.user_id,
        credit,
        now,
        seat,
        held.moves,
        held.resigned_after,
        held.name,
    )
    yield from run(
        "DELETE FROM league_substitutes WHERE league_id = ? AND user_id = ?",
        league_id,
        substitute.user_id,
    )


class NoShows(Concern):
    """No-show rules, no-shows, substitutes and substituted seats."""

    async def set_rules(self, league_id: int, rules: Rules) -> None:
        await self.db.change(
            upsert("league_noshow_rules", "league_id", "league_id, action, drop_after, credit"),
            league_id,
            rules.action,
            rules.drop_after,
            rules.credit,
        )

    async def rules(self, league_id: int) -> Rules:
        """The league's rules (the defaults when it has none stored)."""
        if not fits(league_id):
            return Rules()
        row = await self.db.one(
            "SELECT action, drop_after, credit FROM league_noshow_rules WHERE league_id = ?", league_id
        )
        return Rules() if row is None else Rules(row[0], int(row[1]), row[2])

    async def record(
        self, league_id: int, game_id: int, round: int, user_ids: Sequence[int], action: str
    ) -> list[int]:
        """Count a no-show for each of ``user_ids`` in this game (once per game and person); the
        ones newly counted."""
        return await self.db.transact(self.recording(league_id, game_id, round, user_ids, action))

    def recording(
        self, league_id: int, game_id: int, round: int, user_ids: Sequence[int], action: str
    ) -> Body[list[int]]:
        """:meth:`record`'s statements, for the transaction of the table's change they go with
        (the late players' seats forfeited, the game scored or the computer in their seats)."""
        now = self.clock.time()

        def body() -> Body[list[int]]:
            counted = []
            for uid in user_ids:
                seen = yield from one(
                    "SELECT 1 FROM league_noshows WHERE game_id = ? AND user_id = ?", game_id, uid
                )
                if seen is not None:
                    continue
                yield from run(
                    "INSERT INTO league_noshows (league_id, game_id, user_id, round, action, at)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    league_id,
                    game_id,
                    uid,
                    round,
                    action,
                    now,
                )
                counted.append(uid)
            return counted

        return body()

    async def of_league(self, league_id: int) -> list[NoShow]:
        rows = await self.db.all(
            "SELECT user_id, round, game_id, action, at FROM league_noshows WHERE league_id = ? ORDER BY at, user_id",
            league_id,
        )
        return [NoShow(int(r[0]), int(r[1]), int(r[2]), r[3], float(r[4])) for r in rows]

    async def counts(self, league_id: int) -> dict[int, int]:
        rows = await self.db.all(
            "SELECT user_id, COUNT(*) FROM league_noshows WHERE league_id = ? GROUP BY user_id", league_id
        )
        return {int(r[0]): int(r[1]) for r in rows}

    # ----------------------------------------------------------------- substitutes

    async def add_substitute(self, league_id: int, user_id: int, name: str) -> bool:
        """Put a person at the end of the list; False when they are on it already."""
        now = self.clock.time()

        def body() -> Body[bool]:
            there = yield from one(
                "SELECT 1 FROM league_substitutes WHERE league_id = ? AND user_id = ?", league_id, user_id
            )
            if there is not None:
                return False
            yield from run(
                "INSERT INTO league_substitutes (league_id, user_id, display_name, added_at) VALUES (?, ?, ?, ?)",
                league_id,
                user_id,
                name,
                now,
            )
            return True

        return await self.db.transact(body())

    async def remove_substitute(self, league_id: int, user_id: int) -> bool:
        changed = await self.db.change(
            "DELETE FROM league_substitutes WHERE league_id = ? AND user_id = ?", league_id, user_id
        )
        return changed == 1

    async def substitutes(self, league_id: int) -> list[Substitute]:
        """The list, first to take a seat first."""
        rows = await self.db.all(
            "SELECT user_id, display_name FROM league_substitutes WHERE league_id = ? ORDER BY added_at, user_id",
            league_id,
        )
        return [Substitute(int(r[0]), r[1]) for r in rows]

    async def hand_seat(
        self,
        league_id: int,
        game_id: int,
        session_id: int,
        seat: int,
        original: int,
        substitute: Substitute,
        credit: str,
        clock: Clocked | None = None,
        also: Body[object] | None = None,
        expected_version: int | None = None,
    ) -> bool:
        """Give ``original``'s seat in a running game to ``substitute`` (who leaves the list): the
        session's seat becomes theirs, played by a person again; the league seat follows ``credit``
        (``substitute``: the seat is theirs in the league too; ``original``: the original's, no
        longer forfeited; ``nobody``: the original's, forfeited, whether they were dropped or only
        late).  ``clock``: the game's running clocks and the delay to its next deadline once the
        seat is theirs, written in the same transaction, with ``also`` (statements run first: the original's drop from the
        league).  False when the seat is not ``original``'s any more or the game is not running
        (nothing changes, ``also`` not run).  With ``expected_version`` (the version ``clock`` was
        worked out at), nothing changes unless the session is still at it (:class:`StaleVersion`,
        ``also`` not run): clocks from before a move stored meanwhile never replace its own."""
        stamp, now = self.clock.stamp(), self.clock.time()

        def body() -> Body[bool]:
            row = yield from one(
                "SELECT 1 FROM seats st JOIN sessions s ON s.id = st.session_id WHERE st.session_id = ?"
                " AND st.seat = ? AND st.user_id = ? AND s.status = 'active'",
                session_id,
                seat,
                original,
            )
            if row is None:
                return False
            # The version first: a session changed meanwhile stores nothing, ``also`` not begun.
            version = yield from seats_changed(session_id, clock, stamp, expected_version)
            if also is not None:
                yield from also
            held = yield from give_seat(session_id, seat, substitute)
            yield from arm(session_id, version[0], version[1], now, stamp)
            league_seat = yield from league_seat_of(game_id, original)
            yield from credit_league_seat(league_id, game_id, league_seat, substitute, credit, stamp)
            yield from record_handover(league_id, game_id, seat, original, substitute, credit, now, held)
            return True

        return await self.db.transact(body())

    async def substitutions(self, game_id: int) -> list[tuple[int, int, str]]:
        """(original, substitute, credit) of each seat of the game handed to a substitute."""
        rows = await self.db.all(
            "SELECT original_id, substitute_id, credit FROM league_substitutions WHERE game_id = ? ORDER BY at",
            game_id,
        )
        return [(int(r[0]), int(r[1]), r[2]) for r in rows]

    async def last_moves(self, session_ids: Sequence[int]) -> dict[int, tuple[int, float]]:
        """(moves played, when the last was played) of each session that has moves."""
        out: dict[int, tuple[int, float]] = {}
        for sid in session_ids:
            row = await self.db.one("SELECT COUNT(*), MAX(created_at) FROM moves WHERE session_id = ?", sid)
            if row is not None and row[0]:
                out[sid] = (int(row[0]), datetime.fromisoformat(str(row[1])).timestamp())
        return out

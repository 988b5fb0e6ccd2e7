"""Profiles' storage: the turns each person had (derived from the move log), and the gates.

``turns`` holds one row per turn a person had, worked out from the move log by
:mod:`bot.profiles` and written here; ``turns_read`` the session version they were read at, so
that only a game that changed since is read again.  Both can be dropped and rebuilt from the log
(:func:`bot.profiles.rebuild` works them out afresh).  A person's turns are summed up from the indexes ``turns_by_user``
and ``turns_by_pace`` and their games read by ``seats_by_user``: a profile never scans the log.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from bot.storage.base import Body, Concern, Row, all_, fits, many, need_guild, run, upsert
from bot.time.source import seconds_of

LOGS_AT_ONCE = 500
"""How many games' logs one statement reads."""


@dataclass(frozen=True)
class TurnRow:
    """One turn of one person (see migrations ``027_profiles.sql``)."""

    session_id: int
    number: int
    user_id: int
    game: str
    seconds: float | None
    on_time: bool
    missed: bool


@dataclass(frozen=True)
class LoggedMove:
    number: int
    seat: int
    by_computer: bool
    created_at: str
    move: str = ""  # its notation (an undo entry's tells it apart: bot.replaying.undo_target)


@dataclass(frozen=True)
class Holder:
    """Someone who held a seat before it was handed to someone else (a league's substitute): the
    moves numbered up to ``until`` were theirs; ``resigned_after`` their resignation as the seat
    held it (None: they had not resigned); ``at``: when the seat changed hands; ``name``: the
    seat's name then (for a handover stored before it was kept, the league's name for them;
    empty when neither is known)."""

    seat: int
    user_id: int
    until: int
    resigned_after: int | None
    at: float
    name: str = ""


@dataclass(frozen=True)
class GameLog:
    """What a game's turns are worked out from: its clock, its people's seats, its moves."""

    session_id: int
    game: str
    version: int
    clock: str | None
    timer_seconds: float | None
    started_at: str | None
    people: dict[int, int]  # engine seat -> user id, people only
    resigned: frozenset[int]  # seats whose person resigned
    moves: tuple[LoggedMove, ...]
    resigned_after: dict[int, int] = field(default_factory=dict)
    """Seat -> how many moves the log held when it resigned (a resignation stored before that was
    kept has none): the computer's moves for the seat up to it were its person's missed turns."""
    earlier: tuple[Holder, ...] = ()
    """Who held a seat before its person now (``people``), in the order it changed hands."""
    ran_out: frozenset[int] = frozenset()
    """Seats whose time had run out when the game was abandoned (the others were being asked)."""
    guild_id: int | None = None
    """The game's server: the bot's outages there are nobody's time to move."""
    taken: dict[int, tuple[int, bool]] = field(default_factory=dict)
    """Seat -> (how many moves the log held when the table took it over for the rest of the
    game, whether the game was waiting on it then)."""


@dataclass(frozen=True)
class SeatedGame:
    """A game a person sits or sat in."""

    session_id: int
    game: str
    guild_id: int | None
    status: str
    resigned: bool
    started: bool  # it left its lobby (a lobby closed before the start is no game played)


@dataclass(frozen=True)
class GameTurns:
    """A person's turns in one game (the title): how many, on time, missed, and the median time to
    move over those they made themselves (``timed`` of them)."""

    game: str
    turns: int
    on_time: int
    missed: int
    timed: int
    median: float | None


@dataclass(frozen=True)
class TurnSummary:
    """A person's turns, summed up: per game, the median over all games, the games with a miss."""

    games: tuple[GameTurns, ...] = ()
    median: float | None = None
    missed_in: frozenset[int] = frozenset()


def median_at(count: int) -> tuple[int, int]:
    """Where the median of ``count`` sorted values lies: (how many to take, how many to skip)."""
    return (1, (count - 1) // 2) if count % 2 else (2, count // 2 - 1)


def middle(values: list[float]) -> float | None:
    return None if not values else sum(values) / len(values)


@dataclass(frozen=True)
class Gate:
    """What a table, a server or a league asks of a player (None: nothing of that kind)."""

    reliability: int | None = None
    pace: str | None = None

    @property
    def empty(self) -> bool:
        return self.reliability is None and self.pace is None


@dataclass(frozen=True)
class ServerGates:
    cap: int | None = None  # None: finished games plus 3; 0: no cap; else at most this many
    gate: Gate = Gate()


HANDOVERS = (
    "SELECT g.session_id, h.seat, h.original_id, h.moves_before, h.resigned_after, h.at, h.substitute_id,"
    " COALESCE(h.original_name, p.display_name) FROM league_substitutions h JOIN league_games g ON g.id = h.game_id"
    " LEFT JOIN league_players p ON p.league_id = g.league_id AND p.user_id = h.original_id"
)
"""The handovers :func:`holders_of` reads (a ``WHERE`` on ``g.session_id`` and an ``ORDER BY`` to add)."""


def holders_of(
    handed: Iterable[Row], people: dict[int, dict[int, int]], logged: dict[int, list[LoggedMove]]
) -> dict[int, list[Holder]]:
    """Each game's earlier seat holders from its handovers (:data:`HANDOVERS`: session, seat,
    original, moves before, resigned after, at, substitute, the seat's name then).  A handover stored without its seat and place in the log (before
    they were kept) is placed by its time: the seat its substitute sits in, after the moves made
    before it; the original's computer moves there read as the computer's own, as an old
    resignation's do."""
    out: dict[int, list[Holder]] = {}
    for sid, seat, original, before, resigned_after, at, substitute, name in handed:
        if seat is None or before is None:
            seat = next((s for s, u in people.get(sid, {}).items() if u == substitute), None)
            if seat is None:
                continue
            made = [m.number for m in logged.get(sid, []) if seconds_of(m.created_at) <= float(at)]
            before, resigned_after = max(made, default=0), 0
        out.setdefault(sid, []).append(
            Holder(int(seat), int(original), int(before), resigned_after, float(at), name or "")
        )
    return out


def ran_out(banks: str | None) -> frozenset[int]:
    """The seats a game's stored clocks (``sessions.clock_state``) say ran out of time, their
    question still open."""
    try:
        pending = json.loads(banks or "{}").get("pending") or {}
        return frozenset(int(seat) for seat in pending)
    except (ValueError, TypeError, AttributeError):
        return frozenset()


class Profiles(Concern):
    """Turns derived from the log, and the gates of tables, servers and leagues."""

    async def stale(self, user_ids: Iterable[int]) -> list[int]:
        """The started games of these people (a seat of theirs, or one they handed to a league's
        substitute) whose turns were not read at their current version."""
        ids = [u for u in set(user_ids) if fits(u)]
        if not ids:
            return []
        marks = ", ".join("?" for _ in ids)
        rows = await self.db.all(
            "SELECT s.id FROM sessions s LEFT JOIN turns_read r ON r.session_id = s.id"
            f" WHERE s.id IN (SELECT st.session_id FROM seats st WHERE st.user_id IN ({marks})"
            " UNION SELECT g.session_id FROM league_substitutions h JOIN league_games g ON g.id = h.game_id"
            f" WHERE h.original_id IN ({marks})) AND s.status <> 'lobby'"
            " AND (r.version IS NULL OR r.version <> s.version) ORDER BY s.id",
            *ids,
            *ids,
        )
        return [r[0] for r in rows]

    async def all_started(self) -> list[int]:
        rows = await self.db.all("SELECT id FROM sessions WHERE status <> 'lobby' ORDER BY id")
        return [r[0] for r in rows]

    async def logs(self, session_ids: Sequence[int]) -> list[GameLog]:
        """The logs of these games (read by their keys, a few hundred games a statement), in one trip."""

        def body() -> Body[list[GameLog]]:
            out = []
            for at in range(0, len(session_ids), LOGS_AT_ONCE):
                ids = list(session_ids[at : at + LOGS_AT_ONCE])
                marks = ", ".join("?" for _ in ids)
                games = yield from all_(
                    "SELECT id, game, version, clock, timer_seconds, started_at, status, clock_state, guild_id"
                    " FROM sessions"
                    f" WHERE id IN ({marks}) ORDER BY id",
                    *ids,
                )
                seats = yield from all_(
                    "SELECT session_id, seat, user_id, resigned, resigned_after, taken_after, taken_late FROM seats"
                    f" WHERE session_id IN ({marks})"
                    " AND seat IS NOT NULL",
                    *ids,
                )
                moves = yield from all_(
                    "SELECT session_id, number, seat, by_computer, created_at, move FROM moves"
                    f" WHERE session_id IN ({marks})"
                    " ORDER BY session_id, number",
                    *ids,
                )
                handed = yield from all_(
                    f"{HANDOVERS} WHERE g.session_id IN ({marks}) ORDER BY g.session_id, h.at", *ids
                )
                people: dict[int, dict[int, int]] = {}
                resigned: dict[int, set[int]] = {}
                resigned_after: dict[int, dict[int, int]] = {}
                taken: dict[int, dict[int, tuple[int, bool]]] = {}
                for sid, seat, user, gave_up, after, taken_after, late in seats:
                    if taken_after is not None:
                        taken.setdefault(sid, {})[seat] = (taken_after, bool(late))
                    if user is not None:
                        people.setdefault(sid, {})[seat] = user
                    if gave_up:
                        resigned.setdefault(sid, set()).add(seat)
                        if after is not None:
                            resigned_after.setdefault(sid, {})[seat] = after
                logged: dict[int, list[LoggedMove]] = {}
                for sid, number, seat, by_computer, created_at, text in moves:
                    logged.setdefault(sid, []).append(
                        LoggedMove(number, seat, bool(by_computer), created_at, text)
                    )
                earlier = holders_of(handed, people, logged)
                for sid, game, version, clock, timer, started, status, banks, guild in games:
                    out.append(
                        GameLog(
                            session_id=sid,
                            game=game,
                            version=version,
                            clock=clock,
                            timer_seconds=timer,
                            started_at=started,
                            people=people.get(sid, {}),
                            resigned=frozenset(resigned.get(sid, ())),
                            moves=tuple(logged.get(sid, ())),
                            resigned_after=resigned_after.get(sid, {}),
                            earlier=tuple(earlier.get(sid, ())),
                            ran_out=ran_out(banks) if status == "abandoned" else frozenset(),
                            guild_id=guild,
                            taken=taken.get(sid, {}),
                        )
                    )
            return out

        return await self.db.read(body())

    async def save_turns(self, read: Sequence[tuple[GameLog, Sequence[TurnRow]]]) -> None:
        """Replace each game's turns by those worked out from its log, in one transaction."""
        if not read:
            return

        def body() -> Body[None]:
            for log, turns in read:
                yield from run("DELETE FROM turns WHERE session_id = ?", log.session_id)
                yield from many(
                    upsert(
                        "turns",
                        "session_id, number",
                        "session_id, number, user_id, game, seconds, on_time, missed",
                    ),
                    [
                        (t.session_id, t.number, t.user_id, t.game, t.seconds, int(t.on_time), int(t.missed))
                        for t in turns
                    ],
                )
                yield from run(
                    upsert("turns_read", "session_id", "session_id, version"), log.session_id, log.version
                )

        await self.db.transact(body())

    async def summary(self, user_id: int) -> TurnSummary:
        """A person's turns summed up by the indexes ``turns_by_user`` and ``turns_by_pace`` alone
        (a median is read at its place in the index's order), in one trip."""
        if not fits(user_id):
            return TurnSummary()

        def body() -> Body[TurnSummary]:
            rows = yield from all_(
                "SELECT game, COUNT(*), SUM(on_time), SUM(missed),"
                " SUM(CASE WHEN missed = 0 AND seconds IS NOT NULL THEN 1 ELSE 0 END)"
                " FROM turns WHERE user_id = ? GROUP BY game ORDER BY game",
                user_id,
            )
            games = []
            for game, turns, on_time, missed, timed in rows:
                median = None
                if timed:
                    take, skip = median_at(timed)
                    found = yield from all_(
                        "SELECT seconds FROM turns WHERE user_id = ? AND game = ? AND missed = 0"
                        " AND seconds IS NOT NULL ORDER BY seconds LIMIT ? OFFSET ?",
                        user_id,
                        game,
                        take,
                        skip,
                    )
                    median = middle([r[0] for r in found])
                games.append(GameTurns(game, turns, int(on_time), int(missed), int(timed), median))
            timed = sum(g.timed for g in games)
            median = None
            if timed:
                take, skip = median_at(timed)
                found = yield from all_(
                    "SELECT seconds FROM turns WHERE user_id = ? AND missed = 0 AND seconds IS NOT NULL"
                    " ORDER BY seconds LIMIT ? OFFSET ?",
                    user_id,
                    take,
                    skip,
                )
                median = middle([r[0] for r in found])
            missed = yield from all_(
                "SELECT DISTINCT session_id FROM turns WHERE user_id = ? AND missed = 1", user_id
            )
            return TurnSummary(tuple(games), median, frozenset(r[0] for r in missed))

        return await self.db.read(body())

    async def all_turns(self) -> list[TurnRow]:
        rows = await self.db.all(
            "SELECT session_id, number, user_id, game, seconds, on_time, missed FROM turns ORDER BY session_id, number"
        )
        return [TurnRow(r[0], r[1], r[2], r[3], r[4], bool(r[5]), bool(r[6])) for r in rows]

    async def games_of(self, user_id: int) -> list[SeatedGame]:
        """Every game (lobbies too) a person sits or sat in; a game whose seat they handed to a
        league's substitute (and sit in no more) as one they resigned from: they left it."""
        if not fits(user_id):
            return []
        rows = await self.db.all(
            "SELECT s.id, s.game, s.guild_id, s.status, st.resigned,"
            " CASE WHEN s.started_at IS NOT NULL OR EXISTS (SELECT 1 FROM moves m WHERE m.session_id = s.id)"
            " THEN 1 ELSE 0 END FROM seats st"
            " JOIN sessions s ON s.id = st.session_id WHERE st.user_id = ?"
            " UNION SELECT DISTINCT s.id, s.game, s.guild_id, s.status, 1, 1 FROM league_substitutions h"
            " JOIN league_games g ON g.id = h.game_id JOIN sessions s ON s.id = g.session_id"
            " WHERE h.original_id = ? AND NOT EXISTS (SELECT 1 FROM seats st WHERE st.session_id = s.id"
            " AND st.user_id = ?) ORDER BY 1",
            user_id,
            user_id,
            user_id,
        )
        return [SeatedGame(r[0], r[1], r[2], r[3], bool(r[4]), bool(r[5])) for r in rows]

    # ------------------------------------------------------------------ gates

    async def table_gate(self, session_id: int) -> Gate | None:
        """The gate the host set (None: they set none)."""
        row = await self.db.one("SELECT reliability, pace FROM table_gates WHERE session_id = ?", session_id)
        return Gate(row[0], row[1]) if row else None

    async def set_table_gate(self, session_id: int, gate: Gate) -> None:
        await self.db.change(
            upsert("table_gates", "session_id", "session_id, reliability, pace"),
            session_id,
            gate.reliability,
            gate.pace,
        )

    async def server_gates(self, guild_id: int | None) -> ServerGates:
        row = await self.db.one(
            "SELECT cap, reliability, pace FROM server_gates WHERE guild_id = ?", need_guild(guild_id)
        )
        return ServerGates(row[0], Gate(row[1], row[2])) if row else ServerGates()

    async def set_server_gates(self, guild_id: int, gates: ServerGates) -> None:
        await self.db.change(
            upsert("server_gates", "guild_id", "guild_id, cap, reliability, pace, updated_at"),
            guild_id,
            gates.cap,
            gates.gate.reliability,
            gates.gate.pace,
            self.clock.stamp(),
        )

    async def league_gate(self, league_id: int) -> int | None:
        row = await self.db.one("SELECT reliability FROM league_gates WHERE league_id = ?", league_id)
        return row[0] if row else None

    async def set_league_gate(self, league_id: int, reliability: int | None) -> None:
        if reliability is None:
            await self.db.change("DELETE FROM league_gates WHERE league_id = ?", league_id)
        else:
            await self.db.change(
                upsert("league_gates", "league_id", "league_id, reliability"), league_id, reliability
            )

"""Reliability and pace profiles, and the gates built on them (no Discord here).

Every figure comes from what is stored: the move log (with each move's time), the seats, the
sessions' clocks and ends, and the ratings.  The turns each person had are derived from the log
and kept in the ``turns`` table (:mod:`bot.storage.profiles`); a game is read again only when its
version moved on since it was last read, so a profile reads the person's own turns by an index
and never the whole log.  :func:`rebuild` works every turn out afresh from the log, for a check.

The one call for whoever seats people (a lobby's join, the queue, a league's sign-up):
:func:`admissible` answers ``None`` (welcome) or a :class:`~engines.core.Said` saying what is
missing and how to get there.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.profiles.reckon import (
    CAP_EXTRA,
    NEUTRAL,
    PACES,
    Figures,
    cap_for,
    figures,
    pace_of,
    reliability,
    turns_needed,
    turns_of,
)
from bot.storage import RatingRow, Store
from bot.storage.profiles import GameLog, Gate, ServerGates, TurnRow
from bot.time import gameclock as gc
from engines.core import Said, said, said_n

__all__ = [
    "CAP_EXTRA",
    "NEUTRAL",
    "PACES",
    "Figures",
    "Gate",
    "Profile",
    "ServerGates",
    "admissible",
    "check_gate",
    "figures",
    "figures_of",
    "league_admissible",
    "pace_of",
    "profile",
    "refresh",
    "rebuild",
    "reliability",
    "table_gate",
]


@dataclass(frozen=True)
class Profile:
    user_id: int
    figures: Figures
    ratings: dict[str, RatingRow]  # per game, on the server asked from (empty elsewhere)


async def refresh(store: Store, user_ids: Iterable[int]) -> int:
    """Bring the stored turns of these people's games up to date with the log; how many games
    were read again (only those changed since they were last read)."""
    stale = await store.profiles.stale(user_ids)
    if not stale:
        return 0
    logs = await store.profiles.logs(stale)
    await store.profiles.save_turns(await _worked(store, logs))
    return len(logs)


async def _worked(store: Store, logs: list[GameLog]) -> list[tuple[GameLog, list[TurnRow]]]:
    """Each game's turns worked out from its log, with its people's reminder intervals (as they
    were when each turn started) and times away, and the times the bot was out of service in the
    game's server (left out of everyone's time to move, as the clocks leave them out)."""
    users = {u for log in logs for u in (*log.people.values(), *(h.user_id for h in log.earlier))}
    hours = {u: p.remind_hours for u, p in (await store.people.several(users)).items()}
    away = await store.people.away_periods(users)
    intervals = await store.people.intervals(users)
    downs = {guild: await store.outages.of_guild(guild) for guild in {log.guild_id for log in logs}}
    worked = []
    for log in logs:
        down = downs[log.guild_id]  # (read once a server, not once a game)
        off = {u: gc.joined(away.get(u, ()), down) for u in users} if down else away
        worked.append((log, turns_of(log, hours, off, intervals)))
    return worked


async def rebuild(store: Store) -> list[TurnRow]:
    """Every person's turns worked out afresh from the whole log (sorted as stored), to check the
    stored ones against."""
    worked = await _worked(store, await store.profiles.logs(await store.profiles.all_started()))
    return [t for _, turns in worked for t in turns]


async def figures_of(store: Store, user_id: int) -> Figures:
    """A person's figures, their games' turns brought up to date first."""
    await refresh(store, [user_id])
    return figures(await store.profiles.summary(user_id), await store.profiles.games_of(user_id))


async def profile(store: Store, user_id: int, guild_id: int | None = None) -> Profile:
    """A person's profile; their ratings are those of the server ``guild_id``."""
    found = await figures_of(store, user_id)
    ratings = await store.ratings.ratings_of(guild_id, user_id) if guild_id is not None else {}
    return Profile(user_id, found, ratings)


async def table_gate(store: Store, session_id: int, guild_id: int | None) -> Gate:
    """What a table asks: its host's gate, else the server's default gate."""
    own = await store.profiles.table_gate(session_id)
    if own is not None:
        return own
    if guild_id is None:
        return Gate()
    return (await store.profiles.server_gates(guild_id)).gate


PACE_SAID = {"live": said("live"), "fast": said("fast"), "daily": said("daily"), "slow": said("slow")}
"""The pace tiers' names in a sentence, put in the reader's language (as ``words.PACE_NAMES``)."""


def check_gate(found: Figures, gate: Gate, whose: str = "table") -> Said | None:
    """What ``found`` lacks for ``gate``, in words addressed to its person (None: nothing);
    ``whose``: ``table`` (a table's own gate) or ``server`` (the server's default gate, asked of
    every table that sets none, the queue's among them).  A new person (no turns) passes a pace
    gate; one whose every turn was missed has no pace either, and does not."""
    server = whose == "server"
    have, need = found.reliability, gate.reliability
    if need is not None and have < need:
        more = turns_needed(found.on_time, found.turns, need)
        if more is None and server:
            return said(
                "your reliability is {have} % and this server's tables ask for {need} %, which only a "
                "record without a late turn reaches",
                have=have,
                need=need,
            )
        if more is None:
            return said(
                "your reliability is {have} % and this table asks for {need} %, which only a record "
                "without a late turn reaches",
                have=have,
                need=need,
            )
        if server:
            return said_n(
                more,
                "your reliability is {have} % and this server's tables ask for {need} %: {n} more turn "
                "on time would reach it (see /me profile)",
                "your reliability is {have} % and this server's tables ask for {need} %: {n} more turns "
                "on time would reach it (see /me profile)",
                have=have,
                need=need,
            )
        return said_n(
            more,
            "your reliability is {have} % and this table asks for {need} %: {n} more turn on time "
            "would reach it (see /me profile)",
            "your reliability is {have} % and this table asks for {need} %: {n} more turns on time "
            "would reach it (see /me profile)",
            have=have,
            need=need,
        )
    if gate.pace is None or gate.pace not in PACES:
        return None
    limit, pace = PACES[gate.pace], PACE_SAID.get(gate.pace, gate.pace)
    if found.median is not None and found.median > limit:
        median, most = gc.spoken(found.median), gc.spoken(limit)
        if server:
            return said(
                "your median time to move is {have} and this server's tables ask for the pace {pace} "
                "(a median of {limit} or less): moving sooner in your games brings it down (see /me "
                "profile)",
                have=median,
                pace=pace,
                limit=most,
            )
        return said(
            "your median time to move is {have} and this table asks for the pace {pace} (a median "
            "of {limit} or less): moving sooner in your games brings it down (see /me profile)",
            have=median,
            pace=pace,
            limit=most,
        )
    if found.median is None and found.turns > 0 and found.missed == found.turns:
        if server:
            return said(
                "your turns so far were all missed, so you have no pace yet, and this server's tables "
                "ask for the pace {pace}: a turn you make yourself gives you one (see /me profile)",
                pace=pace,
            )
        return said(
            "your turns so far were all missed, so you have no pace yet, and this table asks for the "
            "pace {pace}: a turn you make yourself gives you one (see /me profile)",
            pace=pace,
        )
    return None


async def admissible(
    store: Store,
    guild_id: int | None,
    user_id: int,
    gate: Gate | None = None,
    *,
    at: int | None = None,
    whose: str = "table",
) -> Said | None:
    """Whether ``user_id`` may take one more seat in server ``guild_id`` at a table asking
    ``gate``: None when they may, else what is missing and how to get there (addressed to them;
    ``whose``: see :func:`check_gate`).

    Checks the server's cap on running games (their lobbies and running games in that server,
    against their finished games everywhere plus 3, unless the server set its own cap) and then
    ``gate`` (a table's: :func:`table_gate`; a league's: ``Gate(reliability=...)``; None: none).
    A seat they hold at the table ``at`` (a session's id: the table asked about) does not count
    against the cap: it is that seat, not one more.
    A person who is new (no turns yet) passes a pace gate and has the neutral reliability, 80 %.
    """
    found = await figures_of(store, user_id)
    if guild_id is not None:
        server = await store.profiles.server_gates(guild_id)
        cap = cap_for(found.finished, server.cap)
        if cap is not None:
            games = await store.profiles.games_of(user_id)
            here = sum(
                1
                for g in games
                if g.guild_id == guild_id
                and g.session_id != at
                and (g.status == "lobby" or (g.status == "active" and not g.resigned))
            )
            if here >= cap:
                if server.cap is None:
                    return said_n(
                        here,
                        "you have {n} game running or waiting in this server and the most is {cap} ({extra} plus "
                        "one for each game you finished, {finished} so far): finish a game to take another seat",
                        "you have {n} games running or waiting in this server and the most is {cap} ({extra} plus "
                        "one for each game you finished, {finished} so far): finish a game to take another seat",
                        cap=cap,
                        finished=found.finished,
                        extra=CAP_EXTRA,
                    )
                return said_n(
                    here,
                    "you have {n} game running or waiting in this server and this server allows {cap} per "
                    "person: finish a game to take another seat",
                    "you have {n} games running or waiting in this server and this server allows {cap} per "
                    "person: finish a game to take another seat",
                    cap=cap,
                )
    return check_gate(found, gate, whose) if gate is not None else None


async def table_admissible(store: Store, session_id: int, guild_id: int | None, user_id: int) -> Said | None:
    """Whether ``user_id`` may sit at the table ``session_id`` (a lobby of server ``guild_id``):
    the server's cap, where a seat they already hold at this table does not count, and the
    table's gate (:func:`table_gate`)."""
    gate = await table_gate(store, session_id, guild_id)
    return await admissible(store, guild_id, user_id, gate, at=session_id)


async def queue_admissible(store: Store, guild_id: int, user_id: int, game: str) -> Said | None:
    """The queue's gate (:attr:`bot.queue.tables.Tables.gate`): whether ``user_id`` may be
    seated at a table the queue forms in ``guild_id``, under the server's cap and its default
    gate (a queue table has no host to set one of its own).  ``game`` is not asked: the cap and
    the server's gate hold for every game."""
    server = await store.profiles.server_gates(guild_id)
    return await admissible(store, guild_id, user_id, server.gate, whose="server")


async def league_admissible(store: Store, league_id: int, user_id: int) -> Said | None:
    """Whether ``user_id`` meets the league's minimum reliability (None: they do, or it has none)."""
    minimum = await store.profiles.league_gate(league_id)
    if minimum is None:
        return None
    found = await figures_of(store, user_id)
    if found.reliability >= minimum:
        return None
    more = turns_needed(found.on_time, found.turns, minimum)
    if more is None:
        return said(
            "the reliability is {have} % and this league asks for {need} %, which only a record "
            "without a late turn reaches",
            have=found.reliability,
            need=minimum,
        )
    return said_n(
        more,
        "the reliability is {have} % and this league asks for {need} %: {n} more turn on time would "
        "reach it (see /me profile)",
        "the reliability is {have} % and this league asks for {need} %: {n} more turns on time would "
        "reach it (see /me profile)",
        have=found.reliability,
        need=minimum,
    )

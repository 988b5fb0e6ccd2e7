"""Reminders, as :mod:`bot.notices` decides, and the waits they count (``/game mine``, ``/play next``).

Reminders are scheduler jobs of kind ``remind``, one per person (key: the user
id), armed when a turn of theirs begins; when one fires it sends one message
listing every game where it is their turn, the least time left on their clock
first (:func:`bot.waits.by_time_left`), then re-arms itself for the next
interval, or the next day at the hour they chose (``/me digest``), while such
games remain, so thirty games still make one DM.  The message goes as a turn
notice goes (:class:`bot.surface.direct.Notifier`: a direct message, a mention in
each game's thread in its place); a turn notice held back by quiet hours rides
on the same job, marked held (:func:`bot.surface.direct.hold`).

Imports: :mod:`bot.notices`, :mod:`bot.waits`, :mod:`bot.sessions`, :mod:`bot.storage`, :mod:`bot.time`,
and :mod:`bot.surface` channels, direct, nonces, written.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot import notices, waits
from bot.notices import Waiting
from bot.sessions import Session
from bot.storage import JobPayload, PersonRow, Store
from bot.surface import nonces, written
from bot.surface.channels import is_member
from bot.surface.direct import Notifier
from bot.time.jobs import REMIND
from bot.time.source import seconds_of
from languages import ENGLISH, Language

if TYPE_CHECKING:
    from bot.surface.tableparts import TableClient
    from bot.time.scheduler import Scheduler

LOG_WINDOW = 60  # the log's last moves read for when a turn began (the whole log when they do not tell)


class Reminders:
    """The ``remind`` job of each person, and the games waiting on them, for the table."""

    def __init__(self, notifier: Notifier):
        self.notifier = notifier  # how a reminder reaches the person, as a turn notice does

    @property
    def store(self) -> Store:
        return self.notifier.store

    @property
    def bot(self) -> TableClient:
        return self.notifier.bot

    @property
    def scheduler(self) -> Scheduler:
        return self.notifier.scheduler

    def now(self) -> float:
        return self.notifier.now()

    async def turn_waits(self, session: Session, people: dict[int, PersonRow], now: float) -> None:
        """After a board of ``session``: arm the reminders of ``people`` (those it waits on) who take
        them, each due when their turn has waited their interval, counted from when it began
        (handed to :meth:`bot.surface.direct.Notifier.after_board` by the front)."""
        reminded = {uid for uid, p in people.items() if p.notify != "none" and p.remind_hours}
        to_move = session.to_move()
        seats = {
            uid: seat.seat
            for uid in reminded
            if (seat := session.seat_of(uid)) is not None and seat.seat in to_move
        }
        # when each one's turn began, from one read of the log for them all
        starts = await turn_starts(self.store, session, sorted(set(seats.values())))
        changed = seconds_of(session.row.updated_at)
        for uid, person in people.items():
            if uid in reminded:
                since = min(changed, starts[seats[uid]]) if uid in seats else None
                await self.arm_reminder(session, person, now, began=since)

    async def arm_reminder(
        self, session: Session, person: PersonRow, now: float, *, began: float | None = None
    ) -> None:
        """A turn of ``person``'s began in ``session`` (or a board was posted while it waits): their
        reminder comes when that turn has waited their interval (or at their digest hour), counted
        from its beginning, so that others' moves do not put it off.  One armed earlier stays only while another game of theirs waits
        on them: one armed for a turn they have played since would come too soon for this one."""
        key = str(person.user_id)
        if began is None:
            began = await waited_since(self.store, session, person.user_id)
        due = await self.next_reminder(person, now, began=began)
        armed = await self.store.jobs.job(REMIND, key)
        if armed is not None and (armed.due_at >= due or armed.payload.get("held")):
            return  # (a held notice comes at the end of the quiet hours, which re-arms it)
        if armed is not None and any(  # (no membership lookups on every turn: the reminder makes them)
            w.session.id != session.id for w in await self.waiting_games(person.user_id, members=False)
        ):
            return
        await self.scheduler.schedule(REMIND, key, due)

    async def games_of(self, user_id: int, t: Language = ENGLISH, *, members: bool = True) -> list[Waiting]:
        """Every lobby and game the person sits in, in the servers the bot is still in and (with
        ``members``: one lookup a server, Discord not telling the bot of departures) they have not
        left."""
        now = self.now()
        sessions = [
            s
            for s in await self.notifier.look.service.core.sessions_of(user_id)
            if s.row.guild_id is not None and self.bot.get_guild(s.row.guild_id) is not None
        ]
        members_of = {
            g: not members or await is_member(self.bot.get_guild(g), user_id)
            for g in {s.row.guild_id for s in sessions}
            if g
        }
        return [
            Waiting(s, self.notifier.guild_name(s, t), now - await waited_since(self.store, s, user_id))
            for s in sessions
            if s.row.guild_id is not None and members_of[s.row.guild_id]
        ]

    async def mine(self, user_id: int, t: Language | None = None) -> str:
        """``/game mine`` in language ``t`` (by default the person's, as last seen)."""
        if t is None:
            t = await self.notifier.language_of(await self.store.people.person(user_id))
        games = await self.games_of(user_id, t)
        clocks = {w.session.id: await self.notifier.time_left(w.session, t) for w in games}
        return notices.mine_text(written.waiting(games), user_id, self.notifier.link, clocks, t)

    async def waiting_games(
        self, user_id: int, t: Language = ENGLISH, *, members: bool = True
    ) -> list[Waiting]:
        """The person's games where it is their turn, the longest waiting first, each with the
        time left on their clock there (``members``: see :meth:`games_of`)."""
        out = []
        now = self.now()
        for w in await self.games_of(user_id, t, members=members):
            seat = w.session.seat_of(user_id)
            if seat is not None and seat.seat is not None and seat.seat in w.session.to_move():
                away = await self.notifier.look.service.core.away_of(w.session)
                left = waits.seconds_left(w.session, seat.seat, now, away)
                out.append(dataclasses.replace(w, left=left))
        return sorted(out, key=lambda w: -w.seconds)

    async def next_reminder(self, person: PersonRow, now: float, *, began: float | None = None) -> float:
        """When the person's next reminder is due: at the hour of the day they chose
        (``/me digest``), else ``remind_hours`` from now; for a turn that ``began`` earlier, when
        its wait next reaches a whole number of intervals (others' moves meanwhile put it off
        no more than they restart the wait)."""
        hour = (await self.store.waits.settings(person.user_id)).digest_hour
        if hour is not None:
            return waits.next_digest(person, hour, now)
        interval = person.remind_hours * 3600
        if began is None or began >= now or not interval:
            return now + interval
        return began + (int((now - began) // interval) + 1) * interval

    async def remind(self, user_id: int, *, held: bool = False, due: float | None = None) -> None:
        """The scheduler's reminder: one message listing every game where it is their turn
        (``held``: it carries a turn notice quiet hours held back, owed with reminders off too;
        ``due``: when its ``remind`` job was due, which names this reminder in its nonce: the same
        for the stopped process's firing and the restart's, another for the next reminder)."""
        notifier = self.notifier
        person = await self.store.people.person(user_id)
        if person.notify == "none":
            return  # (without reminders, only a turn's DM held by quiet hours comes here)
        kept: JobPayload | None = {"held": True} if held else None
        if person.away_at(self.now()) and person.away_until is not None:
            # no reminders while away; they start again on return (a digest, at its hour)
            hour = (await self.store.waits.settings(user_id)).digest_hour
            await self.scheduler.schedule(
                REMIND, str(user_id), waits.after_away(person, hour, person.away_until), kept
            )
            return
        t = await notifier.language_of(person)
        games = await self.waiting_games(user_id, t)
        if not games:
            return  # armed again when a turn of theirs begins
        if not person.locale:  # never seen: the language of the server of the longest-waiting game
            t = await notifier.language_of(person, games[0].session)
            games = await self.waiting_games(user_id, t)
        now = self.now()
        if person.wants_dm and notices.is_quiet(person, now) and not person.wants_mention:
            await self.scheduler.schedule(REMIND, str(user_id), notices.quiet_ends(person, now), kept)
            return
        dm_ok = False
        games = waits.by_time_left(games)  # the least time left first
        which = (user_id, due, held)
        if person.wants_dm and not notices.is_quiet(person, now):
            text = notices.digest(written.waiting(games), notifier.link, t)
            dm_ok = await notifier.send_dm(user_id, text, nonce=nonces.told_nonce(nonces.REMINDER, *which))
        if person.wants_mention or (person.wants_dm and not dm_ok):
            for w in games:
                nonce = nonces.told_nonce(nonces.REMINDER, *which, w.session.id)
                await notifier.fall_back(w.session, user_id, w.seconds, nonce)
        if person.remind_hours:
            await self.scheduler.schedule(REMIND, str(user_id), await self.next_reminder(person, now))

    # ------------------------------------------------------------- settings and time away, for /me

    async def changed(self, person: PersonRow) -> None:
        """After ``/me notify``: with reminders on, the next one comes after the new interval at
        the latest, for the games already waiting on the person too (a reminder is otherwise armed
        only when a turn begins); with reminders off, none is armed."""
        key = str(person.user_id)
        now = self.now()
        armed = await self.store.jobs.job(REMIND, key)
        if armed is not None and armed.payload.get("held") and person.notify != "none":
            # a turn notice quiet hours held back is owed whatever the reminders: it comes when the
            # quiet hours (as they are now) end, at once if there are none now
            await self.scheduler.schedule(
                REMIND, key, min(armed.due_at, notices.quiet_ends(person, now)), {"held": True}
            )
            return
        if person.notify == "none" or not person.remind_hours:
            await self.scheduler.cancel(REMIND, key)
            return
        due = await self.next_reminder(person, now)
        if armed is None and not await self.waiting_games(person.user_id):
            return  # nothing waits on them: armed when a turn of theirs begins
        if armed is None or armed.due_at > due:
            await self.scheduler.schedule(REMIND, key, due)

    async def back(self, user_id: int, away_until: float | None = None) -> None:
        """After ``/me back`` (once the clocks are looked at: :func:`bot.surface.direct.clocks_resume`):
        a reminder put off to the end of the time away (``away_until``, as it was before they came
        back) comes now, as it would have at that end (a daily digest: at its next hour)."""
        now = self.now()
        reminder = await self.store.jobs.job(REMIND, str(user_id))
        if reminder is not None and away_until is not None and reminder.due_at > now:
            person = await self.store.people.person(user_id)
            hour = (await self.store.waits.settings(user_id)).digest_hour
            if reminder.due_at == waits.after_away(person, hour, away_until):  # put off by the time away
                due = waits.after_away(person, hour, now)
                await self.scheduler.schedule(REMIND, reminder.key, due, reminder.payload)


# ------------------------------------------------------------- how long a game has waited


async def waited_since(store: Store, session: Session, user_id: int) -> float:
    """Since when ``session`` has waited as its reminders and ``/game mine`` count it: on the
    person, since their current turn began (others moving meanwhile do not restart it: see
    :func:`bot.notices.turn_began`); on others, since the turn of the one waited on longest began;
    a lobby or a game over, since its last change."""
    seat = session.seat_of(user_id)
    to_move = session.to_move()
    seats = [seat.seat] if seat is not None and seat.seat in to_move else sorted(to_move)
    starts = await turn_starts(store, session, seats)  # none for a lobby or a game over
    return min([seconds_of(session.row.updated_at), *starts.values()])


async def turn_starts(store: Store, session: Session, seats: Sequence[int]) -> dict[int, float]:
    """When the current turn of each of ``seats`` began for the person holding it now
    (:func:`bot.notices.turn_began`; a seat handed to a league's substitute since: when they took
    it, as they have waited only since), from one read of the log's end (the whole log only when
    that does not tell)."""
    if not seats:
        return {}
    began = await seat_turn_starts(store, session, seats)
    came: dict[int, float] = {}
    for held in await store.history.handovers(session.id):
        came[held.seat] = max(came.get(held.seat, held.at), held.at)
    return {s: max(b, came.get(s, b)) for s, b in began.items()}


async def seat_turn_starts(store: Store, session: Session, seats: Sequence[int]) -> dict[int, float]:
    """When the current turn of each of ``seats`` began, whoever held it, by the log."""
    try:
        turn: int | None = session.engine.turn_number(session.state)
    except Exception:  # a turn number the rules cannot give: every move restarts the wait
        turn = None
    rows = await store.history.moves(session.id, last=LOG_WINDOW)
    began = {s: notices.turn_began(rows, s, turn, None) for s in seats}
    if None in began.values() and len(rows) == LOG_WINDOW:  # a turn began before the window
        rows = await store.history.moves(session.id)
        began = {s: notices.turn_began(rows, s, turn, None) for s in seats}
    if None in began.values():  # waiting since the game began (or since its log's first row, at least)
        started = await store.history.started_at(session.id)
        changed = seconds_of(session.row.updated_at)
        start = seconds_of(started) if started else seconds_of(rows[0].created_at) if rows else changed
        return {s: start if b is None else b for s, b in began.items()}
    return {s: b for s, b in began.items() if b is not None}

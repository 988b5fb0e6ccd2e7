"""Sending turn notices, as :mod:`bot.notices` decides.

After a board is posted, each person whose turn begins is told where their
settings say: the board's mention in the game's thread (only those who want
it are pinged), and/or a direct message with the game, the server, what
happened since they last moved, a jump link, the public board and a button
for their own view.  Quiet hours hold DMs back (the notice rides on the person's
``remind`` job, marked held, until they end).  A DM Discord refuses (the
person closed them, or shares no server with the bot) falls back to a mention
in the thread, and the person is told once, privately, at their next command.  What follows a
board is owed from the board's record until it is told (its ``after_board`` job), so a restart
tells what a stop left untold (:meth:`bot.surface.boards.Boards.tell_after`).  A game's end is
told to its players the same way.

The reminders live in :mod:`bot.surface.reminders`: a board arms them through
:attr:`Notifier.turn_waits` (the front hands it over), and they are sent as turn notices are.

Imports: discord, :mod:`bot.notices`, :mod:`bot.sessions`, :mod:`bot.storage`, :mod:`bot.time`, and
:mod:`bot.surface` buttons, look, replies.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Collection, Sequence
from typing import TYPE_CHECKING

import discord

from bot import i18n, notices, texts
from bot.holders import holder_at
from bot.records import MoveRecord
from bot.replaying import undo_target
from bot.sessions import Session
from bot.sessions.play import turn_ended
from bot.storage import DEADLINE, Job, PersonRow, Store
from bot.surface import nonces, written
from bot.surface.buttons import Persistent, button
from bot.surface.channels import channel_missing, nobody_told
from bot.surface.look import Look
from bot.surface.replies import part_of
from bot.time import gameclock as gc
from bot.time.jobs import CLOCK_WARNING, END_NOTICE, REMIND, TIMEOUT_NOTICE, UNDO_NOTICE
from languages import ENGLISH, N_, Language, language

if TYPE_CHECKING:
    from bot.surface.tableparts import TableClient
    from bot.time.scheduler import Scheduler

log = logging.getLogger(__name__)

DM_FAILED = N_(
    "I could not send you a direct message (your DMs are closed to me, or we share no server), so your "
    "turn notices came as mentions in the game's thread instead. Open your DMs to me, or choose "
    '{/me notify where:} "{choice me notify where thread}".'
)
MY_VIEW = N_("My view")  # the button on a turn DM
LOCALES_KEPT = 10_000  # people whose last seen locale is remembered in memory (a write only on a change)


class Notifier:
    """Turn notices, a game's end, refused DMs and the private view from a DM, for the table."""

    def __init__(self, look: Look):
        self.look = look
        self.locales: dict[int, str] = {}  # user id -> the locale last stored for them
        # a game's channel turned out to be gone: its games end (Boards.channel_gone)
        self.channel_gone: Callable[[int, int], Awaitable[None]] = nobody_told
        # after a board, the reminders of the people it waits on are armed (Reminders.turn_waits)
        self.turn_waits: Callable[[Session, dict[int, PersonRow], float], Awaitable[None]] = nothing_armed

    async def remember_locale(self, user_id: int, locale: str) -> None:
        """Keep the Discord locale of a person's interaction, for their direct messages (Discord
        gives a person's language only with an interaction).  Cheap on every interaction: the
        database is written only when the locale differs from the one this process last kept."""
        if self.locales.get(user_id) == locale:
            return
        try:
            await self.store.people.set_locale(user_id, locale)
        except Exception:  # never let the bookkeeping disturb the interaction itself
            log.warning("could not keep the locale of %s", user_id, exc_info=True)
            return
        if len(self.locales) >= LOCALES_KEPT:
            self.locales.clear()
        self.locales[user_id] = locale

    async def language_of(self, person: PersonRow, session: Session | None = None) -> Language:
        """The language of what is written to one person: their client's language as their last
        interaction showed it, else the language of the server of ``session``, else English."""
        if person.locale:
            return language(person.locale)
        if session is not None:
            return await self.look.language(session)
        return ENGLISH

    @property
    def store(self) -> Store:
        return self.look.service.store

    @property
    def bot(self) -> TableClient:
        return self.look.bot

    @property
    def scheduler(self) -> Scheduler:
        """The bot's scheduler, made as the bot is prepared, before anything is told."""
        scheduler = self.bot.scheduler
        if scheduler is None:
            raise RuntimeError("the scheduler is made as the bot is prepared (setup_hook)")
        return scheduler

    def now(self) -> float:
        return self.store.clock.time()

    def guild_name(self, session: Session, t: Language = ENGLISH) -> str:
        """The game's server as a direct message writes it: its name, markdown escaped."""
        guild = self.bot.get_guild(session.row.guild_id) if session.row.guild_id else None
        return written.name(guild.name) if guild is not None else t.gettext("a server")

    def link(self, session: Session) -> str:
        return notices.jump_link(session.row.guild_id, session.row.channel_id, session.row.board_message_id)

    # ------------------------------------------------------------- after a board

    def waiting_people(self, session: Session) -> list[int]:
        return [s.user_id for s in session.waiting_on() if s.user_id and not s.computer]

    async def people_to_move(self, session: Session) -> dict[int, PersonRow]:
        return await self.store.people.several(self.waiting_people(session))

    def away_labels(self, people: dict[int, PersonRow], t: Language = ENGLISH) -> dict[int, str]:
        return notices.away_labels(people, self.now(), t)

    def mentions(
        self, session: Session, people: dict[int, PersonRow], called: Collection[int] | None = None
    ) -> discord.AllowedMentions:
        """Whom a board may ping: those of ``people`` who want a mention in the thread, and who
        hold a seat the board calls on (:meth:`called`; None: every one of them, as the first and
        the last board ping every player who wants it)."""
        if called is not None:
            people = {uid: p for uid, p in people.items() if seat_in(session, uid, called)}
        return wanting_mention(people)

    async def players(self, session: Session) -> dict[int, PersonRow]:
        """The settings of every person seated in ``session`` (computers have none)."""
        return await self.store.people.several(
            [s.user_id for s in session.seats if s.user_id and not s.computer]
        )

    async def game_ended(self, session: Session, board: int, people: dict[int, PersonRow]) -> None:
        """After a game's last board (the message ``board``): a direct message with the result to
        each player who wants one (in their quiet hours, when those end, as for turn notices, unless
        the board's mention told them); a refused one becomes a mention in the thread.  Those who
        want a mention were pinged by the board itself."""
        now = self.now()
        for uid, person in people.items():
            if notices.reach(person, now)[1]:
                await tell_end(self, session, uid, person, board)
            elif notices.held(person, now):
                due = notices.quiet_ends(person, now)
                await self.scheduler.schedule(END_NOTICE, f"{session.id}:{uid}", due)

    def called(
        self, session: Session, untold: Sequence[MoveRecord], restarted: Collection[int] = ()
    ) -> frozenset[int]:
        """The seats to move in ``session`` that the board about to be posted for it calls on,
        whose people are told their turn (the board's ping, a turn notice by direct message):
        all of them when the board begins their turn: the game's first board, or one telling a move
        that ended a turn or a round (``untold``, the moves the board tells, read by
        :func:`bot.sessions.play.turn_ended` as :meth:`bot.sessions.play.Play.turn_untold` reads
        them to say when a board is owed to those to move; an undo that brings back an earlier
        turn is such a move); else only ``restarted``, whose turn starts again without a move (more time on a
        clock).  A board posted within a turn (an undo inside a shared round, a seat handed over)
        calls on nobody else: those still to move were told when their turn began (a league
        substitute, by the handover's own notice), and the board names them without a ping."""
        to_move = frozenset(session.to_move())
        if session.row.board_message_id is None or turn_ended(session, untold):
            return to_move
        return to_move & frozenset(restarted)

    async def after_board(self, session: Session, board: int, called: Collection[int] = ()) -> None:
        """DM those to move who want it, once a turn: those whose seat the board (the message
        ``board``) calls on (:meth:`called`: when it begins their turn, or starts it again without a
        move); in their quiet hours, when those end.  First the reminders of all it waits on are
        armed (:attr:`turn_waits`), whose interval counts from when each one's turn began.  Done
        again after a stop (the ``after_board`` job), each step is the same: a reminder armed
        already stays, and a turn notice carries a nonce naming the person and the board
        (:data:`bot.surface.nonces.TURN`)."""
        waiting = self.waiting_people(session)
        if not waiting:
            return
        people = await self.store.people.several(waiting)
        now = self.now()
        await self.turn_waits(session, people, now)  # their reminders (Reminders.turn_waits)
        for uid, person in people.items():
            if not seat_in(session, uid, called):
                continue  # told when this turn began
            if notices.reach(person, now)[1]:
                await self.dm_turn(session, person, board)
            elif notices.held(person, now):
                # quiet hours: the DM waits for their end (as a reminder, which lists the game),
                # marked held: a notice owed, which turning reminders off does not take away
                await hold(self, person, notices.quiet_ends(person, now))

    async def dm_turn(self, session: Session, person: PersonRow, board: int) -> None:
        """The turn notice of ``person``, to move since the board ``board``: by direct message, or,
        refused, a mention in the game's thread, each with a nonce naming the person and the board."""
        seat = session.reader_of(person.user_id)
        if seat is None:
            return
        records = await self.look.service.logbook.log(session, last=60)
        session = await self.look.service.logbook.with_holders(session)  # a seat handed over: whose moves
        mine = [
            i
            for i, r in enumerate(records)
            if r.seat == seat
            and not r.by_computer
            and not r.taken_back  # a move taken back, and the undo entry that did it, are news
            and undo_target(r.move) is None
            and (r.number is None or holder_at(session.earlier, seat, r.number)[0] is None)
        ]
        since = records[mine[-1] + 1 :] if mine else records
        link = notices.jump_link(session.row.guild_id, session.row.channel_id, board)
        t = await self.language_of(person, session)  # the DM speaks the person's language
        text = notices.turn_notice(
            written.session(session), seat, since, self.guild_name(session, t), link, t=t
        )
        # the public board, as the channel shows it (its last action in its header and alt text): in
        # the server's language, in the recipient's palette (the picture reaches only them)
        public = await self.look.language(session)
        file = await self.look.render(
            session,
            last_action=texts.last_action(session, records, public),
            language=public.code,
            contrast=person.contrast,
        )
        nonce = nonces.post_nonce(session, nonces.TURN, person.user_id, board)
        if await self.send_dm(person.user_id, text, file=file, view=private_view(session.id, t), nonce=nonce):
            return
        nonce = nonces.post_nonce(session, nonces.TURN, person.user_id, board, "mention")
        await self.fall_back(session, person.user_id, nonce=nonce)

    async def send_dm(
        self,
        user_id: int,
        text: str,
        *,
        file: discord.File | None = None,
        view: discord.ui.View | None = None,
        nonce: str | None = None,
    ) -> bool:
        """Send a DM; False (and the person marked to be told) when Discord refuses it.  ``nonce``:
        the nonce naming what it tells, for a DM a restart may send again
        (:mod:`bot.surface.nonces`); without one, discord.py's random one."""
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            kwargs: dict = {"content": text}
            if nonce is not None:
                kwargs["nonce"] = nonce
            if file is not None:
                kwargs["file"] = file
            if view is not None:
                kwargs["view"] = view
            await user.send(**kwargs)
            return True
        except discord.HTTPException as exc:
            log.info("a DM to %s was refused (%s)", user_id, exc)
            await self.store.people.set_dm_failed(user_id, True)
            return False

    async def fall_back(
        self, session: Session, user_id: int, waiting: float | None = None, nonce: str | None = None
    ) -> None:
        """The DM failed (or the person wants mentions): mention them in the game's thread instead,
        in the server's language like everything posted there; with ``waiting``, as a reminder
        (``nonce``: the one naming that reminder and game, or that turn notice, as for
        :meth:`send_dm`)."""
        channel = self.bot.get_partial_messageable(session.row.channel_id, guild_id=session.row.guild_id)
        t = await self.look.language(session)
        if waiting is None:
            text = t.gettext("{person}, it is your turn in this game.", person=f"<@{user_id}>")
        else:
            text = t.gettext(
                "{person}, a reminder: it is your turn in this game (waiting {time}).",
                person=f"<@{user_id}>",
                time=notices.waited(waiting, t),
            )
        try:
            await channel.send(
                text,
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id)]),
                nonce=nonce or nonces.anew(),
            )
        except discord.HTTPException as exc:
            log.warning("could not mention %s in session %s either", user_id, session.id)
            if channel_missing(exc) and session.row.guild_id:  # deleted while the bot was stopped
                await self.channel_gone(session.row.guild_id, session.row.channel_id)

    async def dm_failed(self, user_id: int) -> bool:
        return (await self.store.people.person(user_id)).dm_failed

    async def tell_failed_once(self, interaction: discord.Interaction) -> None:
        """At a person's next command after a failed DM: tell them, privately, once."""
        if not await self.store.people.set_dm_failed(interaction.user.id, False):
            return
        try:
            await interaction.followup.send(i18n.private(interaction).gettext(DM_FAILED), ephemeral=True)
        except discord.HTTPException:
            log.warning("could not tell %s that a DM failed", interaction.user.id)

    # ------------------------------------------------------------- time away

    async def time_left(self, session: Session, t: Language = ENGLISH) -> str | None:
        """The clock's line: how long those to move have left (None without a clock); a turn
        timer's says when the table acts, another clock's is its own."""
        spec = session.clock
        if spec is not None and spec.kind != gc.TIMER and session.status == "active":
            seats = {
                s.seat: written.name(s.name) for s in session.seats if s.seat is not None and not s.computer
            }
            seats |= {s: written.name(session.by_seat(s).name) for s in session.banks.taken}
            away = await self.look.service.core.away_of(session)
            finishing = await self.look.service.clocks.finishing(session)
            return gc.clock_line(spec, session.banks, seats, self.look.service.core.now(), away, t, finishing)
        if session.status != "active" or spec is None:
            return None
        job = await self.store.jobs.job(DEADLINE, str(session.id))
        if job is None:
            return None
        names = ", ".join(written.name(s.name) for s in session.waiting_on()) or t.gettext("nobody")
        left = max(0.0, job.due_at - self.now())
        return t.ngettext(
            "⏱ {time} left for {players} (turn timer {hours} h)",
            "⏱ {time} left for {players} (turn timer {hours} h)",
            notices.waited_count(left),
            time=notices.waited(left, t),
            players=names,
            hours=t.number(spec.start / 3600),
        )

    async def away_statuses(self, session: Session, t: Language = ENGLISH) -> dict[int, str]:
        people = await self.store.people.several(
            [s.user_id for s in session.seats if s.user_id and not s.computer]
        )
        return self.away_labels(people, t)

    # ------------------------------------------------------------- the private view from a DM

    async def show_private(self, interaction: discord.Interaction, session_id: int) -> None:
        t = i18n.private(interaction)
        session = await self.look.service.core.get(session_id)
        if session is None or session.reader_of(interaction.user.id) is None:
            await interaction.response.send_message(
                t.gettext("You are not playing in that game."), ephemeral=True
            )
            return
        if session.status != "active" or session.state is None:
            await interaction.response.send_message(
                t.gettext("That game is not running any more."), ephemeral=True
            )
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        text, file = await self.look.private_picture(session, interaction.user.id, t.code)
        kwargs: dict = {"content": text, "ephemeral": True}
        if file is not None:
            kwargs["file"] = file
        await interaction.followup.send(**kwargs)


def seat_in(session: Session, user_id: int, seats: Collection[int]) -> bool:
    """Whether ``user_id`` holds one of ``seats`` in ``session``."""
    seat = session.seat_of(user_id)
    return seat is not None and seat.seat in seats


def wanting_mention(people: dict[int, PersonRow]) -> discord.AllowedMentions:
    """A post's allowed mentions: those of ``people`` who want a mention where news is posted
    (``/me notify``); the others it names are not pinged."""
    wanted = [discord.Object(uid) for uid, p in people.items() if p.wants_mention]
    return discord.AllowedMentions(everyone=False, roles=False, users=wanted or False)


async def nothing_armed(session: Session, people: dict[int, PersonRow], now: float) -> None:
    """What :attr:`Notifier.turn_waits` does until the front hands it the reminders' (arms nothing)."""


# ------------------------------------------------------------- a game's end, after quiet hours


async def end_notice(notifier: Notifier, job: Job) -> None:
    """The ``end_notice`` job: a game's end, held by the person's quiet hours, told now (later
    still if their quiet hours moved meanwhile; not at all if they no longer want DMs)."""
    session_id, uid = (int(x) for x in job.key.split(":"))
    session = await notifier.look.service.core.get(session_id)
    person = await notifier.store.people.person(uid)
    if session is None or session.row.live or not person.wants_dm:
        return
    now = notifier.now()
    if notices.is_quiet(person, now):
        await notifier.scheduler.schedule(END_NOTICE, job.key, notices.quiet_ends(person, now))
        return
    await tell_end(notifier, session, uid, person, session.row.board_message_id)


async def tell_end(
    notifier: Notifier, session: Session, uid: int, person: PersonRow, board_id: int | None
) -> None:
    """The end's direct message to one player (a refused one becomes a mention in the thread)."""
    link = notices.jump_link(session.row.guild_id, session.row.channel_id, board_id)
    t = await notifier.language_of(person, session)
    text = notices.end_notice(written.session(session), notifier.guild_name(session, t), link, t)
    if await notifier.send_dm(uid, text, nonce=nonces.post_nonce(session, nonces.END_DM, uid)):
        return
    channel = notifier.bot.get_partial_messageable(session.row.channel_id, guild_id=session.row.guild_id)
    said = (await notifier.look.language(session)).gettext(
        "{person}, this game is over: the result is above.", person=f"<@{uid}>"
    )
    try:
        await channel.send(
            said,
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(uid)]),
            nonce=nonces.post_nonce(session, nonces.END_DM, uid, "mention"),
        )
    except discord.HTTPException:
        log.warning("could not mention %s in session %s either", uid, session.id)


# ------------------------------------------------------------- time away and settings, for /me


async def deadlines_again(notifier: Notifier, user_id: int) -> list[Session]:
    """After ``/me away`` or ``/me back``: the turn deadlines of the games waiting on the person
    are looked at now, so that each moves to when their clock, paused or running again, runs
    out (the deadline's check does the arithmetic), and the boards, ``/game status`` and
    ``/game mine`` say so at once.  Returns the person's games."""
    now = notifier.now()
    games = await notifier.look.service.core.sessions_of(user_id)
    for session in games:
        if user_id in notifier.waiting_people(session) and session.banks.since:
            job = await notifier.store.jobs.job(DEADLINE, str(session.id))
            if job is not None and job.due_at > now:
                await notifier.scheduler.schedule(DEADLINE, job.key, now, job.payload)
    return games


async def clocks_resume(notifier: Notifier, user_id: int) -> None:
    """After ``/me back``: the person's turn deadlines and clock warnings are looked at now, so
    that each moves to when their clock, running again, runs out or reaches 80 % (the jobs'
    checks do the arithmetic; a reminder the time away put off: :meth:`bot.surface.reminders.Reminders.back`)."""
    now = notifier.now()
    for session in await deadlines_again(notifier, user_id):
        if user_id in notifier.waiting_people(session):
            seat = session.seat_of(user_id)
            if seat is not None and seat.seat is not None:
                warning = await notifier.store.jobs.job(CLOCK_WARNING, f"{session.id}:{seat.seat}")
                if warning is not None and warning.due_at > now:
                    await notifier.scheduler.schedule(CLOCK_WARNING, warning.key, now, warning.payload)


async def mention_above(
    notifier: Notifier, session: Session, refused: list[int], text: str, what: str, nonce: str | None = None
) -> None:
    """Those whose direct message about something posted in the game's channel (``what``, for the
    log) Discord refused, mentioned there instead by ``text``, which names them (``nonce``: one
    naming what it tells, when a restart may tell it again; else a new one)."""
    try:
        await notifier.look.channel(session).send(
            text,
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u in refused]),
            nonce=nonces.anew() if nonce is None else nonce,
        )
    except discord.HTTPException:
        log.warning("could not mention %s about session %s's %s", refused, session.id, what)


async def hold(notifier: Notifier, person: PersonRow, due: float) -> None:
    """A turn notice quiet hours hold back comes at ``due`` (or with a reminder due earlier), as
    the person's reminder job, marked held."""
    armed = await notifier.store.jobs.job(REMIND, str(person.user_id))
    if armed is not None and armed.due_at < due:
        due = armed.due_at
    await notifier.scheduler.schedule(REMIND, str(person.user_id), due, {"held": True})


async def ends_held(notifier: Notifier, person: PersonRow) -> None:
    """After ``/me notify``: the results of games that ended in the person's quiet hours, the
    questions about clocks that ran out then, the requests to take back moves asked then, and the
    clock warnings held for their end, come when
    the quiet hours as they are now end (at once without any now); a warning looked at before its
    time waits again for it (its job's check)."""
    suffix, now = f":{person.user_id}", notifier.now()
    due = notices.quiet_ends(person, now)
    for kind in (END_NOTICE, TIMEOUT_NOTICE, UNDO_NOTICE):
        for job in await notifier.store.jobs.pending(kind):
            if job.key.endswith(suffix) and job.due_at > due:
                await notifier.scheduler.schedule(kind, job.key, due, job.payload)
    for session in await notifier.look.service.core.sessions_of(person.user_id):
        seat = session.seat_of(person.user_id)
        if seat is None or seat.seat is None or seat.seat not in session.to_move():
            continue
        warning = await notifier.store.jobs.job(CLOCK_WARNING, f"{session.id}:{seat.seat}")
        if warning is not None and warning.due_at > due:
            await notifier.scheduler.schedule(CLOCK_WARNING, warning.key, due, warning.payload)


def private_view(session_id: int, t: Language = ENGLISH) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(PrivateViewButton(session_id, t))
    return view


class PrivateViewButton(Persistent[discord.ui.Button], template=r"pk:dmv:(?P<session_id>\d+)"):
    """On a DM notice: the person's own view of the game (works after a restart).  A DM is no
    server's, so the click is answered here, not through the guard (which refuses outside servers)."""

    session_id: int

    def __init__(self, session_id: int, t: Language = ENGLISH):
        super().__init__(button(MY_VIEW, f"pk:dmv:{session_id}", t=t), session_id=session_id)

    async def callback(self, interaction: discord.Interaction) -> None:
        notifier = part_of(interaction, Notifier)
        await notifier.show_private(interaction, self.session_id)

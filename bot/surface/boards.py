"""The channel's board: one post per turn, the end of a game and its abandon told.

The channel gets one post per turn: when a turn (or a simultaneous round) ends, the board image,
everything public that happened since the last post, read from the move log through
:mod:`bot.public`, and a mention of whoever acts next; the previous board loses its buttons, so
the channel shows one live board.  Computer turns that follow a person's move and play at once
(the easy and normal levels) are told in the same post as that move: separate posts would arrive
in the same second, each with a board nobody acts on, and run into Discord's five messages per
five seconds in a channel.  A strong computer searches for its thinking time, so the person's move
is posted at once, and each strong computer's turn gets its own post as it comes: a board hands the
computer turns waiting after it to :attr:`Boards.follow`, which plays and posts them
(:mod:`bot.surface.catchup`, which also brings a game's channel up to date at a start).

A board Discord refused is tried again by the ``board`` job (:meth:`bot.surface.catchup.CatchUp.retry`,
:mod:`bot.surface.unposted`): it posts a turn that ended and was never told, and a board refused
inside a turn (an undo inside a shared round, a seat handed over, more time on a clock) while no
board has followed the one before it, calling on whom it would have, under its header and the lines
the channel refused with it (which the next board posted carries, whichever it is); the lines
refused with a turn's board, a game's first board or the telling of its abandon come with their try
the same way.  The catch-up at start-up posts a turn that ended, and a board inside a turn only
while its ``board`` job is pending: a turn half played before a restart, with no board refused, is
told when it ends.  Every post holds the game's ``board`` job in the database while it reads, posts
and records (:meth:`Boards._claimed`): the job's try in one process and a post in another never tell
one turn twice.  The message telling a game's abandon holds it the same way
(:meth:`Boards.tell_abandoned`), the words of the answer that abandoned it (``/game abandon``'s, a
clock question's) its first line, and records the abandon told as it drops the job: told once across
processes, and, finding a board post holding the job, told by the job's try once that post is over.
A post that finds the job held leaves the moves to the post holding it, and hands its own sentences
(header, lines, note) to the job, which the next board posted carries, whichever process posts it;
handed to an abandon's telling, its lines and note are told by the job's try after it (a header
heads a board, and none follows an abandon).  A post for a game that ended meanwhile (abandoned, or its
end told by another post) posts no board, before the abandon's telling or after that end.

A finished game's results card (:meth:`Boards.card`) holds the job the same way, marked posted once
Discord took it: refused or interrupted, the job's try (or the next start's catch-up) posts it, once.

What goes under a board (the play menus' buttons), what happens to the lobby message when a game
ends, and the results card itself are the business of the parts above; the bot's
:class:`bot.surface.front.Front` hands them in as ``controls``, ``lobby_changed`` and ``finished``.

Imports: discord, :mod:`bot.sessions`, :mod:`bot.storage`, :mod:`bot.history`, :mod:`bot.locks`, and
:mod:`bot.surface` boardpost, channels, look, direct, nonces, replies, unposted, written.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Collection, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from typing import Literal

import discord

from bot import i18n, texts
from bot.history import History
from bot.locks import KeyedLocks
from bot.sessions import MoveResult, RatingChange, Session
from bot.storage import Body, Job, JobPayload, NotAnswering, SessionRow
from bot.surface import nonces, unposted, written
from bot.surface.boardpost import Board, Post, Read, compose, read_board, worth_posting
from bot.surface.channels import channel_missing
from bot.surface.direct import Notifier
from bot.surface.look import Look
from bot.surface.replies import Replies, reply
from bot.surface.unposted import HANDED, POSTING, RETRY, Inside, Unposted, handed_over, held_by_post
from bot.time.jobs import AFTER_BOARD, BOARD
from bot.time.jobs import ARCHIVE as THREAD_ARCHIVE
from bot.time.source import stamp_of
from engines.core import Outcome, Said
from languages import N_, Language

log = logging.getLogger(__name__)

THREAD_AUTO_ARCHIVE_MINUTES: Literal[10080] = 10080  # a week: a slow game's thread stays in the channel list
DONE = N_("Done.")


async def nothing(*_: object) -> None:
    """The default of a hook nobody handed in."""


POST_LEASE = 120.0
"""Seconds a board post holds its game's ``board`` job, so that no other process posts the game's
board meanwhile (:meth:`Boards._claimed`); a process stopped in the post leaves it to be tried
again when they are over."""


class Boards:
    """Posts the board, tells a game's end and abandon, and closes finished games."""

    def __init__(self, look: Look, notifier: Notifier, replies: Replies, history: History):
        self.look, self.notifier, self.replies, self.history = look, notifier, replies, history
        self.bot, self.service = look.bot, look.service
        self.unposted = Unposted(notifier)  # a board refused outside a command: logged, told, tried again
        # One board post at a time per game, so that two posts never tell the same moves.
        self._post_lock: KeyedLocks[int] = KeyedLocks()  # a game's posts, one at a time in the process
        self._firing: dict[int, Job] = {}  # session id -> the board job being fired here (firing)
        self.controls: Callable[[Session, Language], discord.ui.View | None] = lambda session, t: None
        self.lobby_changed: Callable[[Session], Awaitable[None]] = nothing
        # posts a finished game's results card, raising a refusal (Boards.card holds the claim)
        self.finished: Callable[[Session], Awaitable[object]] = nothing
        # After each board post and after an abandon, in turn (a failing one is logged and the
        # rest still run): a league table's forum tag follows its game, an undo request the game
        # moved past is closed.
        self.after_board: list[Callable[[Session], Awaitable[None]]] = []
        # a deleted channel or thread: its league games, finished by their league (Rounds.table_gone)
        self.table_gone: Callable[[int, int], Awaitable[list[Session]]] = no_games
        # after every board: forced moves, passes ahead, clock warnings, watchers (not a board asked
        # for again: they had it), followers
        self.waits_after: Callable[[Session, discord.Message, bool, str | None, bool], Awaitable[None]] = (
            nothing
        )
        # what follows a board for the game itself (passes ahead, forced moves, clock warnings), done
        # again by its ``after_board`` job after a stop (Waits.resume)
        self.waits_resumed: Callable[[Session, bool], Awaitable[None]] = nothing
        # its watchers' and followers' messages, told again by that job (Waits.told_after: the board, its job's payload)
        self.waits_told: Callable[[Session, int, JobPayload], Awaitable[None]] = nothing
        # after a step inside a turn, which posts no board: the seat's next step may be forced
        self.waits_stepped: Callable[[Session], Awaitable[None]] = nothing
        # the computer turns waiting in a game, played and posted after a board (CatchUp.computers_follow)
        self.follow: Callable[[int], None] = lambda session_id: None

    @contextmanager
    def firing(self, job: Job) -> Iterator[None]:
        """While this process fires the game's ``board`` job ``job`` (its try: :meth:`CatchUp.retry
        <bot.surface.catchup.CatchUp.retry>`), the game's posts take that job's claim (:meth:`_claimed`)."""
        session_id = int(job.key)
        self._firing[session_id] = job
        try:
            yield
        finally:
            self._firing.pop(session_id, None)

    async def owed_inside(self, session: Session) -> Inside | None:
        """A board inside a turn (an undo inside a shared round, a seat handed over, more time on a
        clock) that Discord refused and is still owed, or the lines refused with a turn's board, a
        game's first board or the telling of its abandon (who took a seat, what the answer to a
        clock decided): the ``board`` job remembers them (:class:`bot.surface.unposted.Inside`), and
        the board they were to follow is still the last one posted, or none was yet (a board posted
        since told everything); else None."""
        return unposted.owed_in(session, await self.service.store.jobs.job(BOARD, str(session.id)))

    async def post_board(
        self,
        session: Session,
        *,
        header: str | Said | None = None,
        note: Said | None = None,
        outcome: Outcome | None = None,
        ratings: Sequence[RatingChange] = (),
        ping: bool = True,
        begins: bool = False,
        catching_up: bool = False,
        restarted: Collection[int] = (),
        lines: Sequence[Said] = (),
        pings: Collection[int] = (),
        again: bool = False,
    ) -> discord.Message | None:
        """Post the board with everything public the channel has not been told yet (``begins``:
        the first board, which pings every player who wants a mention, not only the first to move;
        ``catching_up``: at a start or a retry, what the channel was never told of, found before this
        post's turn to post came: None when a post made meanwhile told it (:func:`worth_posting
        <bot.surface.boardpost.worth_posting>`); ``restarted``: seats whose turn starts again with
        this board without a move, as more time on a clock does, whose people are told as when a
        turn begins; ``header``, a sentence to say in the channel's language, or text; ``lines``:
        what the channel refused to take just before this board (who takes a seat, the answer that
        gave more time), said above it, pinging those of ``pings`` it mentions; ``note``: the
        table's own line (a seat resigned), told after the notes of boards refused before it; a
        final board's ``ratings`` are told by its results card, which :meth:`announce` posts all
        the same; ``again``: a board a person asked to see again (``/game board``), posted anew.  A
        board asked for a game already over is posted as it ended.

        Its steps, under the game's post lock and its ``board`` job held (:meth:`_claimed`): found
        held by another process's post, this one's sentences are handed to the job
        (:meth:`_posted_elsewhere`) and nothing is posted; the game and what the job owes are read
        again, and a game ended meanwhile gets no board (:meth:`_reread`); a catch-up posts only
        what is still untold (:func:`~bot.surface.boardpost.worth_posting`); the untold moves, the
        language, the people and the seats called are read
        (:func:`~bot.surface.boardpost.read_board`); the message is composed
        (:func:`~bot.surface.boardpost.compose`) and sent, a refusal keeping what was owed for the
        job's try (:meth:`_send`); the post is recorded with its ``after_board`` job armed, and the
        previous board loses its buttons (:meth:`_record`).  Then, under that job held, what
        follows the board: the end's or the turn's notices, :meth:`board_settled`,
        :attr:`waits_after` (:meth:`_after_board`)."""
        own = (note,) if note is not None else ()
        post = Post(
            session,
            header,
            own,
            outcome,
            tuple(ratings),
            ping,
            begins,
            catching_up,
            tuple(restarted),
            tuple(lines),
            tuple(pings),
            again,
        )
        async with self._post_lock(session.id), self._claimed(session) as held:
            if held is None:  # another process is posting this game's board: it tells these moves
                await self._posted_elsewhere(session, catching_up, post.handed())
                return None
            if not await self._reread(post, held) or not await worth_posting(post, self.service):
                return None
            read = await read_board(post, self.service, self.look, self.notifier)
            board = await compose(post, read, self.look, self.notifier, self.controls)
            message = await self._send(post, read, board)
            await self._record(post, read, board, message)
            # posted: the board job (the claim) is dropped as the block ends, nothing to try again
        await self._after_board(post, read, board, message)
        return message

    async def _reread(self, post: Post, held: Job) -> bool:
        """Read the game again under the claim (``held``, the ``board`` job as held), and what the
        job owes that this board carries, whichever it is (:meth:`owed_inside`: the lines, and the
        notes of boards refused before it, then its own, each once).  False: a game the post had
        running that is found ended (abandoned, or its end told by another post) gets no board: the
        telling of that end (:meth:`tell_abandoned`, or the last board and results card) is the last
        word about it, and the moves this post did not tell are in the game's log; its lines and
        note come above an abandon not told yet, handed to the job (:meth:`_posted_elsewhere`), and
        are dropped once the end is told."""
        was, session = post.session.status, await self.service.core.get(post.session.id) or post.session
        post.session = session
        post.owed = owed = unposted.owed_in(session, held)  # its lines come with this board, whichever it is
        # and the notes of boards refused before it, then its own
        post.notes = unposted.noted(owed.notes if owed is not None else (), post.own)
        if was == "active" and (session.status == "abandoned" or session.row.end_told):
            # ended meanwhile, its end told or to be told: that is the last word about it
            if not session.row.end_told:  # an abandon still to tell: what this post says comes above it
                handed = Inside(HANDED, lines=post.lines, pings=post.pings, notes=post.own).joined(owed)
                if handed.lines or handed.notes:
                    await self._posted_elsewhere(session, False, handed)
            return False
        return True

    async def _send(self, post: Post, read: Read, board: Board) -> discord.Message:
        """Send the board to the game's channel.  Refused (raised again: whoever asked is
        answered), the ``board`` job tries it again, keeping what the post read of it and what it
        was to carry (:meth:`Post.refused <bot.surface.boardpost.Post.refused>`): the lines and
        notes come with the board posted next, whichever it is, so the channel is told them once."""
        channel = self.look.channel(post.session)
        try:
            return await channel.send(**board.send)
        except discord.HTTPException:  # whoever asked is answered; the post is tried again later
            await self.retry_later(post.session, post.refused(read.records), read=post.owed)
            raise

    async def _record(self, post: Post, read: Read, board: Board, message: discord.Message) -> None:
        """Record the post with the last move it told, arming, for a game running or just ended,
        the ``after_board`` job that owes what follows the board from its record on
        (:meth:`_following`); the previous board loses its buttons (the channel shows one live
        board)."""
        session, ended = post.session, read.ended
        # what follows the board (its end's or turn's notices, forced moves) is owed from its record on
        running = ended or session.status == "active"
        after = self._following(post, read, board, message.id) if running else None
        old = await self.service.logbook.told(session, message.id, board.through, end=ended, also=after)
        if old is not None and old != message.id:
            await self.strip_buttons(session, old)

    async def _after_board(self, post: Post, read: Read, board: Board, message: discord.Message) -> None:
        """What follows a posted board, under its ``after_board`` job held (:meth:`_telling`; a
        process that finds it held by another leaves the notices to it): the game's end told to
        its players, :meth:`board_settled`, :attr:`waits_after` (forced moves, warnings, watchers,
        followers), then a finished game's lobby message (:meth:`game_over`) or the turn notices
        of the seats it called on.  The board is posted: a failure here is logged and must not
        undo the answer."""
        session, ended, ping = post.session, read.ended, post.ping
        async with self._telling(session, message.id) as mine:  # what follows the board, owed by its job
            # the board is posted: a notice that fails must not undo the answer
            if ended and mine is not None:
                await self._notices(
                    session, "end", self.notifier.game_ended(session, message.id, read.players)
                )
            await self.board_settled(session)
            try:  # the board is posted; forced moves, warnings, watchers, followers must not undo the answer
                await self.waits_after(session, message, ping, board.last, post.again)
            except Exception:
                log.exception("what follows the board of session %s failed", session.id)
            if not session.row.live:
                await self.game_over(session)
            elif ping and mine is not None:  # (a notice that fails must not undo the answer: logged)
                await self._notices(
                    session, "turn", self.notifier.after_board(session, message.id, read.called)
                )

    def _following(self, post: Post, read: Read, board: Board, message: int) -> Body[int]:
        """The statement arming the ``after_board`` job of the board posted as ``message``, run as
        the board is recorded: what follows it (the players told of the game's end, ``end``; else
        the passes declared ahead, forced moves and clock warnings the board leaves, and, with
        ``ping``, those whose turn it began, ``called``, told it, and reminders armed; the board to
        its watchers, by ``last``, the line its public picture shows, but for a board asked for
        again, ``again``, which they had; and at a game's first board, ``first``, its start to its
        players' followers) is owed until that job is dropped, and told by it after a stop
        (:meth:`tell_after`), once the lease of the post's process is over."""
        session, now = post.session, self.service.store.clock.time()
        payload: JobPayload = {
            "called": sorted(read.called),
            "end": read.ended,
            "ping": post.ping,
            "since": now,
        }
        if board.last:
            payload["last"] = board.last
        if post.again:
            payload["again"] = True
        if session.row.board_message_id is None:  # (``session`` as read before this board's record)
            payload["first"] = True
        due = now + POST_LEASE
        return self.service.store.jobs.arming(AFTER_BOARD, f"{session.id}:{message}", due, payload)

    @asynccontextmanager
    async def _telling(self, session: Session, board: int) -> AsyncIterator[Job | None]:
        """Hold the ``after_board`` job of the board ``board`` while its notices are told, dropped
        when they are (None: no such job, or another process tells them)."""
        jobs = self.service.store.jobs
        async with jobs.holding(AFTER_BOARD, f"{session.id}:{board}", POSTING, lease=POST_LEASE) as mine:
            yield mine

    async def _notices(self, session: Session, what: str, telling: Awaitable[None]) -> None:
        """Tell ``what`` follows a board posted: a failure is only logged, the board stands."""
        try:
            await telling
        except Exception:
            log.exception("%s notices for session %s failed", what, session.id)

    async def tell_after(self, job: Job) -> None:
        """The ``after_board`` job, found after a stop between a board's record and the end of what
        follows it: the game's end told to its players; or the passes declared ahead, forced moves
        and clock warnings the board leaves (:attr:`waits_resumed`), then the turn notices of the
        seats the board called on and their reminders; before either, the board to its watchers and
        a game's start to its players' followers (:attr:`waits_told`); all told again (a direct
        message Discord took before the stop carries the same nonce, so within Discord's minutes it
        is not received twice).  A board that is no longer the game's last leaves what follows it
        to the boards since, which tell their own, but for a game's start and the turn notices of
        the seats it called on that are still on the turn it began (no move of theirs since it was
        recorded): a board posted since inside that turn (an undo in a round played at once,
        ``/game board``) calls on nobody."""
        session_id, board = (int(part) for part in job.key.split(":"))
        session = await self.service.core.get(session_id)
        if session is None:
            return
        last, called = session.row.board_message_id == board, job.payload.get("called", [])
        if job.payload.get("end"):
            if last and session.status == "finished":
                await self.notifier.game_ended(session, board, await self.notifier.players(session))
                await self.waits_told(session, board, job.payload)
            return
        ping = bool(job.payload.get("ping", True))  # (a job armed before ``ping`` was kept: a turn's)
        if session.status != "active":
            return
        await self.waits_told(session, board, job.payload)
        if last:
            await self.waits_resumed(session, ping)
        else:  # the seats still on the turn it began: none of their moves since the board's record
            recorded = stamp_of(float(job.payload.get("since", job.due_at - POST_LEASE)))
            history, to_move = self.service.store.history, session.to_move()
            called = [
                s for s in called if s in to_move and not await history.moved_since(session_id, s, recorded)
            ]
        if ping and (last or called):  # (reminders are armed for those waiting, called or not)
            await self.notifier.after_board(session, board, called)

    @asynccontextmanager
    async def _claimed(self, session: Session, also: Body[object] | None = None) -> AsyncIterator[Job | None]:
        """Hold the game's ``board`` job for a post, across processes (:meth:`Jobs.holding
        <bot.storage.jobs.Jobs.holding>`, armed first as a refusal would arm it when there is none):
        from reading what the channel was not told to recording the post, no other process posts
        the game's board, so no two tell the same turn.  The job goes when the post is recorded;
        a post refused, or a process stopped in it, leaves it to try the board again (at
        :data:`RETRY`, or when the lease is over).  Armed again while the post holds it (sentences
        handed over, a line refused, a board refused elsewhere), the job is given back due at once
        when the post ends without raising, this process's scheduler woken: its try tells them
        now, in whichever process fires it.  ``also``: what the post records in the step
        that drops (or gives back) the job, when it ends without raising (an abandon told).  The job
        as held (what it keeps is read from it), or None: another process holds it (posting)."""
        jobs, key = self.service.store.jobs, str(session.id)
        now = self.service.store.clock.time()
        await jobs.arm_unless_armed(
            BOARD, key, now + RETRY, {"guild": session.row.guild_id or 0, "since": now}
        )
        held = self._firing.get(session.id)  # the board job this process fires, its claim its own
        async with jobs.holding(
            BOARD, key, POSTING, lease=POST_LEASE, held=held, also=also, given_back=self._wake
        ) as mine:
            yield mine

    def _wake(self) -> None:
        """The game's ``board`` job is due now: this process's scheduler looks for it at once."""
        scheduler = getattr(self.bot, "scheduler", None)
        if scheduler is not None:
            scheduler.wake()

    async def _posted_elsewhere(self, session: Session, catching_up: bool, handed: Inside) -> None:
        """Another process holds the game's board job, posting its board.  A catch-up leaves the
        board to it; any other post is handed to the job, due when that post is over (which gives it
        back due at once, rather than dropping it), or when its lease is over should its process
        stop: the try then posts what the other post did not tell.  The
        post's own sentences (``handed``: its header, lines, note), which the other post does not
        carry, go with the job too, in place of those the other post read from it and tells (or
        joined to those kept by a post that gave the job back); they come with the next board
        posted, whichever process posts it and whichever board it follows (:data:`HANDED`), once
        (:func:`~bot.surface.unposted.handed_over`: joined to those handed over while it holds it).
        The job is always kept (marked ``left``, under that post's claim, so that post gives it back
        rather than dropping it): that post may have read the game before this one's move was
        stored, or may not tell what this one does (an abandon, :meth:`tell_abandoned`); the try
        posts what is still untold, or nothing."""
        if catching_up:
            return
        now = self.service.store.clock.time()
        says = handed.header is not None or bool(handed.lines) or bool(handed.notes) or bool(handed.restarted)

        def made(job: Job | None) -> tuple[float, JobPayload]:
            told, given = says, handed
            if job is None:  # the other post is over: the try posts what it did not tell, at once
                payload: JobPayload = {"guild": session.row.guild_id or 0, "since": now}
                due = now
            elif held_by_post(job, now):  # what the job kept, the post holding it read and tells
                payload, due = handed_over(job, given if told else None), job.claimed_until or now
                told = False
                payload["left"] = job.claim or ""  # (changed under that claim: given back, not dropped)
            else:  # given back (refused): what it keeps is owed still
                payload, due = job.payload.copy(), job.due_at
                given = given.joined(Inside.of(job.payload))
            if told:
                payload.update(given.payload())
            return due, payload

        # (the other post's claim stays; read again should another process change the job meanwhile)
        job = await self.service.store.jobs.rearm(BOARD, str(session.id), made, holder=POSTING)
        if made(job)[0] <= now:
            self._wake()

    async def stepped(self, session: Session) -> None:
        """A step inside a turn was played, and the channel hears of it only when the turn ends (no
        board): what follows it, as after a board (:attr:`waits_stepped`: a seat left with one
        legal move gets its forced move played).  The step stands, so a failure is only logged."""
        try:
            await self.waits_stepped(session)
        except Exception:
            log.exception("what follows a step in session %s failed", session.id)

    async def not_posted(self, session: Session, exc: discord.HTTPException, after: str) -> None:
        """Discord refused the board of ``session`` (or the post telling its end) ``after``
        something no command asked for (words for the log): a channel found gone ends its games
        (:meth:`channel_gone`); else the refusal is logged where and why, the players are told, and
        the post is tried again (:class:`bot.surface.unposted.Unposted`)."""
        try:
            if channel_missing(exc) and session.row.guild_id:
                log.warning("the channel of session %s is gone (%s)", session.id, after)
                await self.channel_gone(session.row.guild_id, session.row.channel_id)
            else:
                await self.unposted.failed(session, exc, after)
        except NotAnswering as down:  # the board is tried again at the next start (its catch-up)
            log.warning("the refused board of session %s is not told (the database: %s)", session.id, down)
        except Exception:
            log.exception("the refused board of session %s could not be told", session.id)

    async def game_over(self, session: Session) -> None:
        """A game in its own thread ended: the lobby message in the parent channel shows the
        result, and the thread is archived later (``THREAD_ARCHIVE_HOURS``, by the scheduler)."""
        if not session.row.lobby_channel_id:
            return
        await self.lobby_changed(session)
        hours = self.bot.settings.thread_archive_hours
        scheduler = self.bot.scheduler
        if hours > 0 and scheduler is not None:
            due = self.service.store.clock.time() + hours * 3600
            await scheduler.schedule(THREAD_ARCHIVE, str(session.id), due)

    async def archive_thread(self, session_id: int) -> None:
        """The scheduler's job: archive the thread of a game that is over (idempotent; a thread
        that is gone or that the bot may no longer edit is left as it is, logged).  While another
        game lives in the thread (a rematch's lobby or game), the thread stays open and the job is
        armed again for ``THREAD_ARCHIVE_HOURS`` later, so the thread closes once that game is
        over too."""
        session = await self.service.core.get(session_id)
        if session is None or session.row.live or not session.row.lobby_channel_id:
            return
        if await self.service.core.in_channel(session.row.channel_id) is not None:
            hours = self.bot.settings.thread_archive_hours
            if hours > 0 and self.bot.scheduler is not None:
                due = self.service.store.clock.time() + hours * 3600
                await self.bot.scheduler.schedule(THREAD_ARCHIVE, str(session_id), due)
            return
        try:
            thread = self.bot.get_channel(session.row.channel_id) or await self.bot.fetch_channel(
                session.row.channel_id
            )
            if isinstance(thread, discord.Thread) and not thread.archived:
                await thread.edit(archived=True)
        except discord.NotFound:
            log.info("the thread of session %s is gone; nothing to archive", session_id)
        except discord.HTTPException as exc:
            log.warning("could not archive the thread of session %s: %s", session_id, exc)

    async def strip_buttons(self, session: Session, message_id: int) -> None:
        """Take the buttons off an old board (the channel shows one live board)."""
        channel = self.look.channel(session)
        try:
            await channel.get_partial_message(message_id).edit(view=None)
        except discord.HTTPException:
            log.warning("could not take the buttons off board %s of session %s", message_id, session.id)

    async def retry_later(self, session: Session, inside: Inside | None, read: Inside | None = None) -> None:
        """A post of ``session`` was refused: the ``board`` job tries again, keeping ``inside``
        and ``read``, what it kept when the post took it (:meth:`bot.surface.unposted.Unposted.again`);
        a failure here is only logged, since the refusal is what the asker must hear."""
        try:
            await self.unposted.again(session, inside, read, mine=True)
        except Exception:
            log.warning("the refused board of session %s is not tried again", session.id, exc_info=True)

    async def tell_abandoned(self, session: Session, lines: Sequence[Said] = ()) -> None:
        """Tell the channel that ``session`` was abandoned (its stored reason, what next), under
        what a refused board, or a line refused just before, left owed (:meth:`owed_inside`): its
        lines, and its notes (a resignation), which no board tells now; then ``lines``, the words of
        the answer that abandoned it (``/game abandon``'s, a clock question's), which are the abandon's
        own line; all in its language then, in one message; then close its board (:meth:`abandoned`).
        It holds the game's ``board`` job as a board post does (:meth:`_claimed`), and records the
        abandon told (:attr:`SessionRow.end_told <bot.storage.SessionRow.end_told>`, read again under
        the claim) in the step that drops the claim: told once across processes, its lines carried
        once.  Refused, those lines and ``lines`` stay in the ``board`` job, whose try tells them
        with the abandon; found held by another process's post (a board's, or another telling of
        the abandon), ``lines`` are handed to the job, and the try tells what that post did not
        when it is over (:meth:`_posted_elsewhere`).  The abandon told already (by another process,
        say), what is owed still (lines handed to the job while a post held it) and ``lines`` are
        told alone, once."""
        store = self.service.store
        ending = store.games.telling_end(session.id)  # (run as the claim is dropped: told)
        async with self._post_lock(session.id), self._claimed(session, ending) as held:
            if held is None:  # another process posts the game's board: the try tells the abandon after it
                await self._posted_elsewhere(session, False, Inside(HANDED, lines=tuple(lines)))
                return
            session = await self.service.core.get(session.id) or session
            owed = unposted.owed_in(session, held)
            told = session.row.end_told
            carried = owed.lines if owed is not None else ()
            notes = owed.notes if owed is not None else ()
            if session.status != "abandoned" or (told and not carried and not notes and not lines):
                return  # told meanwhile, nothing more owed: the job goes with the claim
            t = await self.look.language(session)
            shown = written.session(session)
            said = [line.in_words(t) for line in carried]
            said.extend(texts.note_text(shown, note, t) for note in notes)
            said.extend(line.in_words(t) for line in lines)
            if not told:
                said.append(texts.abandoned_text(shown, t, (*carried, *lines)))
            mentions = unposted.also_pinging(
                discord.AllowedMentions.none(), owed.pings if owed is not None else ()
            )
            text = "\n".join(said)
            # the abandon is told once a game, whatever comes above it (a restart's telling has not
            # the answer's ``lines``, nor the lines the stopped telling read: its hold, found, gave
            # them up as told); lines owed after it, by what they say
            nonce = (
                nonces.post_nonce(session, nonces.LINES, text)
                if told
                else nonces.post_nonce(session, nonces.ABANDON)
            )
            try:
                await self.look.channel(session).send(text, allowed_mentions=mentions, nonce=nonce)
            except discord.HTTPException:  # the lines this post read, and its own, are kept for the try
                board = session.row.board_message_id or 0
                await self.retry_later(
                    session, Inside(board, lines=tuple(lines)) if lines else None, read=owed
                )
                raise
            # told: the abandon is recorded so as the job goes with the claim (``ending``)
        if not told:
            await self.abandoned(session)

    async def abandoned(self, session: Session) -> None:
        """A game was abandoned, and the channel told (:meth:`tell_abandoned`): its lobby message
        says so (its thread is archived later), and its last board loses its buttons."""
        if session.row.lobby_channel_id:
            await self.game_over(session)
        else:
            await self.lobby_changed(session)
        if session.row.board_message_id:
            await self.strip_buttons(session, session.row.board_message_id)
        await self.board_settled(session)

    async def channel_gone(self, guild_id: int, channel_id: int | None = None) -> None:
        """A channel or thread was deleted (by a moderator, say): the games and lobbies in it end
        without a result (:meth:`bot.sessions.seats.Seats.channel_gone`), a league game as its
        league decides (:attr:`table_gone`); a lobby message that stays, in the parent channel of a
        deleted thread, says the game is closed.  A finished game's thread there is not archived.

        Without ``channel_id``, the bot was removed from the server: every channel of it is gone
        for the bot, so all the server's lobbies and games end so
        (:meth:`bot.sessions.seats.Seats.server_gone`), league games too (their leagues are
        cancelled first), with nothing posted there (the bot may not), and a finished game's
        refused board is not tried again."""
        store = self.service.store

        def there(row: SessionRow) -> bool:
            return row.guild_id == guild_id and (
                channel_id is None or channel_id in (row.channel_id, row.lobby_channel_id)
            )

        # A finished game's thread: none to archive.  Removed from the server, a finished game's
        # refused board (or results card) can never be posted either: its tries go too (a deleted
        # channel's are left to find it gone, which tells a league's organiser).
        kinds = (THREAD_ARCHIVE,) if channel_id is not None else (THREAD_ARCHIVE, BOARD)
        for kind in kinds:
            for job in await store.jobs.pending(kind):
                old = await store.games.session(int(job.key))  # (its row is all ``there`` reads)
                if old is not None and there(old):
                    await store.jobs.cancel(kind, job.key)
        if channel_id is None:
            ended = await self.service.seats.server_gone(guild_id)
            why = f"the bot was removed from server {guild_id}"
        else:
            ended = await self.service.seats.channel_gone(guild_id, channel_id)
            ended += await self.table_gone(guild_id, channel_id)
            why = f"its channel {channel_id} was deleted"
        for session in ended:
            log.info("session %s ended: %s", session.id, why)
            if channel_id is not None and session.row.lobby_channel_id not in (None, channel_id):
                await self.lobby_changed(session)
            await self.board_settled(session)

    async def board_settled(self, session: Session) -> None:
        """Call the :attr:`after_board` listeners.  The board is posted (or the game abandoned)
        already, so a listener that fails is logged and must not undo the answer."""
        for listener in self.after_board:
            try:
                await listener(session)
            except Exception:
                log.exception("after the board of session %s: %s", session.id, listener)

    async def announce(
        self, result: MoveResult, header: str | None = None, *, catching_up: bool = False
    ) -> discord.Message | None:
        """Post the board after ``result`` (``header``: the first board's); after the last move,
        the results card too (:meth:`card`: once a game, whichever process asks first; refused, it
        is tried again), and the game's history is kept ready to browse.  ``catching_up``: the end of
        a game read as stored and not told (at a start, or the ``board`` job's try), told only
        if no post told it since (:meth:`post_board`), which posted the card too.  A strong
        computer that waited for this post (``result.computers_next``) then plays, in a post of
        its own; a change whose sequel could not be stored (:attr:`MoveResult.unsettled`) has it
        tried again once posted."""
        try:
            message = await self.post_board(
                result.session,
                header=header,
                note=result.note,
                outcome=result.outcome,
                ratings=result.ratings,
                ping=result.turn_ended or header is not None,
                begins=header is not None,
                catching_up=catching_up,
            )
        finally:
            if result.computers_next or result.unsettled:
                self.follow(result.session.id)
        if result.finished:
            try:  # the card comes after the result, which is already posted: a refusal is tried again
                await self.card(result.session)
            except discord.HTTPException as exc:
                await self.not_posted(result.session, exc, "posting the results card")
            except Exception:
                log.exception("could not post the results card of session %s", result.session.id)
        if result.finished and (message is not None or not catching_up):
            try:  # snapshot the whole game now, so that browsing it later is quick
                await self.history.warm(result.session)
            except Exception:
                log.warning("could not snapshot finished session %s", result.session.id, exc_info=True)
        return message

    async def card(self, session: Session) -> None:
        """Post the results card of the finished ``session`` (:attr:`finished`) once its last board
        is posted, marked posted once Discord took it (:meth:`Games.card_told
        <bot.storage.games.Games.card_told>`), holding the game's ``board`` job as a board post does
        (:meth:`_claimed`): a refusal (raised) or a stop leaves the job to its try
        (:meth:`CatchUp.retry <bot.surface.catchup.CatchUp.retry>`), and a card found held by another
        process's post is left to the try after it (:meth:`_posted_elsewhere`).  A last board still to come (and its job) is left alone."""
        session = await self.service.core.get(session.id) or session
        row = session.row
        if session.status != "finished" or not row.outcome or not row.end_told or row.card_told:
            return  # no card, its last board still to come, or the card posted
        async with self._post_lock(session.id), self._claimed(session) as held:
            if held is None:  # another process posts the game's board or card: the try comes after it
                await self._posted_elsewhere(session, False, Inside(HANDED))
                return
            if (await self.service.core.get(session.id) or session).row.card_told:
                return  # posted meanwhile (in another process, say): the job goes with the claim
            await self.finished(session)
            await self.service.store.games.card_told(session.id)  # posted: the job goes with the claim

    async def begins(self, session: Session) -> str:
        """The first board's header, in the server's language: the game begins, seats in play order,
        each player mentioned (pinged if they want thread mentions: see :meth:`post_board`)."""
        t = await self.look.language(session)
        seated = sorted((s for s in session.seats if s.seat is not None), key=lambda s: s.seat or 0)
        seats = ", ".join(
            t.gettext("{number}. {name}", number=i + 1, name=written.mention(s)) for i, s in enumerate(seated)
        )
        return t.gettext(
            "**{game}** begins! Seats in play order: {seats}", game=session.info.title, seats=seats
        )

    async def settled(
        self,
        interaction: discord.Interaction,
        session: Session,
        what: Said,
        say: Callable[[Language], str],
        answer: str = DONE,
        then: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        """A change the whole table is told of: note that ``interaction`` committed ``what``, post
        ``say`` (given the server's language) in the game's channel, do ``then`` (the lobby
        message or the board to update), and answer the asker privately with ``answer`` (a msgid,
        in their language)."""
        self.replies.committed(interaction, what)
        t = await self.look.language(session)
        try:
            await self.look.channel(session).send(say(t), allowed_mentions=discord.AllowedMentions.none())
        finally:  # a refused line leaves the change in force: its jobs and messages follow it all the same
            if then is not None:
                await then()
        await reply(interaction, i18n.private(interaction).gettext(answer))


async def no_games(guild_id: int, channel_id: int) -> list[Session]:
    """No league ends a game in a deleted channel (the default of :attr:`Boards.table_gone`)."""
    return []

"""A game's channel brought up to date: the computers' turns after a person's, and the catch-up.

After a person's move is posted, the computer turns waiting in the game are played and posted, one
post per turn (:meth:`CatchUp.computers_follow`: once per game at a time; the board hands them over
through :attr:`bot.surface.boards.Boards.follow`).  At a start, and when the ``board`` job tries a
refused post again (:meth:`CatchUp.retry`), the game is caught up first: a turn that ended and was
never told, a game's first board, its end (last board, results card) or its abandon, or a board
refused inside a turn still owed, is posted through the game's :class:`~bot.surface.boards.Boards`,
which holds the ``board`` job for each post.  An interaction cut short by a database that stopped
answering takes its game up the same way once it answers again (:meth:`CatchUp.recover`); computer
turns the database could not store are tried again, after waits doubling from :data:`RETRY_FIRST`
to :data:`RETRY_MOST`.  At shutdown :meth:`CatchUp.drain` waits for what is under way, and leaves
what waits for the database to the next start.

Imports: discord, :mod:`bot.public`, :mod:`bot.sessions`, :mod:`bot.storage` and :mod:`bot.surface`
boards (the posts).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator

import discord

from bot import public
from bot.sessions import MoveResult, Session
from bot.storage import Job, NotAnswering
from bot.surface.boards import Boards
from engines.core import Outcome

log = logging.getLogger(__name__)

RETRY_FIRST, RETRY_MOST = 5.0, 300.0
"""The waits, in seconds, before computer turns the database could not store are tried again: the
first, doubled after each failure up to the most."""


def retry_delays() -> Iterator[float]:
    delay = RETRY_FIRST
    while True:
        yield delay
        delay = min(delay * 2, RETRY_MOST)


class CatchUp:
    """Plays and posts the computers' turns that follow, and catches a game's channel up."""

    def __init__(self, boards: Boards):
        self.boards = boards  # the posts go through it
        self.bot, self.service, self.replies = boards.bot, boards.service, boards.replies
        self._following: dict[int, asyncio.Task[None]] = {}  # session id -> its computers' turns
        self._waiting: set[int] = set()  # games whose computers wait for the database to answer
        self._recovering: dict[int, asyncio.Task[None]] = {}  # channel id -> its game's catch-up (recover)
        self._closing = False

    async def drain(self, *, seconds: float = 10.0, closing: bool = False) -> bool:
        """Wait for interactions being handled, and computer turns being played, to finish (with
        ``closing``: at shutdown, when computer turns waiting for the database to answer wait for
        the next start instead); False if some never did (they are played at the next start)."""
        if closing:
            self._closing = True
            for session_id in self._waiting:
                self._following[session_id].cancel()
            for task in self._recovering.values():  # taken up at the next start instead
                task.cancel()
        try:
            async with asyncio.timeout(seconds):
                await self.replies.idle()
                await self.computers_settled()
        except TimeoutError:
            for task in self._following.values():
                task.cancel()
            return False
        return True

    async def computers_settled(self) -> None:
        """Wait until the computer turns being played (see :meth:`computers_follow`) are posted."""
        while self._following or self._recovering:
            await asyncio.gather(
                *self._following.values(), *self._recovering.values(), return_exceptions=True
            )

    def recover(self, channel_id: int) -> None:
        """An interaction in ``channel_id`` failed as the database stopped answering, and what it
        changed may be stored all the same (a commit whose answer was lost): once the database
        answers, the game there is taken up as at a start (:meth:`computers_follow` with
        ``catch_up``): a turn stored and never posted is posted, and the computers play on."""
        if channel_id in self._recovering or self._closing:
            return
        task = asyncio.create_task(self._recover(channel_id), name=f"recover-{channel_id}")
        self._recovering[channel_id] = task
        task.add_done_callback(lambda _: self._recovering.pop(channel_id, None))

    async def _recover(self, channel_id: int) -> None:
        delays = retry_delays()
        session: Session | None = None
        while True:
            try:
                session = await self.service.core.in_channel(channel_id)
                break
            except NotAnswering:
                await self.bot.sleep(next(delays))
            except Exception:
                log.exception("the game in channel %s could not be taken up after the outage", channel_id)
                return
        if session is not None and session.status == "active" and not session.damaged:
            self.computers_follow(session.id, catch_up=True)

    def computers_follow(self, session_id: int, *, catch_up: bool = False) -> None:
        """Play and post, one post per turn, the computer turns waiting in a game (after a
        person's move was posted, or at start-up); once per game at a time.  ``catch_up`` (at
        start-up, or the ``board`` job trying again): first post the board of a turn that ended
        before the bot stopped and was never posted, or a refused board inside a turn still owed
        (:meth:`Boards.owed_inside <bot.surface.boards.Boards.owed_inside>`)."""
        if session_id in self._following:
            return
        task = asyncio.create_task(
            self._computers_turns(session_id, catch_up), name=f"computers-{session_id}"
        )
        self._following[session_id] = task
        task.add_done_callback(lambda _: self._following.pop(session_id, None))

    async def _catch_up(self, session_id: int) -> None:
        session = await self.service.core.get(session_id)
        if session is None or (session.damaged and session.status != "abandoned"):
            return  # a damaged game abandoned is told so: nothing of it is read but its row
        try:
            if session.status == "finished" and session.row.outcome is not None:
                # the end was stored and its board never posted (a move or none ended the game):
                # the last board, then the results, with the rating changes its end stored
                if not session.row.end_told:
                    outcome = Outcome.from_dict(session.row.outcome)
                    ratings = await self.service.play.rating_changes(session)
                    result = MoveResult(
                        session, finished=True, outcome=outcome, turn_ended=True, ratings=ratings
                    )
                    await self.boards.announce(result, catching_up=True)
                elif not session.row.card_told:  # the last board was posted, its results card not
                    await self.boards.card(session)
            elif session.status == "abandoned" and (
                not session.row.end_told or await self.boards.owed_inside(session) is not None
            ):
                # the abandon was stored and never told: the channel is told, the board closed; or
                # lines were handed to the job while it was told, which it did not carry
                await self.boards.tell_abandoned(session)
            elif session.status == "active" and session.row.board_message_id is None:
                # the start was stored and its first board never posted: the lobby message says
                # the game started, and the first board names the seats and mentions the players
                await self.boards.lobby_changed(session)
                header = await self.boards.begins(session)
                await self.boards.post_board(session, header=header, begins=True, catching_up=True)
            elif session.status == "active" and (
                await self.service.play.turn_untold(session)
                or await self.boards.owed_inside(session) is not None
            ):
                await self.boards.post_board(session, catching_up=True)
        except discord.HTTPException as exc:
            await self.boards.not_posted(session, exc, "catching up (at start-up, or trying again)")

    async def _computers_turns(self, session_id: int, catch_up: bool = False) -> None:
        delays = retry_delays()
        while True:
            result: MoveResult | None = None
            try:
                if catch_up:
                    await self._untold(session_id)
                    catch_up = False
                result = await self.service.play.computers_play(session_id)
                if result is not None and public.has_public_news(result.session, result):
                    await self.boards.announce(result)
                elif result is not None and result.played:
                    # steps inside a turn (a round played at once): no board, but the game
                    # changed, so a person's forced move is armed again for it
                    await self.boards.stepped(result.session)
            except NotAnswering as exc:  # tried again while the bot runs, else at its next start
                self.service.metrics.error("computer")
                if self._closing:
                    return
                delay = next(delays)
                log.warning(
                    "the computers of session %s wait for the database (%s); trying again in %g s",
                    session_id,
                    exc,
                    delay,
                )
                catch_up = True  # a turn stored but not posted is posted first
                self._waiting.add(session_id)
                try:
                    await self.bot.sleep(delay)
                finally:
                    self._waiting.discard(session_id)
                continue
            except discord.HTTPException as exc:
                session = result.session if result is not None else await self.service.core.get(session_id)
                if session is not None:
                    await self.boards.not_posted(session, exc, "after a computer's turn")
            except Exception:
                self.service.metrics.error("computer")
                log.exception("the computers of session %s could not move", session_id)
                return
            delays = retry_delays()
            if result is None or not result.computers_next:
                return

    async def _untold(self, session_id: int) -> None:
        """:meth:`_catch_up`, its failures logged but the database's (tried again by the caller)."""
        try:
            await self._catch_up(session_id)
        except NotAnswering:
            raise
        except Exception:
            log.exception("the untold turn of session %s could not be posted", session_id)

    async def retry(self, job: Job) -> None:
        """The ``board`` job: a board Discord refused is posted now, with what the channel was not
        told (a refusal again arms the job again): a turn that ended, or a board refused inside a
        turn that no board has followed since (:meth:`Boards.owed_inside
        <bot.surface.boards.Boards.owed_inside>`); computers to move then play."""
        session_id = int(job.key)
        with self.boards.firing(job):  # its posts take this job's claim
            self.computers_follow(session_id, catch_up=True)
            task = self._following.get(session_id)
            if task is not None:
                await asyncio.gather(task, return_exceptions=True)

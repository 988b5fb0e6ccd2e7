"""The Discord side of the table, shared by every game's cog.

:class:`Table` turns the session service's records into messages.  The
channel gets one post per turn: when a turn (or a simultaneous round) ends,
the board image, everything public that happened since the last post, read
from the move log through :mod:`bot.public`, and a mention of whoever acts
next; the previous board loses its buttons, so the channel shows one live
board.  Steps inside a turn are confirmed to their player alone, on the same
private message, which shows the new private picture and the next menu until
the turn ends (a message with components v2, to hold a menu of many moves).

Computer turns that follow a person's move and play at once (the easy and
normal levels, well under a millisecond) are told in the same post as that
move: separate posts would arrive in the same second, each with a board nobody
acts on, and a table with several computers would run into Discord's five
messages per five seconds in a channel.  The post's mention goes to the next
person.  A strong computer searches for its thinking time, so it does not hold
the person's post back: the move is posted at once, and each strong computer's
turn (with the instant computer turns after it) gets its own post as it comes
(:meth:`Table.computers_follow`); a computer still to move when the bot
restarts moves at start-up.

The buttons and selects are :class:`discord.ui.DynamicItem` classes whose
``custom_id`` carries the session (and, for moves, the stamp of the menu:
the turn and the player's own move count), so they keep working after a
restart and a stale click is recognised; a click whose session belongs to
another channel (a forged ``custom_id``) is refused.  What each reader may see
is decided in :mod:`bot.public`; this module only sends it.

Everything runs in servers only.  Before a lobby opens and before a game
starts, the bot's own permissions in the channel (which every interaction
carries) are checked, so a game never starts where its board cannot be
posted.  Once a move or a start is committed, nobody is told "unchanged": if
posting fails afterwards, the answer says what was recorded and how to post
the board again.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
import weakref
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands

from bot import alt, choices, export, i18n, notices, public, results
from bot.choices import CHOICE_LIMIT, Control, Pick, group_moves
from bot.history import History
from bot.public import MESSAGE_LIMIT, clip, ordinal
from bot.sessions import (
    NOT_SEATED,
    MoveResult,
    NotSeated,
    RatingChange,
    Refusal,
    Session,
    SessionService,
    StaleMove,
    damaged_text,
    refusal,
)
from bot.storage import PersonRow, fits
from bot.surface.attach import gallery_item, picture
from bot.surface.clockvote import ClockDesk, TimeoutButton
from bot.surface.direct import Notifier, PrivateViewButton
from bot.time.jobs import ARCHIVE as THREAD_ARCHIVE
from bot.undo import Undone, UndoService
from engines.core import DEFAULT_LEVEL, MoveError, Outcome, Said, in_words, name_seats, said, said_n
from languages import ENGLISH, N_, Language
from languages import language as language_of

if TYPE_CHECKING:
    from bot.surface.tableparts import TableClient

log = logging.getLogger(__name__)

UNEXPECTED = N_("Something went wrong on our side; the game is unchanged. The error has been logged.")
SERVERS_ONLY = N_("Pukllay's games are played in a server's channels; use its commands there.")

__all__ = [
    "CHOICE_LIMIT",
    "DYNAMIC_ITEMS",
    "MESSAGE_LIMIT",
    "Table",
    "clip",
    "group_moves",
    "missing_permissions",
    "ordinal",
]

# What the bot needs in a channel to run a game there (a thread needs Send
# Messages in Threads instead of Send Messages, as Discord checks).
NEEDED = (
    ("view_channel", "View Channel"),
    ("send_messages", "Send Messages"),
    ("attach_files", "Attach Files"),
    ("embed_links", "Embed Links"),
    ("read_message_history", "Read Message History"),
)
NEEDED_IN_THREADS = tuple(
    ("send_messages_in_threads", "Send Messages in Threads") if attr == "send_messages" else (attr, name)
    for attr, name in NEEDED
)


# What the bot needs in a text channel to open a game in a thread there.
NEEDED_FOR_THREADS = (
    *NEEDED,
    ("create_public_threads", "Create Public Threads"),
    ("send_messages_in_threads", "Send Messages in Threads"),
)
THREAD_AUTO_ARCHIVE_MINUTES: Literal[10080] = 10080  # a week: a slow game's thread stays in the channel list


def in_thread(interaction: discord.Interaction) -> bool:
    channel = interaction.channel
    return isinstance(channel, discord.Thread) or getattr(channel, "type", None) in (
        discord.ChannelType.public_thread,
        discord.ChannelType.private_thread,
        discord.ChannelType.news_thread,
    )


def missing_permissions(interaction: discord.Interaction, *, for_thread: bool = False) -> list[str]:
    """The permissions the bot lacks in the interaction's channel, by name (Discord sends
    the bot's permissions there with every interaction); ``for_thread``: to open a game's
    thread in this channel too."""
    have = interaction.app_permissions
    if in_thread(interaction):
        needed = NEEDED_IN_THREADS
    else:
        needed = NEEDED_FOR_THREADS if for_thread else NEEDED
    return [name for attr, name in needed if not getattr(have, attr)]


def opens_thread(interaction: discord.Interaction) -> bool:
    """Whether a new game here gets its own thread: in a text or announcement channel, not
    inside a thread or forum post (a game there is played where it is)."""
    channel_type = getattr(interaction.channel, "type", None)
    return not in_thread(interaction) and channel_type in (discord.ChannelType.text, discord.ChannelType.news)


def on_v2_message(interaction: discord.Interaction) -> bool:
    """Whether the answer edits a message that uses components v2 (a private menu): such a
    message keeps the flag, so the answer must be a layout too."""
    message = interaction.message
    return (
        interaction.response.is_done()
        and interaction.response.type == discord.InteractionResponseType.deferred_message_update
        and message is not None
        and message.flags.components_v2
    )


def on_private_menu(interaction: discord.Interaction) -> bool:
    """Whether the clicked message is a private menu (ephemeral, components v2), the only kind of
    message a menu's buttons and selects edit."""
    flags = interaction.message.flags if interaction.message is not None else None
    return flags is not None and flags.ephemeral and flags.components_v2


def on_private_message(interaction: discord.Interaction) -> bool:
    """Whether the clicked message is private (ephemeral): a history page, which its buttons edit."""
    return interaction.message is not None and interaction.message.flags.ephemeral


NOT_A_MENU = N_(
    "that button belongs on a private menu and does nothing here; press Play under the board, or use "
    "/game hand, to open yours"
)
NOT_A_PAGE = N_("that button belongs on a private history page; /game history opens one")


def can_view_channel(interaction: discord.Interaction, channel_id: int, *, belongs: bool = False) -> bool:
    """Whether the asker can view the channel or thread ``channel_id`` of the interaction's server.

    With only the ``guilds`` intent the bot still has the server's channels,
    threads, roles and permission overwrites in its cache, and the
    interaction carries the asker as a member with their roles: that is
    enough for Discord's permission computation (``permissions_for``).  A
    channel missing from the cache is not listed.  A private thread is
    listed only to those who manage threads in its channel or who
    ``belong`` there (thread membership is not in the cache).
    """
    guild = interaction.guild
    member = interaction.user
    if guild is None or not isinstance(member, discord.Member):
        return False
    if channel_id == interaction.channel_id:
        return True
    channel = guild.get_channel_or_thread(channel_id)
    if channel is None:
        return False
    perms = channel.permissions_for(member)
    if not perms.view_channel:
        return False
    if isinstance(channel, discord.Thread) and channel.is_private():
        return perms.manage_threads or belongs
    return True


def can_view(interaction: discord.Interaction, session: Session) -> bool:
    """Whether the asker can view the session's channel or thread (a private thread: also when
    seated in its game); see :func:`can_view_channel`."""
    return can_view_channel(
        interaction, session.row.channel_id, belongs=session.seat_of(interaction.user.id) is not None
    )


class Table:
    """Shared presentation and interaction handling for every game."""

    def __init__(self, bot: TableClient, service: SessionService):
        self.bot = bot
        self.service = service
        self.history = History(service)
        self.undo = UndoService(service, self.history)
        self._busy = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self._recorded: dict[int, Said] = {}  # interaction id -> what it committed, while handled
        # One board post at a time per game, so that two posts never tell the same moves.
        self._post_locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self.notifier = Notifier(self)
        self.clocks = ClockDesk(self)
        self._following: dict[int, asyncio.Task[None]] = {}  # session id -> its computers' turns

    def committed(self, interaction: discord.Interaction, what: Said) -> None:
        """Note that ``interaction`` changed a game (``what``: ``said("Your move `{move}` was
        recorded", move="B3")``, kept for the asker's language).

        From then on a failure while answering or posting is reported as "``what``, but
        ..." with a way to post the board again, never as "the game is unchanged".
        """
        self._recorded[interaction.id] = what

    async def drain(self, *, seconds: float = 10.0) -> bool:
        """Wait for interactions being handled, and computer turns being played, to finish (at
        shutdown); False if some never did (computer turns left are played at the next start)."""
        try:
            async with asyncio.timeout(seconds):
                await self._idle.wait()
                await self.computers_settled()
        except TimeoutError:
            for task in self._following.values():
                task.cancel()
            return False
        return True

    async def computers_settled(self) -> None:
        """Wait until the computer turns being played (see :meth:`computers_follow`) are posted."""
        while self._following:
            await asyncio.gather(*self._following.values(), return_exceptions=True)

    def computers_follow(self, session_id: int) -> None:
        """Play and post, one post per turn, the computer turns waiting in a game (after a
        person's move was posted, or at start-up); once per game at a time."""
        if session_id in self._following:
            return
        task = asyncio.create_task(self._computers_turns(session_id), name=f"computers-{session_id}")
        self._following[session_id] = task
        task.add_done_callback(lambda _: self._following.pop(session_id, None))

    async def _computers_turns(self, session_id: int) -> None:
        while True:
            try:
                result = await self.service.play.computers_play(session_id)
            except Exception:
                self.service.metrics.error("computer")
                log.exception("the computers of session %s could not move", session_id)
                return
            if result is None:
                return
            try:
                if public.has_public_news(result.session, result):
                    await self.announce(result)
            except discord.HTTPException:
                log.warning(
                    "board for session %s not posted after a computer turn", session_id, exc_info=True
                )
            if not result.computers_next:
                return

    # ------------------------------------------------------------- rendering

    async def language(self, session: Session) -> Language:
        """The language of what the table posts for ``session`` in its channel (see
        :func:`bot.i18n.server`): boards, lobby texts, results cards and animations."""
        return await i18n.server(self.bot, self.service.store, session.row.guild_id)

    async def server_contrast(self, session: Session) -> bool:
        """Whether the public pictures of ``session`` use the high-contrast palette (``/game contrast``)."""
        guild_id = session.row.guild_id
        return guild_id is not None and await self.service.store.people.server_contrast(guild_id)

    async def person_contrast(self, user_id: int) -> bool:
        """Whether the pictures ``user_id`` receives privately use the high-contrast palette (``/me contrast``)."""
        return (await self.service.store.people.person(user_id)).contrast

    async def render(
        self,
        session: Session,
        seat: int | None = None,
        last_action: str | None = None,
        *,
        language: str,
        contrast: bool = False,
    ) -> discord.File | None:
        """The board of ``session`` as ``seat`` sees it (``None``: the public board), drawn in
        ``language``: the server's for what is posted, the reader's for a private view; in the
        high-contrast palette when ``contrast`` (the server's setting for what is posted, the
        reader's for a private view)."""
        renderer = session.info.load_renderer()
        if renderer is None or session.state is None:
            return None
        view = session.engine.view_for(session.state, seat)
        names = session.names()
        png = await asyncio.to_thread(
            renderer.render,
            view,
            names=names,
            last_action=last_action,
            language=language,
            **palette(contrast),
        )
        name = (
            f"{session.info.name}-{session.id}-v{session.version}{'-private' if seat is not None else ''}.png"
        )
        return picture(png, name, alt.board(session, seat, last_action, language_of(language)))

    def away_labels(self, people: dict[int, PersonRow], t: Language) -> dict[int, str]:
        """``user id -> "away until ..."`` in ``t`` for those of ``people`` taking time away now."""
        now = self.notifier.now()
        return {
            uid: public.away_label(notices.away_date(p), t) for uid, p in people.items() if p.away_at(now)
        }

    async def away_of(self, session: Session, t: Language) -> dict[int, str]:
        """The away labels of ``session``'s people, in ``t`` (for /game status)."""
        people = await self.service.store.people.several(
            [s.user_id for s in session.seats if s.user_id and not s.computer]
        )
        return self.away_labels(people, t)

    def board_view(self, session: Session, t: Language = ENGLISH) -> discord.ui.View | None:
        """The board post's buttons, labelled in ``t`` (the server's language)."""
        if session.status != "active":
            return None
        view = discord.ui.View(timeout=None)
        view.add_item(TurnButton(session.id, t))
        view.add_item(HandButton(session.id, t=t))
        return view

    # ------------------------------------------------------------- the channel's board

    def _post_lock(self, session_id: int) -> asyncio.Lock:
        lock = self._post_locks.get(session_id)
        if lock is None:
            lock = self._post_locks[session_id] = asyncio.Lock()
        return lock

    async def post_board(
        self,
        session: Session,
        *,
        header: str | None = None,
        note: Said | None = None,
        outcome: Outcome | None = None,
        ratings: Sequence[RatingChange] = (),
        ping: bool = True,
    ) -> discord.Message:
        """Post the board with everything public the channel has not been told yet.

        The untold moves are read from the move log, so a turn half played
        before a restart is told in full; the post is remembered with the last
        move it told, and the previous board loses its buttons.
        """
        async with self._post_lock(session.id):
            session = await self.service.core.get(session.id) or session
            records = await self.service.logbook.untold(session)
            language = await self.language(session)
            people = await self.notifier.people_to_move(session)
            text = public.board_text(
                session,
                records,
                header=header,
                note=note,
                outcome=outcome,
                ratings=ratings,
                ping=ping,
                away=self.away_labels(people, language),
                clock=await self.notifier.time_left(session, language),
                t=language,
            )
            channel = self.bot.get_partial_messageable(session.row.channel_id, guild_id=session.row.guild_id)
            file = await self.render(
                session,
                last_action=public.last_action(session, records, language),
                language=language.code,
                contrast=await self.server_contrast(session),
            )
            mentions = self.notifier.mentions(people, ping)
            kwargs: dict[str, Any] = {"content": text, "allowed_mentions": mentions}
            if file is not None:
                kwargs["file"] = file
            view = self.board_view(session, language)
            if view is not None:
                kwargs["view"] = view
            message = await channel.send(**kwargs)
            through = max([r.number for r in records if r.number is not None], default=0)
            old = await self.service.logbook.told(session, message.id, max(through, session.row.told_through))
            if old is not None and old != message.id:
                await self.strip_buttons(session, old)
        if not session.row.live:
            await self.game_over(session)
        elif ping:
            try:
                await self.notifier.after_board(session, message)
            except Exception:  # the board is posted; a notice that fails must not undo the answer
                log.exception("turn notices for session %s failed", session.id)
        return message

    async def game_over(self, session: Session) -> None:
        """A game in its own thread ended: the lobby message in the parent channel shows the
        result, and the thread is archived later (``THREAD_ARCHIVE_HOURS``, by the scheduler)."""
        if not session.row.lobby_channel_id:
            return
        await self.refresh_lobby(session)
        hours = self.bot.settings.thread_archive_hours
        scheduler = self.bot.scheduler
        if hours > 0 and scheduler is not None:
            due = self.service.store.clock.time() + hours * 3600
            await scheduler.schedule(THREAD_ARCHIVE, str(session.id), due)

    async def archive_thread(self, session_id: int) -> None:
        """The scheduler's job: archive the thread of a game that is over (idempotent; a thread
        that is gone or that the bot may no longer edit is left as it is, logged)."""
        session = await self.service.core.get(session_id)
        if session is None or session.row.live or not session.row.lobby_channel_id:
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
        channel = self.bot.get_partial_messageable(session.row.channel_id, guild_id=session.row.guild_id)
        try:
            await channel.get_partial_message(message_id).edit(view=None)
        except discord.HTTPException:
            log.warning("could not take the buttons off board %s of session %s", message_id, session.id)

    async def announce(self, result: MoveResult, header: str | None = None) -> discord.Message:
        message = await self._announce(result, header)
        if result.finished:
            try:  # the card comes after the result, which is already posted: its failure is logged only
                await self.post_results(result)
            except Exception:
                log.exception("could not post the results card of session %s", result.session.id)
            try:  # snapshot the whole game now, so that browsing it later is quick
                await self.history.warm(result.session)
            except Exception:
                log.warning("could not snapshot finished session %s", result.session.id, exc_info=True)
        return message

    async def post_results(self, result: MoveResult) -> None:
        """The results card under the last board, with a Rematch button."""
        session = await self.service.core.get(result.session.id) or result.session
        if session.status != "finished" or not session.row.outcome:
            return
        t = await self.language(session)
        png = await results.card(
            self.service,
            session,
            result.ratings,
            language=t.code,
            contrast=await self.server_contrast(session),
        )
        view = discord.ui.View(timeout=None)
        view.add_item(RematchButton(session.id, t))
        channel = self.bot.get_partial_messageable(session.row.channel_id, guild_id=session.row.guild_id)
        await channel.send(
            t.gettext(
                "**Results** of {game} game #{number}. Play again with the same players and options: "
                "press Rematch (each player presses it to take a seat).",
                game=session.info.title,
                number=session.id,
            )
            + await self.page_line(session, t),
            file=picture(png, f"{session.info.name}-{session.id}-results.png", alt.results_card(session, t)),
            view=view,
        )

    async def rematch(self, interaction: discord.Interaction, session_id: int) -> None:
        """The Rematch button: open a lobby with the same game and options and a new seed (the
        presser hosts, the old game's computer players are seated), or join that lobby."""

        async def work() -> None:
            old = await self.session_for(interaction, session_id)
            mine = i18n.private(interaction)
            if old.status != "finished":
                raise Refusal("a rematch is offered once the game has ended")
            user = interaction.user
            if not any(s.user_id == user.id for s in old.seats):
                raise Refusal(
                    "only the players of game #{number} can start its rematch; once one of them has, "
                    "anyone may press Join on the new lobby",
                    number=old.id,
                )
            channel_id = channel_of(interaction)
            live = await self.service.core.in_channel(channel_id)
            if live is not None:
                if live.status == "lobby" and live.row.game == old.row.game:
                    session = await self.service.lobby.join(channel_id, user.id, user.display_name)
                    await self.refresh_lobby(session)
                    await self.tell_host_full(session, user.id)
                    await self.reply(interaction, mine.gettext("You joined the rematch."))
                    return
                raise Refusal(self.service.lobby.busy_message(live.row))
            self.check_permissions(interaction)
            session = await self.service.lobby.create(
                old.row.game,
                guild_id=interaction.guild_id,
                channel_id=channel_id,
                host_id=user.id,
                host_name=user.display_name,
                options=dict(old.row.options),
                max_players=old.row.max_players,
            )
            self.committed(interaction, said("The rematch lobby is open"))
            for seat in old.seats:
                if seat.computer and seat.user_id is None:
                    session = await self.service.lobby.add_computer(channel_id, user.id)
            others = [s.user_id for s in old.seats if s.user_id not in (None, user.id) and not s.computer]
            others += [s.user_id for s in old.seats if s.resigned and s.user_id not in (None, user.id)]
            channel = self.bot.get_partial_messageable(session.row.channel_id, guild_id=session.row.guild_id)
            pings = " ".join(f"<@{uid}>" for uid in dict.fromkeys(others))
            t = await self.language(session)
            if pings:
                head = t.gettext(
                    "Rematch of game #{number}: {players}, press Join (or Rematch) to play again.",
                    number=old.id,
                    players=pings,
                )
            else:
                head = t.gettext("Rematch of game #{number}.", number=old.id)
            message = await channel.send(
                f"{head}\n{await self.lobby_text(session, t)}",
                view=self.lobby_buttons(session, t),
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(u) for u in dict.fromkeys(others)]
                ),
            )
            await self.service.store.games.set_lobby_message(session.id, message.id)
            await self.reply(
                interaction,
                mine.gettext("Rematch lobby opened; you host it. Press Start when everyone is seated."),
            )

        await self.guard(interaction, work)

    async def begins(self, session: Session) -> str:
        """The first board's header, in the server's language: the game begins, seats in play order."""
        t = await self.language(session)
        seats = ", ".join(
            t.gettext("{number}. {name}", number=i + 1, name=n) for i, n in enumerate(session.names())
        )
        return t.gettext(
            "**{game}** begins! Seats in play order: {seats}", game=session.info.title, seats=seats
        )

    async def _announce(self, result: MoveResult, header: str | None) -> discord.Message:
        return await self.post_board(
            result.session,
            header=header,
            note=result.note,
            outcome=result.outcome,
            ratings=result.ratings,
            ping=result.turn_ended or header is not None,
        )

    # ------------------------------------------------------------- lobbies

    async def lobby_text(self, session: Session, t: Language | None = None) -> str:
        """The lobby message, in ``t`` (a private answer: the asker's), else the server's language."""
        return public.lobby_text(session, t or await self.language(session))

    def lobby_view(self, session: Session, t: Language = ENGLISH) -> discord.ui.View | None:
        """The lobby's buttons (labelled in ``t``, the server's language) while it is open; None
        (no buttons) once it is not."""
        return self.lobby_buttons(session, t) if session.status == "lobby" else None

    @staticmethod
    def lobby_buttons(session: Session, t: Language = ENGLISH) -> discord.ui.View:
        view = discord.ui.View(timeout=None)
        for action in ("join", "leave", "cpu", "start"):
            view.add_item(LobbyButton(session.id, action, t))
        return view

    async def refresh_lobby(self, session: Session | None, session_id: int | None = None) -> None:
        if session is None and session_id is not None:
            session = await self.service.core.get(session_id)
        if session is None or not session.row.lobby_message_id:
            return
        where = session.row.lobby_channel_id or session.row.channel_id
        channel = self.bot.get_partial_messageable(where, guild_id=session.row.guild_id)
        t = await self.language(session)
        try:
            await channel.get_partial_message(session.row.lobby_message_id).edit(
                content=await self.lobby_text(session, t), view=self.lobby_view(session, t)
            )
        except discord.HTTPException:
            log.warning("could not update the lobby message of session %s", session.id, exc_info=True)

    async def open_lobby(
        self,
        interaction: discord.Interaction,
        game: str,
        options: dict[str, Any],
        players: int | None = None,
        *,
        thread: bool = True,
        clock: str | None = None,
    ) -> None:
        """Open a lobby (``clock``: a clock spec, see :mod:`bot.time.gameclock`): in a text channel (with ``thread``) the lobby message goes to the channel
        and the game gets its own thread; elsewhere (``thread`` False, or inside a thread or a
        forum post) the game is played where the command was used."""

        async def work() -> None:
            if thread and opens_thread(interaction):
                await self._open_in_thread(interaction, game, options, players, clock)
                return
            self.check_permissions(interaction)
            session = await self.service.lobby.create(
                game,
                guild_id=interaction.guild_id,
                channel_id=channel_of(interaction),
                host_id=interaction.user.id,
                host_name=interaction.user.display_name,
                options=options,
                max_players=players,
                clock=clock,
            )
            self.committed(
                interaction,
                said(
                    "The {game} lobby is open (players can /game join, the host can /game abandon it)",
                    game=session.info.title,
                ),
            )
            t = await self.language(session)
            sent = await interaction.response.send_message(
                await self.lobby_text(session, t), view=self.lobby_buttons(session, t)
            )
            await self.service.store.games.set_lobby_message(session.id, sent.message_id)

        await self.guard(interaction, work, defer=False)

    async def _open_in_thread(
        self,
        interaction: discord.Interaction,
        game: str,
        options: dict[str, Any],
        players: int | None,
        clock: str | None = None,
    ) -> None:
        """The lobby message in this channel, and a public thread started from it for the game
        (the thread has the message's id, so the session is created for it before it exists)."""
        self.check_permissions(interaction, for_thread=True)
        info, _, _ = self.service.lobby.check_new(game, options, players)
        self.service.core.check_clock(clock)
        host = interaction.user
        t = await i18n.server(self.bot, self.service.store, interaction.guild_id)
        sent = await interaction.response.send_message(public.opening_text(info.title, host.display_name, t))
        message_id = sent.message_id
        parent_id = channel_of(interaction)
        if message_id is None:
            raise Refusal("Discord did not say which message holds the lobby; try again")
        try:
            session = await self.service.lobby.create(
                game,
                guild_id=interaction.guild_id,
                channel_id=message_id,
                lobby_channel_id=parent_id,
                host_id=host.id,
                host_name=host.display_name,
                options=options,
                max_players=players,
                clock=clock,
            )
        except Refusal as exc:
            await interaction.edit_original_response(
                content=t.gettext("No game was opened: {reason}.", reason=exc.in_words(t))
            )
            raise
        await self.service.store.games.set_lobby_message(session.id, message_id)
        self.committed(interaction, said("The {game} lobby is open", game=info.title))
        parent = self.bot.get_partial_messageable(parent_id, guild_id=interaction.guild_id)
        try:
            opened = await parent.get_partial_message(message_id).create_thread(
                name=public.thread_name(info.title, session.id, host.display_name),
                auto_archive_duration=THREAD_AUTO_ARCHIVE_MINUTES,
            )
        except discord.HTTPException as exc:
            log.warning("could not open the thread of session %s: %s", session.id, exc)
            await self.service.lobby.close_lobby(session.id, "its thread could not be opened")
            if isinstance(exc, discord.Forbidden):
                text = t.gettext(
                    "No game was opened: Discord refused to open its thread (missing permissions). "
                    "Try again, or use thread: False to play in this channel."
                )
            else:
                text = t.gettext(
                    "No game was opened: Discord refused to open its thread (error {status}). "
                    "Try again, or use thread: False to play in this channel.",
                    status=exc.status,
                )
            await interaction.edit_original_response(content=text, view=None)
            return
        session = await self.service.core.get(session.id) or session
        await interaction.edit_original_response(
            content=await self.lobby_text(session, t), view=self.lobby_view(session, t)
        )
        await opened.send(
            public.thread_welcome(session, t) + await self.page_line(session, t),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def page_line(self, session: Session, t: Language) -> str:
        """The game's web page on a line of its own (its link made now), or "" where pages are off."""
        url = await self.bot.page_link("game", session.id, session.row.guild_id)
        return "\n" + t.gettext("On the web: {url}", url=url) if url else ""

    @staticmethod
    def check_permissions(interaction: discord.Interaction, *, for_thread: bool = False) -> None:
        """Refuse, naming them, when the bot lacks permissions it needs in this channel."""
        missing = missing_permissions(interaction, for_thread=for_thread)
        if missing:
            threads = {"Create Public Threads", "Send Messages in Threads"}
            values = {"permissions": ", ".join(missing)}
            n = len(missing)
            if for_thread and set(missing) <= threads and in_thread(interaction):
                raise Refusal(
                    said_n(
                        n,
                        "I am missing {permissions} in this thread; a server admin can grant it to my role "
                        "(or use thread: False to play in this channel itself)",
                        "I am missing {permissions} in this thread; a server admin can grant them to my role "
                        "(or use thread: False to play in this channel itself)",
                        **values,
                    )
                )
            if for_thread and set(missing) <= threads:
                raise Refusal(
                    said_n(
                        n,
                        "I am missing {permissions} in this channel; a server admin can grant it to my role "
                        "(or use thread: False to play in this channel itself)",
                        "I am missing {permissions} in this channel; a server admin can grant them to my role "
                        "(or use thread: False to play in this channel itself)",
                        **values,
                    )
                )
            if in_thread(interaction):
                raise Refusal(
                    said_n(
                        n,
                        "I am missing {permissions} in this thread; a server admin can grant it to my role "
                        "(or open the game in another channel)",
                        "I am missing {permissions} in this thread; a server admin can grant them to my role "
                        "(or open the game in another channel)",
                        **values,
                    )
                )
            raise Refusal(
                said_n(
                    n,
                    "I am missing {permissions} in this channel; a server admin can grant it to my role "
                    "(or open the game in another channel)",
                    "I am missing {permissions} in this channel; a server admin can grant them to my role "
                    "(or open the game in another channel)",
                    **values,
                )
            )

    async def session_for(
        self, interaction: discord.Interaction, session_id: int, *, running: bool = False
    ) -> Session:
        """The session a button or menu names, refused unless it belongs to the channel
        the click came from (a forged or copied ``custom_id`` changes nothing)."""
        session = await self.service.core.get(session_id) if fits(session_id) else None
        if session is None or interaction.channel_id not in (
            session.row.channel_id,
            session.row.lobby_channel_id,
        ):
            raise Refusal("this button does not belong to a game in this channel")
        if running and session.status != "active":
            raise Refusal("that game is not running")
        if session.damaged:
            raise Refusal(damaged_text(session))
        return session

    async def tell_host_full(self, session: Session, actor_id: int) -> None:
        """Ping the host when someone else takes the last seat."""
        if session.status != "lobby" or len(session.seats) < session.row.max_players:
            return
        if actor_id == session.row.host_id:
            return
        channel = self.bot.get_partial_messageable(session.row.channel_id, guild_id=session.row.guild_id)
        try:
            await channel.send(
                public.full_table_text(session, await self.language(session)),
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(session.row.host_id)]
                ),
            )
        except discord.HTTPException:  # the seat is taken all the same; the lobby message says so
            log.warning("could not tell the host of session %s that the table is full", session.id)

    async def lobby_action(
        self,
        interaction: discord.Interaction,
        session_id: int | None,
        action: str,
        *,
        from_button: bool = True,
        level: str = DEFAULT_LEVEL,
    ) -> None:
        """Join, leave, add a computer (at ``level``) or start, from a lobby button or a slash command."""

        async def work() -> None:
            channel_id = channel_of(interaction)
            session: Session | None = None  # None once the last person has left the lobby
            if session_id is not None:
                session = await self.session_for(interaction, session_id)
                if not session.row.live:
                    raise Refusal("this lobby is closed")
                channel_id = session.row.channel_id  # a lobby button in the parent of the game's thread
            user = interaction.user
            mine = i18n.private(interaction)
            result: MoveResult | None = None
            if action == "join":
                session = await self.service.lobby.join(channel_id, user.id, user.display_name)
                note = mine.gettext("{player} joined.", player=user.display_name)
            elif action == "leave":
                session = await self.service.lobby.leave(channel_id, user.id)
                note = mine.gettext("{player} left.", player=user.display_name)
            elif action == "cpu":
                session = await self.service.lobby.add_computer(channel_id, user.id, level)
                note = mine.gettext(
                    "{player} added a computer player ({level}).", player=user.display_name, level=level
                )
            elif action == "start":
                # From the lobby message in the parent channel, the board goes to the game's thread.
                self.check_permissions(interaction, for_thread=channel_id != interaction.channel_id)
                if (
                    from_button
                    and session is not None
                    and session_id is not None
                    and any(s.computer for s in session.seats)
                ):
                    # computers may think before the first board: answer Discord in time
                    await interaction.response.defer()
                result = await self.service.lobby.start(channel_id, user.id)
                session = result.session
                note = mine.gettext("The game has started.")
                self.committed(interaction, said("The game has started"))
            else:
                raise Refusal("unknown lobby action {action}", action=repr(action))
            if (
                from_button
                and interaction.message is not None
                and (session is None or interaction.message.id == session.row.lobby_message_id)
            ):
                if session is None:
                    closed = await i18n.server(self.bot, self.service.store, interaction.guild_id)
                    await interaction.response.edit_message(
                        content=closed.gettext("This lobby is closed: everyone left."), view=None
                    )
                else:
                    t = await self.language(session)
                    content, view = await self.lobby_text(session, t), self.lobby_view(session, t)
                    if interaction.response.is_done():
                        await interaction.edit_original_response(content=content, view=view)
                    else:
                        await interaction.response.edit_message(content=content, view=view)
            else:
                if session is None:
                    await self.reply(interaction, mine.gettext("You left; the lobby is closed."))
                else:
                    await self.refresh_lobby(session)
                    await self.reply(interaction, note)
            if result is not None:
                await self.announce(result, header=await self.begins(result.session))
            elif session is None:
                await self.refresh_lobby(None, session_id)
            elif action in ("join", "cpu"):
                await self.tell_host_full(session, user.id)

        await self.guard(interaction, work, defer=not from_button)

    # ------------------------------------------------------------- guarding interactions

    async def guard(
        self,
        interaction: discord.Interaction,
        work: Callable[[], Awaitable[Any]],
        *,
        defer: bool = True,
    ) -> None:
        """Run ``work``; turn refusals into ephemeral answers and crashes into a logged apology.

        With ``defer`` the interaction is acknowledged ephemerally first, so slow
        work never misses Discord's three seconds; ``work`` then answers with
        :meth:`reply`.
        """
        self._busy += 1
        self._idle.clear()
        try:
            if interaction.guild_id is None:
                await self.reply(interaction, i18n.private(interaction).gettext(SERVERS_ONLY))
                return
            if defer and not interaction.response.is_done():
                await interaction.response.defer(ephemeral=True, thinking=True)
            failed_dm = await self.notifier.dm_failed(interaction.user.id)  # before this command
            await work()
            if failed_dm and interaction.response.is_done():
                await self.notifier.tell_failed_once(interaction)
        except (Refusal, MoveError) as exc:  # in the asker's language
            t = i18n.private(interaction)
            await self.reply(interaction, f"⚠️ {self.sentence(refusal(exc, t), t)}")
        except Exception as exc:
            recorded = self._recorded.get(interaction.id)
            if recorded is not None and isinstance(exc, discord.HTTPException):
                log.warning("Discord refused a message after a change was recorded: %s", exc)
            else:
                self.service.metrics.error("interaction")
                log.exception("unexpected error handling %s", interaction.data)
            try:
                await self.reply(interaction, self.failure_text(recorded, exc, i18n.private(interaction)))
            except discord.HTTPException:
                log.warning("could not tell the user about the error", exc_info=True)
        finally:
            self._recorded.pop(interaction.id, None)
            self._busy -= 1
            if not self._busy:
                self._idle.set()

    @staticmethod
    def failure_text(recorded: Said | None, exc: BaseException, t: Language = ENGLISH) -> str:
        """What to say when something failed, in ``t``: "unchanged" only if nothing was committed
        (``recorded`` is what was committed, put in words in ``t``)."""
        if recorded is None:
            return t.gettext(UNEXPECTED)
        done = recorded.in_words(t)
        if isinstance(exc, discord.Forbidden):
            return t.gettext(
                "⚠️ {done}, but Discord refused to let me post here (missing permissions). Once that is "
                "fixed, /game board posts the board again.",
                done=done,
            )
        if isinstance(exc, discord.HTTPException):
            return t.gettext(
                "⚠️ {done}, but Discord refused the message ({status}). Once that is fixed, /game board "
                "posts the board again.",
                done=done,
                status=exc.status,
            )
        return t.gettext(
            "⚠️ {done}, but something went wrong showing it (the error has been logged). Once that is "
            "fixed, /game board posts the board again.",
            done=done,
        )

    @staticmethod
    def sentence(text: str, t: Language = ENGLISH) -> str:
        text = text.strip()
        if not text:
            return t.gettext("That was not accepted.")
        first = text.split(" ", 1)[0]
        if "_" not in first:  # an option's name (max_turns) keeps its spelling
            text = text[0].upper() + text[1:]
        return text if text.endswith((".", "!", "?")) else text + "."

    @staticmethod
    def layout(
        text: str,
        file: discord.File | None = None,
        controls: Sequence[Control] = (),
        *,
        session_id: int = 0,
        stamp: str = "0",
        t: Language = ENGLISH,
    ) -> discord.ui.LayoutView:
        """A private message with components v2: the text, the picture, then the menu."""
        view = discord.ui.LayoutView(timeout=None)
        view.add_item(discord.ui.TextDisplay(clip(text)))
        if file is not None:
            view.add_item(discord.ui.MediaGallery(gallery_item(file)))
        for index, control in enumerate(controls):
            if control.kind == "select":
                options = [
                    discord.SelectOption(
                        label=choices.cap(p.label, choices.OPTION_LIMIT),
                        value=p.value[: choices.OPTION_LIMIT],
                        description=(p.description or "")[: choices.OPTION_LIMIT] or None,
                    )
                    for p in control.picks
                ]
                select = MoveSelect(
                    session_id, stamp, options, index=index, placeholder=control.placeholder, t=t
                )
                view.add_item(discord.ui.ActionRow(select))
            else:
                view.add_item(
                    discord.ui.ActionRow(*(menu_button(p, session_id, stamp, t) for p in control.picks))
                )
        return view

    async def reply(
        self,
        interaction: discord.Interaction,
        content: str,
        *,
        file: discord.File | None = None,
        view: discord.ui.View | discord.ui.LayoutView | None = None,
    ) -> None:
        """Answer ephemerally, whether or not the interaction was deferred.

        A deferred answer (ours is always private) is filled in; after a public
        answer (a lobby posted or updated), the reply is a private follow-up, so
        that the public message is never overwritten.  On a private menu (a
        message with components v2) the answer is a layout too.
        """
        content = clip(content)
        if not isinstance(view, discord.ui.LayoutView) and on_v2_message(interaction):
            view = self.layout(content, file)
        v2 = isinstance(view, discord.ui.LayoutView)
        deferred = (
            discord.InteractionResponseType.deferred_channel_message,
            discord.InteractionResponseType.deferred_message_update,
        )
        if interaction.response.is_done() and interaction.response.type in deferred:
            kwargs: dict[str, Any] = {"attachments": [file] if file is not None else [], "view": view}
            if not v2:
                kwargs["content"] = content
            await interaction.edit_original_response(**kwargs)
            return
        kwargs = {"ephemeral": True}
        if not v2:
            kwargs["content"] = content
        if file is not None:
            kwargs["file"] = file
        if view is not None:
            kwargs["view"] = view
        if interaction.response.is_done():
            await interaction.followup.send(**kwargs)
        else:
            await interaction.response.send_message(**kwargs)

    # ------------------------------------------------------------- history

    async def history_session(self, interaction: discord.Interaction, session_id: int) -> Session:
        """The game to browse: one of this server's, in a channel the asker can view."""
        session = await self.history.session(session_id, interaction.guild_id)
        if not can_view(interaction, session):
            raise Refusal("there is no game #{number} on this server that you can view", number=session_id)
        return session

    async def history_page(
        self, interaction: discord.Interaction, session: Session, number: int | None
    ) -> tuple[str, discord.File | None, discord.ui.View]:
        """One page of the history browser for the asker: text, the public board then, and the controls."""
        page = await self.history.page(session, number)
        reader = session.reader_of(interaction.user.id)
        t = i18n.private(interaction)
        text = public.history_text(session, page.number, page.shown, page.record, reader, t)
        file = None
        renderer = session.info.load_renderer()
        if renderer is not None:
            view = session.engine.view_for(page.state, None)
            last = None
            if page.record is not None:
                s = public.seen(session.engine, session.state, page.record, None, t)
                last = name_seats(s.summary(t), session.names())
            png = await asyncio.to_thread(
                renderer.render,
                view,
                names=session.names(),
                last_action=last,
                language=t.code,
                **palette(await self.person_contrast(interaction.user.id)),
            )
            file = picture(
                png,
                f"{session.info.name}-{session.id}-move{page.number}.png",
                alt.board(session, None, last, t, state=page.state, move=page.number, shown=page.shown),
            )
        controls = discord.ui.View(timeout=None)
        n, shown = page.number, page.shown
        for tag, target in (
            ("first", 0),
            ("back", n - 1),
            ("back10", max(0, n - 10)),
            ("next", n + 1),
            ("last", shown),
        ):
            button = HistoryButton(session.id, max(0, min(target, shown)), tag, t)
            button.item.disabled = not 0 <= target <= shown or target == n
            controls.add_item(button)
        turns = await self.history.turn_starts(session, shown)
        if len(turns) > 1:
            here = max(i for i, (_, start) in enumerate(turns) if start <= n)
            options = [
                discord.SelectOption(
                    label=t.gettext("Turn {turn} (from move {move})", turn=i + 1, move=turns[i][1])
                    if i
                    else t.gettext("Turn 1 (the start)"),
                    value=str(turns[i][1]),
                    default=i == here,
                )
                for i in jump_targets(here, len(turns) - 1)
            ]
            controls.add_item(
                HistorySelect(session.id, options, index=1, placeholder=t.gettext("Jump to a turn"), t=t)
            )
        seats = {r.number: r.seat for r in await self.service.store.history.moves(session.id)}
        options = [
            discord.SelectOption(
                label=public.history_label(session, m, seats.get(m), t), value=str(m), default=m == n
            )
            for m in jump_targets(n, shown)
        ]
        controls.add_item(HistorySelect(session.id, options, t=t))
        return text, file, controls

    async def show_history(
        self,
        interaction: discord.Interaction,
        session_id: int | None,
        number: int | None,
        *,
        in_place: bool = False,
    ) -> None:
        """``/game history`` (a new private message) or a click on one (the same message, edited)."""

        async def work() -> None:
            if in_place:
                if not on_private_message(interaction):  # forged onto a public message: never edit it
                    raise Refusal(NOT_A_PAGE)
                await interaction.response.defer()
            if session_id is None:
                session = await self.service.core.latest(channel_of(interaction))
                session = await self.history_session(interaction, session.id)
            else:
                session = await self.history_session(interaction, session_id)
            text, file, controls = await self.history_page(interaction, session, number)
            await self.reply(interaction, text, file=file, view=controls)

        await self.guard(interaction, work, defer=not in_place)

    async def export_game(self, interaction: discord.Interaction, session_id: int | None) -> None:
        """``/game export``: the game as a JSON file; privately while it runs, in the channel once ended."""

        async def work() -> None:
            if session_id is None:
                session = await self.service.core.latest(channel_of(interaction))
                session = await self.history_session(interaction, session.id)
            else:
                session = await self.history_session(interaction, session_id)
            with_ids = interaction.guild_id in self.bot.settings.export_id_guilds
            data = await export.export_session(self.service, session, with_ids=with_ids)
            body = export.dump(data)
            name = f"{session.info.name}-game{session.id}.json"
            count = len(data["moves"])
            mine = i18n.private(interaction)
            if session.status == "active":
                text = mine.ngettext(
                    "**{game}**, game #{number}, as the channel knows it ({n} move); the seed and the hidden "
                    "moves are added once the game has ended (only you can see this).",
                    "**{game}**, game #{number}, as the channel knows it ({n} moves); the seed and the hidden "
                    "moves are added once the game has ended (only you can see this).",
                    count,
                    game=session.info.title,
                    number=session.id,
                )
                text += await self.page_line(session, mine)
                await self.reply(interaction, text, file=discord.File(io.BytesIO(body), filename=name))
                return
            self.check_permissions(interaction)
            files = [discord.File(io.BytesIO(body), filename=name)]
            t = await self.language(session)
            gif = await results.summary(
                self.service, session, language=t.code, contrast=await self.server_contrast(session)
            )
            if gif is not None:
                files.append(
                    picture(
                        gif, f"{session.info.name}-game{session.id}.gif", alt.summary_animation(session, t)
                    )
                )
            channel = self.bot.get_partial_messageable(channel_of(interaction), guild_id=interaction.guild_id)
            values = {
                "game": session.info.title,
                "number": session.id,
                "reason": public.end_reason(session, t),
                "player": interaction.user.mention,
                "file": name,
            }
            if gif is not None:
                posted = t.ngettext(
                    "**{game}**, game #{number} ({reason}), exported by {player}: {n} move. Replay it with "
                    "`python -m bot.local --replay {file}`, or watch it turn by turn in the animation.",
                    "**{game}**, game #{number} ({reason}), exported by {player}: {n} moves. Replay it with "
                    "`python -m bot.local --replay {file}`, or watch it turn by turn in the animation.",
                    count,
                    **values,
                )
            else:
                posted = t.ngettext(
                    "**{game}**, game #{number} ({reason}), exported by {player}: {n} move. Replay it with "
                    "`python -m bot.local --replay {file}`.",
                    "**{game}**, game #{number} ({reason}), exported by {player}: {n} moves. Replay it with "
                    "`python -m bot.local --replay {file}`.",
                    count,
                    **values,
                )
            posted += await self.page_line(session, t)
            await channel.send(posted, files=files, allowed_mentions=discord.AllowedMentions.none())
            await self.reply(interaction, mine.gettext("Export posted."))

        await self.guard(interaction, work)

    # ------------------------------------------------------------- undo by consent

    async def ask_undo(self, interaction: discord.Interaction) -> None:
        """``/game undo``: take back one's last move, at once when only computers play along,
        else by asking the others in the channel with buttons."""

        async def work() -> None:
            asked = await self.undo.ask(channel_of(interaction), interaction.user.id)
            session = asked.session
            mine = i18n.private(interaction)
            count = len(asked.moves)
            if isinstance(asked, Undone):
                self.committed(interaction, said("Your move was taken back"))
                await self.announce(asked.result)
                await self.reply(
                    interaction,
                    mine.ngettext(
                        "Taken back: {n} move, from move {move}.",
                        "Taken back: {n} moves, from move {move}.",
                        count,
                        move=asked.target,
                    ),
                )
                return
            request = asked.request
            t = await self.language(session)
            names = ", ".join(session.by_seat(s).mention for s in sorted(request.waiting))
            lines = [public.describe(session, r, None, t) for r in asked.moves[:5]]
            text = "\n".join(
                (
                    t.ngettext(
                        "{player} asks to take back {n} move, from move {move}: {moves}",
                        "{player} asks to take back {n} moves, from move {move}: {moves}",
                        count,
                        player=interaction.user.mention,
                        move=asked.target,
                        moves="; ".join(lines) + ("…" if count > 5 else ""),
                    ),
                    t.gettext(
                        "{players}: do you agree? Everyone asked must agree; any move meanwhile cancels the request.",
                        players=names,
                    ),
                )
            )
            view = discord.ui.View(timeout=None)
            view.add_item(UndoButton(session.id, request.version, True, t))
            view.add_item(UndoButton(session.id, request.version, False, t))
            channel = self.bot.get_partial_messageable(session.row.channel_id, guild_id=session.row.guild_id)
            message = await channel.send(
                clip(text),
                view=view,
                allowed_mentions=discord.AllowedMentions(
                    everyone=False,
                    roles=False,
                    users=[
                        discord.Object(uid)
                        for s in request.waiting
                        if (uid := session.by_seat(s).user_id) is not None
                    ],
                ),
            )
            await self.service.store.history.set_undo_message(session.id, message.id)
            await self.reply(
                interaction, mine.gettext("Asked: the other players answer with the buttons in the channel.")
            )

        await self.guard(interaction, work)

    async def answer_undo(
        self, interaction: discord.Interaction, session_id: int, version: int, agree: bool
    ) -> None:
        """A click on Agree or Refuse under an undo request."""

        async def work() -> None:
            session = await self.history_session(interaction, session_id)
            if session.row.channel_id != interaction.channel_id:
                raise Refusal("this button does not belong to a game in this channel")
            answered = await self.undo.answer(session_id, version, interaction.user.id, agree)
            who = interaction.user.display_name
            content = interaction.message.content if interaction.message is not None else ""
            t = await self.language(session)
            if not answered.agreed:
                line = t.gettext("{player} refused: the moves stand.", player=who)
                await interaction.response.edit_message(content=clip(f"{content}\n{line}"), view=None)
                return
            if answered.result is None:
                waiting = ", ".join(
                    answered.session.by_seat(s).name for s in sorted(answered.request.waiting)
                )
                line = t.gettext("{player} agreed; waiting on {players}.", player=who, players=waiting)
                await interaction.response.edit_message(content=clip(f"{content}\n{line}"))
                return
            self.committed(interaction, said("The moves were taken back"))
            line = t.gettext("{player} agreed: everyone did, the moves were taken back.", player=who)
            await interaction.response.edit_message(content=clip(f"{content}\n{line}"), view=None)
            await self.announce(answered.result)

        await self.guard(interaction, work, defer=False)

    # ------------------------------------------------------------- menus

    async def menu(
        self, session: Session, seat: int, opened: tuple[str, str] | None = None, t: Language = ENGLISH
    ) -> tuple[list[Control], str, int]:
        """The private menu of ``seat``'s legal moves (``opened``: one kind or group), its stamp,
        and how many moves it offers; its words in ``t`` (the notation stays each choice's value)."""
        engine = session.engine
        moves = list(engine.legal_moves(session.state, seat))
        found = choices.entries(engine, session.state, seat, moves, session.names(), t)
        controls = choices.plan_menu(
            engine.KINDS, lambda kind: choices.kind_label(engine, kind, t), found, opened=opened, t=t
        )
        return controls, await self.service.play.stamp(session, seat), len(moves)

    async def send_menu(
        self,
        interaction: discord.Interaction,
        session: Session,
        lead: str,
        *,
        opened: tuple[str, str] | None = None,
    ) -> None:
        """The private message of a player: ``lead``, their picture and holdings, and the menu
        of their legal moves when it is their turn."""
        seat = session.seat_of(interaction.user.id)
        t = i18n.private(interaction)
        picture, file = await self.private_picture(session, interaction.user.id, t.code)
        text = f"{lead}\n{picture}" if lead else picture
        controls: list[Control] = []
        stamp = "0"
        if (
            seat is not None
            and seat.seat is not None
            and not seat.computer
            and session.status == "active"
            and seat.seat in session.to_move()
        ):
            controls, stamp, count = await self.menu(session, seat.seat, opened, t)
            if controls:
                pick = t.ngettext(
                    "Pick a move below ({n} legal move), or type `/{game} move` to search them all.",
                    "Pick a move below ({n} legal moves), or type `/{game} move` to search them all.",
                    count,
                    game=session.info.name,
                )
                text += f"\n{pick}"
        await self.reply(
            interaction,
            text,
            view=self.layout(text, file, controls, session_id=session.id, stamp=stamp, t=t),
            file=file,
        )

    # ------------------------------------------------------------- moves

    async def play(
        self,
        interaction: discord.Interaction,
        text: str,
        *,
        session_id: int | None = None,
        expected_version: int | None = None,
        expected_stamp: str | None = None,
        in_menu: bool = False,
    ) -> None:
        """Play ``text`` for the user; post the board when the turn ends; confirm privately.

        From a private menu (``in_menu``) the same message shows the new picture
        and the next menu until the turn ends.
        """

        async def work() -> None:
            if session_id is not None:
                await self.session_for(interaction, session_id)  # a forged click is refused untouched
            if not interaction.response.is_done():
                if in_menu:
                    await interaction.response.defer()  # the private menu is replaced by the answer
                else:
                    await interaction.response.defer(ephemeral=True, thinking=True)
            try:
                if session_id is None:
                    found = await self.service.core.require(channel_of(interaction))
                    sid = found.id
                else:
                    sid = session_id
                result = await self.service.play.play_in(
                    sid,
                    interaction.user.id,
                    text,
                    expected_version=expected_version,
                    expected_stamp=expected_stamp,
                )
            except StaleMove as exc:
                await self.show_current(interaction, session_id, exc.in_words(i18n.private(interaction)))
                return
            except MoveError as exc:
                hint = await self.prefix_hint(interaction, text)
                if hint is not None:
                    raise hint from exc
                raise
            self.committed(interaction, said("Your move `{move}` was recorded", move=text))
            session = result.session
            try:
                if public.has_public_news(session, result):
                    await self.announce(result)
            except discord.HTTPException:
                log.warning("board for session %s not posted", session.id, exc_info=True)
                await self.reply(
                    interaction,
                    i18n.private(interaction).gettext(
                        "Your move `{move}` was recorded, but Discord refused the board image; "
                        "use /game board to post it again.",
                        move=text,
                    ),
                )
                return
            finally:
                if result.computers_next:
                    self.computers_follow(session.id)
            await self.confirm(interaction, result, text, in_menu=in_menu)

        await self.guard(interaction, work, defer=False)

    async def confirm(
        self, interaction: discord.Interaction, result: MoveResult, text: str, *, in_menu: bool
    ) -> None:
        """Tell the mover what their move did; on a private menu, show the next one."""
        session = result.session
        seat = session.seat_of(interaction.user.id)
        if seat is None or seat.seat is None:  # only a seated player's move is confirmed
            raise NotSeated("you have no seat at this game")
        mine = seat.seat
        t = i18n.private(interaction)
        lines = [t.gettext("You played `{move}`.", move=text)] + public.own_lines(
            session, result.played, mine, t=t
        )
        acting = session.status == "active" and mine in session.to_move()
        if acting and result.turn_ended:  # the computers played their turns at once: say what they did
            others = [r for r in result.played if r.seat != mine]
            lines += (
                [t.gettext("Your turn is over; then:")]
                + public.turn_lines(session, others, reader=mine, t=t)
                + [t.gettext("It is your turn again.")]
            )
        if acting and in_menu:
            await self.send_menu(interaction, session, "\n".join(lines))
            return
        if acting:
            lines.append(t.gettext("Play on, or press Play under the board for a menu."))
        elif session.status != "active":
            lines.append(t.gettext("The game is over: the result is in the channel."))
        elif result.turn_ended:
            lines.append(
                t.gettext(
                    "Your turn is over: the board is in the channel, and you will be mentioned next time."
                )
            )
        else:
            lines.append(
                t.gettext("You have nothing more to do until the round ends; you will be mentioned then.")
            )
        file = (
            await self.render(
                session, mine, language=t.code, contrast=await self.person_contrast(interaction.user.id)
            )
            if session.status == "active"
            else None
        )
        await self.reply(interaction, "\n".join(lines), file=file)

    async def prefix_hint(self, interaction: discord.Interaction, text: str) -> Refusal | None:
        """When ``text`` is not a move but the start of several (an autocomplete group was
        sent as it is), say so and how to go on."""
        key = text.strip().lower()
        if not key:
            return None
        moves = await self.service.play.legal_moves(channel_of(interaction), interaction.user.id)
        starting = [m for m in moves if m.lower().startswith(key) and m.lower() != key]
        if len(starting) < 2:
            return None
        session = await self.service.core.in_channel(channel_of(interaction))
        name = session.info.name if session is not None else "<game>"
        return Refusal(
            "`{text}` is the start of {n} moves, not a move: keep typing in `/{game} move` (autocomplete "
            "lists them, e.g. `{example}`), or press Play under the board",
            text=text.strip(),
            n=len(starting),
            game=name,
            example=starting[0],
        )

    async def autocomplete(
        self,
        interaction: discord.Interaction,
        current: str,
        *,
        kinds: Sequence[str] = (),
        contains: str | None = None,
    ) -> list[app_commands.Choice[str]]:
        """Legal moves for the user in this channel, filtered by what they typed.

        ``kinds`` keeps moves starting with one of those prefixes and
        ``contains`` moves holding that text (either may match when both are
        given), so a command for one kind of move offers only those.  When more
        than 25 match, the groups come first (see :func:`bot.choices.complete`).
        """
        if interaction.channel_id is None:
            return []
        try:
            session = await self.service.core.in_channel(interaction.channel_id)
            if session is None or session.status != "active" or session.damaged:
                return []
            seat = session.seat_of(interaction.user.id)
            if seat is None or seat.seat is None or seat.computer:
                return []
            engine = session.engine
            moves = list(engine.legal_moves(session.state, seat.seat))
            if kinds or contains:
                low_kinds = tuple(k.lower() for k in kinds)
                moves = [
                    m
                    for m in moves
                    if (low_kinds and str(m).lower().startswith(low_kinds))
                    or (contains and contains in str(m))
                ]
            t = i18n.private(interaction)
            found = choices.entries(engine, session.state, seat.seat, moves, session.names(), t)
            pairs = choices.complete(found, current, lambda kind: choices.kind_label(engine, kind, t), t)
        except Exception:
            log.exception("autocomplete failed")
            return []
        return [app_commands.Choice(name=name, value=value[:100]) for name, value in pairs]

    async def private_picture(
        self, session: Session, user_id: int, language: str
    ) -> tuple[str, discord.File | None]:
        """A player's private view of ``session``, the picture drawn in ``language`` (the
        asker's: :func:`bot.i18n.private`), its words too."""
        t = language_of(language)
        reader = session.reader_of(user_id)
        if reader is None:
            seat = session.seat_of(user_id)
            if seat is not None and seat.resigned:  # the seat the computer plays is not theirs to read
                return (
                    t.gettext(
                        "You resigned from this game, so you follow it as everyone else does: the public "
                        "board is in the channel (/game board)."
                    ),
                    None,
                )
            return (
                t.gettext(
                    "You are not playing in this game; the public board is in the channel (/game board)."
                ),
                None,
            )
        file = await self.render(
            session, reader, language=language, contrast=await self.person_contrast(user_id)
        )
        if reader in session.to_move():
            text = t.gettext(
                "Your view of **{game}** (only you can see this). It is your turn.", game=session.info.title
            )
        else:
            text = t.gettext(
                "Your view of **{game}** (only you can see this). It is not your turn.",
                game=session.info.title,
            )
        summary = in_words(session.engine.summary(session.engine.view_for(session.state, reader)), t)
        if summary:
            summary = name_seats(summary, session.names())
        return (f"{text}\n{summary}" if summary else text), file

    async def show_current(self, interaction: discord.Interaction, session_id: int | None, why: str) -> None:
        """After a stale click: say so, and show the board as it is now with a fresh menu."""
        session = (
            await self.service.core.get(session_id)
            if session_id is not None
            else await self.service.core.in_channel(channel_of(interaction))
        )
        t = i18n.private(interaction)
        if session is None or session.status != "active" or session.damaged:
            await self.reply(
                interaction,
                t.gettext("⚠️ {refusal} The game is no longer running.", refusal=self.sentence(why, t)),
            )
            return
        await self.send_menu(
            interaction, session, t.gettext("⚠️ {refusal} Nothing was played.", refusal=self.sentence(why, t))
        )

    async def show_hand(self, interaction: discord.Interaction, session_id: int | None = None) -> None:
        async def work() -> None:
            session = (
                await self.session_for(interaction, session_id, running=True)
                if session_id is not None
                else await self.service.core.require(channel_of(interaction))
            )
            if session.status != "active":
                raise Refusal("that game is not running")
            t = i18n.private(interaction)
            text, file = await self.private_picture(session, interaction.user.id, t.code)
            view = discord.ui.View(timeout=None)
            view.add_item(HandButton(session.id, label=N_("Show again"), t=t))
            await self.reply(interaction, text, file=file, view=view)

        await self.guard(interaction, work)

    async def show_turn(self, interaction: discord.Interaction, session_id: int) -> None:
        """The Play button: the player's picture and menu, privately."""

        async def work() -> None:
            session = await self.session_for(interaction, session_id, running=True)
            seat = session.seat_of(interaction.user.id)
            if seat is None or seat.seat is None:
                raise NotSeated(NOT_SEATED)
            await self.send_menu(interaction, session, "")

        await self.guard(interaction, work)

    async def picked(self, interaction: discord.Interaction, session_id: int, stamp: str, value: str) -> None:
        """A choice on a private menu: play a move, open a group, or go back to every move."""
        if not on_private_menu(interaction):  # forged onto another message: never edit that one

            async def wrong_message() -> None:
                await self.session_for(interaction, session_id)  # another channel's game says so first
                raise Refusal(NOT_A_MENU)

            await self.guard(interaction, wrong_message, defer=False)
            return
        kind, _, rest = value.partition(":")
        if kind == "m":
            await self.play(interaction, rest, session_id=session_id, **expected(stamp), in_menu=True)
            return

        async def navigate() -> None:
            session = await self.session_for(interaction, session_id, running=True)
            await interaction.response.defer()
            seat = session.seat_of(interaction.user.id)
            if seat is None or seat.seat is None:
                raise NotSeated(NOT_SEATED)
            if "." not in stamp or stamp != await self.service.play.stamp(session, seat.seat):
                changed = i18n.private(interaction).gettext("the board changed since that menu was made")
                await self.show_current(interaction, session_id, changed)
                return
            opened = None
            if kind == "g":
                group_kind, _, group = rest.partition(":")
                opened = (group_kind, group)
            await self.send_menu(interaction, session, "", opened=opened)

        await self.guard(interaction, navigate, defer=False)


def expected(token: str) -> dict[str, Any]:
    """A component's token as what it expects: a menu's stamp (``7.3``), or the session's
    version on components posted before stamps (``12``)."""
    if "." in token:
        return {"expected_stamp": token}
    return {"expected_version": int(token)}


def channel_of(interaction: discord.Interaction) -> int:
    """The channel an interaction came from; every table action happens in one."""
    if interaction.channel_id is None:
        raise Refusal(SERVERS_ONLY)
    return interaction.channel_id


# ------------------------------------------------------------------ persistent components


def _table(interaction: discord.Interaction) -> Table:
    table = getattr(interaction.client, "table", None)
    if not isinstance(table, Table):
        raise RuntimeError("a component was clicked before the bot's table was set up")
    return table


TOKEN = r"(?P<ver>\d+(?:\.\d+)?)"


def menu_button(pick: Pick, session_id: int, stamp: str, t: Language = ENGLISH) -> discord.ui.Item:
    """A button of a private menu: a move, or the way back to every move (labelled in ``t``)."""
    if pick.value == "back":
        return NavButton(session_id, stamp, t)
    move = pick.value[2:]
    button = MoveButton(session_id, stamp, move, label=choices.cap(pick.label, choices.LABEL_LIMIT))
    if pick.ends:
        button.item.style = discord.ButtonStyle.primary
    return button


def palette(contrast: bool) -> dict[str, bool]:
    """The palette keyword of a renderer's ``render``: ``contrast=True`` only when asked for, so
    that a game whose renderer predates the high-contrast palette still draws its standard one."""
    return {"contrast": True} if contrast else {}


# Buttons are labelled in the language of the message they are sent on (a label is fixed when the
# message is sent); their custom_ids are the same in every language.
LOBBY_LABELS = {
    "join": (N_("Join"), discord.ButtonStyle.success),
    "leave": (N_("Leave"), discord.ButtonStyle.secondary),
    "cpu": (N_("Add computer"), discord.ButtonStyle.secondary),
    "start": (N_("Start"), discord.ButtonStyle.primary),
}


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"pk:lobby:(?P<action>join|leave|cpu|start):(?P<sid>\d+)",
):
    def __init__(self, session_id: int, action: str, t: Language = ENGLISH):
        label, style = LOBBY_LABELS[action]
        super().__init__(
            discord.ui.Button(
                label=t.gettext(label), style=style, custom_id=f"pk:lobby:{action}:{session_id}"
            )
        )
        self.session_id = session_id
        self.action = action

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["sid"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _table(interaction).lobby_action(interaction, self.session_id, self.action)


class TurnButton(discord.ui.DynamicItem[discord.ui.Button], template=r"pk:turn:(?P<sid>\d+)"):
    def __init__(self, session_id: int, t: Language = ENGLISH):
        super().__init__(
            discord.ui.Button(
                label=t.gettext("Play"), style=discord.ButtonStyle.primary, custom_id=f"pk:turn:{session_id}"
            )
        )
        self.session_id = session_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["sid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _table(interaction).show_turn(interaction, self.session_id)


class HandButton(discord.ui.DynamicItem[discord.ui.Button], template=r"pk:hand:(?P<sid>\d+)"):
    def __init__(self, session_id: int, label: str = N_("My view"), t: Language = ENGLISH):
        super().__init__(
            discord.ui.Button(
                label=t.gettext(label), style=discord.ButtonStyle.secondary, custom_id=f"pk:hand:{session_id}"
            )
        )
        self.session_id = session_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["sid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _table(interaction).show_hand(interaction, self.session_id)


class MoveButton(
    discord.ui.DynamicItem[discord.ui.Button], template=rf"pk:mv:(?P<sid>\d+):{TOKEN}:(?P<move>.+)"
):
    """A button that plays one move.  Its token is the menu's stamp (or, on buttons
    posted before stamps, the session's version)."""

    def __init__(self, session_id: int, token: int | str, move: str, label: str | None = None):
        custom_id = f"pk:mv:{session_id}:{token}:{move}"
        if len(custom_id) > 100:
            raise ValueError(f"move {move!r} is too long for a button")
        super().__init__(
            discord.ui.Button(
                label=(label or move)[: choices.LABEL_LIMIT],
                style=discord.ButtonStyle.secondary,
                custom_id=custom_id,
            )
        )
        self.session_id, self.token, self.move = session_id, str(token), move

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["sid"]), match["ver"], match["move"], item.label)

    async def callback(self, interaction: discord.Interaction) -> None:
        # On a private menu the answer replaces the menu; on a public message it is a new private reply.
        in_place = on_private_menu(interaction)
        await _table(interaction).play(
            interaction, self.move, session_id=self.session_id, **expected(self.token), in_menu=in_place
        )


class NavButton(discord.ui.DynamicItem[discord.ui.Button], template=rf"pk:nav:(?P<sid>\d+):{TOKEN}"):
    """Back from one kind or group of moves to the whole menu."""

    def __init__(self, session_id: int, token: str, t: Language = ENGLISH):
        super().__init__(
            discord.ui.Button(
                label=t.gettext("All moves"),
                style=discord.ButtonStyle.secondary,
                custom_id=f"pk:nav:{session_id}:{token}",
            )
        )
        self.session_id, self.token = session_id, str(token)

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["sid"]), match["ver"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _table(interaction).picked(interaction, self.session_id, self.token, "back")


class MoveSelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=rf"pk:pick:(?P<sid>\d+):{TOKEN}(?::(?P<idx>\d+))?",
):
    """A select of a private menu: moves (``m:<move>``) or groups to open (``g:<kind>:<group>``)."""

    def __init__(
        self,
        session_id: int,
        token: int | str,
        options: list[discord.SelectOption] | None = None,
        *,
        index: int = 0,
        placeholder: str = "",
        t: Language = ENGLISH,
    ):
        super().__init__(
            discord.ui.Select(
                custom_id=f"pk:pick:{session_id}:{token}:{index}",
                placeholder=placeholder[:150] or t.gettext("Choose your move"),
                options=options or [discord.SelectOption(label="-", value="-")],
            )
        )
        self.session_id, self.token = session_id, str(token)

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["sid"]), match["ver"], index=int(match["idx"] or 0))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = self.item.values  # discord.py fills the select from the interaction before this
        if not values:
            await interaction.response.send_message(
                i18n.private(interaction).gettext("Nothing was chosen."), ephemeral=True
            )
            return
        await _table(interaction).picked(interaction, self.session_id, self.token, values[0])


def jump_targets(current: int, shown: int, limit: int = CHOICE_LIMIT) -> list[int]:
    """What a history select offers of ``0..shown`` (moves, or turns by index): the first, the
    last, the current one and its neighbours, and the rest spread evenly (``limit`` at most)."""
    wanted = {0, shown, current}
    wanted.update(m for m in range(current - 2, current + 3) if 0 <= m <= shown)
    room = limit - len(wanted)
    if room > 0 and shown > 0:
        step = shown / (room + 1)
        wanted.update(round(step * i) for i in range(1, room + 1))
    return sorted(wanted)


HISTORY_LABELS = {
    "first": N_("⏮ First"),
    "back": N_("◀ Back 1"),
    "back10": N_("⏪ Back 10"),
    "next": N_("Forward ▶"),
    "last": N_("Last ⏭"),
}


class HistoryButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"pk:hist:(?P<sid>\d+):(?P<n>\d+):(?P<tag>first|back|back10|next|last)",
):
    """A history page's button: the move it goes to is in its ``custom_id``."""

    def __init__(self, session_id: int, number: int, tag: str, t: Language = ENGLISH):
        super().__init__(
            discord.ui.Button(
                label=t.gettext(HISTORY_LABELS[tag]),
                style=discord.ButtonStyle.secondary,
                custom_id=f"pk:hist:{session_id}:{number}:{tag}",
            )
        )
        self.session_id, self.number = session_id, number

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["sid"]), int(match["n"]), match["tag"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _table(interaction).show_history(interaction, self.session_id, self.number, in_place=True)


class HistorySelect(
    discord.ui.DynamicItem[discord.ui.Select], template=r"pk:histgo:(?P<sid>\d+)(?::(?P<idx>\d))?"
):
    """A history page's select: jump to a move (index 0), or to the start of a turn (index 1)."""

    def __init__(
        self,
        session_id: int,
        options: list[discord.SelectOption] | None = None,
        *,
        index: int = 0,
        placeholder: str = "",
        t: Language = ENGLISH,
    ):
        super().__init__(
            discord.ui.Select(
                custom_id=f"pk:histgo:{session_id}" + (f":{index}" if index else ""),
                placeholder=placeholder or t.gettext("Jump to a move"),
                options=options or [discord.SelectOption(label=t.gettext("The start"), value="0")],
            )
        )
        self.session_id = session_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["sid"]), index=int(match["idx"] or 0))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = self.item.values  # discord.py fills the select from the interaction before this
        table = _table(interaction)
        if len(values) != 1 or not values[0].isdigit() or len(values[0]) > 9:
            await table.guard(
                interaction,
                lambda: table.reply(
                    interaction, i18n.private(interaction).gettext("⚠️ Choose one move number from the list.")
                ),
            )
            return
        await table.show_history(interaction, self.session_id, int(values[0]), in_place=True)


class UndoButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"pk:undo:(?P<sid>\d+):(?P<ver>\d+):(?P<yes>yes|no)"
):
    """Agree to, or refuse, a request to take back moves (made when the game was at ``version``)."""

    def __init__(self, session_id: int, version: int, agree: bool, t: Language = ENGLISH):
        super().__init__(
            discord.ui.Button(
                label=t.gettext("Agree") if agree else t.gettext("Refuse"),
                style=discord.ButtonStyle.success if agree else discord.ButtonStyle.danger,
                custom_id=f"pk:undo:{session_id}:{version}:{'yes' if agree else 'no'}",
            )
        )
        self.session_id, self.version, self.agree = session_id, version, agree

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["sid"]), int(match["ver"]), match["yes"] == "yes")

    async def callback(self, interaction: discord.Interaction) -> None:
        await _table(interaction).answer_undo(interaction, self.session_id, self.version, self.agree)


class RematchButton(discord.ui.DynamicItem[discord.ui.Button], template=r"pk:rematch:(?P<sid>\d+)"):
    """Under a results card: a new game with the same players and options."""

    def __init__(self, session_id: int, t: Language = ENGLISH):
        super().__init__(
            discord.ui.Button(
                label=t.gettext("Rematch"),
                style=discord.ButtonStyle.primary,
                custom_id=f"pk:rematch:{session_id}",
            )
        )
        self.session_id = session_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["sid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _table(interaction).rematch(interaction, self.session_id)


DYNAMIC_ITEMS = (
    LobbyButton,
    TurnButton,
    HandButton,
    MoveButton,
    MoveSelect,
    NavButton,
    HistoryButton,
    HistorySelect,
    UndoButton,
    RematchButton,
    PrivateViewButton,
    TimeoutButton,
)

"""Lobbies: opening one (in its own thread where the channel allows), join, leave, computers, start.

A lobby message shows who is seated, with Join, Leave, Add computer and Start buttons
(:class:`LobbyButton`); the slash commands do the same.  Before a lobby opens and before a game
starts, the bot's own permissions in the channel are checked, so that a game never starts where
its board cannot be posted.  Imports: discord, :mod:`bot.public`, :mod:`bot.sessions`, and
:mod:`bot.surface` boards, buttons, channels, look, replies.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

import discord

from bot import i18n, texts
from bot.profiles import words as profile_words
from bot.sessions import MoveResult, Refusal, Session
from bot.surface import written
from bot.surface.boards import THREAD_AUTO_ARCHIVE_MINUTES, Boards
from bot.surface.buttons import Persistent, button
from bot.surface.channels import channel_of, check_permissions, clicked, opens_thread, reach_private_thread
from bot.surface.replies import Replies, part_of, reply
from engines.core import DEFAULT_LEVEL, echo, said
from languages import ENGLISH, N_, Language

log = logging.getLogger(__name__)


class Lobby:
    """The lobby messages and what their buttons and the lobby commands do."""

    def __init__(self, boards: Boards, replies: Replies):
        self.boards, self.replies, self.look = boards, replies, boards.look
        self.bot, self.service = boards.bot, boards.service

    async def text(self, session: Session, t: Language | None = None) -> str:
        """The lobby message, in ``t`` (a private answer: the asker's), else the server's language."""
        t = t or await self.look.language(session)
        text = texts.lobby_text(written.session(session), t)
        if session.status != "lobby":
            return text
        people = [
            (s.user_id, written.name(s.name))
            for s in session.seats
            if s.user_id is not None and not s.computer
        ]
        extra = await profile_words.lobby_lines(
            self.service.store, session.id, session.row.guild_id, people, t
        )
        return f"{text}\n{extra}" if extra else text

    def view(self, session: Session, t: Language = ENGLISH) -> discord.ui.View | None:
        """The lobby's buttons (labelled in ``t``, the server's language) while it is open; None
        (no buttons) once it is not."""
        return self.buttons(session, t) if session.status == "lobby" else None

    @staticmethod
    def buttons(session: Session, t: Language = ENGLISH) -> discord.ui.View:
        view = discord.ui.View(timeout=None)
        for action in ("join", "leave", "cpu", "start"):
            view.add_item(LobbyButton(session.id, action, t))
        return view

    async def refresh(self, session: Session | None, session_id: int | None = None) -> None:
        """Show the lobby (``session``, else the one of ``session_id``) as it is on its message."""
        if session is None and session_id is not None:
            session = await self.service.core.get(session_id)
        if session is not None:
            await self.show(session)

    async def show(self, session: Session) -> bool:
        """Show the lobby as it is on its message, edited through its channel; False when there is
        none, or Discord refused the edit (logged)."""
        if not session.row.lobby_message_id:
            return False
        where = session.row.lobby_channel_id or session.row.channel_id
        channel = self.bot.get_partial_messageable(where, guild_id=session.row.guild_id)
        t = await self.look.language(session)
        try:
            await channel.get_partial_message(session.row.lobby_message_id).edit(
                content=await self.text(session, t), view=self.view(session, t)
            )
        except discord.HTTPException:
            log.warning("could not update the lobby message of session %s", session.id, exc_info=True)
            return False
        return True

    async def open(
        self,
        interaction: discord.Interaction,
        game: str,
        options: Mapping[str, object],
        players: int | None = None,
        *,
        thread: bool = True,
        clock: str | None = None,
    ) -> None:
        """Open a lobby (``clock``: a clock spec, see :mod:`bot.time.gameclock`): in a text channel
        (with ``thread``) the lobby message goes to the channel and the game gets its own thread;
        elsewhere (``thread`` False, or inside a thread or a forum post) the game is played where
        the command was used.  Not deferred: the lobby message is the answer."""
        await self.service.lobby.check_host(interaction.guild_id, interaction.user.id)
        if thread and opens_thread(interaction):
            await self._open_in_thread(interaction, game, options, players, clock)
            return
        await reach_private_thread(interaction)
        check_permissions(interaction)
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
        self.replies.committed(
            interaction,
            said(
                "The {game} lobby is open (players can {/game join}, the host can {/game abandon} it)",
                game=session.info.title,
            ),
            lobby=True,
        )
        t = await self.look.language(session)
        sent = await interaction.response.send_message(
            await self.text(session, t), view=self.buttons(session, t)
        )
        await self.service.store.games.set_lobby_message(session.id, sent.message_id)

    async def _open_in_thread(
        self,
        interaction: discord.Interaction,
        game: str,
        options: Mapping[str, object],
        players: int | None,
        clock: str | None = None,
    ) -> None:
        """The lobby message in this channel, and a public thread started from it for the game
        (the thread has the message's id, so the session is created for it before it exists).  The
        answer's edit into the lobby refused, the message is edited through its channel (as
        :meth:`refresh` does, :meth:`show`); the thread gets its welcome either way."""
        check_permissions(interaction, for_thread=True)
        info, _, _ = self.service.lobby.check_new(game, options, players)
        self.service.core.check_clock(clock)
        host = interaction.user
        t = await i18n.server(self.bot, self.service.store, interaction.guild_id)
        sent = await interaction.response.send_message(
            texts.opening_text(info.title, written.name(host.display_name), t)
        )
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
        self.replies.committed(
            interaction,
            said(
                "The {game} lobby is open (players can {/game join} in its thread, where the host can "
                "{/game abandon} it)",
                game=info.title,
            ),
            lobby=True,
        )
        parent = self.bot.get_partial_messageable(parent_id, guild_id=interaction.guild_id)
        try:
            opened = await parent.get_partial_message(message_id).create_thread(
                name=texts.thread_name(info.title, session.id, host.display_name),
                auto_archive_duration=THREAD_AUTO_ARCHIVE_MINUTES,
            )
        except discord.HTTPException as exc:
            log.warning("could not open the thread of session %s: %s", session.id, exc)
            await self.service.lobby.close_lobby(session.id, "its thread could not be opened")
            if isinstance(exc, discord.Forbidden):
                text = t.gettext(
                    "No game was opened: Discord refused to open its thread (missing permissions). "
                    "Try again, or use {/<game> new thread:} False to play in this channel."
                )
            else:
                text = t.gettext(
                    "No game was opened: Discord refused to open its thread (error {status}). "
                    "Try again, or use {/<game> new thread:} False to play in this channel.",
                    status=exc.status,
                )
            await interaction.edit_original_response(content=text, view=None)
            return
        session = await self.service.core.get(session.id) or session
        refused: discord.HTTPException | None = None
        try:
            await interaction.edit_original_response(
                content=await self.text(session, t), view=self.view(session, t)
            )
        except discord.HTTPException as exc:  # (too late, say): the same message, by its channel
            log.warning("could not answer with the lobby of session %s: %s", session.id, exc)
            if not await self.show(session):
                refused = exc  # (a message deleted meanwhile): the thread still takes /game join
        # the lobby is stored and its thread open: the thread is welcomed whatever its message shows
        await opened.send(
            texts.thread_welcome(written.session(session), t) + await self.look.page_line(session, t),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        if refused is not None:
            raise refused

    async def rename_thread(self, session: Session) -> None:
        """A game's own thread is named after the host who opened its lobby; when that host left and
        the lobby passed to the next person seated, the thread takes the new host's name once, as the
        game starts.  Discord lets a channel be renamed twice in 10 minutes, and a thread's game
        starts once, so this one rename never meets that limit.  A thread renamed by hand (no
        longer "<game> #<number> · ...") keeps its name."""
        row = session.row
        if row.lobby_channel_id is None or row.lobby_message_id != row.channel_id:
            return  # played in the channel where it was opened, or in a thread it did not open
        title = session.info.title
        wanted = texts.thread_name(title, session.id, texts.host_name(session))
        try:
            thread = self.bot.get_channel(row.channel_id) or await self.bot.fetch_channel(row.channel_id)
            if not isinstance(thread, discord.Thread) or thread.name == wanted:
                return
            if thread.name.startswith(texts.thread_name(title, session.id, "")):
                await thread.edit(name=wanted)
        except discord.HTTPException:  # the game has started all the same; only the name is old
            log.warning("could not rename the thread of session %s", session.id, exc_info=True)

    async def tell_host_full(self, session: Session, actor_id: int) -> None:
        """Ping the host when someone else takes the last seat."""
        if session.status != "lobby" or len(session.seats) < session.row.max_players:
            return
        if actor_id == session.row.host_id:
            return
        channel = self.look.channel(session)
        try:
            await channel.send(
                texts.full_table_text(written.session(session), await self.look.language(session)),
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(session.row.host_id)]
                ),
            )
        except discord.HTTPException:  # the seat is taken all the same; the lobby message says so
            log.warning("could not tell the host of session %s that the table is full", session.id)

    async def act(
        self,
        interaction: discord.Interaction,
        session_id: int | None,
        action: str,
        *,
        from_button: bool = True,
        level: str = DEFAULT_LEVEL,
    ) -> None:
        """Join, leave, add a computer (at ``level``) or start, from a lobby button or a slash
        command (the button is not deferred: it edits the lobby message)."""
        channel_id = channel_of(interaction)
        session: Session | None = None  # None once the last person has left the lobby
        if session_id is not None:
            session = await clicked(self.service, interaction, session_id)
            if not session.row.live:
                raise Refusal("this lobby is closed")
            channel_id = session.row.channel_id  # a lobby button in the parent of the game's thread
        user = interaction.user
        mine = i18n.private(interaction)
        result: MoveResult | None = None
        if action == "join":
            session = await self.service.lobby.join(channel_id, user.id, user.display_name)
            note = mine.gettext("{player} joined.", player=written.name(user.display_name))
        elif action == "leave":
            session = await self.service.lobby.leave(channel_id, user.id)
            note = mine.gettext("{player} left.", player=written.name(user.display_name))
        elif action == "cpu":
            session = await self.service.lobby.add_computer(channel_id, user.id, level)
            note = mine.gettext(
                "{player} added a computer player ({level}).",
                player=written.name(user.display_name),
                level=mine.gettext(level),  # the level's name, as the lobby shows it (texts.py)
            )
        elif action == "start":
            # From the lobby message in the parent channel, the board goes to the game's thread.
            check_permissions(interaction, for_thread=channel_id != interaction.channel_id)
            if (
                from_button
                and session is not None
                and session_id is not None
                and any(s.computer for s in session.seats)
            ):
                # computers may think before the first board: answer Discord in time
                await interaction.response.defer()
            result = await self.service.lobby.start(channel_id, user.id, posted=True)
            session = result.session
            note = mine.gettext("The game has started.")
            self.replies.committed(interaction, said("The game has started"))
        else:
            raise Refusal("unknown lobby action {action}", action=echo(action))
        try:  # the answer may be refused (too late, its message deleted): a started game begins all the same
            closed = await self.answer(interaction, session, session_id, note, from_button)
        finally:
            if result is not None:
                await self.boards.announce(result, header=await self.boards.begins(result.session))
                await self.rename_thread(result.session)
        if result is not None or closed:
            return
        if session is None:
            await self.refresh(None, session_id)
        elif action in ("join", "cpu"):
            await self.tell_host_full(session, user.id)

    async def answer(
        self,
        interaction: discord.Interaction,
        session: Session | None,
        session_id: int | None,
        note: str,
        from_button: bool,
    ) -> bool:
        """Answer a lobby action: a click on the lobby message edits it, anything else refreshes it
        and answers privately with ``note``; True when the click closed the lobby's message."""
        if (
            from_button
            and interaction.message is not None
            # the lobby message; one not recorded yet (clicked as Discord answered its post) is it too
            and (session is None or session.row.lobby_message_id in (None, interaction.message.id))
        ):
            if session is None:  # closed by the last person leaving: the lobby as it ended
                closed = await self.service.core.get(session_id) if session_id is not None else None
                text = await self.text(closed) if closed is not None else None
                if text is None:
                    server = await i18n.server(self.bot, self.service.store, interaction.guild_id)
                    text = server.gettext("This lobby is closed: everyone left.")
                await interaction.response.edit_message(content=text, view=None)
                return True
            t = await self.look.language(session)
            content, view = await self.text(session, t), self.view(session, t)
            if interaction.response.is_done():
                await interaction.edit_original_response(content=content, view=view)
            else:
                await interaction.response.edit_message(content=content, view=view)
        elif session is None:
            await reply(interaction, i18n.private(interaction).gettext("You left; the lobby is closed."))
        else:
            await self.refresh(session)
            await reply(interaction, note)
        return False


# Buttons are labelled in the language of the message they are sent on (a label is fixed when the
# message is sent); their custom_ids are the same in every language.
LOBBY_LABELS = {
    "join": (N_("Join"), discord.ButtonStyle.success),
    "leave": (N_("Leave"), discord.ButtonStyle.secondary),
    "cpu": (N_("Add computer"), discord.ButtonStyle.secondary),
    "start": (N_("Start"), discord.ButtonStyle.primary),
}


class LobbyButton(
    Persistent[discord.ui.Button],
    template=r"pk:lobby:(?P<action>join|leave|cpu|start):(?P<session_id>\d+)",
):
    defer = False  # the answer edits the lobby message
    session_id: int
    action: str

    def __init__(self, session_id: int, action: str, t: Language = ENGLISH):
        label, style = LOBBY_LABELS[action]
        super().__init__(
            button(label, f"pk:lobby:{action}:{session_id}", style, t), session_id=session_id, action=action
        )

    async def clicked(self, interaction: discord.Interaction) -> None:
        await part_of(interaction, Lobby).act(interaction, self.session_id, self.action)

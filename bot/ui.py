"""The Discord side of the table, shared by every game's cog.

:class:`Table` turns the session service's records into messages.  The
channel gets one post per turn: when a turn (or a simultaneous round) ends,
the board image, everything public that happened since the last post, read
from the move log through :mod:`bot.public`, and a mention of whoever acts
next; the previous board loses its buttons, so the channel shows one live
board.  Steps inside a turn are confirmed to their player alone, on the same
private message, which shows the new private picture and the next menu until
the turn ends (a message with components v2, to hold a menu of many moves).

Computer turns that follow a person's move are told in the same post as that
move: they are played at once, so separate posts would arrive in the same
second, each with a board nobody acts on, and a table with several computers
would run into Discord's five messages per five seconds in a channel.  The
post's mention goes to the next person.

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
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot import choices, public
from bot.choices import CHOICE_LIMIT, Control, Pick, group_moves
from bot.public import MESSAGE_LIMIT, clip, ordinal
from bot.sessions import (
    MoveResult,
    NotSeated,
    RatingChange,
    Session,
    SessionService,
    StaleMove,
    TableError,
    damaged_text,
)
from bot.storage import fits
from engines.core import MoveError, Outcome, plural

if TYPE_CHECKING:
    from bot.app import TableBot

log = logging.getLogger(__name__)

UNEXPECTED = "Something went wrong on our side; the game is unchanged. The error has been logged."
MENTIONS = discord.AllowedMentions(everyone=False, roles=False, users=True)
SERVERS_ONLY = "Pukllay's games are played in a server's channels; use its commands there."

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


def in_thread(interaction: discord.Interaction) -> bool:
    channel = interaction.channel
    return isinstance(channel, discord.Thread) or getattr(channel, "type", None) in (
        discord.ChannelType.public_thread,
        discord.ChannelType.private_thread,
        discord.ChannelType.news_thread,
    )


def missing_permissions(interaction: discord.Interaction) -> list[str]:
    """The permissions the bot lacks in the interaction's channel, by name (Discord sends
    the bot's permissions there with every interaction)."""
    have = interaction.app_permissions
    needed = NEEDED_IN_THREADS if in_thread(interaction) else NEEDED
    return [name for attr, name in needed if not getattr(have, attr)]


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


class Table:
    """Shared presentation and interaction handling for every game."""

    def __init__(self, bot: TableBot, service: SessionService):
        self.bot = bot
        self.service = service
        self._busy = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self._recorded: dict[int, str] = {}  # interaction id -> what it committed, while handled
        # One board post at a time per game, so that two posts never tell the same moves.
        self._post_locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    def committed(self, interaction: discord.Interaction, what: str) -> None:
        """Note that ``interaction`` changed a game (``what``: "Your move `B3` was recorded").

        From then on a failure while answering or posting is reported as "``what``, but
        ..." with a way to post the board again, never as "the game is unchanged".
        """
        self._recorded[interaction.id] = what

    async def drain(self, *, seconds: float = 10.0) -> bool:
        """Wait for interactions being handled to finish (at shutdown); False if some never did."""
        try:
            async with asyncio.timeout(seconds):
                await self._idle.wait()
        except TimeoutError:
            return False
        return True

    # ------------------------------------------------------------- rendering

    async def render(
        self, session: Session, seat: int | None = None, last_action: str | None = None
    ) -> discord.File | None:
        renderer = session.info.load_renderer()
        if renderer is None or session.state is None:
            return None
        view = session.engine.view_for(session.state, seat)
        names = session.names()
        png = await asyncio.to_thread(renderer.render, view, names=names, last_action=last_action)
        name = (
            f"{session.info.name}-{session.id}-v{session.version}{'-private' if seat is not None else ''}.png"
        )
        return discord.File(io.BytesIO(png), filename=name)

    def board_view(self, session: Session) -> discord.ui.View | None:
        if session.status != "active":
            return None
        view = discord.ui.View(timeout=None)
        view.add_item(TurnButton(session.id))
        view.add_item(HandButton(session.id))
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
        note: str | None = None,
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
            session = await self.service.get(session.id) or session
            records = await self.service.untold(session)
            text = public.board_text(
                session, records, header=header, note=note, outcome=outcome, ratings=ratings, ping=ping
            )
            channel = self.bot.get_partial_messageable(session.row.channel_id, guild_id=session.row.guild_id)
            file = await self.render(session, last_action=public.last_action(session, records))
            kwargs: dict[str, Any] = {"content": text, "allowed_mentions": MENTIONS}
            if file is not None:
                kwargs["file"] = file
            view = self.board_view(session)
            if view is not None:
                kwargs["view"] = view
            message = await channel.send(**kwargs)
            through = max([r.number for r in records if r.number is not None], default=0)
            old = await self.service.told(session, message.id, max(through, session.row.told_through))
            if old is not None and old != message.id:
                await self.strip_buttons(session, old)
            return message

    async def strip_buttons(self, session: Session, message_id: int) -> None:
        """Take the buttons off an old board (the channel shows one live board)."""
        channel = self.bot.get_partial_messageable(session.row.channel_id, guild_id=session.row.guild_id)
        try:
            await channel.get_partial_message(message_id).edit(view=None)
        except discord.HTTPException:
            log.warning("could not take the buttons off board %s of session %s", message_id, session.id)

    async def announce(self, result: MoveResult, header: str | None = None) -> discord.Message:
        return await self.post_board(
            result.session,
            header=header,
            note=result.note,
            outcome=result.outcome,
            ratings=result.ratings,
            ping=result.turn_ended or header is not None,
        )

    # ------------------------------------------------------------- lobbies

    def lobby_text(self, session: Session) -> str:
        return public.lobby_text(session)

    def lobby_view(self, session: Session) -> discord.ui.View | None:
        """The lobby's buttons while it is open; None (no buttons) once it is not."""
        return self.lobby_buttons(session) if session.status == "lobby" else None

    @staticmethod
    def lobby_buttons(session: Session) -> discord.ui.View:
        view = discord.ui.View(timeout=None)
        for action in ("join", "leave", "cpu", "start"):
            view.add_item(LobbyButton(session.id, action))
        return view

    async def refresh_lobby(self, session: Session | None, session_id: int | None = None) -> None:
        if session is None and session_id is not None:
            session = await self.service.get(session_id)
        if session is None or not session.row.lobby_message_id:
            return
        channel = self.bot.get_partial_messageable(session.row.channel_id, guild_id=session.row.guild_id)
        try:
            await channel.get_partial_message(session.row.lobby_message_id).edit(
                content=self.lobby_text(session), view=self.lobby_view(session)
            )
        except discord.HTTPException:
            log.warning("could not update the lobby message of session %s", session.id, exc_info=True)

    async def open_lobby(
        self,
        interaction: discord.Interaction,
        game: str,
        options: dict[str, Any],
        players: int | None = None,
    ) -> None:
        async def work() -> None:
            self.check_permissions(interaction)
            session = await self.service.create(
                game,
                guild_id=interaction.guild_id,
                channel_id=channel_of(interaction),
                host_id=interaction.user.id,
                host_name=interaction.user.display_name,
                options=options,
                max_players=players,
            )
            self.committed(
                interaction,
                f"The {session.info.title} lobby is open (players can /game join, the host can /game abandon it)",
            )
            sent = await interaction.response.send_message(
                self.lobby_text(session), view=self.lobby_buttons(session)
            )
            await self.service.store.set_lobby_message(session.id, sent.message_id)

        await self.guard(interaction, work, defer=False)

    @staticmethod
    def check_permissions(interaction: discord.Interaction) -> None:
        """Refuse, naming them, when the bot lacks permissions it needs in this channel."""
        missing = missing_permissions(interaction)
        if missing:
            where = "this thread" if in_thread(interaction) else "this channel"
            raise TableError(
                f"I am missing {', '.join(missing)} in {where}; a server admin can grant "
                f"{'it' if len(missing) == 1 else 'them'} to my role (or open the game in another channel)"
            )

    async def session_for(
        self, interaction: discord.Interaction, session_id: int, *, running: bool = False
    ) -> Session:
        """The session a button or menu names, refused unless it belongs to the channel
        the click came from (a forged or copied ``custom_id`` changes nothing)."""
        session = await self.service.get(session_id) if fits(session_id) else None
        if session is None or session.row.channel_id != interaction.channel_id:
            raise TableError("this button does not belong to a game in this channel")
        if running and session.status != "active":
            raise TableError("that game is not running")
        if session.damaged:
            raise TableError(damaged_text(session))
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
                public.full_table_text(session),
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
    ) -> None:
        """Join, leave, add a computer or start, from a lobby button or a slash command."""

        async def work() -> None:
            channel_id = channel_of(interaction)
            session: Session | None = None  # None once the last person has left the lobby
            if session_id is not None:
                session = await self.session_for(interaction, session_id)
                if not session.row.live:
                    raise TableError("this lobby is closed")
            user = interaction.user
            result: MoveResult | None = None
            if action == "join":
                session = await self.service.join(channel_id, user.id, user.display_name)
                note = f"{user.display_name} joined."
            elif action == "leave":
                session = await self.service.leave(channel_id, user.id)
                note = f"{user.display_name} left."
            elif action == "cpu":
                session = await self.service.add_computer(channel_id, user.id)
                note = f"{user.display_name} added a computer player."
            elif action == "start":
                self.check_permissions(interaction)
                result = await self.service.start(channel_id, user.id)
                session = result.session
                note = "The game has started."
                self.committed(interaction, "The game has started")
            else:
                raise TableError(f"unknown lobby action {action!r}")
            if (
                from_button
                and interaction.message is not None
                and (session is None or interaction.message.id == session.row.lobby_message_id)
            ):
                if session is None:
                    await interaction.response.edit_message(
                        content="This lobby is closed: everyone left.", view=None
                    )
                else:
                    await interaction.response.edit_message(
                        content=self.lobby_text(session), view=self.lobby_view(session)
                    )
            else:
                if session is None:
                    await self.reply(interaction, "You left; the lobby is closed.")
                else:
                    await self.refresh_lobby(session)
                    await self.reply(interaction, note)
            if result is not None:
                await self.announce(
                    result,
                    header=f"**{result.session.info.title}** begins! Seats in play order: "
                    + ", ".join(f"{i + 1}. {n}" for i, n in enumerate(result.session.names())),
                )
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
                await self.reply(interaction, SERVERS_ONLY)
                return
            if defer and not interaction.response.is_done():
                await interaction.response.defer(ephemeral=True, thinking=True)
            await work()
        except (TableError, MoveError) as exc:
            await self.reply(interaction, f"⚠️ {self.sentence(str(exc))}")
        except Exception as exc:
            recorded = self._recorded.get(interaction.id)
            if recorded is not None and isinstance(exc, discord.HTTPException):
                log.warning("Discord refused a message after a change was recorded: %s", exc)
            else:
                log.exception("unexpected error handling %s", interaction.data)
            try:
                await self.reply(interaction, self.failure_text(recorded, exc))
            except discord.HTTPException:
                log.warning("could not tell the user about the error", exc_info=True)
        finally:
            self._recorded.pop(interaction.id, None)
            self._busy -= 1
            if not self._busy:
                self._idle.set()

    @staticmethod
    def failure_text(recorded: str | None, exc: BaseException) -> str:
        """What to say when something failed: "unchanged" only if nothing was committed."""
        if recorded is None:
            return UNEXPECTED
        if isinstance(exc, discord.Forbidden):
            why = "Discord refused to let me post here (missing permissions)"
        elif isinstance(exc, discord.HTTPException):
            why = f"Discord refused the message ({exc.status})"
        else:
            why = "something went wrong showing it (the error has been logged)"
        return f"⚠️ {recorded}, but {why}. Once that is fixed, /game board posts the board again."

    @staticmethod
    def sentence(text: str) -> str:
        text = text.strip()
        if not text:
            return "That was not accepted."
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
    ) -> discord.ui.LayoutView:
        """A private message with components v2: the text, the picture, then the menu."""
        view = discord.ui.LayoutView(timeout=None)
        view.add_item(discord.ui.TextDisplay(clip(text)))
        if file is not None:
            view.add_item(discord.ui.MediaGallery(discord.MediaGalleryItem(f"attachment://{file.filename}")))
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
                select = MoveSelect(session_id, stamp, options, index=index, placeholder=control.placeholder)
                view.add_item(discord.ui.ActionRow(select))
            else:
                view.add_item(
                    discord.ui.ActionRow(*(menu_button(p, session_id, stamp) for p in control.picks))
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

    # ------------------------------------------------------------- menus

    async def menu(
        self, session: Session, seat: int, opened: tuple[str, str] | None = None
    ) -> tuple[list[Control], str, int]:
        """The private menu of ``seat``'s legal moves (``opened``: one kind or group), its stamp,
        and how many moves it offers."""
        engine = session.engine
        moves = list(engine.legal_moves(session.state, seat))
        found = choices.entries(engine, session.state, seat, moves, session.names())
        controls = choices.plan_menu(
            engine.KINDS, lambda kind: choices.kind_label(engine, kind), found, opened=opened
        )
        return controls, await self.service.stamp(session, seat), len(moves)

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
        picture, file = await self.private_picture(session, interaction.user.id)
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
            controls, stamp, count = await self.menu(session, seat.seat, opened)
            if controls:
                text += (
                    f"\nPick a move below ({plural(count, 'legal move')}), or type "
                    f"`/{session.info.name} move` to search them all."
                )
        await self.reply(
            interaction,
            text,
            view=self.layout(text, file, controls, session_id=session.id, stamp=stamp),
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
                    found = await self.service.require(channel_of(interaction))
                    sid = found.id
                else:
                    sid = session_id
                result = await self.service.play_in(
                    sid,
                    interaction.user.id,
                    text,
                    expected_version=expected_version,
                    expected_stamp=expected_stamp,
                )
            except StaleMove as exc:
                await self.show_current(interaction, session_id, str(exc))
                return
            except MoveError as exc:
                hint = await self.prefix_hint(interaction, text)
                if hint is not None:
                    raise TableError(hint) from exc
                raise
            self.committed(interaction, f"Your move `{text}` was recorded")
            session = result.session
            try:
                if public.has_public_news(session, result):
                    await self.announce(result)
            except discord.HTTPException:
                log.warning("board for session %s not posted", session.id, exc_info=True)
                await self.reply(
                    interaction,
                    f"Your move `{text}` was recorded, but Discord refused the board image; "
                    "use /game board to post it again.",
                )
                return
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
        lines = [f"You played `{text}`."] + public.own_lines(session, result.played, mine)
        acting = session.status == "active" and mine in session.to_move()
        if acting and result.turn_ended:  # the computers played their turns at once: say what they did
            others = [r for r in result.played if r.seat != mine]
            lines += (
                ["Your turn is over; then:"]
                + public.turn_lines(session, others, reader=mine)
                + ["It is your turn again."]
            )
        if acting and in_menu:
            await self.send_menu(interaction, session, "\n".join(lines))
            return
        if acting:
            lines.append("Play on, or press Play under the board for a menu.")
        elif session.status != "active":
            lines.append("The game is over: the result is in the channel.")
        elif result.turn_ended:
            lines.append(
                "Your turn is over: the board is in the channel, and you will be mentioned next time."
            )
        else:
            lines.append("You have nothing more to do until the round ends; you will be mentioned then.")
        file = await self.render(session, mine) if session.status == "active" else None
        await self.reply(interaction, "\n".join(lines), file=file)

    async def prefix_hint(self, interaction: discord.Interaction, text: str) -> str | None:
        """When ``text`` is not a move but the start of several (an autocomplete group was
        sent as it is), say so and how to go on."""
        key = text.strip().lower()
        if not key:
            return None
        moves = await self.service.legal_moves(channel_of(interaction), interaction.user.id)
        starting = [m for m in moves if m.lower().startswith(key) and m.lower() != key]
        if len(starting) < 2:
            return None
        session = await self.service.in_channel(channel_of(interaction))
        name = session.info.name if session is not None else "<game>"
        return (
            f"`{text.strip()}` is the start of {plural(len(starting), 'move')}, not a move: keep typing in "
            f"`/{name} move` (autocomplete lists them, e.g. `{starting[0]}`), or press Play under the board"
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
            session = await self.service.in_channel(interaction.channel_id)
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
            found = choices.entries(engine, session.state, seat.seat, moves, session.names())
            pairs = choices.complete(found, current, lambda kind: choices.kind_label(engine, kind))
        except Exception:
            log.exception("autocomplete failed")
            return []
        return [app_commands.Choice(name=name, value=value[:100]) for name, value in pairs]

    async def private_picture(self, session: Session, user_id: int) -> tuple[str, discord.File | None]:
        seat = session.seat_of(user_id)
        if seat is None or seat.seat is None:
            return "You are not playing in this game; the public board is in the channel (/game board).", None
        file = await self.render(session, seat.seat)
        turn = "It is your turn." if seat.seat in session.to_move() else "It is not your turn."
        text = f"Your view of **{session.info.title}** (only you can see this). {turn}"
        summary = session.engine.summary(session.engine.view_for(session.state, seat.seat))
        return (f"{text}\n{summary}" if summary else text), file

    async def show_current(self, interaction: discord.Interaction, session_id: int | None, why: str) -> None:
        """After a stale click: say so, and show the board as it is now with a fresh menu."""
        session = (
            await self.service.get(session_id)
            if session_id is not None
            else await self.service.in_channel(channel_of(interaction))
        )
        if session is None or session.status != "active" or session.damaged:
            await self.reply(interaction, f"⚠️ {self.sentence(why)} The game is no longer running.")
            return
        await self.send_menu(interaction, session, f"⚠️ {self.sentence(why)} Nothing was played.")

    async def show_hand(self, interaction: discord.Interaction, session_id: int | None = None) -> None:
        async def work() -> None:
            session = (
                await self.session_for(interaction, session_id, running=True)
                if session_id is not None
                else await self.service.require(channel_of(interaction))
            )
            if session.status != "active":
                raise TableError("that game is not running")
            text, file = await self.private_picture(session, interaction.user.id)
            view = discord.ui.View(timeout=None)
            view.add_item(HandButton(session.id, label="Show again"))
            await self.reply(interaction, text, file=file, view=view)

        await self.guard(interaction, work)

    async def show_turn(self, interaction: discord.Interaction, session_id: int) -> None:
        """The Play button: the player's picture and menu, privately."""

        async def work() -> None:
            session = await self.session_for(interaction, session_id, running=True)
            seat = session.seat_of(interaction.user.id)
            if seat is None or seat.seat is None:
                raise TableError("you are not playing in this game")
            await self.send_menu(interaction, session, "")

        await self.guard(interaction, work)

    async def picked(self, interaction: discord.Interaction, session_id: int, stamp: str, value: str) -> None:
        """A choice on a private menu: play a move, open a group, or go back to every move."""
        kind, _, rest = value.partition(":")
        if kind == "m":
            await self.play(interaction, rest, session_id=session_id, **expected(stamp), in_menu=True)
            return

        async def navigate() -> None:
            session = await self.session_for(interaction, session_id, running=True)
            await interaction.response.defer()
            seat = session.seat_of(interaction.user.id)
            if seat is None or seat.seat is None:
                raise TableError("you are not playing in this game")
            if "." not in stamp or stamp != await self.service.stamp(session, seat.seat):
                await self.show_current(interaction, session_id, "the board changed since that menu was made")
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
        raise TableError(SERVERS_ONLY)
    return interaction.channel_id


# ------------------------------------------------------------------ persistent components


def _table(interaction: discord.Interaction) -> Table:
    table = getattr(interaction.client, "table", None)
    if not isinstance(table, Table):
        raise RuntimeError("a component was clicked before the bot's table was set up")
    return table


TOKEN = r"(?P<ver>\d+(?:\.\d+)?)"


def menu_button(pick: Pick, session_id: int, stamp: str) -> discord.ui.Item:
    """A button of a private menu: a move, or the way back to every move."""
    if pick.value == "back":
        return NavButton(session_id, stamp)
    move = pick.value[2:]
    button = MoveButton(session_id, stamp, move, label=choices.cap(pick.label, choices.LABEL_LIMIT))
    if pick.ends:
        button.item.style = discord.ButtonStyle.primary
    return button


LOBBY_LABELS = {
    "join": ("Join", discord.ButtonStyle.success),
    "leave": ("Leave", discord.ButtonStyle.secondary),
    "cpu": ("Add computer", discord.ButtonStyle.secondary),
    "start": ("Start", discord.ButtonStyle.primary),
}


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"pk:lobby:(?P<action>join|leave|cpu|start):(?P<sid>\d+)",
):
    def __init__(self, session_id: int, action: str):
        label, style = LOBBY_LABELS[action]
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=f"pk:lobby:{action}:{session_id}")
        )
        self.session_id = session_id
        self.action = action

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["sid"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _table(interaction).lobby_action(interaction, self.session_id, self.action)


class TurnButton(discord.ui.DynamicItem[discord.ui.Button], template=r"pk:turn:(?P<sid>\d+)"):
    def __init__(self, session_id: int):
        super().__init__(
            discord.ui.Button(
                label="Play", style=discord.ButtonStyle.primary, custom_id=f"pk:turn:{session_id}"
            )
        )
        self.session_id = session_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["sid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _table(interaction).show_turn(interaction, self.session_id)


class HandButton(discord.ui.DynamicItem[discord.ui.Button], template=r"pk:hand:(?P<sid>\d+)"):
    def __init__(self, session_id: int, label: str = "My view"):
        super().__init__(
            discord.ui.Button(
                label=label, style=discord.ButtonStyle.secondary, custom_id=f"pk:hand:{session_id}"
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
        in_place = interaction.message is not None and interaction.message.flags.ephemeral
        await _table(interaction).play(
            interaction, self.move, session_id=self.session_id, **expected(self.token), in_menu=in_place
        )


class NavButton(discord.ui.DynamicItem[discord.ui.Button], template=rf"pk:nav:(?P<sid>\d+):{TOKEN}"):
    """Back from one kind or group of moves to the whole menu."""

    def __init__(self, session_id: int, token: str):
        super().__init__(
            discord.ui.Button(
                label="All moves",
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
        placeholder: str = "Choose your move",
    ):
        super().__init__(
            discord.ui.Select(
                custom_id=f"pk:pick:{session_id}:{token}:{index}",
                placeholder=placeholder[:150] or "Choose your move",
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
            await interaction.response.send_message("Nothing was chosen.", ephemeral=True)
            return
        await _table(interaction).picked(interaction, self.session_id, self.token, values[0])


DYNAMIC_ITEMS = (LobbyButton, TurnButton, HandButton, MoveButton, MoveSelect, NavButton)

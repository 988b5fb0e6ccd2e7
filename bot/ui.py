"""The Discord side of the table, shared by every game's cog.

:class:`Table` turns the session service's records into messages: the board
image with a line or two on what happened and a mention of whoever acts next,
lobbies with buttons, private pictures sent ephemerally, and refusals in plain
words.  The buttons and selects are :class:`discord.ui.DynamicItem` classes
whose ``custom_id`` carries the session (and, for moves, the version), so they
keep working after a restart and a stale click is recognised; a click whose
session belongs to another channel (a forged ``custom_id``) is refused.  What
each reader may see is decided in :mod:`bot.public`; this module only sends it.

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
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot import public
from bot.choices import CHOICE_LIMIT, cell_grid, group_moves
from bot.public import MESSAGE_LIMIT, clip, ordinal
from bot.sessions import MoveResult, Session, SessionService, StaleMove, TableError, damaged_text
from bot.storage import fits
from engines.core import DEFAULT_LEVEL, MoveError, Outcome

if TYPE_CHECKING:
    from bot.app import PukllayBot

log = logging.getLogger(__name__)

UNEXPECTED = "Something went wrong on our side; the game is unchanged. The error has been logged."
MENTIONS = discord.AllowedMentions(everyone=False, roles=False, users=True)
SERVERS_ONLY = "Pukllay's games are played in a server's channels; use its commands there."

__all__ = [
    "CHOICE_LIMIT",
    "DYNAMIC_ITEMS",
    "MESSAGE_LIMIT",
    "Table",
    "cell_grid",
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


class Table:
    """Shared presentation and interaction handling for every game."""

    def __init__(self, bot: PukllayBot, service: SessionService):
        self.bot = bot
        self.service = service
        self._busy = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self._recorded: dict[int, str] = {}  # interaction id -> what it committed, while handled

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

    # The texts come from bot.public, the one place that decides what each reader sees.

    def next_line(self, session: Session, already: frozenset[int] = frozenset()) -> str:
        return public.next_line(session, already)

    def outcome_lines(self, session: Session, outcome: Outcome | None) -> list[str]:
        return public.outcome_lines(session, outcome)

    def event_lines(
        self, session: Session, result: MoveResult, seat: int | None = None, limit: int = 12
    ) -> list[str]:
        return public.event_lines(session, result.played, seat, channel=seat is None, limit=limit)

    def public_text(self, session: Session, result: MoveResult | None, header: str | None = None) -> str:
        return public.channel_text(session, result, header)

    @staticmethod
    def has_public_news(result: MoveResult) -> bool:
        """Whether anything the channel may see happened (a quiet private move is
        confirmed to its player alone; the channel hears when something public happens)."""
        return public.has_public_news(result.session, result)

    def board_view(self, session: Session) -> discord.ui.View | None:
        if session.status != "active":
            return None
        view = discord.ui.View(timeout=None)
        view.add_item(TurnButton(session.id))
        view.add_item(HandButton(session.id))
        return view

    async def post_board(
        self, session: Session, text: str, last_action: str | None = None
    ) -> discord.Message:
        """Post the public board to the session's channel."""
        channel = self.bot.get_partial_messageable(session.row.channel_id, guild_id=session.row.guild_id)
        file = await self.render(session, last_action=last_action)
        kwargs: dict[str, Any] = {"content": text, "allowed_mentions": MENTIONS}
        if file is not None:
            kwargs["file"] = file
        view = self.board_view(session)
        if view is not None:
            kwargs["view"] = view
        return await channel.send(**kwargs)

    async def announce(self, result: MoveResult, header: str | None = None) -> discord.Message:
        session = result.session
        return await self.post_board(
            session, self.public_text(session, result, header), public.last_action(session, result.played)
        )

    # ------------------------------------------------------------- lobbies

    def lobby_text(self, session: Session) -> str:
        opts = ", ".join(f"{k}: {v}" for k, v in session.row.options.items()) or "standard"
        seats = "\n".join(
            f"{i + 1}. {s.name}{s.tag}{' — host' if s.user_id == session.row.host_id else ''}"
            for i, s in enumerate(session.seats)
        )
        info = session.info
        if session.status == "lobby":
            state = f"Waiting for players ({len(session.seats)}/{session.row.max_players} seated, {info.min_players} needed)."
        elif session.status == "active":
            state = "The game has started."
        else:
            state = f"This lobby is closed ({session.row.end_reason or session.status})."
        return clip(f"**{info.title}** — new game\nOptions: {opts}\n{seats}\n{state}")

    def lobby_view(self, session: Session) -> discord.ui.View | None:
        if session.status != "lobby":
            return None
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
                channel_id=interaction.channel_id,
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
                self.lobby_text(session), view=self.lobby_view(session)
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
            channel_id = interaction.channel_id
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
                session = await self.service.add_computer(channel_id, user.id, level)
                note = f"{user.display_name} added a computer player ({level})."
            elif action == "start":
                self.check_permissions(interaction)
                if from_button and session_id is not None and any(s.computer for s in session.seats):
                    # computers may think before the first board: answer Discord in time
                    await interaction.response.defer()
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
                elif interaction.response.is_done():
                    await interaction.edit_original_response(
                        content=self.lobby_text(session), view=self.lobby_view(session)
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
                    header=f"**{session.info.title}** begins! Seats in play order: "
                    + ", ".join(f"{i + 1}. {n}" for i, n in enumerate(session.names())),
                )
            elif session is None:
                await self.refresh_lobby(None, session_id)

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

    async def reply(
        self,
        interaction: discord.Interaction,
        content: str,
        *,
        file: discord.File | None = None,
        view: discord.ui.View | None = None,
    ) -> None:
        """Answer ephemerally, whether or not the interaction was deferred.

        A deferred answer (ours is always private) is filled in; after a public
        answer (a lobby posted or updated), the reply is a private follow-up, so
        that the public message is never overwritten.
        """
        content = clip(content)
        deferred = (
            discord.InteractionResponseType.deferred_channel_message,
            discord.InteractionResponseType.deferred_message_update,
        )
        if interaction.response.is_done() and interaction.response.type in deferred:
            await interaction.edit_original_response(
                content=content, attachments=[file] if file is not None else [], view=view
            )
            return
        kwargs: dict[str, Any] = {"content": content, "ephemeral": True}
        if file is not None:
            kwargs["file"] = file
        if view is not None:
            kwargs["view"] = view
        if interaction.response.is_done():
            await interaction.followup.send(**kwargs)
        else:
            await interaction.response.send_message(**kwargs)

    # ------------------------------------------------------------- moves

    async def play(
        self,
        interaction: discord.Interaction,
        text: str,
        *,
        session_id: int | None = None,
        expected_version: int | None = None,
        deferred_update: bool = False,
    ) -> None:
        """Play ``text`` for the user, announce it publicly, confirm privately."""

        async def work() -> None:
            if session_id is not None:
                await self.session_for(interaction, session_id)  # a forged click is refused untouched
            if not interaction.response.is_done():
                if deferred_update:
                    await interaction.response.defer()  # the private menu is replaced by the answer
                else:
                    await interaction.response.defer(ephemeral=True, thinking=True)
            try:
                if session_id is None:
                    result = await self.service.play(
                        interaction.channel_id, interaction.user.id, text, expected_version=expected_version
                    )
                else:
                    result = await self.service.play_in(
                        session_id, interaction.user.id, text, expected_version=expected_version
                    )
            except StaleMove as exc:
                await self.show_current(interaction, session_id, str(exc))
                return
            self.committed(interaction, f"Your move `{text}` was recorded")
            session = result.session
            try:
                if self.has_public_news(result):
                    await self.announce(result)
            except discord.HTTPException:
                log.warning("board for session %s not posted", session.id, exc_info=True)
                await self.reply(
                    interaction,
                    f"Your move `{text}` was recorded, but Discord refused the board image; "
                    "use /game board to post it again.",
                )
                return
            seat = session.seat_of(interaction.user.id)
            lines = [f"You played `{text}`."] + public.own_lines(session, result.played, seat.seat)
            file = await self.render(session, seat.seat) if session.status == "active" else None
            await self.reply(interaction, "\n".join(lines), file=file)

        await self.guard(interaction, work, defer=False)

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
        given), so a command for one kind of move offers only those.
        """
        try:
            moves = await self.service.legal_moves(interaction.channel_id, interaction.user.id)
        except Exception:
            log.exception("autocomplete failed")
            return []
        if kinds or contains:
            low_kinds = tuple(k.lower() for k in kinds)
            moves = [
                m
                for m in moves
                if (low_kinds and m.lower().startswith(low_kinds)) or (contains and contains in m)
            ]
        needle = current.strip().lower()
        starts = [m for m in moves if m.lower().startswith(needle)]
        inside = [m for m in moves if needle in m.lower() and m not in starts]
        return [app_commands.Choice(name=m[:100], value=m[:100]) for m in (starts + inside)[:CHOICE_LIMIT]]

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
            else await self.service.in_channel(interaction.channel_id)
        )
        if session is None or session.status != "active" or session.damaged:
            await self.reply(interaction, f"⚠️ {self.sentence(why)} The game is no longer running.")
            return
        text, file = await self.private_picture(session, interaction.user.id)
        seat = session.seat_of(interaction.user.id)
        view = None
        if seat is not None and seat.seat is not None and not seat.computer:
            view = self.move_picker(
                session, [str(m) for m in session.engine.legal_moves(session.state, seat.seat)]
            )
        await self.reply(
            interaction, f"⚠️ {self.sentence(why)} Nothing was played.\n{text}", file=file, view=view
        )

    async def show_hand(self, interaction: discord.Interaction, session_id: int | None = None) -> None:
        async def work() -> None:
            session = (
                await self.session_for(interaction, session_id, running=True)
                if session_id is not None
                else await self.service.require(interaction.channel_id)
            )
            if session.status != "active":
                raise TableError("that game is not running")
            text, file = await self.private_picture(session, interaction.user.id)
            view = discord.ui.View(timeout=None)
            view.add_item(HandButton(session.id, label="Show again"))
            await self.reply(interaction, text, file=file, view=view)

        await self.guard(interaction, work)

    def move_picker(self, session: Session, moves: list[str], prefix: str = "") -> discord.ui.View | None:
        """The quickest way to choose among ``moves``.

        Moves that differ only by a cell of a 5 x 5 board (A1..E5) become a grid
        of buttons; a handful of short moves become buttons; otherwise a select
        menu, grouped by a common prefix when there are more than 25.
        """
        groups = group_moves(moves, prefix)
        if not groups:
            return None
        view = discord.ui.View(timeout=None)
        singles = all(len(members) == 1 and members[0] == key for key, members in groups)
        if singles:
            chosen = [key for key, _ in groups]
            grid = cell_grid(chosen)
            if grid is not None:
                stem, cells = grid
                for r, row in enumerate("ABCDE"):
                    for c in range(1, 6):
                        cell = f"{row}{c}"
                        button = MoveButton(session.id, session.version, stem + cell, label=cell, row=r)
                        button.item.disabled = cell not in cells
                        if cell in cells:
                            button.item.style = discord.ButtonStyle.primary
                        view.add_item(button)
                return view
            if len(chosen) <= 20 and all(len(m) <= 24 for m in chosen):
                for i, move in enumerate(chosen):
                    view.add_item(MoveButton(session.id, session.version, move, row=i // 5))
                return view
        options = []
        for key, members in groups:
            if len(members) == 1 and members[0] == key:
                options.append(discord.SelectOption(label=key[:100], value=("m:" + key)[:100]))
            else:
                options.append(
                    discord.SelectOption(
                        label=f"{key}… ({len(members)} moves)"[:100], value=("p:" + key)[:100]
                    )
                )
        view.add_item(MoveSelect(session.id, session.version, options))
        return view

    async def show_turn(self, interaction: discord.Interaction, session_id: int) -> None:
        async def work() -> None:
            session = await self.session_for(interaction, session_id, running=True)
            seat = session.seat_of(interaction.user.id)
            if seat is None or seat.seat is None:
                raise TableError("you are not playing in this game")
            text, file = await self.private_picture(session, interaction.user.id)
            moves = (
                [str(m) for m in session.engine.legal_moves(session.state, seat.seat)]
                if not seat.computer
                else []
            )
            view = self.move_picker(session, moves)
            if view is not None:
                text += (
                    f"\nPick a move below ({len(moves)} legal), or type "
                    f"`/{session.info.name} move` to search them all."
                )
            await self.reply(interaction, text, file=file, view=view)

        await self.guard(interaction, work)

    async def picked(
        self, interaction: discord.Interaction, session_id: int, version: int, value: str
    ) -> None:
        kind, _, text = value.partition(":")
        if kind == "p":

            async def narrow() -> None:
                session = await self.session_for(interaction, session_id, running=True)
                if session.version != version:
                    raise TableError("the board changed since this menu was made; press Play again")
                seat = session.seat_of(interaction.user.id)
                if seat is None or seat.seat is None:
                    raise TableError("you are not playing in this game")
                moves = [str(m) for m in session.engine.legal_moves(session.state, seat.seat)]
                view = self.move_picker(session, moves, text)
                await interaction.response.edit_message(content=f"Moves starting with `{text}`:", view=view)

            await self.guard(interaction, narrow, defer=False)
            return
        await self.play(
            interaction, text, session_id=session_id, expected_version=version, deferred_update=True
        )


# ------------------------------------------------------------------ persistent components


def _table(interaction: discord.Interaction) -> Table:
    return interaction.client.table  # type: ignore[attr-defined]


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
    discord.ui.DynamicItem[discord.ui.Button], template=r"pk:mv:(?P<sid>\d+):(?P<ver>\d+):(?P<move>.+)"
):
    """A button that plays one move; games use it where a click beats typing."""

    def __init__(
        self, session_id: int, version: int, move: str, label: str | None = None, *, row: int | None = None
    ):
        custom_id = f"pk:mv:{session_id}:{version}:{move}"
        if len(custom_id) > 100:
            raise ValueError(f"move {move!r} is too long for a button")
        super().__init__(
            discord.ui.Button(
                label=(label or move)[:80], style=discord.ButtonStyle.secondary, custom_id=custom_id
            ),
            row=row,
        )
        self.session_id, self.version, self.move = session_id, version, move

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["sid"]), int(match["ver"]), match["move"], item.label)

    async def callback(self, interaction: discord.Interaction) -> None:
        # On a private menu the answer replaces the menu; on a public message it is a new private reply.
        in_place = interaction.message is not None and interaction.message.flags.ephemeral
        await _table(interaction).play(
            interaction,
            self.move,
            session_id=self.session_id,
            expected_version=self.version,
            deferred_update=in_place,
        )


class MoveSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"pk:pick:(?P<sid>\d+):(?P<ver>\d+)"):
    def __init__(self, session_id: int, version: int, options: list[discord.SelectOption] | None = None):
        super().__init__(
            discord.ui.Select(
                custom_id=f"pk:pick:{session_id}:{version}",
                placeholder="Choose your move",
                options=options or [discord.SelectOption(label="-", value="-")],
            )
        )
        self.session_id, self.version = session_id, version

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        return cls(int(match["sid"]), int(match["ver"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or []
        if not values:
            await interaction.response.send_message("Nothing was chosen.", ephemeral=True)
            return
        await _table(interaction).picked(interaction, self.session_id, self.version, values[0])


DYNAMIC_ITEMS = (LobbyButton, TurnButton, HandButton, MoveButton, MoveSelect)

"""What the table's Discord parts ask of one another, written down as types.

:class:`bot.ui.Table` hands itself to its parts (:class:`bot.surface.clockvote.ClockDesk`,
:class:`bot.surface.direct.Notifier`) when it makes them; they know it as :class:`TableLike`, and the
table knows the bot as :class:`TableClient`.  So the parts never import the table, nor the
table the bot that makes it: the imports run one way (``bot.app -> bot.ui -> bot.surface.clockvote``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import discord
    from discord.ext import commands

    from bot.sessions import MoveResult, RatingChange, Session, SessionService
    from bot.settings import Settings
    from bot.time.scheduler import Scheduler
    from engines.core import Outcome, Said
    from languages import Language

    class TableClient(commands.Bot):
        """The bot as the table sees it (to the type checker; :class:`bot.app.Pukllay` is one)."""

        settings: Settings
        scheduler: Scheduler | None

        async def page_link(self, kind: str, ref: int, guild_id: int | None) -> str | None: ...


class Clocks(Protocol):
    async def time_left(self, session: Session, t: Language = ...) -> str | None: ...


class TableLike(Protocol):
    """What the table's parts use of :class:`bot.ui.Table`."""

    @property
    def bot(self) -> TableClient: ...

    @property
    def service(self) -> SessionService: ...

    @property
    def clocks(self) -> Clocks: ...

    def committed(self, interaction: discord.Interaction, what: Said) -> None: ...

    async def language(self, session: Session) -> Language: ...

    async def render(
        self,
        session: Session,
        seat: int | None = None,
        last_action: str | None = None,
        *,
        language: str,
        contrast: bool = False,
    ) -> discord.File | None: ...

    async def post_board(
        self,
        session: Session,
        *,
        header: str | None = None,
        note: Said | None = None,
        outcome: Outcome | None = None,
        ratings: Sequence[RatingChange] = (),
        ping: bool = True,
    ) -> discord.Message: ...

    async def game_over(self, session: Session) -> None: ...

    async def strip_buttons(self, session: Session, message_id: int) -> None: ...

    async def announce(self, result: MoveResult, header: str | None = None) -> discord.Message: ...

    async def refresh_lobby(self, session: Session | None, session_id: int | None = None) -> None: ...

    async def session_for(
        self, interaction: discord.Interaction, session_id: int, *, running: bool = False
    ) -> Session: ...

    async def guard(
        self, interaction: discord.Interaction, work: Callable[[], Awaitable[Any]], *, defer: bool = True
    ) -> None: ...

    async def reply(
        self,
        interaction: discord.Interaction,
        content: str,
        *,
        file: discord.File | None = None,
        view: discord.ui.View | discord.ui.LayoutView | None = None,
    ) -> None: ...

    async def private_picture(
        self, session: Session, user_id: int, language: str
    ) -> tuple[str, discord.File | None]: ...

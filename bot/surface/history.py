"""History pages: browsing a game move by move, privately, as the channel saw it.

``/game history`` opens a private page (the public board after a move, what happened, and
controls to go back and forth); its buttons and selects edit the same private message.  Only
games of the asker's server in channels they can view are shown.  Imports: discord,
:mod:`bot.history`, :mod:`bot.public`, and :mod:`bot.surface` buttons, channels, look, replies.
"""

from __future__ import annotations

import asyncio

import discord

from bot import alt, i18n, movetexts, texts
from bot.choices import CHOICE_LIMIT
from bot.history import History
from bot.optionline import board_options
from bot.sessions import Refusal, Session
from bot.surface import written
from bot.surface.attach import picture
from bot.surface.buttons import Persistent, button
from bot.surface.channels import can_view, channel_of, on_private_message
from bot.surface.look import Look, palette
from bot.surface.replies import part_of, reply
from languages import ENGLISH, N_, Language

NOT_A_PAGE = N_("that button belongs on a private history page; {/game history} opens one")


class HistoryPages:
    """The history browser's pages, for ``/game history`` and the clicks on a page."""

    def __init__(self, look: Look, history: History):
        self.look, self.history, self.service = look, history, look.service

    async def session(self, interaction: discord.Interaction, session_id: int | None) -> Session:
        """The game to browse (``None``: this channel's latest): one of this server's, in a channel
        the asker can view."""
        if session_id is None:
            session_id = (await self.service.core.latest(channel_of(interaction))).id
        session = await self.history.session(session_id, interaction.guild_id)
        if not can_view(interaction, session):
            raise Refusal("there is no game #{number} on this server that you can view", number=session_id)
        return session

    async def page(
        self, interaction: discord.Interaction, session: Session, number: int | None
    ) -> tuple[str, discord.File | None, discord.ui.View]:
        """One page of the history browser for the asker: text, the public board then, and the controls."""
        page = await self.history.page(session, number)
        # each move named after whoever held its seat then (a league seat handed to a substitute)
        session = await self.service.logbook.with_holders(session)
        names = session.names_after(page.number)  # the board's; its header names the move's player
        reader = session.reader_of(interaction.user.id)
        t = i18n.private(interaction)
        text = movetexts.history_text(
            written.session(session), page.number, page.shown, page.record, reader, t
        )
        file = None
        renderer = session.info.load_renderer()
        if renderer is not None:
            view = session.engine.view_for(page.state, None)
            # The header line the channel's board had (the move's first public line).
            last = None if page.record is None else texts.last_action(session, [page.record], t)
            png = await asyncio.to_thread(
                renderer.render,
                view,
                names=names,
                last_action=last,
                language=t.code,
                ended=texts.ended_early(session, t) if page.number == page.shown else None,
                options=board_options(session.row.game, session.row.options, t),
                **palette(await self.look.person_contrast(interaction.user.id)),
            )
            file = picture(
                png,
                f"{session.info.name}-{session.id}-move{page.number}.png",
                alt.board(session, None, last, t, state=page.state, move=page.number, shown=page.shown),
                [*names, *session.names_at(page.number)],
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
                label=movetexts.history_label(session, m, seats.get(m), t), value=str(m), default=m == n
            )
            for m in jump_targets(n, shown)
        ]
        controls.add_item(HistorySelect(session.id, options, t=t))
        return text, file, controls

    async def show(
        self,
        interaction: discord.Interaction,
        session_id: int | None,
        number: int | None,
        *,
        in_place: bool = False,
    ) -> None:
        """``/game history`` (a new private message) or a click on one (the same message, edited;
        not deferred)."""
        if in_place:
            if not on_private_message(interaction):  # forged onto a public message: never edit it
                raise Refusal(NOT_A_PAGE)
            await interaction.response.defer()
        session = await self.session(interaction, session_id)
        text, file, controls = await self.page(interaction, session, number)
        await reply(interaction, text, file=file, view=controls)


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
    Persistent[discord.ui.Button],
    template=r"pk:hist:(?P<session_id>\d+):(?P<number>\d+):(?P<tag>first|back|back10|next|last)",
):
    """A history page's button: the move it goes to is in its ``custom_id``."""

    defer = False  # the page is edited in place
    session_id: int
    number: int

    def __init__(self, session_id: int, number: int, tag: str, t: Language = ENGLISH):
        item = button(HISTORY_LABELS[tag], f"pk:hist:{session_id}:{number}:{tag}", t=t)
        super().__init__(item, session_id=session_id, number=number)

    async def clicked(self, interaction: discord.Interaction) -> None:
        await part_of(interaction, HistoryPages).show(
            interaction, self.session_id, self.number, in_place=True
        )


class HistorySelect(
    Persistent[discord.ui.Select], template=r"pk:histgo:(?P<session_id>\d+)(?::(?P<index>\d))?"
):
    """A history page's select: jump to a move (index 0), or to the start of a turn (index 1)."""

    defer = False  # the page is edited in place
    session_id: int
    index: int

    def __init__(
        self,
        session_id: int,
        options: list[discord.SelectOption] | None = None,
        *,
        index: int = 0,
        placeholder: str = "",
        t: Language = ENGLISH,
    ):
        item: discord.ui.Select = discord.ui.Select(
            custom_id=f"pk:histgo:{session_id}" + (f":{index}" if index else ""),
            placeholder=placeholder or t.gettext("Jump to a move"),
            options=options or [discord.SelectOption(label=t.gettext("The start"), value="0")],
        )
        super().__init__(item, session_id=session_id, index=index)

    async def clicked(self, interaction: discord.Interaction) -> None:
        values = self.item.values  # discord.py fills the select from the interaction before this
        if len(values) != 1 or not values[0].isdecimal() or len(values[0]) > 9:
            await interaction.response.defer(ephemeral=True, thinking=True)
            await reply(
                interaction, i18n.private(interaction).gettext("⚠️ Choose one move number from the list.")
            )
            return
        await part_of(interaction, HistoryPages).show(
            interaction, self.session_id, int(values[0]), in_place=True
        )

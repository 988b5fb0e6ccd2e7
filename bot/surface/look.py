"""How a game looks on Discord: its pictures, in whose language and palette.

:class:`Look` draws the boards (public and private) as attachments with alt text, in the
server's language for what is posted and the reader's for a private view, and finds the channel a
game is played in.  Imports: discord (attachments), :mod:`bot.i18n`, :mod:`bot.alt`,
:mod:`bot.sessions`, :mod:`bot.surface.attach`.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import discord

from bot import alt, i18n, texts
from bot.optionline import board_options
from bot.sessions import Session, SessionService, waiting
from bot.surface import written
from bot.surface.attach import picture
from bot.surface.replies import sentence
from engines.core import in_words, name_seats
from languages import Language
from languages import language as language_of

if TYPE_CHECKING:
    from bot.surface.tableparts import TableClient


def palette(contrast: bool) -> dict[str, bool]:
    """The palette keyword of a renderer's ``render``: ``contrast=True`` only when asked for, so
    that a game whose renderer predates the high-contrast palette still draws its standard one."""
    return {"contrast": True} if contrast else {}


class Look:
    """The pictures and languages of the games, for every part that posts or answers."""

    def __init__(self, bot: TableClient, service: SessionService):
        self.bot = bot
        self.service = service

    async def page_line(self, session: Session, t: Language) -> str:
        """The game's web page on a line of its own (its link made now), or "" where pages are off."""
        url = await self.bot.page_link("game", session.id, session.row.guild_id)
        return "\n" + t.gettext("On the web: {url}", url=url) if url else ""

    def channel(self, session: Session) -> discord.PartialMessageable:
        """The channel (or thread) ``session`` is played in."""
        return self.bot.get_partial_messageable(session.row.channel_id, guild_id=session.row.guild_id)

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
            ended=texts.ended_early(session, language_of(language)),
            options=board_options(session.row.game, session.row.options, language_of(language)),
            **palette(contrast),
        )
        name = (
            f"{session.info.name}-{session.id}-v{session.version}{'-private' if seat is not None else ''}.png"
        )
        return picture(png, name, alt.board(session, seat, last_action, language_of(language)), names)

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
                        "board is in the channel ({/game board})."
                    ),
                    None,
                )
            return (
                t.gettext(
                    "You are not playing in this game; the public board is in the channel ({/game board})."
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
        elif (why := waiting(session, reader)) is not None:  # the game says why (a builder who said done)
            text = t.gettext(
                "Your view of **{game}** (only you can see this). {why}",
                game=session.info.title,
                why=sentence(name_seats(why.in_words(t), written.session(session).names()), t),
            )
        elif (
            len(waiting_on := [written.name(s.name) for s in session.waiting_on()]) == 1
        ):  # say whose turn it is
            text = t.gettext(
                "Your view of **{game}** (only you can see this). It is {player}'s turn, not yours.",
                game=session.info.title,
                player=waiting_on[0],
            )
        elif waiting_on:
            text = t.gettext(
                "Your view of **{game}** (only you can see this). It is not your turn: {players} are still "
                "to play.",
                game=session.info.title,
                players=t.gettext(
                    "{items} and {last}", items=", ".join(waiting_on[:-1]), last=waiting_on[-1]
                ),
            )
        else:
            text = t.gettext(
                "Your view of **{game}** (only you can see this). It is not your turn.",
                game=session.info.title,
            )
        summary = in_words(session.engine.summary(session.engine.view_for(session.state, reader)), t)
        if summary:
            summary = name_seats(summary, written.session(session).names())
        return (f"{text}\n{summary}" if summary else text), file

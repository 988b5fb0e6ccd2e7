"""``/game export``: a game as a JSON file, privately while it runs, in the channel once it ended
(with the summary animation).  Imports: discord, :mod:`bot.export`, :mod:`bot.results`, and
:mod:`bot.surface` channels, history, replies.
"""

from __future__ import annotations

import io

import discord

from bot import alt, export, i18n, results, texts
from bot.surface import written
from bot.surface.attach import picture
from bot.surface.channels import channel_of, check_permissions, seen_by_everyone
from bot.surface.history import HistoryPages
from bot.surface.replies import reply


class Export:
    """The export command's answer and post."""

    def __init__(self, pages: HistoryPages):
        self.pages, self.look, self.service = pages, pages.look, pages.service

    async def post(self, interaction: discord.Interaction, session_id: int | None) -> None:
        """The game ``session_id`` (``None``: this channel's latest) as a JSON file."""
        session = await self.pages.session(interaction, session_id)
        with_ids = interaction.guild_id in self.look.bot.settings.export_id_guilds
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
            text += await self.look.page_line(session, mine)
            await reply(interaction, text, file=discord.File(io.BytesIO(body), filename=name))
            return
        here = channel_of(interaction)
        if here not in (session.row.channel_id, session.row.lobby_channel_id) and not seen_by_everyone(
            interaction, session.row.channel_id
        ):  # posted here, it would show a game of a channel not everyone here may view
            text = mine.gettext(
                "**{game}**, game #{number} ({reason}): it was played in a channel that not everyone here "
                "can view, so its export is sent to you alone; {/game export} in that channel posts it there.",
                game=session.info.title,
                number=session.id,
                reason=texts.end_reason(written.session(session), mine),
            )
            await reply(interaction, text, file=discord.File(io.BytesIO(body), filename=name))
            return
        check_permissions(interaction)
        files = [discord.File(io.BytesIO(body), filename=name)]
        t = await self.look.language(session)
        gif = await results.summary(
            self.service, session, language=t.code, contrast=await self.look.server_contrast(session)
        )
        if gif is not None:
            files.append(
                picture(
                    gif,
                    f"{session.info.name}-game{session.id}.gif",
                    alt.summary_animation(session, t),
                    session.names(),
                )
            )
        channel = self.look.bot.get_partial_messageable(
            channel_of(interaction), guild_id=interaction.guild_id
        )
        values = {
            "game": session.info.title,
            "number": session.id,
            "reason": texts.end_reason(written.session(session), t),
            "player": interaction.user.mention,
            "file": name,
        }
        if gif is not None:
            posted = t.ngettext(
                "**{game}**, game #{number} ({reason}), exported by {player}: {n} move. Replay it with "
                "`python -m bot.terminal --replay {file}`, or watch it turn by turn in the animation.",
                "**{game}**, game #{number} ({reason}), exported by {player}: {n} moves. Replay it with "
                "`python -m bot.terminal --replay {file}`, or watch it turn by turn in the animation.",
                count,
                **values,
            )
        else:
            posted = t.ngettext(
                "**{game}**, game #{number} ({reason}), exported by {player}: {n} move. Replay it with "
                "`python -m bot.terminal --replay {file}`.",
                "**{game}**, game #{number} ({reason}), exported by {player}: {n} moves. Replay it with "
                "`python -m bot.terminal --replay {file}`.",
                count,
                **values,
            )
        posted += await self.look.page_line(session, t)
        await channel.send(posted, files=files, allowed_mentions=discord.AllowedMentions.none())
        await reply(interaction, mine.gettext("Export posted."))

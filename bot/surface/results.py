"""Results and rematch: the results card under a finished game's last board, and its Rematch
button, which opens a lobby with the same game and options (or joins it).  Imports: discord,
:mod:`bot.results`, and :mod:`bot.surface` buttons, channels, direct (whom the rematch pings),
lobby, nonces, replies.
"""

from __future__ import annotations

import logging

import discord

from bot import alt, i18n, results
from bot.sessions import Refusal, Session
from bot.surface import nonces
from bot.surface.attach import picture
from bot.surface.buttons import Persistent, button
from bot.surface.channels import channel_of, check_permissions, clicked
from bot.surface.direct import wanting_mention
from bot.surface.lobby import Lobby
from bot.surface.replies import part_of, reply
from engines.core import DEFAULT_LEVEL, said
from languages import ENGLISH, N_, Language

log = logging.getLogger(__name__)


class Results:
    """The results card and the rematch it offers."""

    def __init__(self, lobby: Lobby):
        self.lobby, self.look, self.service, self.replies = lobby, lobby.look, lobby.service, lobby.replies

    async def card(self, session: Session) -> discord.Message:
        """Post the results card of the finished ``session`` under its last board, with a Rematch
        button and the rating changes its end stored (a card posted late shows those a card posted
        at once does).  A refusal is raised: :meth:`bot.surface.boards.Boards.card` posts it once a
        game, across processes, and has a refused card tried again; its nonce
        (:func:`bot.surface.nonces.post_nonce`) makes a card Discord took just before a stop, posted
        again after the restart within Discord's few minutes, that first card."""
        t = await self.look.language(session)
        png = await results.card(
            self.service,
            session,
            await self.service.play.rating_changes(session),
            language=t.code,
            contrast=await self.look.server_contrast(session),
        )
        view = discord.ui.View(timeout=None)
        view.add_item(RematchButton(session.id, t))
        channel = self.look.channel(session)
        return await channel.send(
            t.gettext(
                "**Results** of {game} game #{number}. Play again with the same players and options: "
                "press {button Rematch} (each player presses it to take a seat).",
                game=session.info.title,
                number=session.id,
            )
            + await self.look.page_line(session, t),
            file=picture(
                png,
                f"{session.info.name}-{session.id}-results.png",
                alt.results_card(session, t),
                session.names(),
            ),
            view=view,
            nonce=nonces.post_nonce(session, nonces.CARD),
        )

    async def rematch(self, interaction: discord.Interaction, session_id: int) -> None:
        """The Rematch button: open a lobby with the same game, options and clock and a new seed
        (the presser hosts, the old game's computer players are seated), or join that lobby."""

        old = await clicked(self.service, interaction, session_id)
        mine = i18n.private(interaction)
        if old.status != "finished":
            raise Refusal("a rematch is offered once the game has ended")
        user = interaction.user
        if not any(s.user_id == user.id for s in old.seats):
            raise Refusal(
                "only the players of game #{number} can start its rematch; once one of them has, "
                "anyone may press {button Join} on the new lobby",
                number=old.id,
            )
        channel_id = channel_of(interaction)
        if await self.join_rematch(interaction, old):
            return
        check_permissions(interaction)
        await self.service.lobby.check_host(interaction.guild_id, user.id)
        try:
            session = await self.service.lobby.create(
                old.row.game,
                guild_id=interaction.guild_id,
                channel_id=channel_id,
                host_id=user.id,
                host_name=user.display_name,
                options=dict(old.row.options),
                max_players=old.row.max_players,
                # the clock the game ended with (a turn timer too); none if it was turned off
                clock=old.clock.text if old.clock is not None else None,
                # the old game's computer players, seated with the host: those joining meanwhile
                # cannot fill the table before them
                computers=[
                    s.computer_level or DEFAULT_LEVEL for s in old.seats if s.computer and s.user_id is None
                ],
                rematch_of=old.id,
            )
        except Refusal:  # another player's Rematch opened the lobby meanwhile: join it
            if await self.join_rematch(interaction, old):
                return
            raise
        self.replies.committed(interaction, said("The rematch lobby is open"))
        # Players may have joined since, and the host started the game or left: the message shows
        # the lobby as it is now, and none is posted once the game has started (its first board is
        # up) or the lobby closed.
        session = await self.service.core.get(session.id) or session
        if session.status == "active":
            await reply(interaction, mine.gettext("The rematch has started."))
            return
        if session.status != "lobby":
            await reply(interaction, mine.gettext("The rematch lobby is closed."))
            return
        others = [s.user_id for s in old.seats if s.user_id not in (None, user.id) and not s.computer]
        others += [s.user_id for s in old.seats if s.resigned and s.user_id not in (None, user.id)]
        channel = self.look.channel(session)
        others = [uid for uid in dict.fromkeys(others) if session.seat_of(uid) is None]  # not seated yet
        # everyone is named; only those whose /me notify wants a mention where news is posted are
        # pinged (an invitation, not a turn: no direct message)
        people = await self.service.store.people.several(others)
        pings = " ".join(f"<@{uid}>" for uid in others)
        t = await self.look.language(session)
        text = await self.lobby.text(session, t)  # its head names the game played again
        if pings:
            text += "\n" + t.gettext(
                "{players}: press {button Join} (or {button Rematch}) to play again.", players=pings
            )
        try:
            message = await channel.send(
                text,
                view=self.lobby.buttons(session, t),
                allowed_mentions=wanting_mention(people),
            )
        except discord.HTTPException as exc:  # a lobby nobody can see or join by its buttons: closed
            await self.service.lobby.close_lobby(session.id, "its lobby message could not be posted")
            log.warning("Discord refused game %s's rematch lobby: %s", session.id, exc)
            raise Refusal(
                "Discord refused to post the rematch's lobby here ({status}), so no rematch was opened; "
                "once I may post here, press {button Rematch} again",
                status=exc.status,
            ) from None
        await self.service.store.games.set_lobby_message(session.id, message.id)
        now = await self.service.core.get(session.id)
        if now is not None and now.seats != session.seats:  # someone's Rematch joined before the post
            await self.lobby.refresh(now)
        await reply(
            interaction,
            mine.gettext("Rematch lobby opened; you host it. Press {button Start} when everyone is seated."),
        )

    async def join_rematch(self, interaction: discord.Interaction, old: Session) -> bool:
        """Join the lobby of ``old``'s game open in the channel (another player's Rematch
        opened it); False when none is open, refused when another game holds the channel."""
        channel_id = channel_of(interaction)
        live = await self.service.core.in_channel(channel_id)
        if live is None:
            return False
        if live.status != "lobby" or live.row.game != old.row.game:
            raise Refusal(self.service.lobby.busy_message(live.row))
        user = interaction.user
        session = await self.service.lobby.join(channel_id, user.id, user.display_name)
        await self.lobby.refresh(session)
        await self.lobby.tell_host_full(session, user.id)
        await reply(interaction, i18n.private(interaction).gettext("You joined the rematch."))
        return True


class RematchButton(Persistent[discord.ui.Button], template=r"pk:rematch:(?P<session_id>\d+)"):
    """Under a results card: a new game with the same players and options."""

    session_id: int

    def __init__(self, session_id: int, t: Language = ENGLISH):
        item = button(N_("Rematch"), f"pk:rematch:{session_id}", discord.ButtonStyle.primary, t)
        super().__init__(item, session_id=session_id)

    async def clicked(self, interaction: discord.Interaction) -> None:
        await part_of(interaction, Results).rematch(interaction, self.session_id)

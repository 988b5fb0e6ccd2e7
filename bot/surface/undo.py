"""Undo by consent: ``/game undo`` takes back one's last move, at once when only computers play
along, else by asking the others in the channel with Agree and Refuse buttons.  The request reaches
each person asked as their notices ask (``/me notify``): a ping for those who want a mention, a
direct message with a link to it for those who want one (in their quiet hours, when those end, if
the request is still open; a refused one: a mention under it).  A request that closes without an
answer (a move played meanwhile, the game over, a newer request) has its message say so, and lose
its buttons.  Imports: discord, :mod:`bot.undo`, :mod:`bot.notices`, :mod:`bot.public`,
:mod:`bot.sessions`, :mod:`bot.storage`, :mod:`bot.time.jobs`, and :mod:`bot.surface` boards,
buttons, channels, direct, history, replies.
"""

from __future__ import annotations

import logging

import discord

from bot import i18n, notices, texts
from bot.sessions import Refusal, Session
from bot.storage import Job, PersonRow, UndoRequest
from bot.surface import written
from bot.surface.boards import Boards
from bot.surface.buttons import Persistent, button
from bot.surface.channels import add_line, channel_of, check_permissions
from bot.surface.direct import mention_above, wanting_mention
from bot.surface.history import HistoryPages
from bot.surface.replies import part_of, reply
from bot.texts import clip
from bot.time.jobs import UNDO_NOTICE
from bot.undo import Undone, UndoService
from engines.core import said
from languages import ENGLISH, N_, Language

log = logging.getLogger(__name__)

MOVED_ON = N_("Closed: a move was played before everyone answered; the moves stand.")
GAME_OVER = N_("Closed: the game ended before everyone answered.")
CHANGED = N_(
    "Closed: the game's clock changed, or a player's time ran out, before everyone answered; the moves "
    "stand. Ask again with {/game undo}."
)
REPLACED = N_("Closed: a newer request to take back a move replaced this one.")


class UndoRequests:
    """Asking to take moves back, and the answers to the request."""

    def __init__(self, boards: Boards, pages: HistoryPages, undo: UndoService):
        self.boards, self.pages, self.undo = boards, pages, undo
        self.look, self.service, self.replies = boards.look, boards.service, boards.replies

    async def ask(self, interaction: discord.Interaction) -> None:
        """``/game undo``: take back one's last move, at once when only computers play along,
        else by asking the others in the channel with buttons.  Where the bot cannot post (the
        request, or the board), nothing is asked."""
        check_permissions(interaction)
        asked = await self.undo.ask(channel_of(interaction), interaction.user.id)
        session = asked.session
        mine = i18n.private(interaction)
        count = len(asked.moves)
        if isinstance(asked, Undone):
            self.replies.committed(interaction, said("Your move was taken back"))
            await self.boards.announce(asked.result)
            await reply(
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
        t = await self.look.language(session)
        names = ", ".join(written.mention(session.by_seat(s)) for s in sorted(request.waiting))
        named = written.session(await self.service.logbook.with_holders(session))  # whose each move was
        lines = [texts.describe(named, r, None, t) for r in asked.moves[:5]]
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
        channel = self.look.channel(session)
        people = await self.service.store.people.several(
            uid for s in sorted(request.waiting) if (uid := session.by_seat(s).user_id) is not None
        )
        try:
            message = await channel.send(
                clip(text),
                view=view,
                allowed_mentions=wanting_mention(people),  # as each chose with /me notify
            )
        except discord.HTTPException as exc:  # nobody can answer a request they cannot see: not kept
            await self.service.store.history.drop_undo(session.id, request.version)
            if asked.replaced is not None:  # gone all the same: its buttons answer nothing any more
                await self.closed(session, asked.replaced, REPLACED)
            log.warning("Discord refused game %s's request to take back moves: %s", session.id, exc)
            raise Refusal(
                "Discord refused to post your request in the game's channel ({status}), so nobody was "
                "asked; once I may post there, ask again",
                status=exc.status,
            ) from None
        await self.service.store.history.set_undo_message(session.id, message.id)
        if asked.replaced is not None:
            await self.closed(session, asked.replaced, REPLACED)
        await self.tell_asked(session, request, count, message.id, people)
        await reply(
            interaction, mine.gettext("Asked: the other players answer with the buttons in the channel.")
        )

    async def tell_asked(
        self,
        session: Session,
        request: UndoRequest,
        count: int,
        message_id: int,
        people: dict[int, PersonRow],
    ) -> None:
        """After the request (its message ``message_id``, taking back ``count`` moves) was posted: a
        direct message with a link to it to each person asked who wants one (the request's ping
        reached those who want a mention); one in their quiet hours who wants no mention gets it
        when those end, if the request is still open then (an ``undo_notice`` job).  Those whose
        direct message Discord refuses are mentioned under it instead."""
        notifier = self.boards.notifier
        now = notifier.now()
        refused = []
        for uid, person in people.items():
            if notices.reach(person, now)[1]:
                if not await self.dm_asked(session, request, count, message_id, uid, person):
                    refused.append(uid)
            elif notices.held(person, now):
                await notifier.scheduler.schedule(
                    UNDO_NOTICE,
                    f"{session.id}:{uid}",
                    notices.quiet_ends(person, now),
                    {"version": request.version, "moves": count},
                )
        await self.mention_refused(session, refused)

    async def dm_asked(
        self, session: Session, request: UndoRequest, count: int, message_id: int, uid: int, person: PersonRow
    ) -> bool:
        """The direct message about the request to the person ``uid``, in their language; False if
        Discord refused it."""
        notifier = self.boards.notifier
        t = await notifier.language_of(person, session)
        text = t.ngettext(
            "↩️ {player} asks to take back {n} move in **{game}** #{number} on **{server}**. Everyone "
            "asked must agree; any move meanwhile cancels the request. Press {button Agree} or {button Refuse} "
            "there: {link}",
            "↩️ {player} asks to take back {n} moves in **{game}** #{number} on **{server}**. Everyone "
            "asked must agree; any move meanwhile cancels the request. Press {button Agree} or {button Refuse} "
            "there: {link}",
            count,
            player=written.name(session.by_seat(request.seat).name),
            game=session.info.title,
            number=session.id,
            server=notifier.guild_name(session, t),
            link=notices.jump_link(session.row.guild_id, session.row.channel_id, message_id),
        )
        return await notifier.send_dm(uid, text)

    async def mention_refused(self, session: Session, refused: list[int]) -> None:
        """Those whose direct message about the request Discord refused, mentioned under it."""
        if not refused:
            return
        t = await self.look.language(session)
        above = t.gettext(
            "{people}: the request to take back a move is above; press {button Agree} or {button Refuse} there.",
            people=" ".join(f"<@{u}>" for u in refused),
        )
        await mention_above(self.boards.notifier, session, refused, above, "undo request")

    async def tell_held(self, job: Job) -> None:
        """The ``undo_notice`` job: a person's quiet hours ended (later still if they moved
        meanwhile): the direct message about the game's request to take back moves, if it is still
        open and waits on them, and they still want direct messages."""
        session_id, uid = (int(x) for x in job.key.split(":"))
        notifier = self.boards.notifier
        session = await self.service.core.get(session_id)
        person = await self.service.store.people.person(uid)
        if session is None or session.status != "active" or not person.wants_dm:
            return
        now = notifier.now()
        if notices.is_quiet(person, now):
            await notifier.scheduler.schedule(
                UNDO_NOTICE, job.key, notices.quiet_ends(person, now), job.payload
            )
            return
        request = await self.service.store.history.undo_request(session_id)
        seat = session.seat_of(uid)
        if (
            request is None
            or request.message_id is None
            or request.version != job.payload.get("version")
            or session.version != request.version
            or seat is None
            or seat.seat not in request.waiting
        ):
            return  # answered, closed, or a newer request (told on its own)
        moves = job.payload.get("moves")
        moves = moves if isinstance(moves, int) else 1
        if not await self.dm_asked(session, request, moves, request.message_id, uid, person):
            await self.mention_refused(session, [uid])

    async def close_void(self, session: Session, why: str | None = None) -> None:
        """After a board post or an abandon: a request the game moved past (or that its end left
        unanswered) is dropped, and its message says it is closed and loses its buttons; ``why``:
        what changed the game without a move (its clock: :data:`CHANGED`)."""
        void = await self.undo.void(session.id)
        if void is not None:
            request, over = void
            await self.closed(session, request, GAME_OVER if over else why or MOVED_ON)

    async def clock_changed(self, session: Session) -> None:
        """The game's clock changed, or a time ran out: a request asked before is closed, saying so."""
        await self.close_void(session, CHANGED)

    async def closed(self, session: Session, request: UndoRequest, why: str) -> None:
        """Say under ``request``'s message why it closed, and take its buttons off; a message
        Discord will not let the bot edit (deleted, no permission) is left as it is, logged."""
        if request.message_id is None:
            return
        t = await self.look.language(session)
        try:
            await add_line(self.look.channel(session), request.message_id, t.gettext(why))
        except discord.HTTPException as exc:
            log.warning(
                "could not close undo request message %s of session %s: %s",
                request.message_id,
                session.id,
                exc,
            )

    async def answer(
        self, interaction: discord.Interaction, session_id: int, version: int, agree: bool
    ) -> None:
        """A click on Agree or Refuse under an undo request (not deferred: it edits the request)."""
        session = await self.pages.session(interaction, session_id)
        if session.row.channel_id != interaction.channel_id:
            raise Refusal("this button does not belong to a game in this channel")
        request = await self.service.store.history.undo_request(session_id)
        if (
            request is not None
            and request.version == version
            and request.message_id is not None
            and (interaction.message is None or interaction.message.id != request.message_id)
        ):  # forged onto another message (a board): never edit that one
            raise Refusal(
                "that button answers a request to take back a move and belongs under the request, its own "
                "message; answer there"
            )
        answered = await self.undo.answer(session_id, version, interaction.user.id, agree)
        who = written.name(interaction.user.display_name)
        content = interaction.message.content if interaction.message is not None else ""
        t = await self.look.language(session)
        if not answered.agreed:
            line = t.ngettext(
                "{player} refused: the move stands.",
                "{player} refused: the moves stand.",
                answered.count,
                player=who,
            )
            await interaction.response.edit_message(content=clip(f"{content}\n{line}"), view=None)
            return
        if answered.result is None:
            waiting = ", ".join(
                written.name(answered.session.by_seat(s).name) for s in sorted(answered.request.waiting)
            )
            line = t.gettext("{player} agreed; waiting on {players}.", player=who, players=waiting)
            await interaction.response.edit_message(content=clip(f"{content}\n{line}"))
            return
        self.replies.committed(interaction, said("The moves were taken back"))
        line = t.ngettext(
            "{player} agreed: everyone did, the move was taken back.",
            "{player} agreed: everyone did, the moves were taken back.",
            answered.count,
            player=who,
        )
        try:  # the request's edit may be refused (too late, deleted): the board tells the undo all the same
            await interaction.response.edit_message(content=clip(f"{content}\n{line}"), view=None)
        finally:
            await self.boards.announce(answered.result)


class UndoButton(
    Persistent[discord.ui.Button],
    template=r"pk:undo:(?P<session_id>\d+):(?P<version>\d+):(?P<agree>yes|no)",
):
    """Agree to, or refuse, a request to take back moves (made when the game was at ``version``)."""

    defer = False  # the answer edits the request
    session_id: int
    version: int
    agree: bool

    def __init__(self, session_id: int, version: int, agree: bool, t: Language = ENGLISH):
        custom_id = f"pk:undo:{session_id}:{version}:{'yes' if agree else 'no'}"
        if agree:
            item = button(N_("Agree"), custom_id, discord.ButtonStyle.success, t)
        else:
            item = button(N_("Refuse"), custom_id, discord.ButtonStyle.danger, t)
        super().__init__(item, session_id=session_id, version=version, agree=agree)

    async def clicked(self, interaction: discord.Interaction) -> None:
        await part_of(interaction, UndoRequests).answer(
            interaction, self.session_id, self.version, self.agree
        )

"""Play menus: a player's private view and menu of legal moves, moves from commands and menus.

Steps inside a turn are confirmed to their player alone, on the same private message, which
shows the new private picture and the next menu until the turn ends (a message with components v2,
to hold a menu of many moves).  A player who steps by commands gets each step's answer with the
new picture, and the same turn's previous answer is removed, so a turn leaves one private message
either way.  The board's Play and My view buttons open them.  A menu's
components carry the session and the menu's stamp (the turn and the player's own move count), so
a stale click is recognised: the board changed, here it is now.  A click whose session belongs to
another channel (a forged ``custom_id``) is refused.

Imports: discord, :mod:`bot.choices`, :mod:`bot.public`, :mod:`bot.sessions`, and
:mod:`bot.surface` boards, buttons, channels, replies.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypedDict

import discord
from discord import app_commands

from bot import choices, i18n, public, texts
from bot.choices import Control, Pick
from bot.sessions import NOT_SEATED, MoveResult, NotSeated, Refusal, Session, StaleMove
from bot.surface import written
from bot.surface.boards import Boards
from bot.surface.buttons import Persistent, button
from bot.surface.channels import channel_of, check_board_permissions, clicked, on_private_menu
from bot.surface.listed import Listed
from bot.surface.replies import Replies, layout, part_of, reply, sentence
from engines.core import MoveError, Said, said
from languages import ENGLISH, N_, Language

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Offers:
    """The moves a game's own command plays, as its autocomplete offers them: those starting with
    one of ``kinds`` or holding ``contains`` (either may match when both are given); none given:
    every move (``/<game> move``)."""

    kinds: tuple[str, ...] = ()
    contains: str | None = None

    def __bool__(self) -> bool:
        return bool(self.kinds or self.contains)

    def holds(self, move: str) -> bool:
        low = move.strip().lower()
        if not self:
            return True
        if self.kinds and low.startswith(tuple(k.lower() for k in self.kinds)):
            return True
        return self.contains is not None and self.contains.lower() in low


EVERY_MOVE = Offers()

NOT_A_MENU = N_(
    "that button belongs on a private menu and does nothing here; press {button Play} under the board, or use "
    "{/game hand}, to open yours"
)


ANSWER_LIFE = 14 * 60
"""Seconds an answer to a game command can be replaced by the next step's: Discord lets a bot
remove an interaction's answer for 15 minutes, so an answer older than this stays."""


@dataclass(frozen=True)
class TurnAnswer:
    """The private message that answered a commands player's latest step in a turn: the
    interaction whose answer it is, and the turn (the engine's ``turn_number``) it belongs to."""

    interaction: discord.Interaction
    turn: int


# What a player is told when their turn ends, by where their turn notices go (/me notify).
NEXT_TIME = {
    "thread": N_("Your turn is over: the board is in the channel, and you will be mentioned next time."),
    "dm": N_("Your turn is over: the board is in the channel, and a direct message tells you next time."),
    "both": N_(
        "Your turn is over: the board is in the channel, and you will be mentioned and sent a direct "
        "message next time."
    ),
    "none": N_("Your turn is over: the board is in the channel (your turn notices are off)."),
}


class Menus:
    """The private views and menus of the players, and the moves played from them."""

    def __init__(self, boards: Boards, replies: Replies):
        self.boards, self.replies, self.look = boards, replies, boards.look
        self.service = boards.service
        self.answers: dict[tuple[int, int], TurnAnswer] = {}  # (session, user) -> this turn's answer
        self.listed = Listed()  # what autocomplete last listed for each player

    @staticmethod
    def board_buttons(session: Session, t: Language = ENGLISH) -> discord.ui.View | None:
        """The board post's buttons, labelled in ``t`` (the server's language)."""
        if session.status != "active":
            return None
        view = discord.ui.View(timeout=None)
        view.add_item(TurnButton(session.id, t))
        view.add_item(HandButton(session.id, t=t))
        return view

    async def menu(
        self, session: Session, seat: int, opened: tuple[str, ...] | None = None, t: Language = ENGLISH
    ) -> tuple[list[Control], str, int]:
        """The private menu of ``seat``'s legal moves (``opened``: one kind or group), its stamp,
        and how many moves it offers; its words in ``t`` (the notation stays each choice's value)."""
        engine = session.engine
        moves = choices.offered(engine, session.state, seat)
        found = choices.entries(engine, session.state, seat, moves, session.names(), t)
        controls = choices.plan_menu(
            engine.KINDS,
            lambda kind: choices.kind_label(engine, kind, t),
            found,
            opened=opened,
            t=t,
            names=session.names(),
        )
        return controls, await self.service.play.stamp(session, seat), len(moves)

    async def send_menu(
        self,
        interaction: discord.Interaction,
        session: Session,
        lead: str,
        *,
        opened: tuple[str, ...] | None = None,
    ) -> None:
        """The private message of a player: ``lead``, their picture and holdings, and the menu
        of their legal moves when it is their turn."""
        seat = session.seat_of(interaction.user.id)
        t = i18n.private(interaction)
        picture, file = await self.look.private_picture(session, interaction.user.id, t.code)
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
        await reply(
            interaction,
            text,
            view=menu_layout(text, file, controls, session_id=session.id, stamp=stamp, t=t),
            file=file,
        )

    async def play(
        self,
        interaction: discord.Interaction,
        text: str,
        *,
        session_id: int | None = None,
        expected_version: int | None = None,
        expected_stamp: str | None = None,
        in_menu: bool = False,
        game: str | None = None,
        offers: Offers = EVERY_MOVE,
    ) -> None:
        """Play ``text`` for the user; post the board when the turn ends; confirm privately.

        From a private menu (``in_menu``) the same message shows the new picture
        and the next menu until the turn ends.  A command of one ``game`` (``/guanga move``)
        plays only in a game of that kind: in another game's channel it is refused untouched.
        A game's own command (``/tiwanaku divine``) plays only the moves it ``offers``: another
        kind typed into it (an explorer's step) is refused untouched, naming ``/<game> move``.
        """

        if session_id is not None:
            await clicked(self.service, interaction, session_id)  # a forged click is refused untouched
        if not interaction.response.is_done():
            if in_menu:
                await interaction.response.defer()  # the private menu is replaced by the answer
            else:
                await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            if session_id is None:
                found = await self.service.core.require(channel_of(interaction))
                refuse_other_game(found, game)
                self.listed.check(found, interaction.user.id, text, i18n.private(interaction))
                written_as = notation(found, text)
                if written_as is not None and not offers.holds(written_as):
                    raise Refusal(
                        "{command} does not play `{text}`: type it in {move}, which plays every kind of move",
                        command=command_named(typed_in(interaction, f"{found.info.name} move")),
                        text=text.strip(),
                        move=command_named(f"{found.info.name} move"),
                    )
                sid = found.id
            else:
                sid = session_id
            # A move whose board the bot may not post is refused before it is played: recorded, it
            # would leave the others unmentioned and the board unseen until someone grants the permission.
            check_board_permissions(interaction)
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
        self.replies.committed(interaction, said("Your move `{move}` was recorded", move=text))
        session = result.session
        try:  # a post Discord refuses is answered by the guard: the move recorded, and why not shown
            if public.has_public_news(session, result):
                await self.boards.announce(result)
            else:  # a step inside the turn: no board, but the next step may be the seat's only move
                await self.boards.stepped(session)
        finally:
            if result.computers_next or result.unsettled:
                self.boards.follow(session.id)
        await self.confirm(interaction, result, text, in_menu=in_menu)

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
        lines = [t.gettext("You played `{move}`.", move=text)] + texts.own_lines(
            written.session(session), result.played, mine, t=t
        )
        acting = session.status == "active" and mine in session.to_move()
        if acting and result.turn_ended:  # the computers played their turns at once: say what they did
            others = texts.turn_lines(
                written.session(session), [r for r in result.played if r.seat != mine], reader=mine, t=t
            )
            if others:
                lines += [t.gettext("Your turn is over; then:"), *others, t.gettext("It is your turn again.")]
            else:  # nothing another player did that this reader may read: no "then:" followed by nothing
                lines.append(t.gettext("Your turn is over, and it is your turn again."))
        if acting and in_menu:
            await self.send_menu(interaction, session, "\n".join(lines))
            return
        if acting:
            lines.append(t.gettext("Play on, or press {button Play} under the board for a menu."))
        elif session.status != "active":
            lines.append(t.gettext("The game is over: the result is in the channel."))
        elif result.turn_ended:
            lines.append(
                t.gettext(NEXT_TIME[(await self.service.store.people.person(interaction.user.id)).notify])
            )
        else:
            lines.append(
                t.gettext("You have nothing more to do until the round ends; you will be mentioned then.")
            )
        file = (
            await self.look.render(
                session, mine, language=t.code, contrast=await self.look.person_contrast(interaction.user.id)
            )
            if session.status == "active"
            else None
        )
        await self.answer_turn(interaction, result, "\n".join(lines), file, acting=acting)

    async def answer_turn(
        self,
        interaction: discord.Interaction,
        result: MoveResult,
        content: str,
        file: discord.File | None,
        *,
        acting: bool,
    ) -> None:
        """Answer a step played by a command, keeping one private message per turn.

        Each step is answered with the new picture, and the same turn's previous answer is
        removed (Discord lets a bot remove an interaction's answer for :data:`ANSWER_LIFE`), so a
        player who plays by commands has one message for the turn, the newest, as a menu player
        has one menu."""
        key = (result.session.id, interaction.user.id)
        held = self.answers.pop(key, None)
        await reply(interaction, content, file=file)
        if (
            held is not None
            and held.turn == result.turn_before
            and (interaction.created_at - held.interaction.created_at).total_seconds() < ANSWER_LIFE
        ):
            try:
                await held.interaction.delete_original_response()
            except discord.HTTPException:  # dismissed by the player, or its token has lapsed
                log.info("a turn's earlier answer to %s could not be removed", interaction.user.id)
        if acting and not result.turn_ended and result.turn_before is not None:
            now = interaction.created_at
            for old in [
                k
                for k, a in self.answers.items()
                if (now - a.interaction.created_at).total_seconds() > ANSWER_LIFE
            ]:
                del self.answers[old]  # turns never stepped in again
            self.answers[key] = TurnAnswer(interaction, result.turn_before)

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
            "`{text}` is the start of {n} moves, not a move: keep typing in `{command}` (autocomplete "
            "lists them, e.g. `{example}`), or press {button Play} under the board",
            text=text.strip(),
            n=len(starting),
            command=command_named(typed_in(interaction, f"{name} move")),
            example=starting[0],
        )

    async def autocomplete(
        self,
        interaction: discord.Interaction,
        current: str,
        *,
        offers: Offers = EVERY_MOVE,
        game: str | None = None,
    ) -> list[app_commands.Choice[str]]:
        """Legal moves for the user in this channel, filtered by what they typed; none when
        the channel's game is not ``game`` (the command's).

        ``offers`` keeps the moves a command for some kinds of move plays (see :class:`Offers`).
        When more than 25 match, the groups come first (see :func:`bot.choices.complete`).
        """
        if interaction.channel_id is None:
            return []
        try:
            session = await self.service.core.in_channel(interaction.channel_id)
            if session is None or session.status != "active" or session.damaged:
                return []
            if game is not None and session.info.name != game:
                return []
            seat = session.seat_of(interaction.user.id)
            if seat is None or seat.seat is None or seat.computer:
                return []
            engine = session.engine
            moves = choices.offered(engine, session.state, seat.seat)
            if offers:
                moves = [m for m in moves if offers.holds(str(m))]
            t = i18n.private(interaction)
            found = choices.entries(engine, session.state, seat.seat, moves, session.names(), t)
            pairs = choices.complete(
                found, current, lambda kind: choices.kind_label(engine, kind, t), t, session.names()
            )
            self.listed.keep(session, interaction.user.id, pairs)
        except Exception:
            log.exception("autocomplete failed")
            return []
        return [app_commands.Choice(name=name, value=value[:100]) for name, value in pairs]

    async def show_current(self, interaction: discord.Interaction, session_id: int | None, why: str) -> None:
        """After a stale click: say so, and show the board as it is now with a fresh menu."""
        session = (
            await self.service.core.get(session_id)
            if session_id is not None
            else await self.service.core.in_channel(channel_of(interaction))
        )
        t = i18n.private(interaction)
        if session is None or session.status != "active" or session.damaged:
            await reply(
                interaction,
                t.gettext("⚠️ {refusal} The game is no longer running.", refusal=sentence(why, t)),
            )
            return
        await self.send_menu(
            interaction, session, t.gettext("⚠️ {refusal} Nothing was played.", refusal=sentence(why, t))
        )

    async def show_hand(self, interaction: discord.Interaction, session_id: int | None = None) -> None:
        """``/game hand`` and the My view button: the asker's private view."""
        session = (
            await clicked(self.service, interaction, session_id, running=True)
            if session_id is not None
            else await self.service.core.require(channel_of(interaction))
        )
        if session.status != "active":
            raise Refusal("that game is not running")
        t = i18n.private(interaction)
        text, file = await self.look.private_picture(session, interaction.user.id, t.code)
        view = discord.ui.View(timeout=None)
        view.add_item(HandButton(session.id, label=N_("Show again"), t=t))
        await reply(interaction, text, file=file, view=view)

    async def show_turn(self, interaction: discord.Interaction, session_id: int) -> None:
        """The Play button: the player's picture and menu, privately."""
        session = await clicked(self.service, interaction, session_id, running=True)
        seat = session.seat_of(interaction.user.id)
        if seat is None or seat.seat is None:
            raise NotSeated(NOT_SEATED)
        await self.send_menu(interaction, session, "")

    async def picked(self, interaction: discord.Interaction, session_id: int, stamp: str, value: str) -> None:
        """A choice on a private menu: play a move, open a group, or go back to every move."""
        if not on_private_menu(interaction):  # forged onto another message: never edit that one
            await clicked(self.service, interaction, session_id)  # another channel's game says so first
            raise Refusal(NOT_A_MENU)
        kind, _, rest = value.partition(":")
        if kind == "m":
            await self.play(interaction, rest, session_id=session_id, **expected(stamp), in_menu=True)
            return
        session = await clicked(self.service, interaction, session_id, running=True)
        await interaction.response.defer()
        seat = session.seat_of(interaction.user.id)
        if seat is None or seat.seat is None:
            raise NotSeated(NOT_SEATED)
        if "." not in stamp or stamp != await self.service.play.stamp(session, seat.seat):
            changed = i18n.private(interaction).gettext("the board changed since that menu was made")
            await self.show_current(interaction, session_id, changed)
            return
        opened = None
        if kind in ("g", "back") and rest:  # a step of the menu: its kind, then its levels' keys
            group_kind, _, path = rest.partition(":")
            opened = (group_kind, *(key for key in path.split("/") if key))
        await self.send_menu(interaction, session, "", opened=opened)


def typed_in(interaction: discord.Interaction, default: str) -> str:
    """The slash command ``interaction`` came from (``nowa_gwinea place``), else ``default``."""
    command = interaction.command
    if isinstance(command, app_commands.Command):
        return command.qualified_name
    return default


def command_named(path: str) -> Said:
    """Slash command ``path`` (``nowa_gwinea place``) as a value of a sentence: as the reader's
    client shows it (``/nowa_gwinea colocar`` in Spanish)."""
    return Said(f"{{/{path}}}")


def notation(session: Session, text: str) -> str | None:
    """``text`` as the game writes the move it names (``f3c4`` -> ``F3C4``); None when it names
    no move (the move's own answer then says what is wrong, or how to go on from a group)."""
    try:
        return str(session.engine.parse_move(text))
    except (MoveError, ValueError):
        return None


def refuse_other_game(session: Session, game: str | None) -> None:
    """Refuse a command of ``game`` (``/guanga move``) in a channel whose game is another kind,
    naming the command that plays here."""
    if game is not None and session.info.name != game:
        raise Refusal(
            "the game in this channel is {title}, so `/{command}` commands do not play here; use "
            "`/{name} move` (or press {button Play} under the board)",
            title=session.info.title,
            command=game,
            name=session.info.name,
        )


def menu_layout(
    text: str,
    file: discord.File | None = None,
    controls: Sequence[Control] = (),
    *,
    session_id: int = 0,
    stamp: str = "0",
    t: Language = ENGLISH,
) -> discord.ui.LayoutView:
    """A private message with components v2: the text, the picture, then the menu."""
    rows: list[discord.ui.Item] = []
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
            select = MoveSelect(session_id, stamp, options, index=index, placeholder=control.placeholder, t=t)
            rows.append(discord.ui.ActionRow(select))
        else:
            rows.append(discord.ui.ActionRow(*(menu_button(p, session_id, stamp, t) for p in control.picks)))
    return layout(text, file, rows)


class Expected(TypedDict, total=False):
    """What a move from a component expects the game to be at: one of the two."""

    expected_stamp: str
    expected_version: int


def expected(token: str) -> Expected:
    """A component's token as what it expects: a menu's stamp (``7.3``), or the session's
    version on components posted before stamps (``12``)."""
    if "." in token:
        return {"expected_stamp": token}
    return {"expected_version": int(token)}


TOKEN = r"(?P<token>\d+(?:\.\d+)?)"


def menu_button(pick: Pick, session_id: int, stamp: str, t: Language = ENGLISH) -> discord.ui.Item:
    """A button of a private menu: a move, or the way back to every move or to the step
    before (labelled in ``t``)."""
    if pick.value == "back":
        return NavButton(session_id, stamp, t)
    if pick.value.startswith("back:"):
        return NavButton(session_id, stamp, t, target=pick.value[len("back:") :])
    move = pick.value[2:]
    button = MoveButton(session_id, stamp, move, label=choices.cap(pick.label, choices.LABEL_LIMIT))
    if pick.ends:
        button.item.style = discord.ButtonStyle.primary
    return button


class TurnButton(Persistent[discord.ui.Button], template=r"pk:turn:(?P<session_id>\d+)"):
    """Under the board: the player's picture and menu."""

    session_id: int

    def __init__(self, session_id: int, t: Language = ENGLISH):
        custom_id = f"pk:turn:{session_id}"
        super().__init__(button(N_("Play"), custom_id, discord.ButtonStyle.primary, t), session_id=session_id)

    async def clicked(self, interaction: discord.Interaction) -> None:
        await part_of(interaction, Menus).show_turn(interaction, self.session_id)


class HandButton(Persistent[discord.ui.Button], template=r"pk:hand:(?P<session_id>\d+)"):
    """Under the board and a private view: the asker's private view."""

    session_id: int

    def __init__(self, session_id: int, label: str = N_("My view"), t: Language = ENGLISH):
        super().__init__(button(label, f"pk:hand:{session_id}", t=t), session_id=session_id)

    async def clicked(self, interaction: discord.Interaction) -> None:
        await part_of(interaction, Menus).show_hand(interaction, self.session_id)


class MoveButton(Persistent[discord.ui.Button], template=rf"pk:mv:(?P<session_id>\d+):{TOKEN}:(?P<move>.+)"):
    """A button that plays one move.  Its token is the menu's stamp (or, on buttons
    posted before stamps, the session's version)."""

    defer = False  # on a private menu the answer replaces the menu
    session_id: int
    token: str
    move: str

    def __init__(self, session_id: int, token: int | str, move: str, label: str | None = None):
        custom_id = f"pk:mv:{session_id}:{token}:{move}"
        if len(custom_id) > 100:
            raise ValueError(f"move {move!r} is too long for a button")
        item = button((label or move)[: choices.LABEL_LIMIT], custom_id, t=None)
        super().__init__(item, session_id=session_id, token=str(token), move=move)

    async def clicked(self, interaction: discord.Interaction) -> None:
        # On a private menu the answer replaces the menu; on a public message it is a new private reply.
        in_place = on_private_menu(interaction)
        await part_of(interaction, Menus).play(
            interaction, self.move, session_id=self.session_id, **expected(self.token), in_menu=in_place
        )


class NavButton(
    Persistent[discord.ui.Button], template=rf"pk:nav:(?P<session_id>\d+):{TOKEN}(?P<target>(?::.+)?)"
):
    """Back from one step of a menu: to the whole menu, or with a ``target`` (a kind and its
    levels' keys, ``:build:F``) to the step before."""

    defer = False
    session_id: int
    token: str
    target: str

    def __init__(self, session_id: int, token: str, t: Language = ENGLISH, target: str | None = None):
        step = f":{target}" if target else ""
        custom_id = f"pk:nav:{session_id}:{token}{step}"
        if len(custom_id) > 100:  # a step too deep to name: back to the whole menu
            custom_id, step = f"pk:nav:{session_id}:{token}", ""
        label = N_("Back") if step else N_("All moves")
        super().__init__(button(label, custom_id, t=t), session_id=session_id, token=str(token), target=step)

    async def clicked(self, interaction: discord.Interaction) -> None:
        await part_of(interaction, Menus).picked(
            interaction, self.session_id, self.token, f"back{self.target}"
        )


class MoveSelect(
    Persistent[discord.ui.Select], template=rf"pk:pick:(?P<session_id>\d+):{TOKEN}(?::(?P<index>\d+))?"
):
    """A select of a private menu: moves (``m:<move>``) or groups to open (``g:<kind>:<group>``)."""

    defer = False
    session_id: int
    token: str
    index: int

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
        item: discord.ui.Select = discord.ui.Select(
            custom_id=f"pk:pick:{session_id}:{token}:{index}",
            placeholder=placeholder[:150] or t.gettext("Choose your move"),
            options=options or [discord.SelectOption(label="-", value="-")],
        )
        super().__init__(item, session_id=session_id, token=str(token), index=index)

    async def clicked(self, interaction: discord.Interaction) -> None:
        values = self.item.values  # discord.py fills the select from the interaction before this
        if not values:
            await interaction.response.send_message(
                i18n.private(interaction).gettext("Nothing was chosen."), ephemeral=True
            )
            return
        await part_of(interaction, Menus).picked(interaction, self.session_id, self.token, values[0])

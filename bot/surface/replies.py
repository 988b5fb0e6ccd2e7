"""Answers to the people who use the table: the guard, refusals, failure texts, private replies.

:class:`Replies` runs every command and every persistent component's click (through
:func:`guarded` and :class:`bot.surface.buttons.Persistent`): it acknowledges the interaction,
turns a refusal into a private answer in the asker's language and a crash into a logged apology,
and remembers what an interaction already committed, so that a later failure says what was
recorded instead of "unchanged".  :func:`reply` answers privately whether or not the interaction
was deferred; :func:`layout` is a private message with components v2.

Imports: discord, :mod:`bot.i18n`, :mod:`bot.sessions` (refusals), :mod:`bot.surface.channels`.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import logging
import re
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar, cast

import discord

from bot import i18n
from bot.sessions import Refusal, refusal, starts_with_name
from bot.storage import NotAnswering
from bot.surface import written
from bot.surface.attach import gallery_item
from bot.surface.channels import (
    MISSING_ACCESS,
    SERVERS_ONLY,
    missing_for_boards,
    on_v2_message,
    permission_list,
)
from bot.texts import clip
from bot.web.metrics import Metrics
from engines.core import MoveError, Said
from languages import ENGLISH, N_, Language

log = logging.getLogger(__name__)

UNEXPECTED = N_("Something went wrong on our side; the game is unchanged. The error has been logged.")
NOT_ANSWERING = N_(
    "⚠️ The database is not answering right now, so this could not be finished; a change may or may "
    "not be recorded. Try again in a few minutes: {/game board} then shows the game as it stands."
)

P = ParamSpec("P")
S = TypeVar("S")
T = TypeVar("T")
Handler = Callable[Concatenate[S, discord.Interaction, P], Coroutine[Any, Any, None]]


def part_of(interaction: discord.Interaction, kind: type[T]) -> T:
    """The bot's part of type ``kind`` (the bot holds its parts in ``front``: :class:`bot.surface.front.Front`)."""
    front = getattr(interaction.client, "front", None)
    for part in vars(front).values() if front is not None else ():
        if isinstance(part, kind):
            return part
    raise RuntimeError("an interaction came before the bot's parts were set up")


def guarded(*, defer: bool = True) -> Callable[[Handler[S, P]], Handler[S, P]]:
    """Run the decorated ``async def f(self, interaction, ...)`` through :meth:`Replies.guard`.

    With ``defer`` (the default) the interaction is acknowledged privately first, so the body
    answers with :func:`reply`.  The wrapper keeps the body's signature, its annotations
    evaluated where the body was written, so that discord.py reads a command's options from it.
    """

    def wrap(body: Handler[S, P]) -> Handler[S, P]:
        @functools.wraps(body)
        async def run(self: S, interaction: discord.Interaction, *args: P.args, **kwargs: P.kwargs) -> None:
            await part_of(interaction, Replies).guard(
                interaction, lambda: body(self, interaction, *args, **kwargs), defer=defer
            )

        del run.__wrapped__  # discord.py must read the signature below, not the body's strings
        run.__signature__ = inspect.signature(body, eval_str=True)  # type: ignore[attr-defined]  # read by inspect
        return run

    return wrap


class DirectMessages(Protocol):
    """What the guard asks of the direct messages (:class:`bot.surface.direct.Notifier`)."""

    async def dm_failed(self, user_id: int) -> bool: ...

    async def tell_failed_once(self, interaction: discord.Interaction) -> None: ...


class Replies:
    """The guard every interaction goes through, and what each one committed while it runs."""

    def __init__(self, direct: DirectMessages, metrics: Metrics):
        self.direct = direct
        self.metrics = metrics
        self._busy = 0
        self._idle = asyncio.Event()
        self._idle.set()
        # Told of a channel whose interaction failed as the database stopped answering, with
        # nothing known to be recorded: what it changed may be stored all the same (CatchUp.recover).
        self.unsure: Callable[[int], None] = lambda channel_id: None
        # interaction id -> what it committed, and whether that opened a lobby (no board yet), while handled
        self._recorded: dict[int, tuple[Said, bool]] = {}

    def committed(self, interaction: discord.Interaction, what: Said, *, lobby: bool = False) -> None:
        """Note that ``interaction`` changed a game (``what``: ``said("Your move `{move}` was
        recorded", move="B3")``, kept for the asker's language).

        From then on a failure while answering or posting is reported as "``what``, but
        ..." with a way to post the board again, never as "the game is unchanged"; a ``lobby``
        opened has no board, and ``what`` says how to reach it.
        """
        self._recorded[interaction.id] = (what, lobby)

    async def idle(self) -> None:
        """Wait until no interaction is being handled."""
        await self._idle.wait()

    async def guard(
        self,
        interaction: discord.Interaction,
        work: Callable[[], Awaitable[object]],
        *,
        defer: bool = True,
    ) -> None:
        """Run ``work``; turn refusals into ephemeral answers and crashes into a logged apology.

        With ``defer`` the interaction is acknowledged ephemerally first, so slow
        work never misses Discord's three seconds; ``work`` then answers with
        :func:`reply`.
        """
        self._busy += 1
        self._idle.clear()
        try:
            if interaction.guild_id is None:
                await reply(interaction, i18n.private(interaction).gettext(SERVERS_ONLY))
                return
            if defer and not interaction.response.is_done():
                await interaction.response.defer(ephemeral=True, thinking=True)
            failed_dm = await self.direct.dm_failed(interaction.user.id)  # before this command
            await work()
            if failed_dm and interaction.response.is_done():
                await self.direct.tell_failed_once(interaction)
        except (Refusal, MoveError) as exc:  # in the asker's language
            t = i18n.private(interaction)
            said = sentence(refusal(exc, t, written.name), t, as_written=starts_with_name(exc, t))
            await reply(interaction, f"⚠️ {said}")
        except Exception as exc:
            recorded, lobby = self._recorded.get(interaction.id, (None, False))
            if recorded is not None and isinstance(exc, discord.HTTPException):
                log.warning("Discord refused a message after a change was recorded: %s", exc)
            elif isinstance(exc, NotAnswering):  # one line: the same outage fails every interaction
                self.metrics.error("interaction")
                log.error("the database did not answer %s: %s", asked(interaction), exc)
                if recorded is None and interaction.channel_id is not None:
                    self.unsure(interaction.channel_id)  # a commit whose answer was lost may be stored
            else:
                self.metrics.error("interaction")
                # the command and its options' names, not their values: a typed move may be secret
                log.exception("unexpected error handling %s", asked(interaction, options=True))
            try:
                missing = missing_for_boards(interaction) if isinstance(exc, discord.Forbidden) else []
                text = failure_text(recorded, exc, i18n.private(interaction), missing, lobby=lobby)
                await reply(interaction, text)
            except discord.HTTPException:
                log.warning("could not tell the user about the error", exc_info=True)
        finally:
            self._recorded.pop(interaction.id, None)
            self._busy -= 1
            if not self._busy:
                self._idle.set()


def asked(interaction: discord.Interaction, *, options: bool = False) -> str:
    """What the interaction asked, for the log: ``/nim move``, or the component's custom id; with
    ``options``, the names of the options given (``/nim move move:…``), never their values (a move
    typed may be a secret one: a Guanga order kept, a Tiwanaku peek)."""
    data: dict[str, object] = dict(interaction.data or {})
    command = interaction.command
    if command is None:
        return str(data.get("custom_id") or data.get("name") or "an interaction")
    named = " ".join(f"{name}:…" for name in option_names(data.get("options"))) if options else ""
    return f"/{command.qualified_name} {named}".rstrip()


def option_names(options: object) -> list[str]:
    """The names of the options an interaction's data gives, a subcommand's own within it."""
    names: list[str] = []
    for option in options if isinstance(options, list) else []:
        if not isinstance(option, dict):
            continue
        if "value" in option:
            names.append(str(option.get("name")))
        names.extend(option_names(option.get("options")))
    return names


def failure_text(
    recorded: Said | None,
    exc: BaseException,
    t: Language = ENGLISH,
    missing: Sequence[str] = (),
    *,
    lobby: bool = False,
) -> str:
    """What to say when something failed, in ``t``: "unchanged" only if nothing was committed
    (``recorded`` is what was committed, put in words in ``t``); ``missing``: the permissions the
    bot lacks in the channel (by their English names), named when Discord refused a post.  A
    ``lobby`` opened has no board to post again: ``recorded`` says how to join and close it."""
    if recorded is None:
        return t.gettext(NOT_ANSWERING if isinstance(exc, NotAnswering) else UNEXPECTED)
    done = recorded.in_words(t)
    if lobby and isinstance(exc, discord.HTTPException):
        return t.gettext(
            "⚠️ {done}, but Discord refused the message ({status}).", done=done, status=exc.status
        )
    if lobby:
        return t.gettext(
            "⚠️ {done}, but something went wrong showing it (the error has been logged).", done=done
        )
    if isinstance(exc, discord.Forbidden) and missing:
        names = permission_list(list(missing))
        return t.ngettext(
            "⚠️ {done}, but Discord refused my post: I am missing {permissions} here, which a server "
            "admin can grant to my role. Once it is granted, {/game board} posts the board again.",
            "⚠️ {done}, but Discord refused my post: I am missing {permissions} here, which a server "
            "admin can grant to my role. Once they are granted, {/game board} posts the board again.",
            len(missing),
            done=done,
            permissions=names.in_words(t) if isinstance(names, Said) else names,
        )
    if isinstance(exc, discord.Forbidden) and exc.code == MISSING_ACCESS:
        return t.gettext(
            "⚠️ {done}, but Discord refused me access here: I cannot view this channel (in a private "
            "thread, I am not one of its members: mention me in it to add me). Once that is fixed, "
            "{/game board} posts the board again.",
            done=done,
        )
    if isinstance(exc, discord.Forbidden):
        return t.gettext(
            "⚠️ {done}, but Discord refused to let me post here (missing permissions). Once that is "
            "fixed, {/game board} posts the board again.",
            done=done,
        )
    if isinstance(exc, discord.HTTPException):
        return t.gettext(
            "⚠️ {done}, but Discord refused the message ({status}). Once that is fixed, {/game board} "
            "posts the board again.",
            done=done,
            status=exc.status,
        )
    return t.gettext(
        "⚠️ {done}, but something went wrong showing it (the error has been logged). Once that is "
        "fixed, {/game board} posts the board again.",
        done=done,
    )


def sentence(text: str, t: Language = ENGLISH, *, as_written: bool = False) -> str:
    """A refusal as a sentence: a capital first letter and a full stop; one that starts with an
    option's name (``max_turns``), or ``as_written`` with a name (a member's, a league's, a move
    as typed: see :func:`bot.sessions.starts_with_name`), keeps it ("ana is already signed up")."""
    text = text.strip()
    if not text:
        return t.gettext("That was not accepted.")
    first = text.split(" ", 1)[0]
    if "_" not in first and not as_written:
        text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def layout(
    text: str, file: discord.File | None = None, rows: Sequence[discord.ui.Item] = ()
) -> discord.ui.LayoutView:
    """A private message with components v2: the text, the picture, then ``rows`` (a menu's)."""
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(discord.ui.TextDisplay(clip(text)))
    if file is not None:
        view.add_item(discord.ui.MediaGallery(gallery_item(file)))
    for row in rows:
        view.add_item(row)
    return view


async def reply(
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
        view = layout(content, file)
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


UNKNOWN_COMPONENT = N_(
    "The bot does not know this button or menu (it may come from an older version of the bot): "
    "nothing was done. The buttons on the game's latest board and the slash commands work."
)


async def answer_unknown(interaction: discord.Interaction, known: Sequence[re.Pattern[str]]) -> bool:
    """Answer privately a click that nothing of the bot will answer: a component whose
    ``custom_id`` matches none of the ``known`` templates (every persistent component's; a
    modified client or a message of an older version can send any id).  discord.py drops those
    silently, which leaves the person with Discord's "This interaction failed".  (A form is not
    asked: Discord sends one only from a form the bot opened, and it opens none.)  True when it
    answered."""
    if interaction.type is not discord.InteractionType.component:
        return False
    data = cast("dict[str, object]", interaction.data or {})
    custom_id = str(data.get("custom_id", ""))
    if any(template.fullmatch(custom_id) for template in known):
        return False
    log.info("interaction %s: no part of the bot answers the component %r", interaction.id, custom_id[:100])
    try:
        await interaction.response.send_message(
            i18n.private(interaction).gettext(UNKNOWN_COMPONENT), ephemeral=True
        )
    except discord.HTTPException:
        log.warning("could not answer interaction %s", interaction.id, exc_info=True)
        return False
    return True

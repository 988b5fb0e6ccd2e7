"""A board Discord refused where no command was asked: the log says where and why, the players are
told, and the post is tried again.

Outside a command (a computer's turn, a clock that ran out, a league round that opens a game, the
catch-up at start-up) nobody waits for an answer, so a refused board would leave the game silent:
the next player never mentioned.  Here the refusal is logged at WARNING with the server, the
channel and the permissions the bot lacks there (read from its cache, as Discord computes them);
the player to move and the host get a direct message, in their own language, once per game and
refusal (the ``board`` job's payload keeps what they were told), saying where the board could not
be posted, why, and what a server admin must grant; and the ``board`` job tries the post again
(:meth:`bot.surface.catchup.CatchUp.retry`), soon after an admin changes a channel or a role
(:meth:`Unposted.permissions_changed`), else every :data:`RETRY` seconds, and once a week after a week
(:data:`WEEK`: a server that removed the bot refuses every try).  A board refused in
answer to a command is tried again too (:meth:`Unposted.again`): its asker heard why in the answer,
and the next refusal, no command's, tells the others.  A try posts what the channel was not told: a
turn that ended, and also a board refused inside a turn (an undo inside a shared round, a seat
handed over, more time on a clock), which no turn's end brings back: the job's payload keeps it
(:class:`Inside`: the board it was to follow, whom it called on, its header, and the lines the
channel refused just before it: who took a league seat, what the answer to a clock decided), and
the try posts it while that board is still the last posted, under its header and those lines, in
the channel's language then, calling on nobody its board would not have (the others still to move
are named without a ping); a board posted meanwhile told everything (it carries those lines), and
the try posts nothing.  The lines refused with a turn's board, a game's first board (none posted
yet) or the message telling a game's abandon are kept the same way, and come with it when the try
posts it; so are the sentences of a board whose post found another process posting the game's
board (:data:`HANDED`), which come with the next board posted, whichever it follows, and so do
lines refused while a post holds the ``board`` job (which that post read before them:
:func:`handed_over`).  What arms the job while a post holds it keeps that post's claim
(:data:`POSTING`): no third post takes the job meanwhile; and it keeps what was handed to the job
since that post took it, not what the post read and tells (the board it follows may not change: an
abandon told).  A timeout question Discord refused
(:meth:`Unposted.question_refused`) is logged and told the same way, to the players still in the
game and the host (one message each naming every seat, when several ran out at once), and the
``ask`` job asks it again (:meth:`bot.surface.clockvote.ClockDesk.ask_again`).

Imports discord, :mod:`bot.sessions` (types), :mod:`bot.storage`, :mod:`bot.time.jobs` and
:mod:`bot.surface` channels, direct, written, and :mod:`engines.core` (lists in words, sentences).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, replace

import discord

from bot.sessions import Session
from bot.storage import Job, JobPayload
from bot.surface import written
from bot.surface.channels import BOARD_NEEDS, BOARD_NEEDS_IN_THREADS, permission_list
from bot.surface.direct import Notifier
from bot.time.jobs import ASK, BOARD
from engines.core import Said, in_words, listing
from languages import Language

log = logging.getLogger(__name__)

RETRY = 600.0
"""Seconds between tries to post a board Discord refused for a permission (or a locked thread)."""
RETRY_SOON = 60.0
"""Seconds before a board Discord failed to take for another reason (a 5xx) is tried again."""
WEEK = 7 * 24 * 3600.0
"""A board refused for this long since its first refusal is tried once a :data:`WEEK` from then on,
not every :data:`RETRY` seconds (a server that removed the bot refuses every try, for ever)."""
THREAD_LOCKED = 160005
"""Discord's error code for a message refused in a locked thread."""


POSTING = "board"
"""Whose claim a board post holds the game's ``board`` job under, in any process
(:meth:`bot.surface.boards.Boards.post_board`): what arms the job while a post holds it keeps that
claim (:meth:`bot.storage.jobs.Jobs.arm_keeping`), so that no third post takes the job meanwhile,
and the post gives it back armed so, due at once, when it is over."""

HANDED = -1
"""The ``after`` of the sentences a board post handed to the ``board`` job when it found another
process posting the game's board (:meth:`bot.surface.boards.Boards.post_board`): that post does not
carry them, so they are owed with the next board posted, whichever board it follows."""


@dataclass(frozen=True)
class Inside:
    """A board refused inside a turn: the board it was to follow (``after``, its message id), and
    what it was posted with (:meth:`bot.surface.boards.Boards.post_board`): ``ping``, the seats
    whose turn it started again, ``restarted`` (more time on a clock), whose people it calls on,
    its ``header`` (a league's seat handed over), and the ``lines`` the channel refused to take
    just before it (who takes the seat, what an answer to a clock decided), carried by the board,
    with ``pings``, those of their people who want a mention.  Header and lines are kept as
    sentences, said again in the channel's language when the board is posted.

    Refused with a board the try posts anyway (a turn's, a game's first, whose ``after`` is 0, or
    the message telling a game's abandon), only the ``lines`` and their ``pings`` are kept, and a
    game's first board's ``header`` (a league round's, said again in place of the catch-up's).  Either
    way the board's ``notes`` (the table's own lines: a seat resigned or out of time and played by
    the computer from then on) are kept, for the board that tells them (or the message telling the
    game's abandon, should that come first): every board refused keeps its own, in order.

    A post that found another process posting the game's board keeps its sentences the same way
    (its header but a first board's, lines, pings, notes, and whom it called on), ``after`` being
    :data:`HANDED`: the board the other process posts is not the one they were to follow, and they
    come with the next board, whichever it follows."""

    after: int
    ping: bool = False
    restarted: tuple[int, ...] = ()
    header: Said | None = None
    lines: tuple[Said, ...] = ()
    pings: tuple[int, ...] = ()
    notes: tuple[Said, ...] = ()

    def payload(self) -> JobPayload:
        """What the ``board`` job keeps (every key, so that it replaces an earlier board's)."""
        return {
            "inside": self.after,
            "ping": self.ping,
            "restarted": list(self.restarted),
            "header": self.header.to_dict() if self.header is not None else {},
            "lines": [line.to_dict() for line in self.lines],
            "pings": list(self.pings),
            "note": [note.to_dict() for note in self.notes],
        }

    def joined(self, earlier: Inside | None) -> Inside:
        """This board, refused after ``earlier`` was, both to follow the same board: the retry
        posts one board for both, calling on whom either would have, with the lines of both."""
        if earlier is None or (HANDED not in (earlier.after, self.after) and earlier.after != self.after):
            return self
        after = self.after if self.after != HANDED else earlier.after  # (a board's own, if either has one)
        restarted = tuple(sorted({*earlier.restarted, *self.restarted}))
        pings = tuple(sorted({*earlier.pings, *self.pings}))
        # a game's first board keeps the header it was first posted with (a league round's); a
        # board inside a turn, the latest
        header = (earlier.header or self.header) if after == 0 else (self.header or earlier.header)
        lines = (*earlier.lines, *self.lines)
        return Inside(
            after,
            self.ping or earlier.ping,
            restarted,
            header,
            lines,
            pings,
            noted(earlier.notes, self.notes),
        )

    @classmethod
    def of(cls, payload: JobPayload) -> Inside | None:
        """The board inside a turn a ``board`` job's ``payload`` keeps, or None."""
        after = payload.get("inside")
        if not isinstance(after, int):
            return None
        restarted = tuple(s for s in payload.get("restarted", []) if isinstance(s, int))
        header, note = payload.get("header"), payload.get("note", [])
        lines = tuple(Said.from_dict(line) for line in payload.get("lines", []) if isinstance(line, dict))
        notes = [note] if isinstance(note, dict) else note if isinstance(note, list) else []
        pings = tuple(u for u in payload.get("pings", []) if isinstance(u, int))
        return cls(
            after,
            bool(payload.get("ping", False)),
            restarted,
            Said.from_dict(header) if isinstance(header, dict) and "msg" in header else None,
            lines,
            pings,
            tuple(Said.from_dict(n) for n in notes if isinstance(n, dict) and "msg" in n),
        )


def noted(*notes: Iterable[Said]) -> tuple[Said, ...]:
    """The table's own lines (:attr:`Inside.notes`) of boards told together, in order, each once (a
    board tried again and kept again carries the note it was kept with)."""
    out: list[Said] = []
    for note in (note for group in notes for note in group):
        if note not in out:  # (a sentence's values are a mapping: compared, not hashed)
            out.append(note)
    return tuple(out)


def held_by_post(job: Job, now: float) -> bool:
    """Whether a board post (of any process) holds the ``board`` job ``job`` at ``now``."""
    return job.claimed_by == POSTING and job.claimed_until is not None and job.claimed_until > now


def handed_over(job: Job, handed: Inside | None) -> JobPayload:
    """The payload of the ``board`` job ``job``, which a board post holds, once ``handed`` (what
    the channel was not told and that post does not carry: another post's sentences, a line
    refused; or nothing) is handed to it: what the job kept when that post took it, the post read
    and tells, so it goes; what was handed to it since, under the same claim (``during``), stays,
    before ``handed``.  It comes with the next board posted, whichever it follows (:data:`HANDED`)."""
    payload = job.payload.copy()
    earlier = Inside.of(payload)
    if earlier is not None and earlier.after == HANDED and payload.get("during") == job.claim:
        handed = earlier if handed is None else earlier.joined(handed)
    payload.pop("inside", None)
    if handed is not None:
        payload.update(replace(handed, after=HANDED).payload())
        payload["during"] = job.claim or ""
    return payload


@dataclass(frozen=True)
class Refused:
    """Why Discord refused a board: the permissions the bot lacks there (by their English names),
    a locked thread, or neither known.  ``key`` is what the players were told, kept in the job."""

    missing: tuple[str, ...] = ()
    locked: bool = False
    forbidden: bool = True

    @property
    def key(self) -> str:
        if self.locked:
            return "locked"
        if self.missing:
            return "missing:" + ",".join(self.missing)
        return "forbidden" if self.forbidden else "failed"

    @property
    def logged(self) -> str:
        """Why, for the log."""
        if self.locked:
            return "the thread is locked"
        if self.missing:
            return "missing " + ", ".join(self.missing)
        return "a permission (not known which)" if self.forbidden else "not a permission"


def board_lacks(
    bot: discord.Client, guild_id: int | None, channel_id: int, parent_id: int | None = None
) -> tuple[str, ...] | None:
    """What posting a board needs that the bot lacks in the channel or thread, by name, as its cache
    of the server's roles and overwrites says; a game's thread out of the cache (closed) is judged
    by its parent channel ``parent_id``, whose permissions a thread has (None: neither is in this
    process's cache, nor the bot's member).  Without View Channel, or without the right to send
    there, only that is named: Discord then denies what depends on it (Attach Files), as the cache
    computes it too."""
    guild = bot.get_guild(guild_id) if guild_id else None
    if guild is None or guild.me is None:
        return None
    channel = guild.get_channel_or_thread(channel_id)
    thread = isinstance(channel, discord.Thread)
    if channel is None and parent_id is not None:
        channel, thread = guild.get_channel(parent_id), True
    if channel is None or not hasattr(channel, "permissions_for"):
        return None
    have = channel.permissions_for(guild.me)
    if not have.view_channel:
        return ("View Channel",)
    needs = BOARD_NEEDS_IN_THREADS if thread else BOARD_NEEDS
    missing = [name for attr, name in needs if not getattr(have, attr)]
    first = missing[:1]  # View Channel, then the right to send, come first in the list
    return tuple(first if first and first[0] != "Attach Files" else missing)


def refused(exc: discord.HTTPException, missing: tuple[str, ...] | None) -> Refused:
    if not isinstance(exc, discord.Forbidden):
        return Refused(forbidden=False)
    if exc.code == THREAD_LOCKED:
        return Refused(locked=True)
    return Refused(missing=missing or ())


def unposted_text(
    session: Session, channel: str, server: str, why: Refused, to_move: bool, t: Language, card: bool = False
) -> str:
    """The direct message saying that ``session``'s board (``card``: its results card) could not be
    posted in ``channel`` (a mention) of ``server``, why, what an admin must do, and (``to_move``)
    that the turn is theirs."""
    numbered = {"game": session.info.title, "number": session.id}
    what = (
        t.gettext("the results card of **{game}** #{number}", **numbered)
        if card
        else t.gettext("the board of **{game}** #{number}", **numbered)
    )
    values = {"what": what, "channel": channel, "server": server}
    minutes = int(RETRY // 60)
    if why.locked:
        lines = [
            t.gettext(
                "⚠️ I could not post {what} in {channel} on **{server}**: the thread is locked. A "
                "moderator can unlock it; I try again as soon as it is unlocked, and every {minutes} "
                "minutes.",
                minutes=minutes,
                **values,
            )
        ]
    elif why.missing:
        names = permission_list(list(why.missing))
        lines = [
            t.ngettext(
                "⚠️ I could not post {what} in {channel} on **{server}**: I am "
                "missing {permissions} there. A server admin can grant it to my role (the channel's "
                "settings, Permissions); I try again as soon as permissions change, and every {minutes} "
                "minutes.",
                "⚠️ I could not post {what} in {channel} on **{server}**: I am "
                "missing {permissions} there. A server admin can grant them to my role (the channel's "
                "settings, Permissions); I try again as soon as permissions change, and every {minutes} "
                "minutes.",
                len(why.missing),
                permissions=in_words(names, t),
                minutes=minutes,
                **values,
            )
        ]
    else:
        lines = [
            t.gettext(
                "⚠️ I could not post {what} in {channel} on **{server}**: Discord "
                "refused me there. A server admin can check that my role has View Channel, Send Messages "
                "(Send Messages in Threads in a thread) and Attach Files there; I try again as soon as "
                "permissions change, and every {minutes} minutes.",
                minutes=minutes,
                **values,
            )
        ]
    if to_move:
        lines.append(t.gettext("It is your turn there; the game waits until its board is posted."))
    return "\n".join(lines)


def unasked_text(
    session: Session, late: str | Sequence[str], channel: str, server: str, why: Refused, t: Language
) -> str:
    """The direct message saying that the question what now, after ``late``'s time ran out in
    ``session`` (one name, or the names of several seats whose time ran out at once, each asked
    about), could not be posted in ``channel`` (a mention) of ``server``, why, what an admin must
    do, and what happens if it stays unasked."""
    seats = [late] if isinstance(late, str) else list(late)
    if len(seats) == 1:
        person = seats[0]
        ran_out = t.gettext("{person}'s time ran out", person=person)
        then = t.gettext(
            "If nobody answers within a day of the time running out, the computer takes {person}'s seat.",
            person=person,
        )
    else:
        people = listing(seats)
        named = in_words(people, t)
        ran_out = t.gettext("Time ran out for {people}", people=named)
        then = t.gettext(
            "If nobody answers within a day of the time running out, the computer takes the seats of {people}.",
            people=named,
        )
    values = {
        "ran_out": ran_out,
        "game": session.info.title,
        "number": session.id,
        "channel": channel,
        "server": server,
        "minutes": int(RETRY // 60),
    }
    if why.locked:
        first = t.gettext(
            "⚠️ {ran_out} in **{game}** #{number}, but I could not ask the players what now in {channel} "
            "on **{server}**: the thread is locked. A moderator can unlock it; I ask again as soon as it "
            "is unlocked, and every {minutes} minutes.",
            **values,
        )
    elif why.missing:
        names = permission_list(list(why.missing))
        first = t.ngettext(
            "⚠️ {ran_out} in **{game}** #{number}, but I could not ask the players what now in {channel} "
            "on **{server}**: I am missing {permissions} there. A server admin can grant it to my role "
            "(the channel's settings, Permissions); I ask again as soon as permissions change, and every "
            "{minutes} minutes.",
            "⚠️ {ran_out} in **{game}** #{number}, but I could not ask the players what now in {channel} "
            "on **{server}**: I am missing {permissions} there. A server admin can grant them to my role "
            "(the channel's settings, Permissions); I ask again as soon as permissions change, and every "
            "{minutes} minutes.",
            len(why.missing),
            permissions=in_words(names, t),
            **values,
        )
    else:
        first = t.gettext(
            "⚠️ {ran_out} in **{game}** #{number}, but I could not ask the players what now in {channel} "
            "on **{server}**: Discord refused me there. A server admin can check that my role has View "
            "Channel and Send Messages (Send Messages in Threads in a thread) there; I ask again as soon "
            "as permissions change, and every {minutes} minutes.",
            **values,
        )
    return f"{first}\n{then}"


class Unposted:
    """Boards Discord refused outside a command: logged, told, tried again."""

    def __init__(self, notifier: Notifier):
        self.notifier = notifier
        self.look = notifier.look

    @property
    def bot(self) -> discord.Client:
        return self.look.bot

    async def failed(self, session: Session, exc: discord.HTTPException, after: str) -> None:
        """The board of ``session`` was refused ``after`` something no command asked for (words for
        the log): log where and why, arm the ``board`` job, and tell the people the game waits on
        (and the host) once per refusal.  While a post (of any process) holds the job, what that
        post read from it is not kept (it tells it), what was handed to the job since is."""
        row = session.row
        missing = board_lacks(self.bot, row.guild_id, row.channel_id, row.lobby_channel_id)
        why = refused(exc, missing)
        guild = self.bot.get_guild(row.guild_id) if row.guild_id else None
        channel = guild.get_channel_or_thread(row.channel_id) if guild is not None else None
        log.warning(
            "the board of session %s (%s) was not posted %s in channel %s%s of server %s (%s): %s; "
            "Discord answered %s %s",
            session.id,
            session.info.title,
            after,
            row.channel_id,
            f" (#{channel.name})" if channel is not None else "",
            getattr(guild, "name", "?"),
            row.guild_id,
            why.logged,
            exc.status,
            exc.text or exc.code,
        )
        store = self.look.service.store
        now = store.clock.time()

        def made(job: Job | None) -> tuple[float, JobPayload]:
            told = job.payload.get("told") if job is not None else None
            since = job.payload.get("since", now) if job is not None else now
            # (a server that removed the bot refuses every try, for ever: once a week after a week)
            delay = WEEK if now - since >= WEEK else RETRY if why.forbidden else RETRY_SOON
            payload: JobPayload = {"guild": row.guild_id or 0, "since": since}
            kept = job.payload if job is not None else {}
            if job is not None and held_by_post(
                job, now
            ):  # what that post read it tells: what came since stays
                kept = handed_over(job, None)
                if "during" in kept:
                    payload["during"] = kept["during"]
            inside = Inside.of(kept)
            if inside is not None:  # a board inside a turn (or lines) still owed
                payload.update(inside.payload())
            if why.forbidden or told is not None:
                payload["told"] = why.key if why.forbidden else told or ""
            return now + delay, payload

        job = await store.jobs.rearm(BOARD, str(session.id), made, holder=POSTING)
        told = job.payload.get("told") if job is not None else None
        since = job.payload.get("since", now) if job is not None else now
        if now - since >= WEEK:
            log.warning(
                "the board of session %s has been refused for %d days: it is tried once a week now",
                session.id,
                (now - since) // 86400,
            )
        if why.forbidden and told != why.key and session.status != "abandoned":  # (no board to wait for)
            await self.tell(session, why)

    async def again(
        self,
        session: Session,
        inside: Inside | None = None,
        read: Inside | None = None,
        *,
        mine: bool = False,
    ) -> None:
        """A board post was refused, whoever asked for it (a command's asker hears it in the
        answer): the ``board`` job tries it again in :data:`RETRY` seconds, unless it is armed
        already (:meth:`failed`, which runs next when no command asked, tells the players).
        ``inside``: the refused board was one inside a turn, or carried lines (:class:`Inside`);
        the job keeps it (an armed job keeps its time too; joined to an earlier one refused in the
        same turn), so that its try posts the board, or the lines, while no other board has
        followed the one it was to follow
        (:meth:`bot.surface.boards.Boards.owed_inside`).  ``read``: what the job kept when the
        refused post took it, which that post was to tell; a post that found it taken, handing its
        own sentences over (:data:`HANDED`), put them in its place meanwhile, so it is kept again,
        before them.  ``mine``: the refused post holds the job; else a post holding it (in any
        process) tells what the job kept when it took it, and not ``inside``, which is handed to the
        job (:func:`handed_over`) for the next board posted, whichever it follows."""
        store = self.look.service.store
        now = store.clock.time()

        def made(job: Job | None) -> tuple[float, JobPayload] | None:
            if not mine and inside is not None and job is not None and held_by_post(job, now):
                return job.claimed_until or now, handed_over(job, inside)
            earlier = Inside.of(job.payload) if job is not None else None
            handed = earlier is not None and earlier.after == HANDED
            kept = inside
            if read is not None and earlier != read and (earlier is None or handed):
                kept = read if kept is None else kept.joined(read)
            if kept is not None:  # (sentences handed over came after this post's: they come last)
                kept = earlier.joined(kept) if earlier is not None and handed else kept.joined(earlier)
            if job is not None and (kept is None or earlier == kept):
                return None
            payload: JobPayload = (
                job.payload.copy() if job is not None else {"guild": session.row.guild_id or 0, "since": now}
            )
            if kept is not None:
                payload.update(kept.payload())
            due = job.due_at if job is not None and job.claim is None else now + RETRY  # (held: a post's)
            return due, payload

        # (read again should another process change the job meanwhile)
        await store.jobs.rearm(BOARD, str(session.id), made, holder=POSTING)

    async def tell(self, session: Session, why: Refused) -> None:
        """A direct message to each person the game waits on, and to the host, in their language:
        the board was refused, or the results card (the game's end told, its card not)."""
        session = await self.look.service.core.get(session.id) or session
        card = session.status == "finished" and session.row.end_told and not session.row.card_told
        waiting = self.notifier.waiting_people(session)
        channel = f"<#{session.row.channel_id}>"
        shown = written.session(session)

        def text(uid: int, t: Language) -> str:
            server = self.notifier.guild_name(session, t)
            return unposted_text(shown, channel, server, why, uid in waiting, t, card)

        await self.send(
            session, [*waiting, session.row.host_id], text, "the results card" if card else "the board"
        )

    async def send(
        self, session: Session, people: list[int], text: Callable[[int, Language], str], what: str
    ) -> None:
        """A direct message to each of ``people`` (the host among them, once each; never the bot),
        ``text`` in their language; one that cannot be told is logged (``what`` was not posted)."""
        bot_id = self.bot.user.id if self.bot.user is not None else None
        for uid in dict.fromkeys(people):
            if uid == bot_id:
                continue
            person = await self.notifier.store.people.person(uid)
            t = await self.notifier.language_of(person, session)
            try:
                user = self.bot.get_user(uid) or await self.bot.fetch_user(uid)
                await user.send(text(uid, t), allowed_mentions=discord.AllowedMentions.none())
            except discord.HTTPException as exc:
                log.info(
                    "could not tell %s that %s of session %s was not posted (%s)", uid, what, session.id, exc
                )

    async def question_refused(
        self, session: Session, seat: int, at: int, exc: discord.HTTPException
    ) -> Refused | None:
        """Discord refused the question what now after ``seat``'s time ran out at ``at``: log where
        and why, and arm the ``ask`` job that asks again
        (:meth:`bot.surface.clockvote.ClockDesk.ask_again`).  Why, when the players still in the game
        and the host are to be told (once per refusal: :meth:`tell_unasked`); else None."""
        row = session.row
        lacks = board_lacks(self.bot, row.guild_id, row.channel_id, row.lobby_channel_id)
        missing = tuple(name for name in lacks or () if name != "Attach Files")  # a question has no file
        why = refused(exc, missing)
        log.warning(
            "the timeout question of seat %s in session %s (%s) was not posted in channel %s of server "
            "%s: %s; Discord answered %s %s",
            seat,
            session.id,
            session.info.title,
            row.channel_id,
            row.guild_id,
            why.logged,
            exc.status,
            exc.text or exc.code,
        )
        store = self.look.service.store
        key = f"{session.id}:{seat}"
        job = await store.jobs.job(ASK, key)
        told = job.payload.get("told") if job is not None else None
        payload: JobPayload = {
            "guild": row.guild_id or 0,
            "at": at,
            "told": why.key if why.forbidden else told or "",
        }
        now = store.clock.time()
        await store.jobs.schedule(ASK, key, now + (RETRY if why.forbidden else RETRY_SOON), payload)
        return why if why.forbidden and told != why.key else None

    async def tell_unasked(self, session: Session, seats: Sequence[int], why: Refused) -> None:
        """Tell the players still in the game and the host that the question about ``seats`` (one,
        or several whose time ran out at once) was refused, ``why``: one direct message each,
        naming every one of those seats."""
        late = [written.name(session.by_seat(seat).name) for seat in seats]
        channel = f"<#{session.row.channel_id}>"
        shown = written.session(session)
        people = [s.user_id for s in session.seats if s.user_id and not s.computer and not s.resigned]

        def text(uid: int, t: Language) -> str:
            return unasked_text(shown, late, channel, self.notifier.guild_name(session, t), why, t)

        await self.send(session, [*people, session.row.host_id], text, "a timeout question")

    async def permissions_changed(self, guild_id: int) -> None:
        """A channel or a role of the server changed (an admin granting what was missing, perhaps):
        its boards and timeout questions waiting to be posted again are tried now."""
        store = self.look.service.store
        now = store.clock.time()
        woke = False
        for job in [*await store.jobs.pending(BOARD), *await store.jobs.pending(ASK)]:
            if job.payload.get("guild") == guild_id and job.due_at > now and job.claim is None:
                # only while still pending: one posted meanwhile (its job done) is not posted twice
                woke = await store.jobs.hasten(job, now) or woke
        scheduler = getattr(self.bot, "scheduler", None)
        if woke and scheduler is not None:
            scheduler.wake()


def owed_in(session: Session, job: Job | None) -> Inside | None:
    """What the game's ``board`` job ``job`` keeps owed (:meth:`bot.surface.boards.Boards.owed_inside`), while the
    board it was to follow is still the last one posted, or none was yet, or whichever board it
    follows (:data:`~bot.surface.unposted.HANDED`); else None."""
    inside = Inside.of(job.payload) if job is not None else None
    board = session.row.board_message_id or 0  # (0: the game's first board is owed)
    return inside if inside is not None and inside.after in (board, HANDED) else None


def also_pinging(mentions: discord.AllowedMentions, users: Collection[int]) -> discord.AllowedMentions:
    """A board's ``mentions``, pinging ``users`` too (the people of the lines it carries)."""
    if not users or mentions.users is True:
        return mentions
    pinged = mentions.users if isinstance(mentions.users, list) else []
    ids = {getattr(user, "id", None) for user in pinged}
    more = [discord.Object(uid) for uid in sorted(users) if uid not in ids]
    return discord.AllowedMentions(everyone=False, roles=False, users=[*pinged, *more])

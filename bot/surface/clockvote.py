"""Game clocks at the table: deadlines of clocked games, the question when time runs out, and
``/game return``.

When a person's clock runs out (see :mod:`bot.time.gameclock`), the game's channel gets one message
naming them, with three buttons for the other people in the game: let the computer play the seat
from now on, give more time (the clock's full start again), or abandon the game.  The first answer
decides.  A scheduler job (kind ``timeout``, key ``<session>:<seat>``) lets the computer take the
seat when nobody has answered within :data:`gameclock.VOTE_SECONDS`.  Buttons and job are stored
(the buttons are dynamic items), so both survive a restart.  The ``ask`` job (key
``<session>:<seat>``) is armed with the time-out too, a little later
(:data:`bot.sessions.clocks.ASK_AFTER`), and the question's post cancels it: a process that stops
between the time-out and its question leaves the question to be asked after the restart, with the
others of that time-out (one direct message a person about them all, as at the time-out).  A
question Discord refuses is logged and told like a refused board (:mod:`bot.surface.unposted`),
and the ``ask`` job asks it again until it is posted, answered or closed.  The late person may still move while
the question is open; that closes it.  A question closed by anything but an answer (the late
person's move, an undo past the time-out, the game's end, nobody answering) says so under it and
loses its buttons: its message is kept in its ``timeout`` job, so this holds after a restart too.
A question answered (or that nobody answered in time) loses its buttons as well, whether or not the
channel took the answer's line (a line refused is kept at once by the game's ``board`` job, for the
board that follows, its try or the start's catch-up): the answer arms the job again, a little later, marked ``decided``,
and it goes once the buttons are off (the board that follows, or the answer's end, takes them off,
in whichever process; an edit Discord refuses, or a process stopped first, leaves it to the job's
try, after a restart too).  Nobody answering marks it ``taken`` as well, until the channel is told
so (or the line is kept for the board): a restart before that tells it, one after it does not.
The question, and the line saying nobody answered it, carry a nonce naming the seat and the
time-out (:mod:`bot.surface.nonces`): told again after a stop before their record, within
Discord's minutes, they are in the channel once.  Those who want a direct message (``/me notify``)
get one about the question (in their quiet hours, when those end, if it is still open: a
``timeout_notice`` job); only those who want a mention are pinged.

Imports: discord, :mod:`bot.locks`, :mod:`bot.sessions`, :mod:`bot.time.gameclock`, and :mod:`bot.surface` boards,
buttons, channels, direct, lobby, nonces, replies, unposted.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import replace

import discord

from bot import i18n, notices
from bot.locks import KeyedLocks
from bot.replaying import UNDO
from bot.sessions import ASK_AFTER, TIMEOUT_CHOICES, MoveResult, Refusal, Seat, Session, TimeOut
from bot.storage import Job, JobPayload, PersonRow
from bot.surface import nonces, written
from bot.surface.boards import Boards
from bot.surface.buttons import Persistent, button
from bot.surface.channels import add_line, channel_missing, clicked
from bot.surface.direct import mention_above, wanting_mention
from bot.surface.lobby import Lobby
from bot.surface.replies import part_of, reply
from bot.surface.unposted import Inside, Refused
from bot.time import gameclock as gc
from bot.time.jobs import ASK, BOARD, TIMEOUT, TIMEOUT_NOTICE
from bot.time.source import stamp_of
from engines.core import Said, in_words, listing, said
from languages import ENGLISH, N_, Language

log = logging.getLogger(__name__)


async def nothing(*_: object) -> None:
    return None


LABELS = {
    "computer": N_("Computer plays the seat"),
    "more": N_("Give more time"),
    "abandon": N_("Abandon the game"),
}
# What each answer decided, said after "{person} answered:" (messages: translated where shown).
DECIDED = {
    "computer": N_("the computer plays the seat from now on"),
    "more": N_("{name} has {time} on their clock again, from now"),
    "abandon": N_("the game is abandoned"),
}
STYLES = {
    "computer": discord.ButtonStyle.primary,
    "more": discord.ButtonStyle.success,
    "abandon": discord.ButtonStyle.danger,
}


def decision(session: Session, seat: int, choice: str) -> Said:
    """What answer ``choice`` to the timeout of ``seat`` decided, kept for the reader's language."""
    spec = session.clock
    return Said(
        DECIDED.get(choice, choice),
        {
            "name": written.name(session.by_seat(seat).name),
            "time": gc.spoken(spec.start) if spec is not None else said("more time"),
        },
    )


def decided_words(session: Session, seat: int, choice: str, t: Language = ENGLISH) -> str:
    """What answer ``choice`` to the timeout of ``seat`` decided, in language ``t``."""
    return decision(session, seat, choice).in_words(t)


def unanswered(session: Session, seat: int) -> Said:
    """The channel's line when nobody answered the question about ``seat``'s time in time: the
    computer took the seat."""
    return said("No answer in time: {decided}.", decided=decision(session, seat, "computer"))


def unfinished(session: Session, seat: int) -> Said:
    """The channel's line when the late player made a step of their turn (which closed the
    question) and did not finish the turn before the question's time was over: the computer took
    the seat."""
    return said(
        "{name} did not finish the turn in time: {decided}.",
        name=written.name(session.by_seat(seat).name),
        decided=decision(session, seat, "computer"),
    )


def nobody_answered(session: Session, seat: int, decided: Mapping[str, object]) -> Said:
    """The channel's line when the question's time was over, as its ``timeout`` job kept what was
    decided (``unfinished``: the late player had made a step of the turn)."""
    return unfinished(session, seat) if decided.get("unfinished") else unanswered(session, seat)


def answered(user_id: int, session: Session, seat: int, choice: str) -> Said:
    """The channel's line when person ``user_id`` answered ``choice`` to the question about
    ``seat``'s time."""
    return said(
        "{person} answered: {decided}.", person=f"<@{user_id}>", decided=decision(session, seat, choice)
    )


def question(session: Session, seat, others, due: float, t: Language = ENGLISH) -> str:
    """The timeout question for ``seat`` (its time ran out), put to ``others``, in language ``t``."""
    spec = session.clock
    head = t.gettext(
        "⏰ {person}'s time ran out in {game} game #{number}.",
        person=written.mention(seat),
        game=session.info.title,
        number=session.id,
    )
    if others:
        ask = t.gettext("{people}: what now?", people=" ".join(written.mention(s) for s in others))
    else:
        ask = t.gettext("Nobody else can answer here. What now?")
    if spec is not None:
        more = t.gettext("the full {time} again, from now", time=gc.spoken(spec.start))
    else:
        more = t.gettext("more time")
    body = t.gettext(
        "**Computer plays the seat** from now on ({name} may take it back once with `{/game return}`, and "
        "ranks last), **give more time** ({more}), or **abandon the game**. The first answer decides. "
        "With no answer {when}, the computer takes the seat. {name} can still move until then, which "
        "closes this question.",
        name=written.name(seat.name),
        more=more,
        when=f"<t:{int(due)}:R>",
    )
    return f"{head}\n{ask} {body}"


QUESTION_MOVED = N_("Closed: {name} moved before anyone answered.")
QUESTION_CHANGED = N_("Closed: the game changed before anyone answered.")
QUESTION_OVER = N_("Closed: the game ended before anyone answered.")
QUESTION_UNANSWERED = N_("Closed: nobody answered in time.")
YOUR_TIME_RAN_OUT = N_(
    "⏰ Your time ran out in {game} game #{number} on {server}. The other players are asked what happens"
    " next; until one of them answers, you can still move. {link}"
)
THEIR_TIME_RAN_OUT = N_(
    "⏰ Time ran out for {people} in {game} game #{number} on {server}. What happens next is up to the"
    " players: the first answer decides. {link}"
)
THEIR_TIMES_RAN_OUT = N_(
    "⏰ Time ran out for {people} in {game} game #{number} on {server}. What happens next is up to the"
    " players: the first answer to each question decides. {link}"
)


class ClockDesk:
    """What the table does about clocks: deadlines, the timeout question, its answers."""

    def __init__(self, boards: Boards, lobby: Lobby):
        self.boards, self.lobby, self.replies = boards, lobby, boards.replies
        self.look, self.service = boards.look, boards.service
        # a time ran out, or more time was given: an undo request asked before it is closed
        # (UndoRequests.clock_changed)
        self.clock_changed: Callable[[Session], Awaitable[None]] = nothing
        # the questions this process is posting after a time-out (session, seat, time), which their
        # ``ask`` job, armed with the time-out in case the process stops first, leaves to it
        self.asking: set[tuple[int, int, int]] = set()
        # one game's questions asked again at a time here, so that siblings tell once (ask_again)
        self.asking_lock: KeyedLocks[int] = KeyedLocks()

    async def deadline(self, job: Job) -> None:
        """The ``deadline`` job of a clocked game, the turn timer's too (see Clocks.fire_clock)."""
        outcome = await self.service.clocks.fire_clock(int(job.key), job)
        if isinstance(outcome, MoveResult):
            try:  # the move stands; a board Discord refuses is logged, told and tried again
                await self.boards.announce(outcome)
            except discord.HTTPException as exc:
                await self.boards.not_posted(outcome.session, exc, "after its clock ran out")
            except Exception:
                log.warning(
                    "the board of session %s was not posted after its deadline", job.key, exc_info=True
                )
        elif isinstance(outcome, TimeOut):
            await self.ask(outcome)

    async def gone(self, session: Session, exc: BaseException) -> None:
        """Discord answered that the game's channel or thread does not exist (it was deleted while
        the bot was not running, so no deletion event came): the game ends as at a deletion."""
        if channel_missing(exc) and session.row.guild_id:
            await self.boards.channel_gone(session.row.guild_id, session.row.channel_id)

    async def ask(self, out: TimeOut) -> None:
        """Post the question for each seat that ran out (the job that ends it unanswered was armed
        with the time-out), and tell them (:meth:`ask_seats`)."""
        # (each seat's ``timeout`` and ``ask`` jobs were armed in the time-out's own commit)
        await self.ask_seats(out.session, out.seats, int(out.at), marked=True)

    async def ask_seats(self, session: Session, seats: list[Seat], at: int, *, marked: bool = False) -> None:
        """Post the question for each of ``seats``, whose time ran out at ``at``, then write one
        direct message a person about those posted (:meth:`told_asked`, which cancels their ``ask``
        jobs).  A question Discord refuses is logged, told (one message a person for those refused
        alike) and asked again alone (:meth:`ask_again`).  ``marked``: the questions are in
        :attr:`asking` meanwhile, which their ``ask`` jobs, firing then, leave to this post."""
        asked = True
        refused: list[tuple[int, Refused]] = []  # told once all are tried: one message a person
        posted_now: list[tuple[Seat, discord.Message, dict[int, PersonRow]]] = []  # the same
        mine = {(session.id, seat.seat, at) for seat in seats if seat.seat is not None} if marked else set()
        self.asking |= mine
        try:
            for seat in seats:
                assert seat.seat is not None  # a seat in a running game
                posted = await self.post_question(session, seat.seat, at, refused, posted_now)
                if posted is None:
                    return  # the channel is gone: so is the game
                asked = posted and asked
            if posted_now:
                people = {uid: p for _, _, them in posted_now for uid, p in them.items()}
                told = [(late, message.id) for late, message, _ in posted_now]
                await self.told_asked(session, told, at, people)
        finally:
            self.asking -= mine
        for key in dict.fromkeys(why.key for _, why in refused):
            late = [seat for seat, why in refused if why.key == key]
            why = next(why for _, why in refused if why.key == key)
            await self.tell_unasked(session, late, why)
        if asked:
            await self.clock_changed(session)

    async def tell_unasked(self, session: Session, seats: list[int], why: Refused) -> None:
        try:
            await self.boards.unposted.tell_unasked(session, seats, why)
        except Exception:  # the clock ran out and is stored: that stands
            log.exception("the refused timeout question of session %s could not be told", session.id)

    async def post_question(
        self,
        session: Session,
        seat: int,
        at: int,
        refused: list[tuple[int, Refused]] | None = None,
        asked: list[tuple[Seat, discord.Message, dict[int, PersonRow]]] | None = None,
    ) -> bool | None:
        """Post the question about ``seat``, whose time ran out at ``at``; False if Discord refused
        it (the ``ask`` job asks again, the players are told, or with ``refused`` the refusal to
        tell is added to it for the caller to tell), None if the channel is gone (which ends the
        game).  Those who want a direct message get one (:meth:`tell_asked`), or with ``asked``
        the question is added to it for the caller to tell, one message a person."""
        late = session.by_seat(seat)
        others = [s for s in session.seats if not s.computer and not s.resigned and s.seat != seat]
        t = await self.look.language(session)  # a public question: the server's language
        view = discord.ui.View(timeout=None)
        for choice in TIMEOUT_CHOICES:
            view.add_item(TimeoutButton(session.id, seat, at, choice, t))
        people = await self.service.store.people.several(s.user_id for s in [late, *others] if s.user_id)
        left = await self.service.clocks.window_left(session, at)  # (the bot's outages left out)
        try:
            message = await self.look.channel(session).send(
                question(session, late, others, self.service.core.now() + left, t),
                view=view,
                allowed_mentions=wanting_mention(people),  # as each chose with /me notify
                # asked again after a stop before it was recorded: the same question
                nonce=nonces.post_nonce(session, nonces.QUESTION, seat, at),
            )
        except discord.HTTPException as exc:
            if channel_missing(exc):
                log.warning("could not ask about the timeout in session %s", session.id, exc_info=True)
                await self.gone(session, exc)
                return None
            try:
                why = await self.boards.unposted.question_refused(session, seat, at, exc)
            except Exception:  # the clock ran out and is stored: that stands
                log.exception("the refused timeout question of session %s was not handled", session.id)
                return False
            if why is not None and refused is not None:
                refused.append((seat, why))
            elif why is not None:
                await self.tell_unasked(session, [seat], why)
            return False
        await self.remember(session.id, seat, at, message.id)
        if asked is None:
            await self.told_asked(session, [(late, message.id)], at, people)
        else:
            asked.append((late, message, people))
        return True

    async def told_asked(
        self, session: Session, asked: list[tuple[Seat, int]], at: int, people: dict[int, PersonRow]
    ) -> None:
        """The questions ``asked`` were posted: those who want it are told (:meth:`tell_asked`),
        then each question's ``ask`` job goes (nothing to ask again).  A stop before leaves the job
        to post it again, which within Discord's minutes is the same post (its nonce), and to tell
        it, which is the same direct message (its nonce, and the mentions' in place of refused
        ones): told once."""
        try:
            await self.tell_asked(session, asked, at, people)
        finally:  # (a failure of a notice is not a reason to ask again)
            for late, _ in asked:
                await self.service.store.jobs.cancel(ASK, f"{session.id}:{late.seat}")

    async def remember(self, session_id: int, seat: int, at: int, message_id: int) -> None:
        """Keep the question's message in its ``timeout`` job (which lasts while it may be open),
        so that it loses its buttons once closed, after a restart too (:meth:`close_answered`)."""
        store = self.service.store
        key = f"{session_id}:{seat}"
        job = await store.jobs.job(TIMEOUT, key)
        if job is not None and job.payload.get("at") == at and not job.payload.get("taken"):
            payload = job.payload.copy()
            payload["message"] = message_id
            await store.jobs.schedule(TIMEOUT, key, job.due_at, payload)

    async def close_answered(self, session: Session) -> None:
        """After a board (or a game's end): each question about this game's clocks that a move or
        the end closed says so and loses its buttons, and its ``timeout`` job goes (nobody need
        answer it now)."""
        if session.clock is None:
            return
        mine = f"{session.id}:"  # (one read of the few pending questions, not one per seat)
        for job in await self.service.store.jobs.pending(TIMEOUT):
            if not job.key.startswith(mine) or job.payload.get("taken") or "message" not in job.payload:
                continue
            seat, at = int(job.key.split(":")[1]), int(job.payload.get("at", -1))
            if job.payload.get("decided"):  # answered: its buttons are still to go (unless refused
                if not job.payload.get("later"):  # just now: the job tries again)
                    await self.buttons_off(session, job)
            elif await self.service.clocks.question_open(session.id, seat, at) is None:
                await self.close_question(session, job, seat)

    async def close_question(self, session: Session, job: Job, seat: int, why: str | None = None) -> None:
        """Close the question ``job`` remembers (once: whoever drops the job says so), with
        ``why``, or the game's end, or the late player's move, under it."""
        if not await self.service.store.jobs.cancel(TIMEOUT, job.key) or "message" not in job.payload:
            return
        now = await self.service.core.get(session.id) or session
        t = await self.look.language(now)
        if why is None and now.status != "active":
            why = QUESTION_OVER
        elif why is None:  # the late player moved, or the game went back (an undo) past the time-out
            at = stamp_of(float(job.payload.get("at", 0)))
            moved = await self.service.store.history.moved_since(session.id, seat, at, besides=UNDO)
            why = QUESTION_MOVED if moved else QUESTION_CHANGED
        await self.closed_line(now, job, t.gettext(why, name=written.name(now.by_seat(seat).name)))

    async def closed_line(self, session: Session, job: Job, line: str) -> None:
        """Say ``line`` under the question ``job`` remembers and take its buttons off; a message
        Discord will not let the bot edit is left as it is, logged."""
        try:
            await add_line(self.look.channel(session), int(job.payload["message"]), line)
        except discord.HTTPException as exc:
            log.warning("could not close the timeout question of session %s: %s", session.id, exc)

    async def buttons_off(self, session: Session, job: Job) -> None:
        """The question ``job`` remembers was decided (its job is marked ``decided``): it loses
        its buttons, as after an answer the channel took (nobody answering also says so under
        it), and its job goes.  An edit Discord refuses leaves the job, armed again, to try once
        more later (its try: :meth:`unanswered`), unless the message or its channel is gone."""
        jobs, channel, message_id = (
            self.service.store.jobs,
            self.look.channel(session),
            int(job.payload["message"]),
        )
        try:
            if job.payload.get("unanswered"):  # nobody answered: the clock did, which it says
                t = await self.look.language(session)
                seat = int(job.key.split(":")[1])
                line = (  # (a step of the late player's had closed it to the others)
                    t.gettext(QUESTION_MOVED, name=written.name(session.by_seat(seat).name))
                    if job.payload.get("unfinished")
                    else t.gettext(QUESTION_UNANSWERED)
                )
                await add_line(channel, message_id, line)
            else:  # as after an answer the channel took
                await channel.get_partial_message(message_id).edit(view=None)
        except (discord.NotFound, discord.Forbidden) as exc:  # nothing to try again
            log.warning(
                "could not take the buttons off a timeout question of session %s: %s", session.id, exc
            )
        except discord.HTTPException as exc:
            log.warning(
                "could not take the buttons off a timeout question of session %s (%s): tried again later",
                session.id,
                exc,
            )
            await self.again(job, later=True)  # (left to the job's try; told already)
            return
        now = await jobs.job(TIMEOUT, job.key)
        if now is not None and now.payload.get("at") == job.payload.get("at"):
            await jobs.cancel(TIMEOUT, job.key)  # (a later question's job stays)

    async def tell_asked(
        self, session: Session, asked: list[tuple[Seat, int]], at: int, people: dict[int, PersonRow]
    ) -> None:
        """After the questions ``asked`` (a late seat, the message asking about it, whose time ran
        out at ``at``) were posted: one direct message to each person in ``people`` who wants one,
        with a link to the question; one in their quiet hours who wants no mention gets it when
        those end, if a question is still open then (a ``timeout_notice`` job).  Those whose direct
        message Discord refuses are mentioned under the questions instead."""
        now = self.boards.notifier.now()
        refused = []
        for uid, person in people.items():
            if notices.reach(person, now)[1]:
                if not await self.dm_asked(session, asked, uid, person):
                    refused.append(uid)
            elif notices.held(person, now):
                await self.hold_asked(session.id, [(late.seat, at) for late, _ in asked], uid, person)
        await self.mention_refused(session, refused, [message for _, message in asked])

    async def dm_asked(
        self, session: Session, asked: list[tuple[Seat, int]], uid: int, person: PersonRow
    ) -> bool:
        """The direct message about the questions ``asked`` to the person ``uid``, in their
        language: their own time ran out, or others' did; False if Discord refused it."""
        notifier = self.boards.notifier
        links = {
            late.user_id: notices.jump_link(session.row.guild_id, session.row.channel_id, message)
            for late, message in asked
        }
        mine = await notifier.language_of(person, session)
        values = {
            "game": session.info.title,
            "number": session.id,
            "server": notifier.guild_name(session, mine),
        }
        if uid in links:
            text = mine.gettext(YOUR_TIME_RAN_OUT, link=links[uid], **values)
        else:
            people_said = in_words(listing([written.name(late.name) for late, _ in asked]), mine)
            their = THEIR_TIME_RAN_OUT if len(asked) == 1 else THEIR_TIMES_RAN_OUT
            text = mine.gettext(their, people=people_said, link=next(iter(links.values())), **values)
        # told again by a held notice's job a stop left (tell_held): the same DM for the same questions
        told = sorted(message for _, message in asked)
        return await notifier.send_dm(
            uid, text, nonce=nonces.post_nonce(session, nonces.QUESTION_DM, uid, told)
        )

    async def mention_refused(self, session: Session, refused: list[int], questions: list[int]) -> None:
        """Those whose direct message about the questions posted as ``questions`` (their messages)
        Discord refused, mentioned in the game's channel instead (with a nonce naming them and the
        questions: the same post when a restart tells them again)."""
        if not refused:
            return
        t = await self.look.language(session)
        above = t.ngettext(
            "{people}: the question about the clock is above.",
            "{people}: the questions about the clocks are above.",
            len(questions),
            people=" ".join(f"<@{u}>" for u in refused),
        )
        nonce = nonces.post_nonce(session, nonces.QUESTION_DM, "mention", sorted(refused), sorted(questions))
        await mention_above(self.boards.notifier, session, refused, above, "timeout question", nonce)

    async def hold_asked(
        self, session_id: int, asked: list[tuple[int | None, int]], uid: int, person: PersonRow
    ) -> None:
        """The direct message about the questions ``asked`` (seat, time out) waits for the end of
        the person's quiet hours (added to one waiting already for another question of the game)."""
        key = f"{session_id}:{uid}"
        held = await self.service.store.jobs.job(TIMEOUT_NOTICE, key)
        before = [(seat, at) for seat, at in held.payload.get("asked", [])] if held is not None else []
        pairs = list(dict.fromkeys([*before, *((seat, at) for seat, at in asked if seat is not None)]))
        scheduler = self.boards.notifier.scheduler
        due = notices.quiet_ends(person, self.boards.notifier.now())
        await scheduler.schedule(TIMEOUT_NOTICE, key, due, {"asked": [[seat, at] for seat, at in pairs]})

    async def tell_held(self, job: Job) -> None:
        """The ``timeout_notice`` job: a person's quiet hours ended (later still if they moved
        meanwhile): the direct message about the game's time-out questions still open, if they
        still want direct messages; nothing when every question closed meanwhile."""
        session_id, uid = (int(x) for x in job.key.split(":"))
        session = await self.service.core.get(session_id)
        person = await self.service.store.people.person(uid)
        if session is None or session.status != "active" or not person.wants_dm:
            return
        now = self.boards.notifier.now()
        if notices.is_quiet(person, now):
            await self.boards.notifier.scheduler.schedule(
                TIMEOUT_NOTICE, job.key, notices.quiet_ends(person, now), job.payload
            )
            return
        still = []
        for seat, at in job.payload.get("asked", []):
            asked = await self.service.store.jobs.job(TIMEOUT, f"{session_id}:{seat}")
            if asked is None or asked.payload.get("at") != at or "message" not in asked.payload:
                continue  # answered, or closed (its job went), or a later question's
            if not asked.payload.get("taken") and await self.service.clocks.question_open(
                session_id, seat, at
            ):
                still.append((session.by_seat(seat), int(asked.payload["message"])))
        if still and not await self.dm_asked(session, still, uid, person):
            await self.mention_refused(session, [uid], [message for _, message in still])

    async def ask_again(self, job: Job) -> None:
        """The ``ask`` job: a timeout question Discord refused, or never posted (the process
        stopped between the time-out and its question), is posted now, if still open.  A question
        the time-out armed the job for is asked together with those of the same time-out whose
        jobs are still pending (:meth:`siblings`), as at the time-out: one direct message a person
        about them all, the same one (its nonce) that a stop may have sent before.  One refused
        before is asked alone (a refusal again arms the job again).  One this process is posting
        still is left to that post.  Jobs of one game take turns in this process, and a job asked
        with a sibling (gone), or armed again meanwhile (refused), has nothing left to do; another
        process asking them at once posts the same posts and messages (their nonces)."""
        session_id, seat = (int(x) for x in job.key.split(":"))
        at = int(job.payload.get("at", -1))
        if (session_id, seat, at) in self.asking:  # posted (which cancels the job) or refused
            await self.again(job)
            return
        async with self.asking_lock(session_id):
            now = await self.service.store.jobs.job(ASK, job.key)
            if now is None or now.claim != job.claim:
                return  # asked with a sibling (its job went), or refused and armed again since
            session: Session | None = None
            late: list[int] = []
            for other in await self.siblings(job, session_id, at):
                found = await self.service.clocks.question_open(session_id, other, at)
                if found is not None:
                    session, late = found, [*late, other]
            if session is not None:
                await self.ask_seats(session, [session.by_seat(s) for s in late], at)

    async def siblings(self, job: Job, session_id: int, at: int) -> list[int]:
        """The seats whose questions the ``ask`` job ``job`` asks: its own, and when the time-out
        armed it, those of every seat whose time ran out with it and whose ``ask`` job, armed so
        too, is still pending (a refusal arms it again, marked ``told``: asked alone), but for
        those this process is posting still."""
        seat = int(job.key.split(":")[1])
        if "told" in job.payload:
            return [seat]
        seats = {seat}
        for other in await self.service.store.jobs.pending(ASK):
            number, _, its = other.key.partition(":")
            if int(number) == session_id and other.payload.get("at") == at and "told" not in other.payload:
                seats.add(int(its))
        return sorted(s for s in seats if (session_id, s, at) not in self.asking)  # (not its own)

    async def unanswered(self, job: Job) -> None:
        """The ``timeout`` job: nobody answered in time, so the computer takes the seat.  The take
        arms the job again (``taken``), a mark dropped as soon as the channel is told
        (:meth:`told_taken`): a process stopped in between leaves it to say so after the restart
        (the board comes with the start's catch-up), one stopped after it says nothing more."""
        session_id, seat = (int(x) for x in job.key.split(":"))
        if job.payload.get("taken"):
            await self.taken_untold(session_id, seat, job)
            return
        if job.payload.get("decided"):  # answered: the buttons an edit left on the question go
            found = await self.service.core.get(session_id)
            if found is not None and "message" in job.payload:
                await self.buttons_off(found, job)
            return
        if await self.service.clocks.answers_wait(session_id, job):  # (the bot was out of service)
            return
        try:
            session, result = await self.service.clocks.answer_timeout(
                session_id, seat, int(job.payload.get("at", -1)), "computer", None
            )
        except Refusal:  # answered already, the person moved, or the game ended
            found = await self.service.core.get(session_id)
            if found is not None:  # (its buttons go, if nothing took them off yet)
                await self.close_question(found, job, seat)
            return
        decided = await self.service.store.jobs.job(TIMEOUT, job.key)
        told = self.told_taken(decided)
        at = int(job.payload.get("at", -1))
        line = nobody_answered(session, seat, decided.payload if decided is not None else {})
        try:
            await self.decided(session, seat, line, result, told, (seat, at))
        except discord.HTTPException as exc:  # the seat is the computer's: its board is told and tried again
            now = result.session if result is not None else session
            await self.boards.not_posted(now, exc, "after a timeout nobody answered")
        finally:  # told: the question closes (its job, armed again as decided, goes once it is)
            await self.closed_after(session, job.key)

    async def closed_after(self, session: Session, key: str, message_id: int | None = None) -> None:
        """After an answer was told (or its telling failed): the question ``key`` names, if its job
        is still the decided one, loses its buttons (:meth:`buttons_off`; ``message_id``: the
        question clicked, should its job not have kept it)."""
        job = await self.service.store.jobs.job(TIMEOUT, key)
        if job is None or not job.payload.get("decided") or job.payload.get("later"):
            return  # taken off (by the board that followed), or refused just now: the job tries again
        if "message" not in job.payload and message_id is not None:
            job = replace(job, payload={**job.payload, "message": message_id})
        if "message" not in job.payload:  # never posted: nothing to take off
            await self.service.store.jobs.cancel(TIMEOUT, key)
            return
        await self.buttons_off(session, job)

    async def taken_untold(self, session_id: int, seat: int, job: Job) -> None:
        """The question of ``job`` was decided (nobody answered, or a person did), and the process
        stopped before the channel was told: it is told now, and the question loses its buttons.
        The computer's taking the seat is said (:meth:`say`) if the seat is still the computer's in
        a running game (the start's catch-up posted its board); more time is said with the board
        that starts the seat's turn again (:meth:`decided`) if no board followed the answer, nor is
        one in the ``board`` job's hands (which then tells the line, or said it already); an
        abandon's message, told by the start's catch-up, says the game ended as a time ran out."""
        session = await self.service.core.get(session_id)
        if session is None:
            return
        told, at = self.told_taken(job), int(job.payload.get("at", -1))
        choice = str(job.payload.get("choice", "computer"))
        who = job.payload.get("answered")
        line = (
            nobody_answered(session, seat, job.payload)
            if who is None
            else answered(int(str(who)), session, seat, choice)
        )
        try:
            if not session.row.live or session.status != "active":
                return
            if choice == "computer":
                if session.by_seat(seat).computer and gc.may_return(session.banks, seat):
                    await self.say(session, line, told, about=(seat, at))
            elif choice == "more" and await self.nothing_followed(session, seat, job):
                await self.decided(session, seat, line, None, told, (seat, at))
        finally:
            if "message" in job.payload:
                await self.buttons_off(session, job)

    async def nothing_followed(self, session: Session, seat: int, job: Job) -> bool:
        """Whether nothing followed the answer ``job`` keeps (more time for ``seat``): the seat is
        a person's, the channel shows the board it showed then, and no ``board`` job holds a board
        or line still to post."""
        if session.by_seat(seat).computer or (session.row.board_message_id or 0) != job.payload.get("board"):
            return False
        return await self.service.store.jobs.job(BOARD, str(session.id)) is None

    def told_taken(self, job: Job | None) -> Callable[[], Awaitable[None]]:
        """What records that the channel was told what was decided about the question of ``job`` (its
        ``timeout`` job as the answer armed it, marked ``taken``): the job, armed again
        without the mark, keeps only the question's buttons to take off, so that neither its try
        nor a restart tells it again.  Its one write, prepared before the line is posted, follows
        the post at once (:meth:`say`); a job with nothing to tell records nothing."""
        if job is None or not job.payload.get("taken"):
            return nothing

        async def told() -> None:
            await self.again(job)

        return told

    async def again(self, job: Job, *, later: bool = False) -> None:
        """Arm the question's ``job`` again, :data:`~bot.sessions.clocks.ASK_AFTER` from now, its
        payload kept but for its ``taken`` mark (the channel was told), marked ``later`` when
        asked (Discord refused the edit that takes its buttons off: the job's try takes them)."""
        store = self.service.store
        payload: JobPayload = {**job.payload}
        payload.pop("taken", None)
        if later:
            payload["later"] = True
        await store.jobs.schedule(job.kind, job.key, store.clock.time() + ASK_AFTER, payload)

    async def say(
        self,
        session: Session,
        line: Said,
        told: Callable[[], Awaitable[None]] = nothing,
        restarted: tuple[int, ...] = (),
        about: tuple[int, int] | None = None,
    ) -> None:
        """Say ``line`` in the game's channel, in its language, and record it as told (``told``) at
        once; ``about``, the seat and time-out of a line a stop before ``told`` has said again (what was
        decided), names it in its nonce (:data:`bot.surface.nonces.CLOCK_LINE`), so that
        said again within Discord's minutes it is the same post.  A line the channel refuses is kept, first, by the game's ``board`` job
        (:class:`bot.surface.unposted.Inside`), whose lines the board that follows says above it,
        or the job's try, or the start's catch-up should the process stop first (or the message
        telling the game's abandon, should that come first): it is told once all the same, and
        ``told`` records it as such; ``restarted``, the seats whose turn the board that follows
        starts again (more time), are kept with it, so that a board the job's try or the catch-up
        posts in its place calls on them as that board would have.  A message posted and a process
        stopped before ``told``'s write is the one window left in which it is told twice, past
        Discord's minutes when ``about`` names it."""
        t = await self.look.language(session)
        nonce = nonces.post_nonce(session, nonces.CLOCK_LINE, *about) if about is not None else nonces.anew()
        try:
            await self.look.channel(session).send(
                line.in_words(t), allowed_mentions=discord.AllowedMentions.none(), nonce=nonce
            )
        except discord.HTTPException as exc:
            if channel_missing(exc):
                raise
            log.warning(
                "a line about session %s's clock was refused (%s): what follows says it", session.id, exc
            )
            board = session.row.board_message_id or 0
            await self.boards.unposted.again(
                session, Inside(board, ping=bool(restarted), restarted=restarted, lines=(line,))
            )
        await told()

    async def answer(
        self, interaction: discord.Interaction, session_id: int, seat: int, at: int, choice: str
    ) -> None:
        """A click on one of the answers to a timeout question."""
        mine = i18n.private(interaction)  # the answer to the person who clicked is theirs
        await clicked(self.service, interaction, session_id, running=True)
        session, result = await self.service.clocks.answer_timeout(
            session_id, seat, at, choice, interaction.user.id
        )  # (its job, armed again as decided, keeps the question's message until its buttons go)
        decided = decided_words(session, seat, choice, mine)  # for the one who clicked, in their language
        self.replies.committed(interaction, said("Your answer was recorded ({decided})", decided=decided))
        line = answered(interaction.user.id, session, seat, choice)
        told = self.told_taken(await self.service.store.jobs.job(TIMEOUT, f"{session_id}:{seat}"))
        try:  # (the board that follows takes the buttons off: Boards.after_board, close_answered)
            await self.decided(session, seat, line, result, told, (seat, at))
        finally:  # the answer stands, told or not: the question loses its buttons all the same
            clicked_on = interaction.message.id if interaction.message is not None else None
            await self.closed_after(session, f"{session_id}:{seat}", clicked_on)
        await reply(interaction, mine.gettext("Done: {decided}.", decided=decided))

    async def decided(
        self,
        session: Session,
        seat: int,
        line: Said,
        result: MoveResult | None,
        told: Callable[[], Awaitable[None]] = nothing,
        about: tuple[int, int] | None = None,
    ) -> None:
        """Tell the channel what was decided about ``seat``'s time (``line``, in its language, with
        ``told`` recording it told and ``about`` naming it: :meth:`say`), then post the board (or
        close the game): with more time, the seat's turn starts again, and its person is told as at
        the start of a turn (``told`` follows that board then, which a stop before it would lose).
        A ``line`` the channel refuses comes with what follows it: the board (the computer's move,
        the turn starting again), and with its retry if that is refused too (what follows is what
        the channel must see again, so the line goes where it goes rather than on a retry of its
        own).  With the game abandoned the line is the abandon's own, told in the message telling
        it, under the game's ``board`` job as that message is (:meth:`Boards.tell_abandoned
        <bot.surface.boards.Boards.tell_abandoned>`: once across processes, kept for the job's try
        if refused), and ``told`` records it as told either way."""
        if result is None and session.status == "abandoned":
            try:
                await self.boards.tell_abandoned(session, (line,))
            finally:
                await told()
            return
        if result is not None:
            await self.say(session, line, told, (), about)
            await self.boards.announce(result)
            return
        # more time: the clock starts again without a move, which voids an undo request; told once
        # the board calling on the seat again is posted (or in the ``board`` job's hands), as a stop
        # before it would lose that call
        try:
            await self.say(session, line, nothing, (seat,), about)
            await self.clock_changed(session)
            await self.boards.post_board(session, ping=True, restarted=[seat])
        finally:
            await told()


class TimeoutButton(
    Persistent[discord.ui.Button],
    template=r"pk:tmo:(?P<session_id>\d+):(?P<seat>\d+):(?P<at>\d+):(?P<choice>[a-z]+)",
):
    """Under a timeout question: one of the answers (works after a restart)."""

    session_id: int
    seat: int
    at: int
    choice: str

    def __init__(self, session_id: int, seat: int, at: int, choice: str, t: Language = ENGLISH):
        custom_id = f"pk:tmo:{session_id}:{seat}:{at}:{choice}"
        item = button(
            LABELS.get(choice, choice), custom_id, STYLES.get(choice, discord.ButtonStyle.secondary), t
        )
        super().__init__(item, session_id=session_id, seat=seat, at=at, choice=choice)

    async def clicked(self, interaction: discord.Interaction) -> None:
        await part_of(interaction, ClockDesk).answer(
            interaction, self.session_id, self.seat, self.at, self.choice
        )

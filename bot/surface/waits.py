"""Fewer waits and following, on Discord: forced moves and passes declared ahead played by the
table, the 80 % clock warning, ``/play next``, watchers and followers (the rules are
:mod:`bot.waits`).

After every board post (:meth:`Waits.posted`, handed to :class:`bot.surface.boards.Boards` by the
front), and after a step inside a turn, which posts none (:meth:`Waits.stepped`: the forced move
and the clock warning): a pass declared ahead is played or dropped, a seat left with one legal move gets an
``autoplay`` job :data:`bot.waits.AUTOPLAY_DELAY` seconds later (if its person allows it), each
running clock gets its ``clock_warning`` job, the game's watchers get the post's public text and
the public board by DM, and at a game's first board the followers of its players are told.  A stop
before these are done leaves the board's ``after_board`` job, which does them again
(:meth:`Waits.resume`, :meth:`Waits.told_after`), the direct messages with the same nonces.

Imports: discord, :mod:`bot.waits`, :mod:`bot.notices`, :mod:`bot.public`, :mod:`bot.sessions`,
:mod:`bot.storage`, :mod:`bot.time`, and :mod:`bot.surface` boards, direct, look, nonces, reminders,
replies.
"""

from __future__ import annotations

import logging
from collections.abc import Set as AbstractSet

import discord

from bot import i18n, notices, public, waits
from bot.sessions import NOT_SEATED, NotSeated, Refusal, Session
from bot.storage import Job, JobPayload, Store
from bot.surface import nonces, written
from bot.surface.boards import Boards
from bot.surface.direct import Notifier
from bot.surface.look import Look
from bot.surface.reminders import Reminders
from bot.surface.replies import reply
from bot.texts import MESSAGE_LIMIT, clip
from bot.time import gameclock as gc
from bot.time.jobs import AUTOPLAY, CLOCK_WARNING
from engines.core import MoveError

log = logging.getLogger(__name__)


class Waits:
    """Forced moves, passes ahead, the clock warning, /play next, watchers and followers."""

    def __init__(self, boards: Boards, reminders: Reminders):
        self.boards = boards
        self.reminders = reminders  # the games waiting on a person, for /play next
        self.look: Look = boards.look
        self.notifier: Notifier = boards.notifier
        self.service = boards.service
        self.bot = boards.bot

    @property
    def store(self) -> Store:
        return self.service.store

    def now(self) -> float:
        return self.store.clock.time()

    async def schedule(self, kind: str, key: str, due: float, payload: JobPayload | None = None) -> None:
        if self.bot.scheduler is not None:
            await self.bot.scheduler.schedule(kind, key, due, payload)

    # ------------------------------------------------------------- after a board

    async def posted(
        self,
        session: Session,
        message: discord.Message,
        turn_ended: bool,
        last_action: str | None = None,
        again: bool = False,
    ) -> None:
        """What follows a board post (see the module's docstring; ``last_action``: the line its
        picture shows; ``again``: a board asked for again, ``/game board``, which the watchers had
        with the move it shows, so not sent them); each part on its own, so one that fails leaves
        the others."""
        parts = (
            [] if again else [lambda: self.send_watchers(session, message.id, message.content, last_action)]
        )
        parts.append(lambda: self.tell_followers(session, message.id))
        for part in parts:  # (each made when its turn comes: a stop in one leaves none made and unawaited)
            try:
                await part()
            except Exception:
                log.exception("after the board of session %s", session.id)
        try:
            await self.resume(session, turn_ended)
        except Exception:
            log.exception("autoplay and warnings of session %s", session.id)

    async def resume(self, session: Session, turn_ended: bool) -> None:
        """What follows a board for the game itself: a pass declared ahead played or dropped,
        autoplay jobs and clock warnings armed (each the same done twice: a board's ``after_board``
        job does it again after a stop, :meth:`bot.surface.boards.Boards.tell_after`)."""
        if session.status != "active" or session.damaged or session.state is None:
            return
        handled = await self.passes(session, turn_ended)
        await self.arm(session, handled)

    async def stepped(self, session: Session) -> None:
        """What follows a step inside a turn, which posts no board (a player's, one the table
        played, or a computer's in a round played at once): a seat left with one legal move gets
        its ``autoplay`` job, as after a board."""
        if session.status != "active" or session.damaged or session.state is None:
            return
        await self.arm(session)

    async def allowed(self, session: Session, user_id: int) -> bool:
        """Whether the table may play a person's only move: they allow it (``/me autoplay``), and
        in a league, the league allows it too."""
        if not (await self.store.waits.settings(user_id)).autoplay:
            return False
        league = await self.store.leagues.league_game_of(session.id)
        return league is None or await self.store.waits.league_allows(league[0])

    async def passes(self, session: Session, turn_ended: bool) -> set[int]:
        """Passes declared ahead, once the turn being played has ended: played (a job due now)
        when the seat is to move and may pass, else dropped.  The seats whose pass is coming."""
        coming: set[int] = set()
        if not turn_ended:
            return coming
        to_move = session.to_move()
        for declared in await self.store.waits.passes(session.id):
            if declared.version >= session.version:
                continue  # declared after this board's moves
            if declared.seat in to_move and waits.pass_legal(session.engine, session.state, declared.seat):
                coming.add(declared.seat)
                payload: JobPayload = {"version": session.version, "move": waits.PASS}
                await self.schedule(AUTOPLAY, f"{session.id}:{declared.seat}", self.now(), payload)
            await self.store.waits.drop_pass(session.id, declared.seat)
        return coming

    async def arm(self, session: Session, skip: AbstractSet[int] = frozenset()) -> None:
        """A seat left with one legal move gets its autoplay job; every running clock its warning."""
        now = self.now()
        spec = session.clock
        for seat in sorted(session.to_move()):
            player = session.by_seat(seat)
            if player.computer or not player.user_id:
                continue
            if seat not in skip:
                move = waits.only_move(session.engine, session.state, seat)
                key = f"{session.id}:{seat}"
                armed = await self.store.jobs.job(AUTOPLAY, key)
                if armed is not None and armed.payload.get("version") == session.version:
                    pass  # the same board again (/game board): the job keeps its time
                elif move is not None and await self.allowed(session, player.user_id):
                    due = now + waits.AUTOPLAY_DELAY
                    await self.schedule(AUTOPLAY, key, due, {"version": session.version})
            if spec is not None:
                due_at = waits.warning_due(spec, session.banks, seat)
                if due_at is not None:
                    since = session.banks.since[seat]
                    await self.schedule(CLOCK_WARNING, f"{session.id}:{seat}", due_at, {"since": since})

    async def arm_person(self, user_id: int) -> None:
        """Someone turned autoplay on: their games waiting on a forced move get their jobs now."""
        for session in await self.service.core.sessions_of(user_id):
            seat = session.seat_of(user_id)
            if seat is not None and seat.seat in session.to_move():
                await self.arm(session)

    # ------------------------------------------------------------- the jobs

    async def autoplay(self, job: Job) -> None:
        """The ``autoplay`` job: play a seat's only move (or its pass declared ahead) if the game
        is as it was when the job was armed."""
        session_id, seat = (int(x) for x in job.key.split(":"))
        version, move = job.payload.get("version"), job.payload.get("move")
        session = await self.service.core.get(session_id)
        if session is None or session.version != version or seat not in session.to_move():
            return
        player = session.by_seat(seat)
        if player.computer or not player.user_id:
            return
        note = None
        if move == waits.PASS:  # declared ahead
            if not waits.pass_legal(session.engine, session.state, seat):
                return
            note = waits.pass_note(session, seat)
        else:
            move = waits.only_move(session.engine, session.state, seat)
            if move is None or not await self.allowed(session, player.user_id):
                return
        try:
            result = await self.service.play.play_in(
                session_id, player.user_id, move, expected_version=version
            )
        except (Refusal, MoveError) as exc:
            # the move itself is left out of the log: it may be a secret one (a Guanga order kept)
            log.info(
                "the table did not play the only move of seat %s of session %s (%s)",
                seat,
                session_id,
                type(exc).__name__,
            )
            return
        if note is None:  # the only move, named only as the channel may read it (not a secret order)
            shown = public.notation(session.engine, result.session.state, result.played[0], None)
            note = waits.autoplay_note(session, seat, shown)
        result.note = note
        if public.has_public_news(result.session, result):
            try:  # the move stands; a board Discord refuses is logged, told and tried again
                await self.boards.announce(result)
            except discord.HTTPException as exc:
                await self.boards.not_posted(result.session, exc, "after a move the table played")
        else:
            await self.stepped(result.session)  # a step inside a turn: the next may be forced too
        if result.computers_next:
            self.boards.follow(session_id)

    async def warning(self, job: Job) -> None:
        """The ``clock_warning`` job: tell the person once that 80 % of their turn's time is used
        (later, if time away paused their clock meanwhile; a DM due in their quiet hours, when they
        want no mention, waits for the quiet hours to end)."""
        session_id, seat = (int(x) for x in job.key.split(":"))
        session = await self.service.core.get(session_id)
        spec = session.clock if session is not None else None
        if session is None or spec is None or seat not in session.to_move():
            return
        found = waits.turn_budget(spec, session.banks, seat)
        if found is None or found[0] != job.payload.get("since"):
            return  # another turn (its own job is armed)
        since, budget = found
        away = await self.service.core.away_of(session)
        now = self.now()
        left = waits.seconds_left(session, seat, now, away) or 0.0
        rest = (1 - waits.WARN_AT) * budget
        back = gc.resumes(now, away(seat))
        if left > rest + 1:  # not yet (time away paused the clock): when it will be, running again
            await self.schedule(CLOCK_WARNING, job.key, back + left - rest, job.payload)
            return
        if back > now:  # due, but they went away since (while quiet hours held it): when they are back
            await self.schedule(CLOCK_WARNING, job.key, back, job.payload)
            return
        player = session.by_seat(seat)
        if player.computer or not player.user_id or left <= 0:
            return
        person = await self.store.people.person(player.user_id)
        if person.notify == "none":
            return
        mention, dm = notices.reach(person, now)
        if person.wants_dm and not dm and not mention:  # quiet hours: the DM waits for their end
            await self.schedule(CLOCK_WARNING, job.key, notices.quiet_ends(person, now), job.payload)
            return
        if not await self.store.waits.warn_once(session_id, seat, since):
            return
        if dm:
            t = await self.notifier.language_of(person, session)
            link = self.notifier.link(session)
            text = waits.warning_text(session, left, self.notifier.guild_name(session, t), link, t)
            if await self.notifier.send_dm(player.user_id, text):
                return
            mention = True
        if mention:
            t = await self.look.language(session)
            channel = self.look.channel(session)
            try:
                await channel.send(
                    waits.warning_mention(player.user_id, left, t),
                    allowed_mentions=discord.AllowedMentions(users=[discord.Object(player.user_id)]),
                )
            except discord.HTTPException:
                log.warning("could not warn %s in session %s", player.user_id, session_id)

    # ------------------------------------------------------------- watchers and followers

    async def told_after(self, session: Session, board: int, payload: JobPayload) -> None:
        """What follows the board ``board`` for its watchers and followers, told again by its
        ``after_board`` job after a stop (:meth:`bot.surface.boards.Boards.tell_after`, ``payload``
        the job's): the board to each watcher while it is still the game's last (a later board
        reached them already), its text read from the post (:meth:`board_text`), its picture drawn
        with the line the job kept (``last``); and at a game's first board (``first``) its start to
        the followers, whether or not the stopped process had marked it told (it marks it before
        the messages).  Each direct message carries the nonce the first telling's did, so one
        Discord took before the stop is not received twice within Discord's minutes.  A board asked
        for again (``again``) is not sent to the watchers, who had it."""
        last_action = payload.get("last")
        if session.row.board_message_id == board and not payload.get("again"):
            watchers = await self.store.waits.watchers(session.id)
            if watchers:  # (nobody to send it to: the post is not read)
                content = await self.board_text(session, board, last_action)
                await self.send_watchers(session, board, content, last_action, watchers)
        if payload.get("first"):
            await self.tell_followers(session, board, again=True)

    async def board_text(self, session: Session, board: int, last_action: str | None) -> str:
        """The text of the board post ``board`` (public: it was posted), read from the game's
        channel; a post that cannot be read (deleted meanwhile, say) gives the line its picture
        shows, ``last_action``."""
        try:
            message = await self.look.channel(session).fetch_message(board)
        except discord.HTTPException as exc:
            log.info("the board %s of session %s could not be read (%s)", board, session.id, exc)
            return last_action or ""
        return message.content

    async def send_watchers(
        self,
        session: Session,
        board: int,
        content: str,
        last_action: str | None = None,
        watchers: list[int] | None = None,
    ) -> None:
        """A watched game's post ``board``, to each watcher by DM: the post's text, ``content``
        (public: it was posted), and the public board, as a spectator sees it; not in the watcher's
        quiet hours (no direct messages then: the posts made then stay in the game's channel).
        Each carries a nonce naming the board and the watcher (:data:`bot.surface.nonces.WATCH`).
        After the last board, nobody watches.  ``watchers``: as just read, if they were."""
        if watchers is None:
            watchers = await self.store.waits.watchers(session.id)
        if not watchers:
            return
        language = await self.look.language(session)
        link = notices.jump_link(session.row.guild_id, session.row.channel_id, board)
        people = await self.store.people.several(watchers)
        now = self.now()
        for uid in watchers:
            if notices.is_quiet(people[uid], now):
                continue
            t = await self.notifier.language_of(people[uid], session)
            file = await self.look.render(
                session, None, last_action, language=language.code, contrast=people[uid].contrast
            )
            kwargs: dict = {
                "content": waits.watch_text(content, link, t),
                "nonce": nonces.post_nonce(session, nonces.WATCH, uid, board),
            }
            if file is not None:
                kwargs["file"] = file
            try:
                user = self.bot.get_user(uid) or await self.bot.fetch_user(uid)
                await user.send(**kwargs)
            except discord.HTTPException as exc:
                log.info("a watched post to %s was refused (%s)", uid, exc)
        if session.status != "active":
            await self.store.waits.stop_watching(session.id)

    async def tell_followers(self, session: Session, board: int, *, again: bool = False) -> None:
        """At a game's first board, ``board``: the people following its players who share its
        server are told by DM (not in their quiet hours), once per game, the start marked told
        before; ``again``: told again after a stop (:meth:`told_after`), marked or not.  Each
        message carries a nonce naming the game's start and the follower
        (:data:`bot.surface.nonces.FOLLOW`)."""
        if (
            session.status != "active"
            or session.row.guild_id is None
            or (session.row.told_through and not again)
        ):
            return
        players = {s.user_id: s.name for s in session.seats if s.user_id and not s.computer}
        followers = await self.store.waits.followers(players)
        followers = {f: who for f, who in followers.items() if f not in players}
        if not followers or not (await self.store.waits.start_told(session.id) or again):
            return
        guild = self.bot.get_guild(session.row.guild_id)
        if guild is None:
            return
        link = notices.jump_link(session.row.guild_id, session.row.channel_id, board)
        people = await self.store.people.several(followers)
        now = self.now()
        for uid, followed in followers.items():
            if notices.is_quiet(people[uid], now):
                continue
            try:
                await guild.fetch_member(uid)
            except discord.NotFound:
                continue  # not in that server
            except discord.HTTPException:
                log.info("could not look up %s in server %s", uid, guild.id)
                continue
            t = await self.notifier.language_of(people[uid], session)
            text = waits.follow_text(
                written.session(session),
                [written.name(players[u]) for u in followed],
                written.name(guild.name),
                link,
                t,
            )
            try:
                user = self.bot.get_user(uid) or await self.bot.fetch_user(uid)
                await user.send(text, nonce=nonces.post_nonce(session, nonces.FOLLOW, uid))
            except discord.HTTPException as exc:
                log.info("a follow notice to %s was refused (%s)", uid, exc)

    # ------------------------------------------------------------- commands

    async def next_game(self, interaction: discord.Interaction) -> None:
        """``/play next``: the game that has waited longest for the asker, a link and their view."""
        t = i18n.private(interaction)
        games = await self.reminders.waiting_games(interaction.user.id, t)
        if not games:
            await reply(interaction, t.gettext("No game is waiting on you. /game mine lists your games."))
            return
        first = games[0]
        head = waits.next_text(first, len(games) - 1, self.notifier.link(first.session), t)
        text, file = await self.look.private_picture(first.session, interaction.user.id, t.code)
        await reply(interaction, clip(f"{head}\n\n{text}", MESSAGE_LIMIT), file=file)

    async def watch(self, interaction: discord.Interaction) -> None:
        """``/play watch``: the channel's game's public posts by DM, or no longer."""
        t = i18n.private(interaction)
        session = await self.service.core.require(interaction.channel_id or 0)
        if session.status != "active":
            raise Refusal("this game has not started yet; watch it once it has")
        uid = interaction.user.id
        if await self.store.waits.is_watching(session.id, uid):
            await self.store.waits.watch(session.id, uid, False)
            await reply(interaction, t.gettext("You no longer get this game's posts by direct message."))
            return
        await self.store.waits.watch(session.id, uid, True)
        await reply(
            interaction,
            t.gettext(
                "You will get this game's public turn posts by direct message until it ends "
                "(nothing private: what the channel sees). /play watch here again stops them."
            ),
        )

    async def pass_ahead(self, interaction: discord.Interaction, cancel: bool) -> None:
        """``/play pass-ahead``: pass at your next turn if it comes straight after this one."""
        t = i18n.private(interaction)
        session = await self.service.core.require(interaction.channel_id or 0)
        seat = session.seat_of(interaction.user.id)
        if seat is None or seat.seat is None or seat.computer:
            raise NotSeated(NOT_SEATED)
        if cancel:
            dropped = await self.store.waits.drop_pass(session.id, seat.seat)
            text = (
                t.gettext("Your pass declared ahead is cancelled.")
                if dropped
                else t.gettext("You had declared no pass ahead here.")
            )
            await reply(interaction, text)
            return
        if session.status != "active":
            raise Refusal("this game has not started yet")
        if not waits.has_pass(session.engine):
            raise Refusal("this game has no pass move to declare ahead (Tiwanaku and Guacamole have one)")
        if seat.seat in session.to_move():
            raise Refusal("it is your turn now: play your move (or pass) yourself")
        await self.store.waits.declare_pass(session.id, seat.seat, interaction.user.id, session.version)
        await reply(
            interaction,
            t.gettext(
                "Declared: if your next turn comes straight after the turn being played and you may pass "
                "then, you pass at once. Any other turn changes the board and cancels it. "
                "/play pass-ahead cancel:True takes it back."
            ),
        )

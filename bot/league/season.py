"""A league's time: its rounds open, reach their deadlines, and the season ends.

The scheduler fires :meth:`Rounds.fire_round` (``league_round`` jobs) and
:meth:`Rounds.fire_deadline` (``league_deadline`` jobs); both are registered with every other
job kind in :mod:`bot.time.jobs`.  This module decides and words what happens; what must reach
Discord (posts, threads, direct messages, boards) goes through :class:`Posts`, which the
Discord side implements (:class:`bot.surface.league.LeaguePosts`).

Who is told that a round's game is open follows the notices policy the table uses for turns
(:func:`bot.notices.reach`): a mention for those who want one, a direct message for those who
want that (not in their quiet hours), a mention after all when the direct message is refused,
and the name alone, without a ping, for those who want no notices.

Imports the league service and texts, notices, sessions and storage rows, the time's jobs and
the league's pictures; never Discord.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

import engines
from bot import alt, notices
from bot.league import attendance, guard, organiser, review, texts, tiebreaks
from bot.league.calendar import Calendar, SeasonPosts, table_thread
from bot.league.names import all_shown, listed, of, shown
from bot.league.noshows import first_holder
from bot.league.organiser import told
from bot.league.service import LeagueService, OpenedRound
from bot.sessions import MoveResult, Session, damage_words
from bot.storage import Job
from bot.storage.leagues import ROUND_JOB, LeagueGame, LeagueRow
from bot.texts import clip
from bot.time.scheduler import Scheduler
from engines.core import Said, said
from languages import ENGLISH, N_, Language, language
from renderers import league as pictures

log = logging.getLogger(__name__)

RETRY_ROUND = 600.0
"""Seconds between tries to open a round the bot lacks permissions for."""
OPEN_DM = N_(
    "Your {game} game for **{league}**, {round}, is open. Play it in its thread before {when}: {link}"
)
CHAMPION_DM = N_("🏆 You are the champion of **{league}**!")


@dataclass(frozen=True)
class Picture:
    """A picture to post, with its alt text."""

    data: bytes
    filename: str
    alt: str


class Posts(SeasonPosts, Protocol):
    """What the rounds need of Discord (the calendar's needs, a thread of the channel among them, and:)."""

    async def language(self, guild_id: int) -> Language:
        """The language of what is posted in the server."""

    async def post(
        self,
        channel_id: int,
        guild_id: int,
        text: str,
        *,
        picture: Picture | None = None,
        pings: Sequence[int] = (),
        told: Sequence[object] = (),
    ) -> bool:
        """Post ``text`` (only ``pings`` notified of their mentions); False when Discord refused it.
        ``told`` names what a post that a stop before its record has made again tells (the same
        each time: :func:`told`), so that Discord takes the repeat for the same post; empty: a
        post made anew each time."""

    async def missing_permissions(self, channel_id: int) -> list[str]:
        """The permissions the bot lacks to open games in threads of the channel."""

    async def direct(self, user_id: int, text: str, *, told: Sequence[object] = ()) -> bool:
        """A direct message (``told``: as for :meth:`post`, with its reader); False when refused."""

    async def post_board(
        self, session: Session, header: str | Said, lines: Sequence[Said] = (), pings: Sequence[int] = ()
    ) -> None:
        """The board with ``header``; ``lines``, refused in the game's channel just before it, come
        with it, pinging those of ``pings`` they mention (Discord's refusal is logged, not raised:
        the board, its header and lines are tried again)."""

    async def announce(self, result: MoveResult) -> None:
        """The board after a move the table made (Discord's refusal is logged, not raised)."""


class Gate(Protocol):
    """What decides whether a due round opens, and speaks once it has (the check-in:
    :class:`bot.league.presence.CheckinDesk`)."""

    async def hold(self, league: LeagueRow, number: int) -> bool:
        """Whether round ``number`` waits (it sets its round job again if it must)."""

    async def opened(self, opened: OpenedRound) -> None:
        """Round ``opened`` is paired and its games opened."""

    async def notes(self, league: LeagueRow, t: Language) -> list[str]:
        """Lines below the standings."""

    async def sat_out(self, league: LeagueRow, number: int, t: Language) -> list[str]:
        """Who sat round ``number`` out for attendance, and why (names, no mentions)."""


class Rounds:
    """Opens rounds, ends them at their deadlines and crowns the champion."""

    def __init__(self, leagues: LeagueService, posts: Posts, scheduler: Scheduler, gate: Gate | None = None):
        self.leagues = leagues
        self.store = leagues.store
        self.posts = posts
        self.scheduler = scheduler
        self.gate = gate
        self.calendar: Calendar | None = None  # the rounds as server events, tables as forum posts
        self.guards = guard.Guards(self.store)  # a round's opening, held
        self.arming: list[Callable[[OpenedRound], Awaitable[None]]] = []
        """What is set up for a round as soon as it is stored, before its games open (the
        no-shows' reminder: :class:`bot.league.noshow_desk.NoShowDesk`); each must be safe to
        run again."""

    async def post(
        self,
        league: LeagueRow,
        text: str,
        *,
        picture: Picture | None = None,
        pings: Sequence[int] = (),
        told: Sequence[object] = (),
    ) -> bool:
        return await self.posts.post(
            league.channel_id, league.guild_id, text, picture=picture, pings=pings, told=told
        )

    async def names(self, league: LeagueRow) -> dict[int, str]:
        return {p.user_id: p.name for p in await self.store.leagues.league_players(league.id)}

    async def tell(
        self,
        users: Sequence[int],
        t: Language,
        dm: str,
        spoken: Callable[[Language], Mapping[str, object]] | None = None,
        told: Sequence[object] = (),
        held: Callable[[int, float], Awaitable[object]] | None = None,
        /,
        **values: object,
    ) -> list[int]:
        """Tell ``users`` as each chose (:func:`bot.notices.reach`): DM ``dm`` (with ``values``, the
        values ``spoken`` gives in the reader's language, and ``told``: :meth:`Posts.direct`) to
        those who want it, in their language; the ones to ping where the news is posted.  With
        ``held``, it is given each one whose news only a DM brings, held back by their quiet
        hours, and when those end (:func:`bot.notices.held`)."""
        now = self.store.clock.time()
        pings = []
        for uid, person in (await self.store.people.several(users)).items():
            if held is not None and notices.held(person, now):
                await held(uid, notices.quiet_ends(person, now))
            mention, direct = notices.reach(person, now)
            if direct:
                mine = language(person.locale) if person.locale else t
                words = {**values, **(spoken(mine) if spoken is not None else {})}
                if not await self.posts.direct(uid, mine.gettext(dm, **words), told=told):
                    mention = True  # a refused DM falls back to a mention, as for turns
            if mention:
                pings.append(uid)
        return pings

    async def round_text(self, found: LeagueRow, t: Language = ENGLISH) -> str:
        """``/league round``: the current round's games, where each is played and how far it is."""
        names = all_shown(await self.names(found))  # written in the message
        rounds = {r.number: r for r in await self.store.leagues.league_rounds(found.id)}
        current = rounds.get(found.current_round)
        name = texts.round_name(found, found.current_round, t)
        if found.status == "cancelled":
            lines = [
                t.gettext("**{league}**, {round} (the league was cancelled)", league=found.shown, round=name)
            ]
        elif current is not None and current.closed_at is not None:  # its deadline has passed
            lines = [
                t.gettext(
                    "**{league}**, {round} (ended {when})",
                    league=found.shown,
                    round=name,
                    when=texts.when(current.deadline_at),
                )
            ]
        elif current is not None:
            lines = [
                t.gettext(
                    "**{league}**, {round} (ends {when})",
                    league=found.shown,
                    round=name,
                    when=texts.when(current.deadline_at),
                )
            ]
        else:
            lines = [t.gettext("**{league}**, {round}", league=found.shown, round=name)]
        lines.append(texts.options_line(found, t))
        lines.append(texts.clock_text(found, t))
        for g in await self.store.leagues.league_games(found.id, found.current_round):
            session = await self.leagues.sessions.core.get(g.session_id) if g.session_id else None
            who = listed(names, g.players)
            if session is not None and g.status != "finished":
                who = await self.playing_now(g, session, names, t)
            if g.status == "finished":
                order = sorted(g.seats, key=lambda s: s.place or 99)
                state = t.gettext(
                    "finished: {places}",
                    places=", ".join(f"{s.place}. {names.get(s.user_id, s.user_id)}" for s in order),
                )
            elif session is not None and session.damaged:
                state = t.gettext(
                    "damaged: the table cannot run it; its league's organiser or an admin can {/game abandon} it"
                    " there, or the round's deadline ends it"
                )
            elif session is not None and found.status == "cancelled":
                state = t.gettext("not finished (the league was cancelled)")
            elif session is not None:
                state = t.gettext("being played")
            else:
                state = t.gettext("not opened")
            if session is not None:
                lines.append(
                    t.gettext(
                        "Table {table}: {players} in {channel}, {state}",
                        table=g.table_no,
                        players=who,
                        channel=f"<#{session.row.channel_id}>",
                        state=state,
                    )
                )
            else:
                lines.append(
                    t.gettext("Table {table}: {players}, {state}", table=g.table_no, players=who, state=state)
                )
        kinds = await self.store.attendance.bye_kinds(found.id)
        byes = [  # the pairing's byes; those who sat out for attendance are listed below, apart
            of(names, u)
            for r, u, _ in await self.store.leagues.league_byes(found.id)
            if r == found.current_round and kinds.get((r, u), attendance.PAIRING) == attendance.PAIRING
        ]
        if byes:
            lines.append(texts.bye_line(found, byes, t, each=True))
        if self.gate is not None:
            lines.extend(await self.gate.sat_out(found, found.current_round, t))
        lines.extend(await review.waiting_line(self.store, found, t))
        return "\n".join(lines)

    async def playing_now(
        self, game: LeagueGame, session: Session, names: Mapping[int, str], t: Language
    ) -> str:
        """Who plays each seat of a running league game, in the pairing's order: a seat handed to a
        substitute names them and whom they play for ("Sub (for Cusi)")."""
        handed = await self.store.noshows.substitutions(game.id)  # (original, substitute, credit)
        took = {original: sub for original, sub, _ in handed}
        gave = {sub: original for original, sub in took.items()}
        # the seats' names, as the message writes them
        seated = {s.user_id: shown(s.name) for s in session.seats if s.user_id is not None}
        out = []
        for u in game.players:
            first = first_holder(gave, u)  # the seat's first holder (its league seat may be the substitute's)
            now = first
            while now in took:
                now = took[now]
            if now == first:
                out.append(of(names, u))
            else:
                out.append(
                    t.gettext(
                        "{substitute} (for {original})",
                        substitute=seated.get(now) or names.get(now) or f"<@{now}>",
                        original=names.get(first, f"<@{first}>"),
                    )
                )
        return ", ".join(out)

    # ----------------------------------------------------------------- pictures

    async def standings_post(
        self, league: LeagueRow, heading: str, t: Language = ENGLISH
    ) -> tuple[str, Picture]:
        """The standings in text (to post below the picture, for screen readers) and as a picture,
        both in language ``t``."""
        rows = await self.leagues.standings(league)
        ratings = await self.leagues.rating_map(league)
        order = tiebreaks.stored_order(league.tiebreaks)
        data = await asyncio.to_thread(
            functools.partial(
                pictures.standings,
                league.name,
                heading,
                texts.picture_lines(rows, ratings, order, t),
                language=t.code,
                contrast=await self.store.people.server_contrast(league.guild_id),
                **texts.picture_columns(order),
            )
        )
        notes = await self.gate.notes(league, t) if self.gate is not None else []
        text = texts.standings_text(league, rows, f"**{league.shown}**: {heading}", t, ratings, notes)
        described = alt.from_text(text, names=[league.name, *(s.name for s in rows)])  # kept as written
        return text, Picture(data, f"league-{league.id}-standings.png", described)

    async def bracket_post(self, league: LeagueRow, t: Language = ENGLISH) -> tuple[Picture, str]:
        """The bracket picture and the same in text below it, in language ``t``: a line per round,
        or, for a round too long for one message (the first of 64 players), several lines each
        naming the round, so that the text can be posted whole over several messages."""
        names = await self.names(league)
        b = await self.leagues.bracket(league)

        def name(player: str | None) -> str | None:
            return None if player is None else names.get(int(player), player)

        rounds = [
            [pictures.BracketMatch(name(m.a), name(m.b), name(m.winner), r == 0) for m in matches]
            for r, matches in enumerate(b.rounds)
        ]
        final = league.format == "swiss"
        if league.status == "finished":
            heading = (
                t.gettext("{league}: final stage, finished", league=league.shown)
                if final
                else t.gettext("{league}: bracket, finished", league=league.shown)
            )
        else:
            heading = f"{league.shown}: {texts.round_name(league, league.current_round, t)}"
        # The picture's title is short enough to fit it; the text says the round too.
        title = (
            t.gettext("{league}: final stage", league=league.name)
            if final
            else t.gettext("{league}: bracket", league=league.name)
        )
        contrast = await self.store.people.server_contrast(league.guild_id)
        data = await asyncio.to_thread(
            functools.partial(pictures.bracket, title, rounds, language=t.code, contrast=contrast)
        )
        lines = [f"**{heading}**"]
        bye, later = t.gettext("bye"), t.gettext("to be decided")  # as the league's web page writes them

        def match(m: pictures.BracketMatch) -> str:
            a, b = (shown(x) if x else (bye if m.first_round else later) for x in (m.a, m.b))
            if m.winner:
                return t.gettext("{a} v {b}: {winner} won", a=a, b=b, winner=shown(m.winner))
            return t.gettext("{a} v {b}", a=a, b=b)

        for r, matches in enumerate(rounds, 1):
            lines += texts.round_lines(r, [match(m) for m in matches], t)
        text = "\n".join(lines)  # whole: it is posted in as many messages as it takes (bot.texts.pieces)
        described = alt.from_text(text, names=[league.name, *names.values()])  # kept as written
        return Picture(data, f"league-{league.id}-bracket.png", described), text

    # ----------------------------------------------------------------- the scheduler's jobs

    async def fire_round(self, job: Job) -> None:
        """Open a round: pair it, open each game in a thread, ping the players, tell the channel.

        When the bot lacks a permission the games need in the league's channel, the round waits:
        the organiser is told once which permission is missing, and the bot tries again every
        :data:`RETRY_ROUND` seconds (the round then opens with its full length)."""
        league_id, number = int(job.key), int(job.payload.get("round", 0))
        league = await self.store.leagues.league(league_id)
        if job.payload.get("announce"):  # the season ended, and the process stopped before saying so
            if league is not None and league.status == "finished":
                await self.announce(league)
            return
        if "review" in job.payload:  # the round waits for the organiser's review: remind them
            if league is not None and league.status == "running" and league.current_round == number - 1:
                since = float(job.payload["review"])
                if job.payload.get("first"):  # a stop came before the organiser was told it waits
                    await review.tell_waiting(self.leagues, self.posts, league, number, since)
                else:
                    await review.remind(self.leagues, self.posts, league, number, since, job.due_at)
            return
        if league is not None and league.status == "running" and league.current_round == number:
            await self.resume(league, number, job)  # its job again: the process opening it died
            return
        if league is None or league.status != "running" or league.current_round != number - 1:
            return
        missing = await self.posts.missing_permissions(league.channel_id)
        if missing:
            # told before the job records it was: a stop between tells it again (the same message
            # within Discord's minutes), where the other way round it was never told
            if job.payload.get("missing") != missing:
                await self.tell_organiser(league, number, missing)
            await self.store.leagues.schedule_round(
                league_id, number, self.store.clock.time() + RETRY_ROUND, missing=missing
            )
            return
        if self.gate is not None and await self.gate.hold(league, number):
            return
        if league.review and league.format == "swiss" and not self.leagues.bracket_stage(league, number):
            await review.hold(self.leagues, self.posts, league, number, job)
            return
        opened = await self.leagues.open_round(league_id, number, job=job)
        if opened is None:
            # Nothing opened, and the season is not over: the final stage found fewer than two
            # players left, or it was removed while its round was due.  The season ends here.
            league = await self.store.leagues.league(league_id)
            if (
                league is not None
                and league.status == "running"
                and league.current_round == number - 1
                and (number > league.rounds or league.final_round == number)
            ):
                await self.end_season(league)
            return
        await self.launch(opened)

    async def launch(self, opened: OpenedRound) -> None:
        """Everything a round needs once it is paired and stored, however it was opened (by its
        job, or published after the organiser's review): its reminders armed, its games opened
        and the players told, then who sat it out (and the next check-in window); its guard held
        meanwhile, renewed table by table (:mod:`bot.league.guard`)."""
        async with self.guards.holding(opened.league.id, opened.number) as hold:
            if hold is not None:  # (None: the guard resumes it in another process)
                await self._launch(opened, hold)

    async def _launch(self, opened: OpenedRound, hold: guard.Hold) -> None:
        for arm in self.arming:
            await arm(opened)
        await self.open_games(opened, hold)
        await hold.renew()
        if self.gate is not None:
            await self.gate.opened(opened)
        await self.store.leagues.settle_round(opened.league.id, opened.number)

    async def resume(self, league: LeagueRow, number: int, held: Job | None = None) -> None:
        """Open the games of round ``number`` that were stored but not opened, and start those
        whose lobby was built but not started (the process opening them stopped, by its job or by
        the organiser's publishing, and the guard the store armed with the round fired); those
        open already are listed, not opened twice, and the last of them greeted again (the stop may
        have come before its greeting).  With every game open, what follows their opening is still
        done when the stop came before it was (the last table's greeting, the round's post and
        event, who sat the round out), each told once within Discord's minutes.  ``held``: the
        guard as the scheduler claimed it, held as the opening's is (:mod:`bot.league.guard`)."""
        async with self.guards.holding(league.id, number, held) as hold:
            if hold is not None:
                await self._resume(league, number, hold)

    async def _resume(self, league: LeagueRow, number: int, hold: guard.Hold) -> None:
        games = await self.store.leagues.league_games(league.id, number)
        rows = [await self.store.games.session(g.session_id) for g in games if g.session_id is not None]
        unstarted = any(r is not None and r.status == "lobby" for r in rows)  # built, then a stop
        armed = await self.store.jobs.job(ROUND_JOB, str(league.id))  # settle_round drops it
        all_open = not unstarted and not any(g.status == "pending" and g.session_id is None for g in games)
        if all_open and (armed is None or armed.payload != {"round": number}):
            return  # (settled: the round's job is dropped, or another round's)
        stored = {r.number: r for r in await self.store.leagues.league_rounds(league.id)}.get(number)
        if stored is None:
            return
        kinds = await self.store.attendance.bye_kinds(league.id)
        byes = [
            u
            for r, u, _ in await self.store.leagues.league_byes(league.id)
            if r == number and kinds.get((r, u), attendance.PAIRING) == attendance.PAIRING
        ]
        final_stage = league.format == "swiss" and bool(self.leagues.bracket_stage(league, number))
        log.info("league %s: round %s was stored but not all it needs was done; doing it", league.id, number)
        # every game open too: the stop came after the last table's game started, before what
        # follows (its greeting, the round's post, who sat out): told again, once within Discord's minutes
        await self._launch(
            OpenedRound(league, number, games, byes, stored.deadline_at, final_stage, resumed=True), hold
        )

    async def tell_organiser(self, league: LeagueRow, number: int, missing: list[str]) -> None:
        """Tell the organiser which permissions a round waits for, as their ``/me notify`` asks
        (:func:`bot.league.organiser.tell`; by direct message when the bot cannot post there),
        each message with a nonce naming the round and the permissions, so that a letter told again
        after a stop is one message within Discord's minutes."""

        def words(t: Language) -> str:
            names = [t.gettext(name) for name in missing]  # each permission as the reader's client names it
            return t.ngettext(
                "{organiser}: {round} of **{league}** cannot open: I am missing {missing} in {channel}. Give my role"
                " that permission there (channel settings, Permissions); I try again every {minutes} minutes, and"
                " the round starts when I can open its games.",
                "{organiser}: {round} of **{league}** cannot open: I am missing {missing} in {channel}. Give my role"
                " those permissions there (channel settings, Permissions); I try again every {minutes} minutes, and"
                " the round starts when I can open its games.",
                len(missing),
                organiser=f"<@{league.organiser_id}>",
                round=texts.round_name(league, number, t),
                league=league.shown,
                missing=texts.and_list(names, t),
                channel=f"<#{league.channel_id}>",
                minutes=int(RETRY_ROUND // 60),
            )

        server = await self.posts.language(league.guild_id)
        letter = told(league, "missing", number, *missing)
        if not await organiser.tell(self.store, self.posts, league, words, server, told=letter):
            log.warning("league %s: could not tell the organiser about %s", league.id, missing)

    async def open_games(self, opened: OpenedRound, hold: guard.Hold) -> None:
        """Open each table of the round (renewing ``hold`` before each) and post the round's
        opening: its deadline, the final stage's seeds, a line a table, the byes."""
        league = opened.league
        names = await self.names(league)  # the seats' names, as written
        written = all_shown(names)  # as the post writes them
        t = await self.posts.language(league.guild_id)  # everything here is posted: the server's language
        action = (await self.store.noshows.rules(league.id)).action
        lines = [texts.opening_line(league, opened.number, opened.deadline_at, action, t)]
        if opened.final_stage and opened.number == league.final_round:
            seeds = await self.leagues.seeds(league)
            lines.append(
                t.gettext(
                    "The final stage, seeded by the standings: {seeds}",
                    seeds=", ".join(f"{i}. {of(written, int(p))}" for i, p in enumerate(seeds, 1)),
                )
            )
        # resumed after a stop: the last table opened may have started without its greeting
        cut = max((g.table_no for g in opened.games if g.session_id is not None), default=None)
        for game in opened.games:
            await hold.renew()  # (the guard fires no sooner than two minutes on: the table has them)
            again = opened.resumed and game.table_no == cut
            lines.append(await self.open_table_game(opened, game, names, t, greet_again=again))
        if opened.byes:
            byes = [of(written, u) for u in opened.byes]
            if opened.final_stage:
                lines.append(t.gettext("Bye into the next round: {players}", players=", ".join(byes)))
            else:
                lines.append(texts.bye_line(league, byes, t))
        # (told again when a stop cut the opening after it: one post within Discord's minutes)
        await self.post(league, "\n".join(lines), told=told(league, "opened", opened.number))
        if self.calendar is not None:
            await self.calendar.round_opened(opened, names)

    async def open_table_game(
        self,
        opened: OpenedRound,
        game: LeagueGame,
        names: dict[int, str],
        t: Language,
        *,
        greet_again: bool = False,
    ) -> str:
        """Open the game of table ``game``, in a thread of its own, and greet its players there;
        its line in the round's opening post.  A table a stopped process opened is listed again
        (``greet_again``: and greeted again, the stop having perhaps come before its greeting), or
        started if it was built and not started; one recorded as forfeited stays so."""
        league = opened.league
        who = listed(all_shown(names), game.players)
        done = None if game.session_id is None else await self.leagues.sessions.core.get(game.session_id)
        if done is not None and done.status != "lobby":  # opened before the process stopped: listed again
            if greet_again and done.status == "active":
                await self.greet(opened, game, done.row.channel_id, done, t)
            return texts.table_line(game.table_no, who, done.row.channel_id, t)
        forfeited = t.gettext(
            "Table {table}: {players}: forfeited (too few players left)", table=game.table_no, players=who
        )
        if done is None and game.status != "pending":  # recorded as forfeited before the process stopped
            return forfeited
        if done is not None:  # built whole before the process stopped, not started: it starts now
            thread, session = done.row.channel_id, await self.leagues.start_game(league, game, done)
        else:
            name = texts.thread_name(league, opened.number, opened.final_stage, game.table_no, t)
            made = await self.open_table(league, name, who, opened.resumed)
            if made is None:
                log.warning("league %s: no thread for table %s", league.id, game.table_no)
                return t.gettext(
                    "Table {table}: {players}: could not be opened (the bot cannot create threads here)",
                    table=game.table_no,
                    players=who,
                )
            thread, session = made, await self.leagues.open_game(league, game, made, names)
        if session is None:
            return forfeited
        await self.greet(opened, game, thread, session, t)
        return texts.table_line(game.table_no, who, thread, t)

    async def greet(
        self, opened: OpenedRound, game: LeagueGame, thread: int, session: Session, t: Language
    ) -> None:
        """Tell the players of a table's game just opened in ``thread`` (by the notices policy),
        say so in the thread, and post the game's first board (unless it has one: after a stop, the
        start's catch-up may have posted it).  Each message carries a nonce naming the table, so a
        greeting told again after a stop is one message within Discord's minutes."""
        league = opened.league
        greeting = told(league, "greeting", opened.number, game.table_no)
        seated = [u for u in game.players if session.seat_of(u)]
        round_name = texts.round_name(league, opened.number, t)
        values = {"game": engines.get(league.game).title, "league": league.shown, "round": round_name}
        pings = await self.tell(
            seated,
            t,
            OPEN_DM,
            lambda mine: {"round": texts.round_name(league, opened.number, mine)},
            greeting,
            link=notices.jump_link(league.guild_id, thread),
            when=texts.when(opened.deadline_at),
            **values,
        )
        opening = said(
            "{players}: your {game} game for **{league}**, {round}. Play it here before {when}.",
            players=" ".join(f"<@{u}>" for u in seated),
            when=texts.when(opened.deadline_at),
            **values,
        )
        # a line the thread refused comes with the first board (kept with it if that is refused too)
        posted = await self.posts.post(
            thread, league.guild_id, opening.in_words(t), pings=pings, told=greeting
        )
        if session.row.board_message_id is None:
            header = said("**{game}**: {league}, {round}", **values)
            await self.posts.post_board(session, header, () if posted else [opening], () if posted else pings)

    async def fire_deadline(
        self, job: Job, closed: Callable[[LeagueRow], Awaitable[object]] | None = None
    ) -> None:
        """A round's time is up: the computer finishes the games still running, ``closed`` does what
        follows the round (the no-shows' drops, the last round's too), then the next round is due
        at once, or the season ends with its champion."""
        league_id, number = int(job.payload["league"]), int(job.payload["round"])
        broken: list[LeagueGame] = []
        for result in await self.leagues.round_deadline(league_id, number, broken):
            await self.posts.announce(result)
        league = await self.store.leagues.league(league_id)
        if league is not None and broken:
            await self.tell_broken(league, number, broken)
        if league is not None and self.calendar is not None:
            await self.calendar.round_ended(league, number)
        if league is None or league.status != "running" or league.current_round != number:
            return
        if closed is not None:  # the last round's no-shows drop too: a dropped player is never champion
            await closed(league)
            league = await self.store.leagues.league(league_id) or league
        if number < league.rounds:
            await self.store.leagues.schedule_round(league_id, number + 1, self.store.clock.time())
            self.scheduler.wake()
            return
        await self.end_season(league)

    async def table_gone(self, guild_id: int, channel_id: int) -> list[Session]:
        """The thread (or channel) of running league games was deleted: nobody can move there any
        more, so the computer finishes each now, as the round's deadline would (the result stands),
        nothing is posted where it was (nor tagged, a forum post), and the organiser is told.  The
        games finished."""
        if self.calendar is not None:
            await self.calendar.post_gone(channel_id)
        ended = []
        for row in await self.store.games.live_sessions(guild_id):
            if channel_id not in (row.channel_id, row.lobby_channel_id):
                continue
            where = await self.store.leagues.league_game_of(row.id)
            if where is None:
                continue
            result = await self.leagues.sessions.seats.finish_by_computer(row.id, waited=False)
            league = await self.store.leagues.league(where[0])
            if result is None or league is None:
                continue
            ended.append(result.session)
            game = next(
                g
                for g in await self.store.leagues.league_games(league.id, where[1])
                if g.session_id == row.id
            )
            await self.tell_gone(league, game)
        return ended

    async def ended_gone(self, guild_id: int, channel_id: int) -> None:
        """Discord answered that the thread of a league game that had already ended (at its round's
        deadline, say) does not exist: it was deleted while the bot was not running, so its final
        board could not be posted there.  Its result stands; the organiser is told."""
        row = await self.store.games.last_session(channel_id)
        if row is None or row.live or row.guild_id != guild_id or row.status != "finished":
            return
        where = await self.store.leagues.league_game_of(row.id)
        league = await self.store.leagues.league(where[0]) if where is not None else None
        if where is None or league is None:
            return
        games = await self.store.leagues.league_games(league.id, where[1])
        game = next((g for g in games if g.session_id == row.id), None)
        if game is not None:
            await self.tell_gone(league, game, ended=True)

    async def tell_gone(self, league: LeagueRow, game: LeagueGame, *, ended: bool = False) -> None:
        """Tell the organiser that ``game``'s thread was deleted and the computer finished it (or,
        ``ended``, that its game had ended already and its last board could not be posted)."""
        names = all_shown(await self.names(league))  # written in the message

        def words(t: Language) -> str:
            values = {
                "organiser": f"<@{league.organiser_id}>",
                "table": game.table_no,
                "round": texts.round_name(league, game.round, t),
                "league": league.shown,
                "players": listed(names, game.players),
            }
            if ended:
                return t.gettext(
                    "{organiser}: the thread of table {table} of {round} of **{league}** ({players}) was"
                    " deleted, so its game's final board could not be posted there. The game had ended,"
                    " and its result stands.",
                    **values,
                )
            return t.gettext(
                "{organiser}: the thread of table {table} of {round} of **{league}** ({players}) was deleted,"
                " so nobody could play its game on there. The computer finished it for its players, as at"
                " the round's deadline, and its result stands.",
                **values,
            )

        server = await self.posts.language(league.guild_id)
        letter = told(league, "gone", game.round, game.id, ended)  # (a stop may have it told again)
        if not await organiser.tell(self.store, self.posts, league, words, server, told=letter):
            log.warning("league %s: could not tell the organiser of the deleted table %s", league.id, game.id)

    async def tell_broken(self, league: LeagueRow, number: int, broken: Sequence[LeagueGame]) -> None:
        """Tell the organiser (and the league's channel) of each game the round's deadline could not
        finish because the table cannot run it (damaged), and how it ended."""
        names = all_shown(await self.names(league))  # written in the message
        problems = {}
        for game in broken:
            session = await self.leagues.sessions.core.get(game.session_id or 0)
            problems[game.id] = damage_words((session.damaged if session is not None else None) or "")

        def words(t: Language) -> str:
            return clip(
                "\n".join(
                    t.gettext(
                        "{organiser}: table {table} of {round} of **{league}** ({players}) could not be finished"
                        " at the deadline: its game is damaged ({problem}). It ended without being played on,"
                        " its players sharing its places (as for a game that could not open).",
                        organiser=f"<@{league.organiser_id}>",
                        table=game.table_no,
                        round=texts.round_name(league, number, t),
                        league=league.shown,
                        players=listed(names, game.players),
                        problem=problems[game.id].in_words(t),
                    )
                    for game in broken
                )
            )

        server = await self.posts.language(league.guild_id)
        letter = told(league, "damaged", number, *(g.id for g in broken))
        if not await organiser.tell(self.store, self.posts, league, words, server, told=letter):
            log.warning(
                "league %s: could not tell the organiser of damaged games in round %s", league.id, number
            )

    async def end_season(self, league: LeagueRow) -> None:
        """Crown the champion: the final standings picture with the champion, the standings in
        text below it, and, after a final stage, its bracket (picture, then text)."""
        await self.leagues.champion(league)
        await self.announce(await self.leagues.reread(league.id))

    async def announce(self, league: LeagueRow) -> None:
        """Post the end of a season that is over (then drop the guard that would post it again)."""
        champion = league.champion_id
        t = await self.posts.language(league.guild_id)
        text, picture = await self.standings_post(league, texts.round_heading(league, t), t)
        final = bool(league.final_round and await self.leagues.seeds(league))
        if champion and final:
            crown = t.gettext(
                "🏆 **{league}** is over. Champion: {champion} (winner of the final stage)!",
                league=league.shown,
                champion=f"<@{champion}>",
            )
        elif champion:
            crown = t.gettext(
                "🏆 **{league}** is over. Champion: {champion}!",
                league=league.shown,
                champion=f"<@{champion}>",
            )
        else:
            crown = t.gettext("**{league}** is over.", league=league.shown)
        end = functools.partial(told, league, "end")  # what each message tells: the same told again
        crowned = [champion] if champion else []
        pings = await self.tell(crowned, t, CHAMPION_DM, None, end("champion"), league=league.shown)
        await self.post(league, crown, picture=picture, pings=pings, told=end("crown"))
        await self.post(league, text, told=end("standings"))
        if final or league.format == "elimination":  # the bracket that crowned the champion
            bracket, words = await self.bracket_post(league, t)
            await self.post(league, words.splitlines()[0], picture=bracket, told=end("bracket"))
            await self.post(league, words, told=end("rounds"))
        await self.store.leagues.announced(league.id)

    async def open_table(self, league: LeagueRow, name: str, players: str, again: bool) -> int | None:
        """Where a table's game is played (``again``: the round's opening resumed after a stop, which
        may have made it): :meth:`bot.league.calendar.Calendar.open_table`, or a thread of its channel."""
        if self.calendar is not None:
            return await self.calendar.open_table(league, name, players, again=again)
        return await table_thread(self.store, self.posts, league, name, again)

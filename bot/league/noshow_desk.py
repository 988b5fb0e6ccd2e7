"""A league round's no-shows at work: reminders and warnings before a game's deadline, the
organiser's choice at it, drops and substitutes, and the organiser's overdue view (the rules are
:mod:`bot.league.noshows`; what reaches Discord goes through the rounds' :class:`Posts`).

Jobs (declared in :mod:`bot.time.jobs`): ``league_nudge`` (key ``league:round``; payload the
league, the round and the stage, ``remind`` then ``warn``) is armed when a round opens and armed
again for its warning when the reminder has gone; the round's ``league_deadline`` job fires
:meth:`NoShowDesk.fire_deadline`, which counts the no-shows and applies the organiser's choice
before the round's own deadline work (:meth:`bot.league.season.Rounds.fire_deadline`).

Imports the league's service, rules, texts and rounds, notices, sessions and storage rows; never
Discord.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Sequence
from dataclasses import dataclass

from bot import notices
from bot.league import noshows as rules
from bot.league import organiser, texts
from bot.league.names import all_shown, listed, shown
from bot.league.organiser import told
from bot.league.season import Rounds
from bot.league.service import LeagueError, OpenedRound
from bot.league.together import NotDropped, Once
from bot.sessions import MoveResult, Session, seats_said
from bot.storage import Body, Clocked, Job, JobPayload
from bot.storage.leagues import LeagueGame, LeagueRow, forfeiting
from bot.storage.noshows import Substitute
from bot.time import gameclock as gc
from bot.time import jobs
from bot.time.source import seconds_of
from engines.core import Said, said
from languages import ENGLISH, N_, Language

log = logging.getLogger(__name__)

REMIND_DM = N_("⏳ Your turn is waiting in your {game} game for **{league}**; the round ends {when}: {link}")
WARN_DM = N_(
    "⚠️ Your {game} game for **{league}** is waiting for you, and the round ends {when}. At the deadline "
    "{action}, and it counts as a no-show: {link}"
)
DROPPED_DM = N_(
    "You are dropped from **{league}**: your no-shows reached its limit ({n}), and you are paired no more."
)
SUBSTITUTE_DM = N_("You take {name}'s seat in a {game} game for **{league}**; play on here: {link}")


@dataclass(frozen=True)
class Action:
    """What happened to one game at its deadline or by the organiser's decision."""

    game: LeagueGame
    late: list[int]
    counted: list[int]
    dropped: list[int]


class NoShowDesk:
    """Reminds, warns, decides, drops and hands seats to substitutes."""

    def __init__(self, rounds: Rounds):
        self.rounds = rounds
        self.leagues = rounds.leagues
        self.sessions = rounds.leagues.sessions
        self.store = rounds.store
        self.posts = rounds.posts
        self.scheduler = rounds.scheduler
        rounds.arming.append(self.arm)

    # ----------------------------------------------------------------- settings

    async def set_rules(self, league: LeagueRow, action: str, drop_after: int, credit: str) -> rules.Rules:
        try:
            chosen = rules.check(league.game, action, drop_after, credit)
        except rules.NoShowError as exc:
            raise LeagueError(exc.msg, **exc.values) from None
        await self.store.noshows.set_rules(league.id, chosen)
        return chosen

    # ----------------------------------------------------------------- the game's state now

    async def late_in(self, game: LeagueGame) -> tuple[Session | None, list[int]]:
        """The game's running session (None when it is not being played) and who holds it up."""
        if game.status != "playing" or game.session_id is None:
            return None, []
        session = await self.sessions.core.get(game.session_id)
        if session is None or session.status != "active":
            return None, []
        moving = session.to_move()
        seats = [
            rules.SeatNow(s.user_id, s.computer, s.resigned, s.seat in moving)
            for s in session.seats
            if s.seat is not None
        ]
        return session, rules.late_people(seats)

    async def league_of(self, league_id: int) -> LeagueRow | None:
        league = await self.store.leagues.league(league_id)
        return league if league is not None and league.status == "running" else None

    # ----------------------------------------------------------------- the scheduler's jobs

    async def fire_round(self, job: Job) -> None:
        """Open the round (:meth:`Rounds.fire_round`, which arms its reminder: :meth:`arm`)."""
        await self.rounds.fire_round(job)

    async def arm(self, opened: OpenedRound) -> None:
        """Arm the reminder of a round just opened (by its job or published after a review)."""
        league, number = opened.league, opened.number
        stored = {r.number: r for r in await self.store.leagues.league_rounds(league.id)}.get(number)
        if stored is None:
            return
        start = seconds_of(stored.opened_at)
        times = rules.nudge_times(start, stored.deadline_at)
        await self.scheduler.schedule(
            jobs.LEAGUE_NUDGE,
            f"{league.id}:{number}",
            times[rules.REMIND],
            {"league": league.id, "round": number, "stage": rules.REMIND, "warn_at": times[rules.WARN]},
        )

    async def fire_nudge(self, job: Job) -> None:
        """The reminder (then arm the warning) or the warning of a round's late games."""
        league = await self.league_of(int(job.payload["league"]))
        number, stage = int(job.payload["round"]), str(job.payload["stage"])
        if league is None or league.current_round != number:
            return
        if stage == rules.REMIND:
            await self.remind_round(league, number)
            await self.scheduler.schedule(
                jobs.LEAGUE_NUDGE,
                job.key,
                float(job.payload["warn_at"]),
                {"league": league.id, "round": number, "stage": rules.WARN},
            )
        else:
            await self.warn_round(league, number)

    async def deadline_of(self, league: LeagueRow, number: int) -> float:
        current = {r.number: r for r in await self.store.leagues.league_rounds(league.id)}.get(number)
        return current.deadline_at if current is not None else self.store.clock.time()

    async def remind_round(self, league: LeagueRow, number: int) -> None:
        for game in await self.store.leagues.league_games(league.id, number):
            await self.remind(league, game)

    async def remind(self, league: LeagueRow, game: LeagueGame) -> list[int]:
        """Remind whoever holds the game up, in its thread (and by DM as each chose); who."""
        session, late = await self.late_in(game)
        if session is None or not late:
            return []
        t = await self.posts.language(league.guild_id)
        when = texts.when(await self.deadline_of(league, game.round))
        # (the nudge's job fired again after a stop tells the same: each message names what it tells)
        reminder = told(league, "late", rules.REMIND, game.round, game.id, *late)
        pings = await self.tell_late(league, game, session, rules.REMIND, late, reminder)
        text = t.gettext(
            "⏳ {players}: your turn is waiting; this round of **{league}** ends {when}.",
            players=" ".join(f"<@{u}>" for u in late),
            league=league.shown,
            when=when,
        )
        await self.posts.post(session.row.channel_id, league.guild_id, text, pings=pings, told=reminder)
        return late

    async def warn_round(self, league: LeagueRow, number: int) -> None:
        """Warn each late player (in the game's thread) and the organiser (one post in the league's
        channel, and a DM, as their ``/me notify`` asks: :func:`bot.league.organiser.tell`)."""
        t = await self.posts.language(league.guild_id)
        chosen = await self.store.noshows.rules(league.id)
        when = texts.when(await self.deadline_of(league, number))
        action = t.gettext(rules.ACTION_NAMES[chosen.action])
        lines: list[tuple[int, str, str]] = []
        for game in await self.store.leagues.league_games(league.id, number):
            session, late = await self.late_in(game)
            if session is None or not late:
                continue
            warning = told(league, "late", rules.WARN, number, game.id, *late)
            pings = await self.tell_late(league, game, session, rules.WARN, late, warning)
            who = " ".join(f"<@{u}>" for u in late)
            text = t.gettext(
                "⚠️ {players}: this game is waiting for you and the round ends {when}. At the deadline {action}, "
                "and it counts as a no-show.",
                players=who,
                when=when,
                action=action,
            )
            await self.posts.post(session.row.channel_id, league.guild_id, text, pings=pings, told=warning)
            lines.append((game.table_no, who, f"<#{session.row.channel_id}>"))
        if not lines:
            return

        def words(mine: Language) -> str:
            head = mine.ngettext(
                "{organiser}: {n} game of **{league}** is late; the round ends {when} and then {action} ({/league "
                "overdue} decides sooner):",
                "{organiser}: {n} games of **{league}** are late; the round ends {when} and then {action} ({/league "
                "overdue} decides sooner):",
                len(lines),
                organiser=f"<@{league.organiser_id}>",
                league=league.shown,
                when=when,
                action=mine.gettext(rules.ACTION_NAMES[chosen.action]),
            )
            tables = [
                mine.gettext(
                    "Table {table} waits for {players} in {thread}", table=n, players=who, thread=thread
                )
                for n, who, thread in lines
            ]
            return "\n".join([head, *tables])

        letter = told(league, "late", "organiser", number, *lines)
        await organiser.tell(self.store, self.posts, league, words, t, told=letter)

    async def tell_late(
        self,
        league: LeagueRow,
        game: LeagueGame,
        session: Session,
        stage: str,
        late: list[int],
        note: Sequence[object],
    ) -> list[int]:
        """DM ``late`` the round's reminder or warning (``stage``) as each chose (``note``: what it
        tells); one whose DM waits for their quiet hours has it when they end, if still late then
        and before the deadline (:meth:`fire_held`).  The ones to ping in the game's thread."""
        deadline = await self.deadline_of(league, game.round)
        chosen = await self.store.noshows.rules(league.id)

        async def hold(user: int, at: float) -> None:
            if at < deadline:
                await self.scheduler.schedule(
                    jobs.LEAGUE_HELD,
                    f"{league.id}:{game.id}:{stage}:{user}",
                    at,
                    JobPayload(league=league.id, round=game.round, game=game.id, stage=stage, user=user),
                )

        return await self.rounds.tell(
            late,
            await self.posts.language(league.guild_id),
            REMIND_DM if stage == rules.REMIND else WARN_DM,
            lambda mine: {"action": mine.gettext(rules.ACTION_NAMES[chosen.action])},  # the reader's
            note,
            hold,
            **self.values(league, session, texts.when(deadline)),
        )

    async def fire_held(self, job: Job) -> None:
        """A late player's reminder or warning that their quiet hours held back, now they are over:
        by DM, if the game still waits for them and the round's deadline is ahead."""
        league = await self.league_of(int(job.payload["league"]))
        number, user = int(job.payload["round"]), int(job.payload["user"])
        if league is None or league.current_round != number:
            return
        if self.store.clock.time() >= await self.deadline_of(league, number):
            return
        for game in await self.store.leagues.league_games(league.id, number):
            if game.id == int(job.payload["game"]):
                session, late = await self.late_in(game)
                if session is not None and user in late:
                    stage = str(job.payload["stage"])
                    note = told(league, "late", stage, number, game.id, user, "held")
                    await self.tell_late(league, game, session, stage, [user], note)

    def values(self, league: LeagueRow, session: Session, when: str) -> dict[str, object]:
        from engines import get

        return {
            "game": get(league.game).title,
            "league": league.shown,
            "when": when,
            "link": notices.jump_link(league.guild_id, session.row.channel_id),
        }

    async def fire_deadline(self, job: Job) -> None:
        """A round's deadline: count and act on its no-shows, then the round's own deadline work
        (the computer finishes what still runs), then drop those who reached the organiser's
        threshold, before the next round is paired (or the season ends).  Fired again after a
        stop half way, it counts nobody twice and still drops whom the first try counted."""
        league = await self.league_of(int(job.payload["league"]))
        number = int(job.payload["round"])
        if league is not None and league.current_round == number:
            if await self.postponed(league, number, job):
                return
            await self.scheduler.cancel(jobs.LEAGUE_NUDGE, f"{league.id}:{number}")
            for game in await self.store.leagues.league_games(league.id, number):
                await self.apply(league, game, at_deadline=True)
        await self.rounds.fire_deadline(job, functools.partial(self.drop_counted, number=number))

    async def postponed(self, league: LeagueRow, number: int, job: Job) -> bool:
        """Whether the round's deadline came before its players had the round's whole time with the
        bot in service in the league's server (nobody could move while it was out), with a game
        still running: each such game is told in its thread when the round ends now, and the
        deadline moves on by the time the outages took, its job given back for then (unless no
        game runs any more: a thread found deleted as it is told ends its game)."""
        stored = {r.number: r for r in await self.store.leagues.league_rounds(league.id)}.get(number)
        if stored is None or stored.closed_at is not None:
            return False
        start, now = seconds_of(stored.opened_at), self.store.clock.time()
        outages = gc.joined(await self.store.outages.of_guild(league.guild_id))
        left = league.round_seconds - gc.used(start, now, outages)  # (the round's time in service)
        running = await self.running(league, number) if left >= 1 else []
        if not running:
            return False
        t = await self.posts.language(league.guild_id)
        text = t.gettext(
            "⏰ I was out of service for {time} during this round of **{league}**, when nobody could "
            "move, so the round now ends {when}.",
            time=gc.spoken(now - start - gc.used(start, now, outages)),
            league=league.shown,
            when=texts.when(now + left),
        )
        for session in running:
            line = told(league, "postponed", number, session.id, int(now + left))
            await self.posts.post(session.row.channel_id, league.guild_id, text, told=line)
        if not await self.running(league, number):
            return False
        if not await self.store.leagues.postpone_round(league.id, number, job, now + left):
            return False
        if self.rounds.calendar is not None:
            await self.rounds.calendar.round_moved(league, number, now + left)
        return True

    async def running(self, league: LeagueRow, number: int) -> list[Session]:
        """The round's games still running."""
        out = []
        for game in await self.store.leagues.league_games(league.id, number):
            session = await self.sessions.core.get(game.session_id) if game.session_id is not None else None
            if game.status == "playing" and session is not None and session.row.live:
                out.append(session)
        return out

    async def drop_counted(self, league: LeagueRow, *, number: int) -> list[int]:
        """Drop those with a no-show in round ``number`` whose no-shows reached the league's
        threshold (read from the store: a first try that stopped before dropping them counted
        them already)."""
        late = [n.user_id for n in await self.store.noshows.of_league(league.id) if n.round == number]
        return await self.drop_repeaters(league, late)  # in the order they were counted

    # ----------------------------------------------------------------- the organiser's choice

    async def apply(self, league: LeagueRow, game: LeagueGame, *, at_deadline: bool) -> Action | None:
        """Apply the league's choice to one game (at the deadline, or decided by the organiser):
        each person holding it up gets a no-show; None when nobody holds it up.  The no-shows (and
        a forfeit's league seats) are stored in one commit with the change at the table (the
        seats forfeited, the game scored, the computer in the seats): a failure between them
        never leaves a player forfeited in the league who plays on, or counted late for a game
        that goes on as if nothing was decided."""
        session, late = await self.late_in(game)
        if session is None or not late:
            return None
        chosen = await self.store.noshows.rules(league.id)
        counted: list[int] = []
        # The league seats that forfeit: a late substitute whose result counts for the player they
        # replaced (or for nobody) forfeits that player's seat, as a late player would.
        gave = {
            s: o
            for o, s, credit in await self.store.noshows.substitutions(game.id)
            if credit != rules.SUBSTITUTE
        }
        seats = [rules.first_holder(gave, u) for u in late]

        def recorded() -> Body[None]:
            counted.extend(
                (yield from self.store.noshows.recording(league.id, game.id, game.round, late, chosen.action))
            )
            if chosen.action == rules.FORFEIT:
                yield from forfeiting(game.id, seats)

        once = Once(recorded)
        t = await self.posts.language(league.guild_id)
        result: MoveResult | None = None
        if chosen.action == rules.SCORE and league.game in rules.SCORED_AS_IT_STANDS:
            result = await self.sessions.seats.score_now(
                session.id, said("the game was scored as it stood at the league's deadline"), once.body()
            )
        elif chosen.action == rules.FORFEIT:
            if not at_deadline:  # at the deadline the computer finishes the game for everyone
                result = await self.sessions.seats.forfeit_seats(session.id, late, once.body())
        elif not at_deadline:
            result = await self.sessions.seats.computer_takes(
                session.id,
                late,
                said(
                    "{names} did not play in time; the computer plays on for them",
                    names=seats_said(
                        [s.seat for s in session.seats if s.user_id in late and s.seat is not None]
                    ),
                ),
                once.body(),
            )
        await once.alone(self.store)  # the table had nothing to change (or nothing to do now)
        text = t.ngettext(
            "⏰ {players} did not play in time: a no-show, and {action}.",
            "⏰ {players} did not play in time: a no-show each, and {action}.",
            len(late),
            players=", ".join(shown(s.name) for s in session.seats if s.user_id in late),
            action=t.gettext(rules.ACTION_NAMES[chosen.action]),
        )
        # (the deadline's job fired again after a stop tells the same: the post names what it tells)
        line = told(league, "no-show", game.round, game.id, at_deadline, *late)
        await self.posts.post(session.row.channel_id, league.guild_id, text, told=line)
        if result is not None:
            await self.posts.announce(result)
        return Action(game, late, counted, [])

    async def decide(self, league: LeagueRow, game_id: int) -> Action:
        """The organiser applies the deadline's choice to one game now; then drops whoever reached
        the threshold (their seats go to substitutes)."""
        game = await self.game(league, game_id)
        await self.still_held_up(league, game)
        done = await self.apply(league, game, at_deadline=False)
        if done is None:
            raise LeagueError("table {table} is not waiting for anyone now", table=game.table_no)
        dropped = await self.drop_repeaters(league, done.counted)
        return Action(done.game, done.late, done.counted, dropped)

    async def still_held_up(self, league: LeagueRow, game: LeagueGame) -> None:
        """Refuse to act on ``game`` for being held up unless it is so now (:meth:`overdue`): a
        second press of a button, or one on a list made before its player moved, would count the
        no-show of whoever the game waits for since, who is not late."""
        if all(o.game_id != game.id for o in await self.overdue(league)):
            raise LeagueError(
                "table {table} is not held up now (its player moved since the list was made, or it was "
                "decided already); {/league overdue} lists the tables held up now",
                table=game.table_no,
            )

    async def game(self, league: LeagueRow, game_id: int) -> LeagueGame:
        found = [
            g
            for g in await self.store.leagues.league_games(league.id, league.current_round)
            if g.id == game_id
        ]
        if not found:
            raise LeagueError("that game is not in the current round of {league}", league=league.shown)
        return found[0]

    async def drop_repeaters(self, league: LeagueRow, counted: Sequence[int]) -> list[int]:
        """Drop those of ``counted`` who reached the league's threshold; who was dropped (nobody
        once the season is over)."""
        if league.status != "running":
            return []
        chosen = await self.store.noshows.rules(league.id)
        tally = await self.store.noshows.counts(league.id)
        active = {p.user_id for p in await self.store.leagues.league_players(league.id) if p.active}
        dropped = []
        for uid in dict.fromkeys(counted):
            if uid in active and rules.should_drop(tally.get(uid, 0), chosen.drop_after):
                await self.drop(league, uid)
                dropped.append(uid)
                await self.tell_dropped(league, uid, tally[uid])
        return dropped

    async def tell_dropped(self, league: LeagueRow, user_id: int, count: int) -> None:
        """Say in the league's channel who was dropped; the player is pinged, or written to, as
        their ``/me notify`` asks (named without a ping when they want neither)."""
        t = await self.posts.language(league.guild_id)
        limit = (await self.store.noshows.rules(league.id)).drop_after
        pings = await self.rounds.tell([user_id], t, DROPPED_DM, league=league.shown, n=limit)
        text = t.ngettext(
            "{player} is dropped from **{league}** after {n} no-show.",
            "{player} is dropped from **{league}** after {n} no-shows.",
            count,
            player=f"<@{user_id}>",
            league=league.shown,
        )
        await self.rounds.post(league, text, pings=pings)

    # ----------------------------------------------------------------- drops and substitutes

    async def drop(self, league: LeagueRow, user_id: int, name: str | None = None) -> tuple[int, int, int]:
        """Drop a player mid-season; each seat of theirs in a game still being played goes to the
        next substitute, or to the computer.  (seats given to substitutes, games going on with the
        computer in their seat, games their forfeit ended: a two-player game's).  ``name``: how a
        refusal names them (a mention by default).

        The drop is stored in one commit with the change of the first of their games being played
        (in a league's round, their only one): a failure between them never leaves them dropped
        and forfeited in the league while they play on, with no drop left to make again."""
        sessions = await self.store.leagues.playing_sessions(league.id, user_id)
        if league.status != "running" or sessions is None:
            raise self.leagues.drop_refusal(league, user_id, name)

        def dropping() -> Body[None]:
            if (yield from self.store.leagues.dropping(league.id, user_id)) is None:
                raise NotDropped  # dropped (or the league ended) meanwhile: nothing is stored

        once = Once(dropping)
        subs = computers = ended = 0
        games = {g.session_id: g for g in await self.store.leagues.league_games(league.id) if g.session_id}
        try:
            for sid in sessions:
                game = games.get(sid)
                if game is not None and await self.substitute(league, game, user_id, once.unless_ran()):
                    subs += 1
                    continue
                result = await self.sessions.seats.forfeit_seat(sid, user_id, once.unless_ran())
                if result is not None:
                    if result.session.status == "active":
                        computers += 1
                    else:
                        ended += 1
                    await self.posts.announce(result)
            await once.alone(self.store)  # none of their games had a seat of theirs to change
        except NotDropped:
            raise self.leagues.drop_refusal(league, user_id, name) from None
        return subs, computers, ended

    async def substitute(
        self, league: LeagueRow, game: LeagueGame, original: int, also: Body[object] | None = None
    ) -> Substitute | None:
        """Hand ``original``'s seat to the next substitute on the list, with ``also`` (their drop)
        in the same commit; None when nobody could take it (``also`` not run then)."""
        if game.session_id is None:
            return None
        session = await self.sessions.core.get(game.session_id)
        seat = session.seat_of(original) if session is not None else None
        if session is None or seat is None or seat.seat is None or seat.resigned:
            return None
        chosen = await self.store.noshows.rules(league.id)
        queue = await self.store.noshows.substitutes(league.id)
        active = [p.user_id for p in await self.store.leagues.league_players(league.id) if p.active]
        in_game = [s.user_id for s in session.seats if s.user_id is not None]
        pick = rules.next_substitute([s.user_id for s in queue], in_game, active)
        if pick is None:
            return None
        sub = next(s for s in queue if s.user_id == pick)
        engine_seat = seat.seat

        async def change(clock: Clocked | None, version: int) -> bool:
            return await self.store.noshows.hand_seat(
                league.id,
                game.id,
                session.id,
                engine_seat,
                original,
                sub,
                chosen.credit,
                clock,
                also,
                expected_version=version,
            )

        handed = await self.sessions.seats.hand_over(session.id, engine_seat, sub.user_id, change)
        if handed is None:
            return None
        t = await self.posts.language(league.guild_id)
        values = self.values(league, handed, "")
        name = shown(seat.name)  # as the messages write it
        pings = await self.rounds.tell([sub.user_id], t, SUBSTITUTE_DM, name=name, **values)
        line = said(
            "🔁 {substitute} takes {name}'s seat and plays on from here (the result counts for {credit}).",
            substitute=f"<@{sub.user_id}>",
            name=name,
            credit=Said(rules.CREDIT_NAMES[chosen.credit]),
        )
        # a line the channel refused comes with the board (kept with it if that is refused too)
        told = await self.posts.post(handed.row.channel_id, league.guild_id, line.in_words(t), pings=pings)
        header = said("**{league}**: the board now", league=league.shown)
        await self.posts.post_board(handed, header, () if told else [line], () if told else pings)
        return sub

    async def substitute_for(self, league: LeagueRow, game_id: int) -> tuple[Substitute, str]:
        """The overdue view's button: a substitute takes the seat of whoever holds the game up (a
        dropped player's seat the computer took, else the late person's seat, who is not dropped
        but stops playing this game)."""
        game = await self.game(league, game_id)
        session, late = await self.late_in(game)
        if session is None:
            raise LeagueError("table {table} is not being played now", table=game.table_no)
        dropped = {p.user_id for p in await self.store.leagues.league_players(league.id) if p.dropped}
        held = [s for s in session.seats if s.user_id in dropped and not s.resigned]
        if not held:
            await self.still_held_up(league, game)  # (a late person's seat: only while they are late)
            held = [s for s in session.seats if s.user_id in late]
        if not held:
            raise LeagueError("table {table} is not waiting for anyone now", table=game.table_no)
        original = held[0]
        assert original.user_id is not None
        sub = await self.substitute(league, game, original.user_id)
        if sub is None:
            raise LeagueError(
                "no substitute can take the seat: the list of {league} is empty, or everyone on it plays already "
                "({/league organiser substitute} adds one)",
                league=league.shown,
            )
        return sub, original.name

    # ----------------------------------------------------------------- the overdue view

    async def overdue(self, league: LeagueRow) -> list[rules.Overdue]:
        """The current round's games not started or held up, longest wait first."""
        number = league.current_round
        current = {r.number: r for r in await self.store.leagues.league_rounds(league.id)}.get(number)
        if current is None:
            return []
        opened = seconds_of(current.opened_at)
        games = await self.store.leagues.league_games(league.id, number)
        moves = await self.store.noshows.last_moves([g.session_id for g in games if g.session_id is not None])
        now_games = []
        for g in games:
            session, late = await self.late_in(g)
            played = moves.get(g.session_id) if g.session_id is not None else None
            now_games.append(
                rules.GameNow(
                    g.id,
                    g.table_no,
                    started=session is not None and played is not None,
                    finished=g.status == "finished" or (g.session_id is not None and session is None),
                    holders=tuple(late if session is not None else g.players),
                    since=played[1] if played else opened,
                )
            )
        return rules.overdue(now_games, self.store.clock.time(), league.round_seconds)

    async def overdue_text(self, league: LeagueRow, t: Language = ENGLISH) -> tuple[str, list[rules.Overdue]]:
        found = await self.overdue(league)
        names = all_shown(await self.rounds.names(league))  # written in the message
        round_name = texts.round_name(league, league.current_round, t)
        if not found:
            return t.gettext(
                "**{league}**, {round}: no game is late or waiting to start.",
                league=league.shown,
                round=round_name,
            ), found
        lines = [
            t.ngettext(
                "**{league}**, {round}: {n} game late or not started",
                "**{league}**, {round}: {n} games late or not started",
                len(found),
                league=league.shown,
                round=round_name,
            )
        ]
        for o in found:
            who = listed(names, o.holders)
            waited = waited_text(o.waited, t)
            if o.state == rules.NOT_STARTED:
                lines.append(
                    t.gettext(
                        "Table {table}: not started, {players}, for {time}",
                        table=o.table_no,
                        players=who,
                        time=waited,
                    )
                )
            else:
                lines.append(
                    t.gettext(
                        "Table {table}: late, waiting for {players} for {time}",
                        table=o.table_no,
                        players=who,
                        time=waited,
                    )
                )
        return "\n".join(lines), found


def waited_text(seconds: float, t: Language = ENGLISH) -> str:
    """A wait in days, hours or minutes (the largest whole unit)."""
    if seconds >= 86400:
        n = int(seconds // 86400)
        return t.ngettext("{n} day", "{n} days", n)
    if seconds >= 3600:
        n = int(seconds // 3600)
        return t.ngettext("{n} hour", "{n} hours", n)
    n = int(seconds // 60)
    return t.ngettext("{n} minute", "{n} minutes", n)

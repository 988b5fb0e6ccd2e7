"""The league service: creating leagues, sign-ups, opening rounds, deadlines and standings.

No Discord here: the league cog presents what this returns.  The rules of a season:

- A league is created in sign-up; players join and leave until the organiser starts it.  The
  first round opens at the start date (or at once, when that has passed), and each next round
  opens when the round before reaches its deadline (``days per round`` after it opened), so a
  season runs on a fixed schedule.  Both are scheduler jobs (``league_round`` and
  ``league_deadline`` in :mod:`bot.time.jobs`, fired by :mod:`bot.league.season`) read from the
  store's clock.
- Opening a round pairs it (:mod:`bot.league.pairing`), stores its games and byes in one
  transaction, then :mod:`bot.league.season` opens a session for each game (:meth:`LeagueService.open_game`).
- At a round's deadline every game still running is finished by the computer playing the
  seats of the people in it, and the result stands.
- A dropped player is paired no more; each of their games not finished yet is forfeited: they
  rank last in it (a running game goes on with the computer in their seat; a two-player game
  ends at once, won by the opponent).
- Single elimination: each round plays the bracket's open matches; a drawn match goes to the
  better seed.  The champion is the bracket's winner; in Swiss and round robin, the top of the
  final standings.
- A Swiss league may end in a final stage (:meth:`LeagueService.set_final`): after its Swiss
  rounds, the top N of the standings (dropped players left out) play a single-elimination
  bracket seeded by those standings, byes to the top seeds when N is not a power of two.  The
  final's games score no league points (the standings are the Swiss rounds'); the bracket's
  winner is the league's champion.
- A league is also a rating season: its rated games count into a rating table of its own
  (``season_ratings``) that starts fresh, beside the server's all-time table.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass

import engines
from bot import profiles
from bot.league import attendance, names, pairing, seating, tiebreaks
from bot.league.draw import MAX_PLAYERS, Draw
from bot.league.errors import LeagueError, over
from bot.league.pairing import Row
from bot.league.together import NotDropped, Once
from bot.sessions import MoveResult, Session, SessionService
from bot.storage import Body, Job, Store
from bot.storage.leagues import GameTaken, LeagueGame, LeagueNameTaken, LeagueRow
from bot.time import gameclock as gc
from engines.core import N_, SetupError, echo, new_config_from_options, options_of, said_n
from languages import ENGLISH, Language

FORMAT_NAMES = {"swiss": "Swiss", "round_robin": "round robin", "elimination": "single elimination"}
RESUME_AFTER = 120.0
"""Seconds after a round is stored before its job fires again, as a guard, to open the games a
stopped process left unopened (:meth:`bot.league.season.Rounds.resume`), in the threads (or forum
posts) it made for them when it made any (:func:`bot.league.calendar.left_behind`).  The opening
holds the guard for as long, renewed as each table opens (:mod:`bot.league.guard`), so it never
fires while an opening runs, and fires this long after a stop: within Discord's few minutes, as the
board's two-minute hold, so that what it tells again with a nonce is received once."""
ANNOUNCE_AFTER = 120.0
"""Seconds after a season ends before its league's job fires, as a guard, to tell the end a stopped
process left untold (:meth:`bot.league.season.Rounds.announce`): within Discord's few minutes, as
the board's two-minute hold, so that its posts and direct messages, each sent with a nonce naming
what it tells, are taken for those the stopped process made.  A guard that fires while the end is
still being told (a slow Discord) sends the same posts again, which Discord answers with the first
ones."""
MAX_ROUNDS = 30
MAX_DAYS = 60
MOST_POINTS = 1000  # a place's most: room for any scale in use, standings and tiebreaks finite
NAME_LIMIT = 60
TAKEN = N_("this server already has a league called {name}; choose another name")


@dataclass
class Standing:
    """A standings row with the player's name and their move since the previous round."""

    row: Row
    name: str
    movement: int | None  # places gained since the last round (None: no earlier table)
    dropped: bool = False
    no_shows: int = 0  # games whose deadline found it this player's turn (bot/league/noshows.py)
    byes: int = 0  # rounds the pairing had no table for them (not those sat out for attendance)


@dataclass
class OpenedRound:
    league: LeagueRow
    number: int
    games: list[LeagueGame]
    byes: list[int]
    deadline_at: float
    final_stage: bool = False  # a round of a Swiss league's final stage (its byes score nothing)
    resumed: bool = False  # opened again by its guard: a stopped opening may have made its threads


class LeagueService:
    def __init__(self, store: Store, sessions: SessionService):
        self.store = store
        self.sessions = sessions
        self.draw = Draw(store)
        # What the season, the web pages and the tests read of the draw, through the service.
        self.seeds, self.bracket, self.finalists = self.draw.seeds, self.draw.bracket, self.draw.finalists
        self.rating_map = self.draw.rating_map

    bracket_stage = staticmethod(Draw.bracket_stage)

    async def reread(self, league_id: int) -> LeagueRow:
        """A league read again after a change to it (leagues are never deleted)."""
        league = await self.store.leagues.league(league_id)
        if league is None:
            raise LeagueError("league {league} is gone from the database", league=league_id)
        return league

    # ----------------------------------------------------------------- creating

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        organiser_id: int,
        name: str,
        game: str,
        format: str,
        group_size: int,
        options: Mapping[str, object] | None = None,
        rounds: int = 0,
        days: float = 7.0,
        clock: str | None = None,
        starts_at: float | None = None,
        points: list[float] | None = None,
        bye_points: float | None = None,
        seed: int = 0,
        tiebreak_order: Sequence[str] | None = None,
        review: bool = False,
    ) -> LeagueRow:
        """A new league in sign-up; every bad value is refused with what is allowed
        (``tiebreak_order``: tiebreak names, checked; ``review``: Swiss rounds are reviewed by the
        organiser before they are published)."""
        typed, name = name, self.checked_name(name)
        info = self.check_format(game, format, group_size, rounds, days)
        spec, config = self.checked_setup(info, group_size, clock, days, options)
        table, bye = self.checked_points(group_size, points, bye_points)
        if review and format != "swiss":
            raise LeagueError("only a Swiss league's rounds can be reviewed before they are published")
        await self.check_name_free(guild_id, name, typed)
        now = self.store.clock.time()
        try:
            lid = await self.store.leagues.create_league(
                guild_id=guild_id,
                channel_id=channel_id,
                organiser_id=organiser_id,
                name=name,
                game=game,
                format=format,
                group_size=group_size,
                options=options_of(config),
                points=table,
                bye_points=bye,
                round_seconds=days * 86400.0,
                rounds=rounds if format == "swiss" else 0,
                timer_seconds=None,
                clock=spec.text if spec else None,
                starts_at=max(now, starts_at if starts_at is not None else now),
                seed=seed,
            )
        except LeagueNameTaken:
            raise LeagueError(TAKEN, name=names.quoted(name)) from None
        if tiebreak_order is not None or review:
            await self.store.league_pairing.set_controls(lid, tiebreaks=tiebreak_order, review=review or None)
        return await self.reread(lid)

    @staticmethod
    def checked_name(typed: str) -> str:
        """A new league's name as stored (:func:`names.normalise`); refused when it has no visible
        character or is too long."""
        name = names.normalise(typed)
        if not name:
            raise LeagueError(
                "a league's name needs a visible character; {name} has none",
                name=names.quoted(typed[:NAME_LIMIT]),
            )
        if len(name) > NAME_LIMIT:
            raise LeagueError("a league's name has 1 to {most} characters", most=NAME_LIMIT)
        return name

    @staticmethod
    def check_format(game: str, format: str, group_size: int, rounds: int, days: float) -> engines.GameInfo:
        """A new league's game, format, table size, rounds and days per round checked, in that
        order; the game's entry."""
        if game not in engines.GAMES:
            raise LeagueError(
                "{game} is not a game here; choose one of: {games}",
                game=echo(game),
                games=", ".join(engines.GAMES),
            )
        info = engines.get(game)
        if format not in FORMAT_NAMES:
            raise LeagueError("the format is one of: {formats}", formats=", ".join(FORMAT_NAMES))
        if not info.min_players <= group_size <= info.max_players or not 2 <= group_size <= 6:
            raise LeagueError(
                "{game} games seat {least} to {most} players, not {n}",
                game=info.title,
                least=info.min_players,
                most=info.max_players,
                n=group_size,
            )
        if format == "elimination" and group_size != 2:
            raise LeagueError("single elimination is for two-player games; use Swiss for larger tables")
        if format == "swiss" and rounds == 0:  # the command's option left out
            raise LeagueError(
                "a Swiss league needs its number of rounds: give rounds, from 1 to {most}", most=MAX_ROUNDS
            )
        if format == "swiss" and not 1 <= rounds <= MAX_ROUNDS:
            raise LeagueError(
                "a Swiss league has 1 to {most} rounds, not {rounds}", most=MAX_ROUNDS, rounds=rounds
            )
        if not (isinstance(days, int | float) and math.isfinite(days) and 0 < days <= MAX_DAYS):
            raise LeagueError(
                "a round lasts more than 0 and at most {most} days, not {days}",
                most=MAX_DAYS,
                days=f"{days:g}" if isinstance(days, int | float) else echo(days),
            )
        return info

    @classmethod
    def checked_setup(
        cls,
        info: engines.GameInfo,
        group_size: int,
        clock: str | None,
        days: float,
        options: Mapping[str, object] | None,
    ) -> tuple[gc.ClockSpec | None, object]:
        """A new league's games' clock (:meth:`check_clock`) and their options read into the game's
        config, checked in that order."""
        spec = cls.check_clock(clock, days)
        try:
            config = new_config_from_options(info.load().Config, group_size, options or {})
        except SetupError as exc:
            raise LeagueError(exc.said) from None
        return spec, config

    @staticmethod
    def checked_points(
        group_size: int, points: list[float] | None, bye_points: float | None
    ) -> tuple[list[float], float]:
        """A new league's points per place (by default the table size's) and points for a bye (by
        default worked out from them); refused when they are not one per place, none negative,
        none over :data:`MOST_POINTS` and none rising."""
        table = list(points) if points is not None else list(pairing.place_points(group_size))
        given = ",".join(f"{p:g}" for p in table)  # as the organiser typed them (3,2,1,0)
        if len(table) != group_size or any(not math.isfinite(p) or p < 0 for p in table):
            raise LeagueError(
                said_n(
                    group_size,
                    "give {n} number of points, one per place, none negative; not {points}",
                    "give {n} numbers of points, one per place, none negative; not {points}",
                    points=given,
                )
            )
        if max(table, default=0) > MOST_POINTS:
            raise LeagueError(
                "a place scores at most {most} points, not {points}", most=MOST_POINTS, points=given
            )
        if any(a < b for a, b in zip(table, table[1:], strict=False)):
            raise LeagueError(
                "the points per place may not rise from one place to the next (best place first), not {points}",
                points=given,
            )
        bye = pairing.bye_points(group_size, table) if bye_points is None else float(bye_points)
        return table, bye

    async def check_name_free(self, guild_id: int, name: str, typed: str) -> None:
        """Refuse a new league's ``name`` (as stored; ``typed``: as given) when a league of the
        server has it already, in its letter case or another, or a name that looks the same."""
        same = [
            x.name
            for x in await self.store.leagues.of_server(guild_id)
            if names.key(x.name) == names.key(name)
        ]
        if same and typed == name:  # the very name (in its letter case or another)
            raise LeagueError(TAKEN, name=names.quoted(name))
        if same:
            raise LeagueError(
                "this server already has a league called {name}, which looks the same as {typed}; choose "
                "another name",
                name=names.quoted(same[0]),
                typed=names.quoted(typed[:NAME_LIMIT]),
            )

    @staticmethod
    def check_clock(clock: str | None, days: float) -> gc.ClockSpec | None:
        """The games' clock from a spec (None or ``off``: none); refused in words that say what is
        allowed.  A turn's time or starting bank longer than a round is refused too: the round's
        deadline would always come first."""
        if clock is None:
            return None
        try:
            spec = gc.parse_clock_or_off(clock)
        except gc.ClockError as exc:
            if "help" in exc.said.args:  # the refusal says what a clock is already
                raise LeagueError("the league's clock: {problem}", problem=exc.said) from None
            raise LeagueError(
                "the league's clock: {problem}; {help}", problem=exc.said, help=gc.HELP
            ) from None
        if spec is not None and spec.start > days * 86400.0 + 1e-6:
            times = {"time": gc.spoken(spec.start), "round": gc.spoken(days * 86400.0)}
            if spec.kind == gc.MOVE:
                raise LeagueError(
                    "the league's clock: a turn's time ({time}) is longer than a round ({round}); the round's "
                    "deadline would always come first",
                    **times,
                )
            raise LeagueError(
                "the league's clock: the starting bank ({time}) is longer than a round ({round}); the "
                "round's deadline would always come first",
                **times,
            )
        return spec

    async def find(
        self, guild_id: int, name: str | None, visible: Callable[[LeagueRow], bool] | None = None
    ) -> LeagueRow:
        """The server's league by name (live ones first), or, with no name, the only live one (the
        latest one when none is live).  With ``visible``, only the leagues it accepts exist for the
        search and its answers (those whose channel the asker can view)."""

        async def leagues(live: bool = True) -> list[LeagueRow]:
            found = await self.store.leagues.of_server(guild_id, live=live)
            return found if visible is None else [x for x in found if visible(x)]

        live = await leagues()
        if name:
            wanted = names.key(name)
            for league in live:
                if names.key(league.name) == wanted:
                    return league
            for league in await leagues(live=False):
                if names.key(league.name) == wanted:
                    return league
            if not live:
                raise LeagueError(
                    "there is no league called {name} here (none is running or open)", name=names.quoted(name)
                )
            raise LeagueError(
                "there is no league called {name} here (running or open: {leagues})",
                name=names.quoted(name),
                leagues=", ".join(x.shown for x in live),
            )
        if len(live) == 1:
            return live[0]
        ended = await leagues(live=False)
        if not live and ended:
            return ended[0]  # the latest season, to look back at
        if not live:
            raise LeagueError(
                "this server has no league open or running; an organiser starts one with {/league create}"
            )
        raise LeagueError("name the league: {leagues}", leagues=", ".join(x.shown for x in live))

    # ----------------------------------------------------------------- sign-ups

    async def join(
        self, league: LeagueRow, user_id: int, name: str, *, who: str | None = None, t: Language = ENGLISH
    ) -> str:
        """Sign ``user_id`` up; the answer in language ``t`` (refusals are LeagueErrors, naming the
        player ``who`` as a message shows them, or "you" when ``who`` is None: the asker)."""
        sign = functools.partial(self.store.leagues.join_league, league.id, user_id, name)
        return signed_up_text(name, league, await self.enrol(league, user_id, sign, who=who), t)

    async def enrol(
        self,
        league: LeagueRow,
        user_id: int,
        sign: Callable[[], Awaitable[str]],
        *,
        who: str | None = None,
    ) -> int:
        """What every sign-up (before the start, or late: :mod:`bot.league.presence`) checks and
        refuses around ``sign``, the store's sign-up: a full league, a player the league's gate
        refuses, a league closed or a player signed up already.  The number of
        players with them."""
        if (ended := over(league)) is not None:
            raise ended
        players = await self.store.leagues.league_players(league.id)
        if len(players) >= MAX_PLAYERS:
            raise LeagueError(
                said_n(MAX_PLAYERS, "the league is full ({n} player)", "the league is full ({n} players)")
            )
        refused = await profiles.league_admissible(self.store, league.id, user_id)
        if refused is not None:
            raise LeagueError(refused)
        answer = await sign()
        if answer == "closed":
            raise LeagueError("{league} has started; sign-ups are closed", league=league.shown)
        if answer == "already":
            if who is None:
                raise LeagueError("you are already signed up for {league}", league=league.shown)
            raise LeagueError("{name} is already signed up for {league}", name=who, league=league.shown)
        return len(players) + 1

    async def leave(
        self, league: LeagueRow, user_id: int, *, who: str | None = None, t: Language = ENGLISH
    ) -> str:
        """Take ``user_id`` off the league; the answer in language ``t`` (``who``: see :meth:`join`)."""
        if (ended := over(league)) is not None:
            raise ended
        answer = await self.store.leagues.leave_league(league.id, user_id)
        if answer == "closed":
            raise LeagueError(
                "{league} has started; the organiser can drop a player with {/league organiser drop}",
                league=league.shown,
            )
        if answer == "absent":
            if who is None:
                raise LeagueError("you are not signed up for {league}", league=league.shown)
            raise LeagueError("{name} is not signed up for {league}", name=who, league=league.shown)
        if who is None:
            return t.gettext("You left {league}", league=league.shown)
        return t.gettext("{name} left {league}", name=who, league=league.shown)

    async def drop(self, league: LeagueRow, user_id: int, name: str | None = None) -> list[MoveResult]:
        """Drop a player mid-season; the games of theirs being played go on with the computer in
        their seat, or end by their forfeit (``name``: how a refusal names them, a mention by
        default).  The drop is stored in one commit with the first of those games' change, as the
        organiser's drop (:meth:`bot.league.noshow_desk.NoShowDesk.drop`, which hands their seats
        to substitutes first) stores it."""
        sessions = await self.store.leagues.playing_sessions(league.id, user_id)
        if league.status != "running" or sessions is None:
            raise self.drop_refusal(league, user_id, name)

        def dropping() -> Body[None]:
            if (yield from self.store.leagues.dropping(league.id, user_id)) is None:
                raise NotDropped  # dropped (or the league ended) meanwhile: nothing is stored

        once = Once(dropping)
        results = []
        try:
            for sid in sessions:
                result = await self.sessions.seats.forfeit_seat(sid, user_id, once.unless_ran())
                if result is not None:
                    results.append(result)
            await once.alone(self.store)  # none of their games had a seat of theirs to change
        except NotDropped:
            raise self.drop_refusal(league, user_id, name) from None
        return results

    @staticmethod
    def drop_refusal(league: LeagueRow, user_id: int, name: str | None = None) -> LeagueError:
        """Why ``user_id`` cannot be dropped: the league is not running, or they are not one of
        its active players."""
        if league.status != "running":
            return LeagueError(
                "only a running league drops players; before the start use {/league organiser remove}"
            )
        return LeagueError(
            "{name} is not playing in {league} (not signed up, or dropped already); {/league standings} lists"
            " its players",
            name=name or f"<@{user_id}>",
            league=league.shown,
        )

    # ----------------------------------------------------------------- the season

    async def start(self, league: LeagueRow) -> tuple[LeagueRow, float]:
        """Close the sign-ups; the first round is due at the start date (or now)."""
        if league.status != "signup":
            raise LeagueError("{league} has already started", league=league.shown)
        players = [p.user_id for p in await self.store.leagues.league_players(league.id)]
        need = max(2, league.group_size)
        if len(players) < need:
            raise LeagueError(
                said_n(
                    need,
                    "{league} needs at least {n} player to start; {signed} signed up",
                    "{league} needs at least {n} players to start; {signed} signed up",
                    league=league.shown,
                    signed=len(players),
                )
            )
        if league.final_top and len(players) < league.final_top:
            raise LeagueError(
                said_n(
                    len(players),
                    "{league} has a final stage of the top {top} but only {n} player signed up; lower it "
                    "with {/league final}",
                    "{league} has a final stage of the top {top} but only {n} players signed up; lower it "
                    "with {/league final}",
                    league=league.shown,
                    top=league.final_top,
                )
            )
        rounds = self.draw.planned_rounds(league, players)
        first = max(self.store.clock.time(), league.starts_at)
        ratings = await self.draw.ranking_ratings(league, players)
        order = sorted(range(len(players)), key=lambda i: (-ratings[players[i]], i))
        await self.store.leagues.start_league(league.id, first, rounds, [players[i] for i in order])
        return await self.reread(league.id), first

    async def set_final(self, league: LeagueRow, top: int) -> LeagueRow:
        """Give a Swiss league a final stage of its top ``top`` players (0: none) after its Swiss
        rounds; allowed until the final's first round opens."""
        if league.format != "swiss":
            if league.format == "elimination":
                raise LeagueError(
                    "{league} is a single-elimination league; only a Swiss league ends in a final stage",
                    league=league.shown,
                )
            raise LeagueError(
                "{league} is a round-robin league; only a Swiss league ends in a final stage",
                league=league.shown,
            )
        if league.status not in ("signup", "running"):
            raise LeagueError("{league} is over; a final stage is set before it ends", league=league.shown)
        if league.in_final:
            raise LeagueError(
                "the final stage of {league} has begun; it can no longer change", league=league.shown
            )
        swiss = league.swiss_rounds
        if top == 0:
            final: tuple[int | None, int | None, int] = (None, None, swiss)
        else:
            players = [p for p in await self.store.leagues.league_players(league.id) if p.active]
            most = len(players) if league.status == "running" else MAX_PLAYERS
            if not 2 <= top <= most:
                raise LeagueError(
                    said_n(
                        len(players),
                        "the final stage takes 2 to {most} players, not {top} ({n} player in {league} now); "
                        "0 removes it",
                        "the final stage takes 2 to {most} players, not {top} ({n} players in {league} now); "
                        "0 removes it",
                        most=most,
                        top=top,
                        league=league.shown,
                    )
                )
            final = (top, swiss + 1, swiss + pairing.bracket_rounds(top))
        if not await self.store.leagues.set_final(league.id, *final):
            raise LeagueError(
                "the final stage of {league} can no longer change (it has begun or ended)",
                league=league.shown,
            )
        return await self.reread(league.id)

    async def open_round(
        self,
        league_id: int,
        number: int,
        *,
        job: Job | None = None,
        paired: tuple[list[list[int]], list[int]] | None = None,
    ) -> OpenedRound | None:
        """Pair and store round ``number`` (``paired``: its groups and byes as the organiser
        reviewed them); None when it is open already or the league is over."""
        league = await self.store.leagues.league(league_id)
        if league is None or league.status != "running" or league.current_round != number - 1:
            return None
        if number > league.rounds:
            return None
        final_opens = league.format == "swiss" and league.final_round == number
        finalists = await self.draw.finalists(league) if final_opens else []
        if final_opens and len(finalists) < 2:
            return None  # too few players left for a final: the season ends on the standings
        out = [] if final_opens else await self.draw.sit_outs(league, number)
        if paired is not None and not final_opens:
            groups, byes = paired
            # The reviewed tables stand: who they seat plays (time away begun since the review
            # was drawn does not take them out of them a second time).
            placed = {u for g in groups for u in g} | set(byes)
            out = [o for o in out if o.user_id not in placed]
            out += await self.left_out_by_review(league, number, placed | {o.user_id for o in out})
        else:
            groups, byes = await self.draw.pair(league, number, finalists or None, {o.user_id for o in out})
        deadline = self.store.clock.time() + league.round_seconds
        stage = self.draw.bracket_stage(league, number)
        if stage:
            bracket = await self.draw.bracket(league, finalists or None)
            start = self.draw.stage_of(league)
            index = {
                tuple(sorted((int(m.a), int(m.b)))): i
                for i, m in enumerate(bracket.rounds[number - start])
                if m.a is not None and m.b is not None
            }
            tables = [index[tuple(sorted(g))] + 1 for g in groups]
        else:
            tables = None
        final_stage = stage and league.format == "swiss"
        ids = await self.store.leagues.open_round(
            league.id,
            number,
            groups,
            [] if final_stage else byes,  # a bye into the final's next round scores no points
            deadline,
            job=job,
            tables=tables,
            finalists=[int(p) for p in finalists],
            rounds=number - 1 + pairing.bracket_rounds(len(finalists)) if final_opens else None,
            sit_outs=[(o.user_id, o.points, o.kind) for o in out],
            resume_at=self.store.clock.time() + RESUME_AFTER,
        )
        if ids is None:
            return None
        games = await self.store.leagues.league_games(league.id, number)
        return OpenedRound(await self.reread(league.id), number, games, byes, deadline, final_stage)

    async def left_out_by_review(
        self, league: LeagueRow, number: int, accounted: set[int]
    ) -> list[attendance.SitOut]:
        """Players the reviewed round left out that nothing else accounts for now: they were away
        when it was drawn (requests for it no longer change, nor does a closed check-in), so the
        round is paused for them, as it was when it was drawn."""
        byes = {u for r, u, _ in await self.store.leagues.league_byes(league.id) if r == number}
        return [
            attendance.SitOut(p.user_id, attendance.PAUSE, 0.0)
            for p in await self.store.leagues.league_players(league.id)
            if p.active and p.user_id not in accounted | byes
        ]

    async def open_game(
        self, league: LeagueRow, game: LeagueGame, channel_id: int, names: dict[int, str]
    ) -> Session | None:
        """Open and start the session of one league game in ``channel_id`` (a thread of its own).

        A dropped player's seat is taken by the computer (they forfeit the game), in the seat the
        pairing gave them (:func:`bot.league.seating.lobby_seats`: the others keep theirs); a game
        in which fewer than two people remain is recorded as a forfeit without being played.

        The lobby is stored whole in one commit: its every seat, its clock and the league game it
        plays (with the forfeits of those dropped); then it starts.  A stop before the commit
        leaves nothing (the round's opening, resumed, opens the game again); a stop after it
        leaves a lobby the league knows, which the resumed opening starts
        (:meth:`start_game`)."""
        dropped = {p.user_id for p in await self.store.leagues.league_players(league.id) if p.dropped}
        people = [u for u in game.players if u not in dropped]
        forfeits = [u for u in game.players if u in dropped]
        if len(people) < 2:
            await self.store.leagues.record_forfeit(game.id, forfeits)
            return None
        clock = (
            gc.turn_timer(league.legacy_timer)  # a timer no per-move clock states: the game's turn timer
            if league.legacy_timer
            else self.sessions.core.check_clock(league.game_clock)
        )
        try:
            session = await self.sessions.lobby.create_seated(
                league.game,
                guild_id=league.guild_id,
                channel_id=channel_id,
                people=[(u, names.get(u, str(u))) for u in people],
                computers=len(game.players)
                - len(people),  # a short table (see Draw.smallest_table) seats fewer
                options=league.options,
                max_players=len(game.players),
                # A fresh seed of its own, as any game's: the export of a game that ended shows its
                # seed, and one made from the league's would deal the league's running games too.
                seed=self.sessions.new_seed(),
                clock=clock,
                also=self.store.leagues.attaching(game.id, forfeits),
            )
        except GameTaken:  # opened meanwhile (another process resumed the round): that one stands
            now = {g.id: g for g in await self.store.leagues.league_games(league.id, game.round)}.get(game.id)
            return (
                None
                if now is None or now.session_id is None
                else await self.sessions.core.get(now.session_id)
            )
        return await self.start_game(league, game, session)

    async def start_game(self, league: LeagueRow, game: LeagueGame, session: Session) -> Session | None:
        """Start a league game's lobby (built whole by :meth:`open_game`; a lobby a stop left
        unstarted is started when the round's opening resumes); the game as it runs (None: gone)."""
        if session.status == "lobby":
            # A Swiss round's pairing chose who moves first (the Dutch system balances it as
            # colours; the seating optimiser gives each player the seats they had least): the game
            # keeps that order.  Round robins and brackets list players in a fixed order, so their
            # seats are drawn.
            swiss = league.format == "swiss" and not self.draw.bracket_stage(league, game.round)
            host = next(s.user_id for s in session.seats if s.join_order == 0)
            assert host is not None  # the first seat is a person's: the league's host
            lobby = [(s.join_order, None if s.computer else s.user_id) for s in session.seats]
            seats = seating.lobby_seats(game.players, lobby) if swiss else None
            await self.sessions.lobby.start(session.row.channel_id, host, keep_order=swiss, paired=seats)
        return await self.sessions.core.get(session.id)

    async def round_deadline(
        self, league_id: int, number: int, broken: list[LeagueGame] | None = None
    ) -> list[MoveResult]:
        """The round's time is up: the computer finishes every game still running.  A game the
        table cannot run (damaged) ends as one it could not open: its players who did not forfeit
        share its first place, and it is abandoned, freeing its thread (added to ``broken``)."""
        finished = []
        for game in await self.store.leagues.league_games(league_id, number):
            if game.status == "playing" and game.session_id is not None:
                result = await self.sessions.seats.finish_by_computer(game.session_id)
                if result is not None:
                    finished.append(result)
                    continue
                session = await self.sessions.core.get(game.session_id)
                if session is not None and session.damaged and session.row.live:
                    # The league game's forfeit and the session's end in one commit: never a
                    # league game over with its thread still held by a live session.
                    await self.sessions.seats.abandon_damaged(game.session_id, league_forfeit=True)
                    if broken is not None:
                        broken.append(game)
            elif game.status == "pending":
                await self.store.leagues.record_forfeit(game.id)
        await self.store.leagues.close_round(league_id, number)
        return finished

    async def champion(self, league: LeagueRow) -> int | None:
        """End the season when its last round has closed; returns the champion.  The season's end
        is then due to be posted (:meth:`bot.league.season.Rounds.announce`): the store keeps a
        guard that posts it if the process stops first."""
        if league.format == "elimination" or (league.final_round and await self.draw.seeds(league)):
            winner = (await self.draw.bracket(league)).champion
            champion = int(winner) if winner is not None else None
        else:
            # The best player still in the league: not dropped, and not a substitute credited with
            # one game's result (they rank in the standings, but the season is not theirs).
            players = {p.user_id: p for p in await self.store.leagues.league_players(league.id)}
            rows = await self.standings(league)
            active = [s for s in rows if (p := players.get(int(s.row.player))) is not None and p.active]
            champion = int(active[0].row.player) if active else None
        await self.store.leagues.end_league(
            league.id, champion, announce_at=self.store.clock.time() + ANNOUNCE_AFTER
        )
        return champion

    # ----------------------------------------------------------------- standings

    async def standings(self, league: LeagueRow) -> list[Standing]:
        """The table now, with each player's movement since the round before the last one played."""
        players = {p.user_id: p for p in await self.store.leagues.league_players(league.id)}
        rows = await self.draw.table_rows(league)
        played = max(
            (g.round for g in await self.store.leagues.league_games(league.id) if g.status == "finished"),
            default=0,
        )
        if league.format == "swiss":
            played = min(played, league.swiss_rounds)
        before = (
            {r.player: r.rank for r in await self.draw.table_rows(league, played - 1)} if played > 1 else {}
        )
        no_shows = await self.store.noshows.counts(league.id)
        kinds = await self.store.attendance.bye_kinds(league.id)
        # A late sign-up since that table was not in it (it ranked them with nothing): new, not moved.
        late = {str(u) for (number, u), kind in kinds.items() if kind == attendance.LATE and number >= played}
        byes = attendance.pairing_byes(await self.store.leagues.league_byes(league.id), kinds)
        out = []
        for r in rows:
            p = players.get(int(r.player))
            move = before[r.player] - r.rank if r.player in before and r.player not in late else None
            out.append(
                Standing(
                    r,
                    p.name if p else r.player,
                    move,
                    dropped=bool(p and p.dropped),
                    no_shows=no_shows.get(int(r.player), 0),
                    byes=byes[int(r.player)],
                )
            )
        return out

    async def export(self, league: LeagueRow) -> str:
        """The standings and every result as CSV."""
        from bot.league.export import league_csv

        players = await self.store.leagues.league_players(league.id)
        return league_csv(
            await self.draw.table_rows(league),
            await self.store.leagues.league_games(league.id),
            await self.store.leagues.league_byes(league.id),
            {p.user_id: p.name for p in players},
            await self.store.noshows.counts(league.id),
            order=tiebreaks.stored_order(league.tiebreaks),
            dropped={p.user_id: p.dropped_round for p in players},
            kinds=await self.store.attendance.bye_kinds(league.id),
            rated=set(await self.rating_map(league)),
        )


def signed_up_text(name: str, league: LeagueRow, players: int, t: Language = ENGLISH) -> str:
    """A sign-up's answer: who signed up for which league, and how many players it has now (the
    name as the message shows it: :func:`bot.league.names.shown`)."""
    return t.ngettext(
        "{name} signed up for {league} ({n} player)",
        "{name} signed up for {league} ({n} players)",
        players,
        name=names.shown(name),
        league=league.shown,
    )

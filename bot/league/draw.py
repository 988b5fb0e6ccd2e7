"""The draw of a league: who meets whom in each round and how the table stands.

A round's groups and byes (round robin, a bracket, or Swiss by the Dutch system of
:mod:`bot.league.pairing`, around the organiser's fixed tables and forbidden pairs), the bracket
and its seeds, the standings rows, and who sits a Swiss round out (:mod:`bot.league.attendance`).
It reads the store and changes nothing; :class:`bot.league.service.LeagueService` stores what it
draws.  No Discord here.
"""

from __future__ import annotations

import asyncio
import functools
import math
from collections import Counter
from collections.abc import Collection

import engines
from bot.league import attendance, pairing, tiebreaks
from bot.league.errors import LeagueError
from bot.league.pairing import PairingError, Row
from bot.storage import Store
from bot.storage.leagues import LeagueRow
from engines.core import SetupError, new_config_from_options, said_n

MAX_PLAYERS = 1000
MAX_ROUND_ROBIN_GAMES = 400


class Draw:
    """Who meets whom in a league's rounds, read from the store."""

    def __init__(self, store: Store):
        self.store = store

    def planned_rounds(self, league: LeagueRow, players: list[int]) -> int:
        if league.format == "swiss":
            return league.rounds
        if league.format == "elimination":
            return pairing.bracket_size(len(players)).bit_length() - 1
        if math.comb(len(players), league.group_size) > MAX_ROUND_ROBIN_GAMES:
            raise LeagueError(
                said_n(
                    len(players),
                    "a round robin of {n} player in games of {size} is too long (over {most} games); use Swiss",
                    "a round robin of {n} players in games of {size} is too long (over {most} games); use Swiss",
                    size=league.group_size,
                    most=MAX_ROUND_ROBIN_GAMES,
                )
            )
        return len(self.round_robin(league, players))

    def round_robin(self, league: LeagueRow, players: list[int]) -> list[pairing.Round]:
        return pairing.round_robin([str(p) for p in players], league.group_size, seed=league.seed)

    @staticmethod
    def smallest_table(league: LeagueRow) -> int:
        """The fewest players a Swiss round of the league seats at a table: down from the league's
        size, each count the game plays with and its options allow, so that a field that does not
        divide into full tables sits at a few shorter ones rather than leaving players out (7
        players at tables of 4: 4 and 3, no bye).  A league of games of three or more keeps its
        tables at three at least: a table is never cut down to a two-player game, which plays
        differently (4 players at tables of 3: a table of three and a bye, not two of two)."""
        info = engines.get(league.game)
        config = info.load().Config
        smallest = league.group_size
        least = max(3 if league.group_size > 2 else 2, info.min_players)
        for count in range(league.group_size - 1, least - 1, -1):
            try:
                new_config_from_options(config, count, league.options)
            except SetupError:
                break
            smallest = count
        return smallest

    @staticmethod
    def bracket_stage(league: LeagueRow, number: int) -> bool:
        """Whether round ``number`` is played as a bracket (an elimination league, or a final)."""
        return league.format == "elimination" or bool(league.final_round and number >= league.final_round)

    @staticmethod
    def stage_of(league: LeagueRow) -> int:
        """The first round of the league's bracket: 1 in single elimination, else the final's."""
        return (league.final_round or 1) if league.format == "swiss" else 1

    async def pair(
        self,
        league: LeagueRow,
        number: int,
        seeds: list[str] | None = None,
        leave_out: Collection[int] = (),
    ) -> tuple[list[list[int]], list[int]]:
        """Round ``number``'s groups and byes, from what is stored (pure of side effects);
        ``seeds``: a final stage's seeds before they are stored; ``leave_out``: players who sit
        the round out (a bye asked for, a pause, no check-in)."""
        everyone = await self.store.leagues.league_players(league.id)
        active = [p.user_id for p in everyone if p.active and p.user_id not in leave_out]
        smallest = self.smallest_table(league) if league.format == "swiss" else league.group_size
        if leave_out and attendance.too_few(active, smallest):
            return [], active  # too few left to seat a game: those present get the pairing's bye
        if league.format == "round_robin":
            # everyone who signed up (the dropped too: the schedule stays as drawn), not substitutes
            rnd = self.round_robin(league, [p.user_id for p in everyone if not p.substitute])[number - 1]
            return [[int(x) for x in g] for g in rnd.groups], [int(b) for b in rnd.byes if int(b) in active]
        if self.bracket_stage(league, number):
            start = self.stage_of(league)
            bracket = await self.bracket(league, seeds)
            matches = bracket.rounds[number - start]
            groups = [
                [int(m.a), int(m.b)]
                for m in matches
                if m.a is not None and m.b is not None and m.winner is None
            ]
            byes = [int(m.winner) for m in matches if number == start and m.is_bye and m.winner]
            return groups, byes
        rows = await self.table_rows(league)
        points = {r.player: r.points for r in rows}
        # The organiser's fixed tables are kept as they are; the others are paired around them.
        fixed = [
            g
            for g in await self.store.league_pairing.fixed_tables(league.id, number)
            if set(g) <= set(active)
        ]
        seated = {u for g in fixed for u in g}
        active = [u for u in active if u not in seated]
        forbidden = [(str(a), str(b)) for a, b in await self.store.league_pairing.forbidden(league.id)]
        if len(active) < smallest:  # nobody left to pair: the rest sit out
            return [list(g) for g in fixed], active
        games = await self.store.leagues.league_games(league.id)
        kinds = await self.store.attendance.bye_kinds(league.id)
        had = [  # only the pairing's own byes decide who sits out next
            b
            for b in await self.store.leagues.league_byes(league.id)
            if kinds.get((b[0], b[1]), attendance.PAIRING) == attendance.PAIRING
        ]
        ratings = await self.ranking_ratings(league, active)
        finished = [  # seats in seat order: the Dutch system balances who moves first
            pairing.GameResult(
                g.round,
                {str(s.user_id): s.place for s in g.seats if s.place is not None},
                tuple(str(u) for u in g.players),
                played=g.session_id is not None,  # a forfeit never played sat nobody in its seats
            )
            for g in games
            if g.status == "finished"
        ]
        # The Dutch system's pairing numbers are fixed when the season starts (FIDE C.04.2): the
        # seeds (rating at the start, then sign-up order), not the ratings as they move since.
        seeded = sorted((p for p in everyone if p.seed is not None), key=lambda p: p.seed or 0)
        pair = functools.partial(
            pairing.swiss_round,
            [str(p) for p in active],
            league.group_size,
            points=points,
            # the meetings: a forfeit never played (no table opened) is none, its players may meet again
            history=[[str(u) for u in g.players] for g in games if g.session_id is not None],
            byes_had=Counter(str(uid) for _, uid, _ in had),
            ratings={str(k): v for k, v in ratings.items()},
            seed=league.seed * 1000 + number,
            games=finished,
            byes=[(r, str(u)) for r, u, _ in had],
            round_number=number,
            total_rounds=league.swiss_rounds,
            forbidden=forbidden,
            starting_order=[str(p.user_id) for p in seeded] or None,
            smallest=smallest,
        )
        try:  # the Dutch system can take seconds on a large field: off the event loop
            rnd = await asyncio.to_thread(pair)
        except PairingError as exc:
            raise LeagueError(str(exc)) from None
        return [list(g) for g in fixed] + [[int(x) for x in g] for g in rnd.groups], [
            int(b) for b in rnd.byes
        ]

    async def seeds(self, league: LeagueRow) -> list[str]:
        """The bracket's seeds, best first: in single elimination those fixed at the start (by
        rating, then sign-up order); in a Swiss final those fixed when it opened (empty before)."""
        players = await self.store.leagues.league_players(league.id)
        if league.format != "elimination":
            finalists = sorted(
                (p for p in players if p.final_seed is not None), key=lambda p: p.final_seed or 0
            )
            return [str(p.user_id) for p in finalists]
        entrants = [p for p in players if not p.substitute]  # a credited substitute played one game only
        return [str(p.user_id) for p in sorted(entrants, key=lambda p: (p.seed is None, p.seed or 0))]

    async def finalists(self, league: LeagueRow) -> list[str]:
        """The top ``final_top`` of the Swiss standings, best first, dropped players left out."""
        players = await self.store.leagues.league_players(league.id)
        rows = await self.table_rows(league)
        return pairing.top(rows, league.final_top or 0, [str(p.user_id) for p in players if not p.active])

    async def bracket(self, league: LeagueRow, seeds: list[str] | None = None) -> pairing.Bracket:
        """The bracket with every decided match (a draw goes to the better seed; a forfeit to the
        other player; a seat a credited substitute played, to the other player too)."""
        seeds = seeds or await self.seeds(league)
        start = self.stage_of(league)
        rank = {p: i for i, p in enumerate(seeds)}
        winners: dict[tuple[int, int], str] = {}
        for g in await self.store.leagues.league_games(league.id):
            if g.status != "finished" or g.round < start:
                continue
            # Only the bracket's own players advance: a substitute credited with the seat's result
            # is not seeded, so their seat's win goes to the other player.
            seeded = [s for s in g.seats if str(s.user_id) in rank]
            if not seeded:
                continue
            best = sorted(seeded, key=lambda s: (s.place or 99, rank[str(s.user_id)]))[0]
            winners[(g.round - start, g.table_no - 1)] = str(best.user_id)
        return pairing.bracket(seeds, winners)

    async def rating_map(self, league: LeagueRow) -> dict[int, float]:
        """The shown all-time rating of each player with a rated game of the league's game."""
        board = await self.store.ratings.leaderboard(league.guild_id, league.game, limit=MAX_PLAYERS)
        from bot.ratings import shown

        return {r.user_id: shown(r.mu, r.sigma) for r in board if r.mu is not None and r.sigma is not None}

    async def ranking_ratings(self, league: LeagueRow, players: Collection[int]) -> dict[int, float]:
        """The rating each of ``players`` ranks by (the rating tiebreak, the Swiss order, the
        seeds): their shown rating, or, with no rated game yet, the rating every newcomer starts
        with (:func:`bot.ratings.shown_or_start`, 0), as a first rated game would begin from.  So an
        unrated player ranks as a newcomer: below those who have gained rating, above those who
        have lost some, not below everyone.  The standings still draw a dash for them."""
        from bot.ratings import shown_or_start

        rated = await self.rating_map(league)
        newcomer = shown_or_start(None, None)
        return {u: rated.get(u, newcomer) for u in players}

    async def table_rows(self, league: LeagueRow, through_round: int | None = None) -> list[Row]:
        """The standings rows (a final stage's games are not counted: its bracket ranks them)."""
        signed = [p.user_id for p in await self.store.leagues.league_players(league.id)]
        players = [str(u) for u in signed]
        if league.final_round:
            cap = league.swiss_rounds
            through_round = cap if through_round is None else min(through_round, cap)
        results = [
            pairing.GameResult(
                g.round,
                {str(s.user_id): s.place for s in g.seats if s.place is not None},
                played=g.session_id is not None,  # a forfeit never played: no meeting for the tiebreaks
            )
            for g in await self.store.leagues.league_games(league.id)
            if g.status == "finished"
        ]
        byes = await self.store.leagues.league_byes(league.id)
        ratings = {str(k): v for k, v in (await self.ranking_ratings(league, signed)).items()}
        rows = pairing.standings(
            players,
            results,
            byes=[(r, str(u), p) for r, u, p in byes],
            table=league.points,
            bye_score=league.bye_points,
            ratings=ratings,
            through_round=through_round,
            order=tiebreaks.stored_order(league.tiebreaks),
        )
        return rows

    async def sit_outs(self, league: LeagueRow, number: int) -> list[attendance.SitOut]:
        """Who sits Swiss round ``number`` out, and why (:mod:`bot.league.attendance`): a bye
        asked for, a pause, no check-in when the round has one, time away over its start."""
        if league.format != "swiss" or self.bracket_stage(league, number):
            return []
        store = self.store.attendance
        settings = await store.settings(league.id)
        players = [p.user_id for p in await self.store.leagues.league_players(league.id) if p.active]
        requests = {u: kind for (r, u), kind in (await store.requests(league.id)).items() if r == number}
        checkin = attendance.needs_checkin(settings, number, league.swiss_rounds)
        checked = await store.checked_in(league.id, number)
        now = self.store.clock.time()
        away = {u for u, person in (await self.store.people.several(players)).items() if person.away_at(now)}
        _, out = attendance.sitting_out(
            players,
            requests=requests,
            checkin=checkin and await store.window(league.id, number) is not None,
            checked_in=checked,
            away=away,
            bye_points=league.bye_points,
            requested_bye=settings.requested_bye,
        )
        return out

"""Leagues: leagues, sign-ups, rounds, games and byes (both back ends).

A round is opened in one transaction (its games, seats, byes, the round number and the round's
deadline job).  A league game's places and points (:meth:`Leagues.record_result`) are statements
run inside the transaction that records the session's results
(:meth:`bot.storage.games.Games.finish`), as are its season ratings
(:meth:`bot.storage.ratings.Ratings.rate_season`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence

from bot.league.noshows import first_holder
from bot.league.pairing import place_points, points_for_places, stretched
from bot.storage.base import (
    ARM_SQL,
    Backend,
    Body,
    Concern,
    Conflict,
    Job,
    JobPayload,
    ResultRow,
    Row,
    all_,
    fits,
    job_json,
    many,
    one,
    record,
    run,
    the_one,
)
from bot.storage.jobs import moved_with
from bot.storage.league_rows import LeagueGame, LeaguePlayer, LeagueRound, LeagueRow, LeagueSeat
from bot.time.jobs import LEAGUE_DEADLINE as DEADLINE_JOB
from bot.time.jobs import LEAGUE_HELD as HELD_JOB
from bot.time.jobs import LEAGUE_NUDGE as NUDGE_JOB
from bot.time.jobs import LEAGUE_ROUND as ROUND_JOB

ANNOUNCE = job_json({"announce": True})
"""The payload of a league's job that posts its season's end (see ``end_league``)."""

FORMATS = ("swiss", "round_robin", "elimination")


class LeagueNameTaken(Exception):
    """The server already has a live league of that name."""


def league_of(r: Row) -> LeagueRow:
    return record(
        LeagueRow,
        r,
        options=json.loads(r["options"] or "{}"),
        points=[float(x) for x in json.loads(r["points"])],
        bye_points=float(r["bye_points"]),
        round_seconds=float(r["round_seconds"]),
        starts_at=float(r["starts_at"]),
        review=int(r["review"] or 0),
    )


def league_places(results: Sequence[ResultRow], forfeits: set[int]) -> dict[int, int]:
    """League places from a session's results: players who forfeited rank below everyone else
    (sharing the last place), the others keep the game's order (ties stay ties)."""
    playing = sorted(
        ((r.user_id, r.place) for r in results if r.user_id is not None and r.user_id not in forfeits),
        key=lambda pair: pair[1],
    )
    places: dict[int, int] = {}
    for i, (uid, place) in enumerate(playing):
        same = i > 0 and place == playing[i - 1][1]
        places[uid] = places[playing[i - 1][0]] if same else i + 1
    last = len(playing) + 1
    for r in results:
        if r.user_id is not None and r.user_id in forfeits:
            places[r.user_id] = last
    return places


class Leagues(Concern):
    """League queries and transactions."""

    async def create_league(
        self,
        *,
        guild_id: int,
        channel_id: int,
        organiser_id: int,
        name: str,
        game: str,
        format: str,
        group_size: int,
        options: Mapping[str, object],
        points: Sequence[float],
        bye_points: float,
        round_seconds: float,
        rounds: int,
        timer_seconds: float | None,
        starts_at: float,
        seed: int,
        clock: str | None = None,
    ) -> int:
        """A new league open for sign-ups (``clock``: its games' clock spec, already checked);
        raises :class:`LeagueNameTaken` for a live name."""
        if format not in FORMATS:
            raise ValueError(format)
        stamp = self.clock.stamp()

        def body() -> Body[int]:
            row = yield from the_one(
                "INSERT INTO leagues (guild_id, channel_id, organiser_id, name, game, format, group_size, options,"
                " points, bye_points, round_seconds, rounds, timer_seconds, starts_at, status, seed, created_at,"
                " clock) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'signup', ?, ?, ?) RETURNING id",
                guild_id,
                channel_id,
                organiser_id,
                name,
                game,
                format,
                group_size,
                json.dumps(options),
                json.dumps([float(p) for p in points]),
                float(bye_points),
                float(round_seconds),
                rounds,
                timer_seconds,
                float(starts_at),
                seed,
                stamp,
                clock,
            )
            return row[0]

        try:
            return await self.db.transact(body())
        except Conflict:
            raise LeagueNameTaken(name) from None

    async def league(self, league_id: int) -> LeagueRow | None:
        if not fits(league_id):
            return None
        rows = await self.db.all("SELECT * FROM leagues WHERE id = ?", league_id)
        return league_of(rows[0]) if rows else None

    async def of_server(self, guild_id: int, *, live: bool = True) -> list[LeagueRow]:
        """The server's leagues (live ones only, by default), newest first."""
        where = " AND status IN ('signup', 'running')" if live else ""
        rows = await self.db.all(
            f"SELECT * FROM leagues WHERE guild_id = ?{where} ORDER BY id DESC", guild_id
        )
        return [league_of(r) for r in rows]

    async def set_signup_message(self, league_id: int, message_id: int) -> None:
        await self.db.change("UPDATE leagues SET signup_message_id = ? WHERE id = ?", message_id, league_id)

    async def start_league(
        self, league_id: int, first_at: float, rounds: int, seeds: Sequence[int] = ()
    ) -> bool:
        """Sign-up -> running with the players' ``seeds`` (user ids, best first) fixed: the first
        round is due at ``first_at``; False unless in sign-up."""
        stamp = self.clock.stamp()

        def body() -> Body[bool]:
            changed = yield from run(
                "UPDATE leagues SET status = 'running', rounds = ? WHERE id = ? AND status = 'signup'",
                rounds,
                league_id,
            )
            if changed != 1:
                return False
            yield from many(
                "UPDATE league_players SET seed = ? WHERE league_id = ? AND user_id = ?",
                [(i, league_id, uid) for i, uid in enumerate(seeds, 1)],
            )
            yield from run(ARM_SQL, ROUND_JOB, str(league_id), float(first_at), job_json({"round": 1}), stamp)
            return True

        return await self.db.transact(body())

    async def end_league(
        self,
        league_id: int,
        champion_id: int | None,
        *,
        status: str = "finished",
        announce_at: float | None = None,
    ) -> bool:
        """Running (or sign-up) -> finished or cancelled; its pending jobs go.  With
        ``announce_at``, the league's job is armed for then with ``{"announce": true}``, a guard
        that posts the season's end if the process stops before it does (:meth:`announced`
        drops it once posted)."""
        stamp = self.clock.stamp()

        def body() -> Body[bool]:
            changed = yield from run(
                "UPDATE leagues SET status = ?, champion_id = ?, finished_at = ?"
                " WHERE id = ? AND status IN ('signup', 'running')",
                status,
                champion_id,
                stamp,
                league_id,
            )
            yield from run("DELETE FROM jobs WHERE kind = ? AND key = ?", ROUND_JOB, str(league_id))
            if announce_at is not None and changed == 1:
                yield from run(ARM_SQL, ROUND_JOB, str(league_id), float(announce_at), ANNOUNCE, stamp)
            return changed == 1

        return await self.db.transact(body())

    async def cancel_server(self, guild_id: int) -> list[int]:
        """The bot was removed from server ``guild_id``: its leagues in sign-up or running are
        cancelled (no champion), and every job of theirs goes (the next round's, a round's deadline
        and its reminders of late games), in one transaction; the leagues cancelled."""
        stamp = self.clock.stamp()

        def body() -> Body[list[int]]:
            rows = yield from all_(
                "UPDATE leagues SET status = 'cancelled', champion_id = NULL, finished_at = ?"
                " WHERE guild_id = ? AND status IN ('signup', 'running') RETURNING id",
                stamp,
                guild_id,
            )
            ids = sorted(int(r["id"]) for r in rows)
            for league_id in ids:
                yield from run("DELETE FROM jobs WHERE kind = ? AND key = ?", ROUND_JOB, str(league_id))
                yield from run(
                    "DELETE FROM jobs WHERE kind IN (?, ?, ?) AND key LIKE ?",
                    DEADLINE_JOB,
                    NUDGE_JOB,
                    HELD_JOB,
                    f"{league_id}:%",
                )
            return ids

        return await self.db.transact(body())

    async def set_final(self, league_id: int, top: int | None, final_round: int | None, rounds: int) -> bool:
        """Set (or, with ``top`` None, clear) a Swiss league's final stage: its top ``top`` players
        from round ``final_round`` on, the season then lasting ``rounds`` rounds.  False once the
        final stage has begun or the league is over (or it is not Swiss)."""

        def body() -> Body[bool]:
            changed = yield from run(
                "UPDATE leagues SET final_top = ?, final_round = ?, rounds = ? WHERE id = ? AND format = 'swiss'"
                " AND status IN ('signup', 'running') AND current_round < ?",
                top,
                final_round,
                rounds,
                league_id,
                final_round if final_round is not None else rounds + 1,
            )
            return changed == 1

        return await self.db.transact(body())

    async def league_players(self, league_id: int) -> list[LeaguePlayer]:
        # A substitute credited with a game's result joins league_players when the seat is handed
        # over (bot.storage.noshows); a player signed up is never a substitute in their league.
        rows = await self.db.all(
            "SELECT p.user_id, p.display_name, p.dropped_round, p.seed, p.final_seed, EXISTS ("
            " SELECT 1 FROM league_substitutions ls JOIN league_games g ON g.id = ls.game_id"
            " WHERE g.league_id = p.league_id AND ls.substitute_id = p.user_id AND ls.credit = 'substitute'"
            ") AS substitute FROM league_players p WHERE p.league_id = ? ORDER BY p.joined_at, p.user_id",
            league_id,
        )
        return [LeaguePlayer(r[0], r[1], r[2], r[3], r[4], bool(r[5])) for r in rows]

    async def join_league(self, league_id: int, user_id: int, name: str) -> str:
        """Sign up: 'joined', 'already', or 'closed' (the league is not taking sign-ups)."""
        return await signed_up(self.db, sign_up(league_id, user_id, name, self.clock.stamp(), "signup"))

    async def leave_league(self, league_id: int, user_id: int) -> str:
        """Withdraw a sign-up: 'left', 'absent' (not signed up) or 'closed' (the league started)."""

        def body() -> Body[str]:
            row = yield from one("SELECT status FROM leagues WHERE id = ?", league_id)
            if row is None or row[0] != "signup":
                return "closed"
            gone = yield from run(
                "DELETE FROM league_players WHERE league_id = ? AND user_id = ?", league_id, user_id
            )
            return "left" if gone == 1 else "absent"

        return await self.db.transact(body())

    async def drop_player(self, league_id: int, user_id: int) -> list[int] | None:
        """Drop a player from a running league: they are paired no more, and every game of theirs
        not finished yet is marked forfeited (they rank last in it).  Returns the sessions of
        those games that are being played (for the table to end their part), or None when the
        player is not an active player of a running league."""
        return await self.db.transact(self.dropping(league_id, user_id))

    def dropping(self, league_id: int, user_id: int) -> Body[list[int] | None]:
        """:meth:`drop_player`'s statements, for the transaction of the table's change they go
        with (the first of the player's games being played: its seat's forfeit or substitute)."""

        def body() -> Body[list[int] | None]:
            row = yield from one("SELECT status, current_round FROM leagues WHERE id = ?", league_id)
            if row is None or row[0] != "running":
                return None
            changed = yield from run(
                "UPDATE league_players SET dropped_round = ? WHERE league_id = ? AND user_id = ?"
                " AND dropped_round IS NULL",
                row[1],
                league_id,
                user_id,
            )
            if changed != 1:
                return None
            open_games = yield from all_(
                "SELECT g.id, g.session_id FROM league_games g JOIN league_seats s ON s.game_id = g.id"
                " WHERE g.league_id = ? AND s.user_id = ? AND g.status <> 'finished'",
                league_id,
                user_id,
            )
            yield from many(
                "UPDATE league_seats SET forfeit = 1 WHERE game_id = ? AND user_id = ?",
                [(g[0], user_id) for g in open_games],
            )
            return [g[1] for g in open_games if g[1] is not None]

        return body()

    async def playing_sessions(self, league_id: int, user_id: int) -> list[int] | None:
        """The sessions of a player's games not finished yet that are being played (the games a
        drop would change, :meth:`drop_player`); None when they are not an active player of a
        running league."""
        row = await self.db.one(
            "SELECT 1 FROM league_players p JOIN leagues l ON l.id = p.league_id WHERE p.league_id = ?"
            " AND p.user_id = ? AND p.dropped_round IS NULL AND l.status = 'running'",
            league_id,
            user_id,
        )
        if row is None:
            return None
        rows = await self.db.all(
            "SELECT g.session_id FROM league_games g JOIN league_seats s ON s.game_id = g.id"
            " WHERE g.league_id = ? AND s.user_id = ? AND g.status <> 'finished' AND g.session_id IS NOT NULL",
            league_id,
            user_id,
        )
        return [int(r[0]) for r in rows]

    async def open_round(
        self,
        league_id: int,
        number: int,
        groups: Sequence[Sequence[int]],
        byes: Sequence[int],
        deadline_at: float,
        *,
        job: Job | None = None,
        tables: Sequence[int] | None = None,
        finalists: Sequence[int] = (),
        rounds: int | None = None,
        sit_outs: Sequence[tuple[int, float, str]] = (),
        resume_at: float | None = None,
    ) -> list[int] | None:
        """Open round ``number``: its games (pending, one per group), the byes with their points,
        the round's deadline job (``tables``: each game's table number, by default 1, 2, ...; a
        bracket numbers them by match); with ``job`` (the claimed round job) consumed in the same
        transaction, and with ``resume_at`` the round's job armed again for then, as a guard that
        resumes the opening if it stops half way (:meth:`settle_round` drops it once done).  The first round of a final stage passes its ``finalists`` (user ids, best
        seed first, fixed here) and the season's ``rounds`` (the bracket's size decides them).
        ``sit_outs`` are (user, points, why) of those not paired for attendance.  Returns the new
        games' ids, or None when that round is already open (a job fired twice) or the league is
        not running."""
        stamp = self.clock.stamp()

        def body() -> Body[list[int] | None]:
            changed = yield from run(
                "UPDATE leagues SET current_round = ?, rounds = COALESCE(?, rounds)"
                " WHERE id = ? AND current_round = ? AND status = 'running'",
                number,
                rounds,
                league_id,
                number - 1,
            )
            if changed != 1:
                return None
            yield from many(
                "UPDATE league_players SET final_seed = ? WHERE league_id = ? AND user_id = ?",
                [(i, league_id, uid) for i, uid in enumerate(finalists, 1)],
            )
            if job is not None:
                ours = yield from one("SELECT 1 FROM jobs WHERE id = ? AND claim = ?", job.id, job.claim)
                if ours is None:
                    raise Conflict("the round job was taken meanwhile")
            if resume_at is not None:
                # The round's job again, as a guard until its games are open (settle_round drops
                # it then): if the process opening them stops, it fires and the round resumes.
                yield from run(
                    ARM_SQL, ROUND_JOB, str(league_id), float(resume_at), job_json({"round": number}), stamp
                )
            elif job is not None:
                yield from run("DELETE FROM jobs WHERE id = ?", job.id)
            yield from run(
                "INSERT INTO league_rounds (league_id, number, opened_at, deadline_at) VALUES (?, ?, ?, ?)",
                league_id,
                number,
                stamp,
                float(deadline_at),
            )
            bye = yield from the_one("SELECT bye_points FROM leagues WHERE id = ?", league_id)
            yield from many(
                "INSERT INTO league_byes (league_id, round, user_id, points) VALUES (?, ?, ?, ?)",
                [(league_id, number, b, bye[0]) for b in byes],
            )
            yield from many(  # those not paired by attendance (see bot.league.attendance): why, and its points
                "INSERT INTO league_byes (league_id, round, user_id, points, kind) VALUES (?, ?, ?, ?, ?)",
                [(league_id, number, u, float(pts), kind) for u, pts, kind in sit_outs],
            )
            ids = []
            for i, group in enumerate(groups):
                table_no = tables[i] if tables is not None else i + 1
                game = yield from the_one(
                    "INSERT INTO league_games (league_id, round, table_no) VALUES (?, ?, ?) RETURNING id",
                    league_id,
                    number,
                    table_no,
                )
                ids.append(game[0])
                yield from many(
                    "INSERT INTO league_seats (game_id, user_id, position) VALUES (?, ?, ?)",
                    [(game[0], uid, pos) for pos, uid in enumerate(group)],
                )
            yield from run(
                ARM_SQL,
                DEADLINE_JOB,
                f"{league_id}:{number}",
                float(deadline_at),
                job_json({"league": league_id, "round": number}),
                stamp,
            )
            return ids

        return await self.db.transact(body())

    async def settle_round(self, league_id: int, number: int) -> None:
        """Round ``number``'s games are open: drop the guard :meth:`open_round` armed (not a job
        set meanwhile for a later round, such as its check-in's)."""
        await self.db.change(
            "DELETE FROM jobs WHERE kind = ? AND key = ? AND payload = ?",
            ROUND_JOB,
            str(league_id),
            job_json({"round": number}),
        )

    async def announced(self, league_id: int) -> None:
        """The season's end is posted: drop the guard :meth:`end_league` armed."""
        await self.db.change(
            "DELETE FROM jobs WHERE kind = ? AND key = ? AND payload = ?", ROUND_JOB, str(league_id), ANNOUNCE
        )

    @staticmethod
    def attaching(game_id: int, forfeits: Sequence[int] = ()) -> Callable[[int], Body[None]]:
        """The statements that make a new session the one of a pending league game, for the
        transaction that creates it (``forfeits``: its players dropped before it opened, who
        forfeit it); :class:`GameTaken` (nothing stored) when the game is pending no more."""

        def body(session_id: int) -> Body[None]:
            yield from forfeiting(game_id, forfeits)
            changed = yield from run(
                "UPDATE league_games SET session_id = ?, status = 'playing' WHERE id = ? AND status = 'pending'",
                session_id,
                game_id,
            )
            if changed != 1:
                raise GameTaken(game_id)

        return body

    async def attach_session(self, game_id: int, session_id: int) -> bool:
        """The session that plays a pending league game; False when the game was not pending."""
        changed = await self.db.change(
            "UPDATE league_games SET session_id = ?, status = 'playing' WHERE id = ? AND status = 'pending'",
            session_id,
            game_id,
        )
        return changed == 1

    async def close_round(self, league_id: int, number: int) -> bool:
        """Mark the round closed (its deadline passed, or every game ended); False if it was."""
        stamp = self.clock.stamp()
        changed = await self.db.change(
            "UPDATE league_rounds SET closed_at = ? WHERE league_id = ? AND number = ? AND closed_at IS NULL",
            stamp,
            league_id,
            number,
        )
        return changed == 1

    async def postpone_round(self, league_id: int, number: int, job: Job, due_at: float) -> bool:
        """Move the open round's deadline to ``due_at``, with its claimed deadline ``job`` given back
        for then, in one transaction; False (nothing changed) if the round closed or the job was
        taken meanwhile."""
        sql = "UPDATE league_rounds SET deadline_at = ? WHERE league_id = ? AND number = ? AND closed_at IS NULL"
        return await moved_with(self.db, job, due_at, sql, float(due_at), league_id, number)

    async def schedule_round(
        self, league_id: int, number: int, due_at: float, *, missing: Sequence[str] = ()
    ) -> None:
        """Set the job that opens round ``number`` at ``due_at`` (``missing``: the permissions it
        waited for last time, so the organiser is told of them once)."""
        stamp = self.clock.stamp()
        payload: JobPayload = {"round": number, "missing": list(missing)} if missing else {"round": number}
        await self.db.change(ARM_SQL, ROUND_JOB, str(league_id), float(due_at), job_json(payload), stamp)

    async def league_rounds(self, league_id: int) -> list[LeagueRound]:
        rows = await self.db.all("SELECT * FROM league_rounds WHERE league_id = ? ORDER BY number", league_id)
        return [
            LeagueRound(r["number"], r["opened_at"], float(r["deadline_at"]), r["closed_at"]) for r in rows
        ]

    async def league_games(self, league_id: int, round: int | None = None) -> list[LeagueGame]:
        """The league's games (of one round) with their seats, by round and table."""
        where, params = ("", [league_id]) if round is None else (" AND g.round = ?", [league_id, round])
        rows = await self.db.all(
            "SELECT g.id, g.round, g.table_no, g.session_id, g.status, s.user_id, s.position, s.place, s.points,"
            f" s.forfeit FROM league_games g JOIN league_seats s ON s.game_id = g.id WHERE g.league_id = ?{where}"
            " ORDER BY g.round, g.table_no, s.position",
            *params,
        )
        games: dict[int, LeagueGame] = {}
        for r in rows:
            game = games.get(r["id"])
            if game is None:
                game = games[r["id"]] = LeagueGame(
                    r["id"], r["round"], r["table_no"], r["session_id"], r["status"]
                )
            game.seats.append(
                LeagueSeat(
                    r["user_id"],
                    r["position"],
                    r["place"],
                    None if r["points"] is None else float(r["points"]),
                    bool(r["forfeit"]),
                )
            )
        return list(games.values())

    async def league_game_of(self, session_id: int) -> tuple[int, int] | None:
        """(league id, round) of the league game a session plays, or None."""
        rows = await self.db.all("SELECT league_id, round FROM league_games WHERE session_id = ?", session_id)
        return (rows[0][0], rows[0][1]) if rows else None

    async def league_byes(self, league_id: int) -> list[tuple[int, int, float]]:
        """(round, user id, points) of every bye so far."""
        rows = await self.db.all(
            "SELECT round, user_id, points FROM league_byes WHERE league_id = ? ORDER BY round, user_id",
            league_id,
        )
        return [(r[0], r[1], float(r[2])) for r in rows]

    async def record_forfeit(self, game_id: int, forfeits: Sequence[int] = ()) -> bool:
        """End a league game that never got a session (every seat forfeited or the table could not
        open it): the players who did not forfeit (nor are in ``forfeits``, marked in the same
        transaction) share first place, the others rank last."""

        def body() -> Body[bool]:
            yield from forfeiting(game_id, forfeits)
            return (yield from forfeit_result(game_id))

        return await self.db.transact(body())

    def record_result(
        self, session_id: int, status: str, results: Sequence[ResultRow], *, forfeit: bool = False
    ) -> Body[None]:
        """Inside the session's finishing transaction: a league game's places and points
        (``forfeit``: as :meth:`record_forfeit` gives them, for a game the table could not run).
        A game of a cancelled league scores nothing: it stays unfinished for the league."""
        row = yield from one(
            "SELECT g.id FROM league_games g JOIN leagues l ON l.id = g.league_id"
            " WHERE g.session_id = ? AND g.status = 'playing' AND l.status <> 'cancelled'",
            session_id,
        )
        if row is None:  # not a league game, or one its league's cancellation left unfinished
            return
        if forfeit:
            yield from forfeit_result(row[0])
            return
        if status == "abandoned" or not results:
            # An abandoned league game counts as a forfeit by everyone in it: every seat scores a
            # loss (the last place and its points), so nobody gains from ending it.
            yield from league_result(row[0], [], lost_by_all=True)
            return
        results = yield from credited_results(row[0], results)
        yield from league_result(row[0], results)


class GameTaken(Exception):
    """A league game got its session meanwhile (another process opened it): nothing is stored."""


def forfeiting(game_id: int, user_ids: Sequence[int]) -> Body[None]:
    """Mark players of a league game as forfeiting it (dropped before it opened, absent), inside
    the transaction that decides it."""
    yield from many(
        "UPDATE league_seats SET forfeit = 1 WHERE game_id = ? AND user_id = ?",
        [(game_id, uid) for uid in user_ids],
    )


def forfeit_result(game_id: int) -> Body[bool]:
    """:meth:`Leagues.record_forfeit`'s places and points, inside a transaction."""
    seats = yield from all_("SELECT user_id, forfeit FROM league_seats WHERE game_id = ?", game_id)
    results = [ResultRow(i, r[0], None, 2 if r[1] else 1, False) for i, r in enumerate(seats)]
    return (yield from league_result(game_id, results))


def league_result(game_id: int, results: Sequence[ResultRow], *, lost_by_all: bool = False) -> Body[bool]:
    """A league game's places and points; ``lost_by_all``: every seat ranks last (a loss).  A
    forfeit is a loss too: each seat that forfeited ranks last with the last place's points,
    however many did (sharing the last places, two forfeits of three scored more than one,
    and two of two a draw)."""
    seats = yield from all_("SELECT user_id, forfeit FROM league_seats WHERE game_id = ?", game_id)
    forfeits = {s[0] for s in seats if s[1]}
    table = yield from the_one(
        "SELECT l.points FROM leagues l JOIN league_games g ON g.league_id = l.id WHERE g.id = ?", game_id
    )
    scale = [float(x) for x in json.loads(table[0])]
    places = league_places([r for r in results if r.user_id in {s[0] for s in seats}], forfeits)
    if lost_by_all:
        places = {s[0]: len(seats) for s in seats}
    ids = list(places)
    scale = list(stretched(scale, len(ids)) if len(scale) >= len(ids) else place_points(len(ids)))
    points = [scale[-1]] * len(ids) if lost_by_all else points_for_places([places[i] for i in ids], scale)
    for k, uid in enumerate(ids):
        if uid in forfeits:
            places[uid], points[k] = len(ids), scale[-1]
    yield from many(
        "UPDATE league_seats SET place = ?, points = ? WHERE game_id = ? AND user_id = ?",
        [(places[i], pts, game_id, i) for i, pts in zip(ids, points, strict=True)],
    )
    changed = yield from run(
        "UPDATE league_games SET status = 'finished' WHERE id = ? AND status <> 'finished'", game_id
    )
    return changed == 1


def credited_results(game_id: int, results: Sequence[ResultRow]) -> Body[list[ResultRow]]:
    """Inside a league game's finishing transaction: the session's results with each substitute's
    row given back to the seat's original player unless the organiser credits the substitute
    (:mod:`bot.league.noshows`; crediting nobody leaves the original's forfeit standing, so they
    rank last and the substitute gets nothing)."""
    subs = yield from all_(
        "SELECT original_id, substitute_id, credit FROM league_substitutions WHERE game_id = ?", game_id
    )
    swap = {int(r[1]): int(r[0]) for r in subs if r[2] != "substitute"}
    return [  # a substitute replaced in turn: back to the player before them, and so on
        ResultRow(r.seat, first_holder(swap, int(r.user_id)), r.score, r.place, r.resigned)
        if r.user_id is not None and int(r.user_id) in swap
        else r
        for r in results
    ]


def sign_up(
    league_id: int,
    user_id: int,
    name: str,
    stamp: str,
    status: str,
    then: Callable[[int], Body[None]] | None = None,
) -> Body[str]:
    """A sign-up's transaction, before the start or late: 'closed' unless the league's status is
    ``status``, 'already' when the player is signed up, else 'joined' with the player added, off
    the league's substitutes' list (and ``then``, given the league's current round, run too)."""
    row = yield from one("SELECT status, current_round FROM leagues WHERE id = ?", league_id)
    if row is None or row[0] != status:
        return "closed"
    there = yield from one(
        "SELECT 1 FROM league_players WHERE league_id = ? AND user_id = ?", league_id, user_id
    )
    if there is not None:
        return "already"
    yield from run(
        "INSERT INTO league_players (league_id, user_id, display_name, joined_at) VALUES (?, ?, ?, ?)",
        league_id,
        user_id,
        name,
        stamp,
    )
    yield from run("DELETE FROM league_substitutes WHERE league_id = ? AND user_id = ?", league_id, user_id)
    if then is not None:
        yield from then(row[1])
    return "joined"


async def signed_up(db: Backend, body: Body[str]) -> str:
    """Run a sign-up (:func:`sign_up`); a concurrent sign-up of the same player is 'already'."""
    try:
        return await db.transact(body)
    except Conflict:
        return "already"

"""Ratings and results: a server's rating table per game, each league's season table, and each
finished session's results.

:meth:`Ratings.rate` (and :meth:`Ratings.rate_season` after it) is the statements a finishing game runs inside its own transaction
(:meth:`bot.storage.games.Games.finish`), under the back end's ratings lock, so two games ending at
once cannot lose an update.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot import ratings
from bot.storage.base import (
    RATED,
    Body,
    Concern,
    RatingRow,
    ResultRow,
    fits,
    many,
    need_guild,
    one,
    rating_of,
    run,
    the_one,
    upsert,
)

Moved = dict[int, tuple[float, float]]
"""Each rated person's shown rating before and after a game, by user id."""


class Ratings(Concern):
    """Ratings (all-time, per server and game) and results."""

    def rate(
        self,
        session_id: int,
        results: Sequence[ResultRow],
        names: dict[int, str],
        stamp: str,
    ) -> Body[Moved]:
        """Inside a finishing game's transaction: its players' ratings read, rated again
        (:func:`bot.ratings.rerate`) and written back (a game outside a server is not rated); each
        rated person's shown rating before and after, by user id (which the results keep)."""
        row = yield from the_one("SELECT guild_id, game, unrated FROM sessions WHERE id = ?", session_id)
        guild_id, game = row[0], row[1]
        if guild_id is None:
            return {}  # ratings belong to a server (a game opened outside one, by older code, is not rated)
        if row[2]:
            return {}  # a game the queue formed of people who all chose unrated
        yield from self.db.ratings_lock(guild_id, game)
        moved = yield from _rerate("ratings", {"guild_id": guild_id, "game": game}, results, names, stamp)
        if moved:
            yield from run("UPDATE sessions SET rated = 1 WHERE id = ?", session_id)
        return moved

    async def leaderboard(self, guild_id: int | None, game: str, *, limit: int = 15) -> list[RatingRow]:
        rows = await self.db.all(
            "SELECT * FROM ratings WHERE guild_id = ? AND game = ? ORDER BY mu - 3 * sigma DESC, games DESC"
            " LIMIT ?",
            need_guild(guild_id),
            game,
            limit,
        )
        return [rating_of(r) for r in rows]

    async def ratings_of(self, guild_id: int | None, user_id: int) -> dict[str, RatingRow]:
        rows = await self.db.all(
            "SELECT * FROM ratings WHERE guild_id = ? AND user_id = ? ORDER BY game",
            need_guild(guild_id),
            user_id,
        )
        return {r["game"]: rating_of(r) for r in rows}

    async def results(self, session_id: int) -> list[ResultRow]:
        rows = await self.db.all(
            "SELECT * FROM results WHERE session_id = ? ORDER BY place, seat", session_id
        )
        return [
            ResultRow(
                r["seat"],
                r["user_id"],
                r["score"],
                r["place"],
                bool(r["resigned"]),
                r["rating_before"],
                r["rating_after"],
            )
            for r in rows
        ]

    async def season_leaderboard(self, league_id: int, *, limit: int = 15) -> list[RatingRow]:
        """A league's own rating table (its season), best first."""
        if not fits(league_id):
            return []
        rows = await self.db.all(
            "SELECT * FROM season_ratings WHERE league_id = ? ORDER BY mu - 3 * sigma DESC, games DESC LIMIT ?",
            league_id,
            limit,
        )
        return [rating_of(r) for r in rows]

    def rate_season(
        self, session_id: int, results: Sequence[ResultRow], names: dict[int, str], stamp: str
    ) -> Body[None]:
        """After the all-time ratings (:meth:`bot.storage.ratings.Ratings.rate`), for a league game
        that was rated, the league's season table from the same places (fresh ratings for the
        season; same lock, same transaction)."""
        row = yield from one(
            "SELECT g.league_id, s.rated FROM league_games g JOIN sessions s ON s.id = g.session_id"
            " WHERE g.session_id = ?",
            session_id,
        )
        if row is None or not row[1]:
            return
        yield from _rerate("season_ratings", {"league_id": row[0]}, results, names, stamp)


def _rerate(
    table: str,
    key: dict[str, object],
    results: Sequence[ResultRow],
    names: dict[int, str],
    stamp: str,
) -> Body[Moved]:
    """The rows of ``table`` under ``key`` of the people of ``results`` read (a person not rated
    yet as an empty row), rated again (:func:`bot.ratings.rerate`) and written back; each written person's shown rating
    before and after (none when nobody was rated)."""
    columns = ", ".join(key)
    where = " AND ".join(f"{c} = ?" for c in key)
    current = []
    for r in results:
        if r.user_id is None:
            continue
        found = yield from one(
            f"SELECT mu, sigma, games, wins FROM {table} WHERE {where} AND user_id = ?",
            *key.values(),
            r.user_id,
        )
        mu, sigma, games, wins = found or (None, None, 0, 0)
        current.append(
            RatingRow(r.user_id, names.get(r.user_id, str(r.user_id)), mu, sigma, games, wins, r.place)
        )
    new = ratings.rerate(current)
    if new:
        yield from many(
            upsert(table, f"{columns}, user_id", f"{columns}, user_id, " + RATED),
            [
                (*key.values(), n.user_id, n.name, float(n.mu), float(n.sigma), n.games, n.wins, stamp)  # type: ignore[arg-type]  # rate hands back every row rated
                for n in new
            ],
        )
    before = {r.user_id: ratings.shown_or_start(r.mu, r.sigma) for r in current}
    return {n.user_id: (before[n.user_id], ratings.shown_or_start(n.mu, n.sigma)) for n in new}

"""What an organiser decides about a league's pairing (both back ends): its tiebreak order and
review step (columns of ``leagues``), forbidden pairs, tables fixed by hand for a coming round, and
a round kept for review before it is published (see :mod:`bot.league.controls`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from bot.storage.base import (
    ARM_SQL,
    Body,
    Concern,
    Conflict,
    Job,
    all_,
    job_json,
    many,
    one,
    run,
    the_one,
    upsert,
)
from bot.time.jobs import LEAGUE_ROUND as ROUND_JOB


class LeaguePairing(Concern):
    """The organiser's pairing controls: queries and transactions."""

    async def set_controls(
        self, league_id: int, *, tiebreaks: Sequence[str] | None = None, review: bool | None = None
    ) -> bool:
        """Set a league's tiebreak order (names, already checked) and/or its review step; False
        when the league is over (or gone)."""
        sets: list[str] = []
        params: list[object] = []
        if tiebreaks is not None:
            sets.append("tiebreaks = ?")
            params.append(json.dumps(list(tiebreaks)))
        if review is not None:
            sets.append("review = ?")
            params.append(1 if review else 0)
        if not sets:
            return True
        changed = await self.db.change(
            f"UPDATE leagues SET {', '.join(sets)} WHERE id = ? AND status IN ('signup', 'running')",
            *params,
            league_id,
        )
        return changed == 1

    async def forbidden(self, league_id: int) -> list[tuple[int, int]]:
        """The league's forbidden pairs, each (lower id, higher id)."""
        rows = await self.db.all(
            "SELECT low, high FROM league_forbidden WHERE league_id = ? ORDER BY low, high", league_id
        )
        return [(r[0], r[1]) for r in rows]

    async def set_forbidden(self, league_id: int, a: int, b: int, forbidden: bool) -> bool:
        """Forbid (or allow again) the pair; False when nothing changed (already so)."""
        low, high = sorted((a, b))
        if forbidden:
            changed = await self.db.change(
                "INSERT INTO league_forbidden (league_id, low, high) VALUES (?, ?, ?)"
                " ON CONFLICT (league_id, low, high) DO NOTHING",
                league_id,
                low,
                high,
            )
        else:
            changed = await self.db.change(
                "DELETE FROM league_forbidden WHERE league_id = ? AND low = ? AND high = ?",
                league_id,
                low,
                high,
            )
        return changed == 1

    async def fixed_tables(self, league_id: int, number: int) -> list[list[int]]:
        """The tables the organiser fixed for round ``number``, each in seat order."""
        rows = await self.db.all(
            "SELECT tab, user_id FROM league_fixed WHERE league_id = ? AND round = ? ORDER BY tab, position",
            league_id,
            number,
        )
        tables: dict[int, list[int]] = {}
        for r in rows:
            tables.setdefault(r[0], []).append(r[1])
        return list(tables.values())

    async def fix_table(self, league_id: int, number: int, players: Sequence[int]) -> bool:
        """Fix a table of ``players`` (in seat order) for round ``number``; False when one of them
        is at a fixed table of that round already, or the round has opened."""

        def body() -> Body[bool]:
            league = yield from one("SELECT current_round FROM leagues WHERE id = ?", league_id)
            if league is None or league[0] >= number:
                return False
            taken = yield from all_(
                "SELECT user_id FROM league_fixed WHERE league_id = ? AND round = ?", league_id, number
            )
            if {r[0] for r in taken} & set(players):
                return False
            top = yield from the_one(
                "SELECT COALESCE(MAX(tab), 0) FROM league_fixed WHERE league_id = ? AND round = ?",
                league_id,
                number,
            )
            yield from many(
                "INSERT INTO league_fixed (league_id, round, user_id, tab, position) VALUES (?, ?, ?, ?, ?)",
                [(league_id, number, uid, top[0] + 1, pos) for pos, uid in enumerate(players)],
            )
            return True

        return await self.db.transact(body())

    async def unfix_table(self, league_id: int, number: int, user_id: int) -> list[int]:
        """Undo the fixed table of round ``number`` that holds ``user_id``; its players (none when
        there was no such table)."""

        def body() -> Body[list[int]]:
            row = yield from one(
                "SELECT tab FROM league_fixed WHERE league_id = ? AND round = ? AND user_id = ?",
                league_id,
                number,
                user_id,
            )
            if row is None:
                return []
            players = yield from all_(
                "SELECT user_id FROM league_fixed WHERE league_id = ? AND round = ? AND tab = ? ORDER BY position",
                league_id,
                number,
                row[0],
            )
            yield from run(
                "DELETE FROM league_fixed WHERE league_id = ? AND round = ? AND tab = ?",
                league_id,
                number,
                row[0],
            )
            return [r[0] for r in players]

        return await self.db.transact(body())

    async def draft(self, league_id: int, number: int) -> tuple[list[list[int]], list[int]] | None:
        """The round waiting for review: (groups, byes), or None."""
        rows = await self.db.all(
            "SELECT groups, byes FROM league_drafts WHERE league_id = ? AND round = ?", league_id, number
        )
        if not rows:
            return None
        return [[int(u) for u in g] for g in json.loads(rows[0][0])], [int(u) for u in json.loads(rows[0][1])]

    async def save_draft(
        self,
        league_id: int,
        number: int,
        groups: Sequence[Sequence[int]],
        byes: Sequence[int],
        *,
        job: Job | None = None,
        remind_at: float | None = None,
        first: bool = False,
    ) -> bool:
        """Store (or replace) round ``number``'s draft; with ``job`` (the claimed round job), that
        job is consumed in the same transaction, or, with ``remind_at``, armed again for then as
        the reminder that the round waits for review (payload ``{"round": number, "review": since}``,
        ``since`` being now, and ``first`` when the organiser is still to be told the round waits;
        publishing the round arms its guard over it).  False when the round has opened meanwhile."""
        sql = upsert("league_drafts", "league_id, round", "league_id, round, groups, byes")
        stamp = self.clock.stamp()

        def body() -> Body[bool]:
            league = yield from one("SELECT current_round FROM leagues WHERE id = ?", league_id)
            if league is None or league[0] != number - 1:
                return False
            if job is not None:
                ours = yield from one("SELECT 1 FROM jobs WHERE id = ? AND claim = ?", job.id, job.claim)
                if ours is None:
                    raise Conflict("the round job was taken meanwhile")
                if remind_at is None:
                    yield from run("DELETE FROM jobs WHERE id = ?", job.id)
                else:
                    waiting = review_job(number, self.clock.time(), first)
                    yield from run(ARM_SQL, ROUND_JOB, str(league_id), float(remind_at), waiting, stamp)
            yield from run(
                sql, league_id, number, json.dumps([list(g) for g in groups]), json.dumps(list(byes))
            )
            return True

        return await self.db.transact(body())

    async def remind_review(self, league_id: int, number: int, due_at: float, since: float) -> None:
        """Arm round ``number``'s job for ``due_at`` as the reminder that it has waited for the
        organiser's review since ``since`` (see :meth:`save_draft`)."""
        await self.db.change(
            ARM_SQL, ROUND_JOB, str(league_id), float(due_at), review_job(number, since), self.clock.stamp()
        )

    async def drop_draft(self, league_id: int, number: int) -> None:
        await self.db.change("DELETE FROM league_drafts WHERE league_id = ? AND round = ?", league_id, number)


def review_job(number: int, since: float, first: bool = False) -> str:
    """The payload of a round's job while the round waits for review: its reminder (``first``: the
    first letter saying it waits, which a stop kept from being sent)."""
    return job_json({"round": number, "review": float(since), **({"first": True} if first else {})})

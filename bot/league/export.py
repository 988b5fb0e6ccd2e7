"""A league as CSV: the standings, then every game's result and every bye (plain text, no Discord)."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence

from bot.league.pairing import Row
from bot.storage.leagues import LeagueGame


def cell(text: str) -> str:
    """A name as a spreadsheet shows it as text: one starting like a formula gets a leading '."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def league_csv(
    rows: Sequence[Row],
    games: Sequence[LeagueGame],
    byes: Sequence[tuple[int, int, float]],
    names: Mapping[int, str],
    no_shows: Mapping[int, int] | None = None,
) -> str:
    """Two tables in one file, separated by a blank line: ``rank,player,...`` then
    ``round,table,player,place,points,forfeit`` (byes have the table ``bye``); the standings end
    with each player's ``no_shows``."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(
        [
            "rank",
            "player",
            "user_id",
            "points",
            "games",
            "wins",
            "byes",
            "buchholz",
            "head_to_head",
            "rating",
            "no_shows",
        ]
    )
    for r in rows:
        uid = int(r.player)
        w.writerow(
            [
                r.rank,
                cell(names.get(uid, r.player)),
                uid,
                f"{r.points:g}",
                r.games,
                r.wins,
                r.byes,
                f"{r.buchholz:g}",
                f"{r.head_to_head:g}",
                f"{r.rating:g}",
                (no_shows or {}).get(uid, 0),
            ]
        )
    w.writerow([])
    w.writerow(["round", "table", "player", "user_id", "place", "points", "forfeit"])
    for g in games:
        for s in sorted(g.seats, key=lambda s: (s.place or 99, s.position)):
            w.writerow(
                [
                    g.round,
                    g.table_no,
                    cell(names.get(s.user_id, str(s.user_id))),
                    s.user_id,
                    "" if s.place is None else s.place,
                    "" if s.points is None else f"{s.points:g}",
                    "yes" if s.forfeit else "",
                ]
            )
    for rnd, uid, pts in byes:
        w.writerow([rnd, "bye", cell(names.get(uid, str(uid))), uid, "", f"{pts:g}", ""])
    return out.getvalue()

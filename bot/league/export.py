"""A league as CSV: the standings, then every game's result and every bye (plain text, no Discord)."""

from __future__ import annotations

import csv
import io
from collections.abc import Collection, Mapping, Sequence

from bot.league import attendance, tiebreaks
from bot.league.pairing import Row
from bot.storage.leagues import LeagueGame

# A tiebreak's column: its name, but the wins tiebreak's, which the ``wins`` column holds already.
COLUMN = {tiebreaks.WINS: "most_wins"}


def cell(text: str) -> str:
    """A name as a spreadsheet shows it as text: one starting like a formula gets a leading '."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def dropped_cells(round_no: int | None) -> list[str | int]:
    """A player's ``dropped`` and ``dropped_round`` cells: ``yes`` and the round, or empty."""
    return ["", ""] if round_no is None else ["yes", round_no]


def written(value: float) -> str:
    """A value as the file writes it: whole numbers without a point, others to ten decimals at
    most (``1.9``, ``0.3333333333``), never in an exponent nor cut to six figures (``1350000``, not
    ``1.35e+06``), so that a spreadsheet reads the value the standings ranked by."""
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.10f}".rstrip("0").rstrip(".")


def league_csv(
    rows: Sequence[Row],
    games: Sequence[LeagueGame],
    byes: Sequence[tuple[int, int, float]],
    names: Mapping[int, str],
    no_shows: Mapping[int, int] | None = None,
    order: Sequence[str] = tiebreaks.DEFAULT_ORDER,
    dropped: Mapping[int, int | None] | None = None,
    kinds: Mapping[tuple[int, int], str] | None = None,
    rated: Collection[int] | None = None,
) -> str:
    """Two tables in one file, separated by a blank line: ``rank,player,...`` then
    ``round,table,player,user_id,place,points,forfeit,bye_kind,never_played``.  The standings
    carry each tiebreak of ``order`` in that order after the byes (the wins tiebreak as
    ``most_wins``; ``byes`` counts the pairing's byes, as the standings do, not the rounds sat out
    for attendance), then the rating when it is not one of them, then each player's ``no_shows``,
    and end with ``dropped`` (``yes`` or empty) and ``dropped_round`` (from ``dropped``: user ->
    the round they left in, ``None`` while playing), then ``games_not_played``: ``games``
    counts the games played, this the games scored but never played.  A sit-out has the table ``bye``, its
    points, and its ``bye_kind`` (one of :data:`attendance.BYE_KINDS`, from ``kinds``: (round,
    user) -> kind; ``pairing`` when unknown); a game's row leaves ``bye_kind`` empty.  A game
    whose table never opened (a forfeit nobody played, scored all the same) has ``never_played``
    ``yes`` on each of its rows, so that it is not read as a game played to its end (a game
    played, or a sit-out, leaves it empty).  With ``rated`` (the
    players with a rating in the league's game), another's rating cell is empty, as the standings
    show a dash (not a rating of 0).  The columns added last keep the earlier ones where they
    were, so a reader by position still finds them."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    # the byes the pairing gave, as the standings count them (a pause or a missed check-in is
    # listed below with its kind, but is no bye)
    paired = attendance.pairing_byes(byes, kinds or {})
    extra = [] if tiebreaks.RATING in order else [tiebreaks.RATING]
    w.writerow(
        ["rank", "player", "user_id", "points", "games", "wins", "byes"]
        + [COLUMN.get(n, n) for n in [*order, *extra]]
        + ["no_shows", "dropped", "dropped_round", "games_not_played"]
    )
    for r in rows:
        uid = int(r.player)
        w.writerow(
            [
                r.rank,
                cell(names.get(uid, r.player)),
                uid,
                written(r.points),
                r.games,
                r.wins,
                paired.get(uid, 0),
            ]
            + [
                ""
                if n == tiebreaks.RATING and rated is not None and uid not in rated
                else written(r.tiebreaks.get(n, r.rating if n == tiebreaks.RATING else 0.0))
                for n in [*order, *extra]
            ]
            + [(no_shows or {}).get(uid, 0)]
            + dropped_cells((dropped or {}).get(uid))
            + [r.unplayed]
        )
    w.writerow([])
    w.writerow(
        ["round", "table", "player", "user_id", "place", "points", "forfeit", "bye_kind", "never_played"]
    )
    for g in games:
        for s in sorted(g.seats, key=lambda s: (s.place or 99, s.position)):
            w.writerow(
                [
                    g.round,
                    g.table_no,
                    cell(names.get(s.user_id, str(s.user_id))),
                    s.user_id,
                    "" if s.place is None else s.place,
                    "" if s.points is None else written(s.points),
                    "yes" if s.forfeit else "",
                    "",
                    "yes" if g.never_played else "",
                ]
            )
    for rnd, uid, pts in byes:
        kind = (kinds or {}).get((rnd, uid), attendance.PAIRING)
        w.writerow([rnd, "bye", cell(names.get(uid, str(uid))), uid, "", written(pts), "", kind, ""])
    return out.getvalue()

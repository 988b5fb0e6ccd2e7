"""Tiebreaks players can check: each one's value per player, and ranking by an organiser's order.

Every tiebreak is defined for games of any size; for two-player games each reduces to the chess
definition.  ``points`` below are the final league points of the standings being ranked.

- ``buchholz``: the sum of the points of every opponent met, once per game played together (in a
  game of four, the points of the three others).  A round sat out counts against dummies (below).
- ``median_buchholz``: Buchholz without the best and the worst game: each game contributes the sum
  of its opponents' points, and when a player has three games or more (a round sat out counting
  as one), the game with the lowest contribution and then the game with the highest are left out
  (with fewer games nothing is left out, so two games do not cancel each other to nothing).
- ``sonneborn_berger``: the points of every opponent one finished ahead of, plus half the points
  of every opponent one tied with (two players: the points of those beaten plus half the points
  of those drawn with).
- ``head_to_head``: among the players still tied on everything before it in the order, one point
  for each of them finished ahead of and a half for each tie, over the games between them (0 for
  a player tied with nobody).
- ``wins``: games won outright (alone in first place) over the board.
- ``cumulative``: the sum of the running total after each round of the season (a player who
  scored early ranks ahead of one who scored late); byes count in the round they were given.
- ``rating``: the player's rating.

Games never played
------------------
A league game never played (``GameResult.played`` False: its table never opened, a forfeit by
all at the deadline or a table whose other players had all been dropped) scores as the league's
rules say, but nobody met anybody in it.  The tiebreaks treat it as FIDE's Tie-Break Regulations
(Handbook C.07, the 2023 edition, applied from 1 September 2023) treat an unplayed round in a
Swiss event, each rule taken in its default form (Art. 16.6 lets an event choose otherwise; a
league has no such choice):

- Buchholz, median Buchholz and Sonneborn-Berger (Art. 8.1, 14.3, 9.1, and Art. 16, which covers
  exactly these): a player's own game never played counts as if played against a *dummy* with
  the result the game scored (Art. 16.4), the dummy's score being the player's own points, but
  never more than the scheduled opponent's (Art. 16.4.1, for forfeits).  In a larger game each
  scheduled opponent is replaced by such a dummy: the game contributes, for each of them,
  ``min(own points, their points)`` (Sonneborn-Berger: that, or half of it, for those finished
  ahead of or tied with).
- Opponents' points are counted as they stand: a forfeit's points count with the result it
  scored (Art. 16.3.1, which keeps the awarded result for forfeit wins and losses; Art. 16.3.2's
  draws are for requested byes followed only by unplayed rounds: see the rounds sat out, below).
- Median Buchholz's low cut (Art. 16.5, the Cut-1 exception): for a player who lost a game never
  played (placed below someone in it: the forfeit of one dropped before the table opened), the
  lowest contribution of such a game is left out in place of the lowest one overall; a game all
  its players share the first place of (nobody's fault: the table could not open) is no such loss.
- Head to head (direct encounter, Art. 6) counts only games actually played.
- Most wins is FIDE's "number of games won over the board" (WON, Art. 7.2), not its "number of
  wins" with or without playing (WIN, Art. 7.1): a win by forfeit is no game won.  The standings'
  win count is the same number (:func:`bot.league.pairing.standings`).
- Cumulative score and rating read only points and ratings: a game never played counts its
  points in its round, as any game does.

Rounds sat out
--------------
A round sat out (a bye: the pairing's, a late sign-up's, one asked for, a pause, a missed
check-in) is an unplayed round too, and Art. 16.4 counts it the same way, against a dummy scoring
the player's own points (there is no scheduled opponent to cap it): in a league of games of ``n``
the round stands for a game against ``n - 1`` dummies (:class:`SatOut`).

- Buchholz and median Buchholz: the round contributes ``(n - 1) * own points``.
- Sonneborn-Berger: the share of those dummies the bye's points beat, as a result against them
  (two players: a full bye is a win, so the dummy's points; a half bye half of them; a bye of 0
  nothing): ``(n - 1) * own points * bye points / first place's points``.
- Median Buchholz's low cut: a round sat out for less than the league's full bye (a bye asked
  for at half or none, a pause, a missed check-in) is voluntary (FIDE's VUR, Art. 16.2, as a
  forfeit lost is), and its contribution is left out first (Art. 16.5); the pairing's bye and a
  full one are not.
- Head to head, most wins: no encounter, no game won.  Cumulative score: its points in its round.

How a player's own unplayed rounds (games never played, rounds sat out) count in their
opponents' tiebreaks is Art. 16.3: with the points they scored (16.3.1, for forfeits won or lost
and for the pairing's byes), which is what the league points each opponent is counted with are.
Art. 16.3.2 would count a bye asked for that only unplayed rounds follow (a withdrawal, a drop) as
a draw instead; the standings do not: such a player's points count as scored.

Ranking sorts by league points, then by each tiebreak of the order in turn, then by player id,
so that the order is total.  The default order (Buchholz, head to head, rating) is the order
standings have always used.
"""

from __future__ import annotations

import itertools
import json
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from bot.league.rounds import GameResult, Row

BUCHHOLZ = "buchholz"
MEDIAN_BUCHHOLZ = "median_buchholz"
SONNEBORN_BERGER = "sonneborn_berger"
HEAD_TO_HEAD = "head_to_head"
WINS = "wins"
CUMULATIVE = "cumulative"
RATING = "rating"

NAMES = (BUCHHOLZ, MEDIAN_BUCHHOLZ, SONNEBORN_BERGER, HEAD_TO_HEAD, WINS, CUMULATIVE, RATING)
DEFAULT_ORDER = (BUCHHOLZ, HEAD_TO_HEAD, RATING)


class TiebreakError(ValueError):
    """An order that names an unknown tiebreak, or one tiebreak twice."""


def check_order(order: Sequence[str]) -> tuple[str, ...]:
    """``order`` as a tuple, refused with the names allowed when it is not a list of distinct
    tiebreak names."""
    order = tuple(order)
    unknown = [name for name in order if name not in NAMES]
    if unknown:
        raise TiebreakError(f"unknown tiebreak {unknown[0]!r}: the tiebreaks are {', '.join(NAMES)}")
    twice = [name for name, n in itertools.groupby(sorted(order)) if len(list(n)) > 1]
    if twice:
        raise TiebreakError(f"tiebreak {twice[0]!r} is listed twice")
    return order


def stored_order(text: str | None) -> tuple[str, ...]:
    """A league's stored order (a JSON list of names), or the default when it has none."""
    if not text:
        return DEFAULT_ORDER
    try:
        return check_order(json.loads(text))
    except (ValueError, TypeError):
        return DEFAULT_ORDER  # only ever stored checked; never worse than the default


Scored = tuple[GameResult, Mapping[str, float]]


@dataclass(frozen=True)
class SatOut:
    """A round ``player`` sat out, as the opponent-based tiebreaks count it (FIDE C.07 Art. 16.4):
    a game against ``dummies`` dummies each scoring the player's own points, ``share`` of them
    beaten (the bye's points over the first place's, 0 to 1), ``voluntary`` when it scored less
    than the league's full bye (Art. 16.2: a bye asked for at half or none, a pause, a missed
    check-in)."""

    player: str
    dummies: int
    share: float
    voluntary: bool


def faced(game: GameResult, player: str, other: str, points: Mapping[str, float]) -> float:
    """The score ``other`` counts with in ``player``'s tiebreaks for ``game``: their points, or, in a
    game never played, a dummy's: ``player``'s own points, no more than ``other``'s (FIDE C.07
    Art. 16.4 and 16.4.1)."""
    theirs = points.get(other, 0.0)
    return theirs if game.played else min(points.get(player, 0.0), theirs)


def lost_unplayed(game: GameResult, player: str) -> bool:
    """Whether ``player`` lost ``game`` without playing it (a forfeit, FIDE's "voluntary unplayed
    round"): a game never played in which someone is placed ahead of them."""
    return not game.played and game.places[player] > min(game.places.values())


Contribution = tuple[float, bool]  # one game's sum of its opponents' scores; lost unplayed


def contributions(
    games: Iterable[Scored], points: Mapping[str, float], sat_out: Iterable[SatOut] = ()
) -> dict[str, list[Contribution]]:
    """For each player, one entry per game: the sum of that game's opponents' scores (a game never
    played: its dummies', :func:`faced`), and whether the player lost it unplayed; then one per
    round sat out: its dummies' scores, and whether it was voluntary."""
    sums: dict[str, list[Contribution]] = defaultdict(list)
    for game, _ in games:
        for pid in game.places:
            total = sum(faced(game, pid, o, points) for o in game.places if o != pid)
            sums[pid].append((total, lost_unplayed(game, pid)))
    for out in sat_out:
        sums[out.player].append((out.dummies * points.get(out.player, 0.0), out.voluntary))
    return sums


def median(contributions: Sequence[Contribution]) -> float:
    """The sum without the lowest entry, then the highest (when there are three or more); the low
    cut takes the lowest entry of a game lost unplayed when there is one (FIDE C.07 Art. 16.5)."""
    left = sorted(contributions)
    if len(left) >= 3:
        forfeits = [c for c in left if c[1]]
        left.remove(forfeits[0] if forfeits else left[0])
        left.remove(max(left))
    return sum(value for value, _ in left)


def sonneborn_berger(
    games: Iterable[Scored], points: Mapping[str, float], sat_out: Iterable[SatOut] = ()
) -> dict[str, float]:
    out: dict[str, float] = defaultdict(float)
    for game, _ in games:
        for a, b in itertools.permutations(game.places, 2):
            if game.places[a] < game.places[b]:
                out[a] += faced(game, a, b, points)
            elif game.places[a] == game.places[b]:
                out[a] += faced(game, a, b, points) / 2
    for bye in sat_out:
        out[bye.player] += bye.dummies * bye.share * points.get(bye.player, 0.0)
    return out


def cumulative(games: Iterable[Scored], byes: Iterable[tuple[int, str, float]]) -> dict[str, float]:
    """The sum over the season's rounds of each player's running total after that round."""
    per_round: dict[int, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for game, scored in games:
        for pid, pts in scored.items():
            per_round[game.round][pid] += pts
    for rnd, pid, pts in byes:
        per_round[rnd][pid] += pts
    running: dict[str, float] = defaultdict(float)
    out: dict[str, float] = defaultdict(float)
    players = {p for scores in per_round.values() for p in scores}
    for rnd in sorted(per_round):
        for pid in players:
            running[pid] += per_round[rnd].get(pid, 0.0)
            out[pid] += running[pid]
    return out


def head_to_head(games: Iterable[Scored], tied: set[str]) -> dict[str, float]:
    """Points won against the other players of ``tied`` in the games played between them (a game
    never played is no encounter: FIDE C.07 Art. 6)."""
    out = dict.fromkeys(tied, 0.0)
    for game, _ in games:
        if not game.played:
            continue
        inside = [p for p in game.places if p in tied]
        for a, b in itertools.permutations(inside, 2):
            if game.places[a] < game.places[b]:
                out[a] += 1
            elif game.places[a] == game.places[b]:
                out[a] += 0.5
    return out


def by_id(player: str) -> tuple[int, str]:
    """The order of the last resort, the player id: a user id by its number (a Discord id of 17
    digits is lower than one of 19, which text would put first), then any other name as text."""
    return (int(player), "") if player.isdigit() else (-1, player)


def split(block: list[Row], name: str) -> list[list[Row]]:
    """``block`` sorted by tiebreak ``name`` (highest first), cut where its value changes."""

    def value(row: Row) -> float:
        return row.tiebreaks[name]

    block = sorted(block, key=value, reverse=True)
    return [list(b) for _, b in itertools.groupby(block, key=value)]


DECIMALS = 6
"""Points and tiebreaks are compared to this many decimals: a place scores points rounded so
(:func:`bot.league.rounds.stretched`), and sums of them added in another order differ in their
last binary digits (1 + 0.6 + 0.3 is 1.9000000000000001, 0.3 + 1 + 0.6 is 1.9)."""


def settled(value: float) -> float:
    """``value`` to :data:`DECIMALS` decimals: equal sums of points compare equal."""
    return round(value, DECIMALS)


def rank(
    rows: Mapping[str, Row],
    games: Sequence[Scored],
    byes: Iterable[tuple[int, str, float]] = (),
    order: Sequence[str] = DEFAULT_ORDER,
    sat_out: Sequence[SatOut] = (),
) -> list[Row]:
    """``rows`` (with their points, games and wins counted) ranked by ``order``; each row's
    ``tiebreaks`` gets every tiebreak's value (head to head: within the row's tie, 0 alone), and
    its ``buchholz`` and ``head_to_head`` fields the same values.  ``byes`` (round, player,
    points) count in the cumulative score; ``sat_out``, the same rounds, against dummies."""
    order = check_order(order)
    for row in rows.values():  # sums of points per place (3.333333...) compared as the same sums
        row.points = settled(row.points)
    points = {p: r.points for p, r in rows.items()}
    sums = contributions(games, points, sat_out)
    sb = sonneborn_berger(games, points, sat_out)
    cum = cumulative(games, byes)
    for pid, row in rows.items():
        row.buchholz = settled(sum(value for value, _ in sums.get(pid, ())))
        row.tiebreaks = {
            BUCHHOLZ: row.buchholz,
            MEDIAN_BUCHHOLZ: settled(median(sums.get(pid, ()))),
            SONNEBORN_BERGER: settled(sb.get(pid, 0.0)),
            HEAD_TO_HEAD: 0.0,
            WINS: float(row.wins),
            CUMULATIVE: settled(cum.get(pid, 0.0)),
            RATING: row.rating,
        }
        row.head_to_head = 0.0
    ordered = sorted(rows.values(), key=lambda r: -r.points)
    blocks = [list(b) for _, b in itertools.groupby(ordered, key=lambda r: r.points)]
    for name in order:
        refined: list[list[Row]] = []
        for block in blocks:
            if len(block) < 2:
                refined.append(block)
                continue
            if name == HEAD_TO_HEAD:
                h2h = head_to_head(games, {r.player for r in block})
                for r in block:
                    r.head_to_head = r.tiebreaks[HEAD_TO_HEAD] = settled(h2h[r.player])
            refined += split(block, name)
        blocks = refined
    out = [r for block in blocks for r in sorted(block, key=lambda r: by_id(r.player))]
    for i, row in enumerate(out, 1):
        row.rank = i
    return out

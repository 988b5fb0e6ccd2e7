"""League pairing and standings: pure functions, no Discord, no database.

Players are identified by strings (the league service uses user ids as text).  Everything is
deterministic: the same arguments (including ``seed``) always give the same answer.

Formats
-------
- **Swiss** (:func:`swiss_round`), each game's players listed in seat order (first player
  first).  Two-player games are paired by the FIDE Dutch system (:mod:`bot.league.dutch`), the
  seats playing the part of colours, so who moves first is balanced over the season (fields
  larger than ``DUTCH_LIMIT`` are seated like larger games, below).  Games of three to six are
  seated by :mod:`bot.league.seating`: players sorted by league points (ties
  broken by rating, then by a seeded shuffle) are cut into tables by a depth-first search that
  takes the best-placed player left and fills their table with the nearest players by standing
  that none of the table has met (backtracking, so when a seating without a repeat meeting
  exists and the search finishes within its budget, one is found; past the budget a greedy
  seating improved by swaps), then improved by weighted swaps between nearby tables, and each
  table's seats are given to balance every player's seat positions.  Forbidden pairs never meet
  while they can be kept apart.  When the number of players does not divide by ``size``, tables
  of fewer players (down to ``smallest``, what the game plays with) seat the field with the
  fewest byes, then the fewest tables (:func:`table_sizes`: 7 at tables of 4 down to 3 play 4
  and 3); the players left over sit the round out with a bye (``len(players) % size`` when only
  full tables are played): those with the fewest byes so far, then the fewest points, then the
  lowest rating (two-player games: the Dutch system's rule, the lowest-placed player who has had
  no bye).  A meeting is a game played: a forfeit never played (no table opened for it) scores,
  but its players have not met, and may be paired again (FIDE's Swiss rules: a game lost by
  forfeit is not a game played).  The Swiss pairing leagues used before,
  without seat balance, is kept as :func:`classic_round` for comparison.
- **Round robin** (:func:`round_robin`): for pairs, the circle method (n-1 rounds for even n,
  n rounds with one bye each for odd n); for groups of three or more, every group of ``size``
  players meets once, packed greedily into rounds in which nobody plays twice.
- **Single elimination** (:func:`bracket`): the field is padded to the next power of two; seed 1
  meets the lowest seed, and the byes (the empty places) fall to the top seeds.  A final stage after
  a Swiss league is ``bracket(top(standings, n))``.

Standings (:func:`standings`) rank by league points, then by the tiebreaks of an organiser's
order (:mod:`bot.league.tiebreaks`: Buchholz, median Buchholz, Sonneborn-Berger, head to head,
most wins, cumulative score, rating), then the player id so that the order is total.  The
default order is Buchholz (the sum of the final league points of every opponent met, once per
game played together), then head to head among the players still tied (how often each
finished ahead of the others in games between them), then rating.  A forfeit never played scores
its points, but counts in the tiebreaks as FIDE's Tie-Break Regulations count an unplayed round
(a game against a dummy for the opponent-based ones, no encounter for head to head, no game won
for most wins: :mod:`bot.league.tiebreaks`), and so does a round sat out (a bye).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from bot.league import dutch, seating, tiebreaks
from bot.league.rounds import (
    MAX_SIZE,
    MIN_SIZE,
    SEARCH_BUDGET,
    GameResult,
    PairingError,
    Round,
    Row,
    bye_points,
    check_size,
    greedy_groups,
    improve,
    met_pairs,
    place_points,
    points_for_places,
    repeats,
    search_groups,
    stretched,
    table_sizes,
)
from engines.core import plural

__all__ = [
    "DUTCH_LIMIT",
    "MAX_SIZE",
    "MIN_SIZE",
    "SEARCH_BUDGET",
    "Bracket",
    "GameResult",
    "Match",
    "PairingError",
    "Round",
    "Row",
    "bracket",
    "bracket_rounds",
    "bracket_size",
    "bye_points",
    "check_size",
    "choose_byes",
    "classic_round",
    "greedy_groups",
    "improve",
    "met_pairs",
    "place_points",
    "points_for_places",
    "repeats",
    "round_robin",
    "search_groups",
    "seed_positions",
    "stretched",
    "table_sizes",
    "standings",
    "swiss_order",
    "swiss_round",
    "top",
]

DUTCH_LIMIT = 64  # the most players paired by the Dutch system (its time grows as the cube)
# --------------------------------------------------------------------------- Swiss


def swiss_order(
    players: Sequence[str],
    points: Mapping[str, float],
    ratings: Mapping[str, float] | None = None,
    seed: int = 0,
) -> list[str]:
    """Players best first: by points, then rating, then a seeded shuffle."""
    ratings = ratings or {}
    order = sorted(set(players))
    random.Random(seed).shuffle(order)
    return sorted(order, key=lambda p: (-points.get(p, 0.0), -ratings.get(p, 0.0)))


def choose_byes(
    ordered: Sequence[str], count: int, byes_had: Mapping[str, int], points: Mapping[str, float]
) -> list[str]:
    """The ``count`` players who sit out: fewest byes so far, then lowest in the order."""
    if count == 0:
        return []
    rank = {p: i for i, p in enumerate(ordered)}
    return sorted(ordered, key=lambda p: (byes_had.get(p, 0), points.get(p, 0.0), -rank[p]))[:count]


def swiss_round(
    players: Sequence[str],
    size: int,
    *,
    points: Mapping[str, float] | None = None,
    history: Iterable[Sequence[str]] = (),
    byes_had: Mapping[str, int] | None = None,
    ratings: Mapping[str, float] | None = None,
    seed: int = 0,
    budget: int = SEARCH_BUDGET,
    forbidden: Iterable[Iterable[str]] = (),
    games: Sequence[GameResult] | None = None,
    byes: Iterable[tuple[int, str]] = (),
    seat_history: Mapping[str, Sequence[int]] | None = None,
    starting_order: Sequence[str] | None = None,
    round_number: int | None = None,
    total_rounds: int | None = None,
    weights: seating.Weights = seating.WEIGHTS,
    dutch_limit: int = DUTCH_LIMIT,
    smallest: int | None = None,
) -> Round:
    """One Swiss round (see the module docstring): each game's players in seat order.

    ``history``: past games played, each in seat order (the meetings not to repeat: a forfeit
    never played is not one, so its players may meet again); ``games``: the season's finished
    games with their rounds (and ``byes`` its byes as (round, player)), which give the two-player
    pairing its float history and round number, and stand for ``history`` when that is empty
    (their games played only);
    ``forbidden``: pairs of players who must not meet; ``seat_history``: each player's seats so
    far (0 is the first player), by default read from the games played of ``games`` (or, without
    ``games``, from ``history``);
    ``starting_order``: the two-player pairing numbers, best first; ``total_rounds``: the
    season's Swiss rounds (the Dutch system treats the last round apart); ``dutch_limit``: the
    largest two-player field paired by the Dutch system (it takes seconds at 64 players on a
    small machine, half a minute at 128); larger fields are paired by the seating optimiser,
    whose seat balance then stands for colour balance.  ``smallest``: the fewest players the
    game is played with at this league (by default ``size``): when the field does not divide into
    full tables, tables of fewer players (down to ``smallest``) seat it with the fewest byes
    (:func:`table_sizes`).
    """
    check_request(players, size if smallest is None else min(size, max(MIN_SIZE, smallest)))
    points = points or {}
    ratings = ratings or {}
    byes_had = byes_had or {}
    banned = forbidden_pairs(forbidden)
    past = [tuple(g) for g in history]
    if not past and games is not None:  # the meetings: a forfeit never played is none
        past = [g.seating for g in sorted(games, key=lambda g: g.round) if g.played]
    given_seats = seat_history
    if seat_history is None and games is not None:  # the seats sat in: not a forfeit never played
        seat_history = seating.seat_counts(
            [g.seating for g in sorted(games, key=lambda g: g.round) if g.played]
        )
    elif seat_history is None:
        seat_history = seating.seat_counts(past)
    met = met_pairs(past)
    fallback = None
    if size == 2 and len(players) <= dutch_limit:
        found = dutch.dutch_round(
            players,
            points=points,
            history=past,
            byes_had=byes_had,
            ratings=ratings,
            forbidden=banned,
            games=games,
            byes=byes,
            starting_order=starting_order,
            round_number=round_number,
            total_rounds=total_rounds,
            seats=given_seats,
        )
        if found is not None and not fewest_byes(found, byes_had):
            found = None  # its bye went to one who has had more than another: not this answer
        if found is not None and not repeats(found.groups, past):
            return found
        fallback = found
    ordered = swiss_order(players, points, ratings, seed)
    sizes = table_sizes(len(ordered), size, smallest)
    sitting_out = choose_byes(ordered, len(ordered) - sum(sizes), byes_had, points)
    playing = [p for p in ordered if p not in set(sitting_out)]
    groups = seating.tables(
        playing,
        size,
        points=points,
        met=met,
        forbidden=banned,
        seats=seat_history,
        seed=seed,
        budget=budget,
        weights=weights,
        sizes=sizes,
    )
    optimised = Round(tuple(groups), tuple(sitting_out))
    if fallback is not None and repeats(fallback.groups, past) <= repeats(optimised.groups, past):
        return fallback
    return optimised


def fewest_byes(found: Round, byes_had: Mapping[str, int]) -> bool:
    """Whether ``found`` gives its byes to players with the fewest so far: nobody sits out who
    has had more byes than one who plays, so nobody gets a second bye before everyone has had
    one (the pairing library's answer, which avoids a repeated meeting first, may not)."""
    playing = [p for group in found.groups for p in group]
    most_out = max((byes_had.get(p, 0) for p in found.byes), default=0)
    return not found.byes or not playing or most_out <= min(byes_had.get(p, 0) for p in playing)


def check_request(players: Sequence[str], size: int) -> None:
    check_size(size)
    if len(set(players)) != len(players):
        raise PairingError("a player is listed twice")
    if len(players) < size:
        raise PairingError(
            f"a round of {size}-player games needs at least {plural(size, 'player')}, not {len(players)}"
        )


def forbidden_pairs(pairs: Iterable[Iterable[str]]) -> frozenset[frozenset[str]]:
    """The pairs that must not meet, each checked to name two different players."""
    out = set()
    for pair in pairs:
        both = frozenset(pair)
        if len(both) != 2:
            raise PairingError(f"a forbidden pair names two different players, not {sorted(both)}")
        out.add(both)
    return frozenset(out)


def classic_round(
    players: Sequence[str],
    size: int,
    *,
    points: Mapping[str, float] | None = None,
    history: Iterable[Sequence[str]] = (),
    byes_had: Mapping[str, int] | None = None,
    ratings: Mapping[str, float] | None = None,
    seed: int = 0,
    budget: int = SEARCH_BUDGET,
) -> Round:
    """Group ``players`` for one Swiss round as leagues did before :func:`swiss_round` (kept for
    comparison, ``bench/pairing.py``): standing order, no seat balance, seat 0 to the best."""
    check_request(players, size)
    points = points or {}
    ordered = swiss_order(players, points, ratings, seed)
    byes = choose_byes(ordered, len(ordered) % size, byes_had or {}, points)
    playing = [p for p in ordered if p not in set(byes)]
    met = met_pairs(history)
    found = search_groups(playing, size, met, budget)
    groups: Sequence[Sequence[str]] = (
        found if found is not None else improve(greedy_groups(playing, size, met), met)
    )
    return Round(tuple(tuple(g) for g in groups), tuple(byes))


# --------------------------------------------------------------------------- round robin


def round_robin(players: Sequence[str], size: int = 2, *, seed: int = 0) -> list[Round]:
    """Every round of a round robin (see the module docstring)."""
    check_size(size)
    if len(set(players)) != len(players):
        raise PairingError("a player is listed twice")
    if len(players) < size:
        raise PairingError(f"a round robin of {size}-player games needs at least {plural(size, 'player')}")
    order = list(players)
    random.Random(seed).shuffle(order)
    if size == 2:
        return circle(order)
    return packed(order, size)


def circle(order: list[str]) -> list[Round]:
    """The circle method: the first player stays, the others turn one place each round."""
    slots: list[str | None] = list(order) + ([None] if len(order) % 2 else [])
    n = len(slots)
    rounds = []
    for _ in range(n - 1):
        pairs, byes = [], []
        for i in range(n // 2):
            a, b = slots[i], slots[n - 1 - i]
            if a is None or b is None:
                byes.append(b if a is None else a)
            else:
                pairs.append((a, b))
        rounds.append(Round(tuple(pairs), tuple(p for p in byes if p is not None)))
        slots = [slots[0], slots[-1], *slots[1:-1]]
    return rounds


def packed(order: list[str], size: int) -> list[Round]:
    """Every group of ``size`` once, packed into rounds where nobody plays twice."""
    remaining = [tuple(c) for c in itertools.combinations(order, size)]
    rounds = []
    while remaining:
        busy: set[str] = set()
        chosen, kept = [], []
        for group in remaining:
            if busy.isdisjoint(group):
                chosen.append(group)
                busy.update(group)
            else:
                kept.append(group)
        remaining = kept
        rounds.append(Round(tuple(chosen), tuple(p for p in order if p not in busy)))
    return rounds


# --------------------------------------------------------------------------- single elimination


def bracket_size(count: int) -> int:
    """The smallest power of two that holds ``count`` players (at least 2)."""
    if count < 2:
        raise PairingError("a bracket needs at least 2 players")
    size = 2
    while size < count:
        size *= 2
    return size


def seed_positions(size: int) -> list[int]:
    """Seeds (1-based) in bracket order: for 8, 1 8 4 5 2 7 3 6, so 1 and 2 meet only in the final."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [x for s in order for x in (s, total - s)]
    return order


def bracket_rounds(count: int) -> int:
    """How many rounds a bracket of ``count`` players lasts (2: 1, 3-4: 2, 5-8: 3, ...)."""
    return bracket_size(count).bit_length() - 1


@dataclass
class Match:
    """One bracket match.  In the first round an empty place (None) is a bye; in later rounds it is
    a place whose player is not known yet.  ``winner`` is set once the match is decided."""

    a: str | None
    b: str | None
    winner: str | None = None

    @property
    def is_bye(self) -> bool:
        """One place empty (meaningful in the first round only)."""
        return (self.a is None) != (self.b is None)


@dataclass
class Bracket:
    """A single-elimination bracket: ``rounds[0]`` is the first round, the last holds the final."""

    seeds: list[str]
    rounds: list[list[Match]] = field(default_factory=list)

    @property
    def champion(self) -> str | None:
        return self.rounds[-1][0].winner if self.rounds else None

    def open_matches(self) -> list[tuple[int, int, Match]]:
        """Matches with both players known and no winner yet: (round, index, match)."""
        return [
            (r, i, m)
            for r, matches in enumerate(self.rounds)
            for i, m in enumerate(matches)
            if m.a is not None and m.b is not None and m.winner is None
        ]


def bracket(seeds: Sequence[str], winners: Mapping[tuple[int, int], str] | None = None) -> Bracket:
    """The bracket for ``seeds`` (best first), with the results known so far.

    ``winners`` maps (round, match index) to the winner; byes advance by themselves, and each
    round's match i is fed by the previous round's matches 2i and 2i+1.
    """
    if len(set(seeds)) != len(seeds):
        raise PairingError("a player is seeded twice")
    size = bracket_size(len(seeds))
    winners = winners or {}
    slots = [seeds[s - 1] if s <= len(seeds) else None for s in seed_positions(size)]
    result = Bracket(list(seeds))
    entrants: list[str | None] = slots
    r = 0
    while len(entrants) > 1:
        matches = []
        for i in range(0, len(entrants), 2):
            m = Match(entrants[i], entrants[i + 1])
            if r == 0 and m.is_bye:
                m.winner = m.a or m.b
            elif m.a is not None and m.b is not None:
                w = winners.get((r, i // 2))
                if w is not None and w not in (m.a, m.b):
                    raise PairingError(f"{w} is not in match {i // 2} of round {r + 1}")
                m.winner = w
            matches.append(m)
        result.rounds.append(matches)
        entrants = [m.winner for m in matches]
        r += 1
    return result


# --------------------------------------------------------------------------- standings


def standings(
    players: Sequence[str],
    results: Iterable[GameResult],
    *,
    byes: Iterable[tuple[int, str] | tuple[int, str, float]] = (),
    table: Sequence[float] | None = None,
    bye_score: float | None = None,
    ratings: Mapping[str, float] | None = None,
    through_round: int | None = None,
    order: Sequence[str] = tiebreaks.DEFAULT_ORDER,
) -> list[Row]:
    """The ranked table (see the module docstring for the tiebreaks).

    ``table`` gives the points per place for the largest game (a smaller game, at a short table,
    scores it stretched over its places: :func:`bot.league.rounds.stretched`); ``byes``
    lists (round, player), or (round, player, points) for a bye worth other than ``bye_score``; ``through_round`` counts only rounds up to it (for the movement since
    the last round); ``order`` lists the tiebreaks after points, by name (see
    :mod:`bot.league.tiebreaks`, which defines each for games of any size), and each row carries
    every tiebreak's value in ``tiebreaks``.
    """
    ratings = ratings or {}
    rows = {p: Row(p, rating=ratings.get(p, 0.0)) for p in players}
    games = [g for g in results if through_round is None or g.round <= through_round]
    scored = []
    for g in games:
        ids = list(g.places)
        scale = (
            stretched(table, len(ids))
            if table is not None and len(table) >= len(ids)
            else place_points(len(ids))
        )
        got = dict(zip(ids, points_for_places([g.places[i] for i in ids], scale), strict=True))
        scored.append((g, got))
        for pid, pts in got.items():
            row = rows.setdefault(pid, Row(pid, rating=ratings.get(pid, 0.0)))
            row.points += pts
            # a game never played scores, but is none of the games played (FIDE's "played games")
            row.games += g.played
            row.unplayed += not g.played
            # a win over the board: a forfeit never played is none (FIDE C.07 Art. 7.2)
            row.wins += g.played and g.places[pid] == 1 and sum(1 for v in g.places.values() if v == 1) == 1
    given = []
    # a round sat out is a game against dummies (FIDE C.07 Art. 16.4): as many as a game has
    # opponents, beaten in the share of the first place's points the bye scored
    seats = len(table) if table is not None else max((len(g.places) for g in games), default=2)
    best = table[0] if table is not None else seats - 1.0
    full = bye_score if bye_score is not None else 0.0
    sat_out = []
    for bye in byes:
        rnd, pid = bye[0], bye[1]
        if through_round is not None and rnd > through_round:
            continue
        row = rows.setdefault(pid, Row(pid, rating=ratings.get(pid, 0.0)))
        score = bye[2] if len(bye) > 2 else full
        row.byes += 1
        row.points += score
        given.append((rnd, pid, score))
        share = min(1.0, max(0.0, score / best)) if best > 0 else 0.0
        sat_out.append(tiebreaks.SatOut(pid, max(1, seats - 1), share, voluntary=score < full))
    try:
        return tiebreaks.rank(rows, scored, given, order, sat_out)
    except tiebreaks.TiebreakError as exc:
        raise PairingError(str(exc)) from None


def top(rows: Sequence[Row], n: int, dropped: Iterable[str] = ()) -> list[str]:
    """The best ``n`` players of a standings table, for a final stage's seeds."""
    out = set(dropped)
    return [r.player for r in rows if r.player not in out][:n]

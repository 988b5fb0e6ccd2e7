"""The pieces the league's pairing modules share: games, rounds and results, league points per
place, who has met whom, and the depth-first search for groups without a repeat meeting.

:mod:`bot.league.pairing` is the entry point and names all of these too; the pairing modules
(:mod:`bot.league.dutch`, :mod:`bot.league.seating`, :mod:`bot.league.tiebreaks`) import them from
here, so that no module imports one that imports it back.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

MIN_SIZE = 2
MAX_SIZE = 6
SEARCH_BUDGET = 200_000


class PairingError(ValueError):
    """The request cannot be paired (too few players, a group size out of range)."""


# --------------------------------------------------------------------------- points


def place_points(size: int) -> tuple[float, ...]:
    """The default league points per place in a game of ``size``: ``size-1`` for first down to 0
    for last (4 players: 3, 2, 1, 0; 2 players: a win 1, a loss 0)."""
    check_size(size)
    return tuple(float(size - 1 - i) for i in range(size))


def bye_points(size: int, table: Sequence[float] | None = None) -> float:
    """What a bye scores by default: a win in two-player games (as in chess Swiss events), and the
    average of the place points in larger games (3 players: 1, 4 players: 1.5)."""
    table = tuple(table) if table is not None else place_points(size)
    if size == 2:
        return table[0]
    return sum(table) / len(table)


def points_for_places(places: Sequence[int], table: Sequence[float]) -> list[float]:
    """League points for one game's places (1 is best; equal places are ties, which share the
    points of the places they cover: a two-player draw gives 0.5 each)."""
    result = []
    for place in places:
        if place < 1 or place > len(places):
            raise PairingError(f"place {place} is outside 1..{len(places)}")
        tied = sum(1 for p in places if p == place)
        covered = table[place - 1 : place - 1 + tied]
        result.append(sum(covered) / tied)
    return result


def stretched(table: Sequence[float], count: int) -> tuple[float, ...]:
    """The league points per place of a game of ``count`` players at a league whose table
    (``table``, best place first) is for larger games: the table stretched over the fewer places,
    so first still scores the table's first and last its last, the places between read off the
    table in proportion (3,2,1,0 for three players: 3, 1.5, 0).  A short table scores as a full one
    on average (for evenly spaced points), neither a prize nor a penalty."""
    if count >= len(table):
        return tuple(table[:count])
    if count == 1:
        return (table[0],)
    out = []
    for i in range(count):
        at = i * (len(table) - 1) / (count - 1)
        low = int(at)
        high = min(low + 1, len(table) - 1)
        out.append(round(table[low] + (table[high] - table[low]) * (at - low), 6))
    return tuple(out)


def table_sizes(count: int, size: int, smallest: int | None = None) -> list[int]:
    """How ``count`` players sit at tables of ``size``, when the game also plays with as few as
    ``smallest`` (by default ``size``: full tables only): the fewest players sit out with a bye,
    then the fewest tables, their sizes as even as can be, the larger first (7 at tables of 4
    down to 3: 4 and 3; 10: 4, 3, 3).  The players left over are ``count - sum(sizes)``."""
    smallest = size if smallest is None else max(MIN_SIZE, min(smallest, size))
    for seated in range(count, smallest - 1, -1):
        tables = -(-seated // size)
        if tables * smallest <= seated:
            base, extra = divmod(seated, tables)
            return [base + 1] * extra + [base] * (tables - extra)
    return []


def check_size(size: int) -> None:
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise PairingError(f"a game has {MIN_SIZE} to {MAX_SIZE} players, not {size}")


# --------------------------------------------------------------------------- history


def met_pairs(groups: Iterable[Sequence[str]]) -> Counter[frozenset[str]]:
    """How many times each pair of players has met in ``groups`` (past games)."""
    met: Counter[frozenset[str]] = Counter()
    for group in groups:
        for a, b in itertools.combinations(group, 2):
            met[frozenset((a, b))] += 1
    return met


def repeats(groups: Iterable[Sequence[str]], history: Iterable[Sequence[str]]) -> int:
    """How many pairs inside ``groups`` already met in ``history``."""
    met = met_pairs(history)
    return sum(1 for g in groups for a, b in itertools.combinations(g, 2) if met[frozenset((a, b))])


@dataclass(frozen=True)
class Round:
    """One round's games (each a tuple of players, best-placed first) and who has a bye."""

    groups: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...] = ()

    @property
    def players(self) -> list[str]:
        return [p for g in self.groups for p in g] + list(self.byes)


def search_groups(
    ordered: Sequence[str],
    size: int,
    met: Counter[frozenset[str]],
    budget: int,
    sizes: Sequence[int] | None = None,
) -> list[tuple[str, ...]] | None:
    """Groups of ``size`` (or of ``sizes``, in order) with no pair that has met, nearest by order
    first; None when there is none or the search ran past ``budget`` steps (a depth-first search
    kept on an explicit stack, so a field of thousands does not run into Python's recursion
    limit)."""
    steps = 0
    wanted = list(sizes) if sizes is not None else [size] * (len(ordered) // size)

    def options(left: list[str]):
        """Every fresh group holding ``left[0]``, nearest members first."""
        want = wanted[len(chosen)]  # the size of the table being filled

        def grow(group: tuple[str, ...], start: int):
            nonlocal steps
            if len(group) == want:
                yield group
                return
            need = want - len(group)
            for i in range(start, len(left) - need + 1):
                steps += 1
                candidate = left[i]
                if all(not met[frozenset((candidate, b))] for b in group):
                    yield from grow((*group, candidate), i + 1)

        return grow((left[0],), 1)

    lefts = [list(ordered)]
    if not lefts[0]:
        return []
    chosen: list[tuple[str, ...]] = []
    stack = [options(lefts[0])]
    while stack:
        if steps > budget:
            return None
        group = next(stack[-1], None)
        if group is None:
            stack.pop()
            lefts.pop()
            if chosen:
                chosen.pop()
            continue
        taken = set(group)
        left = [p for p in lefts[-1] if p not in taken]
        chosen.append(group)
        if not left:
            return chosen
        lefts.append(left)
        stack.append(options(left))
    return None


def greedy_groups(
    ordered: Sequence[str], size: int, met: Counter[frozenset[str]], sizes: Sequence[int] | None = None
) -> list[list[str]]:
    """Groups filled in order (of ``size``, or of ``sizes`` in order), each new member the nearest
    with the fewest earlier meetings."""
    left = list(ordered)
    wanted = list(sizes) if sizes is not None else [size] * (len(ordered) // size)
    groups = []
    for want in wanted:
        group = [left.pop(0)]
        while len(group) < want:
            window = left[: 4 * size]
            best = min(window, key=lambda p: sum(met[frozenset((p, q))] for q in group))
            left.remove(best)
            group.append(best)
        groups.append(group)
    return groups


def improve(groups: list[list[str]], met: Counter[frozenset[str]], rounds: int = 20) -> list[list[str]]:
    """Swap players between groups while a swap lowers the repeat meetings."""

    def cost(group: list[str]) -> int:
        return sum(met[frozenset((a, b))] for a, b in itertools.combinations(group, 2))

    for _ in range(rounds):
        better = False
        for gi, g in enumerate(groups):
            if not cost(g):
                continue
            for hi, h in enumerate(groups):
                if hi == gi:
                    continue
                for i, j in itertools.product(range(len(g)), range(len(h))):
                    ng = [*g[:i], h[j], *g[i + 1 :]]
                    nh = [*h[:j], g[i], *h[j + 1 :]]
                    if cost(ng) + cost(nh) < cost(g) + cost(h):
                        groups[gi], groups[hi] = g, h = ng, nh
                        better = True
                        break
                if not cost(g):
                    break
        if not better:
            break
    return groups


@dataclass(frozen=True)
class GameResult:
    """One finished league game: the round and each player's place (1 is best); ``seats`` lists
    the players in seat order (first player first) when known, else the order of ``places``
    is the seat order.  ``played`` is False for a forfeit never played (no table was opened for
    it): it scores, but its players did not meet (as FIDE's Swiss rules hold of a game lost by
    forfeit, it is not a game played: they may be paired again), and nobody sat in its seats, so
    it counts in nobody's seat balance (nor, in two-player games, colour history; for floats,
    each of its players is one who did not play the round: :func:`bot.league.dutch.season_record`);
    the tiebreaks count it as FIDE counts an unplayed round (:mod:`bot.league.tiebreaks`)."""

    round: int
    places: Mapping[str, int]
    seats: tuple[str, ...] = ()
    played: bool = True

    @property
    def seating(self) -> tuple[str, ...]:
        return self.seats or tuple(self.places)


@dataclass
class Row:
    """A player's line of the standings: ``games`` counts the games played (their table opened),
    ``unplayed`` the games scored but never played (a forfeit whose table never opened), whose
    points are in ``points`` all the same."""

    player: str
    points: float = 0.0
    games: int = 0
    unplayed: int = 0
    wins: int = 0
    byes: int = 0
    buchholz: float = 0.0
    head_to_head: float = 0.0
    rating: float = 0.0
    rank: int = 0
    tiebreaks: dict[str, float] = field(default_factory=dict)

"""The queue's matcher: which tables can be formed from the people waiting.  Pure: no Discord, no
storage, no clock; the same waiting list and gate always give the same tables.

Each person waits with a :class:`Want`: one game and its options (people waiting for other
options of a game never sit together), the player counts they accept (computer seats
count as players), the pace (``live``, ``daily`` or ``any``), how many computer seats they allow,
rated or unrated (or ``any``), and the people they avoid.  A table is a set of people who all
accept its size, whose paces and rated choices agree (``any`` agrees with both), of whom nobody
avoids anybody else at it (either way), each admitted by the gate, at least two of them, and
with no more computer seats than the least any of them allows.

:func:`form` takes the waiting people longest-waiting first.  The longest waiting person not yet
seated anchors a table: for each size they accept, the others who accept it join in the order
they came (each agreeing with those already taken) until it is full, computers filling what is
left if everyone there allows that many.  Of those choices the one seating the most people is
formed (then the fewest computer seats, then the smaller table); when none is a table, the anchor
waits and the next person anchors.  A table forms as soon as it can: someone who wants four
players says so in their player counts, not by waiting.

When those taken in order do not fill a size, the first full table of that size with the anchor
is searched for among the others (:func:`full`): someone who came early and wants another pace,
or avoids the rest, does not keep the anchor from a table that others who agree would fill.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

PACES = ("live", "daily", "any")
RATED = ("rated", "unrated", "any")
MAX_AVOID = 25
"""The most people one person may avoid."""
ANY = "any"


@dataclass(frozen=True)
class Want:
    """One person waiting: what they accept, and their place (``since``, then ``order``)."""

    user_id: int
    game: str
    counts: frozenset[int]
    pace: str = ANY
    computers: int = 0
    rated: str = ANY
    avoid: frozenset[int] = frozenset()
    since: float = 0.0
    order: int = 0
    options: str = "{}"  # the game's options waited for (JSON of those that differ from the defaults)

    @property
    def place(self) -> tuple[float, int]:
        return (self.since, self.order)


@dataclass(frozen=True)
class Table:
    """A table the matcher formed: its people (longest waiting first), its size (people plus
    computers), and the pace and rated choice it is played at (``any`` only when all said so)."""

    game: str
    people: tuple[Want, ...]
    size: int
    pace: str
    rated: str
    options: str = "{}"

    @property
    def computers(self) -> int:
        return self.size - len(self.people)

    @property
    def user_ids(self) -> tuple[int, ...]:
        return tuple(w.user_id for w in self.people)


def agree(a: str, b: str) -> str | None:
    """The choice two choices agree on (``any`` gives way), or None when they do not."""
    if a == ANY:
        return b
    if b == ANY or a == b:
        return a
    return None


def avoids(a: Want, b: Want) -> bool:
    """Whether either of the two avoids the other."""
    return b.user_id in a.avoid or a.user_id in b.avoid


def form(waiting: Iterable[Want], admissible: Callable[[Want], bool] = lambda w: True) -> list[Table]:
    """The tables to form now from ``waiting`` (see the module's docstring); each person is at one
    table at most, and those left out stay waiting.  ``admissible``: the gate (a person it refuses
    is never seated)."""
    queue = sorted((w for w in waiting if w.counts and admissible(w)), key=lambda w: w.place)
    seated: set[int] = set()
    tables: list[Table] = []
    for i, anchor in enumerate(queue):
        if anchor.user_id in seated:
            continue
        others = [
            w
            for w in queue[i + 1 :]
            if w.user_id not in seated and w.game == anchor.game and w.options == anchor.options
        ]
        best: tuple[int, int, int] | None = None  # (people, -computers, -size) of the best choice
        chosen: tuple[Want, ...] = ()
        for size in sorted(anchor.counts):
            group = fill(anchor, others, size)
            if group is None:
                continue
            key = (len(group), len(group) - size, -size)
            if best is None or key > best:
                best, chosen = key, group
        if best is not None:
            tables.append(
                Table(
                    anchor.game,
                    chosen,
                    -best[2],
                    _common(chosen, "pace"),
                    _common(chosen, "rated"),
                    anchor.options,
                )
            )
            seated.update(w.user_id for w in chosen)
    return tables


def fill(anchor: Want, others: Sequence[Want], size: int) -> tuple[Want, ...] | None:
    """The people who sit with ``anchor`` at a table of ``size``: those of ``others`` (in the order
    they came) who accept that size and agree with everyone taken so far, until the table is full
    (when they do not fill it: the first full table :func:`full` finds, if any); then the longest
    prefix that needs no more computer seats than its people allow.  None when no prefix of two or
    more does."""
    group = [anchor]
    pace, rated = anchor.pace, anchor.rated
    for other in others:
        if len(group) == size:
            break
        if size not in other.counts or any(avoids(other, g) or other.user_id == g.user_id for g in group):
            continue
        p, r = agree(pace, other.pace), agree(rated, other.rated)
        if p is None or r is None:
            continue
        group.append(other)
        pace, rated = p, r
    if len(group) < size:
        group = list(full(anchor, others, size) or group)
    for k in range(len(group), 1, -1):
        if size - k <= min(w.computers for w in group[:k]):
            return tuple(group[:k])
    return None


SEARCH_STEPS = 500
"""How many partial tables :func:`full` extends at most for one anchor and size (a queue where
nearly everyone avoids everyone else could make the search long)."""


def full(anchor: Want, others: Sequence[Want], size: int) -> tuple[Want, ...] | None:
    """The first table of ``size`` people with ``anchor`` (the others taken in the order they came,
    each agreeing with everyone taken), or None when there is none (or the search ran too long)."""
    pool = [
        w
        for w in others
        if size in w.counts
        and w.user_id != anchor.user_id
        and not avoids(w, anchor)
        and agree(anchor.pace, w.pace) is not None
        and agree(anchor.rated, w.rated) is not None
    ]
    steps = 0

    def extend(group: tuple[Want, ...], pace: str, rated: str, start: int) -> tuple[Want, ...] | None:
        nonlocal steps
        if len(group) == size:
            return group
        steps += 1
        if steps > SEARCH_STEPS:
            return None
        fits = [
            i
            for i in range(start, len(pool))
            if agree(pace, pool[i].pace) is not None
            and agree(rated, pool[i].rated) is not None
            and not any(avoids(pool[i], g) or pool[i].user_id == g.user_id for g in group)
        ]
        need = size - len(group)
        for i in fits[: len(fits) - need + 1]:
            w = pool[i]
            found = extend((*group, w), agree(pace, w.pace) or pace, agree(rated, w.rated) or rated, i + 1)
            if found is not None:
                return found
        return None

    return extend((anchor,), anchor.pace, anchor.rated, 0)


def _common(people: Sequence[Want], what: str) -> str:
    choice = ANY
    for w in people:
        choice = agree(choice, getattr(w, what)) or choice
    return choice


def can_sit(table: Table, admissible: Callable[[Want], bool] = lambda w: True) -> list[str]:
    """What is wrong with ``table`` (empty when nothing): the checks :func:`form` keeps, stated
    on their own so that tests can hold any table to them."""
    wrong: list[str] = []
    people = table.people
    if len(people) < 2:
        wrong.append("fewer than two people")
    if len({w.user_id for w in people}) != len(people):
        wrong.append("a person seated twice")
    for w in people:
        if w.game != table.game:
            wrong.append(f"{w.user_id} waits for another game")
        if w.options != table.options:
            wrong.append(f"{w.user_id} waits for other options")
        if table.size not in w.counts:
            wrong.append(f"{w.user_id} does not accept a table of {table.size}")
        if table.computers > w.computers:
            wrong.append(f"{w.user_id} allows {w.computers} computer seats, not {table.computers}")
        if agree(w.pace, table.pace) != table.pace:
            wrong.append(f"{w.user_id} wants another pace")
        if agree(w.rated, table.rated) != table.rated:
            wrong.append(f"{w.user_id} wants another rated choice")
        if not admissible(w):
            wrong.append(f"{w.user_id} is refused by the gate")
        for other in people:
            if other is not w and avoids(w, other):
                wrong.append(f"{w.user_id} and {other.user_id} avoid each other")
    if table.computers < 0:
        wrong.append("more people than seats")
    return wrong

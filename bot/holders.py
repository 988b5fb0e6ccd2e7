"""Who held a seat at a move of its game's log.

A league seat may be handed to a substitute in the middle of a game (``league_substitutions``):
the moves up to the handover were its earlier holder's, the later ones the substitute's.  Every
place that names the person behind a past move (``/game log``, ``/game history``, the export,
the web page, the profiles' turns) asks this module, so that none of them credits a substitute
with the moves made before the seat was theirs.  A seat never handed over is its holder's now.

Pure code: no storage calls, no Discord.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.storage.profiles import Holder


def holder_at(earlier: Iterable[Holder], seat: int, number: int) -> tuple[Holder | None, float | None]:
    """Whose seat ``seat`` was at move ``number`` (0: before the first move): the earlier holder
    (``None``: the seat's holder now), and when the seat became theirs (``None``: from the start)."""
    came: float | None = None
    for held in sorted((h for h in earlier if h.seat == seat), key=lambda h: h.until):
        if number <= held.until:
            return held, came
        came = held.at
    return None, came


def names_at(names: Sequence[str], earlier: Sequence[Holder], number: int | None) -> list[str]:
    """The seats' names as they were at move ``number``: ``names`` (the seats' names now) with
    each seat held by someone else then named after them (``number`` None: a move not yet in the
    log, so the seats' holders now)."""
    if number is None or not earlier:
        return list(names)
    out = list(names)
    for seat in range(len(out)):
        held, _ = holder_at(earlier, seat, number)
        if held is not None and held.name:
            out[seat] = held.name
    return out

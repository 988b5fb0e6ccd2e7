"""When computer players act: the one pacing rule, for the table and the terminal.

When people and computers act at once (a simultaneous round), each computer
makes one move per move a person makes, so it keeps the people's pace rather
than the processor's; otherwise computers act whenever it is their turn, and
several computers acting at once with no person (everyone else has finished the
round) take turns, one move each, so that no seat plays its whole round first.
"""

from __future__ import annotations

from engines.core import Engine


def next_computer(module: Engine, state: object, computers: set[int], paced: set[int]) -> int | None:
    """The computer seat that moves next, or ``None`` when the computers wait for a person.

    ``paced`` collects the computers that already moved since the last person's
    move; start it empty after each move a person makes.
    """
    acting: set[int] = set(module.to_move(state))
    due = sorted(acting & computers)
    people_acting = bool(acting - computers)
    together = len(due) > 1  # computers alone at once: each moves once before any moves again
    if people_acting:
        due = [s for s in due if s not in paced]
    elif together:
        fresh = [s for s in due if s not in paced]
        if not fresh:
            paced.difference_update(due)
        due = fresh or due
    if not due:
        return None
    seat = due[0]
    if people_acting or together:
        paced.add(seat)
    return seat

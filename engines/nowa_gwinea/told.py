"""A Nowa Gwinea round's end told in short lines, from its events (:data:`Told`).

The huts built are told privately (the channel hears of them only as a village at the round's
end).  What the channel reads is laid out one idea a line: who called Gwinea or finished
building, and whom that cut off ("{p0} calls Gwinea! Round 3 ends. {p1} was still building
..."); the round's scores (each player's points: how each village scored stays in the history); the
next round (its board and the die); the end of the game.

Imports :mod:`engines.core` only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engines.core import Said, Told, listing, said_n, told_lines

_FIRST_LINE = frozenset({"done", "gwinea", "cut_off", "deadline", "place", "remove"})
"""What a player did and how the round ended, on one line; the scores, the next round and the
end each on a line of their own."""


def _line(kind: str, sentence: Said) -> int | None:
    return 0 if kind in _FIRST_LINE else None


def tell_turn(told: Sequence[Told]) -> list[list[Said]]:
    """The lines of one seat's part of a round, each a list of sentences; those a call cut off,
    in one sentence."""
    cut = [s for kind, s in told if kind == "cut_off"]
    if len(cut) > 1:
        together = said_n(
            len(cut),
            "{players} was still building when {p1} called: their village scores as it stands.",
            "{players} were still building when {p1} called: their villages score as they stand.",
            players=listing([s.args.get("p0", "") for s in cut]),
            p1=cut[0].args.get("p1", ""),
        )
        at = next(i for i, (kind, _) in enumerate(told) if kind == "cut_off")
        told = [*told[:at], ("cut_off", together), *((k, s) for k, s in told[at:] if k != "cut_off")]
    told = [(kind, _scores(s) if kind == "score" else s) for kind, s in told]
    return told_lines(told, lambda kind, sentence: None, _line)


def _scores(sentence: Said) -> Said:
    """The round's scores, each player's points only ("Round 3 scores: Alice 8 points; Bob 5
    points"); how each village scored (water holes, fruit bushes, the bonus) stays in the history."""
    scores = sentence.args.get("scores")
    if not isinstance(scores, Said):
        return sentence
    parts: dict[str, Any] = {}
    for key, part in scores.args.items():
        if isinstance(part, Said) and part.plural is not None and "p0" in part.args:
            part = said_n(
                int(part.args["n"]), "{player} {n} point", "{player} {n} points", player=part.args["p0"]
            )
        parts[key] = part
    return Said(
        sentence.msg, {**sentence.args, "scores": Said(scores.msg, parts)}, sentence.plural, sentence.context
    )

"""A Tiwanaku turn told the way a player would tell it, from its events (:data:`Told`).

What the player did is told naming them once: the offerings and trades on one line ("{player}
trades two swamp cubes for a desert cube"), the action on the next ("Moves from A4 to C4,
discovers forest and takes a forest cube"; "Divines crop 3 on B1 (3 points + 2 for diversity)
and crop 4 on C2 (4 points + 1 for diversity) correctly and stops divining"); the start
of the final divinations, the points for cubes left over and the end of the game each get a
line of their own.  The history keeps every step as the game said it.

Imports :mod:`engines.core` only.
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.core import N_, Said, Told, listing, said, said_n, told_lines

_CLAUSES: dict[str, str] = {
    "{player} enters on {cell}": N_("enters on {cell}"),
    "{player} moves from {src} to {cell}": N_("moves from {src} to {cell}"),
    "{player} enters on {cell} and discovers {terrain} and takes a {terrain} cube": N_(
        "enters on {cell}, discovers {terrain} and takes a {terrain} cube"
    ),
    "{player} moves from {src} to {cell} and discovers {terrain} and takes a {terrain} cube": N_(
        "moves from {src} to {cell}, discovers {terrain} and takes a {terrain} cube"
    ),
    "{player} takes the explorer on {cell} off the board": N_("takes the explorer on {cell} off the board"),
    "{player} stops divining": N_("stops divining"),
    "{player} passes and leaves the final divinations": N_("passes and leaves the final divinations"),
    "{player} trades {give} for a {terrain} cube": N_("trades {give} for a {terrain} cube"),
    "{player} makes an offering to Pachamama for an extra action": N_(
        "makes an offering to Pachamama for an extra action"
    ),
    "{player} makes an offering to Pachamama and looks at the disc in secret": N_(
        "makes an offering to Pachamama and looks at the disc in secret"
    ),
    "{player} makes an offering and sees crop {crop} under {cell} on the disc": N_(
        "makes an offering and sees crop {crop} under {cell} on the disc"
    ),
    "{player} makes an offering and sees {terrain} under {cell} on the disc": N_(
        "makes an offering and sees {terrain} under {cell} on the disc"
    ),
}
"""Each of the player's own sentences, as a clause without its subject."""


def _counted(sentence: Said) -> Said | None:
    """The counted sentences as clauses (each language has its plural forms)."""
    args = {k: v for k, v in sentence.args.items() if k not in ("player", "n")}
    n = int(sentence.args.get("n", 0))
    if sentence.msg.startswith("{player} divines crop"):
        return said_n(
            n,
            "divines crop {n} on {cell} correctly: {n} point and {bonus} for diversity",
            "divines crop {n} on {cell} correctly: {n} points and {bonus} for diversity",
            **args,
        )
    if sentence.msg.startswith("{player} guesses"):
        return said_n(
            n,
            "guesses {guess} on {cell} but the disc shows {n}: the {n} is planted and they lose {n} point",
            "guesses {guess} on {cell} but the disc shows {n}: the {n} is planted and they lose {n} points",
            **args,
        )
    if sentence.msg.startswith("{player} enters on {cell} and discovers {terrain}; already"):
        return said_n(
            n,
            "enters on {cell} and discovers {terrain}; already holding {n} cube, the {terrain} cube is not taken",
            "enters on {cell} and discovers {terrain}; already holding {n} cubes, the {terrain} cube is not "
            "taken",
            **args,
        )
    if sentence.msg.startswith("{player} moves from {src} to {cell} and discovers {terrain}; already"):
        return said_n(
            n,
            "moves from {src} to {cell} and discovers {terrain}; already holding {n} cube, the {terrain} cube "
            "is not taken",
            "moves from {src} to {cell} and discovers {terrain}; already holding {n} cubes, the {terrain} "
            "cube is not taken",
            **args,
        )
    return None


def _clause(kind: str, sentence: Said) -> Said | None:
    if sentence.msg in _CLAUSES:
        args = {k: v for k, v in sentence.args.items() if k != "player"}
        return Said(_CLAUSES[sentence.msg], args)
    return _counted(sentence) if sentence.plural is not None else None


def _line(kind: str, sentence: Said) -> int | None:
    """The offerings and trades on one line, the action (a move, the divinations) on the next;
    the final divinations' start, the points for cubes left over and the end, each on a line of
    its own."""
    if _clause(kind, sentence) is None:
        return None
    return 0 if kind in ("cubes", "offering", "peek") else 1


_DIVINED = "divines crop {n} on {cell} correctly: {n} point and {bonus} for diversity"


def _crop(divined: Said, *, alone: bool) -> Said:
    """A right guess (a :data:`_DIVINED` clause) as a line's one divination with more after it
    (``alone``), or as one of a run of them."""
    n, cell, bonus = int(divined.args["n"]), divined.args["cell"], divined.args["bonus"]
    if alone:
        return said_n(
            n,
            "divines crop {n} on {cell} correctly ({n} point + {bonus} for diversity)",
            "divines crop {n} on {cell} correctly ({n} points + {bonus} for diversity)",
            cell=cell,
            bonus=bonus,
        )
    return said_n(
        n,
        "crop {n} on {cell} ({n} point + {bonus} for diversity)",
        "crop {n} on {cell} ({n} points + {bonus} for diversity)",
        cell=cell,
        bonus=bonus,
    )


def _merged(clauses: list[Said]) -> list[Said]:
    """Divinations in a row, one clause: "divines crop 4 on C4 (4 points + 1 for diversity) and
    crop 3 on E2 (3 points + 2 for diversity) correctly"; one alone too when more follows it
    ("divines crop 2 on A5 correctly (2 points + 1 for diversity) and stops divining", where its
    own form would read the stop as one more of its points); one that ends the line keeps its
    own ("divines crop 2 on A5 correctly: 2 points and 1 for diversity")."""
    out: list[Said] = []
    run: list[Said] = []
    for clause in [*clauses, None]:
        if clause is not None and clause.msg == _DIVINED:
            run.append(clause)
            continue
        if len(run) == 1 and clause is None:
            out.append(run[0])
        elif len(run) == 1:
            out.append(_crop(run[0], alone=True))
        elif run:
            out.append(said("divines {crops} correctly", crops=listing([_crop(c, alone=False) for c in run])))
        run = []
        if clause is not None:
            out.append(clause)
    return out


def tell_turn(told: Sequence[Told]) -> list[list[Said]]:
    """The lines of one seat's turn, each a list of sentences.

    A run that discovers the last space and goes on into the final divinations (the discoverer
    divines first) is told in two parts, so that what was done in the final round comes after
    the line announcing it."""
    start = next((i for i, (kind, _) in enumerate(told) if kind == "final"), None)
    if start is not None and start + 1 < len(told):
        return _tell(told[: start + 1]) + _tell(told[start + 1 :])
    return _tell(told)


def _tell(told: Sequence[Told]) -> list[list[Said]]:
    lines = told_lines(told, _clause, _line, merge=_merged)
    scores = [line[0] for line in lines if line[0].msg.startswith("{player} scores {n} point")]
    if scores:  # the points for cubes left over, everyone's in one sentence on one line
        first = next(i for i, line in enumerate(lines) if line[0] is scores[0])
        lines = [line for line in lines if line[0] not in scores]
        each = [
            said_n(int(s.args["n"]), "{player} {n} point", "{player} {n} points", player=s.args["player"])
            for s in scores
        ]
        lines.insert(first, [said("Points for the offering cubes left over: {scores}", scores=listing(each))])
    return lines

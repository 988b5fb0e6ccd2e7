"""Nowa Gwinea's moves in words: the one place that describes them.

Huts are offered hut by hut (one menu per hut, where it may go), a
placement shown by the squares it covers, which the private picture's
coordinates make easy to find; when they would not fit in one message the
menu offers the huts first, then where.  ``WORDS`` holds every English text by
message id; :func:`move_words` describes one legal move.

:func:`describe` gives the whole position a view shows in words, as sections of
short lines a screen reader walks.  Public first: the round, the boards left in the stack and the scores, each
task board in play (the rolled totem and its square, the other totems, the water
holes and the fruit bushes), the villages' hut counts, and the last finished round
with every village revealed (each hut with the squares it covers).  Then, for a seat still building, its own village:
each hut with the squares it covers, the water and fruit it covers, what is left.
Squares are named as the move notation names them (``C4``: row letter, column
number).
"""

from __future__ import annotations

from engines.core import N_, UNKNOWN, Kind, Level, MoveWords, Said, Section, said, said_n

from .data import ANIMAL_TERMS, FRUIT_BONUS
from .geometry import PIECES, Placement, cell_name, cell_of, placement, placement_from_text, village_problems
from .rules import BoardInfo, Done, Gwinea, Move, Place, Remove, State, Timeout, View, board_info

KINDS: tuple[Kind, ...] = (
    Kind("build"),
    Kind("remove"),
    Kind("gwinea", ends_turn=True),
    Kind("done", ends_turn=True),
    Kind("timeout"),
)

WORDS: dict[str, str] = {
    "option.side.standard": N_("standard side (A) of the task boards"),
    "option.side.hard": N_("hard side (B) of the task boards"),
    "option.hard_seats": N_("seats on the hard side: {value}"),
    "option.boards.shared": N_("the same board for everyone"),
    "option.boards.each": N_("one board each"),
    "option.water_target.1": N_("Gwinea with 1 water hole"),
    "option.water_target": N_("Gwinea with {value} water holes"),
    "option.fruit_for_all.True": N_(
        "fruit for all: 2 per fruit bush for whoever neither calls nor covers the water holes needed"
    ),
    "option.fruit_for_all.False": N_("no fruit for all"),
    "option.hard_reroll.True": N_("hard tasks rerolled until all 5 water holes need 6 huts"),
    "option.hard_reroll.False": N_("hard tasks not rerolled"),
    "kind.build": N_("Build a hut"),
    "kind.remove": N_("Take a hut back"),
    "kind.gwinea": N_("Call Gwinea!"),
    "kind.done": N_("Done building"),
    "kind.timeout": N_("End the round"),
    "group.build": N_("Hut {hut}"),
    "region.build": N_("highest square in row {row}"),
    "move.place": N_("on {cells}"),
    "move.remove": N_("take hut {hut} back"),
    "move.gwinea": N_("call Gwinea! (end the round)"),
    "move.done": N_("done building this round"),
    "move.timeout": N_("end the round (time is up)"),
}


def move_words(state: State, seat: int, move: Move) -> MoveWords:
    """``move`` (legal for ``seat`` in ``state``) in words."""
    if isinstance(move, Place):
        found = placement(move.piece, move.orient, move.anchor)
        names = [cell_name(c) for c in found.cells] if found is not None else [cell_name(move.anchor)]
        row = min(names)[0]  # the squares are named row letter first: the highest row comes first
        return MoveWords(
            "build",
            "move.place",
            {"hut": move.piece, "cells": " ".join(names) if found is not None else str(move)},
            group=move.piece,
            group_args={"hut": move.piece},
            regions=(Level(row, "region.build", {"row": row}),),
        )
    if isinstance(move, Remove):
        return MoveWords("remove", "move.remove", {"hut": move.piece})
    if isinstance(move, Gwinea):
        return MoveWords("gwinea", "move.gwinea")
    if isinstance(move, Done):
        return MoveWords("done", "move.done")
    if isinstance(move, Timeout):
        return MoveWords("timeout", "move.timeout")
    raise TypeError(f"not a Nowa Gwinea move: {move!r}")


# --------------------------------------------------------------------------- the board in words


def _seat(seat: int) -> str:
    """A seat as sentences write it (the table puts the name in)."""
    return f"{{p{seat}}}"


def _names(cells: tuple[str, ...] | list[str]) -> str:
    """Squares in reading order (row A first, then by column), as the notation names them."""
    return " ".join(sorted(cells, key=cell_of))


def _covers(hut: Placement) -> str:
    """The squares a hut covers, in reading order."""
    return _names([cell_name(c) for c in hut.cells])


def describe(view: View, *, ended: bool = False) -> list[Section]:
    """The position ``view`` shows, in words (see the module's help).  ``ended``: the table ended
    the game before its rules did (a resignation, a forfeit, an abandon), so nobody builds on."""
    sections = [_round(view, ended)]
    if not view.over:
        sections += _tasks(view)
        sections.append(_villages(view, ended))
    if view.last_round:
        sections.append(_last_round(view.last_round))
    mine = _own(view)
    if mine is not None:
        sections.append(mine)
    return sections


def _round(view: View, ended: bool) -> Section:
    if view.over:
        heading = said_n(view.rounds, "The game is over after {n} round", "The game is over after {n} rounds")
    elif ended:
        heading = said(
            "Round {round} of {rounds}, where the game ended", round=view.round, rounds=view.rounds
        )
    else:
        heading = said(
            "Round {round} of {rounds}: everyone builds at once", round=view.round, rounds=view.rounds
        )
    lines: list[Said] = []
    if not view.over:
        if not ended:  # nobody may call it any more
            lines.append(
                said_n(
                    view.water_target,
                    "Gwinea may be called by a legal village covering {n} water hole",
                    "Gwinea may be called by a legal village covering {n} water holes",
                )
            )
        lines.append(said("Boards left in the stack: {n}", n=view.stack_left))  # as the picture
    best = max(view.scores)
    for seat, score in enumerate(view.scores):
        if view.over and score == best:
            lines.append(said_n(score, "{p0}: {n} point, wins", "{p0}: {n} points, wins", p0=_seat(seat)))
        else:
            lines.append(said_n(score, "{p0}: {n} point", "{p0}: {n} points", p0=_seat(seat)))
    return Section(heading, tuple(lines))


def _tasks(view: View) -> list[Section]:
    groups: dict[tuple[int, str], list[int]] = {}
    for seat, info in enumerate(view.boards):
        groups.setdefault((info.board, info.side), []).append(seat)
    if view.seat is not None and 0 <= view.seat < len(view.boards):  # one's own board first
        own = view.boards[view.seat]
        groups = {(own.board, own.side): groups[(own.board, own.side)]} | groups
    out = []
    for seats in groups.values():
        info = view.boards[seats[0]]
        shared = len(groups) == 1
        out.append(Section(_task_heading(info, None if shared else seats), _task_lines(info, view.totem)))
    return out


def _task_heading(info: BoardInfo, seats: list[int] | None) -> Said:
    if seats is None:
        if info.side == "B":
            return said("The task: board {board}, hard side (B)", board=info.board)
        return said("The task: board {board}, standard side (A)", board=info.board)
    who = ", ".join(_seat(s) for s in seats)
    if info.side == "B":
        return said("The task of {seats}: board {board}, hard side (B)", seats=who, board=info.board)
    return said("The task of {seats}: board {board}, standard side (A)", seats=who, board=info.board)


def _task_lines(info: BoardInfo, totem: int) -> tuple[Said, ...]:
    lines = [
        said(
            "The die shows the {animal}: the village starts on its totem, {cell}",
            animal=ANIMAL_TERMS[totem],
            cell=info.totems[totem],
        )
    ]
    for k, cell in enumerate(info.totems):
        if k != totem:
            lines.append(
                said("Totem of the {animal}: {cell}, not to be covered", animal=ANIMAL_TERMS[k], cell=cell)
            )
    lines.append(
        said_n(len(info.water), "Water hole: {cells}", "Water holes: {cells}", cells=_names(info.water))
    )
    lines.append(
        said_n(len(info.fruit), "Fruit bush: {cells}", "Fruit bushes: {cells}", cells=_names(info.fruit))
    )
    return tuple(lines)


def _villages(view: View, ended: bool) -> Section:
    lines = []
    for seat, huts in enumerate(view.huts):
        values = {"p0": _seat(seat), "huts": said_n(huts, "{n} hut built", "{n} huts built")}
        if ended:  # nobody builds on
            lines.append(said("{p0}: {huts}", **values))
        elif view.done[seat]:
            lines.append(said("{p0}: {huts}, finished building", **values))
        else:
            lines.append(said("{p0}: {huts}, still building", **values))
    if ended:
        return Section(said("Villages, hidden: the game ended before the round did"), tuple(lines))
    return Section(said("Villages, hidden until the round ends"), tuple(lines))


def _last_round(last: dict) -> Section:
    heading = said("Round {round} ended: every village revealed", round=last["round"])
    caller = last.get("caller")
    if last.get("how") == "gwinea" and caller is not None:
        lines = [said("{p0} called Gwinea", p0=_seat(caller))]
    elif caller is not None:
        lines = [said("Nobody called Gwinea; the fruit bonus went to {p0}", p0=_seat(caller))]
    else:
        lines = [said("Nobody called Gwinea, and nobody got the fruit bonus")]
    for seat, row in enumerate(last["rows"]):
        village = list(last["villages"][seat])
        values = {
            "p0": _seat(seat),
            "water": said_n(row["water"], "{n} water hole", "{n} water holes"),
            "fruit": said_n(row["fruit"], "{n} fruit bush", "{n} fruit bushes"),
            "huts": " ".join(village),
        }
        if not village:
            lines.append(
                said_n(row["points"], "{p0}: {n} point, no huts", "{p0}: {n} points, no huts", p0=_seat(seat))
            )
            continue
        info = board_info(last["boards"][seat], last["sides"][seat])
        huts = [placement_from_text(t) for t in village]
        problem = _problem(info, last["totem"], huts)
        if problem is not None:
            lines.append(
                said_n(
                    row["points"],
                    "{p0}: {n} point, the village breaks the rules ({problem}): {huts}",
                    "{p0}: {n} points, the village breaks the rules ({problem}): {huts}",
                    p0=_seat(seat),
                    problem=problem,
                    huts=values["huts"],
                )
            )
        else:
            lines.append(
                said_n(
                    row["points"],
                    "{p0}: {n} point ({water}, {fruit}): {huts}",
                    "{p0}: {n} points ({water}, {fruit}): {huts}",
                    **values,
                )
            )
        # the squares each hut covers, as the picture shows them and as one's own village says them
        for h in huts:
            hut = {"p0": _seat(seat), "hut": h.piece, "place": h.text, "cells": _covers(h)}
            lines.append(said("{p0}'s hut {hut}: {place} on {cells}", **hut))
    return Section(heading, tuple(lines))


def _problem(info: BoardInfo, totem: int, huts: list[Placement]) -> Said | None:
    others = 0
    for k, name in enumerate(info.totems):
        if k != totem:
            others |= 1 << cell_of(name)
    return village_problems(huts, cell_of(info.totems[totem]), others)


def _own(view: View) -> Section | None:
    """The seat's own village while it is hidden from the others (``None`` for a spectator and
    once the game is over: the last round's villages are public then)."""
    if view.seat is None or view.over or view.villages[view.seat] == UNKNOWN:
        return None
    texts = tuple(view.villages[view.seat])
    info = view.boards[view.seat]
    huts = [placement_from_text(t) for t in texts]
    covered = {cell_name(c) for h in huts for c in h.cells}
    lines: list[Said] = []
    for h in huts:
        lines.append(said("Hut {hut}: {place} on {cells}", hut=h.piece, place=h.text, cells=_covers(h)))
    if not huts:
        lines.append(said("No huts yet: the first hut must cover {cell}", cell=info.totems[view.totem]))
    water = [c for c in info.water if c in covered]
    open_water = [c for c in info.water if c not in covered]
    if water:
        lines.append(
            said(
                "Water holes covered ({water} of {target}): {cells}",
                water=len(water),
                target=view.water_target,
                cells=_names(water),
            )
        )
    else:
        lines.append(said("Water holes covered: none (0 of {target})", target=view.water_target))
    if open_water:
        lines.append(said("Water holes still open: {cells}", cells=_names(open_water)))
    fruit = [c for c in info.fruit if c in covered]
    if fruit:
        bonus = FRUIT_BONUS[min(len(fruit), len(FRUIT_BONUS) - 1)]
        if view.fruit_for_all:  # the variant: 2 per fruit bush for a village short of the water holes
            lines.append(
                said(
                    "Fruit bushes covered: {cells} (caller bonus {bonus}, or {points} if short of the water holes)",
                    cells=_names(fruit),
                    bonus=bonus,
                    points=2 * len(fruit),
                )
            )
        else:
            lines.append(
                said("Fruit bushes covered: {cells} (caller bonus {bonus})", cells=_names(fruit), bonus=bonus)
            )
    else:
        lines.append(said("Fruit bushes covered: none"))
    if view.broken is not None:
        lines.append(said("It breaks a rule: {problem}", problem=view.broken))
    elif view.can_call:
        lines.append(said("You may call 'gwinea'."))
    if view.done[view.seat]:
        lines.append(said("You have finished building this round."))
    used = {h.piece for h in huts}
    left = [p for p in PIECES if p not in used]
    if left:
        lines.append(said("Huts left: {huts}", huts=" ".join(left)))
    return Section(
        said("Your village, hidden from the others until the round ends"), tuple(lines), private=True
    )


__all__ = ["KINDS", "WORDS", "move_words", "describe"]

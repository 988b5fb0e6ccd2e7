"""Tiwanaku's board in words: :func:`describe` reads a view as sections a screen reader walks.

First the turn (whose it is, the phase, what is left to discover) and the scores, then each
player's guesses, cubes, explorers off the board and diversity scales, then the map row by row (every cell named
as the notation names it: its terrain, its crop, the explorer on it, or that it is still
hidden).  A player's own looks at the disc close the list, in a private section that only a
view of that seat holds.
"""

from __future__ import annotations

from engines.core import Said, Section, said, said_n

from .board import cell_name
from .data import MAX_REGION, ROW_LETTERS, TERRAINS
from .rules import ACTION, DIVINING, FINAL, OVER, P, View, commas, cube_words, terrain


def _turn(view: View, ended: bool) -> Section:
    lines: list[Said] = []
    player = P(view.turn)
    if ended and view.phase in (ACTION, DIVINING, FINAL):
        pass  # the table ended the game: nobody is to play (the table says how it ended)
    elif view.phase == ACTION:
        lines.append(
            said_n(
                view.actions_left,
                "{player} to play: {n} action left",
                "{player} to play: {n} actions left",
                player=player,
            )
        )
    elif view.phase == DIVINING and view.may_divine_again:
        lines.append(said("{player} to play: divine again under another explorer, or stop", player=player))
    elif view.phase == DIVINING:
        lines.append(
            said("{player} to play after a right guess: an offering, a trade, or stop", player=player)
        )
    elif view.phase == FINAL:
        lines.append(said("Final divinations: {player} divines under one explorer or passes", player=player))
    else:  # as the picture's header says it: the round the final divinations ended in
        lines.append(said("The game is over: it ended in round {round}", round=view.round))
    if view.phase != OVER:
        lines.append(said("Round {round}", round=view.round))
    if view.phase in (ACTION, DIVINING):  # from the final divinations on, all the land is found
        lines.append(said_n(view.empty_left, "{n} hidden space left", "{n} hidden spaces left"))
    if view.last is not None and view.last_seat >= 0:
        if view.last.lower().startswith("peek"):  # where a player looked stays theirs (a private part)
            lines.append(said("Last move: {player} looked at the disc in secret", player=P(view.last_seat)))
        else:
            lines.append(said("Last move: {player} played {move}", player=P(view.last_seat), move=view.last))
    if view.last_cells:  # the spaces the picture frames as changed by the latest turn
        places = " ".join(dict.fromkeys(cell_name(c, view.cols) for c in view.last_cells))
        lines.append(said("Framed on the board as changed by the latest turn: {places}", places=places))
    if view.phase == OVER and view.players > 1:
        lines.extend(_places(view))  # each place with its points: the scores once, in their order
    else:
        lines.extend(
            said_n(view.scores[seat], "{player}: {n} point", "{player}: {n} points", player=P(seat))
            for seat in range(view.players)
        )
    return Section(said("Turn and scores"), tuple(lines))


def _places(view: View) -> list[Said]:
    """The final places, as the picture ranks them: by score, then by right guesses; seats equal
    in both share a place, and the next place counts them (1, 1, 3)."""
    key = {seat: (view.scores[seat], view.correct[seat]) for seat in range(view.players)}
    order = sorted(range(view.players), key=lambda seat: key[seat], reverse=True)
    out: list[Said] = []
    for i, seat in enumerate(order):
        place = next(j for j in range(i + 1) if key[order[j]] == key[seat]) + 1
        out.append(
            said_n(
                view.scores[seat],
                "Place {place}: {player}, {n} point",
                "Place {place}: {player}, {n} points",
                place=place,
                player=P(seat),
            )
        )
    return out


def _players(view: View) -> Section:
    lines: list[Said] = []
    for seat in range(view.players):
        player = P(seat)
        lines.append(
            said(
                "{player}: right guesses {right}; wrong guesses {wrong}",
                player=player,
                right=view.correct[seat],
                wrong=view.wrong[seat],
            )
        )
        if view.phase == OVER and view.cube_points[seat]:
            # the cubes left at the end were offered for a point each: the score counts them
            lines.append(
                said_n(
                    view.cube_points[seat],
                    "{player} scored {n} point for the offering cube left over ({cubes})",
                    "{player} scored {n} points for the offering cubes left over ({cubes})",
                    player=player,
                    cubes=cube_words(list(view.cubes[seat])),
                )
            )
        elif any(view.cubes[seat]):
            lines.append(
                said("{player} holds {cubes}", player=player, cubes=cube_words(list(view.cubes[seat])))
            )
        else:
            lines.append(said("{player} holds no cubes", player=player))
        lines.append(
            said("{player}: explorers off the board: {reserve}", player=player, reserve=view.reserve[seat])
        )
        a, b, c, d, e = view.scales[seat]
        lines.append(
            said(
                "{player}: diversity scales: crop 1 at level {a}, crop 2 at level {b}, crop 3 at level {c}, "
                "crop 4 at level {d}, crop 5 at level {e}",
                player=player,
                a=a,
                b=b,
                c=c,
                d=d,
                e=e,
            )
        )
        if view.peek_counts[seat]:
            lines.append(
                said_n(
                    view.peek_counts[seat],
                    "{player} has looked at the disc {n} time",
                    "{player} has looked at the disc {n} times",
                    player=player,
                )
            )
        if view.phase == FINAL and view.final_out[seat]:
            lines.append(said("{player} is out of the final divinations", player=player))
    return Section(said("Players"), tuple(lines))


def _map(view: View) -> Section:
    totals = commas(
        [said("{terrain} {count}", terrain=terrain(t), count=view.terrain_totals.get(t, 0)) for t in TERRAINS]
    )
    return Section(
        said("The map"),
        (
            said("Rows A to E, columns 1 to {cols}", cols=view.cols),
            said("Cells of each terrain on the whole map: {totals}", totals=totals),
            *_regions(view),
        ),
    )


def _regions(view: View) -> list[Said]:
    """Each region seen, as the picture outlines it: the known cells of one terrain joined side
    by side, the crops placed on them, and whether the region is whole (no hidden cell beside
    it, or already of the largest size) or may go on under hidden cells."""
    cells = view.rows * view.cols
    seen: set[int] = set()
    out: list[Said] = []
    for first in range(cells):
        letter = view.terrain[first]
        if letter is None or first in seen:
            continue
        group, hidden, todo = [], set(), [first]
        seen.add(first)
        while todo:
            c = todo.pop()
            group.append(c)
            r, col = divmod(c, view.cols)
            for rr, cc in ((r - 1, col), (r + 1, col), (r, col - 1), (r, col + 1)):
                if 0 <= rr < view.rows and 0 <= cc < view.cols:
                    d = rr * view.cols + cc
                    if view.terrain[d] is None:
                        hidden.add(d)
                    elif view.terrain[d] == letter and d not in seen:
                        seen.add(d)
                        todo.append(d)
        group.sort()
        crops = sorted(crop for c in group if (crop := view.crops[c]) is not None)
        placed = (
            said_n(
                len(crops), "crop {crops} placed", "crops {crops} placed", crops=", ".join(map(str, crops))
            )
            if crops
            else said("no crop placed yet")
        )
        values = {
            "terrain": terrain(letter),
            "cells": ", ".join(cell_name(c, view.cols) for c in group),
            "crops": placed,
        }
        if hidden and len(group) < MAX_REGION:
            out.append(
                said_n(
                    len(group),
                    "Region of {terrain}: {cells}; {n} cell so far, it may go on under {hidden}, still hidden; "
                    "{crops}",
                    "Region of {terrain}: {cells}; {n} cells so far, it may go on under {hidden}, still hidden; "
                    "{crops}",
                    hidden=", ".join(cell_name(c, view.cols) for c in sorted(hidden)),
                    **values,
                )
            )
        else:
            out.append(
                said_n(
                    len(group),
                    "Region of {terrain}: {cells}; the whole region, {n} cell; {crops}",
                    "Region of {terrain}: {cells}; the whole region, {n} cells; {crops}",
                    **values,
                )
            )
    return out


def _cell(view: View, c: int) -> Said:
    name = cell_name(c, view.cols)
    letter = view.terrain[c]
    crop = view.crops[c]
    if letter is None:
        what = said("{cell}: hidden", cell=name)
    elif crop is None:
        what = said("{cell}: {terrain}, no crop yet", cell=name, terrain=terrain(letter))
    else:
        what = said("{cell}: {terrain}, crop {crop}", cell=name, terrain=terrain(letter), crop=crop)
    seat = view.explorer[c]
    if seat < 0:
        return what
    return said("{cell_words}; explorer of {player}", cell_words=what, player=P(seat))


def _rows(view: View) -> list[Section]:
    return [
        Section(
            said("Row {row}", row=ROW_LETTERS[r]),
            tuple(_cell(view, r * view.cols + col) for col in range(view.cols)),
        )
        for r in range(view.rows)
    ]


def _own(view: View) -> Section:
    seen: list[Said] = []
    for c, value in view.peeks.items():
        name = cell_name(int(c), view.cols)
        if value.isdigit():
            seen.append(said("{cell}: you saw crop {crop} on the disc", cell=name, crop=int(value)))
        else:
            seen.append(said("{cell}: you saw {terrain} on the disc", cell=name, terrain=terrain(value)))
    if not seen:
        seen.append(said("Nothing you saw on the disc is still hidden"))
    return Section(said("Only you: your looks at the disc"), tuple(seen), private=True)


def describe(view: View, *, ended: bool = False) -> list[Section]:
    """The position ``view`` shows, in words: the turn, the players, the map and its rows; for a
    seat's view, then what that seat alone saw on the disc (a spectator's view has no such part).
    ``ended``: the table ended the game before its rules did (a resignation, a forfeit, an
    abandon), so nobody is to play and no turn is said."""
    sections = [_turn(view, ended), _players(view), _map(view), *_rows(view)]
    if view.seat is not None:
        sections.append(_own(view))
    return sections


__all__ = ["describe"]

"""P'achakuna's board in words (:func:`describe`), for a screen reader.

The sections, in the order a player scans the board: the turn (whose turn, the step, each
side's colours, the rocks), one section per llama (its field, its load, the fields it can
reach, or, for the llama acting now, what it may still do, and the six fields around it with each tile's mountain edges and whether it may be
turned now), every tile's mountain edges row by row, the villages with their demands, each
player's pieces, and the demand bag.
Fields are named by their numbers (11..95) as the notation and the board image name them;
edges by the compass (E, SE, SW, W, NW, NE: a tile turned one sixth clockwise moves each
mountain edge one step along that list).

Nothing in P'achakuna is private (only the bag's order is hidden, from everyone), so no
section is private; a seat's view adds which side the seat plays.
"""

from __future__ import annotations

from engines.core import Said, Section, listed, said, said_n, term

from . import data as D
from .rules import (
    COLOUR_WORDS,
    SIDE_WORDS,
    TERRAIN_WORDS,
    LlamaView,
    View,
    final_ranking,
    loose_words,
    reachable,
    who,
)

EDGE_WORDS: tuple[Said, ...] = (
    term("pachakuna edge", "E"),
    term("pachakuna edge", "SE"),
    term("pachakuna edge", "SW"),
    term("pachakuna edge", "W"),
    term("pachakuna edge", "NW"),
    term("pachakuna edge", "NE"),
)
"""The six edges of a tile (and directions to a neighbour), clockwise from east."""


def _cells(cells: list[int]) -> str:
    """Fields as the notation writes them: ``44, 45, 56``."""
    return ", ".join(map(str, cells))


def _edges(code: str) -> Said:
    """The mountain edges of the tile ``code``, clockwise from east: ``E, SE, SW``."""
    mask = D.mountain_mask(code)
    return listed([EDGE_WORDS[d] for d in range(6) if (mask >> d) & 1])


def _can_turn(view: View) -> bool:
    """Whether the player to move may still turn a tile: rotations not over, and the price paid."""
    return view.phase == "rotate" and sum(n for _, n in view.supply[view.turn]) >= view.rotation_cost


def _turn_section(view: View, ended: bool) -> Section:
    lines: list[Said] = []
    if view.max_turns:
        lines.append(said("turn {turn} of {most}", turn=view.turn_number, most=view.max_turns))
    else:
        lines.append(said("turn {turn}", turn=view.turn_number))
    if view.phase == "over":
        if view.winner is not None:
            lines.append(
                said(
                    "game over: {p0}, {side}, collected all seven colours",
                    p0=who(view.winner),
                    side=SIDE_WORDS[view.winner],
                )
            )
        else:
            lines.append(said("game over: the turn limit was reached"))
            first = final_ranking(view)[0]
            if len(first) == 1:
                lines.append(
                    said(
                        "{p0}, {side}, wins: most colours, then most resources",
                        p0=who(first[0]),
                        side=SIDE_WORDS[first[0]],
                    )
                )
            else:
                lines.append(said("both players share the win: as many colours and as many resources"))
    elif not ended:  # the table ended the game: nobody is to play (the table says how it ended)
        mover = {"p0": who(view.turn), "side": SIDE_WORDS[view.turn]}
        if view.phase == "rotate" and view.rotation_cost == 0:
            lines.append(
                said("{p0}, {side}, to play: turn tiles (the first is free) or move llamas", **mover)
            )
        elif view.phase == "rotate" and not _can_turn(view):
            lines.append(
                said(
                    "{p0}, {side}, to play: move llamas (another tile would cost {cost}, more than they hold)",
                    cost=view.rotation_cost,
                    **mover,
                )
            )
        elif view.phase == "rotate":
            lines.append(
                said(
                    "{p0}, {side}, to play: turn more tiles (the next costs {cost}) or move llamas",
                    cost=view.rotation_cost,
                    **mover,
                )
            )
        else:
            lines.append(said("{p0}, {side}, to play: move, sell and buy with llamas, then end", **mover))
    lines.extend(_moves_said(view))
    if view.seat is not None:
        lines.append(
            said(
                "you play {side}: your llamas walk {terrain}",
                side=SIDE_WORDS[view.seat],
                terrain=TERRAIN_WORDS[view.seat],
            )
        )
    for seat in range(view.players):
        lines.append(
            said(
                "{p0}, {side}: {colours} of 7 colours",
                p0=who(seat),
                side=SIDE_WORDS[seat],
                colours=view.colours[seat],
            )
        )
    if view.rocks and view.phase != "over" and not ended:
        rocks = {"tiles": _cells(list(view.rocks))}
        if view.phase == "rotate":
            lines.append(
                said_n(
                    len(view.rocks),
                    "a rock on tile {tiles}: it may not be turned this turn",
                    "rocks on tiles {tiles}: they may not be turned this turn",
                    **rocks,
                )
            )
        else:
            lines.append(
                said_n(
                    len(view.rocks),
                    "a rock on tile {tiles}: the next player may not turn it",
                    "rocks on tiles {tiles}: the next player may not turn them",
                    **rocks,
                )
            )
    return Section(said("The turn"), tuple(lines))


def _moves_said(view: View) -> list[Said]:
    """The moves the picture outlines: the turn's so far, or the last turn's before the next
    player's first move (every move is public)."""
    if view.last_seat is None:
        return []
    mover = {"p0": who(view.last_seat), "side": SIDE_WORDS[view.last_seat]}
    if view.turn_log:
        return [
            said("this turn so far: {p0}, {side}, played {moves}", moves=", ".join(view.turn_log), **mover)
        ]
    if view.prev_log:
        return [said("last turn: {p0}, {side}, played {moves}", moves=", ".join(view.prev_log), **mover)]
    return []


def _neighbour_line(view: View, direction: int, cell: int, tiles: dict[int, str], occupied: set[int]) -> Said:
    where = EDGE_WORDS[direction]
    if cell in D.VILLAGES:
        return said(
            "{direction}: village {cell} ({colour})",
            direction=where,
            cell=cell,
            colour=COLOUR_WORDS[D.VILLAGES[cell]],
        )
    edges = _edges(tiles[cell])
    values = {"direction": where, "cell": cell, "edges": edges}
    if view.phase == "over":
        return said("{direction}: tile {cell}, mountain edges {edges}", **values)
    if cell in occupied:
        return said("{direction}: tile {cell}, mountain edges {edges}; a llama stands on it", **values)
    if cell in view.rocks and view.phase == "rotate":
        return said("{direction}: tile {cell}, mountain edges {edges}; it has a rock", **values)
    if cell in view.rotated:
        return said("{direction}: tile {cell}, mountain edges {edges}; turned this turn", **values)
    if _can_turn(view):
        return said("{direction}: tile {cell}, mountain edges {edges}; it may be turned", **values)
    return said("{direction}: tile {cell}, mountain edges {edges}", **values)


def _llama_sections(view: View) -> list[Section]:
    tiles = dict(view.tiles)
    occupied = {lm.cell for lm in view.llamas}
    out = []
    for lm in sorted(view.llamas, key=lambda m: (m.seat, m.id)):
        side = SIDE_WORDS[lm.seat]
        if lm.cell in D.VILLAGES:
            heading = said(
                "{p0}'s llama {llama} ({side}) on village {cell} ({colour})",
                p0=who(lm.seat),
                llama=lm.id,
                side=side,
                cell=lm.cell,
                colour=COLOUR_WORDS[D.VILLAGES[lm.cell]],
            )
        else:
            heading = said(
                "{p0}'s llama {llama} ({side}) on tile {cell}",
                p0=who(lm.seat),
                llama=lm.id,
                side=side,
                cell=lm.cell,
            )
        lines: list[Said] = []
        if lm.load:
            lines.append(said("carries {load}", load=COLOUR_WORDS[lm.load]))
        else:
            lines.append(said("carries nothing; it is loaded at the end of the turn"))
        if lm.new:
            lines.append(said("bought this turn; it acts from the next turn"))
        elif lm.stage == 3 and view.phase != "over":
            lines.append(said("it has finished its actions this turn"))
        if lm.cell not in D.VILLAGES:
            lines.append(said("its tile's mountain edges: {edges}", edges=_edges(tiles[lm.cell])))
        reach = sorted(reachable(tiles, lm.cell, lm.seat == 1))
        if lm.stage in (1, 2) and view.phase != "over":  # the llama acting now: it moves no more
            lines.extend(_still_open(view, lm))
        elif reach:
            lines.append(
                said_n(
                    len(reach),
                    "it can reach {n} field through {terrain}: {cells}",
                    "it can reach {n} fields through {terrain}: {cells}",
                    terrain=TERRAIN_WORDS[lm.seat],
                    cells=_cells(reach),
                )
            )
        else:
            lines.append(said("no open road through {terrain}: it stays", terrain=TERRAIN_WORDS[lm.seat]))
        for direction, cell in D.NEIGHBOURS[lm.cell]:
            lines.append(_neighbour_line(view, direction, cell, tiles, occupied))
        out.append(Section(heading, tuple(lines)))
    return out


def _still_open(view: View, lm: LlamaView) -> list[Said]:
    """What the llama acting now, which has moved (stage 1) or sold (stage 2), may still do: sell
    once on a village that asks for a colour other than its own (not after selling), and buy a
    llama on a village while its side owns fewer than three and holds the price."""
    if lm.stage == 1:
        done = said("it has moved this turn; it cannot move again")
    else:
        done = said("it has sold this turn; it cannot move again")
    colour = D.VILLAGES.get(lm.cell)
    sell = (
        lm.stage == 1 and colour is not None and lm.load not in (None, colour) and dict(view.demands)[lm.cell]
    )
    owned = sum(1 for m in view.llamas if m.seat == lm.seat)
    held = sum(n for _, n in view.supply[lm.seat])
    buy = colour is not None and owned < D.MAX_LLAMAS and held >= D.LLAMA_PRICE
    if sell and buy:
        return [done, said("it may still sell its load here, then buy a llama")]
    if sell:
        return [done, said("it may still sell its load here")]
    if buy:
        return [done, said("it may still buy a llama here")]
    return [done, said("it may do nothing more this turn")]


def _tiles_section(view: View) -> Section:
    """Every tile's mountain edges, one line a row of the board (fields 11 to 15 are row 1), as
    the picture shows them all: a route is planned through tiles far from any llama too."""
    rows: dict[int, list[Said]] = {}
    for cell, code in sorted(view.tiles):
        rows.setdefault(cell // 10, []).append(said("{cell}: {edges}", cell=cell, edges=_edges(code)))
    lines = tuple(
        said("row {row}: {tiles}", row=row, tiles=listed(items, semicolons=True))
        for row, items in sorted(rows.items())
    )
    return Section(said("Every tile's mountain edges, row by row"), lines)


def _villages_section(view: View) -> Section:
    demands = dict(view.demands)
    lines = []
    for cell, colour in view.villages:
        demand = demands.get(cell)
        if demand:
            big, small = D.demand_colours(demand)
            lines.append(
                said(
                    "{village} ({colour}) wants {big} (big flag) and {small} (small flag)",
                    village=cell,
                    colour=COLOUR_WORDS[colour],
                    big=COLOUR_WORDS[big],
                    small=COLOUR_WORDS[small],
                )
            )
        else:
            lines.append(
                said(
                    "{village} ({colour}): no demand until the end of the turn",
                    village=cell,
                    colour=COLOUR_WORDS[colour],
                )
            )
    return Section(said("Villages and demands"), tuple(lines))


def _players_section(view: View) -> Section:
    lines = []
    for seat in range(view.players):
        pieces = [
            said("{colour} {count}", colour=COLOUR_WORDS[kind], count=n) for kind, n in view.supply[seat] if n
        ]
        llamas = sum(1 for lm in view.llamas if lm.seat == seat)
        values = {
            "p0": who(seat),
            "side": SIDE_WORDS[seat],
            "colours": view.colours[seat],
            "loose": loose_words(view.loose[seat]),
        }
        if pieces:  # how many resources in all, and how many of them are loose, as the picture says
            total = sum(n for _, n in view.supply[seat])
            lines.append(
                said(
                    "{p0}, {side}, holds {pieces}: {colours} of 7 colours, {resources}, {loose}",
                    pieces=listed(pieces),
                    resources=said_n(total, "{n} resource", "{n} resources"),
                    **values,
                )
            )
        else:
            lines.append(said("{p0}, {side}, holds nothing: {colours} of 7 colours, {loose}", **values))
        lines.append(said_n(llamas, "{p0} has {n} llama", "{p0} has {n} llamas", p0=who(seat)))
    return Section(said("Players"), tuple(lines))


def _bag_section(view: View) -> Section:
    lines = [said_n(view.bag_count, "the bag holds {n} demand", "the bag holds {n} demands")]
    if view.used:
        used = [
            said("{big} over {small}", big=COLOUR_WORDS[big], small=COLOUR_WORDS[small])
            for big, small in map(D.demand_colours, view.used)
        ]
        lines.append(said("used demands, big flag first: {demands}", demands=listed(used)))
    else:
        lines.append(said("no demand has been used yet"))
    return Section(said("Demand bag"), tuple(lines))


def describe(view: View, *, ended: bool = False) -> list[Section]:
    """The whole position ``view`` shows, in words: the turn, each llama with the fields around
    it, every tile's mountain edges, the villages and their demands, the players' pieces and the demand bag (all public).
    ``ended``: the table ended the game before its rules did (a resignation, a forfeit, an
    abandon), so nobody is to play and no turn is said."""
    return [
        _turn_section(view, ended),
        *_llama_sections(view),
        _tiles_section(view),
        _villages_section(view),
        _players_section(view),
        _bag_section(view),
    ]


__all__ = ["EDGE_WORDS", "describe"]

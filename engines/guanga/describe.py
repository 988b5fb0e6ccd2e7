"""Guanga's board in words (``describe(view)``): what a player needs to choose a move, as
sections of short lines a screen reader reads one by one.

Public sections, in the order a player scans the board: the game (mode, whose turn and what they
are doing, the scores, the workshop's end), the market (each slot's card, its points, colour,
symbol and shape as cells of the guanga, A1 at the shape's top left), the basket (each slot 1-8,
then the pile and the bag), the workshop markers, and each player's guanga: where its points come
from (as the picture's panel: cards, shells, order, the empty cells' penalty, the tile), then row
by row (each cell by its name in the notation: its top patch and how many patches it stacks,
empty, or a stopper).
Then, for a seated view, the private part: the orders dealt to choose from, or the kept order
with its progress and the score it adds.  It reads the view only, so it tells no more than the
view does: a spectator's description holds no private section, and others' orders stay secret
until the game is over.
"""

from __future__ import annotations

from engines.core import UNKNOWN, Said, Section, said, said_n

from . import data as D
from . import terms as W
from .rules import CARD, KEPT_SECRETLY, ORDER, View, extras, listed, order_said, seat_word
from .shapes import CELL_NAMES
from .words import WORDS

# The modes by the words the lobby names them with (marked for translation in words.py).
_MODES = {
    mode: Said(WORDS[f"option.mode.{mode}"]) for mode in ("beginner", "apprentice", "master", "artisan")
}

_DOING = {
    "place1": said("{player} is taking the first of two patches from the basket"),
    "place2": said("{player} is taking the second of two patches from the basket"),
    "claim": said("{player} may claim a market card"),
    "return": said("{player} is returning two patches of the claimed shape"),
    "extra": said("{player} may place the blanket's extra patch"),
    "after": said("{player} is finishing the turn"),
}
# A seat that cannot place, by what its game gives it to try (:func:`~.rules.extras`).
_STUCK = {
    (True, True): said(
        "{player} cannot place the two basket patches; they may use shells or stoppers, then pass"
    ),
    (True, False): said("{player} cannot place the two basket patches; they may use shells, then pass"),
    (False, True): said("{player} cannot place the two basket patches; they may put stoppers, then pass"),
    (False, False): said("{player} cannot place the two basket patches and passes"),
}


def _patch(top: str) -> Said | str:
    """A view's ``colour/symbol`` as the patch's term (``red chakana``)."""
    return W.word(W.PATCHES, top.replace("/", " "))


def _changed(view: View) -> Said | str | None:
    """What the picture frames as changed by the latest turn: each guanga's cells, and the market
    slot its claim took a card from (None: nothing framed)."""
    parts: list[Said] = []
    for seat in dict.fromkeys(seat for seat, _ in view.highlight):
        cells = [cell for s, cell in view.highlight if s == seat]
        parts.append(said("{player}'s {cells}", player=seat_word(seat), cells=_cells(cells)))
    if view.lit_slot is not None:
        parts.append(said("market slot {slot}", slot=view.lit_slot + 1))
    return listed(parts) if parts else None


def _cells(cells: tuple[int, ...] | list[int]) -> str:
    return " ".join(CELL_NAMES[c] for c in cells)


def _shape_cells(shape: tuple[str, ...]) -> str:
    """A card's shape as the cells it covers with its top left corner on A1."""
    return " ".join(
        f"{D.ROWS[r]}{c + 1}" for r, row in enumerate(shape) for c, ch in enumerate(row) if ch == "#"
    )


def _with_order(view: View, seat: int) -> bool:
    """Whether the view shows ``seat``'s order points in its total (own seat, or the game over)."""
    return bool(view.guangas[seat].score["orders"] != UNKNOWN)


def _game(view: View, ended: bool) -> Section:
    lines: list[Said] = []
    if view.stoppers_variant:
        lines.append(said("{mode}, side {side}, with stoppers", mode=_MODES[view.mode], side=view.side))
    else:
        lines.append(said("{mode}, side {side}", mode=_MODES[view.mode], side=view.side))
    if view.finished:
        lines.append(said("The game has ended."))
        if view.players == 1 and view.final_scores:
            lines.append(
                said(
                    "Final score {points} VP, rank {rank}",
                    points=view.final_scores[0],
                    rank=W.word(W.RANKS, view.solo_rank or ""),
                )
            )
        elif view.final_scores:
            place = 1  # tied seats share a place and the next place counts them (1, 1, 3)
            for group in view.ranking:
                for seat in group:
                    lines.append(
                        said(
                            "Place {place}: {player}, {points} VP",
                            place=place,
                            player=seat_word(seat),
                            points=view.final_scores[seat],
                        )
                    )
                place += len(group)
        return Section(said("Game"), tuple(lines))
    if ended:
        pass  # the table ended the game: nobody is to play (the table says how it ended)
    elif view.phase == "order":
        waiting = listed([seat_word(s) for s in view.to_move]) if view.to_move else said("nobody")
        lines.append(
            said("Everyone keeps one of two secret orders; still choosing: {players}", players=waiting)
        )
    else:
        doing = _DOING[view.phase] if view.phase in _DOING else said("{player} is playing")
        if view.phase == "stuck":
            doing = _STUCK[extras(view)]
        lines.append(Said(doing.msg, {"player": seat_word(view.turn)}))
        if view.first_patch is not None and view.placed:
            lines.append(
                said(
                    "First patch taken this turn: {patch} on {cell}",
                    patch=_patch(view.first_patch),
                    cell=CELL_NAMES[view.placed[0]],
                )
            )
        if view.pending:
            lines.append(
                said(
                    "Claimed {card}; return two of the cells {cells}",
                    card=view.pending["card"],
                    cells=_cells(view.pending["returnable"]),
                )
            )
    if view.last == KEPT_SECRETLY and view.last_seat is not None:  # which order stays theirs
        lines.append(said("Last move: {player} kept a secret order", player=seat_word(view.last_seat)))
    elif view.last is not None and view.last_seat is not None:
        lines.append(
            said("Last move: {player} played {move}", player=seat_word(view.last_seat), move=view.last)
        )
    changed = _changed(view)
    if changed is not None:
        lines.append(said("Framed on the board as changed by the latest turn: {places}", places=changed))
    secret_orders = view.mode != "beginner" and view.players > 1
    for p in view.guangas:
        # the public total leaves out an order's points, which only its owner sees before the end
        total = p.score["total"] - (p.score["orders"] if _with_order(view, p.seat) else 0)
        if secret_orders:
            lines.append(
                said("{player}: {points} VP and a secret order", player=seat_word(p.seat), points=total)
            )
        else:
            lines.append(said("{player}: {points} VP", player=seat_word(p.seat), points=total))
    if view.end_at is not None and not ended:
        if view.end_triggered:
            lines.append(said("The end is triggered: this round is the last."))
        else:
            lines.append(
                said_n(
                    view.visible_markers,
                    "{n} workshop marker face up; the end comes at {end}",
                    "{n} workshop markers face up; the end comes at {end}",
                    end=view.end_at,
                )
            )
    return Section(said("Game"), tuple(lines))


def _market(view: View) -> Section:
    lines: list[Said] = []
    for slot, card in enumerate(view.market, start=1):
        if card is None:
            lines.append(said("Slot {slot}: empty", slot=slot))
            continue
        lines.append(
            said(
                "{card} {name}, {points} VP, {flag}, {typology}: {colour} or {symbol}, shape {cells}",
                card=card.id,
                name=card.name,
                points=card.vp,
                flag=W.word(W.FLAGS, card.flag),
                typology=W.word(W.TYPOLOGIES, card.typology),
                colour=W.word(W.COLOURS, card.colour),
                symbol=W.word(W.SYMBOLS, card.symbol),
                cells=_shape_cells(card.shape),
            )
        )
    for level, left in view.decks.items():
        lines.append(
            said_n(
                left,
                "{level} deck: {n} card left",
                "{level} deck: {n} cards left",
                level=W.word(W.LEVELS, D.LEVEL_NAMES.get(level, level)),
            )
        )
    return Section(said("Market"), tuple(lines))


def _basket(view: View) -> Section:
    lines: list[Said] = []
    for slot, top in enumerate(view.basket, start=1):
        if top is None:
            lines.append(said("Slot {slot}: empty", slot=slot))
        else:
            lines.append(said("Slot {slot}: {patch}", slot=slot, patch=_patch(top)))
    lines.append(said_n(view.pile, "Pile: {n} patch", "Pile: {n} patches"))
    lines.append(said_n(view.bag, "Bag: {n} patch", "Bag: {n} patches"))
    return Section(said("Basket"), tuple(lines))


def _workshop(view: View) -> Section:
    lines = [
        said(
            "{marker}: {up} of {total} face up",
            marker=W.ATTRS[name],
            up=view.markers.get(name, 0),
            total=total,
        )
        for name in (*D.COLOURS, *D.SYMBOLS, "grey")
        if (total := view.markers_total.get(name, 0))
    ]
    return Section(said("Workshop markers"), tuple(lines))


def _cell(view: View, seat: int, cell: int) -> Said:
    p = view.guangas[seat]
    name = CELL_NAMES[cell]
    if cell in p.stoppers:
        return said("{cell} stopper", cell=name)
    top = p.tops[cell]
    if top is None:
        return said("{cell} empty", cell=name)
    if p.heights[cell] > 1:
        return said("{cell} {patch}, stack of {height}", cell=name, patch=_patch(top), height=p.heights[cell])
    return said("{cell} {patch}", cell=name, patch=_patch(top))


def _guanga(view: View, seat: int) -> Section:
    p = view.guangas[seat]
    lines: list[Said] = [said("Colour {colour}", colour=W.COLOURS[p.colour])]
    lines.append(
        said("Cards claimed: {cards}", cards=", ".join(p.claimed))
        if p.claimed
        else said("Cards claimed: none")
    )
    if view.mode != "beginner" or p.shells:
        lines.append(said_n(p.shells, "{n} shell", "{n} shells"))
    if view.stoppers_variant:
        lines.append(said_n(p.stoppers_left, "{n} stopper left to place", "{n} stoppers left to place"))
    if view.tile == seat:
        lines.append(said("Holds the complete-guanga tile"))
    if view.finished and p.order not in (None, UNKNOWN):
        lines.append(said("Order {order}", order=order_said(p.order)))
    empty = sum(1 for i, t in enumerate(p.tops) if t is None and i not in p.stoppers)
    lines.append(said_n(empty, "{n} empty cell", "{n} empty cells"))
    lines.extend(_points(view, seat))
    for r, row in enumerate(D.ROWS):
        cells = [_cell(view, seat, r * D.SIZE + c) for c in range(D.SIZE)]
        lines.append(said("Row {row}: {cells}", row=row, cells=listed(cells)))
    return Section(said("{player}'s guanga", player=seat_word(seat)), tuple(lines))


def _points(view: View, seat: int) -> list[Said]:
    """Where a player's points come from, as the picture's panel lists them: the cards, the
    shells, the order (secret until the game is over, even in its owner's view: the owner's
    order points are in their private part), the empty cells' penalty and the complete tile."""
    sc = view.guangas[seat].score
    lines = [said("Points from cards: {points} VP", points=sc["market"])]
    if view.mode != "beginner":
        lines.append(said("Points from shells: {points} VP", points=sc["shells"]))
        if view.players > 1:
            if view.finished and sc["orders"] != UNKNOWN:
                lines.append(said("Points from the order: {points} VP", points=sc["orders"]))
            else:
                lines.append(said("Points from the order: secret"))
    lines.append(said("Empty cells: minus {points} VP", points=sc["penalty"]))
    if sc["tile"]:
        lines.append(said("Complete-guanga tile: {points} VP", points=sc["tile"]))
    return lines


def _progress(view: View, seat: int, order: str) -> list[Said]:
    o = ORDER[order]
    claimed = view.guangas[seat].claimed
    flags = sum(1 for c in claimed if CARD[c][2] == o[1])
    kinds = sum(1 for c in claimed if CARD[c][3] == o[3])
    return [
        said(
            "{part}: {have} of {need} items claimed",
            part=W.word(W.FLAGS, o[1]),
            have=flags,
            need=D.ORDER_PART_NEEDS,
        ),
        said(
            "{part}: {have} of {need} items claimed",
            part=W.word(W.TYPOLOGIES, o[3]),
            have=kinds,
            need=D.ORDER_PART_NEEDS,
        ),
    ]


def _private(view: View) -> list[Section]:
    if view.seat is None:
        return []
    me = view.guangas[view.seat]
    lines: list[Said] = []
    if me.order not in (None, UNKNOWN) and not view.finished:
        lines.append(said("Your secret order: {order}", order=order_said(me.order)))
        lines.extend(_progress(view, view.seat, me.order))
        lines.append(
            said(
                "With your order: {points} VP (order {order} VP)",
                points=me.score["total"],
                order=me.score["orders"],
            )
        )
    elif view.dealt_orders:
        lines.append(said("Orders dealt to you; keep one:"))
        lines.extend(said("keep {order}", order=order_said(o)) for o in view.dealt_orders)
    if not lines:
        return []
    return [Section(said("Yours alone"), tuple(lines), private=True)]


def describe(view: View, *, ended: bool = False) -> list[Section]:
    """The board in words: the public sections, then the view's seat's private part.  ``ended``:
    the table ended the game before its rules did (a resignation, a forfeit, an abandon), so
    nobody is to play and no turn or coming end is said."""
    sections = [_game(view, ended), _market(view), _basket(view), _workshop(view)]
    order = [view.seat] if view.seat is not None else []
    order += [p.seat for p in view.guangas if p.seat != view.seat]
    sections.extend(_guanga(view, seat) for seat in order)
    return sections + _private(view)


__all__ = ["describe"]

"""Guacamole's board in words: :func:`describe` walks a view as a screen reader would.

Public sections first, in the order a player scans the table: the turn (whose, the step, the
scores), the draw pile and the discard piles, then each player's hand count, preparation zone
and dishes.  A seat's own view ends with a private section: its hand, card by card, and the
cards Lima Kahlo moved that only it (and the other player involved) may know.

Places are named as the notation and the board's labels name them: ``deck``, ``x1`` and
``x2``, a player ``p2``, a zone ``p2z`` (its card ``5T`` is ``p2z5T``), a dish ``p2d1``.
"""

from __future__ import annotations

from engines.core import Said, Section, said, said_n

from .data import ABILITIES, PREP_LIMIT, TYPE_TERMS
from .rules import DISH_KINDS, DishView, View, seats_together


def _seat(seat: int) -> str:
    """A seat as sentences write it, ``{p0}`` (the table puts the name in)."""
    return f"{{p{seat}}}"


def _player(seat: int) -> str:
    """A player as the notation names them: ``p2`` for seat 1."""
    return f"p{seat + 1}"


def _cards(codes: tuple[str, ...]) -> str:
    return ", ".join(codes)


def _turn(view: View, ended: bool) -> Section:
    """Whose turn, the step, the end, the scores (``ended``: see :func:`describe`)."""
    lines: list[Said] = []
    if view.over:
        lines.append(said("The game is over."))
        if len(view.winners) == 1:
            lines.append(said("{player} wins.", player=_seat(view.winners[0])))
        elif view.winners:
            lines.append(
                said("{players} share the win.", players=seats_together([_seat(w) for w in view.winners]))
            )
    elif view.turn is not None and not ended:
        lines.append(
            said("Turn {number}: {player} to play.", number=view.turn_number, player=_seat(view.turn))
        )
        lines.append(
            said("{player} may now: {step}", player=_seat(view.turn), step=view.step_said or view.step)
        )
        if view.end_triggered:
            lines.append(said("The draw pile is empty: this is the last round."))
    lines.extend(_last_turn(view))
    for seat, score in enumerate(view.scores):
        lines.append(said_n(score, "{player}: {n} point", "{player}: {n} points", player=_seat(seat)))
    return Section(said("Turn and scores"), tuple(lines))


def _last_turn(view: View) -> list[Said]:
    """The last move and the places changed, as the picture marks them: this turn's while it
    goes on, the last turn's before the next player's first move (every move is public)."""
    if view.turn_moves and view.turn is not None:
        move, mover, now = view.turn_moves[-1], view.turn, True
    elif view.prev_turn and view.prev_seat is not None:
        move, mover, now = view.prev_turn[-1], view.prev_seat, False
    else:
        return []
    lines = [said("Last move: {player} played {move}", player=_seat(mover), move=move)]
    places = [place for place in view.turn_marks if place != "build"]  # the dish being made is said below
    if places:
        listed = _cards(tuple(places))
        if now:
            lines.append(said("Changed this turn: {places}", places=listed))
        else:
            lines.append(said("Changed in the last turn: {places}", places=listed))
    return lines


def _piles(view: View) -> Section:
    """The draw pile's count, each discard pile's top and count."""
    lines: list[Said] = [
        said_n(
            view.deck_size, "Draw pile ({place}): {n} card", "Draw pile ({place}): {n} cards", place="deck"
        )
    ]
    for k, (top, size) in enumerate(zip(view.discard_tops, view.discard_sizes, strict=True)):
        place = f"x{k + 1}"
        if top is None:
            lines.append(said("Discard pile {place}: empty", place=place))
        else:
            lines.append(
                said_n(
                    size,
                    "Discard pile {place}: {card} on top, {n} card",
                    "Discard pile {place}: {card} on top, {n} cards",
                    place=place,
                    card=top,
                )
            )
    return Section(said("Draw pile and discard piles"), tuple(lines))


def _verdict(dish: DishView) -> Said:
    """Whether a dish is valid (and why), and whether it is a guacamole, with what that means
    (the picture marks it with a star, explained in its legend in the same words)."""
    if dish.valid and dish.kind is not None:
        kind = DISH_KINDS[dish.kind]
        if dish.guacamole:
            return said("valid ({kind}), a guacamole (all five types in one dish: +3 points)", kind=kind)
        return said("valid ({kind})", kind=kind)
    if dish.guacamole:
        return said("not valid, but a guacamole (all five types in one dish: +3 points)")
    return said("not valid")


def _dish(place: str, dish: DishView) -> Said:
    if not dish.cards:
        return said("Dish {place}: empty, it counts as no dish", place=place)
    return said(
        "Dish {place}: {cards}; {top} on top; {verdict}; {points}",
        place=place,
        cards=_cards(dish.cards),
        top=dish.cards[-1],
        verdict=_verdict(dish),
        points=said_n(dish.points, "{n} point", "{n} points"),
    )


def _table_of(view: View, seat: int, ended: bool) -> Section:
    """One player's side: hand count, preparation zone, dishes, the dish being made (``ended``:
    see :func:`describe`; a dish left unfinished is no dish)."""
    place = _player(seat)
    zone = view.prep[seat]
    lines: list[Said] = [said_n(view.hand_sizes[seat], "{n} card in hand", "{n} cards in hand")]
    if zone:
        lines.append(
            said(
                "Preparation zone {place} ({count} of {limit}): {cards}",
                place=f"{place}z",
                count=len(zone),
                limit=PREP_LIMIT,
                cards=_cards(zone),
            )
        )
    else:
        lines.append(said("Preparation zone {place}: empty", place=f"{place}z"))
    dishes = view.dishes[seat]
    for k, dish in enumerate(dishes, 1):
        lines.append(_dish(f"{place}d{k}", dish))
    if not dishes:
        lines.append(said("No dishes yet"))
    if view.building and seat == view.turn and ended:
        lines.append(
            said(
                "New dish left unfinished (it counts as no dish): {cards}; {top} on top",
                cards=_cards(view.building),
                top=view.building[-1],
            )
        )
    elif view.building and seat == view.turn:
        lines.append(
            said(
                "New dish being made: {cards}; {top} on top",
                cards=_cards(view.building),
                top=view.building[-1],
            )
        )
    if seat == view.seat:
        heading = said("{player} ({place}), you", player=_seat(seat), place=place)
    else:
        heading = said("{player} ({place})", player=_seat(seat), place=place)
    return Section(heading, tuple(lines))


def _own(view: View, seat: int, hand: tuple[str, ...]) -> Section:
    """The seat's hand, one card a line with its ability, and what Lima Kahlo moved."""
    lines: list[Said] = [said_n(len(hand), "You hold {n} card", "You hold {n} cards")]
    for code in hand:
        kind = code[1]
        lines.append(
            said("{card}, {name}: {ability}", card=code, name=TYPE_TERMS[kind], ability=ABILITIES[kind])
        )
    for thief, victim, card in view.taken:
        if victim == seat:
            lines.append(
                said("Lima Kahlo: {player} took {card} from your hand.", player=_seat(thief), card=card)
            )
        else:
            lines.append(
                said("Lima Kahlo: you took {card} from {other}'s hand.", card=card, other=_seat(victim))
            )
    return Section(said("Your hand"), tuple(lines), private=True)


def describe(view: View, *, ended: bool = False) -> list[Section]:
    """The position ``view`` shows, in words: the public sections, then (for a seat's own view)
    its private part.  ``ended``: the table ended the game before its rules did (a resignation,
    a forfeit, an abandon), so nobody is to play and the dish being made stays unfinished."""
    sections = [_turn(view, ended), _piles(view)]
    sections += [_table_of(view, seat, ended) for seat in range(view.players)]
    if view.seat is not None and view.hand is not None:
        sections.append(_own(view, view.seat, view.hand))
    return sections


__all__ = ["describe"]

"""A Guacamole turn told the way a player would tell it, from its events (:data:`Told`).

A turn has up to three steps, each told on one line: what the prepared card did ("{p0}
prepared 8 Onion, drew 2 cards from the draw pile, took 6P from discard pile 2 and discarded
9A onto discard pile 1"), the dishes served with their points ("Served dish 1 (same type: 1O,
2O, 6O) for 4 points"), and the draws that end it ("Drew a card from the draw pile and took 7T
from discard pile 2").  Only the first line names the player; repeated steps of one kind are
merged into one clause (two draws from the draw pile are "drew 2 cards"; cards taken from one
discard pile are listed together); the cards laid one by one on a dish are told by the dish
served (the history keeps every step).  What happens to someone else (a dish no longer valid,
a discard pile refilled, the draw pile running out) is its own sentence, as the game said it.

Imports :mod:`engines.core` and :mod:`.data` only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engines.core import END, Said, Told, listing, said, said_n, step_lines

from .data import dish_points

_USES = frozenset({"add", "steal", "swap", "take", "discard", "pass", "ability"})
"""Events that use up (or skip) the prepared card's ability."""


def tell_turn(told: Sequence[Told]) -> list[list[Said]]:
    """The lines of one seat's turn, each a list of sentences (several turns of one seat in a
    row: one after the other)."""
    mover = next((s.args["player"] for _, s in told if "player" in s.args), None)
    steps: dict[str, tuple[list[Said], list[Said]]] = {}  # step -> (clauses, sentences after)
    own: list[Said] = []
    current, using = "ability", False
    for kind, sentence in told:
        args = sentence.args
        if kind == "end_triggered" or (kind == END and "player" not in args):
            own.append(sentence)  # the end of the game coming, the game over: a line of their own
            continue
        if kind in ("free", "prep"):
            current, using = "ability", kind == "prep"
        elif kind in ("dish", "cancel"):
            current, using = "dish", False
        elif (kind == "draw" and not using) or kind == "end":
            current = "draw"
        clauses, sentences = steps.setdefault(current, ([], []))
        clause = _clause(kind, sentence)
        if clause is not None and mover is not None:
            clause = _theirs(clause, mover)
        if clause is not None:
            clauses.append(clause)
        elif kind == "validity" and clauses and _noted(clauses, sentence, mover):
            pass  # said beside the dish it is about, in the clause before
        elif kind != "dish":  # a sentence of its own: validity, a refill, an ability with nothing to do
            sentences.append(sentence)
        if kind in _USES:
            using = False
    lines = step_lines(steps.values(), mover, _merged)
    if own:
        lines.append(own)
    return lines


_TOP = "the top of {player}'s dish {dish}"
_OWN_TOP = "the top of their dish {dish}"
_ZONE = "{player}'s preparation zone"


def _theirs(clause: Said, mover: Any) -> Said:
    """``clause`` with the mover's own dish and preparation zone named as theirs ("swapped 5O
    from the top of their dish 2", "... from their preparation zone", not "... of Alice's dish
    2" in Alice's own line)."""

    def own(value: Any) -> Any:
        if not isinstance(value, Said) or str(value.args.get("player")) != str(mover):
            return value
        if value.msg == _TOP:
            return said("the top of their dish {dish}", dish=value.args["dish"])
        if value.msg == _ZONE:
            return said("their preparation zone")
        return value

    args = {key: own(value) for key, value in clause.args.items()}
    return Said(clause.msg, args, clause.plural, clause.context)


def _noted(clauses: list[Said], validity: Said, mover: Any) -> bool:
    """Put a dish's change of validity beside the dish in the last clause, when that clause
    names it ("swapped 6P from the top of their dish 1 (valid again) with ..."); whether it did."""
    last = clauses[-1]
    for key, value in last.args.items():
        if isinstance(value, Said) and value.msg in (_TOP, _OWN_TOP) and _same_dish(value, validity, mover):
            if "again" in validity.msg:
                noted = said("{place} (valid again)", place=value)
            else:
                noted = said("{place} (no longer valid)", place=value)
            clauses[-1] = Said(last.msg, {**last.args, key: noted}, last.plural, last.context)
            return True
    return False


def _same(one: Any, other: Any) -> bool:
    return {k: str(v) for k, v in one.items()} == {k: str(v) for k, v in other.items()}


def _same_dish(place: Said, validity: Said, mover: Any) -> bool:
    """Whether ``place`` (the top of a dish) is the dish ``validity`` is about; a dish named as
    the mover's own carries no player (it is ``mover``'s), the validity sentence does."""
    if place.msg == _OWN_TOP:
        return _same({"player": mover, "dish": place.args["dish"]}, validity.args)
    return _same(place.args, validity.args)


def _clause(kind: str, sentence: Said) -> Said | None:
    """The step as a clause without its subject (``None``: a sentence of its own, or a card
    laid on a dish, which the dish served tells)."""
    args = sentence.args
    if kind == "prep":
        return said("prepared {card}", card=args["card"])
    if kind == "free":
        return said(
            "put {card} from their preparation zone on discard pile {pile}",
            card=args["card"],
            pile=args["pile"],
        )
    if kind == "draw":
        if "pile" in args:
            return Said("pile", {"card": args["card"], "pile": args["pile"]})
        return Said("deck", {"card": args.get("card")})
    if kind == "discard":
        return said("discarded {card} onto discard pile {pile}", card=args["card"], pile=args["pile"])
    if kind == "steal":
        if "card" in args:
            return said("took {card} at random from {other}'s hand", card=args["card"], other=args["other"])
        if "tried" in sentence.msg:
            return said("tried to steal from {other}, whose hand is empty", other=args["other"])
        return said("took a random card from {other}'s hand", other=args["other"])
    if kind == "swap":
        if "place" in args:
            return said(
                "swapped {card} from {place} with {other} from {to}",
                card=args["card"],
                place=args["place"],
                other=args["other"],
                to=args["to"],
            )
        return said(
            "swapped {card} from their hand with {other} from {to}",
            card=args["card"],
            other=args["other"],
            to=args["to"],
        )
    if kind == "take":
        return said("took {card} from {place} into their hand", card=args["card"], place=args["place"])
    if kind == "add":
        return said("added {cards} to their dish {dish}", cards=args["cards"], dish=args["dish"])
    if kind == "pass":
        return said("did not use the ability")
    if kind == "cancel":
        return said("took back the dish they were making")
    if kind == "end" and "player" in args:
        return said("ended the turn with nothing left to draw")
    if kind == "dish" and sentence.msg.startswith("{player} served"):
        return _served(args)
    return None


def _merged(clauses: Sequence[Said | None]) -> list[Said]:
    """The clauses in order, draws merged: the draw pile's cards counted (or listed, for the
    drawer), each discard pile's cards listed where that pile is first drawn from."""
    out: list[Said] = []
    deck: list[Any] = []
    deck_at: int | None = None
    piles: dict[Any, list[Any]] = {}
    pile_at: dict[Any, int] = {}
    for clause in clauses:
        if clause is None:
            continue
        if clause.msg == "deck":
            if deck_at is None:
                deck_at = len(out)
                out.append(clause)
            deck.append(clause.args["card"])
        elif clause.msg == "pile":
            pile = clause.args["pile"]
            if pile not in pile_at:
                pile_at[pile] = len(out)
                out.append(clause)
            piles.setdefault(pile, []).append(clause.args["card"])
        else:
            out.append(clause)
    if deck_at is not None:
        if all(card is not None for card in deck):
            out[deck_at] = said("drew {cards} from the draw pile", cards=listing(deck))
        else:
            out[deck_at] = said_n(
                len(deck), "drew {n} card from the draw pile", "drew {n} cards from the draw pile"
            )
    for pile, at in pile_at.items():
        out[at] = said("took {cards} from discard pile {pile}", cards=listing(piles[pile]), pile=pile)
    return out


def _served(args: Any) -> Said:
    cards = str(args["cards"])
    points = dish_points([c.strip() for c in cards.split(",")])
    return said_n(
        points,
        "served dish {dish} ({why}: {cards}) for {n} point",
        "served dish {dish} ({why}: {cards}) for {n} points",
        dish=args["dish"],
        why=args["why"],
        cards=cards,
    )

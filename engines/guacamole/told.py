"""A Guacamole turn told the way a player would tell it, from its events (:data:`Told`).

A turn has up to three steps, each told on one line: what the prepared card did ("{p0}
prepared 8 Onion, drew 2 cards from the draw pile, took 6 Avocaldo from discard pile 2 and
discarded 9 Aji onto discard pile 1"), the dishes served with their points ("Served dish 1 (same
type: 1 Onion, 2 Onion and 6 Onion) for 4 points"), and the draws that end it ("Drew a card from
the draw pile and took 7 Tomathor from discard pile 2").  Cards are named in words, as the menus
name them (the events keep their codes, so a turn stored long ago reads the same way); a card
that moved says whose it was and where it lay ("swapped their 3 Avocaldo (hand) for {p1}'s 9 Onion
(preparation zone)").  Only the first line names the player; repeated steps of one kind are
merged into one clause (two draws from the draw pile are "drew 2 cards"; cards taken from one
discard pile are listed together); the cards laid one by one on a dish are told by the dish
served (the history keeps every step).  What happens to someone else (a dish no longer valid,
a discard pile refilled, the draw pile running out) is its own sentence, as the game said it.
:func:`worded` puts one event's own sentence in words the same way, for the places that show a
move's lines one by one (``/game log``, the history pages, the last action, the mover's answer).

Imports :mod:`engines.core` and :mod:`.data` only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engines.core import END, N_, Said, Told, listing, said, said_n, step_lines, term

from .data import TYPES, describe, dish_points

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
            sentences.append(worded(sentence))
        if kind in _USES:
            using = False
    lines = step_lines(steps.values(), mover, _merged)
    if own:
        lines.append(own)
    return lines


_TOP = "the top of {player}'s dish {dish}"
_ZONE = "{player}'s preparation zone"
_HELD = "{player}'s {card} ({where})"
_OWN_HELD = "their {card} ({where})"
_DISH_TOP = "top of dish {dish}"
HAND = term("guacamole term", "hand")
ZONE = term("guacamole term", "preparation zone")


def _card(value: Any) -> Any:
    """A card's code in words, as the menus name it (``5T``: "5 Tomathor"); a value already in
    words, or no card, as it is."""
    if isinstance(value, str) and len(value) == 2 and value[0].isdigit() and value[1] in TYPES:
        return describe(value)
    return value


def _cards(value: Any) -> Any:
    """Cards written as their codes in a list (``1O, 2O, 6O``) in words: "1 Onion, 2 Onion and
    6 Onion"."""
    if not isinstance(value, str):
        return value
    return listing([_card(code.strip()) for code in value.split(",")])


def _held(card: Any, place: Any) -> Said:
    """``card`` with whose it was and where it lay, from the event's ``place`` (``None``: the
    mover's hand): "{p1}'s 9 Onion (preparation zone)", "{p1}'s 5 Lima (top of dish 2)", "7 Lima
    (discard pile 2)"."""
    card = _card(card)
    if place is None:
        return said("their {card} ({where})", card=card, where=HAND)
    if isinstance(place, Said) and place.msg == _ZONE:
        return said("{player}'s {card} ({where})", player=place.args["player"], card=card, where=ZONE)
    if isinstance(place, Said) and place.msg == _TOP:
        top = said("top of dish {dish}", dish=place.args["dish"])
        return said("{player}'s {card} ({where})", player=place.args["player"], card=card, where=top)
    return said("{card} ({place})", card=card, place=place)  # a discard pile


def _theirs(clause: Said, mover: Any) -> Said:
    """``clause`` with the mover's own cards named as theirs ("swapped their 5 Onion (top of dish
    2) for ...", not "... Alice's 5 Onion ..." in Alice's own line)."""

    def own(value: Any) -> Any:
        if not isinstance(value, Said) or value.msg != _HELD or str(value.args.get("player")) != str(mover):
            return value
        return said("their {card} ({where})", card=value.args["card"], where=value.args["where"])

    args = {key: own(value) for key, value in clause.args.items()}
    return Said(clause.msg, args, clause.plural, clause.context)


def _noted(clauses: list[Said], validity: Said, mover: Any) -> bool:
    """Put a dish's change of validity beside the dish in the last clause, when that clause
    names a card from its top ("swapped their 6 Avocaldo (top of dish 1, valid again) for ...");
    whether it did."""
    last = clauses[-1]
    for key, value in last.args.items():
        if isinstance(value, Said) and value.msg in (_HELD, _OWN_HELD) and _same_dish(value, validity, mover):
            dish = value.args["where"].args["dish"]
            if "again" in validity.msg:
                where = said("top of dish {dish}, valid again", dish=dish)
            else:
                where = said("top of dish {dish}, no longer valid", dish=dish)
            noted = Said(value.msg, {**value.args, "where": where}, value.plural, value.context)
            clauses[-1] = Said(last.msg, {**last.args, key: noted}, last.plural, last.context)
            return True
    return False


def _same(one: Any, other: Any) -> bool:
    return {k: str(v) for k, v in one.items()} == {k: str(v) for k, v in other.items()}


def _same_dish(held: Said, validity: Said, mover: Any) -> bool:
    """Whether ``held`` (a card and where it lay) came from the top of the dish ``validity`` is
    about; a card named as the mover's own carries no player (it is ``mover``'s), the validity
    sentence does."""
    where = held.args["where"]
    if not isinstance(where, Said) or where.msg != _DISH_TOP:
        return False
    owner = mover if held.msg == _OWN_HELD else held.args["player"]
    return _same({"player": owner, "dish": where.args["dish"]}, validity.args)


_CANCEL = N_("took back the dish they were making")

_WORDED = {"card": _card, "other": _card, "cards": _cards}
"""The values of an event's sentence that hold cards as their codes, and how each is put in words."""


def worded(sentence: Said) -> Said:
    """One event's sentence as a player reads it, its cards named in words as the menus name them
    ("Cy swapped 3 Avocaldo from their hand with 9 Onion from {p0}'s preparation zone.", "Discard
    pile 1 ran out and was refilled with 4 Lima."); a sentence without a card, as it is.  The
    event keeps its codes (the log stores them, exports write them); every place that shows a
    move's own lines asks this (the engine's optional ``worded``, see :class:`engines.core.Engine`),
    and a sentence of its own in :func:`tell_turn` too."""
    args = {key: _WORDED[key](value) if key in _WORDED else value for key, value in sentence.args.items()}
    if args == dict(sentence.args):
        return sentence
    return Said(sentence.msg, args, sentence.plural, sentence.context)


def _clause(kind: str, sentence: Said) -> Said | None:
    """The step as a clause without its subject (``None``: a sentence of its own, or a card
    laid on a dish, which the dish served tells)."""
    args = sentence.args
    if kind == "prep":
        return said("prepared {card}", card=_card(args["card"]))
    if kind == "free":
        return said(
            "put {card} from their preparation zone on discard pile {pile}",
            card=_card(args["card"]),
            pile=args["pile"],
        )
    if kind == "draw":
        if "pile" in args:
            return Said("pile", {"card": _card(args["card"]), "pile": args["pile"]})
        return Said("deck", {"card": _card(args.get("card"))})
    if kind == "discard":
        return said("discarded {card} onto discard pile {pile}", card=_card(args["card"]), pile=args["pile"])
    if kind == "steal":
        if "card" in args:
            return said(
                "took {card} at random from {other}'s hand", card=_card(args["card"]), other=args["other"]
            )
        if "tried" in sentence.msg:
            return said("tried to steal from {other}, whose hand is empty", other=args["other"])
        return said("took a random card from {other}'s hand", other=args["other"])
    if kind == "swap":
        return said(
            "swapped {card} for {other}",
            card=_held(args["card"], args.get("place")),
            other=_held(args["other"], args["to"]),
        )
    if kind == "take":
        return said("took {card} into their hand", card=_held(args["card"], args["place"]))
    if kind == "add":
        return said("added {cards} to their dish {dish}", cards=_cards(args["cards"]), dish=args["dish"])
    if kind == "pass":
        return said("did not use the ability")
    if kind == "cancel":
        return said(_CANCEL)
    if kind == "end" and "player" in args:
        return said("ended the turn with nothing left to draw")
    if kind == "dish" and sentence.msg.startswith("{player} served"):
        return _served(args)
    return None


def _merged(clauses: Sequence[Said | None]) -> list[Said]:
    """The clauses in order, draws merged: the draw pile's cards counted (or listed, for the
    drawer), each discard pile's cards listed where that pile is first drawn from; dishes taken
    back (a turn may start and take back several) said once, counted, where the first was."""
    out: list[Said] = []
    deck: list[Any] = []
    deck_at: int | None = None
    piles: dict[Any, list[Any]] = {}
    pile_at: dict[Any, int] = {}
    cancels = 0
    cancel_at: int | None = None
    for clause in clauses:
        if clause is None:
            continue
        if clause.msg == _CANCEL:
            cancels += 1
            if cancel_at is None:
                cancel_at = len(out)
                out.append(clause)
        elif clause.msg == "deck":
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
    taken = set(pile_at.values())
    for pile, at in pile_at.items():
        cards = listing(piles[pile])
        if at - 1 in taken:  # right after another pile's: "took 2 Tomathor from discard pile 1 and 1 Lima
            out[at] = said("{cards} from discard pile {pile}", cards=cards, pile=pile)  # from discard pile 2"
        else:
            out[at] = said("took {cards} from discard pile {pile}", cards=cards, pile=pile)
    if cancel_at is not None and cancels > 1:
        out[cancel_at] = said_n(
            cancels, "took back {n} dish they were making", "took back {n} dishes they were making"
        )
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
        cards=_cards(cards),
    )

"""Guacamole's moves in words: the one place that describes them.

``KINDS`` orders the kinds as a turn runs (free, prepare, the card's ability,
dish, draw, end); ``WORDS`` holds every English text by message id; and
:func:`move_words` describes one legal move.  Menus, autocomplete and the
terminal show these texts; a translation adds a catalogue with the same ids.
"""

from __future__ import annotations

from engines.core import N_, Kind, Level, MoveWords, Said, said, term

from .data import ABILITIES, card_code, describe
from .moves import Add, Cancel, Discard, Dish, Done, Draw, End, Free, Move, Pass, Prep, Steal, Swap, Take
from .rules import State

KINDS: tuple[Kind, ...] = (
    Kind("free"),
    Kind("prepare"),
    Kind("add"),
    Kind("steal"),
    Kind("swap"),
    Kind("take"),
    Kind("discard"),
    Kind("pass"),
    Kind("dish"),
    Kind("serve"),
    Kind("cancel"),
    Kind("draw", ends_turn=True),
    Kind("end", ends_turn=True),
)

WORDS: dict[str, str] = {
    "option.dishes_per_turn.0": N_("no limit on new dishes per turn"),
    "option.dishes_per_turn.1": N_("one new dish per turn"),
    "option.dishes_per_turn": N_("up to {value} new dishes per turn"),
    "kind.free": N_("Free a zone card"),
    "kind.prepare": N_("Prepare a card"),
    "kind.add": N_("Add cards to a dish (Patricia & Avocaldo)"),
    "kind.steal": N_("Steal a card (Lima Kahlo)"),
    "kind.swap": N_("Swap a card (Tomathor)"),
    "kind.take": N_("Take a visible card (Aji Styles)"),
    "kind.discard": N_("Discard a card (Onion Musk)"),
    "kind.pass": N_("Skip the ability"),
    "kind.dish": N_("Make a dish"),
    "kind.serve": N_("Serve the dish"),
    "kind.cancel": N_("Take the dish back"),
    "kind.draw": N_("Draw"),
    "kind.end": N_("End the turn"),
    "group.swap": N_("Swap your {card}"),
    "region.piles": N_("the discard piles"),
    "region.own": N_("your own cards"),
    "region.player": N_("{player}'s cards"),
    "move.free": N_("put {card} from your zone on discard pile {pile}"),
    "move.prep": N_("prepare {card}: {ability}"),
    "move.dish.start": N_("start a dish with {card} from your {where}"),
    "move.dish.lay": N_("lay {card} from your {where}"),
    "move.done": N_("serve the dish"),
    "move.cancel": N_("take the dish back"),
    "move.add": N_("add {cards} to your dish {dish}"),
    "move.steal": N_("steal a random card from {target}"),
    "move.swap": N_("swap your {source} for {card} ({place})"),
    "move.take": N_("take {card} ({place})"),
    "move.draw.deck": N_("draw from the deck"),
    "move.draw.pile": N_("draw {card} from discard pile {pile}"),
    "move.discard": N_("discard {card} on pile {pile}"),
    "move.pass": N_("don't use the ability"),
    "move.end": N_("end the turn (nothing left to draw)"),
}


def card_words(code: str) -> Said:
    """``5T`` -> ``5 Tomathor``."""
    return describe(code)


def _place_words(place: str, mover: int | None = None) -> Said:
    """Where a visible card lies, in a few words (seats as ``{pN}``; the ``mover``'s own places,
    offered to them in their menu, as theirs: "your zone")."""
    if place.startswith("x"):
        return said("discard pile {pile}", pile=place[1])
    if int(place[1]) - 1 == mover:
        return said("your zone") if place[2] == "z" else said("top of your dish {dish}", dish=place[3:])
    seat = f"{{p{int(place[1]) - 1}}}"
    if place[2] == "z":
        return said("{player}'s zone", player=seat)
    return said("top of {player}'s dish {dish}", player=seat, dish=place[3:])


def _card_at(s: State, place: str) -> str:
    """The code of the visible card at ``place`` (``?`` if there is none)."""
    if place.startswith("x"):
        pile = s.discards[int(place[1]) - 1]
        return card_code(pile[-1]) if pile else "?"
    seat = int(place[1]) - 1
    if place[2] == "z":
        return place[3:]
    dish = s.dishes[seat][int(place[3:]) - 1]
    return card_code(dish[-1]) if dish else "?"


def _whose(place: str, mover: int) -> Level:
    """Whose visible card a swap or a take reaches: a step a menu takes when there are many."""
    if place.startswith("x"):
        return Level("x", "region.piles")
    owner = int(place[1]) - 1
    if owner == mover:
        return Level(f"p{owner}", "region.own")
    return Level(f"p{owner}", "region.player", {"player": f"{{p{owner}}}"})


def _source_words(s: State, seat: int, source: str) -> Said:
    """One's own card given away in a swap: a hand card, a zone card or a dish top."""
    if source.startswith("z"):  # written as a dish writes it
        return said("{card} (zone)", card=card_words(source[1:]))
    if not source.startswith("p"):
        return said("{card} (hand)", card=card_words(source))
    if source[2] == "z":
        return said("{card} (zone)", card=card_words(source[3:]))
    return said("{card} (top of dish {dish})", card=card_words(_card_at(s, source)), dish=source[3:])


def _ref_words(ref: str) -> str | Said:
    return said("{card} (zone)", card=card_words(ref[1:])) if ref.startswith("z") else card_words(ref)


def _listed(items: list[str | Said]) -> str | Said:
    """Items in a list: ``a, b, c``."""
    out = items[-1]
    for first in reversed(items[:-1]):
        out = said("{first}, {rest}", first=first, rest=out)
    return out


def move_words(state: State, seat: int, move: Move) -> MoveWords:
    """``move`` (legal for ``seat`` in ``state``) in words."""
    if isinstance(move, Free):
        return MoveWords("free", "move.free", {"card": card_words(move.card), "pile": move.pile})
    if isinstance(move, Prep):
        return MoveWords(
            "prepare", "move.prep", {"card": card_words(move.card), "ability": ABILITIES[move.card[1]]}
        )
    if isinstance(move, Dish):
        zone = move.card.startswith("z")
        card = card_words(move.card[1:] if zone else move.card)
        text = "move.dish.lay" if state.building else "move.dish.start"
        where = term("guacamole term", "zone") if zone else term("guacamole term", "hand")
        return MoveWords("dish", text, {"card": card, "where": where})
    if isinstance(move, Done):
        return MoveWords("serve", "move.done")
    if isinstance(move, Cancel):
        return MoveWords("cancel", "move.cancel")
    if isinstance(move, Add):
        cards = _listed([_ref_words(r) for r in move.cards])
        return MoveWords("add", "move.add", {"cards": cards, "dish": move.dish})
    if isinstance(move, Steal):
        return MoveWords("steal", "move.steal", {"target": f"{{p{move.target}}}"})
    if isinstance(move, Swap):  # each choice names both cards, also in the step of one's own card
        source = _source_words(state, seat, move.source)
        place = _place_words(move.target, seat)
        return MoveWords(
            "swap",
            "move.swap",
            {"source": source, "card": card_words(_card_at(state, move.target)), "place": place},
            group=move.source,
            group_args={"card": source},
            regions=(_whose(move.target, seat),),
            whole=True,
        )
    if isinstance(move, Take):
        return MoveWords(
            "take",
            "move.take",
            {"card": card_words(_card_at(state, move.target)), "place": _place_words(move.target, seat)},
            regions=(_whose(move.target, seat),),
        )
    if isinstance(move, Draw):
        if move.source == "deck":
            return MoveWords("draw", "move.draw.deck")
        code = _card_at(state, move.source)
        return MoveWords("draw", "move.draw.pile", {"card": card_words(code), "pile": move.source[1]})
    if isinstance(move, Discard):
        return MoveWords("discard", "move.discard", {"card": card_words(move.card), "pile": move.pile})
    if isinstance(move, Pass):
        return MoveWords("pass", "move.pass")
    if isinstance(move, End):
        return MoveWords("end", "move.end")
    raise TypeError(f"not a Guacamole move: {move!r}")


__all__ = ["KINDS", "WORDS", "card_words", "move_words"]

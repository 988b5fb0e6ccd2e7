"""Guacamole: a card game of dishes for 2 to 6 cooks.

90 ingredient cards: five types (P Patricia & Avocaldo, L Lima Kahlo, O Onion Musk,
T Tomathor, A Aji Styles), numbers 1-9, two copies each.  Everyone starts with 7 cards in
hand and 1 face up in their preparation zone; two discard piles get 12 cards each (2-3
players) or 6 (4-6); the rest is the draw pile.  A turn: (1) optionally prepare one hand card
into the preparation zone (at most 4 cards there) and resolve its ability; (2) optionally make
a dish of 3+ cards from hand and zone (same number, same type, or a run); (3) draw 2 cards
from any mix of the draw pile and the discard piles.  When the draw pile runs out the round is
finished and the cards in dishes are scored: 1 each, +1 per valid dish, +2 per valid dish of
9+ cards (feast), +3 per dish holding all five types (guacamole, valid or not).  Ties: more
guacamole dishes, then more dishes, then fewer cards in hand and preparation zone, else a
shared win.

Notation (case-insensitive, spaces/commas tolerant).  Cards are number + type letter: ``5T``.
A hand card is ``5T``; in ``dish``/``add`` a preparation-zone card is ``z5T``.  Visible
cards: ``p2z5T`` (the 5T in player 2's zone), ``p2d1`` (top of player 2's dish 1), ``x1``
/ ``x2`` (top of a discard pile); ``deck`` is the draw pile.  Players are numbered from 1.

* ``free 5T x1``   zone held 4 at turn start: move zone card 5T to discard pile 1 (first thing);
                  ``free z5T x1`` also reads, as a dish writes a zone card
* ``prep 5T``      prepare 5T from hand; its ability step follows
* ``dish 4T`` then ``dish z5L``, ``dish 6O``, ``done``  make a dish one card per move (the
  first card starts it; the last card laid is the visible top); ``cancel`` takes it back
* ``draw deck`` / ``draw x2``  draw one card (twice to end the turn; also Onion Musk's draws)
* ``end``          end the turn when every pile is empty
* abilities: ``add d1 6T,z7T`` (Patricia & Avocaldo, 1-3 cards, last on top),
  ``steal p2`` (Lima Kahlo), ``draw ...`` x3 then ``discard 5T x1`` (Onion Musk),
  ``swap 5T p2d1`` / ``swap z5T x2`` / ``swap p1d2 p3z4A`` (Tomathor: your hand card,
  zone card or dish top first; your zone card is written ``z5T`` as a dish writes it, or
  ``p1z5T`` with your own number), ``take p2d1`` (Aji Styles), ``pass`` declines an ability.

Rulings applied (DECISIONS.md, Guacamole): a dish is a stack whose last card is its visible
top; validity is computed (3+ cards, one number / one type / distinct consecutive numbers, no
9-1 wrap); one new dish per turn (option ``dishes_per_turn``); Patricia & Avocaldo adds up to
3 hand/zone cards to one currently valid dish that must still be valid after the batch;
Tomathor swaps in place, Aji takes into hand, both may target one's own cards; Onion Musk
draws 3 from the draw pile and both discard piles, then discards 1 onto a chosen pile; Lima
Kahlo takes a uniformly random card (empty hand: nothing) and only the two players see it;
the zone holds 4, and with 4 at turn start one may first go to a discard pile; abilities
trigger only when preparing; an empty discard pile is refilled at once from the draw pile;
the end triggers when the draw pile's last card leaves by any effect (refills included), the
round is completed, then draws come from the discard piles, and nothing when all are empty;
no hand limit; scoring and tiebreakers as the rulebook.

Choices where the texts are silent: seat 0 starts (the table seats whoever last ate
guacamole first); steps keep the rulebook order (free, prepare, dish, draw): after a dish no
card may be prepared, and the first draw ends steps 1-2; every ability may be declined with
``pass`` (Onion Musk only before its first draw) and is skipped when it has nothing to act on;
freeing a card does not oblige one to prepare; a dish is laid one card per move (listing every
possible dish at once grows exponentially with the hand, as there is no hand limit): each card
must keep the cards laid so far all one number, all one type, or all different numbers; ``done``
serves it once valid, ``cancel`` returns the cards (they were seen); the dish in progress is
public; Patricia & Avocaldo's 1-3 cards are one move, so the batch rule applies exactly;
moving a card into a zone by Tomathor does not trigger its ability; swapping two cards of the same zone is refused (it changes nothing); a
dish emptied by Aji stays numbered but counts as no dish; "more dishes" counts dishes holding
at least one card; the whole content of every dish is public (it was laid face up), the
discard piles show only their top and size; the card Lima Kahlo took is told to the thief and to
the victim in their own views (``View.taken`` and the summary) until the thief's next turn
begins, so the victim learns it even if the turn passes them by.
"""

from __future__ import annotations

from engines.core import N_

from .ai import computer_move, determinize
from .board import describe
from .moves import (
    Add,
    Cancel,
    Discard,
    Dish,
    Done,
    Draw,
    End,
    Free,
    Move,
    Pass,
    Prep,
    Steal,
    Swap,
    Take,
    parse_move,
)
from .rules import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    TITLE,
    Config,
    DishView,
    State,
    View,
    apply_move,
    from_dict,
    legal_moves,
    move_privacy,
    new_game,
    outcome,
    readable,
    scores_now,
    summary,
    to_dict,
    to_move,
    turn_number,
    undoable,
    view_for,
)
from .told import tell_turn, worded
from .words import KINDS, WORDS, move_words

# The edition of the rules and of the states' form (see engines.core): 1 for the exports written
# before exports named their edition, 2 from then on; 3 from when an ability with nothing to act on
# is skipped (Onion Musk with nothing left to draw asks for no discard; Lima Kahlo is skipped when
# every other hand is empty).
EDITION = 3

RULES_HELP = N_("""**Guacamole** — cook the tastiest dishes. Only cards in your dishes score.
**Setup**: two discard piles of 12 cards each with 2-3 players, of 6 each with 4-6; the rest is the draw pile.
**Turn**, in order, each step optional except the last:
1. `prep 5T` puts a hand card in your preparation zone (max 4) and fires its power. With 4 there at the start of your turn you may first `free 5T x1` one onto a discard pile.
2. Build a dish one card per move from hand (`dish 5T`) or zone (`dish z5T`), then `done` (or `cancel`). It needs 3+ cards: all one number, all one type, or a run (no 9-1 wrap). The last card laid is the visible top.
3. Draw two, one at a time (no hand limit): `draw deck`, `draw x1`, `draw x2`. An empty discard pile is refilled at once. Once the draw pile is empty, draw from the discard piles; with nothing left, `end` the turn.
**Powers** fire only on `prep`, not when Tomathor swaps a card into a zone (`pass` skips one):
• P Patricia & Avocaldo: `add d1 6T,z7T` (1-3 cards to a valid dish, which must stay valid)
• L Lima Kahlo: `steal p2` (random card of their hand; only you two see which)
• O Onion Musk: three `draw …` (`deck`, `x1`, `x2` in any mix), then `discard 5T x1`
• T Tomathor: `swap 5T p2d1` — your hand card, zone card (`z5T`) or dish top (`p1d2`) for any visible card
• A Aji Styles: `take x2` — any visible card to your hand
Visible cards: zone cards `p2z5T`, dish tops `p2d1`, discard tops `x1` `x2`. A dish broken by a swap or take accepts no cards until fixed.
**End**: when the draw pile runs dry the round is finished. Score 1 per dish card, +1 per valid dish, +2 per valid dish of 9+, +3 per dish with all 5 types. Ties: more guacamoles, more dishes, fewer cards in hand+zone, else shared.
**Option** `{option dishes_per_turn}` (default 1; 0 = no limit).""")

__all__ = [
    "EDITION",
    "KINDS",
    "WORDS",
    "move_words",
    "turn_number",
    "TITLE",
    "MIN_PLAYERS",
    "MAX_PLAYERS",
    "RULES_HELP",
    "Config",
    "State",
    "View",
    "DishView",
    "Move",
    "Prep",
    "Free",
    "Dish",
    "Done",
    "Cancel",
    "Add",
    "Steal",
    "Swap",
    "Take",
    "Draw",
    "Discard",
    "Pass",
    "End",
    "new_game",
    "parse_move",
    "legal_moves",
    "apply_move",
    "to_move",
    "view_for",
    "outcome",
    "to_dict",
    "from_dict",
    "computer_move",
    "move_privacy",
    "readable",
    "scores_now",
    "undoable",
    "summary",
    "tell_turn",
    "worded",
    "describe",
    "determinize",
]

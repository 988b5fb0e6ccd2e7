"""P'achakuna: two traders drive llamas across a hex board of turning tiles.

The game.  A hexagon of 61 fields (side 5) holds 54 terrain tiles and 7
villages: white 55 in the centre and the corners 11 yellow, 15 orange, 59 red,
95 purple, 91 blue, 51 green.  Every tile edge is valley or mountain.  Seat 0
plays White (llamas walk valleys) and begins; seat 1 plays Black (llamas climb
mountains) and starts with the single brown resource.  Each begins with one
llama on the centre carrying white.  A turn: turn tiles (first one free, each
further tile 2 resources), then for each llama in any order: move, sell, buy;
then the demands are refilled and emptied llamas reloaded.  Selling a load at
a village: not on its demand -> nothing (the demand still goes); on the small
flag -> 1 of it; on the big flag -> 2 of it.  The first player holding all
seven colours (white, yellow, orange, red, purple, blue, green; brown and
loads do not count) wins at once.

Fields are numbered row then position: 11-15 (top row), 21-26, ..., 91-95.

Notation (case-insensitive, spaces tolerated):
- ``r34+2``  turn tile 34 two sixths clockwise (0-5; ``r34-1`` = ``r34+5``;
  ``r34+0`` leaves it as it is but still counts and gets a rock).
- ``r34+2/ry`` the same, paying with cut-out colours red and yellow; needed only
  when your loose resources do not cover the 2 (one letter per missing piece).
- ``m1-56``  move your llama 1 to field 56 (also ``m1 56``, ``m156``).
- ``s1``     llama 1 sells its load to the village it stands on.
- ``b1``     buy a new llama in llama 1's village (``b1/ry...`` as for rotations).
- ``end``    finish the turn (refill and reload happen then).
Llamas are numbered 1-3 per player in the order they were bought; the image
shows them as white or black discs carrying that number.  Colour letters:
W Y O R P B G.

Rulings applied (DECISIONS.md, P'achakuna):
- Board shape, numbering, village colours, tile kinds (24 N / 15 F / 15 M with one
  contiguous mountain arc), edge numbering 0 E .. 5 NE, plans A and B as listed.
- A llama crosses between tiles when both facing edges are its terrain; a village
  is entered or left through a tile edge of the llama's terrain; llamas never block.
- Rotating to the same rotation is allowed and still gets a rock.
- The 42 demands are the ordered pairs (big, small) of distinct colours; a demand
  fits a village only if neither colour is the village's; no white at setup.
- Yucata order: rotations, then per llama move -> sell -> buy; a skipped step is lost.
- A llama must move at least one tile unless it starts on a village, and stops at
  the first village it enters.  Sales of kind (i) are optional.
- The win is checked after each sale.  Payments take loose pieces first (brown, then
  extra pieces of a colour); the player names the cut-out colours when needed.

Choices where the texts are silent:
- Each tile may be turned at most once per turn ("further rotations with other tiles").
- Rotating is optional; a turn without rotation removes the opponent's rocks too.
  Rotations end when the player first acts with a llama (or ends the turn).
- Acting with another llama closes the one that was acting (its skipped steps are lost).
- A llama's destination must differ from its start; a llama on a tile with no open
  path at all stays put (it cannot move, so it need not).
- A llama bought this turn does not act; it gets its load at the end of the turn, like
  llamas that sold.  Demands are refilled in field order 11, 15, 51, 55, 59, 91, 95.
- A refill draws the first fitting demand of the shuffled bag (the same as putting
  unfit draws back); when none fits, the used demands return and the bag is reshuffled.
- Option ``max_turns`` (default off) ends a long game: most colours, then most
  resources, wins.  Scores are the number of colours held.
"""

from __future__ import annotations

from engines.core import N_

from .ai import computer_move, determinize
from .board_words import describe
from .rules import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    TITLE,
    Board,
    Buy,
    Config,
    End,
    Llama,
    LlamaView,
    Move,
    MoveLlama,
    Rotate,
    Sell,
    State,
    View,
    apply_move,
    from_dict,
    legal_moves,
    move_privacy,
    new_game,
    outcome,
    parse_move,
    readable,
    scores_now,
    summary,
    to_dict,
    to_move,
    turn_number,
    undoable,
    view_for,
)
from .told import tell_turn
from .words import KINDS, WORDS, move_words

# The edition of the rules and of the states' form (see engines.core): 1 for the exports written
# before exports named their edition, 2 from then on; 3 from when a win's reason names the player
# as well as the side (the same results, told otherwise); 4 from when the side follows the name
# after a comma, not in brackets ("P2 (computer, normal), Black, collected all seven colours").
EDITION = 4

RULES_HELP = N_("""**P'achakuna**: collect all 7 colours (white, yellow, orange, red, purple, blue, green) first. Brown and loads on llamas don't count.
**Sides**: White (first player) walks valleys and starts; Black climbs mountains and starts with the brown piece. Both begin with one llama on the white centre village carrying white.
**A turn**
1. Turn tiles: one free, each extra tile 2 resources. Not a tile with a llama, nor one your rival just marked with a rock. Your turned tiles get rocks.
2. Each llama in any order: move (any distance along an open path of your terrain, at least one tile unless it rests on a village or has no open path, and it stops in the first village it enters), then sell its load there, then buy a llama there (4 resources, max 3).
   Sell: never at a village of the load's colour; load not on the village's demand = nothing; small flag = 1 piece; big flag = 2. The demand leaves.
3. `end`: demands refill, emptied and new llamas load the village colour.
**Notation** (fields 11..95, row then position)
`r34+2` turn tile 34 two sixths clockwise · `m1-56` llama 1 to 56 · `s1` sell · `b1` buy · `end`
Add `/ry` to `r` or `b` to give up cut-out colours when loose pieces fall short.
**Options**: `{option board}` {choice pachakuna new board A}, {choice pachakuna new board B} or {choice pachakuna new board random}; `{option max_turns}` (0 = play to the win; else the game stops after that many turns, both players' turns counted: most colours wins, then most resources, else shared).
**Rulings**: a tile turns once per turn, turning is optional; acting with another llama closes the current one; a new llama waits until next turn; payments use loose pieces first.""")

__all__ = [
    "EDITION",
    "KINDS",
    "WORDS",
    "move_words",
    "turn_number",
    "TITLE",
    "MIN_PLAYERS",
    "MAX_PLAYERS",
    "Config",
    "Board",
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
    "describe",
    "determinize",
    "Move",
    "Rotate",
    "MoveLlama",
    "Sell",
    "Buy",
    "End",
    "Llama",
    "LlamaView",
    "State",
    "View",
    "RULES_HELP",
]

"""Tiwanaku: explore a hidden Andean valley and deduce what Pachamama lets grow where.

The board is a grid of 5 rows (A-E) by 5 or 9 columns.  The hidden map (the
Pachamama disc) gives every cell a terrain (swamp S, desert D, mountain M,
forest F) and a crop.  Same-terrain cells that touch orthogonally form a
region of 1 to 5 cells; two regions of one terrain never touch, even at a
corner.  A region of n cells holds the crops 1..n once each, and equal crops
never touch, even at a corner.  A few cells start revealed (terrain and
crop); with them and the full terrain, only one crop layout fits.

On a turn a player takes one action: Explore (an explorer stops on a hidden
space, which shows its terrain and gives an offering cube of it), Move (stop
on a discovered tile), or Divine (guess the crops under one's explorers, one
after another while right; a right guess scores the crop's value plus the
diversity scale, a wrong one plants the true crop, costs its value and ends
the turn).  At any moment of one's own turn one may also trade 2 cubes for 1,
or offer 4 different cubes for one extra action or a private look at the
disc.  When no hidden
space is left, a final round of divinations is played and leftover cubes
score 1 each.

Notation (case and spaces do not matter):

- ``+A1``: an explorer from off the board enters on free edge cell A1.
- ``B3-C3``: the explorer on B3 goes to C3 (one step, or any distance along a
  path of one's own explorers and cultivated tiles).  Stopping on a hidden
  space explores it, stopping on a discovered tile is a plain move.
- ``B3-out``: the explorer on B3 leaves the board.
- ``C3=2``: divine crop 2 under one's explorer on C3.
- ``done``: stop divining after a right guess.  ``pass``: leave the final round.
- ``SD>M``: give a swamp and a desert cube for a mountain cube.
- ``extra``: offer S, D, M and F cubes for one more action this turn.
- ``peek:C4``: offer S, D, M and F cubes and see the terrain of hidden space
  C4, or the crop of uncultivated tile C4, privately.

Rulings applied (DECISIONS.md, Tiwanaku):

- Board 5 x 5 (short) or 5 x 9 (long): 1-2 players choose (option ``board``),
  3-4 players play long.  3 cells revealed on 5 x 5, 6 on 5 x 9, and the count
  of cells of each terrain is public.
- Explorers: 5 / 5 / 4 / 3 each for 1 / 2 / 3 / 4 players.  An explorer off
  the board enters on any free edge cell; leaving the board is an action;
  Move may not end on a hidden space; one explorer per cell; paths never
  cross an opponent.
- At most 4 cubes: a 5th is not taken (trade first).  Offerings take one
  cube of each of the 4 terrains.  A peek shows a hidden space's terrain or
  a discovered tile's crop, to that player only.
- Divination as in the text; scores may go below 0.
- Diversity: one scale per crop value, levels 1-5; after moving up, score the
  number of one's stones at that level (this one included); a stone at the
  top scores 1 and stays.
- End: from the player who discovered the last space, in turn order, each
  player divines with one explorer or passes; a pass or a wrong guess puts
  the player out; then every cube is worth 1.  Ties: more right guesses,
  then shared.

Choices where neither text decides:

- Trades and offerings are open whenever it is one's turn: before an action,
  between actions, after a right guess (a peek can settle the next guess; an
  extra action bought then follows the divinations), and on one's turn in the
  final round (trades and peeks only: there are no actions to buy).  After
  the last right guess of the turn's last action the turn lasts while the
  player holds one cube of each terrain (an action can still be bought;
  ``done`` ends it); otherwise a turn ends by itself once its actions are
  used, so nothing can be traded after the last one.  The cube got in a trade
  is any terrain the player names.
- A wrong guess ends the whole turn, extra actions included.  Discovering
  the last space starts the final round at once (remaining actions lapse).
- Entering puts the explorer straight on an edge cell (no path walk on the
  same action).  Any crop 1-5 may be guessed.
- Peeking at a cultivated tile, or at something already peeked, is refused;
  everyone is told that a peek happened, not where.
- In the final round a player with no explorer on an uncultivated tile is
  out at once.
- The map generator aims at regions of 1-5 cells, drawing sizes 2-3 most
  often (the fill then joins cells, so regions of 4-5 cells come out most
  common), and reveals exactly 3 / 6 cells; it keeps drawing maps until those
  cells make the crop layout unique given the full terrain.
"""

from __future__ import annotations

from engines.core import N_
from engines.tiwanaku.ai import computer_move, determinize
from engines.tiwanaku.board_words import describe
from engines.tiwanaku.moves import Move, parse_move, pointless
from engines.tiwanaku.rules import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    TITLE,
    BoardSize,
    Config,
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
from engines.tiwanaku.told import tell_turn
from engines.tiwanaku.words import KINDS, WORDS, move_words

# The edition of the rules and of the states' form (see engines.core): 1 for the exports written
# before exports named their edition, 2 from then on; 3 from when the state counts every peek a
# seat made (peek_counts, public) and a turn's highlight keeps every cell the turn changed.
EDITION = 3

RULES_HELP = N_(
    """**Tiwanaku** - explore a hidden valley and deduce its crops.
**Map**: rows A-E, columns 1-5 (short) or 1-9 (long). Each cell hides a terrain (S swamp, D desert, M mountain, F forest). Touching cells of one terrain form a region of 1-5 cells; a region of n cells grows crops 1..n, and equal crops never touch, not even diagonally. A few cells start revealed, and the terrain totals are public.
**Your turn**: one action:
- explore or move: `+A1` brings an explorer in on a free edge cell, `B3-C3` moves one a step (or along a chain of your explorers and planted tiles, never over an opponent). Stopping on a hidden space reveals it and gives you a cube of that terrain (max 4).
- `B3-out` takes an explorer off the board.
- divine: `C3=2` guesses the crop under your explorer. Right: score its value + diversity points, and you may guess again with another explorer or say `done`. Wrong: the real crop is planted, you lose its value and your turn ends.
Any time in your turn (also after a right guess, and on your turn in the final round): `SD>M` trades 2 cubes for 1; with one cube of each terrain, `peek:C4` shows you (only you) a hidden terrain or an unplanted crop, and `extra` buys another action (not in the final round).
**Diversity**: each crop value has a scale; a right guess moves that stone up one level and scores how many of your stones share that level (1 if already at the top).
**End**: once every space is revealed, players take turns from whoever revealed the last one: guess under one explorer or `pass`; a pass or miss puts you out. Cubes left score 1 each. Ties: most right guesses, else shared.
**Options**: `{option board}` {choice tiwanaku new board auto}, {choice tiwanaku new board short} or {choice tiwanaku new board long}.
Rulings used: 5/5/4/3 explorers; a 5th cube is refused; scores can go negative."""
)

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
    "BoardSize",
    "Config",
    "Move",
    "State",
    "View",
    "apply_move",
    "computer_move",
    "determinize",
    "from_dict",
    "legal_moves",
    "new_game",
    "outcome",
    "parse_move",
    "pointless",
    "to_dict",
    "to_move",
    "view_for",
    "move_privacy",
    "readable",
    "scores_now",
    "undoable",
    "summary",
    "tell_turn",
    "describe",
]

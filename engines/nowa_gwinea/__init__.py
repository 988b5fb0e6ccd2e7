"""Nowa Gwinea: a simultaneous pentomino village-building race for 1-4 players.

Each round every player gets a task board (8x8, rows A-H, columns 1-8) showing
6 totems, 5 water holes and 5 fruit bushes; one die roll picks the totem where
the villages start.  Everyone builds at once with their own 12 pentomino huts
(F I L N P T U V W X Y Z).  The first player whose legal village covers all
the water holes calls "Gwinea!" and the round ends: every legal village scores
1 point per water hole covered, the caller also scores a fruit bonus (1, 3, 6,
10, 15 for 1-5 fruit), a village that breaks a rule scores 0.  After 9 rounds
the most points wins (a tie is shared).

Notation (case-insensitive, spaces ignored)
-------------------------------------------
``F3C4``      build hut F in orientation 3 with its anchor square on C4.
              Orientation 0 is the hut as drawn in the hut chart
              (``render_huts()`` in the renderer); 1, 2, 3 turn it a quarter,
              half, three quarters clockwise; 4-7 mirror it left-right first,
              then turn it 0-3 quarters clockwise.  The anchor is the hut's
              first square in reading order: the leftmost square of its top
              row.  Orientations giving the same shape share the smallest
              index (``X5C4`` is read as ``X0C4``).
``remove F``  take hut F back (also ``rm F`` or ``-F``).
``gwinea``    call Gwinea (only with a legal village covering the water holes).
``done``      stop building this round (the round ends when all have stopped).
``timeout``   the round's deadline passed; only the table sends it, as
              ``apply_move(state, TABLE, Timeout())`` (``None`` works too).

Rulings applied (DECISIONS.md, Nowa Gwinea)
-------------------------------------------
- Huts are the 12 pentominoes, turned and flipped freely.
- 32 double-sided boards x 6 totems = 192 standard + 192 hard tasks, generated
  deterministically (``python -m engines.nowa_gwinea.generate``) into
  ``tasks.json`` with one witness village per task; the solver (``solver.py``)
  is exact.  Standard: a village of at most 4 huts exists.  Hard: the water
  holes lie at least 5 squares apart, so every village needs 5 huts or more,
  and 97 of the 192 hard tasks need 6 or more (at least one on every board;
  ``generate.py`` says why not all six totems of a side can).  Witnesses and
  sizes count only villages that are one group (buildable hut by hut); 9 of
  the tasks needing 6 could be done with 5 huts in two groups.
- Hard tasks need 6+ huts in play: with ``hard_reroll`` (on by default) the
  die is rolled again until it shows a totem whose task needs 6 huts or more
  on every hard board in play.  With one board each, a hard board without
  such a task for the roll goes back for the next one in the stack that has
  one (boards are dealt face down, so nobody can tell); only when the stack
  has none left before its reshuffle does a 5-hut task stay (measured: 2.4% of
  seat-rounds with 4 players all on hard boards, 0.02% with 3, none with 1-2).
  The sizes are those of covering all 5 water holes (``tasks.json`` holds no
  other): with a lower ``water_target`` the die is still rolled by them, and
  the round's announcement says "6 huts or more for all 5 water holes".
- By default everyone plays the same board each round; option ``boards=each``.
- Placement: no overlap, inside the board, huts touch only at corners, a hut
  covers the rolled totem, no other totem covered, and the huts are ONE
  village: a single group linked corner to corner from the hut on the rolled
  totem.  Refusals are immediate and say why; so is the refusal of a
  ``remove`` that would split the village or leave huts without the totem hut.
- The die roll and boards are public; villages are secret while the round
  runs (others see hut counts) and revealed in ``last_round`` when it ends.
- Deadline (asynchronous play): ``timeout`` ends the round; the caller is whoever
  completed a legal village first, else the legal village with the most water
  holes (earliest to reach that count wins a tie); nobody if none has water.
- Both variants: ``water_target`` (fewer water holes needed to call) and
  ``fruit_for_all``: players who did not cover all the water holes score 2 per
  fruit bush they cover; the caller scores the usual fruit bonus; anyone else
  who covered them all scores the water holes only.

Choices where the texts are silent
----------------------------------
- Building order: the first hut must cover the rolled totem; each later hut
  must touch an existing hut at a corner.  ``remove`` takes back a hut at the
  end of a branch (the totem hut goes last); the refusal lists the huts that
  may go.  A village saved under older rules that is already split is
  "broken": it may not call Gwinea, scores 0 unless repaired, and may give
  back any hut.
- ``done`` lets a player stop; when every player has stopped the round ends as
  at a deadline.  In the water-target variant the caller needs at least N water
  holes and every covered hole scores; with both variants, "covered all the
  water holes" in the fruit variant means "covered the N needed to call".
- Fruit variant at a deadline (or when everyone said ``done``): only a village
  that covers the water holes needed can be the caller.  A player short of
  them is one the variant gives 2 per fruit bush, whoever reached the most
  water first; so when nobody completed a village nobody has the bonus and
  every legal village scores its water holes and 2 per fruit bush.  (Naming
  the one with the most water the caller, as without the variant, would give
  them the bonus table instead, less for 1, 2 or 4 fruit bushes than a rival
  level with them.)
- With one board each and 4 players the 32 boards run out in round 9: the used
  boards are reshuffled into a new stack (decided at setup).
- The +50/+100 tokens only wrap the score track; the engine keeps full totals.
- ``hard_seats`` gives the rulebook's tip (grown-ups on the hard side) as an
  option: listed seats play side B whatever ``side`` says.
"""

from __future__ import annotations

from engines.core import N_

from .ai import computer_move, determinize
from .rules import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    TITLE,
    Config,
    Deal,
    Done,
    Gwinea,
    Move,
    Place,
    Remove,
    Side,
    State,
    Timeout,
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
    waiting,
)
from .told import tell_turn
from .words import KINDS, WORDS, describe, move_words

# The edition of the rules and of the states' form (see engines.core): 1 for the exports written
# before exports named their edition, 2 from then on; 3 from when, in the fruit variant, a round
# ended by its deadline (or by everyone's done) has no caller unless a village covers the water
# holes needed (the one with the most water scored the bonus table before).
EDITION = 3

RULES_HELP = N_("""**Nowa Gwinea** - build a village of pentomino huts on an 8x8 task board, all at once.
**Goal:** most points after 9 rounds (a tie is shared).
**Round:** everyone gets a board (rows A-H, columns 1-8) with 6 totems, 5 water holes and 5 fruit bushes; the die picks the totem your village must cover. Your first hut covers it; every later hut must touch one of yours *only at a corner*, so the village is one group. Never overlap, never leave the board, never cover another totem.
**Gwinea!** When your village covers every water hole, call it: the round ends for all. Everyone scores 1 per water hole; the caller adds a fruit bonus (1/3/6/10/15 for 1-5 fruit).
**Moves:**
`F3C4` hut F, orientation 3, anchor square C4 (see the hut chart: orientations 0-7, the anchor is the leftmost square of the top row)
`remove F` take a hut back (the village must stay one group; the totem hut goes last)   `gwinea` call   `done` stop building this round
**Options:** `{option side}` {choice nowa_gwinea new side standard} or {choice nowa_gwinea new side hard}; `{option hard_seats}` (e.g. `1,2` play the hard side); `{option boards}` {choice nowa_gwinea new boards shared} (default) or {choice nowa_gwinea new boards each}; `{option water_target}` 1-5 (variant); `{option fruit_for_all}` (variant: whoever did not cover the water holes needed gets 2 per fruit); `{option hard_reroll}` (on: the hard side re-rolls the die until all 5 water holes need 6+ huts).
**Table rulings:** villages stay hidden until the round ends; at a deadline or when all say `done`, the caller is the first finished village, else the most water (first there wins a tie; not with `{option fruit_for_all}`); with both variants, covering the `{option water_target}` holes counts as covering all the water (no fruit unless you called).""")

TABLE_MOVES = True
"""The table ends a round when its deadline passes (``timeout``, played as seat ``engines.core.TABLE``)."""

SEATED_AS_JOINED = True
"""The table seats the players in the order they joined, not shuffled: nobody moves first, and
``hard_seats`` names them by the lobby's numbers."""

__all__ = [
    "EDITION",
    "KINDS",
    "WORDS",
    "move_words",
    "turn_number",
    "TABLE_MOVES",
    "SEATED_AS_JOINED",
    "TITLE",
    "MIN_PLAYERS",
    "MAX_PLAYERS",
    "Config",
    "new_game",
    "parse_move",
    "legal_moves",
    "apply_move",
    "to_move",
    "waiting",
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
    "State",
    "View",
    "RULES_HELP",
    "Place",
    "Remove",
    "Gwinea",
    "Done",
    "Timeout",
    "Side",
    "Deal",
]

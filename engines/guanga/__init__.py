"""Guanga: Tejidos Andinos, for 1 to 4 weavers.

Each player fills a 5 x 5 guanga (rows A-E, columns 1-5, mother patch on C3)
with fabric patches taken two at a time from a common basket of 8, stacking
allowed (only the top patch counts).  A market card is claimed by showing its
shape on the guanga, turned or mirrored any way, entirely in the card's colour
or entirely in its symbol, while a workshop marker for that colour/symbol is
face up; the marker flips and two patches of the shape go back to the bag.
Points: market VP, orders, Mullu shells, -2 per empty cell, +10 for the first
complete guanga.  Modes: beginner, apprentice, master (side B), artisan; the
stoppers variant in beginner and apprentice; 1 player is the solo version.

Notation (case-insensitive, extra spaces ignored; slots are basket slots 1-8):

- ``P3B2``          take basket slot 3 and place it on B2 (one move per patch: a
                    turn's take is ``P...`` then ``P...``; also the blanket's extra patch)
- ``S3B2``          spend shells to buy basket slot 3 and place it on B2
- ``refresh``       spend a shell to replace the whole basket
- ``T2C4``          put one of your stoppers on player 2's C4
- ``C A03 yellow B2C3D4``  claim A03 with its colour (or ``amaru``, its symbol; ``col``/``sym``
                    also accepted) shown on those cells
- ``R B2D4``        return the top patches of B2 and D4 (two cells of the claimed shape)
- ``keep O3``       keep order O3 (apprentice and up, at the start)
- ``done``          end the turn (no claim, or nothing more to do; skips a blanket's extra)

Phases of a turn: ``place1`` -> ``place2`` -> ``claim`` -> (``return`` -> ``extra`` for a
blanket) -> ``after``.  The turn ends by ``done``, or by itself when nothing optional is left.
A turn that cannot place the two patches while the round is finished (below) starts in ``stuck``
instead of ``place1``: shells and stoppers may still be used, then ``done`` passes.

Rulings applied (DECISIONS.md, Guanga section): 4 colours x 5 symbols, 6 of each kind (solo:
2 each in beginner = 40, 3 each otherwise = 60); 2 markers per colour and per symbol, grey markers
4p 2 / 3p 1 / 2p 0 / solo 0, solo one marker per attribute (9); grey stands in for a colour only
when every colour marker is down, never for a symbol; end trigger at 4 / 6 / 6 visible markers,
round completed; shapes in any of 8 orientations on top patches, not necessarily connected,
extra matching patches harmless, stopper cells never count; market 3/3/3, 4/3/2, 4/3/2 + 2
blankets; replaced from the level's deck, not in solo, an empty deck leaves the slot empty;
orders need 2 items per part, blankets count, secret until the end; apprentice placement: two
patches differing in colour and symbol, orthogonally adjacent; artisan: all joined to C3, mother
never removed, cut-off patches to the bag; a bought patch need not touch the turn's patches;
apprentice shells 3 each, buy 1, refresh 1, 1 VP each; master/artisan shells 2 per complete
row/column in the claimed attribute, taken from basket patches, buy 3, refresh 1, 2 per VP;
beginner ends when the basket cannot be refilled to 8, later modes recycle the bag; blanket claim
gives one more basket patch; stoppers 2 per player, 2 per guanga, fixed, counted as filled; ties
by fewer negative points, then shared; solo ranks with exactly 120 as Artisan.

Choices where the texts are silent:

- The eldest matron is seat 0; play goes by seat order and the round ends after the last seat.
- Mother patch: the first basket slot of the player's colour (basket refilled at once), else the
  topmost such patch of the pile.  Seat i plays colour i (red, blue, yellow, green).
- The two patches of a take are two moves; nothing else happens between them.  Shells and
  stoppers are used before the take or after it (claim and after phases).  If a buy, refresh or
  stopper before the take leaves no legal pair, the take is skipped, and with it the claim (the
  rulebook allows a claim only after the take).
- The start-of-turn end of the solo version (the two basket patches cannot be placed) also ends
  games of 2-4 (it only happens when the basket is unusable), so the game always ends; as the
  rulebook says of the workshop's end, the round is completed: that seat passes, every later seat
  of the round plays its turn (a seat that cannot place passes too), and then the game ends, so
  everyone has played as many turns.  Shells may be used "at any moment during your turn": when
  the seat's refresh (or buy) makes the take possible, the end its turn triggered is lifted and
  the turn goes on as any other, so the game ends only when the seat's turn ends without a take.  Option ``cannot_place=end_now`` ends the game at once
  instead, at the start of that turn.  Solo always ends at once (the option is refused there).
- Beginner: when the basket cannot be refilled to 8 a game of 2-4 ends after that turn, at once.
  The solo version ends by its own rule alone (its turn starts with no two basket patches to place),
  so a solo beginner plays on with what the basket holds.
  Later modes: with pile and bag both empty the basket simply stays short.
- Shells gained (master) are counted before the two patches are returned; the patches turned
  face down are the leftmost basket patches; spent shell patches go to the bag.  A refresh puts
  the old basket in the bag, then draws 8 (recycling the bag if the pile runs out).
- Returns take the top patch; in artisan the cut-off cells lose their whole stacks.
- A stopper counts as filled for the complete-guanga tile too; the tile goes to the first
  guanga full at any moment (not in solo).  The blanket's extra patch is optional (``done``).
- Views show each cell's top patch and stack height (lower patches are covered), and mark the
  cells the moves of a turn touched and the market slot of its claim (the previous turn's until
  the next turn's first move).
"""

from __future__ import annotations

from engines.core import N_

from . import data as D
from .ai import computer_move, determinize
from .describe import describe
from .rules import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    TITLE,
    Config,
    Mode,
    Move,
    State,
    Stuck,
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
    solo_result,
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
# before exports named their edition, when a game of 2-4 ended at once if a player could not
# place (today's cannot_place end_now); 2 from then on, the round finished by default; 3 from when
# the outcome's words name the player whose turn could not start and give a tiebreak's negative
# points (the same results, told otherwise); 4 from when a seat that could not place lifts the end
# its turn triggered by making the take possible with shells (a game may go on where it ended).
EDITION = 4

RULES_HELP = N_("""**Guanga: Tejidos Andinos**: weave a 5x5 guanga (rows A-E, cols 1-5) to match market cards.
**Turn**: take 2 basket patches, a move each (`P3B2`: slot 3 onto B2; stack freely, only tops \
count). You may then claim a card by its shape (turned/mirrored) all in its colour or all \
in its symbol, with its workshop marker face up (grey, 2 with 4 players, 1 with 3, none with \
1-2: any colour once all colours are down): `C A03 yellow B2C3D4`, and return 2 of its patches \
to the bag: `R B2D4`. Then `done` (auto if nothing's left).
**End**: when face-up workshop markers are down to 6 (2-3 players) or 4 (4 players), or a \
player can't place 2 basket patches at turn start (they pass), the round is played out (not \
with `{option cannot_place}` "{choice guanga new cannot_place end_now}"); beginner (not solo) \
ends at once if the basket can't refill. Score card VP, orders, shells, +10 for the first full \
guanga, -2 per empty cell; ties: fewer minus points wins, else shared.
**Modes** (`{option mode}`)
- {choice guanga new mode beginner}: place anywhere, market 3/3/3.
- {choice guanga new mode apprentice}: market 4/3/2, keep 1 of 2 secret orders (`keep O3`; \
each half scores with 2 cards of its flag/typology), 3 shells (1 VP each left). Both patches \
differ in colour and symbol, side by side. 1 shell each: `S3B2` buys a patch, `refresh` renews \
the basket.
- {choice guanga new mode master}: no starting shells; a claim earns 2 per full row/column of \
the colour or symbol used, taken face down from the basket; a patch costs 3, 2 shells = 1 VP; \
market + 2 blankets (+1 patch each).
- {choice guanga new mode artisan}: all patches link to C3, whose mother patch is never \
removed; cut-off patches go to the bag.
- `{option stoppers}` (first two modes): `T2C4` blocks player 2's C4; 2 each, max 2 per \
guanga, counted as filled.
**Solo**: fewer patches; one workshop marker per colour and symbol (9 claims at most); no \
market refills, orders or +10 tile; master's lines still earn shells; you get a rank.""")


RENAMED = D.RENAMED
"""Card names as sentences stored before they were spelt as now (see :class:`engines.core.Engine`)."""


def earlier_options(edition: int, seats: int, options: dict[str, object]) -> dict[str, object]:
    """The options that replay a game of an earlier edition the way it was played: before
    edition 2, a game of 2-4 ended at once when a player could not place (``end_now``)."""
    if edition < 2 and seats > 1 and "cannot_place" not in options:
        return {**options, "cannot_place": Stuck.END_NOW.value}
    return options


OPTIONS_SAID = frozenset({"mode", "stoppers"})
"""The options the board in words (:func:`describe`) states in its first line already (the mode
and the stoppers variant): the table leaves them out of its line of options."""

__all__ = [
    "EDITION",
    "OPTIONS_SAID",
    "earlier_options",
    "RENAMED",
    "KINDS",
    "WORDS",
    "move_words",
    "turn_number",
    "TITLE",
    "MIN_PLAYERS",
    "MAX_PLAYERS",
    "Config",
    "Mode",
    "Move",
    "State",
    "Stuck",
    "View",
    "RULES_HELP",
    "new_game",
    "parse_move",
    "legal_moves",
    "apply_move",
    "to_move",
    "view_for",
    "outcome",
    "solo_result",
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
]

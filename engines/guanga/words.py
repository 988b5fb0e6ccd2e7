"""Guanga's moves in words: the one place that describes them.

``KINDS`` orders the kinds as a turn runs (keep an order at the start, buy,
refresh or stopper, the two patches of the take, claim, return, done);
``WORDS`` holds every English text by message id, each marked for translation
(the table puts it in the reader's language); :func:`move_words` describes one
legal move, its colours, symbols, patches, flags and typologies as terms
(:mod:`engines.guanga.terms`).
"""

from __future__ import annotations

from engines.core import N_, Kind, Level, MoveWords, Said, said

from . import terms as W
from .rules import (
    CARD,
    ORDER,
    Buy,
    Claim,
    Done,
    Keep,
    Move,
    Place,
    Refresh,
    Return,
    State,
    Stopper,
    patch_term,
)
from .shapes import CELL_NAMES

KINDS: tuple[Kind, ...] = (
    Kind("keep"),
    Kind("place"),
    Kind("buy"),
    Kind("refresh"),
    Kind("stopper"),
    Kind("claim"),
    Kind("return"),
    Kind("done", ends_turn=True),
)

WORDS: dict[str, str] = {
    "option.mode": N_("{value} mode"),
    "option.mode.beginner": N_("beginner mode"),
    "option.mode.apprentice": N_("apprentice mode"),
    "option.mode.master": N_("master mode"),
    "option.mode.artisan": N_("artisan mode"),
    "option.stoppers.True": N_("with stoppers"),
    "option.stoppers.False": N_("without stoppers"),
    "option.cannot_place.finish_round": N_("the round is finished when a player cannot place"),
    "option.cannot_place.end_now": N_("the game ends at once when a player cannot place"),
    "kind.keep": N_("Keep an order"),
    "kind.place": N_("Place a basket patch"),
    "kind.buy": N_("Buy a patch with shells"),
    "kind.refresh": N_("Refresh the basket"),
    "kind.stopper": N_("Put a stopper"),
    "kind.claim": N_("Claim a market card"),
    "kind.return": N_("Return two patches"),
    "kind.done": N_("End the turn"),
    "group.place": N_("Slot {slot} ({patch})"),
    "group.buy": N_("Buy slot {slot} ({patch})"),
    "group.stopper": N_("Stopper on {target}'s guanga"),
    "group.stopper.own": N_("Stopper on your guanga"),
    "move.keep": N_("keep order {order}: {flag} {flag_points} / {typology} {typology_points}"),
    "move.place": N_("on {cell}"),
    "move.buy": N_("onto {cell}"),
    "move.refresh": N_("refresh the basket with a shell"),
    "move.stopper": N_("at {cell}"),
    "move.claim": N_("claim {name} ({card}) in {attr} on {cells}"),
    "move.return": N_("return the patches on {first} and {second}"),
    "region.return": N_("the patch on {first} and one more"),
    "move.done": N_("end the turn"),
}


def _slot(state: State, slot: int) -> Said:
    kind = state.basket[slot - 1] if 0 < slot <= len(state.basket) else None
    return patch_term(kind) if kind is not None else said("empty")


def move_words(state: State, seat: int, move: Move) -> MoveWords:
    """``move`` (legal for ``seat`` in ``state``) in words."""
    if isinstance(move, Keep):
        _, flag, fp, typology, tp = ORDER[move.order]
        return MoveWords(
            "keep",
            "move.keep",
            {
                "order": move.order,
                "flag": W.word(W.FLAGS, flag),
                "flag_points": fp,
                "typology": W.word(W.TYPOLOGIES, typology),
                "typology_points": tp,
            },
        )
    if isinstance(move, Place | Buy):
        kind = "place" if isinstance(move, Place) else "buy"
        patch = _slot(state, move.slot)
        return MoveWords(
            kind,
            f"move.{kind}",
            {"slot": move.slot, "patch": patch, "cell": CELL_NAMES[move.cell]},
            group=str(move.slot),
            group_args={"slot": move.slot, "patch": patch},
        )
    if isinstance(move, Refresh):
        return MoveWords("refresh", "move.refresh")
    if isinstance(move, Stopper):
        target = f"{{p{move.target}}}"
        return MoveWords(
            "stopper",
            "move.stopper",
            {"target": target, "cell": CELL_NAMES[move.cell]},
            group=str(move.target),
            group_args={"target": target},
            # The asker's own guanga is theirs in their menu, not named like another player's.
            group_text="group.stopper.own" if move.target == seat else None,
        )
    if isinstance(move, Claim):
        cells = " ".join(CELL_NAMES[c] for c in move.cells)
        name = CARD[move.card][1] if move.card in CARD else move.card
        return MoveWords(
            "claim",
            "move.claim",
            {"name": name, "card": move.card, "attr": W.word(W.ATTRS, move.attr), "cells": cells},
        )
    if isinstance(move, Return):
        first, second = (CELL_NAMES[c] for c in move.cells)
        # The way down when a big claim leaves more than 25 pairs to choose from: the first patch.
        return MoveWords(
            "return",
            "move.return",
            {"first": first, "second": second},
            regions=(Level(first, "region.return", {"first": first}),),
        )
    if isinstance(move, Done):
        return MoveWords("done", "move.done")
    raise TypeError(f"not a Guanga move: {move!r}")


__all__ = ["KINDS", "WORDS", "move_words"]

"""A P'achakuna turn told the way a player would tell it, from its events (:data:`Told`).

One line for the tiles turned and where the llamas went ("{p0} turned tile 47 two sixths
clockwise and moved llama 1 to village 15 (orange) and llama 2 to tile 33"), one for what was
sold and bought, one for the end of the turn (new demands, the llamas reloaded); the game's
end on a line of its own.  Only the first line names the player; the history keeps every
step, with where each llama came from.

Imports :mod:`engines.core` (its :func:`~engines.core.listed` makes the lists told here).
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.core import Said, Told, listed, listing, said, said_n

_STEPS = {"rotate": 0, "move": 0, "sell": 1, "buy": 1, "end_turn": 2, "recycle": 2, "refill": 2, "reload": 2}
"""Which line each kind of event is told on; any other kind (the end) gets a line of its own."""


def tell_turn(told: Sequence[Told]) -> list[list[Said]]:
    """The lines of one seat's turn, each a list of sentences."""
    mover = next((s.args["p0"] for _, s in told if "p0" in s.args), None)
    clauses: list[list[Said]] = [[], [], []]
    sentences: list[list[Said]] = [[], [], []]
    llamas: list[Said] = []
    own: list[Said] = []
    for kind, sentence in told:
        args = sentence.args
        step = _STEPS.get(kind)
        if step is None:
            own.append(sentence)
        elif kind == "move":
            if not llamas:
                clauses[0].append(Said("llamas"))
            if "colour" in args:
                llamas.append(
                    said(
                        "llama {llama} to village {cell} ({colour})",
                        llama=args["llama"],
                        cell=args["cell"],
                        colour=args["colour"],
                    )
                )
            else:
                llamas.append(said("llama {llama} to tile {cell}", llama=args["llama"], cell=args["cell"]))
        elif kind == "rotate":
            clauses[0].append(_rotated(sentence))
        elif kind == "sell":
            clauses[1].append(_sold(sentence))
        elif kind == "buy":
            clauses[1].append(
                said(
                    "bought llama {llama} at village {village}", llama=args["llama"], village=args["village"]
                )
            )
        elif kind == "reload":
            sentences[2].append(_reloaded(args["loads"]))
        elif kind == "refill":
            sentences[2].append(_demands(sentence))
        elif kind != "end_turn":  # the bag refilled: as the game said it
            sentences[2].append(sentence)
    if not any(clauses) and any(kind == "end_turn" for kind, _ in told):
        clauses[2].append(said("ended the turn"))  # a turn of nothing else: said, so the player is named
    lines: list[list[Said]] = []
    named = mover is None
    for step in range(3):
        parts = [
            said("moved {llamas}", llamas=listing(llamas)) if c.msg == "llamas" else c for c in clauses[step]
        ]
        line: list[Said] = []
        if parts:
            actions = listing(parts)
            line.append(actions if named else said("{player} {actions}", player=mover, actions=actions))
            named = True
        line.extend(sentences[step])
        if line:
            lines.append(line)
    if own:
        lines.append(own)
    return lines


def _rotated(sentence: Said) -> Said:
    args = sentence.args
    if "cost" in args:
        return said(
            "turned tile {cell} {steps}, paying {cost}",
            cell=args["cell"],
            steps=args["steps"],
            cost=args["cost"],
        )
    return said("turned tile {cell} {steps}", cell=args["cell"], steps=args["steps"])


def _sold(sentence: Said) -> Said:
    args = sentence.args
    if "n" in args:
        return said_n(
            args["n"],
            "sold {load} at village {village} for {n} {load}",
            "sold {load} at village {village} for {n} {load}",
            load=args["load"],
            village=args["village"],
        )
    return said(
        "sold {load} at village {village}, which did not ask for it, for nothing",
        load=args["load"],
        village=args["village"],
    )


def _items(listed_: Said) -> list[Said]:
    """The items of a list the rules made (:func:`engines.core.listed`)."""
    items: list[Said] = []
    part: object = listed_
    while isinstance(part, Said) and "item" in part.args and "list" in part.args:
        items.insert(0, part.args["item"])
        part = part.args["list"]
    if isinstance(part, Said):
        items.insert(0, part)
    return items


def _demands(refill: Said) -> Said:
    """The new demands, by what each colour pays: "new demands: 55 (white): red for 2, orange
    for 1; 59 (red): ..." (the big flag pays 2, the small flag 1)."""
    items = _items(refill.args["demands"]) if isinstance(refill.args.get("demands"), Said) else []
    keys = {"village", "colour", "big", "small"}
    if not items or not all(keys <= set(item.args) for item in items):
        return refill
    each = [said("{village} ({colour}): {big} for 2, {small} for 1", **item.args) for item in items]
    return said("new demands: {demands}", demands=listed(each, True))


def _reloaded(loads: Said) -> Said:
    """The llamas reloaded, in a few words: "Reloaded llama 1 with red and llama 2 with white"."""
    items = _items(loads)
    if not all("llama" in item.args for item in items):
        return said("reloaded: {loads}", loads=loads)
    each = [said("llama {llama} with {load}", llama=i.args["llama"], load=i.args["load"]) for i in items]
    return said("reloaded {loads}", loads=listing(each))

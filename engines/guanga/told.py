"""A Guanga turn told the way a player would tell it, from its events (:data:`Told`).

One line for the patches taken and the player's extra actions ("{player} placed blue amaru on
D4 and yellow amaru on C4"), one for the claim ("Claimed A08 Ruana (9 VP) with amaru on C3, C4,
D4, D5, flipping the amaru marker") with what it brought (a card joining the market, shells),
one for the patches returned and what followed; the end coming and the end itself on lines of
their own.  The
player is named once; the basket slot each patch came from stays in the history.

Imports :mod:`engines.core` only.
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.core import N_, Said, Told, listing, said, said_n, told_lines

_PLACED = "{player} placed {patch} (basket slot {slot}) on {cell}"
_CLAUSES: dict[str, str] = {
    "{player} placed the blanket's extra patch, {patch}, on {cell}": N_(
        "placed the blanket's extra patch, {patch}, on {cell}"
    ),
    "{player} can no longer take two patches this turn; the take is skipped": N_(
        "can no longer take two patches this turn, so the take is skipped"
    ),
    "{player} spent a shell to replace the basket": N_("spent a shell to replace the basket"),
    "{player} put a stopper on {target}'s {cell}": N_("put a stopper on {target}'s {cell}"),
    "{player} put a stopper on their own {cell}": N_("put a stopper on their own {cell}"),
    "{player} returned {first} from {first_cell} and {second} from {second_cell} to the bag": N_(
        "returned {first} from {first_cell} and {second} from {second_cell} to the bag"
    ),
    "{player} is the first to complete their guanga and takes the complete-guanga tile ({vp} VP)": N_(
        "is the first to complete their guanga and takes the complete-guanga tile ({vp} VP)"
    ),
    "{player} kept order {order}": N_("kept order {order}"),
    "{player} kept a secret order": N_("kept a secret order"),
    "{player} ended their turn": N_("ended their turn"),
}
"""Each of the player's own sentences, as a clause without its subject."""
_LINES = {"place": 0, "buy": 0, "refresh": 0, "stopper": 0, "skip": 0, "order": 0, "claim": 1, "shells": 1}
_LINES |= {"return": 2, "cutoff": 2, "tile": 2, "done": 2}


def _clause(kind: str, sentence: Said) -> Said | None:
    args = {k: v for k, v in sentence.args.items() if k != "player"}
    msg = sentence.msg
    if msg == _PLACED:
        return Said("placed", {"patch": args["patch"], "cell": args["cell"]})
    if msg in _CLAUSES:
        return Said(_CLAUSES[msg], args)
    if kind == "claim":
        flipped = (
            said("claimed {card} {name} ({vp} VP) with {attr} on {cells}, flipping the {attr} marker", **args)
            if "the {attr} marker" in msg
            else said(
                "claimed {card} {name} ({vp} VP) with {attr} on {cells}, flipping a grey marker", **args
            )
        )
        return flipped
    n = int(args.pop("n", 0))
    if kind == "buy":
        return said_n(
            n,
            "spent {n} shell on {patch} and placed it on {cell}",
            "spent {n} shells on {patch} and placed it on {cell}",
            **args,
        )
    if kind == "shells":
        return said_n(
            n,
            "completed {n} {attr} line and gained {shells}",
            "completed {n} {attr} lines and gained {shells}",
            **args,
        )
    return None


def _line(kind: str, sentence: Said) -> int | None:
    return _LINES.get(kind)


def _merged(clauses: list[Said]) -> list[Said]:
    """The patches taken, one clause: "placed blue amaru on D4 and yellow amaru on C4"; the
    end of a turn that did something else goes without saying."""
    placed = [said("{patch} on {cell}", **c.args) for c in clauses if c.msg == "placed"]
    out: list[Said] = []
    for clause in clauses:
        if clause.msg == "placed":
            if placed:
                out.append(said("placed {patches}", patches=listing(placed)))
                placed = []
        elif clause.msg != "ended their turn" or len(clauses) == 1:
            out.append(clause)
    return out


def tell_turn(told: Sequence[Told]) -> list[list[Said]]:
    """The lines of one seat's turn, each a list of sentences; a card joining the market after
    a claim is its own sentence after the claim."""
    refills: list[Said] = []
    plain: list[Told] = []
    for kind, sentence in told:
        if kind == "claim" and "refill" in sentence.args:
            refills.append(
                said(
                    "{refill} {refill_name} joins the market",
                    refill=sentence.args["refill"],
                    refill_name=sentence.args["refill_name"],
                )
            )
        plain.append((kind, sentence))
    if any(kind in _LINES and kind not in ("done", "cutoff") for kind, _ in plain):
        # the end of a turn that did something else goes without saying (on any of its lines)
        plain = [(kind, sentence) for kind, sentence in plain if kind != "done"]
    lines = told_lines(plain, _clause, _line, merge=_merged)
    if refills:
        at = next((i for i, line in enumerate(lines) if any("claimed" in s.in_words() for s in line)), None)
        if at is not None:
            lines[at] = [*lines[at], *refills]
    return lines

"""The sharp computer player (the strong player's default move and playout policy).

Its own behaviours, each on positions built from seeded games around the last colour: the
opponent is one colour short and one of its llamas carries that colour to a village asking for
it (the sharp player shuts that way with a tile turn when one can, or sells at that village
first; the normal player does so only by chance), or the player itself is one colour short and
one paid tile turn opens its way.
"""

from __future__ import annotations

import random

from engines import pachakuna as P
from engines.pachakuna import ai
from engines.pachakuna import data as D
from engines.pachakuna.rules import Rotate, Sell, reachable
from tests.pachakuna.helpers import set_demand


def positions(seed: int, moves: int = 160):
    """Start-of-turn positions of a seeded game between normal players: (state, seat to move)."""
    state = P.new_game(P.Config(), 2, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if P.outcome(state) is not None:
            return
        seat = state.turn
        if state.phase == "rotate" and not state.turn_log:
            yield state, seat
        legal = list(P.legal_moves(state, seat))
        state, _ = P.apply_move(state, seat, ai.normal_move(P.view_for(state, seat), legal, rng))


def one_short(state: P.State, opp: int, colour: str) -> None:
    """The opponent holds one piece of every colour but ``colour``."""
    for c in D.COLOURS:
        state.supply[opp][c] = 0 if c == colour else 1


def demand_with(colour: str, village: int) -> str:
    """A demand fitting ``village`` whose big flag is ``colour``."""
    return next(d for d in D.DEMANDS if d[0] == D.LETTER[colour] and D.demand_fits(d, village))


def without(colour: str, village: int, state: P.State) -> str:
    """A demand fitting ``village`` without ``colour``, not shown on another village."""
    shown = set(state.demands.values())
    return next(
        d for d in D.DEMANDS if D.LETTER[colour] not in d and D.demand_fits(d, village) and d not in shown
    )


def threatened(seed: int, on_village: bool):
    """Positions where the opponent's llama can sell its seventh colour next turn: (state, me,
    village, the opponent's llama cell); the llama stands on that village when ``on_village``."""
    for state, me in positions(seed):
        opp = 1 - me
        for lm in state.llamas:
            if lm.seat != opp or lm.load is None:
                continue
            if on_village:
                villages = [lm.cell] if lm.cell in D.VILLAGES and D.VILLAGES[lm.cell] != lm.load else []
            else:
                reach = reachable(state.tiles, lm.cell, opp == 1)
                villages = [
                    v for v in D.VILLAGE_ORDER if v in reach and v != lm.cell and D.VILLAGES[v] != lm.load
                ]
            if not villages:
                continue
            built = P.rules._copy(state)
            one_short(built, opp, lm.load)
            # that village alone asks for the colour
            for v in D.VILLAGE_ORDER:
                shown = built.demands[v]
                if v != villages[0] and shown and D.LETTER[lm.load] in shown:
                    set_demand(built, v, without(lm.load, v, built))
            set_demand(built, villages[0], demand_with(lm.load, villages[0]))
            yield built, me, villages[0], lm.cell
            break


def opponent_can_reach_after_one_turn(state: P.State, opp: int, start: int, village: int) -> bool:
    """Whether the opponent's llama on ``start`` reaches ``village`` after any single tile turn it
    may make on its next turn (tiles with llamas or marked with a rock stay as they are)."""
    black = opp == 1
    if village in reachable(state.tiles, start, black):
        return True
    occupied = {lm.cell for lm in state.llamas}
    marked = set(state.rotated)  # the tiles turned this turn get the rocks
    for cell in D.TILE_CELLS:
        if cell in occupied or cell in marked:
            continue
        code = state.tiles[cell]
        for k in range(6):
            tiles = dict(state.tiles)
            tiles[cell] = f"{code[0]}{k}"
            if village in reachable(tiles, start, black):
                return True
    return False


def test_sharp_shuts_the_way_to_the_opponents_seventh_colour():
    """With the opponent one colour short and a way open to a village asking for it, the sharp
    player's tile turn often shuts that way so that no single turn of the opponent opens it
    again (checked by trying every turn the opponent may make); the normal player seldom does."""
    shut = {"sharp": 0, "normal": 0}
    for seed in range(1, 9):
        for state, me, village, start in threatened(seed, on_village=False):
            view = P.view_for(state, me)
            legal = list(P.legal_moves(state, me))
            for name, player in (("sharp", ai.sharp_move), ("normal", ai.normal_move)):
                move = player(view, legal, random.Random(seed))
                if not isinstance(move, Rotate):
                    continue
                after, _ = P.apply_move(state, me, move)
                if not opponent_can_reach_after_one_turn(after, 1 - me, start, village):
                    shut[name] += 1
    assert shut["sharp"] >= 8 and shut["sharp"] >= 3 * shut["normal"], shut


def test_sharp_sells_where_the_opponent_would_take_its_seventh_colour():
    """The opponent's llama stands on a village asking for the colour it lacks (no tile turn can
    stop that sale); when a sharp llama can get there first it sells there, and the demand goes."""
    counts = {"sharp": 0, "normal": 0}
    positions_seen = 0
    for seed in range(1, 13):
        for state, me, village, _ in threatened(seed, on_village=True):
            mine = [lm for lm in state.llamas if lm.seat == me and lm.load and lm.load != D.VILLAGES[village]]
            if not any(
                village in reachable(state.tiles, lm.cell, me == 1) or lm.cell == village for lm in mine
            ):
                continue
            positions_seen += 1
            demand = state.demands[village]
            for name, player in (("sharp", ai.sharp_move), ("normal", ai.normal_move)):
                now = state
                rng = random.Random(seed)
                sold = False
                while now.turn == me and P.outcome(now) is None:
                    move = player(P.view_for(now, me), list(P.legal_moves(now, me)), rng)
                    if isinstance(move, Sell):
                        seller = P.rules.llama(now, me, move.llama)
                        sold = sold or (seller is not None and seller.cell == village)
                    now, _ = P.apply_move(now, me, move)
                if sold:
                    assert demand in now.used or demand in now.bag
                    counts[name] += 1
    assert positions_seen >= 5
    assert counts["sharp"] >= 0.8 * positions_seen and counts["sharp"] > counts["normal"], counts


def test_one_colour_short_sharp_pays_for_the_turn_that_opens_its_way():
    """One colour short, its llama carrying that colour, the free turn spent and two loose
    pieces left: where one more tile turn opens the way to the only village asking for the
    colour, the sharp player pays its last loose pieces for that turn and the way is open; the
    normal player keeps two loose pieces back and does not."""
    paid = positions_seen = normal_paid = 0
    for seed in range(1, 9):
        for state, me in positions(seed):
            mine = [lm for lm in state.llamas if lm.seat == me and lm.load and lm.cell not in D.VILLAGES]
            if not mine:
                continue
            lm = mine[0]
            built = P.rules._copy(state)
            for c in D.COLOURS:
                built.supply[me][c] = 0 if c == lm.load else 1
            built.supply[me][D.BROWN] = 2
            occupied = {x.cell for x in built.llamas}
            free = [c for c in D.TILE_CELLS if c not in occupied and c not in built.rocks]
            built.rotated = [free[0]]  # the free turn is spent on a tile far from the way
            reach = reachable(built.tiles, lm.cell, me == 1)
            target = None
            for v in D.VILLAGE_ORDER:
                if v in reach or D.VILLAGES[v] == lm.load:
                    continue
                for cell in free[1:]:
                    code = built.tiles[cell]
                    opened = any(
                        v in reachable({**built.tiles, cell: f"{code[0]}{k}"}, lm.cell, me == 1)
                        for k in range(6)
                    )
                    if opened:
                        target = v
                        break
                if target is not None:
                    break
            if target is None:
                continue
            for v in D.VILLAGE_ORDER:
                shown = built.demands[v]
                if v != target and shown and D.LETTER[lm.load] in shown:
                    set_demand(built, v, without(lm.load, v, built))
            set_demand(built, target, demand_with(lm.load, target))
            view = P.view_for(built, me)
            assert view.rotation_cost == 2 and view.loose[me] == 2
            legal = list(P.legal_moves(built, me))
            positions_seen += 1
            move = ai.sharp_move(view, legal, random.Random(seed))
            if isinstance(move, Rotate) and not move.pay:
                after, _ = P.apply_move(built, me, move)
                assert target in reachable(after.tiles, lm.cell, me == 1)
                assert after.supply[me][D.BROWN] == 0
                paid += 1
            normal_paid += isinstance(ai.normal_move(view, legal, random.Random(seed)), Rotate)
            break
    assert positions_seen >= 5
    assert paid >= 0.8 * positions_seen and normal_paid == 0, (paid, normal_paid, positions_seen)

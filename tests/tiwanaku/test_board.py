"""The hidden map: generator constraints, uniqueness proved by an independent solver, speed."""

from __future__ import annotations

import hashlib

import pytest

from engines.tiwanaku import board
from engines.tiwanaku.data import REVEALED_CELLS

SHORT_SEEDS = range(40)
LONG_SEEDS = range(25)


def _n8(i: int, cols: int):
    r, c = divmod(i, cols)
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if (dr or dc) and 0 <= r + dr < 5 and 0 <= c + dc < cols:
                yield (r + dr) * cols + c + dc


def _n4(i: int, cols: int):
    r, c = divmod(i, cols)
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        if 0 <= r + dr < 5 and 0 <= c + dc < cols:
            yield (r + dr) * cols + c + dc


def _regions(terrain, cols):
    """Flood fill, written independently of the engine."""
    seen = {}
    regions = []
    for i in range(len(terrain)):
        if i in seen:
            continue
        group = [i]
        seen[i] = len(regions)
        k = 0
        while k < len(group):
            for j in _n4(group[k], cols):
                if j not in seen and terrain[j] == terrain[i]:
                    seen[j] = len(regions)
                    group.append(j)
            k += 1
        regions.append(group)
    return regions, seen


def independent_count(terrain, cols, givens, limit=2):
    """Plain backtracking in reading order (no propagation): count crop layouts up to limit."""
    regions, region_of = _regions(terrain, cols)
    n = len(terrain)
    value = [0] * n
    for c, v in givens.items():
        value[c] = v
    found = [0]

    def ok(i, v):
        if v > len(regions[region_of[i]]):
            return False
        for j in regions[region_of[i]]:
            if j != i and value[j] == v:
                return False
        return all(value[j] != v for j in _n8(i, cols))

    for c, v in givens.items():
        value[c] = 0
        if not ok(c, v):
            return 0
        value[c] = v

    def rec(i):
        if found[0] >= limit:
            return
        while i < n and i in givens:
            i += 1
        if i == n:
            found[0] += 1
            return
        for v in range(1, len(regions[region_of[i]]) + 1):
            if ok(i, v):
                value[i] = v
                rec(i + 1)
                value[i] = 0

    rec(0)
    return found[0]


def _check_map(terrain, crops, cols):
    regions, region_of = _regions(terrain, cols)
    for group in regions:
        assert 1 <= len(group) <= 5, "regions hold 1 to 5 cells"
        assert sorted(crops[i] for i in group) == list(range(1, len(group) + 1)), "a region of n holds 1..n"
    for i in range(len(terrain)):
        for j in _n8(i, cols):
            if terrain[i] == terrain[j]:
                assert region_of[i] == region_of[j], "same-terrain regions never touch, even diagonally"
            assert crops[i] != crops[j], "equal crops never touch, even diagonally"


@pytest.mark.parametrize("cols,seeds", [(5, SHORT_SEEDS), (9, LONG_SEEDS)])
def test_generated_maps_follow_the_pachamama_rules(cols, seeds):
    """Generated maps: regions of 1-5 cells, separated same terrains, a valid crop layout."""
    for seed in seeds:
        terrain, crops, revealed = board.generate(seed, cols)
        assert len(terrain) == 5 * cols
        assert set(terrain) <= set("SDMF")
        _check_map(terrain, crops, cols)
        assert len(revealed) == REVEALED_CELLS[cols] == len(set(revealed))


@pytest.mark.parametrize("cols,seeds", [(5, SHORT_SEEDS), (9, LONG_SEEDS)])
def test_crop_solution_unique_given_terrain_and_revealed_cells(cols, seeds):
    """Uniqueness: an independent counting solver finds exactly one crop layout for each map."""
    for seed in seeds:
        terrain, crops, revealed = board.generate(seed, cols)
        givens = {c: crops[c] for c in revealed}
        assert independent_count(terrain, cols, givens) == 1, seed
        # and the engine's solver agrees
        assert board.count_solutions(terrain, cols, givens) == 1


def test_independent_solver_sees_several_layouts_without_givens():
    """Sanity: without revealed cells the same maps usually allow several layouts."""
    several = 0
    for seed in range(10):
        terrain, crops, _ = board.generate(seed, 5)
        assert independent_count(terrain, 5, {}, limit=50) == board.count_solutions(terrain, 5, {}, limit=50)
        several += independent_count(terrain, 5, {}, limit=2) > 1
    assert several >= 5


def test_generation_is_deterministic_per_seed():
    """The same seed gives the same map; different seeds give different maps."""
    a = board._generate.__wrapped__(123, 5)
    b = board._generate.__wrapped__(123, 5)
    c = board._generate.__wrapped__(124, 5)
    assert a == b and a != c


def test_solver_counts_small_cases():
    """The engine solver: a 2-cell region has two layouts unless a crop is given."""
    terrain = list("SSDDDMMMMMFFFFFSSSSSDDDDD")
    # rows of 5 same-terrain cells: rows touch other terrains only; crops must differ vertically too
    n = board.count_solutions(terrain, 5, {}, limit=1000)
    assert n == independent_count(terrain, 5, {}, limit=1000)


def test_the_maps_of_a_seed_never_change():
    """A seed always deals the same hidden map, so a stored game replays on the map it was played
    on: the maps of seeds 0-11 on both boards are the ones recorded (as one digest)."""
    digest = hashlib.sha256()
    for cols in (5, 9):
        for seed in range(12):
            terrain, crops, revealed = board.generate(seed, cols)
            digest.update(f"{''.join(terrain)} {''.join(map(str, crops))} {revealed}\n".encode())
    assert digest.hexdigest() == "152f3e50d61dbb638f4ef78b1fb538481539797b854551ccf60e26cf458ca33e"

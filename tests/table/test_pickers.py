"""How the Play menu offers moves: cell grids, buttons, selects grouped by prefix."""

from __future__ import annotations

from types import SimpleNamespace

from bot.ui import Table, cell_grid, group_moves

SESSION = SimpleNamespace(id=12, version=34)


def picker(moves, prefix=""):
    return Table.move_picker(None, SESSION, moves, prefix)  # move_picker needs no table state


def components(view):
    return [item.to_component_dict() for item in view.children]


def test_cell_grid_recognises_board_cells():
    """Moves that differ only by a cell of a 5x5 board make a grid."""
    assert cell_grid(["P3A1", "P3E5"]) == ("P3", {"A1", "E5"})
    assert cell_grid(["B3-C3", "B3-B2", "B3-out"]) is None
    assert cell_grid(["r34+1", "r34+2"]) is None


def test_group_moves_keeps_at_most_25_choices():
    """More than 25 moves are grouped by the longest prefix that keeps 25 groups or fewer."""
    moves = [f"P{s}{r}{c}" for s in range(1, 9) for r in "ABCDE" for c in range(1, 6)]
    groups = group_moves(moves)
    assert len(groups) == 8 and groups[0][0] == "P1" and len(groups[0][1]) == 25
    assert group_moves(moves, "P3")[0][0] == "P3A1"


async def test_grid_of_cells_as_buttons():
    """A slot's 25 cells become a 5x5 grid; illegal cells are disabled."""
    view = picker(["P3A1", "P3C3", "P3E5"])
    comps = components(view)
    assert len(comps) == 25
    enabled = {c["label"] for c in comps if not c.get("disabled")}
    assert enabled == {"A1", "C3", "E5"}
    assert all(c["custom_id"] == f"pk:mv:12:34:P3{c['label']}" for c in comps)
    assert max(item.row for item in view.children) == 4


async def test_few_short_moves_as_buttons():
    """Six rotations are six buttons, five to a row."""
    view = picker([f"r34+{k}" for k in range(6)])
    comps = components(view)
    assert [c["label"] for c in comps] == [f"r34+{k}" for k in range(6)]
    assert [item.row for item in view.children] == [0, 0, 0, 0, 0, 1]


async def test_many_moves_as_a_grouped_select():
    """Two hundred moves: one select of prefixes, each narrowing further."""
    moves = [f"P{s}{r}{c}" for s in range(1, 9) for r in "ABCDE" for c in range(1, 6)]
    (select,) = components(picker(moves))
    assert select["custom_id"] == "pk:pick:12:34" and len(select["options"]) == 8
    assert select["options"][0]["value"] == "p:P1" and "25 moves" in select["options"][0]["label"]

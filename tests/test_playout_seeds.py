"""The long playouts' seeds: a quarter of each sweep, chosen by the engines' source (the same for
a commit, another as the engines change), printed; the whole sweep, a chosen part or another window
on demand."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from tests.support import seeds
from tests.support.seeds import VARIABLE, chosen, playout_seeds


def test_the_default_is_the_sources_part_of_the_sweep(monkeypatch):
    monkeypatch.delenv(VARIABLE, raising=False)
    monkeypatch.setattr(seeds, "default_part", lambda: 20_426)  # part 2 of 4
    assert chosen(range(200)) == range(100, 150)
    assert chosen(range(200)) == chosen(range(200))
    assert chosen(range(1000, 1025)) == range(1012, 1018)
    assert chosen(range(0, 400, 2)) == range(200, 300, 2)
    assert chosen(range(3)) == range(2, 3)  # fewer seeds than parts: one seed a part
    assert chosen(range(1)) == range(1)
    assert "part 2 of 4" in seeds.header() and f"{VARIABLE}=part:20426 plays the same" in seeds.header()
    assert seeds.part() == 20_426


def test_the_parts_together_play_every_seed_once(monkeypatch):
    monkeypatch.delenv(VARIABLE, raising=False)
    played = []
    for number in range(20_000, 20_000 + seeds.SHARE):
        monkeypatch.setattr(seeds, "default_part", lambda number=number: number)
        part = chosen(range(200))
        assert len(part) == 200 // seeds.SHARE
        played += part
        # every player count or option that ``seed % 4``, ``seed % 5``... choose is still played,
        # about equally often
        for modulus in (2, 3, 4, 5, 10):
            counts = [sum(1 for s in part if s % modulus == r) for r in range(modulus)]
            assert min(counts) > 0 and max(counts) - min(counts) <= 1
    assert sorted(played) == list(range(200))


def test_the_sources_part_is_the_same_for_the_same_source_and_moves_with_a_change(tmp_path):
    """Read from the engines' files alone: the same for a copy of the same source (another
    checkout of the commit, whatever its folder or the day), another part once an engine changes."""
    first, second = tmp_path / "one", tmp_path / "two"
    for root in (first, second):
        (root / "engines" / "nim").mkdir(parents=True)
        (root / "engines" / "core.py").write_text("LEVELS = ('easy',)\n")
        (root / "engines" / "nim" / "rules.py").write_text("def legal_moves(state):\n    return [1, 2]\n")
        (root / "README.md").write_text(f"{root.name}\n")  # outside engines/: not read
    assert seeds.source_part(first) == seeds.source_part(second)
    (second / "engines" / "nim" / "rules.py").write_text("def legal_moves(state):\n    return [1, 2, 3]\n")
    changed = seeds.source_part(second)
    assert changed != seeds.source_part(first)
    # (these two sources fall in different parts, so this change plays other seeds)
    assert changed % seeds.SHARE != seeds.source_part(first) % seeds.SHARE
    assert seeds.default_part() == seeds.source_part()  # this checkout's, read once


def test_all_a_part_and_a_window(monkeypatch):
    monkeypatch.setenv(VARIABLE, "all")
    assert chosen(range(200)) == range(200)
    monkeypatch.setenv(VARIABLE, "part:1")
    assert chosen(range(200)) == range(50, 100)
    monkeypatch.setenv(VARIABLE, "part:6")  # taken modulo the number of parts
    assert chosen(range(200)) == range(100, 150)
    assert seeds.part() == 6
    assert seeds.header() == f"playout seeds: {VARIABLE}=part:6"
    monkeypatch.setenv(VARIABLE, "1000:1100")
    assert chosen(range(200)) == range(1000, 1100)


@pytest.mark.parametrize("value", ["most", "100", "5:x", "1000-1100", "part:x", "part"])
def test_a_bad_value_is_refused(monkeypatch, value):
    monkeypatch.setenv(VARIABLE, value)
    with pytest.raises(ValueError, match=f"{VARIABLE} must be 'all', 'part:N' or 'A:B'"):
        chosen(range(200))


def test_each_seed_is_printed_as_it_is_played(monkeypatch, capsys):
    monkeypatch.setenv(VARIABLE, "7:9")
    assert list(playout_seeds(range(200))) == [7, 8]
    assert capsys.readouterr().out == "playout seed 7\nplayout seed 8\n"


def test_the_end_of_a_run_says_which_part_it_played(monkeypatch):
    from tests import conftest

    monkeypatch.delenv(VARIABLE, raising=False)
    monkeypatch.setattr(seeds, "default_part", lambda: 20_426)
    said: list[str] = []
    conftest.pytest_terminal_summary(SimpleNamespace(write_line=said.append))
    assert said == [seeds.header()]

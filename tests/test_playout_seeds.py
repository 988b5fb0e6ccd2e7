"""The long playouts' seeds: a fixed sample by default, the whole sweep or another window on demand."""

from __future__ import annotations

import pytest

from tests.support.seeds import VARIABLE, chosen, playout_seeds


def test_the_default_is_the_first_part_of_the_sweep_every_time(monkeypatch):
    monkeypatch.delenv(VARIABLE, raising=False)
    assert chosen(range(200)) == range(100)
    assert chosen(range(200)) == chosen(range(200))
    assert chosen(range(30), share=3) == range(10)
    assert chosen(range(1000, 1025)) == range(1000, 1012)
    assert chosen(range(1)) == range(1)
    # every player count or option that ``seed % 4``, ``seed % 5``... choose is still played, about
    # equally often
    for modulus in (2, 3, 4, 5, 10):
        counts = [sum(1 for s in chosen(range(200)) if s % modulus == r) for r in range(modulus)]
        assert min(counts) > 0 and max(counts) - min(counts) <= 1


def test_all_and_a_window(monkeypatch):
    monkeypatch.setenv(VARIABLE, "all")
    assert chosen(range(200)) == range(200)
    monkeypatch.setenv(VARIABLE, "1000:1100")
    assert chosen(range(200)) == range(1000, 1100)


@pytest.mark.parametrize("value", ["most", "100", "5:x", "1000-1100"])
def test_a_bad_value_is_refused(monkeypatch, value):
    monkeypatch.setenv(VARIABLE, value)
    with pytest.raises(ValueError, match=f"{VARIABLE} must be 'all' or 'A:B'"):
        chosen(range(200))


def test_each_seed_is_printed_as_it_is_played(monkeypatch, capsys):
    monkeypatch.setenv(VARIABLE, "7:9")
    assert list(playout_seeds(range(200))) == [7, 8]
    assert capsys.readouterr().out == "playout seed 7\nplayout seed 8\n"

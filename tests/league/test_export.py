"""The league CSV export."""

from __future__ import annotations


def test_names_that_look_like_formulas_stay_text_in_the_csv():
    from bot.league.export import cell, league_csv
    from bot.league.pairing import Row

    assert cell("=HYPERLINK(1)") == "'=HYPERLINK(1)" and cell("Ana") == "Ana" and cell("") == ""
    text = league_csv([Row("5", points=1.0, rank=1)], [], [(1, 5, 1.0)], {5: "+cmd"})
    assert "'+cmd" in text and ",+cmd" not in text

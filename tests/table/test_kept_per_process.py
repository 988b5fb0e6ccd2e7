"""What the tests keep once per test process is what they would make afresh: a whole game played
by the computer players (tests/support/played.py), a copy of its own for each test."""

from __future__ import annotations

import dataclasses

import engines
from bench import history
from tests.support.played import whole_game


def test_a_kept_game_is_the_game_played_afresh_and_each_call_has_its_own_copy():
    module = engines.get("guanga").load()
    fresh_played, fresh_final = history.whole_game("guanga", 2, 5)
    played, final = whole_game("guanga", 2, 5)
    assert played == fresh_played and module.to_dict(final) == module.to_dict(fresh_final)
    # What one test does to its copy, the next never sees.
    played.clear()
    for field in dataclasses.fields(final):
        setattr(final, field.name, None)
    again, final_again = whole_game("guanga", 2, 5)
    assert again == fresh_played and final_again is not final
    assert module.to_dict(final_again) == module.to_dict(fresh_final)
    # Other arguments are other games; a stop ends the game there.
    apprentice = {"mode": "apprentice"}
    assert (
        whole_game("guanga", 2, 5, options=apprentice)[0]
        == history.whole_game("guanga", 2, 5, options=apprentice)[0]
    )
    assert whole_game("guanga", 2, 6)[0] == history.whole_game("guanga", 2, 6)[0] != fresh_played
    assert whole_game("guanga", 2, 5, limit=10)[0] == fresh_played[:10]
    assert len(whole_game("guanga", 2, 5, stop=lambda played, before, after: len(played) == 3)[0]) == 3

"""A round sat out (a bye) in the opponent-based tiebreaks: FIDE's Tie-Break Regulations (C.07,
2023) count every unplayed round of a player, a bye too, as a game against a dummy scoring the
player's own points (Art. 16.4), and leave a voluntary one out first in a median's low cut
(Art. 16.5).  A bye used to add nothing to Buchholz, median Buchholz or Sonneborn-Berger."""

from __future__ import annotations

from bot.league.pairing import GameResult, standings
from tests.league.test_tiebreaks_unplayed import season, values

# Two-player games, five players, a full bye worth a win (1 point).  Round 1: a beats b, c beats
# d, e has the pairing's bye.  Round 2: a beats c, e beats d, b has the pairing's bye.  Round 3:
# a pauses (0 points: voluntary), e beats b, c beats d.
GAMES = season("a>b c>d", "a>c e>d", "e>b c>d")
BYES = [(1, "e"), (2, "b"), (3, "a", 0.0)]


def test_a_bye_counts_against_a_dummy_scoring_the_players_own_points():
    """Points: a 2, b 1, c 2, d 0, e 3.

    Buchholz, before (byes nothing): a b 1 + c 2 = 3; b a 2 + e 3 = 5; e d 0 + b 1 = 1.  Now each
    bye adds a dummy of the player's own points: a + 2 (its pause), b + 1, e + 3.
    Sonneborn-Berger: a full bye is a win against the dummy (b + 1, e + 3), a pause scored
    nothing against it (a + 0).
    Median Buchholz: a's three games are b 1, c 2 and the pause's dummy 2; the lowest (b's 1) was
    left out, but the pause is voluntary, so it goes first (FIDE Art. 16.5), then the highest (c's
    2): 1.  e's bye is no voluntary round: its lowest (d's 0) and highest (the bye's 3) go: 1."""
    rows = standings(list("abcde"), GAMES, byes=BYES, bye_score=1.0, table=[1.0, 0.0])
    assert {r.player: r.points for r in rows} == {"a": 2, "b": 1, "c": 2, "d": 0, "e": 3}
    assert values(rows, "buchholz") == {"a": 5, "b": 6, "c": 2, "d": 7, "e": 4}  # a 3, b 5, e 1
    assert {r.player: r.buchholz for r in rows}["e"] == 4
    assert values(rows, "sonneborn_berger") == {"a": 3, "b": 1, "c": 0, "d": 0, "e": 4}  # b 0, e 1
    assert values(rows, "median_buchholz") == {"a": 1, "b": 2, "c": 0, "d": 2, "e": 1}  # a 2, b 5
    assert {r.player: r.wins for r in rows} == {"a": 2, "b": 0, "c": 2, "d": 0, "e": 2}  # no bye won


def test_a_bye_in_a_larger_game_counts_a_dummy_for_each_seat_of_it():
    """Games of three, points 2, 1, 0; w sits round 1 out with the league's bye, the average of
    the places, 1 point: a game against two dummies of w's own point, one of them beaten."""
    rows = standings(
        list("xyzw"),
        [GameResult(1, {"x": 1, "y": 2, "z": 3})],
        byes=[(1, "w")],
        bye_score=1.0,
        table=[2.0, 1.0, 0.0],
    )
    assert {r.player: r.points for r in rows} == {"x": 2, "y": 1, "z": 0, "w": 1}
    assert values(rows, "buchholz")["w"] == 2 and values(rows, "sonneborn_berger")["w"] == 1  # both 0

"""Two-player Swiss rounds by the FIDE Dutch system, checked by the pairing library's own checker."""

from __future__ import annotations

import itertools
import random
from collections import Counter

from caissify_pairings.fpc import check_trf
from caissify_pairings.trf import write_trf
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.league.pairing import (
    GameResult,
    bye_points,
    classic_round,
    met_pairs,
    standings,
    swiss_round,
)
from tests.league.sim import names


def season(count: int, rounds: int, seed: int, forbidden=(), pair=swiss_round):
    """A two-player Swiss season with random wins, draws and losses, each round paired from the
    standings and the games so far; returns the rounds and the games."""
    rng = random.Random(seed)
    players = names(count)
    ratings = {p: 2000 - 10 * i for i, p in enumerate(players)}
    games: list[GameResult] = []
    byes: list[tuple[int, str]] = []
    paired = []
    for r in range(1, rounds + 1):
        rows = standings(players, games, byes=byes, bye_score=bye_points(2))
        kwargs = dict(
            games=games, byes=byes, starting_order=players, total_rounds=rounds, forbidden=forbidden
        )
        rnd = pair(
            players,
            2,
            points={x.player: x.points for x in rows},
            history=[g.seating for g in games],
            byes_had=Counter(p for _, p in byes),
            ratings=ratings,
            seed=seed + r,
            **(kwargs if pair is swiss_round else {}),
        )
        paired.append(rnd)
        for a, b in rnd.groups:
            outcome = rng.choice([(1, 2), (2, 1), (1, 1)])
            games.append(GameResult(r, {a: outcome[0], b: outcome[1]}, seats=(a, b)))
        byes += [(r, b) for b in rnd.byes]
    return players, ratings, paired, games, byes


def trf(players, ratings, games, byes, rounds) -> str:
    """The season as a FIDE TRF16 file (pairing numbers in the order of ``players``)."""
    number = {p: i + 1 for i, p in enumerate(players)}
    results: dict[str, dict[int, dict]] = {p: {} for p in players}
    mark = {(1, 2): ("1", "0"), (2, 1): ("0", "1"), (1, 1): ("=", "=")}
    for g in games:
        a, b = g.seating
        ra, rb = mark[(g.places[a], g.places[b])]
        results[a][g.round] = {"opponent": number[b], "color": "w", "result": ra}
        results[b][g.round] = {"opponent": number[a], "color": "b", "result": rb}
    for r, p in byes:
        results[p][r] = {"opponent": None, "result": "U"}
    entries = [
        {"starting_number": number[p], "name": p, "rating": ratings[p], "results": results[p]}
        for p in players
    ]
    return write_trf({"name": "league"}, entries, rounds)


@settings(max_examples=12)
@given(st.sampled_from([8, 9, 12, 15, 20]), st.integers(3, 7), st.integers(0, 2**16))
def test_our_pairings_agree_with_the_librarys_checker(count, rounds, seed):
    """The same tournaments, re-paired round by round by the library's Free Pairings Checker
    from a TRF file of our season: every round matches."""
    players, ratings, _, games, byes = season(count, rounds, seed)
    report = check_trf(trf(players, ratings, games, byes, rounds))
    assert report["summary"]["rounds_checked"] == rounds
    assert report["summary"]["total_discrepancies"] == 0, report["rounds"]


def test_a_twelve_player_season_balances_first_seats():
    """Seats as colours: over 7 rounds nobody moves first three games running, and each player's
    first seats and second seats differ by at most two (FIDE's absolute colour rules); today's
    pairing gave the first seat to the better-placed player every game."""
    for seed in range(5):
        _, _, paired, games, _ = season(12, 7, seed)
        seats = {p: [g.seating.index(p) for g in games if p in g.places] for p in names(12)}
        for p, order in seats.items():
            assert abs(order.count(0) - order.count(1)) <= 2, (p, order)
            assert all(len(set(run)) > 1 for run in zip(order, order[1:], order[2:], strict=False)), order
        assert not any(n > 1 for n in met_pairs(g.seating for g in games).values())
    _, _, _, old, _ = season(12, 7, 0, pair=classic_round)
    spread = max(abs(sum(1 if g.seating[0] == p else -1 for g in old if p in g.places)) for p in names(12))
    assert spread > 2


@given(st.sampled_from([6, 7, 8, 10]), st.integers(0, 2**16), st.integers(1, 3))
def test_forbidden_pairs_never_meet(count, seed, how_many):
    """Forbidden pairs (here drawn at random, including the pair the Dutch first round would
    make) are never paired, in the first round or later."""
    rng = random.Random(seed)
    players = names(count)
    candidates = list(itertools.combinations(players, 2))
    forbidden = {frozenset((players[0], players[count // 2]))}
    forbidden |= {frozenset(rng.choice(candidates)) for _ in range(how_many)}
    _, _, paired, _, _ = season(count, 3, seed, forbidden=forbidden)
    for rnd in paired:
        assert not any(frozenset(g) in forbidden for g in rnd.groups)
        assert sorted(rnd.players) == sorted(players)
        assert len(rnd.byes) == count % 2


def test_the_first_round_is_the_dutch_half_split():
    rnd = swiss_round(names(8), 2, ratings={p: 100 - i for i, p in enumerate(names(8))})
    assert sorted(tuple(sorted(g)) for g in rnd.groups) == [
        ("p00", "p04"),
        ("p01", "p05"),
        ("p02", "p06"),
        ("p03", "p07"),
    ]


def test_seat_history_stands_for_colours():
    """A player who moved first in both earlier games does not move first a third time (FIDE's
    absolute colour rule), whatever the pairing numbers would give."""
    rnd = swiss_round(["a", "b"], 2, seat_history={"a": [0, 0], "b": [1, 1]})
    assert rnd.groups == (("b", "a"),)
    assert swiss_round(["a", "b"], 2).groups == (("a", "b"),)


def test_the_librarys_output_reaches_neither_stdout_nor_the_warnings(monkeypatch, capsys, caplog):
    """What the pairing library prints (its bracket trace) or logs as a warning ("Multiple forced
    byes", which the pairing handles by its fallback) is the bot's debug log, not its output."""
    import logging

    monkeypatch.setenv("CAISSIFY_TRACE_BRACKET", "1")  # the library then prints each bracket
    caplog.set_level(logging.DEBUG)
    players = names(6)
    points = {p: float(i % 3) for i, p in enumerate(players)}
    rnd = swiss_round(players, 2, points=points, history=[("p00", "p01"), ("p02", "p03")])
    assert len(rnd.groups) == 3
    logging.getLogger("caissify_pairings.engines.dutch").warning("Multiple forced byes in round %d", 3)
    assert capsys.readouterr().out == ""
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    debug = [r.getMessage() for r in caplog.records if r.name == "bot.league.dutch"]
    assert any("BRACKET" in m for m in debug) and any("Multiple forced byes in round 3" in m for m in debug)

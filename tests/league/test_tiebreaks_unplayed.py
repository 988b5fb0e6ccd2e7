"""Tiebreaks with a game never played (its table never opened): FIDE's Tie-Break Regulations
(C.07, 2023) count an unplayed round against a dummy scoring the player's own points, no more than
the scheduled opponent's (Art. 16.4); direct encounter reads only games played (Art. 6); most
wins counts games won over the board (Art. 7.2); a median's low cut takes a forfeit lost first
(Art. 16.5).  The league points of such a game are unchanged."""

from __future__ import annotations

import csv
import io

import pytest

from bot.league.pairing import GameResult, standings
from bot.league.service import LeagueService
from tests.league.test_service import DAY, counter, open_games
from tests.league.test_unplayed_seats import tables_never_opened


def season(*rounds: str) -> list[GameResult]:
    """Two-player games, one argument per round: ``a>b`` a beats b, ``a=b`` they share first
    place, a trailing ``*`` a game never played (its table never opened)."""
    out = []
    for number, games in enumerate(rounds, 1):
        for game in games.split():
            first, second = game.rstrip("*").replace("=", ">").split(">")
            places = {first: 1, second: 1 if "=" in game else 2}
            out.append(GameResult(number, places, played=not game.endswith("*")))
    return out


# Two-player Swiss, a b c d.  Round 1: a beats b, d beats c.  Round 2: a beats d, c beats b.
# Round 3: a and c's table never opened (a forfeit by all at the deadline: they share its first
# place, 0.5 each); d draws b.
DEADLINE = season("a>b d>c", "a>d c>b", "a=c* d=b")


def values(rows, name):
    return {r.player: r.tiebreaks[name] for r in rows}


def test_a_forfeit_by_all_counts_against_a_dummy_in_buchholz_and_sonneborn_berger():
    """Points: a 1+1+0.5 = 2.5, b 0+0+0.5 = 0.5, c 0+1+0.5 = 1.5, d 1+0+0.5 = 1.5 (as before).

    Buchholz, before: each game counted the opponent's points.
      a: b 0.5 + d 1.5 + c 1.5 = 3.5      b: a 2.5 + c 1.5 + d 1.5 = 5.5
      c: d 1.5 + b 0.5 + a 2.5 = 4.5      d: c 1.5 + a 2.5 + b 0.5 = 4.5
    Now round 3's game counts a dummy with one's own points, at most the opponent's:
      a: min(2.5, c 1.5) = 1.5, so still 3.5;  c: min(1.5, a 2.5) = 1.5, so 1.5 + 0.5 + 1.5 = 3.5
    Sonneborn-Berger, before: a beat b (0.5) and d (1.5), drew c (1.5 / 2): 2.75;
    b drew d (1.5 / 2) = 0.75; c beat b (0.5), drew a (2.5 / 2) = 1.75; d beat c (1.5), drew b
    (0.5 / 2) = 1.75.  Now c's draw is with a dummy of min(1.5, 2.5) = 1.5: 0.5 + 0.75 = 1.25 (a's
    dummy is min(2.5, 1.5) = 1.5, c's own points: 2.75 still).
    So Sonneborn-Berger alone once ranked c ahead of d (1.75 each, then the player id); now d."""
    rows = standings(list("abcd"), DEADLINE)
    assert {r.player: r.points for r in rows} == {"a": 2.5, "b": 0.5, "c": 1.5, "d": 1.5}
    assert values(rows, "buchholz") == {"a": 3.5, "b": 5.5, "c": 3.5, "d": 4.5}  # c was 4.5
    assert {r.player: r.buchholz for r in rows}["c"] == 3.5
    assert values(rows, "sonneborn_berger") == {"a": 2.75, "b": 0.75, "c": 1.25, "d": 1.75}  # c was 1.75
    by_sb = standings(list("abcd"), DEADLINE, order=["sonneborn_berger"])
    assert [r.player for r in by_sb] == ["a", "d", "c", "b"]  # was a, c, d, b
    # Nobody won round 3's game (it was shared): the wins are the games won over the board.
    assert {r.player: r.wins for r in rows} == {"a": 2, "b": 0, "c": 1, "d": 1}
    # The same games, played, still count every opponent's points.
    played = standings(list("abcd"), [GameResult(g.round, g.places) for g in DEADLINE])
    assert values(played, "buchholz")["c"] == 4.5 and values(played, "sonneborn_berger")["c"] == 1.75


# Two-player Swiss, a b c d.  Round 1: d beats c, a beats b.  Round 2: d beats a, b beats c.
# d is dropped after round 3 is paired, before its table opens: b wins d's game by forfeit (b
# first, d last) without playing it; a beats c.
DROPPED = season("d>c a>b", "d>a b>c", "b>d* a>c")


def test_a_forfeit_win_is_no_encounter_and_no_game_won():
    """Points: a, b and d 2 each, c 0 (as before).  Buchholz: a b 2 + d 2 + c 0 = 4; b a 2 + c 0
    + dummy min(2, d 2) = 4; d c 0 + a 2 + dummy min(2, b 2) = 4: all tied.

    Head to head among a, b, d, before: d beat a, a beat b, b "beat" d: 1 each, so the player id
    ranked a, b, d.  Now b's forfeit win is no encounter: d 1, a 1, b 0: a, d, b.
    Most wins, before: 2 each (b's forfeit counted); now b has one game won, 1.
    Median Buchholz of d, before: [0, 2, 2] less 0 and 2 = 2.  Now d lost round 3 unplayed, so the
    low cut takes that game's 2 (not c's 0), then the high cut the other 2: 0."""
    rows = standings(list("abcd"), DROPPED)
    assert {r.player: r.points for r in rows} == {"a": 2, "b": 2, "c": 0, "d": 2}
    assert values(rows, "buchholz") == {"a": 4, "b": 4, "c": 6, "d": 4}
    assert [r.player for r in rows] == ["a", "d", "b", "c"]  # was a, b, d, c
    assert values(rows, "head_to_head") == {"a": 1, "b": 0, "c": 0, "d": 1}  # b was 1
    assert values(rows, "wins") == {"a": 2, "b": 1, "c": 0, "d": 2}  # b was 2
    assert {r.player: r.wins for r in rows}["b"] == 1
    assert [r.player for r in standings(list("abcd"), DROPPED, order=["wins"])] == ["a", "d", "b", "c"]
    # median: a [2, 2, 0] -> 2; b [2, 0, 2] -> 2 (a forfeit won is no loss); d [0, 2, 2*] -> 0
    assert values(rows, "median_buchholz") == {"a": 2, "b": 2, "c": 2, "d": 0}  # d was 2
    # The league points and the cumulative score read the points as scored, as before.
    assert values(rows, "cumulative") == {"a": 1 + 1 + 2, "b": 0 + 1 + 2, "c": 0, "d": 1 + 2 + 2}


@pytest.fixture
def leagues(service):
    return LeagueService(service.store, service)


async def test_the_leagues_standings_count_a_table_never_opened_as_unplayed(leagues, service, clock):
    """Four players of a two-player league; round 1's tables never open (forfeits by all: 0.5
    each), round 2 pairs the same players again and is played (the computer finishes it at the
    deadline).  The standings the league shows (picture, text, web page, export) count round 1
    against a dummy: a player's own points, at most the scheduled opponent's."""
    store = service.store
    names = {uid: f"p{uid}" for uid in (281, 282, 283, 284)}
    league = await tables_never_opened(leagues, clock, names)
    opened = await leagues.open_round(league.id, 2)
    await open_games(leagues, opened, names, counter(2800))
    clock.advance(DAY)
    await leagues.round_deadline(league.id, 2)
    games = [g for g in await store.leagues.league_games(league.id) if g.status == "finished"]
    assert [g.session_id is None for g in games] == [True, True, False, False]
    assert {frozenset(g.players) for g in games[:2]} == {frozenset(g.players) for g in games[2:]}
    rows = {s.row.player: s.row for s in await leagues.standings(await store.leagues.league(league.id))}
    points = {p: r.points for p, r in rows.items()}
    opponent = {str(u): str(v) for g in games[2:] for u, v in (g.players, g.players[::-1])}
    # Round 1 against a dummy (own points, at most the opponent's), round 2 against the opponent.
    expected = {p: min(points[p], points[o]) + points[o] for p, o in opponent.items()}
    assert {p: r.buchholz for p, r in rows.items()} == expected
    assert expected != {p: 2 * points[o] for p, o in opponent.items()}  # as it was: they differ
    fresh = await store.leagues.league(league.id)
    exported = csv.DictReader(io.StringIO((await leagues.export(fresh)).split("\n\n")[0]))
    assert {r["user_id"]: float(r["buchholz"]) for r in exported} == expected  # the export says so too
    # Round 1's shared first places are no wins: only round 2's winners have one.
    won = {
        str(s.user_id)
        for g in games[2:]
        for s in g.seats
        if s.place == 1 and sum(t.place == 1 for t in g.seats) == 1
    }
    assert {p: r.wins for p, r in rows.items()} == {p: int(p in won) for p in points}

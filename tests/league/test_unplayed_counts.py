"""A game never played (its table never opened: a forfeit) scores its league points, but it is
none of the games played: the standings' games count (the text, the picture, the web page and
the export) counts the games played, and the games scored without being played are told apart
beside it, in both languages."""

from __future__ import annotations

import csv
import io

import pytest

from bot.league import texts
from bot.league.pairing import GameResult, standings
from bot.league.service import LeagueService
from languages import language
from renderers import league as pictures
from renderers.translation import speaking
from tests.league.test_export import results_of
from tests.league.test_service import DAY, counter, open_games
from tests.league.test_unplayed_seats import tables_never_opened
from tests.league.test_web_page import cells, league_html


def test_a_game_never_played_scores_but_is_not_counted_as_played():
    """a beats b over the board in round 1; in round 2 c's table never opened (d was dropped
    before it: c first, d last, unplayed) while a beats b again."""
    season = [
        GameResult(1, {"a": 1, "b": 2}),
        GameResult(1, {"c": 1, "d": 2}),
        GameResult(2, {"a": 1, "b": 2}),
        GameResult(2, {"c": 1, "d": 2}, played=False),
    ]
    rows = {r.player: r for r in standings(list("abcd"), season)}
    assert {p: r.points for p, r in rows.items()} == {"a": 2, "b": 0, "c": 2, "d": 0}  # as scored
    assert {p: (r.games, r.unplayed) for p, r in rows.items()} == {
        "a": (2, 0),
        "b": (2, 0),
        "c": (1, 1),  # was 2 games
        "d": (1, 1),
    }


@pytest.fixture
def leagues(service):
    return LeagueService(service.store, service)


async def test_every_place_the_standings_are_shown_counts_the_games_played(leagues, service, clock):
    """Four players of a two-player league: round 1's tables never open (forfeits by all at the
    deadline, 0.5 each), round 2 is played (the computer finishes it at the deadline).  Each
    player has 1 game played and 1 not played, where every place said 2 games."""
    store = service.store
    names = {uid: f"q{uid}" for uid in (291, 292, 293, 294)}
    league = await tables_never_opened(leagues, clock, names)
    await open_games(leagues, await leagues.open_round(league.id, 2), names, counter(2900))
    clock.advance(DAY)
    await leagues.round_deadline(league.id, 2)
    league = await store.leagues.league(league.id)
    table = await leagues.standings(league)
    assert {(s.row.games, s.row.unplayed) for s in table} == {(1, 1)}

    english = texts.standings_text(league, table, "Standings", language("en"))
    rows = [line for line in english.splitlines() if line[:1].isdigit()]
    assert len(rows) == 4 and all(", 1 game played, 1 not played, " in line for line in rows), english
    assert "Not played: a game whose table never opened (a forfeit)" in english
    spanish = texts.standings_text(league, table, "Clasificación", language("es"))
    assert spanish.count(", 1 partida jugada, 1 no jugada, ") == 4, spanish
    assert "No jugada: una partida cuya mesa nunca se abrió" in spanish

    drawn = texts.picture_lines(table, {}, t=language("en"))
    assert {(line.games, line.unplayed) for line in drawn} == {(1, 1)}
    assert pictures.marks_of(drawn[0]) == "1 not played"
    with speaking("es"):
        assert pictures.marks_of(drawn[0]) == "1 no jugada"

    exported = (await leagues.export(league)).split("\n\n")[0]
    standing = list(csv.DictReader(io.StringIO(exported)))
    assert {(r["games"], r["games_not_played"]) for r in standing} == {("1", "1")}
    _, results = results_of(await leagues.export(league))
    assert sorted(r["round"] for r in results if r["never_played"] == "yes") == ["1"] * 4

    html, es = await league_html(service, league.id, "", "?lang=es")
    head = html.split('id="standings-h"', 1)[1].split("</thead>", 1)[0]
    assert '<th scope="col">Played</th>\n<th scope="col">Not played</th>' in head
    assert {tuple(row[3:5]) for row in cells(html, "standings-h")} == {("1", "1")}
    assert "Not played: a game whose table never opened" in html
    assert "Partidas no jugadas" in es and "No jugada: una partida cuya mesa nunca se abrió" in es

"""The rating tiebreak and a player with no rated game yet: they rank as a newcomer, at the rating
every player starts with (0), so above a rated player who has lost rating and below one who has
gained some, and the standings' legend says so (the picture and the text draw a dash for them)."""

from __future__ import annotations

import pytest

from bot.league import controls, tiebreaks
from bot.league.season import Rounds
from bot.league.service import LeagueService
from bot.ratings import shown_or_start
from languages import language
from tests.league.test_service import new_league


@pytest.fixture
def leagues(service):
    return LeagueService(service.store, service)


async def three_tied(leagues, monkeypatch):
    """Three players level on everything but the rating: 701 rated 5, 702 never rated, 703 rated
    -2.5 (a first game lost)."""
    league = await new_league(
        leagues, name="Rated", game="nim", format="swiss", group_size=2, rounds=3, tiebreak_order=["rating"]
    )
    for uid in (703, 702, 701):
        await leagues.join(league, uid, f"n{uid}")

    async def rated(_league):
        return {701: 5.0, 703: -2.5}

    monkeypatch.setattr(leagues.draw, "rating_map", rated)
    monkeypatch.setattr(leagues, "rating_map", rated)
    return league


async def test_an_unrated_player_ranks_as_a_newcomer_between_those_who_gained_and_lost_rating(
    leagues, monkeypatch
):
    league = await three_tied(leagues, monkeypatch)
    assert shown_or_start(None, None) == 0.0
    table = await leagues.standings(league)
    assert [s.row.player for s in table] == ["701", "702", "703"]
    assert table[1].row.tiebreaks[tiebreaks.RATING] == 0.0
    league, _ = await leagues.start(league)  # the seeds too
    seeds = sorted(await leagues.store.leagues.league_players(league.id), key=lambda p: p.seed)
    assert [p.user_id for p in seeds] == [701, 702, 703]


async def test_the_legend_says_what_rating_an_unrated_player_counts_as(leagues, monkeypatch):
    league = await three_tied(leagues, monkeypatch)
    assert (
        controls.legend([tiebreaks.RATING])
        == "Rtg: rating (a player with no rated game yet counts as a newcomer, 0)"
    )
    rounds = Rounds(leagues, posts=None, scheduler=None)
    text, _ = await rounds.standings_post(league, "before the first round")
    assert "n702: 0 points, 0 games played, 0 wins; Rtg –" in text, text  # a dash, as the picture draws it
    assert text.endswith("Rtg: rating (a player with no rated game yet counts as a newcomer, 0)"), text
    texto, _ = await rounds.standings_post(league, "antes de la primera ronda", language("es"))
    assert texto.endswith("(quien aún no tiene partidas puntuadas tiene la valoración inicial, 0)"), texto

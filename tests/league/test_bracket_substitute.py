"""A substitute credited with a bracket game's result plays for the seat, not into the bracket: a
single-elimination league whose player is dropped mid-game, their seat taken by a substitute who
wins, goes on with the opponent in the next round (the substitute is not seeded)."""

from __future__ import annotations

from bot.league.service import LeagueService
from bot.storage import ResultRow
from bot.storage.noshows import Substitute
from tests.league.test_service import DAY, counter, new_league, open_games


async def test_a_credited_substitute_who_wins_a_bracket_game_does_not_break_the_bracket(service, clock):
    store = service.store
    leagues = LeagueService(store, service)
    league = await new_league(leagues, name="Cup", game="nim", format="elimination", group_size=2, days=1)
    names = {uid: f"n{uid}" for uid in (801, 802, 803, 804)}
    for uid, name in names.items():
        await leagues.join(league, uid, name)
    league, _ = await leagues.start(league)
    opened = await leagues.open_round(league.id, 1)
    sessions = await open_games(leagues, opened, names, counter(7000))
    game, session = opened.games[0], sessions[0]
    dropped, other = game.players
    assert await store.leagues.drop_player(league.id, dropped) == [session.id]
    seat = session.seat_of(dropped).seat
    sub = Substitute(899, "Sub")
    assert await store.noshows.hand_seat(league.id, game.id, session.id, seat, dropped, sub, "substitute")
    await store.games.finish(
        session.id,
        status="finished",
        reason="won",
        outcome=None,
        results=[
            ResultRow(seat, 899, 1.0, 1, False),
            ResultRow(session.seat_of(other).seat, other, 0.0, 2, False),
        ],
    )
    clock.advance(DAY)
    await leagues.round_deadline(league.id, 1)
    league = await store.leagues.league(league.id)
    bracket = await leagues.bracket(league)
    assert bracket.rounds[0][game.table_no - 1].winner == str(other)
    final = await leagues.open_round(league.id, 2)
    assert final is not None
    (match,) = final.games
    assert other in match.players and 899 not in match.players


async def test_a_credited_substitute_is_never_the_champion(service, clock):
    """They played one game for a dropped player and rank in the standings with it, but the season
    is the signed-up players': the champion is the best of them."""
    store = service.store
    leagues = LeagueService(store, service)
    league = await new_league(
        leagues, name="Short", game="nim", format="swiss", group_size=2, rounds=1, days=1
    )
    names = {uid: f"n{uid}" for uid in (811, 812, 813, 814)}
    for uid, name in names.items():
        await leagues.join(league, uid, name)
    league, _ = await leagues.start(league)
    opened = await leagues.open_round(league.id, 1)
    sessions = await open_games(leagues, opened, names, counter(7100))
    for i, (game, session) in enumerate(zip(opened.games, sessions, strict=True)):
        first, second = game.players
        winner = first
        if i == 0:  # the first table's first player is dropped; a substitute wins in their seat
            assert await store.leagues.drop_player(league.id, first) == [session.id]
            seat = session.seat_of(first).seat
            sub = Substitute(700, "Sub")
            assert await store.noshows.hand_seat(
                league.id, game.id, session.id, seat, first, sub, "substitute"
            )
            session = await service.core.get(session.id)
            first = winner = 700
        loser = second if winner == first else first
        await store.games.finish(
            session.id,
            status="finished",
            reason="won",
            outcome=None,
            results=[
                ResultRow(session.seat_of(winner).seat, winner, 1.0, 1, False),
                ResultRow(session.seat_of(loser).seat, loser, 0.0, 2, False),
            ],
        )
    clock.advance(DAY)
    await leagues.round_deadline(league.id, 1)
    league = await store.leagues.league(league.id)
    rows = await leagues.standings(league)
    assert rows[0].row.player == "700"  # level on points with the other winner, ahead by player id
    other_winner = opened.games[1].players[0]
    assert await leagues.champion(league) == other_winner

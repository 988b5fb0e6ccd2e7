"""A substitute who is late in their turn at the round's deadline, when the league forfeits late
seats: the league seat they play forfeits, whoever its result counts for."""

from __future__ import annotations

import pytest

from tests.league.test_league_changes_whole import league_desk, league_seats, opened
from tests.league.test_service import DAY

__all__ = ["league_desk"]


@pytest.mark.parametrize("credit", ["original", "substitute", "nobody"])
async def test_a_late_substitute_forfeits_the_seat_they_play(league_desk, service, clock, credit):
    """P41, late, is replaced by Sub from the overdue view; Sub does not play either.  At the
    deadline the seat forfeits, as the post there says: it ranks last whether the result counts
    for P41 (it ranked where the computer finished it, P41 keeping points for a game nobody
    played), for Sub, or for nobody."""
    _, noshows, scheduler = league_desk
    store = service.store
    league, game, session = await opened(league_desk, 3, "forfeit")
    await noshows.set_rules(league, "forfeit", 0, credit)
    (late,) = session.waiting_on()
    await store.noshows.add_substitute(league.id, 99, "Sub")
    sub, _ = await noshows.substitute_for(league, game.id)
    assert sub.user_id == 99
    clock.advance(3 * DAY)
    await scheduler.run_due()
    holder = 99 if credit == "substitute" else late.user_id
    seats = await league_seats(store, league.id)
    assert seats[holder] == (True, 3), seats
    assert [forfeit for forfeit, _ in seats.values()].count(True) == 1
    assert await store.noshows.counts(league.id) == {99: 1}  # the no-show is the substitute's


async def test_a_seat_handed_on_from_a_late_player_counts_for_nobody_when_the_organiser_chose_so(
    league_desk, service
):
    """The overdue view's substitute takes a late player's seat (not dropped) in a league whose
    substitutes' results count for nobody: the late player keeps no result of the substitute's
    play (they were credited with it, as though the league counted for the original player)."""
    from tests.league.test_service import play_out

    _, noshows, _ = league_desk
    store = service.store
    league, game, session = await opened(league_desk, 3, "forfeit")
    await noshows.set_rules(league, "forfeit", 0, "nobody")
    (late,) = session.waiting_on()
    await store.noshows.add_substitute(league.id, 99, "Sub")
    await noshows.substitute_for(league, game.id)
    await play_out(service, await service.core.get(session.id))
    seats = await league_seats(store, league.id)
    assert seats[late.user_id] == (True, 3), seats
    assert 99 not in seats

"""A league game's seed says nothing of another's: the export of a finished league game carries
its seed (to replay it), and from it nobody may deal the cards of a game still running."""

from __future__ import annotations

from bot import export
from bot.history import start_state
from bot.league.service import LeagueService
from tests.league.test_service import started_with


async def test_a_finished_league_games_seed_deals_no_other_running_game(service):
    """Two Guacamole tables of one round: the first ends (two of its players resign) and its
    export gives its seed; every seed near it, or of its form, fails to deal the second table's
    hands, which are still hidden."""
    leagues = LeagueService(service.store, service)
    names = {uid: f"player{uid}" for uid in range(101, 107)}
    league = await started_with(
        leagues,
        names,
        name="Autumn",
        game="guacamole",
        format="swiss",
        group_size=3,
        rounds=1,
        days=7,
        seed=11,
    )
    opened = await leagues.open_round(league.id, 1)
    assert opened is not None and len(opened.games) == 2
    first, second = [
        await leagues.open_game(opened.league, game, 1000 + i, names) for i, game in enumerate(opened.games)
    ]
    assert first is not None and second is not None
    for uid in [s.user_id for s in first.seats if s.user_id is not None][:2]:
        await service.seats.resign(first.row.channel_id, uid)
    first = await service.core.get(first.id)
    assert first.status == "finished"
    seed = (await export.export_session(service, first))["seed"]
    second = await service.core.get(second.id)
    assert second.status == "active"
    module = second.engine
    hands = start_state(second).hands  # the deal the second table's players hold, hidden from all
    tried = {seed + d for d in range(-2000, 2001)}
    tried |= {seed // k * k + d for k in (1000, 10_007, 100_003, 1_000_003) for d in range(2000)}
    config = start_state(second).config
    dealt = [s for s in sorted(tried) if s >= 0 and module.new_game(config, 3, s).hands == hands]
    assert dealt == [], f"the first table's seed {seed} gives away the second's deal (seed {dealt})"

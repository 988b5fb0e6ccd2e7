"""Leagues end to end: the real bot against the Discord stand-in, time moved by the test."""

from __future__ import annotations

from tests.e2e.test_league import EXTENSIONS as LEAGUE_EXTENSIONS
from tests.e2e.test_league import fire

EXTENSIONS = (*LEAGUE_EXTENSIONS, "cogs.me", "cogs.guacamole")


async def answer(standin, user, chan, command, **options) -> str:
    return (await (await standin.slash(user, chan, command, **options)).original()).content


async def test_two_leagues_with_the_same_seed_and_sign_ups_pair_the_same_first_round(
    standin, bot_factory, table_clock
):
    """A league's seed comes from the bot's seed source (as a game's does), not from the time the
    create command came: the same seed and the same sign-ups give the same tables and seats, so a
    season can be replayed."""
    chan = standin.channel("games")
    people = standin.add_users("ana", "beto", "cusi", "dora", "eloy", "fatima")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        for name in ("One", "Two"):
            bot.sessions.new_seed = lambda: 2**40 + 987_654_321
            await standin.slash(
                standin.owner,
                chan,
                "league create",
                name=name,
                game="guacamole",
                format="swiss",
                players=3,
                rounds=1,
            )
            for user in people:
                assert "signed up for " + name in await answer(
                    standin, user, chan, "league join", league=name
                )
            await answer(standin, standin.owner, chan, "league start", league=name)
        await fire(bot)
        one, two = sorted(await bot.store.leagues.of_server(standin.guild.id), key=lambda x: x.name)
        assert one.seed == two.seed
        tables = [
            [g.players for g in await bot.store.leagues.league_games(league.id, 1)] for league in (one, two)
        ]
        assert len(tables[0]) == 2 and sorted(u for g in tables[0] for u in g) == sorted(p.id for p in people)
        assert tables[0] == tables[1]

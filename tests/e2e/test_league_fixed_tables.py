"""A table the organiser fixed that cannot be kept, end to end: the real bot against the Discord
stand-in.  One of its players is away over the round's start (a pause for that round), so the
table cannot be seated; the round opens with the other player paired among the rest, and the
organiser is told which fixed table was not kept and why, rather than finding it gone."""

from __future__ import annotations

from tests.e2e.conftest import BASE_EXTENSIONS
from tests.e2e.test_league import fire

EXTENSIONS = (*BASE_EXTENSIONS, "cogs.pachakuna", "cogs.league", "cogs.me")


async def answer(standin, user, chan, command, **options) -> str:
    return (await (await standin.slash(user, chan, command, **options)).original()).content


async def test_a_fixed_table_one_of_whose_players_is_away_is_reported_to_the_organiser(
    standin, bot_factory, table_clock
):
    chan = standin.channel("games")
    owner = standin.owner
    names = ("ana", "beto", "cusi", "dora", "eloy")
    users = dict(zip(names, standin.add_users(*names), strict=True))
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await answer(
            standin,
            owner,
            chan,
            "league create",
            name="Llamas",
            game="pachakuna",
            format="swiss",
            players=2,
            rounds=2,
        )
        for name in names:
            assert "signed up" in await answer(standin, users[name], chan, "league join")
        fixed = await answer(
            standin, owner, chan, "league organiser pair", first=users["ana"], second=users["beto"]
        )
        assert "Round 1 of Llamas will seat Ana, Beto at one table" in fixed
        assert "You are away" in await answer(standin, users["beto"], chan, "me away", days=3)
        await answer(standin, owner, chan, "league start")
        await fire(bot)
        league = (await bot.store.leagues.of_server(standin.guild.id))[0]
        games = await bot.store.leagues.league_games(league.id, 1)
        paired = {u for g in games for u in g.players}
        assert users["beto"].id not in paired and users["ana"].id in paired
        (told,) = [m for m in standin.messages(chan) if "the table you fixed" in m.content]
        assert (
            "the table you fixed for round 1 of 2 of **Llamas** (Ana, Beto) could not be kept, as Beto"
            " was away or paused; the others at it were paired with the rest of the field." in told.content
        )
        assert f"<@{owner.id}>" in told.content

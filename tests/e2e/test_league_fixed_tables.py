"""A table the organiser fixed that cannot be kept, end to end: the real bot against the Discord
stand-in.  One of its players is away over the round's start (a pause for that round), so the
table cannot be seated; the round opens with the other player paired among the rest, and the
organiser is told which fixed table was not kept and why, rather than finding it gone."""

from __future__ import annotations

from tests.e2e.conftest import BASE_EXTENSIONS
from tests.e2e.leagues import fire

EXTENSIONS = (*BASE_EXTENSIONS, "cogs.pachakuna", "cogs.league", "cogs.me")


async def answer(standin, user, chan, command, **options) -> str:
    return (await (await standin.slash(user, chan, command, **options)).original()).content


async def away_from_a_fixed_table(standin, chan, users, league: str) -> None:
    """``users`` (Ana and Beto among them) sign up to ``league``, created; the organiser fixes a
    table of Ana and Beto for round 1, Beto goes away for three days, and the league starts."""
    for user in users.values():
        assert "signed up" in await answer(standin, user, chan, "league join")
    owner = standin.owner
    fixed = await answer(
        standin, owner, chan, "league organiser pair", first=users["ana"], second=users["beto"]
    )
    assert f"Round 1 of {league} will seat Ana, Beto at one table" in fixed
    assert "You are away" in await answer(standin, users["beto"], chan, "me away", days=3)
    await answer(standin, owner, chan, "league start")


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
        await away_from_a_fixed_table(standin, chan, users, "Llamas")
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


async def test_fixing_a_table_with_a_player_away_over_the_rounds_start_warns_the_organiser(
    standin, bot_factory, table_clock
):
    """Round 2 is due 7 days after round 1 opened.  Ana is away for 10 days, over its start; Beto
    for 3, back before it.  Fixing a table with Ana is accepted (she may still come back first:
    who sits a round out is decided when it is due) but the organiser is told at once who is away,
    until when, what it means for the table and what to do; fixing one with Beto warns of nothing."""
    chan = standin.channel("games")
    owner = standin.owner
    names = ("ana", "beto", "cusi", "dora")
    users = dict(zip(names, standin.add_users(*names), strict=True))
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await answer(
            standin, owner, chan, "league create", name="Llamas", game="pachakuna", format="swiss",
            players=2, rounds=2, days=7,
        )  # fmt: skip
        for name in names:
            assert "signed up" in await answer(standin, users[name], chan, "league join")
        await answer(standin, owner, chan, "league start")
        await fire(bot)
        assert "You are away" in await answer(standin, users["ana"], chan, "me away", days=10)
        assert "You are away" in await answer(standin, users["beto"], chan, "me away", days=3)
        ana = await bot.store.people.person(users["ana"].id)

        fixed = await answer(
            standin, owner, chan, "league organiser pair", first=users["ana"], second=users["cusi"]
        )
        assert "Round 2 of Llamas will seat Ana, Cusi at one table" in fixed
        assert (
            f"<@{users['ana'].id}> is away until <t:{int(ana.away_until)}:f>, over the start of round 2"
            in fixed
        )
        assert "they will not be paired in it and this table will not be kept" in fixed
        assert "/me back" in fixed or "</me back:" in fixed
        assert "/league organiser unpair" in fixed or "</league organiser unpair:" in fixed
        assert f"<@{users['cusi'].id}>" not in fixed
        league = (await bot.store.leagues.of_server(standin.guild.id))[0]
        assert await bot.store.league_pairing.fixed_tables(league.id, 2) == [
            [users["ana"].id, users["cusi"].id]
        ]

        other = await answer(
            standin, owner, chan, "league organiser pair", first=users["beto"], second=users["dora"]
        )
        assert "Round 2 of Llamas will seat Beto, Dora at one table" in other
        assert "away" not in other


async def test_a_fixed_table_whose_player_left_before_the_start_is_reported_by_name_and_reason(
    standin, bot_factory, table_clock
):
    """Beto, at a table the organiser fixed for round 1, leaves the league before it starts.  The
    round pairs Ana with the rest, and the organiser is told the table could not be kept because
    Beto left: naming him (not by a bare user id) and saying why (not "one of them was not paired")."""
    chan = standin.channel("games")
    owner = standin.owner
    names = ("ana", "beto", "cusi", "dora", "eloy")
    users = dict(zip(names, standin.add_users(*names), strict=True))
    beto = users["beto"]
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await answer(
            standin, owner, chan, "league create", name="Llamas", game="pachakuna", format="swiss",
            players=2, rounds=2,
        )  # fmt: skip
        for name in names:
            assert "signed up" in await answer(standin, users[name], chan, "league join")
        await answer(standin, owner, chan, "league organiser pair", first=users["ana"], second=beto)
        assert "You left Llamas" in await answer(standin, beto, chan, "league leave")
        await answer(standin, owner, chan, "league start")
        await fire(bot)
        (told,) = [m for m in standin.messages(chan) if "the table you fixed" in m.content]
        assert (
            f"the table you fixed for round 1 of 2 of **Llamas** (Ana, <@{beto.id}>) could not be kept, as"
            f" <@{beto.id}> left the league; the others at it were paired with the rest of the field."
        ) in told.content
        assert told.pinged == {owner.id}

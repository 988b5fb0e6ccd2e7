"""Which variant a game is played with, where players look for it: a league's sign-up message and
``/league round`` name its games' options, and a Guanga table always names its mode (the four
modes are four games: "standard rules" would not say which)."""

from __future__ import annotations

from bot.app import EXTENSIONS
from tests.e2e.leagues import EXTENSIONS as LEAGUE_EXTENSIONS
from tests.e2e.leagues import fire


async def test_a_league_names_its_games_options_at_sign_up_and_in_its_rounds(standin, bot_factory):
    owner = standin.owner
    alice, bob = standin.add_user("alice"), standin.add_user("bob")
    chan = standin.channel("general")
    async with standin.run_client(bot_factory(LEAGUE_EXTENSIONS)) as bot:
        await standin.wait_synced()
        created = await standin.slash(
            owner, chan, "league create", {"options": "mode=master"},
            name="Weave", game="guanga", format="swiss", players=2, rounds=1, days=1,
        )  # fmt: skip
        assert "Options: master mode" in created.message.content, created.message.content
        plain = await standin.slash(
            owner, chan, "league create", name="Plain", game="tiwanaku", format="swiss", players=2,
            rounds=1, days=1,
        )  # fmt: skip
        assert "Options: standard rules" in plain.message.content, plain.message.content
        for user in (alice, bob):
            await (await standin.slash(user, chan, "league join", league="Weave")).original()
        await (await standin.slash(owner, chan, "league start", league="Weave")).original()
        await fire(bot)
        league = next(x for x in await bot.store.leagues.of_server(standin.guild.id) if x.name == "Weave")
        (game,) = await bot.store.leagues.league_games(league.id, 1)
        session = await bot.sessions.core.get(game.session_id)
        assert session.row.options["mode"] == "master"
        closed = [m.content for m in standin.messages(chan) if "Sign-ups are closed" in m.content]
        assert closed and "Options: master mode" in closed[-1], closed
        shown = (await (await standin.slash(alice, chan, "league round", league="Weave")).original()).content
        assert "Options: master mode" in shown, shown


async def test_a_guanga_table_names_its_mode_even_the_default_one(standin, bot_factory):
    alice = standin.add_user("alice")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        lobby = await standin.slash(alice, chan, "guanga new", thread=False, players=2)
        text = (await lobby.original()).content
        assert "Options: beginner mode\n" in text, text
        await (await standin.slash(alice, chan, "game computer")).original()
        await (await standin.slash(alice, chan, "game start")).original()
        await standin.settle()
        status = (await (await standin.slash(alice, chan, "game status")).original()).content
        assert "Options: beginner mode\n" in status, status
        assert (await bot.sessions.core.in_channel(chan.id)).status == "active"

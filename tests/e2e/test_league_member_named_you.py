"""An organiser who signs up a member whose display name is "you" is answered about that member,
never as if they were the one signed up: the asker is told apart from the people an organiser
names by who asks, not by a name a member can choose."""

from __future__ import annotations

from tests.e2e.leagues import EXTENSIONS


async def test_an_organiser_adds_and_removes_a_member_called_you(standin, bot_factory):
    chan = standin.channel("games")
    owner = standin.owner
    you = standin.add_user("yolanda")
    standin.set_nick(you, "you")  # the name the server shows for her
    async with standin.run_client(bot_factory(EXTENSIONS)):
        await standin.wait_synced()
        created = await standin.slash(
            owner, chan, "league create", name="Autumn", game="guacamole", format="swiss", players=2, rounds=2
        )
        assert "Autumn" in created.message.content

        async def said(path: str) -> str:
            return (await (await standin.slash(owner, chan, path, member=you)).original()).content

        assert await said("league organiser add") == "you signed up for Autumn (1 player)."
        # (a refusal starts with a capital: the name is the sentence's first word)
        assert await said("league organiser add") == "⚠️ You is already signed up for Autumn."
        assert await said("league organiser remove") == "you left Autumn."
        assert await said("league organiser remove") == "⚠️ You is not signed up for Autumn."
        # The owner themself was never signed up: their own leave is about them.
        mine = await (await standin.slash(owner, chan, "league leave")).original()
        assert mine.content == "⚠️ You are not signed up for Autumn."

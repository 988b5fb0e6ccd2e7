"""An organiser who signs up a member whose display name is "you" is answered about that member,
never as if they were the one signed up: the asker is told apart from the people an organiser
names by who asks, not by a name a member can choose.  A refusal that starts with a member's or a
league's name keeps it as written ("you is already signed up", never "You is"; "otoño", never
"Otoño"), in English and in Spanish."""

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
        # the refusal is about her, by the name she chose: no capital makes it "You is"
        assert await said("league organiser add") == "⚠️ you is already signed up for Autumn."
        assert await said("league organiser remove") == "you left Autumn."
        assert await said("league organiser remove") == "⚠️ you is not signed up for Autumn."
        # The owner themself was never signed up: their own leave is about them.
        mine = await (await standin.slash(owner, chan, "league leave")).original()
        assert mine.content == "⚠️ You are not signed up for Autumn."


async def test_a_spanish_organiser_reads_lower_case_names_as_written(standin, bot_factory):
    chan = standin.channel("games")
    owner = standin.owner
    owner.locale = "es-ES"
    ana = standin.add_user("ana")
    standin.set_nick(ana, "ana")  # as she writes it, all lower case
    async with standin.run_client(bot_factory(EXTENSIONS)):
        await standin.wait_synced()
        await (
            await standin.slash(
                owner,
                chan,
                "league create",
                name="otoño",
                game="guacamole",
                format="swiss",
                players=2,
                rounds=2,
            )
        ).original()

        async def said(path: str, **options) -> str:
            return (await (await standin.slash(owner, chan, path, **options)).original()).content

        assert await said("league organiser add", member=ana) == "ana se inscribió en otoño (1 jugador)."
        assert await said("league organiser add", member=ana) == "⚠️ ana ya se ha inscrito en otoño."
        assert (
            await said("league start")
            == "⚠️ otoño necesita al menos 2 participantes para empezar; inscripciones: 1."
        )
        assert await said("league organiser remove", member=ana) == "ana salió de otoño."
        assert await said("league organiser remove", member=ana) == "⚠️ ana no se ha inscrito en otoño."
        assert await said("league leave") == "⚠️ No te has inscrito en otoño."

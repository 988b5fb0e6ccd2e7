"""A value typed into a slash command and refused comes back as typed: Discord's markdown and
mentions escaped (the stand-in renders the answer's markdown as a client would), in the asker's
language, without Python's quotes."""

from __future__ import annotations

from tests.e2e.leagues import EXTENSIONS as LEAGUES

EXTENSIONS = (*LEAGUES, "cogs.me")


async def test_typed_values_are_repeated_escaped_in_english_and_spanish(standin, bot_factory):
    chan = standin.channel("games")
    owner = standin.owner
    owner.locale = "es-ES"
    ana = standin.add_user("ana")
    async with standin.run_client(bot_factory(EXTENSIONS)):
        await standin.wait_synced()
        answer = await standin.slash(
            owner,
            chan,
            "league create",
            name="Otoño",
            game="guacamole",
            format="swiss",
            players=2,
            rounds=2,
            points="*3*,2",
        )
        said = (await answer.original()).content
        assert said.startswith(r'⚠️ "\*3\*,2" no es una lista de puntos'), said
        answer = await standin.slash(
            owner,
            chan,
            "league create",
            name="Otoño",
            game="guacamole",
            format="swiss",
            players=2,
            rounds=2,
            tiebreaks="||Buchholz||",
        )
        said = (await answer.original()).content
        assert said.startswith(r'⚠️ "\|\|Buchholz\|\|" no es un desempate'), said

        refused = await (await standin.slash(ana, chan, "me notify", time_zone="@everyone")).original()
        assert refused.content.startswith(r'⚠️ "\@everyone" is not a time zone I know'), refused.content
        assert not refused.pinged

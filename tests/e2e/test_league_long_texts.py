"""A single elimination league of 80 players with 32-character names, through Discord: the text
below ``/league bracket``'s picture and ``/league round``'s private answer are too long for one
message, and come whole, in several messages of at most 2,000 characters each (the stand-in
refuses longer ones), where they were cut at 2,000 characters and lost their last names."""

from __future__ import annotations

from tests.e2e.leagues import EXTENSIONS, fire

NAMES = {7000 + i: f"Wayra Quispe Mamani Condori {i:04d}" for i in range(80)}


async def test_a_bracket_and_a_round_of_80_long_names_are_read_whole(standin, bot_factory, table_clock):
    chan = standin.channel("games")
    owner = standin.owner
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await standin.slash(
            owner,
            chan,
            "league create",
            name="Big cup",
            game="pachakuna",
            format="elimination",
            players=2,
            days=2,
        )
        league = (await bot.store.leagues.of_server(standin.guild.id))[0]
        for uid, name in NAMES.items():  # signed up by the service: 80 members need no slash each
            await bot.leagues.join(league, uid, name)
        started = await standin.slash(owner, chan, "league start")
        assert "has started" in (await started.original()).content
        await fire(bot)  # round 1: 16 matches, 48 byes

        def read(answer) -> str:
            return "\n".join(m.content for m in answer.followup_messages)

        bracket = await standin.slash(owner, chan, "league bracket")
        await standin.wait_for(lambda: all(n in read(bracket) for n in NAMES.values()), what="every name")
        sent = bracket.followup_messages
        assert len(sent) >= 3 and sent[0].attachments and all(len(m.content) <= 2000 for m in sent)
        shown = await standin.slash(owner, chan, "league round")
        await shown.original()
        await standin.wait_for(
            lambda: all(n in shown.content + "\n" + read(shown) for n in NAMES.values()), what="every name"
        )
        assert shown.followup_messages and all(m.ephemeral for m in shown.followup_messages)

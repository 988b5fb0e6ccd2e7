"""Leagues too large for one message, through Discord: the text below ``/league bracket``'s
picture and ``/league round``'s private answer for 80 players with 32-character names, and the
check-in call's mentions of 90 players, come whole, in several messages of at most 2,000
characters each (the stand-in refuses longer ones), where they were cut at 2,000 characters and
lost their last names (or pings)."""

from __future__ import annotations

import pytest

from tests.e2e.leagues import EXTENSIONS, fire

NAMES = {7000 + i: f"Wayra Quispe Mamani Condori {i:04d}" for i in range(80)}


async def signed_up(standin, bot, chan, people: dict[int, str], **options):
    """A league the server's owner created (``options``: /league create's), ``people`` (user id:
    name) signed up by the service, as so many members need no slash command each."""
    await (
        await standin.slash(standin.owner, chan, "league create", game="pachakuna", players=2, **options)
    ).original()
    league = (await bot.store.leagues.of_server(standin.guild.id))[0]
    for uid, name in people.items():
        await bot.leagues.join(league, uid, name)


async def test_a_bracket_and_a_round_of_80_long_names_are_read_whole(standin, bot_factory, table_clock):
    chan = standin.channel("games")
    owner = standin.owner
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await signed_up(standin, bot, chan, NAMES, name="Big cup", format="elimination", days=2)
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


@pytest.mark.parametrize("count", [90, 120])
async def test_a_check_in_call_to_many_players_pings_every_one(standin, bot_factory, table_clock, count):
    """The check-in call mentions everyone asked to check in; 90 mentions are longer than a message,
    and the call was cut at 2,000 characters, in the middle of a mention, so the last players were
    never pinged.  Now the mentions that do not fit follow in a second message.  With 120, every
    message named all 120 in its allowed mentions, past Discord's 100, and was refused: now each
    message allows those it mentions."""
    chan = standin.channel("games")
    owner = standin.owner
    people = standin.add_users(*(f"p{i:03d}" for i in range(count)))
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await signed_up(
            standin, bot, chan, {u.id: u.name for u in people}, name="Big swiss", format="swiss", rounds=3
        )
        told = await standin.slash(owner, chan, "league organiser attendance", checkin="every", hours=24.0)
        assert "check in before every round" in (await told.original()).content
        assert (
            "Its check-in opens"
            in (await (await standin.slash(owner, chan, "league start")).original()).content
        )
        standin.skip_messages(chan)
        await fire(bot)
        call = await standin.next_message(chan, lambda m: "check in for round 1 of 3" in m.content)
        assert "pk:lg:in:" in " ".join(call.custom_ids)  # the button is on the call itself

        def pinged() -> set[int]:
            return {u for m in standin.messages(chan) for u in m.pinged}

        await standin.wait_for(lambda: pinged() == {u.id for u in people}, what="every player pinged")
        assert all(len(m.content) <= 2000 for m in standin.messages(chan))
        assert all(f"<@{u}>" in m.content for m in standin.messages(chan) for u in m.pinged)

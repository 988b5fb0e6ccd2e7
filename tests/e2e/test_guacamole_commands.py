"""/guacamole's own commands, played by the real bot through the Discord stand-in."""

from __future__ import annotations

from bot.app import EXTENSIONS
from engines.guacamole.data import card_code
from tests.e2e.players import start


async def test_the_card_commands_take_a_card_alone(standin, bot_factory):
    """/guacamole dish and /guacamole prepare take what their option asks for, a card alone
    (`4T`, `z5O`), as /guacamole draw takes `x1`; a whole move (`cancel`, `prep 5T`) still goes
    as it is."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await start(standin, bot, chan, "guacamole", [alice, bob], seed=11)
        session = await bot.sessions.core.in_channel(chan.id)
        (seat,) = session.to_move()
        mover = alice if session.by_seat(seat).user_id == alice.id else bob
        hand = sorted({card_code(c) for c in session.state.hands[seat]})
        zone = card_code(session.state.prep[seat][0])

        answer = await (await standin.slash(mover, chan, "guacamole dish", card=f"z{zone}")).original()
        assert f"`dish z{zone}`" in answer.text, answer.text
        session = await bot.sessions.core.in_channel(chan.id)
        assert [card_code(c) for c in session.state.building] == [zone]

        answer = await (await standin.slash(mover, chan, "guacamole dish", card="cancel")).original()
        assert "`cancel`" in answer.text, answer.text
        session = await bot.sessions.core.in_channel(chan.id)
        assert session.state.building == [] and card_code(session.state.prep[seat][0]) == zone

        answer = await (await standin.slash(mover, chan, "guacamole prepare", card=hand[0])).original()
        assert f"`prep {hand[0]}`" in answer.text, answer.text
        session = await bot.sessions.core.in_channel(chan.id)
        assert [card_code(c) for c in session.state.prep[seat]] == [zone, hand[0]]

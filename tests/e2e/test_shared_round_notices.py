"""Turn notices in a round everyone plays at once (Nowa Gwinea): a person is told once a turn, when
it begins, by direct message or, in their quiet hours, when those end; a board posted inside the
round (an undo's) tells nobody again, and leaves the reminders where their turns' starts put them."""

from __future__ import annotations

from tests.e2e.conftest import BASE_EXTENSIONS
from tests.e2e.players import settled, start
from tests.e2e.test_notices import is_board, settings

EXTENSIONS = (*BASE_EXTENSIONS, "cogs.me", "cogs.nowa_gwinea")
HOUR = 3600


def turn_dms(standin, user) -> list:
    return [m for m in standin.messages(standin.dm(user)) if m.content.startswith("It is your turn")]


def reminders(standin, user) -> list:
    return [m for m in standin.messages(standin.dm(user)) if m.content.startswith("Reminder")]


async def move(standin, bot, chan, user, text: str) -> None:
    answer = await (await standin.slash(user, chan, "nowa_gwinea move", move=text)).original()
    assert answer.content.startswith("You played"), answer.content
    await settled(standin)
    await bot.front.catchup.drain()


async def take_back_a_hut(standin, bot, chan, asker, others) -> None:
    """``asker`` builds a hut and takes it back with the others' agreement: a board inside the round."""
    legal = await bot.sessions.play.legal_moves(chan.id, asker.id)
    await move(standin, bot, chan, asker, next(m for m in legal if m not in ("done", "gwinea")))
    asked = await (await standin.slash(asker, chan, "game undo")).original()
    assert asked.content.startswith("Asked"), asked.content
    request = await standin.next_message(chan, lambda m: "asks to take back" in m.content and m.buttons)
    for other in others:
        await (await standin.click(other, request, "Agree")).original()
    await standin.next_message(chan, lambda m: is_board(m) and "took back" in m.content)
    await settled(standin)
    await bot.front.catchup.drain()


async def test_each_builder_gets_one_turn_dm_a_round_however_many_boards_it_has(
    standin, bot_factory, table_clock
):
    """Three builders who want direct messages: one turn DM each when the round begins; Alice's hut
    taken back with everyone's agreement posts a board inside the round, which DMs nobody and keeps
    Bob's and Carol's reminders at 24 hours from the round's start; the next round's first board
    DMs each of them again, once."""
    alice, bob, carol = people = standin.add_users("alice", "bob", "carol")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        for user in people:
            await settings(standin, user, chan, where="dm", reminders=24)
        await start(standin, bot, chan, "nowa_gwinea", people, seed=3)
        await settled(standin)
        await bot.front.catchup.drain()
        began = table_clock.time()
        assert [len(turn_dms(standin, u)) for u in people] == [1, 1, 1]

        table_clock.advance(2 * HOUR)
        await take_back_a_hut(standin, bot, chan, alice, (bob, carol))
        assert [len(turn_dms(standin, u)) for u in people] == [1, 1, 1]
        for user in (bob, carol):  # others' moves, and their taking back, do not put a reminder off
            assert (await bot.store.jobs.job("remind", str(user.id))).due_at == began + 24 * HOUR

        table_clock.advance(HOUR)
        await move(standin, bot, chan, alice, "done")
        await move(standin, bot, chan, bob, "done")
        assert [len(turn_dms(standin, u)) for u in people] == [1, 1, 1]
        await move(standin, bot, chan, carol, "done")  # round 2 begins: everyone's new turn
        assert [len(turn_dms(standin, u)) for u in people] == [2, 2, 2]
        session = await bot.sessions.core.in_channel(chan.id)
        assert session.state.round == 2
        board = [m for m in standin.messages(chan) if is_board(m)][-1]
        assert all(f"/{board.id}" in turn_dms(standin, u)[-1].content for u in people)
        for user in people:  # the new turn's reminder counts from its start
            assert (await bot.store.jobs.job("remind", str(user.id))).due_at == table_clock.time() + 24 * HOUR


async def test_a_board_inside_the_round_in_quiet_hours_holds_no_second_notice(
    standin, bot_factory, table_clock
):
    """Carol wants direct messages only, no reminders, and quiet hours 22-7 in Lima.  The game
    starts at 03:00 there: her turn notice waits for 07:00, once.  At 23:00 an undo inside the
    same round posts a board: no second notice is held for 07:00 the next morning."""
    alice, bob, carol = people = standin.add_users("alice", "bob", "carol")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        for user in (alice, bob):
            await settings(standin, user, chan, where="thread")
        await settings(standin, carol, chan, where="dm", reminders=0, time_zone="America/Lima", quiet="22-7")
        await start(standin, bot, chan, "nowa_gwinea", people, seed=3)  # 03:00 in Lima
        await settled(standin)
        await bot.front.catchup.drain()
        assert not turn_dms(standin, carol) and not reminders(standin, carol)
        table_clock.advance(4 * HOUR)  # 07:00: the held notice comes
        await bot.scheduler.run_due()
        await settled(standin)
        assert len(reminders(standin, carol)) == 1
        assert await bot.store.jobs.job("remind", str(carol.id)) is None

        table_clock.advance(16 * HOUR)  # 23:00, quiet again
        await take_back_a_hut(standin, bot, chan, alice, (bob, carol))
        assert await bot.store.jobs.job("remind", str(carol.id)) is None
        table_clock.advance(9 * HOUR)  # 08:00 the next morning
        await bot.scheduler.run_due()
        await settled(standin)
        assert len(reminders(standin, carol)) == 1 and not turn_dms(standin, carol)

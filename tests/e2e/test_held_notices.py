"""Turn notices held back by quiet hours, over the days of a slow game: a held notice is a
promise (it comes when the quiet hours end) that changing one's other settings meanwhile keeps."""

from __future__ import annotations

from tests.e2e.players import settled
from tests.e2e.test_notices import EXTENSIONS, play_one, quiet_lima_game, settings, start_game
from tests.e2e.test_waits import EXTENSIONS as WAITS
from tests.e2e.test_waits import clock_warnings, dm_turn


async def test_a_turn_notice_held_by_quiet_hours_still_comes_after_reminders_are_turned_off(
    standin, bot_factory, table_clock
):
    """Alice and Bob want DMs, a reminder every 12 hours and quiet hours 22-7 in Lima; the game
    starts at 03:00 there, so the first to move is told at 07:00.  At 05:00 they turn reminders
    off (and at 06:00 set their quiet hours again, unchanged): the turn notice held for 07:00 is
    no reminder, and still comes then, once."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread, first = await quiet_lima_game(standin, bot, chan, alice, bob, 12)
        assert standin.messages(standin.dm(first)) == []  # 03:00 in Lima: quiet
        table_clock.advance(2 * 3600)
        await settings(standin, first, chan, reminders=0)
        table_clock.advance(3600)
        await settings(standin, first, chan, quiet="22-7")
        assert standin.messages(standin.dm(first)) == []
        table_clock.advance(3600)  # 07:00 in Lima
        await bot.scheduler.run_due()
        await settled(standin)
        (told,) = standin.messages(standin.dm(first))
        assert "your turn in 1 game" in told.content and f"/{thread.id}" in told.content
        table_clock.advance(3 * 86400)  # reminders are off: nothing more
        await bot.scheduler.run_due()
        await settled(standin)
        assert len(standin.messages(standin.dm(first))) == 1


async def test_a_turn_notice_held_by_quiet_hours_comes_at_once_when_the_quiet_hours_are_removed(
    standin, bot_factory, table_clock
):
    """Without reminders, a turn that began at 03:00 in Lima (quiet 22-7) is held for 07:00; at
    04:00 the person removes their quiet hours: the notice they were owed comes now, not at
    07:00."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread, first = await quiet_lima_game(standin, bot, chan, alice, bob, 0)
        table_clock.advance(3600)
        await settings(standin, first, chan, quiet="off")
        await bot.scheduler.run_due()
        await settled(standin)
        (told,) = standin.messages(standin.dm(first))
        assert "your turn in 1 game" in told.content
        table_clock.advance(3 * 3600)
        await bot.scheduler.run_due()
        await settled(standin)
        assert len(standin.messages(standin.dm(first))) == 1


async def test_a_result_held_by_quiet_hours_comes_at_once_when_the_quiet_hours_are_removed(
    standin, bot_factory, table_clock
):
    """Dave wants DMs, quiet hours 7-9 UTC; the game ends at 08:00, so its result waits for 09:00.
    At 08:10 he removes his quiet hours: the result comes then, once, not at 09:00."""
    alice, dave = standin.add_users("alice", "dave")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await settings(standin, dave, chan, where="dm", reminders=0, time_zone="UTC", quiet="7-9")
        thread, _ = await start_game(standin, bot, chan, alice, dave, piles=1)
        session = await bot.sessions.core.in_channel(thread.id)
        for _ in range(40):
            session = await bot.sessions.core.get(session.id)
            if session.status != "active":
                break
            await play_one(standin, bot, thread, (alice, dave))
        assert session.status == "finished"

        def results():
            return [m for m in standin.messages(standin.dm(dave)) if "is over" in m.content]

        assert results() == []
        table_clock.advance(600)
        await settings(standin, dave, chan, quiet="off")
        await bot.scheduler.run_due()
        await settled(standin)
        (told,) = results()
        assert "**Game over**" in told.content
        table_clock.advance(3600)
        await bot.scheduler.run_due()
        await settled(standin)
        assert len(results()) == 1


async def test_a_clock_warning_held_by_quiet_hours_comes_at_once_when_the_quiet_hours_are_removed(
    standin, bot_factory, table_clock
):
    """Alice wants DMs only, quiet hours 23-2 UTC; her 80 % comes at midnight and waits for 02:00.
    At 00:30 she removes her quiet hours: the warning comes then, once."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(WAITS)) as bot:
        await standin.wait_synced()
        await dm_turn(standin, bot, chan, alice, bob, "move:20h", time_zone="UTC", quiet="23-2")
        table_clock.advance(16 * 3600)  # 00:00 UTC: quiet
        await bot.scheduler.run_due()
        await settled(standin)
        assert clock_warnings(standin, alice) == []
        table_clock.advance(1800)
        await settings(standin, alice, chan, quiet="off")
        await bot.scheduler.run_due()
        await settled(standin)
        (warning,) = clock_warnings(standin, alice)
        assert "3 hours left on your clock" in warning.content
        table_clock.advance(2 * 3600)
        await bot.scheduler.run_due()
        assert len(clock_warnings(standin, alice)) == 1

"""The bot registers every job kind of bot.time.jobs at start-up, whichever cogs it loads."""

from __future__ import annotations

from bot.time import jobs
from tests.e2e.conftest import BASE_EXTENSIONS


async def test_the_bot_registers_every_kind_at_start_up_even_without_the_league_cog(standin, bot_factory):
    async with standin.run_client(bot_factory(BASE_EXTENSIONS)) as bot:
        assert sorted(bot.scheduler.kinds) == sorted(k.name for k in jobs.KINDS)


async def test_jobs_fired_together_are_spaced_for_discord_by_their_due_times(
    standin, bot_factory, table_clock
):
    """The test's bot fires the jobs that came due while the table's clock was moved on at
    Discord's time of their due times (tests/e2e/conftest.py, DiscordTime): two jobs an hour apart,
    each posting four messages in one channel, fill no rate-limit window, and discord.py is never
    told to hold its requests back (with both jobs at one moment, the window of 5 messages per 5 s
    would run dry and discord.py would wait for it)."""
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(BASE_EXTENSIONS)) as bot:
        channel = bot.get_channel(chan.id)

        async def four_posts(job) -> None:
            for n in range(4):
                await channel.send(f"{job.key} {n}")

        bot.scheduler.register("test posts", four_posts)
        start, discord_start = table_clock.time(), standin.clock()
        await bot.scheduler.schedule("test posts", "first", start + 3600)
        await bot.scheduler.schedule("test posts", "second", start + 7200)
        table_clock.advance(3 * 3600)
        held_before = standin._held_until
        assert await bot.scheduler.run_due() == 2
        assert [m.content for m in standin.messages(chan)][-8:] == [
            f"{key} {n}" for key in ("first", "second") for n in range(4)
        ]
        assert standin._held_until == held_before  # no answer said the bucket was empty
        assert standin.clock() - discord_start >= 3 * 3600  # the three hours passed for Discord too

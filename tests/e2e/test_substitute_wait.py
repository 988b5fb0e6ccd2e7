"""A league seat handed to a substitute in the middle of a turn: the substitute has waited only
since they took the seat, for ``/game mine``, the others' view of the game and reminders."""

from __future__ import annotations

from tests.e2e.conftest import BASE_EXTENSIONS
from tests.e2e.leagues import HOUR, guacamole_with_substitute

EXTENSIONS = (*BASE_EXTENSIONS, "cogs.guacamole", "cogs.league", "cogs.me")


async def test_a_substitutes_wait_counts_from_when_they_took_the_seat(standin, bot_factory, table_clock):
    players = standin.add_users("ana", "beto", "cusi")
    sub = standin.add_user("sub")
    games = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        _, session = await guacamole_with_substitute(standin, bot, games, players, sub, 1)
        (late_seat,) = session.waiting_on()
        late = next(u for u in players if u.id == late_seat.user_id)
        other = next(u for u in players if u is not late)

        table_clock.advance(7 * HOUR)  # the game is late: the organiser hands the seat over
        shown = await (await standin.slash(standin.owner, games, "league overdue")).original()
        done = await standin.click(standin.owner, shown, "Substitute at table 1")
        assert "takes " + late.name.title() + "'s seat" in (await done.original()).content
        await bot.front.catchup.drain()
        handed = table_clock.time()
        # reminders every 12 hours (the default): the first 12 hours after the seat became theirs
        assert (await bot.store.jobs.job("remind", str(sub.id))).due_at == handed + 12 * HOUR

        table_clock.advance(600)
        mine = await (await standin.slash(sub, games, "game mine")).original()
        assert "your turn, waiting 10 minutes" in mine.content, mine.content
        theirs = await (await standin.slash(other, games, "game mine")).original()
        assert "Sub to play, waiting 10 minutes" in theirs.content, theirs.content

"""A league game with a clock, over a day: the late player's time runs out, the others are asked
what now, and before anyone answers the organiser hands the seat to a substitute.  The question
was about the old player's time: the substitute's seat is theirs with a full clock, running."""

from __future__ import annotations

from tests.e2e.conftest import BASE_EXTENSIONS
from tests.e2e.leagues import HOUR, fire, guacamole_with_substitute, posts_with

EXTENSIONS = (*BASE_EXTENSIONS, "cogs.guacamole", "cogs.league")


async def test_a_substitute_does_not_inherit_the_time_out_of_the_player_they_replace(
    standin, bot_factory, table_clock
):
    chan = standin.channel("games")
    owner = standin.owner
    people = standin.add_users("ana", "beto", "cusi", "sub")
    players, sub = people[:3], people[3]
    by_id = {u.id: u for u in people}
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        league, session = await guacamole_with_substitute(
            standin, bot, chan, players, sub, 1, clock="bank:1h"
        )
        assert session.clock is not None and session.clock.text == "bank:1h"
        thread = standin.channel(session.row.channel_id)
        (late_seat,) = session.waiting_on()
        late = by_id[late_seat.user_id]

        table_clock.advance(HOUR + 60)  # the late player's bank runs out: the others are asked
        await fire(bot)
        (question,) = posts_with(standin, thread, "time ran out")
        assert late_seat.seat in (await bot.sessions.core.get(session.id)).banks.pending

        table_clock.advance(6 * HOUR)  # a quarter of the round: the game is late
        view = await standin.slash(owner, chan, "league overdue")
        shown = await view.original()
        done = await standin.click(owner, shown, "Substitute at table 1")
        assert "takes " + late.name.title() + "'s seat" in (await done.original()).content

        session = await bot.sessions.core.get(session.id)
        seat = session.seat_of(sub.id)
        assert seat is not None and seat.seat == late_seat.seat and not seat.computer
        # The substitute's clock is a full one, running, and nobody is asked about it.
        assert seat.seat not in session.banks.pending
        assert session.banks.since.get(seat.seat) == table_clock.time()
        status = await (await standin.slash(sub, thread, "game status")).original()
        assert "out of time" not in status.content
        # The question about the old player's time is closed: it cannot give their seat away (its
        # buttons are gone; an answer racing the close is refused: tests/table/test_clocks.py).
        await bot.front.catchup.drain()
        closed = standin.message(question.id)
        assert not closed.buttons and closed.content.endswith(
            "\nClosed: the game changed before anyone answered."
        )
        session = await bot.sessions.core.get(session.id)
        assert not session.by_seat(seat.seat).computer and seat.seat not in session.banks.taken

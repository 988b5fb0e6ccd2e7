"""A league's season end that Discord took in part just before a stop: the guard its end arms
tells it again within Discord's few minutes, so the channel has each post once and the champion
their direct message once; past those minutes it is told twice."""

from __future__ import annotations

import pytest

from bot.league.service import ANNOUNCE_AFTER
from bot.storage.leagues import ROUND_JOB
from tests.e2e.leagues import DAY, fire, started_league
from tests.e2e.leagues import EXTENSIONS as LEAGUE_EXTENSIONS
from tests.e2e.test_notices import settings
from tests.e2e.test_restarts import Stopped, closing, due_after, started
from tests.e2e.test_told_once import late_or_not, standin_options, stops_once_taken

__all__ = ["standin_options"]  # Discord's clock moved by hand only

EXTENSIONS = (*LEAGUE_EXTENSIONS, "cogs.me")
CROWN = "is over. Champion"
STANDINGS = "final standings"
CHAMPION = "You are the champion of **Crown cup**"


async def wanting_dms(standin, chan, people) -> None:
    """The bot up, and ``people`` wanting their notices by direct message."""
    await standin.wait_synced()
    for user in people:
        await settings(standin, user, chan, where="dm")


def stops_after_the_crown(standin, bot) -> list:
    """The season's crown post reaches Discord and the process stops there: nothing more is posted
    and nothing recorded (:func:`stops_once_taken`).  The list gets the crown."""
    taken = stops_once_taken(standin, bot, lambda m: CROWN in m.content)
    rounds, post = bot.league_rounds, bot.league_rounds.post

    async def posted(league, text, **options):
        done = await post(league, text, **options)
        if taken:
            raise Stopped
        return done

    rounds.post = posted
    return taken


@pytest.mark.parametrize("late", [False, True], ids=["within", "past"])
async def test_a_season_end_discord_took_just_before_a_stop_is_told_once(
    standin, bot_factory, table_clock, late
):
    """Two players who want direct messages play a one-round league; at its deadline the champion
    is written to and the crown post (with the standings picture) reaches Discord, and the bot
    stops before posting the rest.  Started again, the season's end guard (two minutes on) tells
    the end again: within Discord's window the crown and the DM are the ones sent before the stop,
    and the standings come once; past it, the crown and the DM come twice."""
    chan, people = standin.channel("games"), standin.add_users("ana", "beto")
    make = bot_factory(EXTENSIONS)
    async with standin.run_client(make) as bot:
        await wanting_dms(standin, chan, people)
        await started_league(
            standin,
            chan,
            people,
            name="Crown cup",
            game="pachakuna",
            format="swiss",
            players=2,
            rounds=1,
            days=1,
        )
        await fire(bot)  # round 1 opens
        league = (await bot.store.leagues.of_server(standin.guild.id))[0]
        taken = stops_after_the_crown(standin, bot)
        table_clock.advance(DAY)
        with pytest.raises(Stopped):
            await fire(bot)  # the deadline: the computer finishes the game, the season ends
        closing(bot)
        (crown,) = taken
    assert not [m for m in standin.messages(chan) if STANDINGS in m.content]
    (champion,) = [u for u in people if f"<@{u.id}>" in crown.content]
    (dm,) = [m for m in standin.messages(standin.dm(champion)) if CHAMPION in m.content]
    late_or_not(standin, late)
    async with standin.run_client(make) as bot:
        await started(standin, bot)
        await due_after(standin, bot, table_clock, ANNOUNCE_AFTER)
        crowns = [m.id for m in standin.messages(chan) if CROWN in m.content]
        dms = [m.id for m in standin.messages(standin.dm(champion)) if CHAMPION in m.content]
        assert len([m for m in standin.messages(chan) if STANDINGS in m.content]) == 1
        assert (await bot.store.jobs.job(ROUND_JOB, str(league.id))) is None  # told: the guard is gone
    if late:
        assert crowns[0] == crown.id and len(crowns) == 2
        assert dms[0] == dm.id and len(dms) == 2
    else:
        assert crowns == [crown.id]
        assert dms == [dm.id]

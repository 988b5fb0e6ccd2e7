"""What the league tests end to end share: the extensions, firing the due jobs as time moves,
a one-round league started and paired, and the posts and threads to look at."""

from __future__ import annotations

from bot.storage.leagues import DEADLINE_JOB, ROUND_JOB
from tests.e2e.conftest import BASE_EXTENSIONS

EXTENSIONS = (*BASE_EXTENSIONS, "cogs.league")
HOUR = 3600
DAY = 24 * HOUR


def threads_of(standin, before: set[int]) -> list:
    """The threads opened since ``before`` (the thread ids there were then)."""
    return [t for t in standin.guild.threads if t.id not in before]


def posts_with(standin, channel, text: str) -> list:
    return [m for m in standin.messages(channel) if text in m.content]


async def league_jobs(bot) -> set[tuple[str, str, float]]:
    return {
        (j.kind, j.key, j.due_at)
        for kind in (ROUND_JOB, DEADLINE_JOB)
        for j in await bot.store.jobs.pending(kind)
    }


async def fire(bot) -> int:
    """Fire every due job, and the jobs those set for now (the next round after a deadline);
    how many of them were the league's (turn reminders and thread archiving run too)."""
    fired = 0
    while True:
        pending = await league_jobs(bot)
        n = await bot.scheduler.run_due()
        fired += len(pending - await league_jobs(bot))
        if not n:
            return fired


async def started_league(standin, chan, users, *, name: str, **options):
    """A league created by the server's owner (``options``: /league create's), ``users`` signed up,
    and started (its first round not paired yet)."""
    owner = standin.owner
    created = await standin.slash(owner, chan, "league create", name=name, **options)
    assert name in created.message.content, created.message.content
    for user in users:
        await (await standin.slash(user, chan, "league join")).original()
    await (await standin.slash(owner, chan, "league start")).original()


async def review_cup(standin, chan, users) -> None:
    """ "Review cup", a one-round Swiss league of two-player P'achakuna whose rounds wait for the
    organiser's review, created by the server's owner, ``users`` signed up, and started."""
    await started_league(
        standin,
        chan,
        users,
        name="Review cup",
        game="pachakuna",
        format="swiss",
        players=2,
        rounds=1,
        review=True,
    )


async def one_round_league(standin, bot, chan, users, *, name: str = "Quick", days: int = 1, **options):
    """A Swiss league of one round, created by the server's owner, ``users`` signed up, started
    and its round paired; the league and its first game's session."""
    await started_league(standin, chan, users, name=name, format="swiss", rounds=1, days=days, **options)
    await fire(bot)
    league = (await bot.store.leagues.of_server(standin.guild.id))[0]
    (game,) = await bot.store.leagues.league_games(league.id, 1)
    return league, await bot.sessions.core.get(game.session_id)


async def late_in_a_round(standin, bot, chan, users):
    """A one-round league of two-player P'achakuna that drops a player at their first no-show
    (:func:`one_round_league`): the league, its game's session and the player it waits on."""
    await standin.wait_synced()
    league, session = await one_round_league(
        standin, bot, chan, users, game="pachakuna", players=2, drop_after=1
    )
    (late,) = [s.user_id for s in session.waiting_on()]
    return league, session, late


async def guacamole_with_substitute(standin, bot, chan, players, sub, days=3, **options):
    """A one-round Swiss league of three-player Guacamole (``days`` a round, and ``options`` of
    ``/league create`` such as its clock) of ``players``, with ``sub`` on its substitutes' list,
    started and its round opened: the league and its game's session."""
    owner = standin.owner
    await (await standin.slash(
        owner, chan, "league create", name="Avocado", game="guacamole", format="swiss", players=3,
        rounds=1, days=days, **options,
    )).original()  # fmt: skip
    for user in players:
        await (await standin.slash(user, chan, "league join")).original()
    await (
        await standin.slash(owner, chan, "league organiser substitute", action="add", member=sub)
    ).original()
    await (await standin.slash(owner, chan, "league start")).original()
    league = (await bot.store.leagues.of_server(standin.guild.id))[0]
    await fire(bot)
    (game,) = await bot.store.leagues.league_games(league.id, 1)
    return league, await bot.sessions.core.get(game.session_id)

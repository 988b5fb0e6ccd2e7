"""Abandoning a league game end to end: the real bot against the Discord stand-in.

A two-player league game is not its host's to end: its first seat (the host), and the other
player, are refused and told to resign instead, and the game goes on.  The league's organiser
(here a member with the organiser role, without Manage Channels) may abandon it, and then the
game counts as a forfeit by everyone in it: both players score a loss (last place, 0 points),
not the 0.5 each of a draw.
"""

from __future__ import annotations

import pytest

from tests.e2e.conftest import BASE_EXTENSIONS, damage
from tests.e2e.leagues import fire, one_round_league

EXTENSIONS = (*BASE_EXTENSIONS, "cogs.pachakuna", "cogs.league")


async def answer(result) -> str:
    return (await result.original()).content if result.deferred else result.content


async def test_only_the_organiser_abandons_a_league_game_and_everyone_loses_it(
    standin, bot_factory, table_clock
):
    chan = standin.channel("games")
    owner = standin.owner
    deputies = standin.add_role("deputies")
    deputy = standin.add_user("olga", roles=[deputies])
    ana, beto = standin.add_users("ana", "beto")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await bot.store.people.set_organiser_role(standin.guild.id, deputies.id)
        created = await standin.slash(
            owner, chan, "league create", name="Llamas", game="pachakuna", format="swiss", players=2, rounds=1
        )
        assert "Llamas" in created.message.content
        for user in (ana, beto):
            assert "signed up" in (await (await standin.slash(user, chan, "league join")).original()).content
        await answer(await standin.slash(owner, chan, "league start"))
        league = (await bot.store.leagues.of_server(standin.guild.id))[0]
        await fire(bot)
        (game,) = await bot.store.leagues.league_games(league.id, 1)
        session = await bot.sessions.core.get(game.session_id)
        thread = standin.channel(session.row.channel_id)
        host = ana if session.row.host_id == ana.id else beto
        other = beto if host is ana else ana

        for player in (host, other):
            refused = (await (await standin.slash(player, thread, "game abandon")).original()).content
            assert "this is a league game" in refused.lower()
            assert "organiser or someone with Manage Channels" in refused
            assert "/game resign" in refused or "</game resign:" in refused
        assert (await bot.sessions.core.get(session.id)).status == "active"

        done = await standin.slash(deputy, thread, "game abandon")
        assert "abandoned" in (await done.original()).content
        assert (await bot.sessions.core.get(session.id)).status == "abandoned"
        (game,) = await bot.store.leagues.league_games(league.id, 1)
        assert sorted((s.place, s.points) for s in game.seats) == [(2, 0.0), (2, 0.0)]


@pytest.mark.parametrize("discord_error_loggers", [("discord",)])  # the damage is logged, as it should
async def test_a_damaged_league_game_names_who_may_abandon_it(standin, bot_factory, table_clock):
    """A league game whose saved state cannot be read is damaged: everything a player reads about
    it (the refusal of a move, /game status, /game list, /game mine) names its league's organiser
    (or an admin) as who may abandon it, not its host, who may not; the organiser then does."""
    chan = standin.channel("games")
    owner = standin.owner
    ana, beto = standin.add_users("ana", "beto")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        league, session = await one_round_league(
            standin, bot, chan, (ana, beto), name="Llamas", days=7, game="pachakuna", players=2
        )
        thread = standin.channel(session.row.channel_id)
        host = ana if session.row.host_id == ana.id else beto
        damage(bot, session.id)

        said = {
            "resign": await answer(await standin.slash(host, thread, "game resign")),
            "status": await answer(await standin.slash(host, thread, "game status")),
            "list": await answer(await standin.slash(host, chan, "game list")),
            "mine": await answer(await standin.slash(host, chan, "game mine")),
        }
        for where, text in said.items():
            assert "damaged" in text, where
            assert "league's organiser" in text, where
            assert "host" not in text, where
        refused = await answer(await standin.slash(host, thread, "game abandon"))
        assert "this is a league game" in refused.lower()
        assert (await bot.sessions.core.get(session.id)).status == "active"
        done = await answer(await standin.slash(owner, thread, "game abandon"))
        assert "abandoned" in done
        (game,) = await bot.store.leagues.league_games(league.id, 1)
        assert sorted((s.place, s.points) for s in game.seats) == [(2, 0.0), (2, 0.0)]


@pytest.mark.parametrize("discord_error_loggers", [("discord",)])  # the damage is logged, as it should
async def test_a_damaged_league_game_is_ended_at_its_rounds_deadline_and_the_organiser_told(
    standin, bot_factory, table_clock
):
    """The round's deadline finishes every game still running; a damaged one cannot be played on
    by the computer.  It is not left running past the season's end, without a result: it ends as
    a game the table could not open (its players share its places, a draw), its thread is freed,
    and the organiser is told which table, why and how it ended."""
    chan = standin.channel("games")
    owner = standin.owner
    players = standin.add_users("ana", "beto", "cusi", "dora")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await answer(await standin.slash(
            owner, chan, "league create", name="Llamas", game="pachakuna", format="swiss", players=2,
            rounds=1, days=1,
        ))  # fmt: skip
        for user in players:
            await answer(await standin.slash(user, chan, "league join"))
        await answer(await standin.slash(owner, chan, "league start"))
        league = (await bot.store.leagues.of_server(standin.guild.id))[0]
        await fire(bot)
        broken, other = await bot.store.leagues.league_games(league.id, 1)
        damage(bot, broken.session_id)
        thread = (await bot.sessions.core.get(broken.session_id)).row.channel_id
        shown = (await (await standin.slash(owner, chan, "league round")).original()).content
        (line,) = [x for x in shown.splitlines() if x.startswith(f"Table {broken.table_no}:")]
        assert "damaged: the table cannot run it" in line and "being played" not in line
        assert "or the round's deadline ends it" in line

        table_clock.advance(86400)
        await fire(bot)
        broken, other = await bot.store.leagues.league_games(league.id, 1)
        assert broken.status == "finished" and other.status == "finished"
        assert sorted((s.place, s.points) for s in broken.seats) == [(1, 0.5), (1, 0.5)]
        assert (await bot.sessions.core.get(broken.session_id)).status == "abandoned"
        assert await bot.sessions.core.in_channel(thread) is None
        names = {u.id: u.name.title() for u in players}
        (told,) = [m for m in standin.messages(chan) if "could not be finished" in m.content]
        assert (
            f"table 1 of round 1 of 1 of **Llamas** ({', '.join(names[u] for u in broken.players)}) could not"
            " be finished at the deadline: its game is damaged (its saved state is not readable JSON"
        ) in told.content
        assert "its players sharing its places" in told.content and f"<@{owner.id}>" in told.content
        assert (await bot.store.leagues.league(league.id)).status == "finished"


async def test_a_league_game_whose_thread_was_deleted_is_finished_at_once_and_the_organiser_told(
    standin, bot_factory, table_clock
):
    """A moderator deletes a league game's thread: nobody can play it on, so the computer
    finishes it at once (its result counts, as at the round's deadline), the organiser is told
    in the league's channel, and the round's deadline later posts nothing into the deleted
    thread."""
    from tests.e2e.test_threads import moderator_deletes

    chan = standin.channel("games")
    ana, beto = standin.add_users("ana", "beto")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        league, session = await one_round_league(standin, bot, chan, (ana, beto), game="pachakuna", players=2)
        thread = standin.channel(session.row.channel_id)
        await bot.front.catchup.drain()
        posted = len(standin.messages(thread))
        await moderator_deletes(standin, thread)
        await bot.front.catchup.drain()
        ended = await bot.sessions.core.get(session.id)
        assert ended.status == "finished", ended.status
        (game,) = await bot.store.leagues.league_games(league.id, 1)
        assert game.status == "finished"
        told = [m for m in standin.messages(chan) if "was deleted" in m.content]
        assert len(told) == 1 and standin.owner.id in told[0].pinged, [m.content for m in told]
        assert "table 1" in told[0].content and "Quick" in told[0].content
        assert "computer finished it" in told[0].content
        table_clock.advance(2 * 86400)
        await fire(bot)
        await bot.front.catchup.drain()
        assert len(standin.messages(thread)) == posted  # nothing posted into the deleted thread


@pytest.mark.parametrize(
    ("stopped", "game", "no_show", "told_words"),
    [
        ("before the reminder", "pachakuna", "computer", "The computer finished it"),
        ("before the deadline", "pachakuna", "computer", "The computer finished it"),
        ("before the deadline", "guacamole", "score", "The game had ended"),
    ],
    ids=["the reminder", "the deadline's notice", "the board of a game scored at the deadline"],
)
async def test_a_league_games_thread_deleted_while_the_bot_was_stopped_is_handled_as_a_deletion(
    standin, bot_factory, table_clock, stopped, game, no_show, told_words
):
    """The bot is stopped; meanwhile a moderator deletes a league game's thread (no event reaches
    the bot).  Started again, the league's next post there (the round's reminder, or its deadline's
    no-show notice) finds the thread gone: a game still running is finished by the computer as at
    a deletion (one the deadline scored as it stood keeps that result), the organiser is told once
    in the league's channel, and nothing more is tried in the thread."""
    from tests.e2e.leagues import league_jobs

    chan = standin.channel("games")
    ana, beto = standin.add_users("ana", "beto")
    extensions = (*EXTENSIONS, "cogs.guacamole")
    async with standin.run_client(bot_factory(extensions)) as bot:
        await standin.wait_synced()
        league, session = await one_round_league(
            standin, bot, chan, (ana, beto), game=game, players=2, no_show=no_show
        )
        thread = standin.channel(session.row.channel_id)
        if stopped == "before the deadline":  # the reminder and the warning were posted
            nudge = await bot.store.jobs.job("league_nudge", f"{league.id}:1")
            table_clock.advance(nudge.due_at - table_clock.time())
            await fire(bot)
            nudge = await bot.store.jobs.job("league_nudge", f"{league.id}:1")
            table_clock.advance(nudge.due_at - table_clock.time())
            await fire(bot)
            assert await bot.store.jobs.job("league_nudge", f"{league.id}:1") is None
            # the bot runs past the round's deadline, then stops before its job fires: the round had
            # its whole time in service, so the deadline is due at the restart, not moved on
            (round_,) = await bot.store.leagues.league_rounds(league.id)
            table_clock.advance(round_.deadline_at - table_clock.time() + 60)
        await bot.front.catchup.drain()
        posted = len(standin.messages(thread))
    thread.guild.channels.remove(thread)  # deleted while the bot was not running
    table_clock.advance(2 * 86400)
    async with standin.run_client(bot_factory(extensions)) as bot:
        await standin.wait_synced()
        await fire(bot)
        await bot.front.catchup.drain()
        standin.expect_violation("unknown channel")  # the bot could not know before it tried
        assert [v.reason for v in standin.violations if not v.reported] == []  # tried there once
        assert (await bot.sessions.core.get(session.id)).status == "finished"
        (played,) = await bot.store.leagues.league_games(league.id, 1)
        assert played.status == "finished"
        told = [m for m in standin.messages(chan) if "was deleted" in m.content]
        assert len(told) == 1 and standin.owner.id in told[0].pinged, [m.content for m in told]
        assert "table 1" in told[0].content and "Quick" in told[0].content
        assert told_words in told[0].content and "its result stands" in told[0].content
        assert (await bot.store.leagues.league(league.id)).status == "finished"
        assert not await league_jobs(bot)
        assert len(standin.messages(thread)) == posted


async def test_a_league_games_clock_is_the_leagues_not_its_first_seats(standin, bot_factory):
    """The first seat of a league game (its host) may not shorten or take off the league's clock,
    nor put a turn timer on it: that would give its opponent a minute a turn.  Its organiser may."""
    chan = standin.channel("games")
    ana, beto = standin.add_users("ana", "beto")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        _, session = await one_round_league(
            standin, bot, chan, [ana, beto], game="pachakuna", players=2, clock="move:24h"
        )
        thread = standin.channel(session.row.channel_id)
        host = next(u for u in (ana, beto) if u.id == session.row.host_id)
        for user in (ana, beto):
            for command, value in (
                ("game clock", {"clock": "move:1m"}),
                ("game clock", {"clock": "off"}),
                ("game timer", {"hours": 0.02}),
            ):
                refused = await answer(await standin.slash(user, thread, command, **value))
                assert "its clock is the league's" in refused and "organiser" in refused, (
                    user is host,
                    refused,
                )
        after = await bot.sessions.core.get(session.id)
        assert after.row.clock == "move:1d" and after.row.timer_seconds == session.row.timer_seconds
        done = await answer(await standin.slash(standin.owner, thread, "game clock", clock="move:2d"))
        assert "Clock set" in done or "Done" in done, done
        assert (await bot.sessions.core.get(session.id)).row.clock == "move:2d"

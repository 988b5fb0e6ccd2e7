"""A round's opening that a stop cut short, on either back end: the opening held the round's guard,
renewing the hold table by table, so the guard fires two minutes (and the scheduler's poll) after
the stop, opens the games left in the threads the stopped opening made, and tells again what
followed them within Discord's few minutes, where the nonces they carry make them one message
each (who sat the round out, the organiser's letter about a fixed table not kept)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bot.storage.leagues import ROUND_JOB
from tests.e2e.conftest import BASE_EXTENSIONS
from tests.e2e.leagues import fire, started_league
from tests.e2e.test_league_fixed_tables import answer, away_from_a_fixed_table
from tests.e2e.test_notices import is_board
from tests.e2e.test_restarts import cut, due_after, on_either_back_end, started, stops_at
from tests.e2e.test_told_once import stops_once_taken

EXTENSIONS = (*BASE_EXTENSIONS, "cogs.pachakuna", "cogs.league", "cogs.me")
HELD = 120.0
"""Two minutes: how long after its last renewal a stopped opening's hold on the guard lasts."""
OPENING = "your P'achakuna game for **Cup**"
FIXED = "the table you fixed for round 1 of 2 of **Cup**"
SAT_OUT = "Paused or away: "


@pytest.fixture(params=["sqlite", "postgres"])
async def make_bot(request, bot_factory):
    """A maker of the league's bot on one database, an SQLite file or a PostgreSQL database."""
    async for make in on_either_back_end(request, bot_factory, EXTENSIONS):
        yield make


def stops_at_the_second(bot, leagues, name: str) -> None:
    """The process stops as ``leagues.name`` is called the second time (:func:`stops_at`)."""
    stop, real, calls = SimpleNamespace(), getattr(leagues, name), []
    stops_at(bot, stop, name)

    async def second(*args, **kwargs):
        calls.append(args)
        return await (getattr(stop, name) if len(calls) == 2 else real)(*args, **kwargs)

    setattr(leagues, name, second)


async def cup_of_four(standin, chan, people) -> None:
    """The bot ready, and the one-round league "Cup" of P'achakuna started in ``chan`` with the
    four ``people``: two tables, due to open."""
    await standin.wait_synced()
    await started_league(
        standin, chan, people, name="Cup", game="pachakuna", format="swiss", players=2, rounds=1, days=1
    )


def opened_once(standin, chan, threads) -> None:
    """Each table's thread has one greeting and one first board, and the channel one post of the
    round, naming every thread."""
    for thread in threads.values():
        said = standin.messages(thread)
        assert len([m for m in said if OPENING in m.content]) == 1, [m.content for m in said]
        assert len([m for m in said if is_board(m)]) == 1
    (listed,) = [m for m in standin.messages(chan) if "round 1 of 1 is open" in m.content]
    assert all(f"<#{t.id}>" in listed.content for t in threads.values())


async def back_after_the_hold(standin, make, table_clock):
    """The bot started again, and two minutes and the scheduler's poll gone by: the round's games,
    the thread (or channel) of each (None: not opened), and the round's job left (None: spent)."""
    async with standin.run_client(make) as bot:
        await started(standin, bot)
        await due_after(standin, bot, table_clock, HELD + bot.scheduler.poll)
        (league,) = await bot.store.leagues.of_server(standin.guild.id)
        games = await bot.store.leagues.league_games(league.id, 1)
        sessions = [await bot.sessions.core.get(g.session_id) if g.session_id else None for g in games]
        places = [None if s is None else s.row.channel_id for s in sessions]
        return games, places, await bot.store.jobs.job(ROUND_JOB, str(league.id))


async def test_a_round_cut_between_a_thread_and_its_game_opens_it_there_two_minutes_on(
    standin, make_bot, table_clock
):
    """Four players, two tables: table 1 is opened, table 2's thread made, and the process stops
    as its game was to be opened there.  Started again, two minutes and a poll on, the round's
    guard opens table 2's game in that thread; each table has one thread, its players called in it
    once, and the channel hears of the round once, with both tables."""
    chan, people = standin.channel("games"), standin.add_users("ana", "beto", "cusi", "dora")
    async with standin.run_client(make_bot) as bot:
        await cup_of_four(standin, chan, people)
        stops_at_the_second(bot, bot.league_rounds.leagues, "open_game")
        await cut(bot, fire(bot))
    threads = {t.name: t for t in standin.guild.threads if t.parent_id == chan.id}
    assert sorted(threads) == ["Cup · round 1 · table 1", "Cup · round 1 · table 2"]
    assert not standin.messages(threads["Cup · round 1 · table 2"])
    games, places, guard = await back_after_the_hold(standin, make_bot, table_clock)
    assert [g.status for g in games] == ["playing", "playing"]
    assert {t.name: t for t in standin.guild.threads if t.parent_id == chan.id} == threads
    assert places == [threads[f"Cup · round 1 · table {n}"].id for n in (1, 2)]
    opened_once(standin, chan, threads)
    assert guard is None  # the guard is spent


async def test_who_sat_out_and_the_organisers_letter_told_just_before_a_stop_are_received_once(
    standin, make_bot, table_clock
):
    """The organiser fixed a table with Beto, who is away over round 1's start: the round opens its
    two tables without him, the organiser's letter that the fixed table could not be kept and the
    post saying who sat the round out reach Discord, and the process stops before it records the
    round done.  Started again, the guard (two minutes and a poll on) tells both again: within
    Discord's minutes, so the channel has each once, the messages sent before the stop."""
    chan, owner = standin.channel("games"), standin.owner
    names = ("ana", "beto", "cusi", "dora", "eloy")
    users = dict(zip(names, standin.add_users(*names), strict=True))
    async with standin.run_client(make_bot) as bot:
        await standin.wait_synced()
        await answer(
            standin, owner, chan, "league create", name="Cup", game="pachakuna", format="swiss",
            players=2, rounds=2,
        )  # fmt: skip
        await away_from_a_fixed_table(standin, chan, users, "Cup")
        taken = stops_once_taken(standin, bot, lambda m: SAT_OUT in m.content)
        await cut(bot, fire(bot))
    (sat_out,) = taken
    (letter,) = [m for m in standin.messages(chan) if FIXED in m.content]
    games, _, guard = await back_after_the_hold(standin, make_bot, table_clock)
    assert [g.status for g in games] == ["playing", "playing"]
    assert [m.id for m in standin.messages(chan) if SAT_OUT in m.content] == [sat_out.id]
    assert [m.id for m in standin.messages(chan) if FIXED in m.content] == [letter.id]
    assert len([m for m in standin.messages(chan) if "round 1 of 2 is open" in m.content]) == 1
    assert guard is None  # told: the guard is spent


@pytest.mark.parametrize("table", [1, 2])
async def test_a_table_whose_game_started_just_before_a_stop_is_greeted_after_it(
    standin, make_bot, table_clock, table
):
    """Four players, two tables: the process stops as a table's game has started and its players
    were to be greeted (the first table's, or the last's, after which the round's post was to
    come).  Started again, two minutes and a poll on, the round's guard greets that table (the line
    naming the league, the round and its deadline in its thread), opens what is left, and posts the
    round once, with both tables; each thread has one greeting and one first board."""
    chan, people = standin.channel("games"), standin.add_users("ana", "beto", "cusi", "dora")
    async with standin.run_client(make_bot) as bot:
        await cup_of_four(standin, chan, people)
        if table == 1:
            stops_at(bot, bot.league_rounds, "greet")
        else:
            stops_at_the_second(bot, bot.league_rounds, "greet")
        await cut(bot, fire(bot))
    games, places, guard = await back_after_the_hold(standin, make_bot, table_clock)
    assert [g.status for g in games] == ["playing", "playing"]
    threads = {t.name: t for t in standin.guild.threads if t.parent_id == chan.id}
    assert places == [threads[f"Cup · round 1 · table {n}"].id for n in (1, 2)]
    opened_once(standin, chan, threads)
    assert guard is None  # the guard is spent


async def test_the_rounds_post_told_just_before_a_stop_is_received_once(standin, make_bot, table_clock):
    """Four players, two tables: both are opened and greeted, and the post saying the round is
    open reaches Discord; the process stops before it records the round open.  Started again, the
    guard (two minutes and a poll on) does what follows the opening again, the post among it: with
    the same nonce, within Discord's minutes, so the channel has it once, the message sent before
    the stop, and each thread its one greeting."""
    chan, people = standin.channel("games"), standin.add_users("ana", "beto", "cusi", "dora")
    async with standin.run_client(make_bot) as bot:
        await cup_of_four(standin, chan, people)
        taken = stops_once_taken(standin, bot, lambda m: "round 1 of 1 is open" in m.content)
        await cut(bot, fire(bot))
    (posted,) = taken
    games, _, guard = await back_after_the_hold(standin, make_bot, table_clock)
    assert [g.status for g in games] == ["playing", "playing"]
    assert [m.id for m in standin.messages(chan) if "round 1 of 1 is open" in m.content] == [posted.id]
    for thread in (t for t in standin.guild.threads if t.parent_id == chan.id):
        assert len([m for m in standin.messages(thread) if OPENING in m.content]) == 1
    assert guard is None  # told: the guard is spent


async def test_a_round_opened_whole_before_a_stop_has_one_event_and_one_post(standin, make_bot, table_clock):
    """Four players, two tables: the round's opening is done, its post made and its event on the
    server's calendar, and the process stops as it records the round open.  Started again, the
    guard does what follows the opening again: the event is not made twice, the post is one
    message, and each thread has its one greeting."""
    chan, people = standin.channel("games"), standin.add_users("ana", "beto", "cusi", "dora")
    async with standin.run_client(make_bot) as bot:
        await cup_of_four(standin, chan, people)
        stops_at(bot, bot.store.leagues, "settle_round")
        await cut(bot, fire(bot))
    (event,) = standin.events()
    (posted,) = [m for m in standin.messages(chan) if "round 1 of 1 is open" in m.content]
    games, _, guard = await back_after_the_hold(standin, make_bot, table_clock)
    assert [g.status for g in games] == ["playing", "playing"]
    assert standin.events() == [event]
    assert [m.id for m in standin.messages(chan) if "round 1 of 1 is open" in m.content] == [posted.id]
    for thread in (t for t in standin.guild.threads if t.parent_id == chan.id):
        assert len([m for m in standin.messages(thread) if OPENING in m.content]) == 1
    assert guard is None  # the guard is spent

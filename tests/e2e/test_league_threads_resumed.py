"""A round's opening that a stop cut short after Discord made a table's thread (or forum post) and
before its game was recorded there: the round's guard, two minutes on, opens the game in that thread
rather than making a second one of the same name, and takes no thread of that name a person made."""

from __future__ import annotations

from bot.league.service import RESUME_AFTER
from tests.e2e.leagues import EXTENSIONS, fire, started_league
from tests.e2e.test_notices import is_board
from tests.e2e.test_restarts import cut, due_after, started, stops_at

TABLE = "Cup · round 1 · table 1"
OPENING = "your P'achakuna game for **Cup**"


async def stopped_after_the_thread(standin, bot, chan, people, forum=None) -> None:
    """A one-round league of two (its tables posted in ``forum`` when given) opens its round: the
    table's thread is made, and the process stops as its game was to be opened there, so nothing
    records the game."""
    await standin.wait_synced()
    await started_league(
        standin, chan, people, name="Cup", game="pachakuna", format="swiss", players=2, rounds=1, days=1
    )
    if forum is not None:  # (its tables go there from the round not opened yet)
        set_to = await standin.slash(standin.owner, chan, "league organiser forum", forum=forum)
        assert "I am missing" not in (await set_to.original()).content
    stops_at(bot, bot.league_rounds.leagues, "open_game")
    await cut(bot, fire(bot))


def named(standin, parent) -> list:
    """The threads (posts) in ``parent`` named as the table."""
    return [t for t in standin.guild.threads if t.parent_id == parent.id and t.name == TABLE]


async def resumed(standin, make, table_clock, cached: bool = True):
    """The bot started again (``cached``: with the league's server in its gateway's cache), and the
    round's guard fired: the table's game."""
    async with standin.run_client(make) as bot:
        await started(standin, bot)
        assert (bot.get_channel(standin.channel("games").id) is not None) == cached
        if cached:
            await due_after(standin, bot, table_clock, RESUME_AFTER)
        else:  # (no gateway event of the server comes to this process: nothing to wait for)
            table_clock.advance(RESUME_AFTER)
            await bot.scheduler.run_due()
        league = (await bot.store.leagues.of_server(standin.guild.id))[0]
        (game,) = await bot.store.leagues.league_games(league.id, 1)
        assert game.session_id is not None, "the resumed opening opened no game"
        return await bot.sessions.core.get(game.session_id)


def played_in(standin, thread) -> None:
    """The table's opening line and first board are in ``thread``, once."""
    said = standin.messages(thread)
    assert len([m for m in said if OPENING in m.content]) == 1, [m.content for m in said]
    assert len([m for m in said if is_board(m)]) == 1


async def test_a_thread_made_just_before_a_stop_is_where_the_resumed_opening_plays(
    standin, bot_factory, table_clock
):
    """The stop came after Discord made the table's thread: started again, the round's guard opens
    the game in that thread (found among the active threads the gateway lists at the start), and
    the channel has no second thread of the table's name."""
    chan, people = standin.channel("games"), standin.add_users("ana", "beto")
    make = bot_factory(EXTENSIONS)
    async with standin.run_client(make) as bot:
        await stopped_after_the_thread(standin, bot, chan, people)
    (thread,) = named(standin, chan)
    assert not standin.messages(thread)
    session = await resumed(standin, make, table_clock)
    assert named(standin, chan) == [thread]
    assert session.row.channel_id == thread.id and session.status == "active"
    played_in(standin, thread)
    (listed,) = [m for m in standin.messages(chan) if "round 1 of 1 is open" in m.content]
    assert f"<#{thread.id}>" in listed.content


async def test_a_forum_post_made_just_before_a_stop_is_where_the_resumed_opening_plays(
    standin, bot_factory, table_clock
):
    """The league posts its tables in a forum, and the stop came after Discord made the table's
    post: started again, the round's guard opens the game in that post, whose first message (the
    table's text) is not posted again, and the forum has no second post of the table's name."""
    standin.wall = table_clock.time  # Discord's time is the bot's (the round's event)
    chan, people = standin.channel("games"), standin.add_users("ana", "beto")
    forum = standin.add_forum("league-tables", ["waiting", "playing", "done"])
    make = bot_factory(EXTENSIONS)
    async with standin.run_client(make) as bot:
        await stopped_after_the_thread(standin, bot, chan, people, forum)
    (post,) = named(standin, forum)
    (first,) = standin.messages(post)
    assert first.content.startswith(f"**{TABLE}**")
    session = await resumed(standin, make, table_clock)
    assert named(standin, forum) == [post] and not named(standin, chan)
    assert session.row.channel_id == post.id and session.status == "active"
    assert [m for m in standin.messages(post) if m.content.startswith(f"**{TABLE}**")] == [first]
    played_in(standin, post)
    assert standin.tag_names(post) == ["waiting"]


async def test_a_thread_of_the_table_s_name_a_person_made_is_not_taken(standin, bot_factory, table_clock):
    """The stop came after Discord made the table's thread, and while the bot was stopped a player
    started a thread of the very same name in the league's channel (the newer of the two): started
    again, the round's guard plays in the bot's own thread, and the person's is left as it was."""
    chan, people = standin.channel("games"), standin.add_users("ana", "beto")
    make = bot_factory(EXTENSIONS)
    async with standin.run_client(make) as bot:
        await stopped_after_the_thread(standin, bot, chan, people)
    (mine,) = named(standin, chan)
    theirs = standin.start_thread(people[0], chan, TABLE)
    session = await resumed(standin, make, table_clock)
    assert named(standin, chan) == [mine, theirs]
    assert session.row.channel_id == mine.id
    played_in(standin, mine)
    assert not standin.messages(theirs)


async def test_a_process_serving_another_shard_finds_the_thread_in_discords_list(
    standin, bot_factory, table_clock
):
    """The round's guard fires in a process serving the other shard of two (any process claims a
    job), whose gateway lists nothing of the league's server: the thread is found in Discord's list
    of the server's active threads, and the game opens there."""
    chan, people = standin.channel("games"), standin.add_users("ana", "beto")
    make = bot_factory(EXTENSIONS)
    async with standin.run_client(make) as bot:
        await stopped_after_the_thread(standin, bot, chan, people)
    (thread,) = named(standin, chan)
    other = 1 - standin.shard_of(standin.guild, 2)
    elsewhere = bot_factory(EXTENSIONS, shard_count=2, shard_ids=(other,))
    session = await resumed(standin, elsewhere, table_clock, cached=False)
    assert named(standin, chan) == [thread]
    assert session.row.channel_id == thread.id
    played_in(standin, thread)

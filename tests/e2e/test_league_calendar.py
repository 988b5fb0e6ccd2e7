"""Leagues on Discord's calendar, end to end: each round is a scheduled event of the server
listing its tables, completed with the results when the round ends; a league set to a forum posts
one post per table, tagged waiting, then playing, then done; a permission the bot lacks is told to
the organiser once, and the season goes on."""

from __future__ import annotations

import asyncio

from tests.e2e.leagues import EXTENSIONS, fire
from tests.e2e.players import Driver, settled
from tests.e2e.test_restarts import due_after, started
from tests.e2e.test_threads import moderator_deletes
from tests.e2e.test_told_once_season import cut_at_the_organisers_letter
from tests.standin.model import ACTIVE, COMPLETED, CREATE_EVENTS, MANAGE_CHANNELS, SEND_MESSAGES

DAY = 86400


async def start_league(standin, owner, chan, people, *, rounds: int) -> None:
    created = await standin.slash(
        owner,
        chan,
        "league create",
        name="Calendar cup",
        game="guacamole",
        format="swiss",
        players=3,
        rounds=rounds,
        days=1,
    )
    assert "Calendar cup" in created.message.content
    for user in people:
        r = await standin.slash(user, chan, "league join")
        assert "signed up" in (await r.original()).content


async def test_rounds_are_server_events_and_tables_are_forum_posts_tagged_as_they_go(
    standin, bot_factory, table_clock
):
    standin.wall = table_clock.time  # Discord's time is the bot's
    chan = standin.channel("games")
    owner = standin.owner
    forum = standin.add_forum("league-tables", ["waiting", "playing", "done"])
    people = standin.add_users("ana", "beto", "cusi", "dora", "eloy", "fatima")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await start_league(standin, owner, chan, people, rounds=2)
        set_to = await standin.slash(owner, chan, "league organiser forum", forum=forum)
        answer = (await set_to.original()).content
        assert "is a post in" in answer and "I am missing" not in answer, answer
        refused = await standin.slash(people[0], chan, "league organiser forum", forum=forum)
        assert "Manage Server" in (await refused.original()).content
        started = await standin.slash(owner, chan, "league start")
        assert "has started" in (await started.original()).content
        opened_at = table_clock.time()
        await fire(bot)

        # Round 1: one event, its tables in the description; one post per table, waiting.
        (event,) = standin.events()
        assert event.name == "Calendar cup: round 1 of 2" and event.entity_type == 3
        assert event.start == opened_at + 60 and event.end == opened_at + DAY + 3600
        assert event.location == f"https://discord.com/channels/{standin.guild.id}/{forum.id}"
        tables = event.description.splitlines()
        assert [line.split(":")[0] for line in tables] == ["Table 1", "Table 2"]
        named = {u.name.title() for u in people}
        assert {n.strip() for line in tables for n in line.split(":")[1].split(",")} == named
        posts = [t for t in standin.guild.threads if t.parent_id == forum.id]
        assert len(posts) == 2 and all(standin.tag_names(p) == ["waiting"] for p in posts)
        assert not [t for t in standin.guild.threads if t.parent_id == chan.id]  # no threads in the channel
        first = posts[0]
        assert standin.messages(first)[0].content.startswith("**Calendar cup · round 1 · table 1**")
        session = await bot.sessions.core.in_channel(first.id)
        assert session is not None and session.status == "active"

        # The people of table 1 play their game: the tag goes to playing, then done.
        users = {u.id: u for u in people}
        driver = Driver(standin, bot, first, {users[s.user_id]: "menu" for s in session.seats})
        playing = asyncio.ensure_future(
            standin.wait_for(
                lambda: standin.tag_names(first) == ["playing"], what="the playing tag", timeout=60
            )
        )
        await driver.play()
        await playing
        assert standin.tag_names(first) == ["done"] and standin.tag_names(posts[1]) != ["done"]

        # The organiser goes back to threads for the coming rounds: this round's posts keep their tags.
        back = await standin.slash(owner, chan, "league organiser forum")
        assert "played in threads of" in (await back.original()).content
        # The deadline: the computer finishes table 2 (done), the event is completed with the results.
        table_clock.advance(DAY)
        await fire(bot)
        assert standin.tag_names(posts[1]) == ["done"]
        one, two = standin.events()
        assert one.status == COMPLETED and one.description.startswith("Results of round 1 of 2:")
        assert [line.split(":")[0] for line in one.description.splitlines()[1:]] == ["Table 1", "Table 2"]
        assert "1. " in one.description and "2. " in one.description and "3. " in one.description
        assert two.name == "Calendar cup: round 2 of 2" and two.status in (1, ACTIVE)
        assert len([t for t in standin.guild.threads if t.parent_id == forum.id]) == 2
        assert len([t for t in standin.guild.threads if t.parent_id == chan.id]) == 2  # round 2 in threads


async def test_a_missing_permission_is_told_once_and_the_season_goes_on(standin, bot_factory, table_clock):
    standin.wall = table_clock.time
    chan = standin.channel("games")
    owner = standin.owner
    forum = standin.add_forum("league-tables", ["waiting", "playing", "done"])
    standin.set_permissions(forum, standin.bot_role, deny=SEND_MESSAGES)
    standin.set_role_permissions(standin.bot_role, standin.bot_role.permissions & ~CREATE_EVENTS)
    people = standin.add_users("ana", "beto", "cusi")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await start_league(standin, owner, chan, people, rounds=2)
        set_to = await standin.slash(owner, chan, "league organiser forum", forum=forum)
        assert "I am missing Send Messages there" in (await set_to.original()).content
        started = await standin.slash(owner, chan, "league start")
        assert "has started" in (await started.original()).content
        for number in (1, 2):
            await fire(bot)
            opened = [m for m in standin.messages(chan) if f"round {number} of 2 is open" in m.content]
            assert len(opened) == 1  # the round opened all the same, its game in a thread of the channel
            assert len([t for t in standin.guild.threads if t.parent_id == chan.id]) == number
            table_clock.advance(DAY)
            await fire(bot)
        told = [m for m in standin.messages(chan) if "calendar" in m.content]
        assert len(told) == 1 and "Create Events" in told[0].content and owner.id in told[0].pinged
        forum_told = [m for m in standin.messages(chan) if "cannot post the tables" in m.content]
        assert len(forum_told) == 1 and "Send Messages" in forum_told[0].content
        assert standin.events() == [] and not [t for t in standin.guild.threads if t.parent_id == forum.id]
        assert any("is over" in m.content for m in standin.messages(chan))


async def test_the_forums_tags_are_added_when_the_bot_may(standin, bot_factory, table_clock):
    chan = standin.channel("games")
    owner = standin.owner
    forum = standin.add_forum("league-tables", ["chat"])
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await start_league(standin, owner, chan, standin.add_users("ana", "beto", "cusi"), rounds=1)
        set_to = await standin.slash(owner, chan, "league organiser forum", forum=forum)
        answer = (await set_to.original()).content
        assert "no tags waiting, playing and done and I may not add them (Manage Channels)" in answer
        assert [t["name"] for t in forum.available_tags] == ["chat"]
        standin.set_role_permissions(standin.bot_role, standin.bot_role.permissions | MANAGE_CHANNELS)
        await settled(standin)
        again = await standin.slash(owner, chan, "league organiser forum", forum=forum)
        assert "I may not" not in (await again.original()).content
        assert [t["name"] for t in forum.available_tags] == ["chat", "waiting", "playing", "done"]
        back = await standin.slash(owner, chan, "league organiser forum")
        assert "played in threads of" in (await back.original()).content
        started = await standin.slash(owner, chan, "league start")
        assert "has started" in (await started.original()).content
        await fire(bot)
        assert len([t for t in standin.guild.threads if t.parent_id == chan.id]) == 1  # threads again
        assert not [t for t in standin.guild.threads if t.parent_id == forum.id]


async def test_in_a_spanish_server_the_tags_and_the_event_speak_spanish(standin, bot_factory, table_clock):
    standin.wall = table_clock.time
    standin.guild.locale = "es-ES"  # the server's own language
    standin.set_role_permissions(standin.bot_role, standin.bot_role.permissions | MANAGE_CHANNELS)
    chan = standin.channel("games")
    owner = standin.owner
    forum = standin.add_forum("mesas")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await start_league(standin, owner, chan, standin.add_users("ana", "beto", "cusi"), rounds=1)
        set_to = await standin.slash(owner, chan, "league organiser forum", forum=forum)
        assert "I may not" not in (await set_to.original()).content  # the asker reads their own language
        assert [t["name"] for t in forum.available_tags] == ["esperando", "jugando", "terminada"]
        started = await standin.slash(owner, chan, "league start")
        await started.original()
        await fire(bot)
        (post,) = [t for t in standin.guild.threads if t.parent_id == forum.id]
        assert standin.tag_names(post) == ["esperando"]
        (event,) = standin.events()
        assert event.description.startswith("Mesa 1: ") and "ronda 1" in event.name


async def test_an_abandoned_table_is_tagged_done(standin, bot_factory, table_clock):
    """A league game abandoned in its forum post is over: its post is tagged done, as a played
    one is, not left waiting."""
    standin.wall = table_clock.time
    chan = standin.channel("games")
    owner = standin.owner
    forum = standin.add_forum("league-tables", ["waiting", "playing", "done"])
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await start_league(standin, owner, chan, standin.add_users("ana", "beto", "cusi"), rounds=1)
        await (await standin.slash(owner, chan, "league organiser forum", forum=forum)).original()
        started = await standin.slash(owner, chan, "league start")
        assert "has started" in (await started.original()).content
        await fire(bot)
        (post,) = [t for t in standin.guild.threads if t.parent_id == forum.id]
        assert standin.tag_names(post) == ["waiting"]
        session = await bot.sessions.core.in_channel(post.id)
        assert session is not None
        abandoned = await standin.slash(owner, post, "game abandon")
        assert "abandoned" in (await abandoned.original()).content
        after = await bot.sessions.core.get(session.id)
        assert after is not None and after.status == "abandoned"
        assert standin.tag_names(post) == ["done"]


async def test_in_a_spanish_server_the_organiser_is_told_the_missing_permissions_by_their_spanish_names(
    standin, bot_factory, table_clock
):
    """The permissions are named as the organiser's Discord client names them: in a Spanish
    server, "Crear eventos" and "Enviar mensajes", not their English names."""
    standin.wall = table_clock.time
    standin.guild.locale = "es-ES"
    chan = standin.channel("games")
    owner = standin.owner
    forum = standin.add_forum("mesas", ["esperando", "jugando", "terminada"])
    standin.set_permissions(forum, standin.bot_role, deny=SEND_MESSAGES)
    standin.set_role_permissions(standin.bot_role, standin.bot_role.permissions & ~CREATE_EVENTS)
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await start_league(standin, owner, chan, standin.add_users("ana", "beto", "cusi"), rounds=1)
        await (await standin.slash(owner, chan, "league organiser forum", forum=forum)).original()
        await (await standin.slash(owner, chan, "league start")).original()
        await fire(bot)
        (told,) = [m for m in standin.messages(chan) if "calendario del servidor" in m.content]
        assert "me falta el permiso Crear eventos (Ajustes del servidor" in told.content, told.content
        (forum_told,) = [m for m in standin.messages(chan) if "no puedo publicar las mesas" in m.content]
        assert "Enviar mensajes" in forum_told.content and "Send Messages" not in forum_told.content


async def test_a_deleted_tables_post_is_not_tagged_again(standin, bot_factory, table_clock, caplog):
    """A moderator deletes a table's forum post: the computer finishes its game and the
    organiser is told, and the bot does not try to tag the post it knows is gone (Discord would
    answer that the channel is unknown)."""
    standin.wall = table_clock.time
    chan = standin.channel("games")
    owner = standin.owner
    forum = standin.add_forum("league-tables", ["waiting", "playing", "done"])
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await start_league(standin, owner, chan, standin.add_users("ana", "beto", "cusi"), rounds=1)
        await (await standin.slash(owner, chan, "league organiser forum", forum=forum)).original()
        await (await standin.slash(owner, chan, "league start")).original()
        await fire(bot)
        (post,) = [t for t in standin.guild.threads if t.parent_id == forum.id]
        session = await bot.sessions.core.in_channel(post.id)
        await moderator_deletes(standin, post)
        assert (await bot.sessions.core.get(session.id)).status == "finished"
        assert [m for m in standin.messages(chan) if "was deleted" in m.content]
        await settled(standin)
    assert standin.violations == []
    assert not [r for r in caplog.records if "not tagged" in r.getMessage()]


async def test_a_tables_post_found_deleted_is_not_tagged_again(standin, bot_factory, table_clock, caplog):
    """A table's forum post deleted while the bot was away is found gone when the round's deadline
    posts its board there: the organiser is told, and the bot does not try to tag the post."""
    standin.wall = table_clock.time
    chan = standin.channel("games")
    owner = standin.owner
    forum = standin.add_forum("league-tables", ["waiting", "playing", "done"])
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await start_league(standin, owner, chan, standin.add_users("ana", "beto", "cusi"), rounds=1)
        await (await standin.slash(owner, chan, "league organiser forum", forum=forum)).original()
        await (await standin.slash(owner, chan, "league start")).original()
        await fire(bot)
        (post,) = [t for t in standin.guild.threads if t.parent_id == forum.id]
        standin.guild.channels.remove(post)  # no event: the bot was not running
        table_clock.advance(DAY)
        await fire(bot)
        await bot.front.catchup.drain()
        standin.expect_violation("POST .*unknown channel")  # the bot could not know before it tried
        assert [v.reason for v in standin.violations if not v.reported] == []  # tried there once
        assert [m for m in standin.messages(chan) if "was deleted" in m.content]
    assert not [r for r in caplog.records if "not tagged" in r.getMessage()]


async def test_a_missing_permission_untold_at_a_stop_is_told_once_after_the_restart(
    standin, bot_factory, table_clock
):
    """The round's first table cannot be posted in the forum, and the bot stops as it tells the
    organiser.  Started again, the round's opening, resumed by its guard, tells them once, and the
    round opens in the channel's threads.  (Noted before the letter, a stop left it never told.)"""
    standin.wall = table_clock.time
    chan, owner = standin.channel("games"), standin.owner
    forum = standin.add_forum("league-tables", ["waiting", "playing", "done"])
    standin.set_permissions(forum, standin.bot_role, deny=SEND_MESSAGES)
    people = standin.add_users("ana", "beto", "cusi")
    make = bot_factory(EXTENSIONS)
    async with standin.run_client(make) as bot:
        await standin.wait_synced()
        await start_league(standin, owner, chan, people, rounds=1)
        await (await standin.slash(owner, chan, "league organiser forum", forum=forum)).original()
        assert "has started" in (await (await standin.slash(owner, chan, "league start")).original()).content
        await cut_at_the_organisers_letter(bot, fire(bot))
    assert [m for m in standin.messages(chan) if "cannot post the tables" in m.content] == []
    async with standin.run_client(make) as bot:
        await started(standin, bot)
        for _ in range(2):
            await due_after(standin, bot, table_clock, 120)  # the stopped opening's guard, then nothing
        told = [m for m in standin.messages(chan) if "cannot post the tables" in m.content]
        assert len(told) == 1 and "Send Messages" in told[0].content
        assert [m for m in standin.messages(chan) if "round 1 of 1 is open" in m.content]

"""A game per thread: opened from a text channel, played in its thread, archived after its end."""

from __future__ import annotations

import asyncio

import pytest

from tests.e2e.conftest import BASE_EXTENSIONS, nim_played_out, pick_from_menu
from tests.e2e.players import handled, settled
from tests.standin.model import CREATE_PUBLIC_THREADS, SEND_MESSAGES_IN_THREADS
from tests.support import nim


def is_board(message) -> bool:
    return bool(message.files) and not message.ephemeral


async def open_in_thread(standin, chan, host, **options):
    """``/nim new`` in a text channel: the lobby message there, the game's thread started from it."""
    r = await standin.slash(host, chan, "nim new", **options)
    assert r.type == 4 and not r.ephemeral
    lobby = await r.original(lambda m: "pk:lobby:join:" in " ".join(m.custom_ids))
    thread = standin.channel(lobby.id)  # a thread started from a message has the message's id
    # the lobby's last step: the thread's welcome, posted once the lobby shows its buttons
    await standin.wait_for(lambda: standin.messages(thread), what="the welcome in the game's thread")
    return lobby, thread


async def bank_game(standin, bot, chan, host, other):
    """A two-player Nim game on a bank of a day, opened in its thread and started, its first
    board posted and its notices sent: the lobby message, the thread and the session."""
    lobby, thread = await open_in_thread(standin, chan, host, piles=5, clock="bank:1d")
    await standin.click(other, lobby, "Join")
    await standin.click(host, lobby, "Start")
    await standin.next_message(thread, is_board)
    await bot.front.catchup.drain()
    return lobby, thread, await bot.sessions.core.in_channel(thread.id)


async def play_to_the_end(standin, bot, thread, users):
    """Each player in turn takes the most stones they can, by ``/nim move`` in the thread."""
    for _ in range(40):
        session = await bot.sessions.core.in_channel(thread.id)
        if session is None or session.status != "active":
            return
        (seat,) = session.to_move()
        user = next(u for u in users if u.id == session.by_seat(seat).user_id)
        move = max(nim.legal_moves(session.state, seat), key=lambda m: m.count)
        r = await standin.slash(user, thread, "nim move", move=str(move))
        assert not (await r.original()).content.startswith("⚠️")
    raise AssertionError("the game did not end")


async def test_a_game_opened_in_a_channel_lives_in_its_thread_and_is_archived_after_its_end(
    standin, bot_factory, table_clock
):
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory()) as bot:
        await standin.wait_synced()
        lobby, thread = await open_in_thread(standin, chan, alice, piles=2)
        session = await bot.sessions.core.in_channel(thread.id)
        assert thread.is_thread and thread.type == 11 and thread.parent_id == chan.id
        assert thread.name == f"Nim #{session.id} · Alice"
        assert session.row.lobby_channel_id == chan.id and session.row.lobby_message_id == lobby.id
        assert thread.mention in lobby.content and lobby.channel is chan
        welcome = await standin.next_message(thread)
        assert "/game join" in welcome.content and chan.mention in welcome.content
        assert await bot.sessions.core.in_channel(chan.id) is None  # the channel stays free for more games

        # Join with the lobby's button in the channel; start with /game start inside the thread.
        joined = await standin.click(bob, lobby, "Join")
        assert joined.type == 7 and "bob" in joined.content.lower()
        started = await standin.slash(alice, thread, "game start")
        await started.original()
        board = await standin.next_message(thread, is_board)
        assert board.channel is thread and not [m for m in standin.messages(chan) if m.files]
        assert "being played in" in standin.message(lobby.id).content

        await play_to_the_end(standin, bot, thread, (alice, bob))
        session = await bot.sessions.core.get(session.id)
        assert session.status == "finished"
        winner = session.by_seat(session.engine.outcome(session.state).ranking[0][0]).name
        await standin.wait_for(lambda: "Result:" in standin.message(lobby.id).content, what="the result")
        assert f"Result: {winner} wins" in standin.message(lobby.id).content
        await bot.front.catchup.drain()  # the move's answer, and the archive job armed after the board
        job = await bot.store.jobs.job("archive", str(session.id))
        assert job is not None and job.due_at == table_clock.time() + 3600

        # Not yet: an hour has not passed.  Then the scheduler archives the thread.
        table_clock.advance(3599)
        assert await bot.scheduler.run_due() == 0 and not thread.archived
        table_clock.advance(1)
        assert await bot.scheduler.run_due() == 1
        assert thread.archived and not thread.locked
        assert await bot.store.jobs.job("archive", str(session.id)) is None


async def test_one_channel_holds_several_games_and_the_archive_survives_a_restart(
    standin, bot_factory, table_clock
):
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory()) as bot:
        await standin.wait_synced()
        first, one = await open_in_thread(standin, chan, alice)
        second, two = await open_in_thread(standin, chan, bob)
        assert one is not two and {one.parent_id, two.parent_id} == {chan.id}
        s1, s2 = await bot.sessions.core.in_channel(one.id), await bot.sessions.core.in_channel(two.id)
        assert s1.id != s2.id and s1.row.host_id == alice.id and s2.row.host_id == bob.id
        await standin.click(bob, first, "Join")
        r = await standin.click(alice, first, "Start")  # the Start button in the channel
        assert r.type == 7
        await standin.next_message(one, is_board)
        await play_to_the_end(standin, bot, one, (alice, bob))
        await bot.front.catchup.drain()
        assert await bot.store.jobs.job("archive", str(s1.id)) is not None
    table_clock.advance(7200)
    async with standin.run_client(bot_factory()) as bot:
        assert await bot.scheduler.run_due() == 1
        assert one.archived and not two.archived
        assert (await bot.sessions.core.in_channel(two.id)).status == "lobby"
        # An abandoned game's thread is archived too, and its lobby message says it is closed.
        r = await standin.slash(bob, two, "game abandon")
        await r.original()
        assert (
            "closed" in standin.message(second.id).content
            and two.mention in standin.message(second.id).content
        )
        table_clock.advance(3600)
        assert await bot.scheduler.run_due() == 1 and two.archived


async def test_without_thread_permissions_the_answer_names_them_and_nothing_opens(standin, bot_factory):
    alice = standin.add_user("alice")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory()) as bot:
        await standin.wait_synced()
        standin.set_permissions(chan, standin.bot_role, deny=CREATE_PUBLIC_THREADS | SEND_MESSAGES_IN_THREADS)
        r = await standin.slash(alice, chan, "nim new")
        answer = await r.original()
        assert answer.ephemeral
        assert "Create Public Threads" in answer.content and "Send Messages in Threads" in answer.content
        assert "thread: False" in answer.content
        assert standin.messages(chan) == [] or all(m.ephemeral for m in standin.messages(chan))
        assert await bot.store.games.live_sessions(standin.guild.id) == []
        # thread: False plays in the channel itself, which needs neither.
        here = await standin.slash(alice, chan, "nim new", thread=False)
        assert not here.ephemeral and (await bot.sessions.core.in_channel(chan.id)) is not None


async def test_a_thread_refused_by_discord_closes_the_lobby_and_says_so(standin, bot_factory):
    alice = standin.add_user("alice")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory()) as bot:
        await standin.wait_synced()
        standin.inject("POST /channels/*/messages/*/threads", status=503)
        r = await standin.slash(alice, chan, "nim new")
        final = await r.original(lambda m: "No game was opened" in m.content)
        assert "thread: False" in final.content and not final.components
        assert await bot.store.games.live_sessions(standin.guild.id) == []
        assert standin.guild.threads == [standin.guild.threads[0]]  # only the fixture's thread


async def test_a_rematch_in_the_thread_keeps_it_open_until_the_rematch_is_over(
    standin, bot_factory, table_clock
):
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory()) as bot:
        await standin.wait_synced()
        lobby, thread = await open_in_thread(standin, chan, alice, piles=2)
        first = await bot.sessions.core.in_channel(thread.id)
        await standin.click(bob, lobby, "Join")
        await standin.click(alice, lobby, "Start")
        await standin.next_message(thread, is_board)
        await play_to_the_end(standin, bot, thread, (alice, bob))
        card = await standin.next_message(thread, lambda m: "pk:rematch:" in " ".join(m.custom_ids))
        await bot.front.catchup.drain()
        assert await bot.store.jobs.job("archive", str(first.id)) is not None

        # The rematch is opened, joined and started in the same thread, within the hour.
        await (await standin.click(bob, card, "Rematch")).original()
        rematch_lobby = await standin.next_message(thread, lambda m: "rematch of game" in m.content)
        await (await standin.click(alice, rematch_lobby, "Join")).original()
        await (await standin.slash(bob, thread, "game start")).original()
        await standin.next_message(thread, is_board)
        second = await bot.sessions.core.in_channel(thread.id)
        assert second.id != first.id and second.status == "active"

        # The first game's hour passes while the rematch runs: the thread stays open.
        table_clock.advance(3600)
        assert await bot.scheduler.run_due() == 1
        assert not thread.archived
        job = await bot.store.jobs.job("archive", str(first.id))
        assert job is not None and job.due_at == table_clock.time() + 3600
        r = await standin.slash(bob, thread, "game status")
        assert not (await r.original()).content.startswith("⚠️")

        # Once the rematch is over too, the thread is archived.
        await play_to_the_end(standin, bot, thread, (alice, bob))
        await bot.front.catchup.drain()
        table_clock.advance(3600)
        await bot.scheduler.run_due()
        assert thread.archived


async def moderator_deletes(standin, channel) -> None:
    """Someone with Manage Threads (or Manage Channels) deletes ``channel``: Discord tells the bot
    with THREAD_DELETE (a thread) or CHANNEL_DELETE (a channel, whose threads go with it, with no
    event of their own: a post there meanwhile is answered 404 Unknown Channel)."""
    gone = [channel] + [c for c in channel.guild.channels if c.is_thread and c.parent_id == channel.id]
    for c in gone:
        channel.guild.channels.remove(c)
    event = "THREAD_DELETE" if channel.is_thread else "CHANNEL_DELETE"
    payload = {"id": str(channel.id), "guild_id": str(channel.guild.id), "type": channel.type}
    if channel.parent_id:
        payload["parent_id"] = str(channel.parent_id)
    await standin._conn_for(channel).dispatch(event, payload)
    await settled(standin)  # the event is parsed and its handlers started: wait for them to end
    await handled("raw_thread_delete" if channel.is_thread else "guild_channel_delete")


async def test_a_game_whose_thread_a_moderator_deleted_ends_and_stops_its_clock_and_reminders(
    standin, bot_factory, table_clock
):
    """A running game with a bank clock and reminders: a moderator deletes its thread.  Nobody
    can move, answer the timeout question or abandon it there any more, so it ends without a
    result: the lobby message says so, /game mine no longer lists it, and the day after neither
    the clock nor a reminder posts anything (nothing is sent to the deleted thread)."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory((*BASE_EXTENSIONS, "cogs.me"))) as bot:
        await standin.wait_synced()
        for user in (alice, bob):
            r = await standin.slash(user, chan, "me notify", where="dm", reminders=6)
            await r.original()
        lobby, thread, session = await bank_game(standin, bot, chan, alice, bob)
        assert await bot.store.jobs.job("deadline", str(session.id)) is not None

        await moderator_deletes(standin, thread)
        session = await bot.sessions.core.get(session.id)
        assert session.status == "abandoned"
        assert session.row.end_reason == "abandoned: its channel or thread was deleted"
        await standin.wait_for(lambda: "closed" in standin.message(lobby.id).content, what="the lobby closed")
        assert "its channel or thread was deleted" in standin.message(lobby.id).content
        assert standin.message(lobby.id).custom_ids == []
        for user in (alice, bob):
            mine = await (await standin.slash(user, chan, "game mine")).original()
            assert mine.content.startswith("You are not sitting in any game"), mine.content
            standin.skip_messages(standin.dm(user))

        table_clock.advance(2 * 86400)
        await bot.scheduler.run_due()
        await settled(standin)
        assert standin.violations == []  # nothing was posted to the deleted thread
        for user in (alice, bob):
            assert [m for m in standin.messages(standin.dm(user)) if "Reminder" in m.content] == []


async def test_a_deleted_channel_ends_the_games_in_it_and_in_its_threads(standin, bot_factory):
    alice, bob = standin.add_users("alice", "bob")
    chan, lounge = standin.channel("games"), standin.channel("general")
    async with standin.run_client(bot_factory()) as bot:
        await standin.wait_synced()
        _, thread = await open_in_thread(standin, chan, alice)
        r = await standin.slash(bob, lounge, "nim new", thread=False)
        await r.original()
        in_thread = await bot.sessions.core.in_channel(thread.id)
        here = await bot.sessions.core.in_channel(lounge.id)

        await moderator_deletes(standin, lounge)
        assert (await bot.sessions.core.get(here.id)).status == "abandoned"
        assert (await bot.sessions.core.get(in_thread.id)).status == "lobby"
        await moderator_deletes(standin, chan)  # its threads go with it
        assert (await bot.sessions.core.get(in_thread.id)).status == "abandoned"
        assert await bot.store.games.live_sessions(standin.guild.id) == []
        assert standin.violations == []


@pytest.mark.parametrize("reminders", [12, 0], ids=["a reminder's mention", "the clock's question"])
async def test_a_thread_deleted_while_the_bot_was_stopped_ends_its_game_at_the_next_post_there(
    standin, bot_factory, table_clock, monkeypatch, reminders
):
    """The bot is stopped; meanwhile a moderator deletes a clocked game's thread (no event reaches
    the bot).  Started again, the table's next post there finds the thread gone (a reminder's
    mention after 12 hours, or, without reminders, the question when the clock runs out): the
    game ends as at a deletion, instead of running on where nobody can reach it.  (The day passes
    while the bot runs, its jobs not fired yet: a day the bot is stopped would be nobody's time.)"""
    monkeypatch.setattr(nim, "TABLE_MOVES", False)  # running out of time asks the others
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    extensions = (*BASE_EXTENSIONS, "cogs.me")
    async with standin.run_client(bot_factory(extensions)) as bot:
        await standin.wait_synced()
        for user in (alice, bob):
            await (await standin.slash(user, chan, "me notify", reminders=reminders)).original()
        lobby, thread, session = await bank_game(standin, bot, chan, alice, bob)
        table_clock.advance(86400 - 60)
    thread.guild.channels.remove(thread)  # deleted while the bot was not running
    table_clock.advance(60)
    async with standin.run_client(bot_factory(extensions)) as bot:
        await standin.wait_synced()
        await bot.scheduler.run_due()
        standin.expect_violation("unknown channel")  # the bot could not know before it tried
        session = await bot.sessions.core.get(session.id)
        assert session.status == "abandoned"
        assert session.row.end_reason == "abandoned: its channel or thread was deleted"
        await standin.wait_for(lambda: "closed" in standin.message(lobby.id).content, what="the lobby closed")
        table_clock.advance(86400)  # the question's day, more reminders: nothing more is tried there
        await bot.scheduler.run_due()
        assert [v for v in standin.violations if not v.reported] == []


async def test_a_finished_game_whose_thread_was_deleted_stays_browsable_by_its_players(standin, bot_factory):
    """A Nim game played to its end in its thread; then a moderator deletes the thread.  Its
    players still open ``/game history`` and ``/game export`` for it from another channel; someone
    who did not play it is refused as before.  Its thread's archiving, due later, is dropped."""
    alice, bob, carol = standin.add_users("alice", "bob", "carol")
    chan, elsewhere = standin.channel("games"), standin.channel("general")
    async with standin.run_client(bot_factory(BASE_EXTENSIONS)) as bot:
        await standin.wait_synced()
        r = await standin.slash(alice, chan, "nim new", piles=2)
        lobby = await r.original(lambda m: "pk:lobby:join:" in " ".join(m.custom_ids))
        thread = standin.channel(lobby.id)
        await standin.click(bob, lobby, "Join")
        await standin.click(alice, lobby, "Start")
        session = await nim_played_out(standin, bot, thread, alice, bob)
        await bot.front.catchup.drain()
        assert await bot.store.jobs.job("archive", str(session.id)) is not None
        await moderator_deletes(standin, thread)
        assert (await bot.sessions.core.get(session.id)).status == "finished"
        # nothing is left to archive: the job that would look the thread up again is dropped
        assert await bot.store.jobs.job("archive", str(session.id)) is None
        for user in (alice, bob):
            page = await (await standin.slash(user, elsewhere, "game history", game=session.id)).original()
            assert "that you can view" not in page.content and "move " in page.content, page.content
            export = await (await standin.slash(user, elsewhere, "game export", game=session.id)).original()
            assert "that you can view" not in export.content and export.files, export.content
        refused = await (await standin.slash(carol, elsewhere, "game history", game=session.id)).original()
        assert "that you can view" in refused.content


async def test_a_move_from_the_menu_in_a_thread_the_bot_cannot_post_in_is_refused(standin, bot_factory):
    """A game in its thread; the channel takes Send Messages in Threads from the bot: a move chosen
    on the private menu is refused, naming the permission and the thread, and the game is as it was;
    given back, the same menu's move plays."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory()) as bot:
        await standin.wait_synced()
        lobby, thread = await open_in_thread(standin, chan, alice, piles=3)
        await standin.click(bob, lobby, "Join")
        await standin.click(alice, lobby, "Start")
        board = await standin.next_message(thread, is_board)
        session = await bot.sessions.core.in_channel(thread.id)
        (seat,) = session.to_move()
        mover = alice if session.by_seat(seat).user_id == alice.id else bob
        menu = await (await standin.click(mover, board, "Play")).original()
        standin.set_permissions(chan, standin.bot_role, deny=SEND_MESSAGES_IN_THREADS)
        await settled(standin)
        r, _ = await pick_from_menu(standin, mover, menu)
        refused = await r.original(lambda m: "Nothing was played" in m.text)
        assert "Nothing was played: I am missing Send Messages in Threads in this thread" in refused.text
        assert (await bot.sessions.core.in_channel(thread.id)).version == session.version
        standin.set_permissions(chan, standin.bot_role)
        await settled(standin)
        menu = await (await standin.click(mover, board, "Play")).original()
        await pick_from_menu(standin, mover, menu)
        await standin.next_message(thread, is_board)
        assert (await bot.sessions.core.in_channel(thread.id)).version == session.version + 1


async def test_commands_in_the_lobby_messages_channel_point_to_the_games_thread(standin, bot_factory):
    """A player who types in the channel holding the lobby message, not in the game's thread, was
    told there is no game there and to start one (a second game); now the answer names the
    thread where the game is played, in the reader's language, and nothing is opened or played."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory()) as bot:
        await standin.wait_synced()
        lobby, thread = await open_in_thread(standin, chan, alice, piles=3)
        await standin.click(bob, lobby, "Join")
        await standin.click(alice, lobby, "Start")
        await standin.next_message(thread, is_board)
        session = await bot.sessions.core.in_channel(thread.id)
        for command, options in (("nim move", {"move": "A1"}), ("game status", {}), ("game hand", {})):
            answer = await (await standin.slash(alice, chan, command, **options)).original()
            assert answer.ephemeral and answer.content == (
                "⚠️ No game is played in this channel itself: the game opened here is played in its "
                f"thread, <#{thread.id}>; use the commands there."
            ), answer.content
        bob.locale = "es-ES"
        answer = await (await standin.slash(bob, chan, "nim move", move="A1")).original()
        assert answer.content.startswith(
            f"⚠️ En este canal no se juega ninguna partida: la que se abrió aquí se juega en su hilo, <#{thread.id}>"
        ), answer.content
        assert (await bot.sessions.core.in_channel(thread.id)).version == session.version
        assert await bot.sessions.core.in_channel(chan.id) is None


async def test_a_lobby_closed_before_its_start_does_not_say_its_game_was_played(standin, bot_factory):
    """A lobby opened with a thread and closed by its last person leaving said "This lobby is
    closed (everyone left the lobby)" and then "The game was played in #thread": nothing was."""
    (alice,) = standin.add_users("alice")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory()):
        await standin.wait_synced()
        lobby, thread = await open_in_thread(standin, chan, alice, piles=2)
        left = await standin.click(alice, lobby, "Leave")
    assert left.content.endswith(
        f"This lobby is closed (everyone left the lobby).\nNothing was played in its thread {thread.mention}."
    ), left.content


async def test_a_thread_takes_its_new_hosts_name_once_as_its_game_starts(standin, bot_factory):
    """A game's thread is named after the host who opened the lobby, and kept that name after they
    left and the next person seated took the lobby over.  It takes the new host's name as the game
    starts, in one rename (Discord allows two per 10 minutes); a thread whose host stayed, or one
    a moderator renamed, keeps its name."""
    alice, bob, carol = standin.add_users("alice", "bob", "carol")
    chan = standin.channel("games")

    def renames(thread) -> int:
        return standin.requests.count(f"PATCH /channels/{thread.id}")

    async def start(user, lobby, thread) -> None:
        """Press the lobby's Start and wait for its handler to end (the thread's name is set after
        the first board)."""
        custom_id = f"pk:lobby:start:{(await bot.sessions.core.in_channel(thread.id)).id}"
        await standin.click(user, lobby, "Start")
        await standin.next_message(thread, is_board)
        await asyncio.gather(*(t for t in asyncio.all_tasks() if t.get_name().endswith(custom_id)))

    async with standin.run_client(bot_factory()) as bot:
        await standin.wait_synced()
        lobby, thread = await open_in_thread(standin, chan, alice, piles=2, players=3)
        number = (await bot.sessions.core.in_channel(thread.id)).id
        await standin.click(bob, lobby, "Join")
        await standin.click(carol, lobby, "Join")
        await standin.click(alice, lobby, "Leave")
        assert thread.name == f"Nim #{number} · Alice" and renames(thread) == 0
        await start(carol, lobby, thread)  # carol starts it; bob hosts it
        assert thread.name == f"Nim #{number} · Bob" and renames(thread) == 1

        stayed, kept = await open_in_thread(standin, chan, alice, piles=2)
        await standin.click(bob, stayed, "Join")
        await start(alice, stayed, kept)
        assert kept.name.endswith(" · Alice") and renames(kept) == 0

        left, named = await open_in_thread(standin, chan, carol, piles=2)
        await standin.click(alice, left, "Join")
        await standin.click(carol, left, "Leave")
        await standin.http("PATCH", f"/channels/{named.id}", body={"name": "Friday Nim"})  # a moderator
        await settled(standin)
        await start(alice, left, named)
        assert named.name == "Friday Nim" and renames(named) == 1

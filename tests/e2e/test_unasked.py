"""A timeout question Discord refuses (a permission missing, a locked thread): the log says where
and why, the players still in the game and the host are told once by direct message, in their
language, and the question is asked again (as soon as permissions change, else every ten minutes)
until it goes through, once; a question closed meanwhile (the late player moved) is not asked."""

from __future__ import annotations

import asyncio
import logging

import pytest

from tests.e2e.players import lobby_button, to_move
from tests.e2e.test_clocks import is_question, open_clocked
from tests.e2e.test_notices import EXTENSIONS, is_board
from tests.standin.model import SEND_MESSAGES_IN_THREADS
from tests.support import nim

DAY = 86400
RETRY = 600  # a refused question is asked again every ten minutes
ASK = "ask"  # the job that does it


@pytest.fixture(autouse=True)
def no_table_moves(monkeypatch):
    monkeypatch.setattr(nim, "TABLE_MOVES", False)  # running out of time asks the others


def dms(standin, user) -> list[str]:
    return [m.content for m in standin.messages(standin.dm(user))]


def questions(standin, thread) -> list:
    return [m for m in standin.messages(thread) if is_question(m)]


async def granted(standin, bot, chan) -> None:
    """The permission taken from the bot in ``chan`` is granted again, and the bot has handled the
    channel's update (its refused posts are due now)."""
    unposted = bot.front.boards.unposted
    changed, looked = asyncio.Event(), unposted.permissions_changed

    async def permissions_changed(guild_id: int) -> None:  # the bot's handler, then a signal
        await looked(guild_id)
        changed.set()

    unposted.permissions_changed = permissions_changed
    standin.set_permissions(chan, standin.bot_user)  # the channel's update reaches the bot
    async with asyncio.timeout(5):
        await changed.wait()
    unposted.permissions_changed = looked


async def refused_question(standin, bot, chan, alice, bob, table_clock):
    """Alice hosts a clocked Nim game with Bob in a thread; the bot loses Send Messages in Threads,
    and the player to move lets a day go by: the question is refused.  The late person, the other
    person, the session and the question's job key."""
    thread, _ = await open_clocked(standin, bot, chan, alice, bob, clock="bank:1d")
    late, session = await to_move(bot, thread, (alice, bob))
    other = bob if late is alice else alice
    standin.set_permissions(chan, standin.bot_user, deny=SEND_MESSAGES_IN_THREADS)
    await standin.settle()
    table_clock.advance(DAY)
    await bot.scheduler.run_due()
    await bot.front.catchup.drain()
    assert session.seat_of(late.id).seat in (await bot.sessions.core.get(session.id)).banks.pending
    return thread, late, other, session, f"{session.id}:{session.seat_of(late.id).seat}"


async def test_a_refused_timeout_question_is_told_once_and_asked_again_once(
    standin, bot_factory, table_clock, caplog
):
    """The question is refused: the log names the session, the thread and the missing permission;
    Alice (the host) and Bob (in Spanish) each get one direct message naming the late player, the
    thread and Send Messages in Threads; a refusal ten minutes later tells nobody again; once the
    permission is back the question is posted at the next try, mentioning both, and only once; its
    buttons work."""
    alice, bob = standin.add_users("alice", "bob")
    bob.locale = "es-ES"
    chan = standin.channel("games")
    caplog.set_level(logging.WARNING, logger="bot.surface.unposted")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread, late, other, session, key = await refused_question(
            standin, bot, chan, alice, bob, table_clock
        )
        assert not questions(standin, thread)
        (line,) = [r.getMessage() for r in caplog.records if r.name == "bot.surface.unposted"]
        assert f"session {session.id} (Nim)" in line and f"in channel {thread.id}" in line, line
        assert "missing Send Messages in Threads" in line, line

        name = session.seat_of(late.id).name
        (to_alice,) = dms(standin, alice)
        assert to_alice.startswith(
            f"⚠️ {name}'s time ran out in **Nim** #{session.id}, but I could not ask the players what now "
            f"in <#{thread.id}> on **{standin.guild.name}**: I am missing Send Messages in Threads there."
        ), to_alice
        assert "I ask again as soon as permissions change, and every 10 minutes." in to_alice, to_alice
        assert "the computer takes" in to_alice and "board" not in to_alice, to_alice
        (to_bob,) = dms(standin, bob)
        assert f"#{session.id}" in to_bob and "me falta Enviar mensajes en hilos" in to_bob, to_bob
        assert "could not" not in to_bob, to_bob

        table_clock.advance(RETRY)  # asked again, refused again: nobody is told twice
        await bot.scheduler.run_due()
        assert not questions(standin, thread)
        assert len(dms(standin, alice)) == len(dms(standin, bob)) == 1
        assert await bot.store.jobs.job(ASK, key) is not None

        await granted(standin, bot, chan)
        table_clock.advance(RETRY)
        await bot.scheduler.run_due()
        (question,) = questions(standin, thread)
        assert late.id in question.pinged and other.id in question.pinged, question.content
        assert f"<@{late.id}>'s time ran out" in question.content, question.content
        assert await bot.store.jobs.job(ASK, key) is None
        table_clock.advance(RETRY)
        await bot.scheduler.run_due()
        assert len(questions(standin, thread)) == 1  # posted once
        assert len(dms(standin, alice)) == len(dms(standin, bob)) == 1

        answer = await standin.click(other, question, "Give more time")
        assert not (await answer.original()).content.startswith("⚠️")
        await standin.next_message(thread, lambda m: is_board(m) and late.id in m.pinged)
        await bot.front.catchup.drain()


async def test_granting_the_permission_asks_the_refused_question_at_once(standin, bot_factory, table_clock):
    """When an admin grants the missing permission (a channel update reaches the bot), the refused
    question is asked at once, not ten minutes later."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread, late, other, session, key = await refused_question(
            standin, bot, chan, alice, bob, table_clock
        )
        await granted(standin, bot, chan)
        job = await bot.store.jobs.job(ASK, key)
        assert job is not None and job.due_at <= table_clock.time()  # due now, not in ten minutes
        await bot.scheduler.run_due()
        (question,) = questions(standin, thread)
        assert late.id in question.pinged and other.id in question.pinged


async def test_a_refused_question_the_late_player_closed_by_moving_is_not_asked(
    standin, bot_factory, table_clock
):
    """The question is refused; the late player then moves (which closes it): once the permission
    is back, no question is posted, and no try is left armed."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread, late, other, session, key = await refused_question(
            standin, bot, chan, alice, bob, table_clock
        )
        now = await bot.sessions.core.get(session.id)
        move = nim.legal_moves(now.state, now.seat_of(late.id).seat)[0]
        await bot.sessions.play.play(thread.id, late.id, str(move))  # stored (the board is refused too)
        await granted(standin, bot, chan)
        await bot.scheduler.run_due()
        await bot.front.catchup.drain()
        assert not questions(standin, thread)
        assert await bot.store.jobs.job(ASK, key) is None


async def test_a_question_posted_while_permissions_change_is_not_posted_twice(
    standin, bot_factory, table_clock
):
    """The refused question's ten minutes come just as an admin grants the permission: the
    ``ask`` job fires and posts the question while the bot is handling the channel's update
    (after it read the jobs to hasten).  The update does not arm the job again: the question is
    posted once."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread, late, other, session, key = await refused_question(
            standin, bot, chan, alice, bob, table_clock
        )
        jobs, read = bot.store.jobs, bot.store.jobs.pending

        async def pending(kind=None):  # the jobs as read, then the due one fires before the re-arm
            found = await read(kind)
            if kind == ASK:  # ten minutes went by meanwhile: the job fires, the question is posted
                table_clock.advance(RETRY)
                await bot.scheduler.run_due()
            return found

        jobs.pending = pending
        try:
            await granted(standin, bot, chan)
        finally:
            jobs.pending = read
        assert len(questions(standin, thread)) == 1
        assert await jobs.job(ASK, key) is None
        table_clock.advance(RETRY)
        await bot.scheduler.run_due()
        (question,) = questions(standin, thread)
        assert late.id in question.pinged and other.id in question.pinged


async def test_a_question_refused_in_a_locked_thread_says_so_and_is_asked_once_unlocked(
    standin, bot_factory, table_clock
):
    """A moderator locks (and closes) the game's thread; the bank runs out: the players hear the
    thread is locked, not that a permission is missing; once it is unlocked (a thread update
    reaches the bot), the question is asked at once."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread, _ = await open_clocked(standin, bot, chan, alice, bob, clock="bank:1d")
        late, session = await to_move(bot, thread, (alice, bob))
        standin.moderate_thread(standin.owner, thread, archived=True, locked=True)
        await standin.settle()
        table_clock.advance(DAY)
        await bot.scheduler.run_due()
        assert not questions(standin, thread)
        for user in (alice, bob):
            (told,) = dms(standin, user)
            assert f"#{session.id}" in told and "the thread is locked" in told and "missing" not in told, told

        unposted = bot.front.boards.unposted
        changed, looked = asyncio.Event(), unposted.permissions_changed

        async def permissions_changed(guild_id: int) -> None:  # the bot's handler, then a signal
            await looked(guild_id)
            changed.set()

        unposted.permissions_changed = permissions_changed
        standin.moderate_thread(standin.owner, thread, archived=False, locked=False)
        async with asyncio.timeout(5):
            await changed.wait()
        await bot.scheduler.run_due()
        (question,) = questions(standin, thread)
        assert late.id in question.pinged


async def test_questions_refused_for_several_seats_at_once_are_told_in_one_message_each(
    standin, bot_factory, table_clock
):
    """Guanga's first phase (apprentice: each player keeps an order) has every player to move at
    once; a day later both banks run out together, and the bot may not post in the thread.  Each
    player (Alice hosts) gets one direct message naming both late players, not one per question;
    Bob's in Spanish.  Both questions are asked once the permission is back."""
    alice, bob = standin.add_users("alice", "bob")
    bob.locale = "es-ES"
    chan = standin.channel("games")
    async with standin.run_client(bot_factory((*EXTENSIONS, "cogs.guanga"))) as bot:
        await standin.wait_synced()
        r = await standin.slash(alice, chan, "guanga new", players=2, mode="apprentice", clock="bank:1d")
        lobby = await r.original(lambda m: "pk:lobby:join:" in " ".join(m.custom_ids))
        thread = standin.channel(lobby.id)
        await standin.click(bob, lobby, lobby_button(lobby, "join"))
        await standin.click(alice, lobby, lobby_button(lobby, "start"))
        await standin.next_message(thread, is_board)
        await bot.front.catchup.drain()
        session = await bot.sessions.core.in_channel(thread.id)
        assert session.to_move() == {0, 1}
        standin.set_permissions(chan, standin.bot_user, deny=SEND_MESSAGES_IN_THREADS)
        await standin.settle()
        table_clock.advance(DAY)
        await bot.scheduler.run_due()
        assert set((await bot.sessions.core.get(session.id)).banks.pending) == {0, 1}
        assert not questions(standin, thread)
        names = [session.by_seat(seat).name for seat in (0, 1)]
        (to_alice,) = dms(standin, alice)
        assert to_alice.startswith(
            f"⚠️ Time ran out for {names[0]} and {names[1]} in **{session.info.title}** #{session.id}, but I could not "
            f"ask the players what now in <#{thread.id}>"
        ), to_alice
        assert f"the computer takes the seats of {names[0]} and {names[1]}." in to_alice, to_alice
        (to_bob,) = dms(standin, bob)
        assert f"{names[0]} y {names[1]}" in to_bob and "me falta Enviar mensajes en hilos" in to_bob, to_bob

        await granted(standin, bot, chan)
        await bot.scheduler.run_due()
        asked = questions(standin, thread)
        assert len(asked) == 2 and all(alice.id in m.pinged and bob.id in m.pinged for m in asked)
        assert len(dms(standin, alice)) == len(dms(standin, bob)) == 1


async def carol_kept(standin, bot, chan, users):
    """Alice, Bob and Carol (``users``) start a Guanga game (apprentice: in its first phase each
    keeps an order, all at once) under a one-day bank in a thread of ``chan``, and Carol keeps
    hers: Alice's and Bob's banks run out together a day on.  The thread and the session."""
    alice, bob, carol = users
    r = await standin.slash(alice, chan, "guanga new", players=3, mode="apprentice", clock="bank:1d")
    lobby = await r.original(lambda m: "pk:lobby:join:" in " ".join(m.custom_ids))
    thread = standin.channel(lobby.id)
    await standin.click(bob, lobby, lobby_button(lobby, "join"))
    await standin.click(carol, lobby, lobby_button(lobby, "join"))
    await standin.click(alice, lobby, lobby_button(lobby, "start"))
    await standin.next_message(thread, is_board)
    await bot.front.catchup.drain()
    session = await bot.sessions.core.in_channel(thread.id)
    assert session.to_move() == {0, 1, 2}
    carol_seat = session.seat_of(carol.id).seat
    keep = next(m for m in session.engine.legal_moves(session.state, carol_seat))
    await (await standin.slash(carol, thread, "guanga move", move=str(keep))).original()
    await bot.front.catchup.drain()
    return thread, session


async def test_questions_asked_for_several_seats_at_once_send_one_direct_message_each(
    standin, bot_factory, table_clock
):
    """Both banks of a Guanga game in its first phase run out together: two questions, and each
    player who wants direct messages gets one (not one per question), about their own time."""
    alice, bob, carol = standin.add_users("alice", "bob", "carol")
    bob.locale = "es-ES"
    chan = standin.channel("games")
    async with standin.run_client(bot_factory((*EXTENSIONS, "cogs.guanga"))) as bot:
        await standin.wait_synced()
        for user in (alice, bob, carol):
            await (await standin.slash(user, chan, "me notify", where="both")).original()
        thread, session = await carol_kept(standin, bot, chan, (alice, bob, carol))
        before = {u.id: len(dms(standin, u)) for u in (alice, bob, carol)}
        table_clock.advance(DAY)
        await bot.scheduler.run_due()
        await bot.front.catchup.drain()
        asked = questions(standin, thread)
        assert len(asked) == 2 and all({alice.id, bob.id, carol.id} <= m.pinged for m in asked)
        new = {
            u.id: [m for m in dms(standin, u)[before[u.id] :] if m.startswith("⏰")]
            for u in (alice, bob, carol)
        }
        assert [len(new[u]) for u in new] == [1, 1, 1], new
        assert new[alice.id][0].startswith("⏰ Your time ran out in Guanga"), new[alice.id]
        assert new[bob.id][0].startswith("⏰ Se te acabó el tiempo en la partida de Guanga"), new[bob.id]
        names = [session.seat_of(u.id).name for u in (alice, bob)]
        assert new[carol.id][0].startswith(f"⏰ Time ran out for {names[0]} and {names[1]} in Guanga"), new
        assert "the first answer to each question decides" in new[carol.id][0]

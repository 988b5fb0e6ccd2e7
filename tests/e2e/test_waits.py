"""Fewer waits and following, end to end: a forced move played after the delay only for those who
allow it (one left by a step inside a turn, which posts no board, too: a person's or a computer's), /play next, the digest by time left at a chosen hour, the 80 % clock warning, a watcher
who gets exactly the public posts, a follower told of a game's start."""

from __future__ import annotations

import random
import re

from bot.waits import AUTOPLAY_DELAY
from engines.core import TABLE, IllegalMove
from engines.guanga import data as guanga_data
from engines.guanga import rules as guanga
from engines.tiwanaku import ai as tiwanaku_ai
from engines.tiwanaku import rules as tiwanaku_rules
from tests.e2e.conftest import BASE_EXTENSIONS
from tests.e2e.players import lobby_button, settled, to_move
from tests.support import nim

EXTENSIONS = (*BASE_EXTENSIONS, "cogs.me", "cogs.play")
HOUR = 3600


def is_board(message) -> bool:
    return bool(message.files) and not message.ephemeral


async def open_game(standin, bot, chan, host, guest, **options):
    """A two-player Nim game in its own thread, started; returns the thread and its first board."""
    r = await standin.slash(host, chan, "nim new", **options)
    lobby = await r.original(lambda m: "pk:lobby:join:" in " ".join(m.custom_ids))
    thread = standin.channel(lobby.id)
    await standin.click(guest, lobby, lobby_button(lobby, "join"))
    await standin.click(host, lobby, lobby_button(lobby, "start"))
    board = await standin.next_message(thread, is_board)
    await bot.front.catchup.drain()
    return thread, board


async def move(standin, bot, thread, user, text):
    r = await standin.slash(user, thread, "nim move", move=text)
    await r.original()
    board = await standin.next_message(thread, is_board)
    await bot.front.catchup.drain()
    return board


async def turn_of(standin, bot, thread, user, other):
    """Make it ``user``'s turn: ``other`` takes one stone if it is theirs."""
    first, session = await to_move(bot, thread, (user, other))
    if first is other:
        await move(standin, bot, thread, other, "A1")


async def dm_turn(standin, bot, chan, user, other, clock, **notify):
    """``user``, told by DM (no reminders), to move in a Nim game with ``other`` on ``clock``; its thread."""
    await ok(standin, user, chan, "me notify", where="dm", reminders=0, **notify)
    thread, _ = await open_game(standin, bot, chan, user, other, clock=clock)
    await turn_of(standin, bot, thread, user, other)
    return thread


def clock_warnings(standin, user):
    """The 80 % clock warnings in ``user``'s DMs."""
    return [m for m in standin.messages(standin.dm(user)) if "80 %" in m.content]


async def warning_job(bot, thread):
    """The clock warning armed for the turn in ``thread``."""
    session = await bot.sessions.core.in_channel(thread.id)
    (seat,) = session.to_move()
    return await bot.store.jobs.job("clock_warning", f"{session.id}:{seat}")


async def ok(standin, user, chan, command, **options):
    answer = await (await standin.slash(user, chan, command, **options)).original()
    assert answer.ephemeral and not answer.content.startswith("⚠️"), answer.content
    return answer


async def after_the_delay(bot, table_clock, session):
    """The game of ``session`` once the autoplay delay has passed (unchanged a second before)."""
    table_clock.advance(AUTOPLAY_DELAY - 1)
    await bot.scheduler.run_due()
    assert (await bot.sessions.core.get(session.id)).version == session.version  # not yet
    table_clock.advance(1)
    await bot.scheduler.run_due()
    await bot.front.catchup.drain()
    return await bot.sessions.core.get(session.id)


async def test_a_forced_move_is_played_after_the_delay_only_for_those_who_allow_it(
    standin, bot_factory, table_clock
):
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        shown = await ok(standin, alice, chan, "me autoplay")
        assert "Autoplay is off" in shown.content
        for allow in (False, True):
            for user in (alice, bob):
                answer = await ok(standin, user, chan, "me autoplay", on=allow)
                assert ("Autoplay is on" if allow else "Autoplay is off") in answer.content
            thread, _ = await open_game(standin, bot, chan, alice, bob, piles=1)
            first, session = await to_move(bot, thread, (alice, bob))
            second = bob if first is alice else alice
            await move(standin, bot, thread, first, f"A{session.state.piles[0] - 1}")
            session = await bot.sessions.core.in_channel(thread.id)
            seat = session.seat_of(second.id).seat
            assert [str(m) for m in nim.legal_moves(session.state, seat)] == ["A1"]  # one legal move

            after = await after_the_delay(bot, table_clock, session)
            if allow:
                assert after.status == "finished" and after.state.winner == seat
                last = await standin.next_message(thread, is_board)
                name = session.by_seat(seat).name
                assert f"{name} had one legal move, `A1`; it was played for them" in last.content
            else:
                assert after.version == session.version and after.status == "active"
                assert await bot.store.jobs.job("autoplay", f"{session.id}:{seat}") is None
                # Turned on now, the move waiting on them is played the delay after that.
                await ok(standin, second, chan, "me autoplay", on=True)
                table_clock.advance(AUTOPLAY_DELAY - 1)
                await bot.scheduler.run_due()
                assert (await bot.sessions.core.get(session.id)).status == "active"
                table_clock.advance(1)
                await bot.scheduler.run_due()
                await bot.front.catchup.drain()
                assert (await bot.sessions.core.get(session.id)).state.winner == seat


async def test_play_next_opens_the_game_that_has_waited_longest(standin, bot_factory, table_clock):
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        none = await ok(standin, alice, chan, "play next")
        assert "No game is waiting on you" in none.content
        threads = []
        for _ in range(3):
            thread, _ = await open_game(standin, bot, chan, alice, bob, piles=3)
            await turn_of(standin, bot, thread, alice, bob)
            threads.append(thread)
            table_clock.advance(HOUR)
        oldest = threads[0]
        answer = await ok(standin, alice, chan, "play next")
        session = await bot.sessions.core.in_channel(oldest.id)
        assert f"**Nim** #{session.id} on **{standin.guild.name}** has waited longest for you (3 hours)" in (
            answer.content
        )
        assert f"https://discord.com/channels/{standin.guild.id}/{oldest.id}" in answer.content
        assert "2 more games wait on you" in answer.content
        secret = session.state.secrets[session.seat_of(alice.id).seat]
        assert answer.files and f"Your secret number: {secret}" in answer.content  # her own view, privately
        # Once she moves there, the next oldest is offered.
        await move(standin, bot, oldest, alice, "A1")
        answer = await ok(standin, alice, chan, "play next")
        assert f"/{threads[1].id}" in answer.content and "1 more game waits on you" in answer.content


async def test_the_digest_lists_the_games_by_time_left_at_the_chosen_hour(standin, bot_factory, table_clock):
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    start = table_clock.time()  # 2027-01-15 08:00 UTC
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await ok(standin, alice, chan, "me notify", where="dm")
        chosen = await ok(standin, alice, chan, "me digest", at="12")
        assert "once a day at 12:00" in chosen.content
        bad = await (await standin.slash(alice, chan, "me digest", at="25")).original()
        assert "not an hour of the day" in bad.content and "Nothing was changed" in bad.content
        long_clock, _ = await open_game(standin, bot, chan, alice, bob, clock="move:10h")
        await turn_of(standin, bot, long_clock, alice, bob)  # 08:00: 10 h from now
        table_clock.advance(HOUR)
        short_clock, _ = await open_game(standin, bot, chan, alice, bob, clock="move:5h")
        await turn_of(standin, bot, short_clock, alice, bob)  # 09:00: 5 h from now
        table_clock.advance(HOUR)
        no_clock, _ = await open_game(standin, bot, chan, alice, bob)
        await turn_of(standin, bot, no_clock, alice, bob)
        job = await bot.store.jobs.job("remind", str(alice.id))
        assert job.due_at == start + 4 * HOUR  # 12:00 UTC, her time zone
        standin.skip_messages(standin.dm(alice))
        table_clock.set(start + 4 * HOUR)
        await bot.scheduler.run_due()
        digest = await standin.next_message(standin.dm(alice), lambda m: m.content.startswith("Reminder"))
        assert "your turn in 3 games" in digest.content
        lines = digest.content.splitlines()
        order = [
            next(i for i, line in enumerate(lines) if f"/{t.id}" in line)
            for t in (short_clock, long_clock, no_clock)
        ]
        assert order == sorted(order), digest.content  # least time left first, no clock last
        assert "2 hours left, waiting 3 hours" in lines[order[0]]
        assert "6 hours left, waiting 4 hours" in lines[order[1]]
        assert "left" not in lines[order[2]] and "waiting 2 hours" in lines[order[2]]
        job = await bot.store.jobs.job("remind", str(alice.id))
        assert job.due_at == start + 28 * HOUR  # tomorrow at 12:00


async def test_a_daily_digest_put_off_by_time_away_comes_at_its_hour_once_a_day(
    standin, bot_factory, table_clock
):
    """Alice takes her reminders as a digest at 12:00 and goes away for two days while a game
    waits on her.  The day she is back, the digest comes at 12:00, once (not also at the hour her
    time away ended); when she comes back early, at its hour the next day."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    start = table_clock.time()  # 2027-01-15 08:00 UTC
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await ok(standin, alice, chan, "me notify", where="dm")
        await ok(standin, alice, chan, "me digest", at="12")
        thread, _ = await open_game(standin, bot, chan, alice, bob)
        await turn_of(standin, bot, thread, alice, bob)
        await ok(standin, alice, chan, "me away", days=2)  # until 2027-01-17 08:00

        def digests():
            return [m for m in standin.messages(standin.dm(alice)) if m.content.startswith("Reminder")]

        for hours in (4, 24 + 4, 48, 48 + 4 - 1 / 3600):  # 12:00 while away, ..., 11:59:59 on the 17th
            table_clock.set(start + hours * HOUR)
            await bot.scheduler.run_due()
        assert digests() == []
        table_clock.set(start + 52 * HOUR)  # 12:00 on the 17th
        await bot.scheduler.run_due()
        assert len(digests()) == 1
        job = await bot.store.jobs.job("remind", str(alice.id))
        assert job is not None and job.due_at == start + 76 * HOUR  # the 18th at 12:00

        # Away again, for three days: the digest due on the 18th waits for the 20th at 12:00, when
        # her time away ends; back early, on the 18th at 13:00, it comes the next day at 12:00.
        await ok(standin, alice, chan, "me away", days=3)
        table_clock.set(start + 76 * HOUR)
        await bot.scheduler.run_due()
        job = await bot.store.jobs.job("remind", str(alice.id))
        assert job is not None and job.due_at == start + 124 * HOUR, (job.due_at - start) / HOUR
        table_clock.set(start + 77 * HOUR)
        await ok(standin, alice, chan, "me back")
        job = await bot.store.jobs.job("remind", str(alice.id))
        assert job is not None and job.due_at == start + 100 * HOUR, (job.due_at - start) / HOUR
        assert len(digests()) == 1


async def test_the_clock_warning_comes_once_at_80_percent(standin, bot_factory, table_clock):
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread = await dm_turn(standin, bot, chan, alice, bob, "move:10h")

        table_clock.advance(8 * HOUR - 1)
        await bot.scheduler.run_due()
        assert clock_warnings(standin, alice) == []
        table_clock.advance(1)
        await bot.scheduler.run_due()
        (warning,) = clock_warnings(standin, alice)
        session = await bot.sessions.core.in_channel(thread.id)
        assert (
            f"**Nim** #{session.id}" in warning.content
            and "2 hours left on your clock" in warning.content
            and "used 80 %" in warning.content
        )
        assert f"/{thread.id}" in warning.content
        table_clock.advance(HOUR)
        await bot.scheduler.run_due()
        assert len(clock_warnings(standin, alice)) == 1  # once per turn


async def test_a_clock_changed_during_the_turn_warns_at_80_percent_of_the_new_clock(
    standin, bot_factory, table_clock
):
    """Alice's turn runs on a bank of a day; two hours in, the host changes the clock to 4 hours a
    move (and later to none, then a 5-hour turn timer).  Her warning comes at 80 % of the new turn's time,
    not at 80 % of the day she no longer has: the time runs out after it, never before."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread = await dm_turn(standin, bot, chan, alice, bob, "bank:1d")

        table_clock.advance(2 * HOUR)
        await ok(standin, alice, thread, "game clock", clock="move:4h")
        await bot.front.replies.idle()
        table_clock.advance(int(0.8 * 4 * HOUR) - 1)
        await bot.scheduler.run_due()
        assert clock_warnings(standin, alice) == []
        table_clock.advance(1)
        await bot.scheduler.run_due()
        (warning,) = clock_warnings(standin, alice)
        assert "48 minutes left on your clock" in warning.content, warning.content

        await ok(standin, alice, thread, "game clock", clock="off")
        await ok(standin, alice, thread, "game timer", hours=5)  # a turn timer: its own warning
        await bot.front.replies.idle()
        table_clock.advance(4 * HOUR)
        await bot.scheduler.run_due()
        assert (
            len(clock_warnings(standin, alice)) == 2
            and "1 hour left on your clock" in clock_warnings(standin, alice)[1].content
        )


async def test_a_watcher_gets_exactly_the_public_posts(standin, bot_factory):
    alice, bob, carol = standin.add_users("alice", "bob", "carol")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread, _ = await open_game(standin, bot, chan, alice, bob, piles=3)
        answer = await ok(standin, carol, thread, "play watch")
        assert "public turn posts by direct message" in answer.content
        first, session = await to_move(bot, thread, (alice, bob))
        board = await move(standin, bot, thread, first, "A1")
        dm = await standin.next_message(standin.dm(carol))
        assert dm.content.startswith(board.content)
        assert f"https://discord.com/channels/{standin.guild.id}/{thread.id}/{board.id}" in dm.content
        assert bytes(dm.files[0]) == bytes(board.files[0])  # the public board, as posted
        for secret in session.state.secrets:  # the hidden numbers of both seats
            assert re.search(rf"\b{secret}\b", dm.content) is None
        stopped = await ok(standin, carol, thread, "play watch")
        assert "no longer" in stopped.content
        second, _ = await to_move(bot, thread, (alice, bob))
        await move(standin, bot, thread, second, "B1")
        await settled(standin)
        assert len(standin.messages(standin.dm(carol))) == 1


async def test_a_watcher_gets_no_post_in_their_quiet_hours(standin, bot_factory, table_clock):
    """Carol watches with quiet hours 07:00 to 10:00 (UTC; the manual clock starts at 08:00): the
    posts made then are not sent to her (the channel keeps them); the next one after 10:00 is."""
    alice, bob, carol = standin.add_users("alice", "bob", "carol")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await ok(standin, carol, chan, "me notify", time_zone="UTC", quiet="7-10")
        thread, _ = await open_game(standin, bot, chan, alice, bob, piles=3)
        await ok(standin, carol, thread, "play watch")
        first, _ = await to_move(bot, thread, (alice, bob))
        await move(standin, bot, thread, first, "A1")
        await settled(standin)
        assert standin.messages(standin.dm(carol)) == []
        table_clock.advance(2 * HOUR)  # 10:00: the quiet hours are over
        second, _ = await to_move(bot, thread, (alice, bob))
        board = await move(standin, bot, thread, second, "B1")
        dm = await standin.next_message(standin.dm(carol))
        assert dm.content.startswith(board.content)
        assert len(standin.messages(standin.dm(carol))) == 1


async def test_a_follower_is_told_once_when_someone_they_follow_starts_a_game(standin, bot_factory):
    alice, bob, carol, dave = standin.add_users("alice", "bob", "carol", "dave")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        answer = await ok(standin, carol, chan, "me follow", person=alice)
        assert "You follow alice" in answer.content.lower() or "You follow" in answer.content
        await ok(standin, dave, chan, "me follow", person=alice)
        refused = await (await standin.slash(carol, chan, "me follow", person=carol)).original()
        assert "not yourself" in refused.content
        standin.leave(dave, standin.guild)  # dave shares no server with the game any more
        thread, board = await open_game(standin, bot, chan, alice, bob)
        session = await bot.sessions.core.in_channel(thread.id)
        told = await standin.next_message(standin.dm(carol))
        assert f"started **Nim** #{session.id} on **{standin.guild.name}**" in told.content
        assert f"/{thread.id}/{board.id}" in told.content
        await ok(standin, alice, thread, "game board")  # the board again: no second notice
        await settled(standin)
        assert len(standin.messages(standin.dm(carol))) == 1
        assert standin.messages(standin.dm(dave)) == []
        gone = await ok(standin, carol, chan, "me unfollow", person=alice)
        assert "no longer follow" in gone.content
        await open_game(standin, bot, chan, alice, bob)
        await settled(standin)
        assert len(standin.messages(standin.dm(carol))) == 1


async def tiwanaku_final_round(standin, bot, chan, users):
    """A three-player Tiwanaku game (``users``, the first its host) opened in ``chan`` and played
    as the computer would, straight through the table, up to its final round (seed 3: all three
    players are in it): its thread, the session, the last move's result (not announced)."""
    alice, bob, carol = users
    bot.sessions.new_seed = lambda: 3
    r = await standin.slash(alice, chan, "tiwanaku new", players=3)
    lobby = await r.original(lambda m: "pk:lobby:join:" in " ".join(m.custom_ids))
    thread = standin.channel(lobby.id)
    for guest in (bob, carol):
        await standin.click(guest, lobby, lobby_button(lobby, "join"))
    await standin.click(alice, lobby, lobby_button(lobby, "start"))
    await standin.next_message(thread, is_board)
    await bot.front.catchup.drain()
    rng = random.Random(1)
    session = await bot.sessions.core.in_channel(thread.id)
    result = None
    while session.state.phase != tiwanaku_rules.FINAL:
        (seat,) = session.to_move()
        legal = session.engine.legal_moves(session.state, seat)
        choice = tiwanaku_ai.computer_move(session.engine.view_for(session.state, seat), legal, rng)
        result = await bot.sessions.play.play_in(session.id, session.by_seat(seat).user_id, str(choice))
        session = result.session
    return thread, session, result


async def test_a_pass_declared_ahead_is_played_when_the_turn_comes_and_dropped_when_another_comes(
    standin, bot_factory, table_clock
):
    alice, bob, carol = users = standin.add_users("alice", "bob", "carol")
    chan = standin.channel("games")
    extensions = (*EXTENSIONS, "cogs.tiwanaku")
    async with standin.run_client(bot_factory(extensions)) as bot:
        await standin.wait_synced()
        nim_thread, _ = await open_game(standin, bot, chan, alice, bob)
        waiting, _ = await to_move(bot, nim_thread, (alice, bob))
        other = bob if waiting is alice else alice
        refused = await (await standin.slash(other, nim_thread, "play pass-ahead")).original()
        assert "no pass move" in refused.content and "Tiwanaku" in refused.content

        thread, session, _ = await tiwanaku_final_round(standin, bot, chan, users)
        engine = session.engine
        (first,) = session.to_move()
        after_first, _ = engine.apply_move(session.state, first, engine.parse_move("pass"))
        (second,) = engine.to_move(after_first)
        (third,) = {0, 1, 2} - {first, second}
        x, y, z = (
            next(u for u in users if u.id == session.by_seat(s).user_id) for s in (first, second, third)
        )

        now_refused = await (await standin.slash(x, thread, "play pass-ahead")).original()
        assert "It is your turn now" in now_refused.content
        await ok(standin, y, thread, "play pass-ahead")
        cancelled = await ok(standin, y, thread, "play pass-ahead", cancel=True)
        assert "is cancelled" in cancelled.content
        for declarer in (y, z):
            declared = await ok(standin, declarer, thread, "play pass-ahead")
            assert declared.content.startswith("Declared")
        standin.skip_messages(thread)
        await move_in(standin, bot, thread, x, "tiwanaku move", "pass")
        # y's turn came straight after: y passes at once; z's turn did not, so z's pass is dropped.
        await bot.scheduler.run_due()
        await bot.front.catchup.drain()
        now = await bot.sessions.core.get(session.id)
        moves = [(m.seat, m.move) for m in await bot.store.history.moves(session.id)]
        assert moves[-2:] == [(first, "pass"), (second, "pass")]
        assert now.status == "active" and now.to_move() == {third}  # z plays their own turn
        boards = [m for m in standin.messages(thread) if is_board(m)]
        name = session.by_seat(second).name
        assert any(f"{name} passed, as they had declared ahead" in m.content for m in boards)
        assert await bot.store.waits.passes(session.id) == []
        table_clock.advance(AUTOPLAY_DELAY)
        await bot.scheduler.run_due()
        assert (await bot.sessions.core.get(session.id)).version == now.version


async def move_in(standin, bot, thread, user, command, text):
    r = await standin.slash(user, thread, command, move=text)
    answer = await r.original()
    assert not answer.content.startswith("⚠️"), answer.content
    await standin.next_message(thread, is_board)
    await bot.front.catchup.drain()


async def test_in_a_league_a_forced_move_is_played_only_once_the_league_allows_it(
    standin, bot_factory, table_clock
):
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory((*EXTENSIONS, "cogs.league"))) as bot:
        await standin.wait_synced()
        leagues = bot.store.leagues
        lid = await leagues.create_league(
            guild_id=standin.guild.id,
            channel_id=chan.id,
            organiser_id=alice.id,
            name="Autumn",
            game="nim",
            format="swiss",
            group_size=2,
            options={},
            points=(1.0, 0.0),
            bye_points=1.0,
            round_seconds=86400.0,
            rounds=1,
            timer_seconds=None,
            starts_at=table_clock.time(),
            seed=5,
        )
        for user in (alice, bob):
            await leagues.join_league(lid, user.id, user.name)
            await ok(standin, user, chan, "me autoplay", on=True)
        await leagues.start_league(lid, table_clock.time() + 30 * 86400, 1)
        games = await leagues.open_round(lid, 1, [[alice.id, bob.id]] * 2, [], table_clock.time() + 86400)
        shown = await ok(standin, bob, chan, "league organiser autoplay")
        assert "does not allow autoplay" in shown.content  # off by default
        for game_id, allow in zip(games, (False, True), strict=True):
            if allow:
                refused = await (
                    await standin.slash(bob, chan, "league organiser autoplay", allowed=True)
                ).original()
                assert "Only someone with Manage Server" in refused.content
                allowed = await ok(standin, alice, chan, "league organiser autoplay", allowed=True)
                assert "allows autoplay" in allowed.content
            thread, _ = await open_game(standin, bot, chan, alice, bob, piles=1)
            first, session = await to_move(bot, thread, (alice, bob))
            assert await leagues.attach_session(game_id, session.id)
            await move(standin, bot, thread, first, f"A{session.state.piles[0] - 1}")
            table_clock.advance(AUTOPLAY_DELAY)
            await bot.scheduler.run_due()
            after = await bot.sessions.core.get(session.id)
            assert after.status == ("finished" if allow else "active")


async def test_a_clock_warning_due_in_quiet_hours_comes_when_they_end(standin, bot_factory, table_clock):
    """Alice wants DMs only, with quiet hours 23:00 to 02:00 (UTC); her 80 % comes at midnight
    (the manual clock starts at 08:00 UTC, the turn has 20 hours): the warning waits for 02:00,
    then says the time left then; it is not lost."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread = await dm_turn(standin, bot, chan, alice, bob, "move:20h", time_zone="UTC", quiet="23-2")

        table_clock.advance(16 * HOUR)  # 00:00 UTC: quiet
        await bot.scheduler.run_due()
        await settled(standin)
        assert clock_warnings(standin, alice) == []
        session = await bot.sessions.core.in_channel(thread.id)
        job = await warning_job(bot, thread)
        assert job is not None and job.due_at == table_clock.time() + 2 * HOUR
        table_clock.advance(2 * HOUR)  # 02:00: the quiet hours are over
        await bot.scheduler.run_due()
        (warning,) = clock_warnings(standin, alice)
        assert "2 hours left on your clock" in warning.content and f"**Nim** #{session.id}" in warning.content
        assert not [m for m in standin.messages(thread) if "80 %" in m.content]  # she wants no mention
        table_clock.advance(HOUR)
        await bot.scheduler.run_due()
        assert len(clock_warnings(standin, alice)) == 1


async def test_a_clock_warning_that_comes_during_time_away_waits_for_its_end(
    standin, bot_factory, table_clock
):
    """Alice's turn has 10 hours; she goes away for a day after 7 hours.  When her warning comes
    due (at 8 hours of the turn), her clock is paused: the warning is put off until an hour after
    her time away ends (when 80 % is used), not looked at again and again while she is away."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread = await dm_turn(standin, bot, chan, alice, bob, "move:10h")
        start = table_clock.time()
        table_clock.advance(7 * HOUR)
        await ok(standin, alice, chan, "me away", days=1)
        table_clock.advance(HOUR)
        await bot.scheduler.run_due()
        job = await warning_job(bot, thread)
        assert job is not None and job.due_at == start + 7 * HOUR + 24 * HOUR + HOUR
        table_clock.set(job.due_at)
        await bot.scheduler.run_due()
        (warning,) = clock_warnings(standin, alice)
        assert "2 hours left on your clock" in warning.content


async def test_a_clock_warning_put_off_by_time_away_comes_on_time_after_an_early_return(
    standin, bot_factory, table_clock
):
    """Alice's turn has 10 hours; she goes away for a day after 7 hours, so her warning is put
    off to the end of that day.  She comes back after 2 hours instead: her clock runs again with
    3 hours left, and the warning comes an hour later (at 80 % of her turn), before her time runs
    out, not a day later when the turn is long over."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await dm_turn(standin, bot, chan, alice, bob, "move:10h")
        table_clock.advance(7 * HOUR)
        await ok(standin, alice, chan, "me away", days=1)
        table_clock.advance(HOUR)
        await bot.scheduler.run_due()  # due now, put off: she is away
        table_clock.advance(HOUR)
        await ok(standin, alice, chan, "me back")
        await bot.scheduler.run_due()
        await settled(standin)
        # 2 of her 10 hours are used since she came back: 7 in all
        assert clock_warnings(standin, alice) == []
        table_clock.advance(HOUR)
        await bot.scheduler.run_due()
        await settled(standin)
        (warning,) = clock_warnings(standin, alice)
        assert "2 hours left on your clock" in warning.content


async def test_me_show_says_how_reminders_come_with_a_digest_and_the_time_away(
    standin, bot_factory, table_clock
):
    """Alice chose a daily digest at 18:00 and took two days away: /me show tells her the
    reminders come once a day at 18:00 (not "every 12 hours"), and until when she is away; once
    she is back and the digest is off, it says every 12 hours again, and nothing of time away."""
    (alice,) = standin.add_users("alice")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)):
        await standin.wait_synced()
        await ok(standin, alice, chan, "me notify", time_zone="America/Lima")
        await ok(standin, alice, chan, "me digest", at="18")
        await ok(standin, alice, chan, "me away", days=2)
        shown = await ok(standin, alice, chan, "me show")
        assert "Reminders: once a day at 18:00 (America/Lima) while it is your turn" in shown.content
        assert "every 12 hours" not in shown.content
        assert "Time away: until 2027-01-17 03:00 (America/Lima)" in shown.content
        await ok(standin, alice, chan, "me back")
        await ok(standin, alice, chan, "me digest", at="off")
        shown = await ok(standin, alice, chan, "me show")
        assert "Reminders: every 12 hours while it is your turn" in shown.content
        assert "Time away" not in shown.content


async def test_a_clock_warning_held_by_quiet_hours_waits_again_for_time_away_begun_meanwhile(
    standin, bot_factory, table_clock
):
    """Alice's turn has 20 hours from 08:00 UTC; her 80 % comes at midnight, in her quiet hours
    (23-2 UTC), so the DM waits for 02:00.  At 01:00 she goes away for a day: at 02:00 nothing is
    sent (no notices during time away).  When her time away ends (01:00, quiet again) the warning
    waits for 02:00 once more, and comes then, with the time her clock has left."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread = await dm_turn(standin, bot, chan, alice, bob, "move:20h", time_zone="UTC", quiet="23-2")

        async def due():
            return (await warning_job(bot, thread)).due_at

        table_clock.advance(16 * HOUR)  # 00:00: quiet, the warning waits for 02:00
        await bot.scheduler.run_due()
        table_clock.advance(HOUR)
        await ok(standin, alice, chan, "me away", days=1)
        table_clock.set(await due())  # 02:00
        await bot.scheduler.run_due()
        await settled(standin)
        assert clock_warnings(standin, alice) == []
        until = (await bot.store.people.person(alice.id)).away_until
        assert await due() == until  # 01:00 the next day: her time away is over
        table_clock.set(until)
        await bot.scheduler.run_due()
        await settled(standin)
        assert clock_warnings(standin, alice) == []  # quiet hours again
        table_clock.set(await due())  # 02:00
        await bot.scheduler.run_due()
        await settled(standin)
        (warning,) = clock_warnings(standin, alice)
        assert "2 hours left on your clock" in warning.content


def two_step_nim(monkeypatch) -> None:
    """Nim whose turn is two steps: the seat takes from pile A, then from pile B (told to the
    channel only when the turn ends); with one stone left in pile B, its second step is forced."""
    legal, apply = nim.legal_moves, nim.apply_move

    def legal_moves(state, seat):
        moves = legal(state, seat)
        return moves if seat == TABLE else [m for m in moves if m.pile == state.moves % 2]

    def apply_move(state, seat, move):
        if isinstance(move, nim.Move) and move.pile != state.moves % 2:
            raise IllegalMove("take from pile A, then from pile B")
        new, events = apply(state, seat, move)
        if state.moves % 2 == 0 and new.winner is None:
            new.turn = seat  # the turn goes on: its second step
        return new, events

    monkeypatch.setattr(nim, "legal_moves", legal_moves)
    monkeypatch.setattr(nim, "apply_move", apply_move)
    monkeypatch.setattr(nim, "turn_number", lambda state: state.moves // 2 + 1)


async def step(standin, bot, thread, user, text):
    """``user`` plays ``text``, a step inside their turn: answered, and no board posted."""
    before = len([m for m in standin.messages(thread) if is_board(m)])
    answer = await (await standin.slash(user, thread, "nim move", move=text)).original()
    assert "You played" in answer.content, answer.content
    await bot.front.catchup.drain()
    assert len([m for m in standin.messages(thread) if is_board(m)]) == before


async def test_a_forced_move_left_by_a_step_that_posts_no_board_is_played_after_the_delay(
    standin, bot_factory, table_clock, monkeypatch
):
    two_step_nim(monkeypatch)
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        for user in (alice, bob):
            await ok(standin, user, chan, "me autoplay", on=True)
        thread, _ = await open_game(standin, bot, chan, alice, bob, piles=2)
        first, session = await to_move(bot, thread, (alice, bob))
        second = bob if first is alice else alice
        await step(standin, bot, thread, first, "A1")
        await move(standin, bot, thread, first, f"B{session.state.piles[1] - 1}")  # one stone left in B
        await step(standin, bot, thread, second, "A1")
        session = await bot.sessions.core.in_channel(thread.id)
        seat = session.seat_of(second.id).seat
        assert session.to_move() == {seat}
        assert [str(m) for m in nim.legal_moves(session.state, seat)] == ["B1"]  # one legal move

        after = await after_the_delay(bot, table_clock, session)
        assert after.version > session.version and after.state.piles[1] == 0
        last = await standin.next_message(thread, is_board)
        name = session.by_seat(seat).name
        assert f"{name} had one legal move, `B1`; it was played for them" in last.content


async def test_a_forced_move_left_by_a_strong_computers_step_that_posts_no_board_is_played_after_the_delay(
    standin, bot_factory, table_clock, monkeypatch
):
    """Guanga dealt one order each (so keeping it is the only move): the first board arms Alice's
    forced keep; the strong computer then keeps its own order after that board, a step of the
    order round that posts none and changes the game, so the job armed by the board no longer
    fits it.  The computer's step arms it again: Alice's order is kept a minute after it, and
    the board's note does not name the order."""
    monkeypatch.setattr(guanga_data, "ORDERS_DEALT", 1)
    alice = standin.add_user("alice")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory((*EXTENSIONS, "cogs.guanga"), computer_seconds=0.02)) as bot:
        await standin.wait_synced()
        await ok(standin, alice, chan, "me autoplay", on=True)
        r = await standin.slash(alice, chan, "guanga new", mode="apprentice", players=2)
        lobby = await r.original(lambda m: "pk:lobby:join:" in " ".join(m.custom_ids))
        thread = standin.channel(lobby.id)
        added = await (await standin.slash(alice, thread, "game computer", level="strong")).original()
        assert "(strong)" in added.content, added.content
        await standin.click(alice, lobby, lobby_button(lobby, "start"))
        await standin.next_message(thread, is_board)
        await bot.front.catchup.drain()
        boards = len([m for m in standin.messages(thread) if is_board(m)])

        session = await bot.sessions.core.in_channel(thread.id)
        seat = session.seat_of(alice.id).seat
        log = await bot.store.history.moves(session.id)
        assert [m.by_computer for m in log] == [True]  # the computer kept its order, after the board
        assert session.to_move() == {seat}
        (only,) = guanga.legal_moves(session.state, seat)  # one legal move: keep her order
        assert len([m for m in standin.messages(thread) if is_board(m)]) == boards  # no board for it

        after = await after_the_delay(bot, table_clock, session)
        assert after.version > session.version and after.state.orders[seat] is not None
        last = await standin.next_message(thread, is_board)
        # her order is secret until the game ends: the note says a move was played, not which
        assert "Alice had one legal move; it was played for them" in last.content, last.content
        assert str(only) not in last.content and only.order not in last.content
        assert "Alice kept a secret order" in last.content

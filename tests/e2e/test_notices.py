"""Turn notices and reminders end to end: /me notify, DMs with a jump link and the board, a refused
DM and its fallback, reminders that fire after a restart, quiet hours."""

from __future__ import annotations

import io

from PIL import Image

from tests.e2e.conftest import BASE_EXTENSIONS
from tests.e2e.players import board_recorded, lobby_button, settled, start, to_move
from tests.support import nim

EXTENSIONS = (*BASE_EXTENSIONS, "cogs.me")


def is_board(message) -> bool:
    return bool(message.files) and not message.ephemeral


async def settings(standin, user, chan, **options):
    r = await standin.slash(user, chan, "me notify", **options)
    answer = await r.original()
    assert answer.ephemeral and answer.content.startswith("Saved."), answer.content
    return answer


async def start_game(standin, bot, chan, host, guest, piles=3):
    """A Nim game in its own thread, started; returns the thread and its first board."""
    r = await standin.slash(host, chan, "nim new", piles=piles)
    lobby = await r.original(lambda m: "pk:lobby:join:" in " ".join(m.custom_ids))
    thread = standin.channel(lobby.id)
    await standin.click(guest, lobby, lobby_button(lobby, "join"))  # labels are in the server's language
    await standin.click(host, lobby, lobby_button(lobby, "start"))
    board = await standin.next_message(thread, is_board)
    await bot.front.catchup.drain()  # the notices after the board (DMs, reminders) are sent
    return thread, board


async def quiet_lima_game(standin, bot, chan, alice, bob, reminders):
    """Alice and Bob want direct messages (a reminder every ``reminders`` hours, 0 for none) and
    quiet hours 22-7 in Lima; a Nim game between them starts at 03:00 there (the manual clock's
    start: 2027-01-15 08:00 UTC).  Its thread and the first to move."""
    for user in (alice, bob):
        await settings(
            standin, user, chan, where="dm", reminders=reminders, time_zone="America/Lima", quiet="22-7"
        )
    thread, _ = await start_game(standin, bot, chan, alice, bob)
    first, _ = await to_move(bot, thread, (alice, bob))
    await settled(standin)
    return thread, first


async def play_one(standin, bot, thread, users):
    """The player to move takes one stone; returns the next board."""
    user, session = await to_move(bot, thread, users)
    move = min(nim.legal_moves(session.state, session.seat_of(user.id).seat), key=lambda m: m.count)
    r = await standin.slash(user, thread, "nim move", move=str(move))
    await r.original()
    board = await standin.next_message(thread, is_board)
    await bot.front.catchup.drain()
    return board


async def test_me_notify_saves_settings_and_refuses_bad_ones(standin, bot_factory):
    alice = standin.add_user("alice")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        shown = await (await standin.slash(alice, chan, "me show")).original()
        assert "a mention in the game's thread" in shown.content and "every 12 hours" in shown.content
        await settings(standin, alice, chan, where="dm", reminders=6, time_zone="America/Lima", quiet="22-7")
        person = await bot.store.people.person(alice.id)
        assert (person.notify, person.remind_hours, person.time_zone) == ("dm", 6, "America/Lima")
        assert (person.quiet_start, person.quiet_end) == (22, 7)
        for options, expect in (
            ({"time_zone": "Mars/Olympus"}, "not a time zone"),
            ({"quiet": "25-3"}, "not a span of hours"),
            ({"quiet": "5-5"}, "different hours"),
        ):
            answer = await (await standin.slash(alice, chan, "me notify", **options)).original()
            assert answer.ephemeral and expect in answer.content and "Nothing was changed" in answer.content
        assert await bot.store.people.person(alice.id) == person
        zones = await standin.autocomplete(alice, chan, "me notify", "time_zone", time_zone="lima")
        assert [c["value"] for c in zones] == ["America/Lima"]
        shown = await (await standin.slash(alice, chan, "me show")).original()
        assert "a direct message" in shown.content and "22:00 to 07:00 (America/Lima)" in shown.content


async def test_a_dm_notice_has_the_game_the_server_a_jump_link_the_board_and_a_private_view(
    standin, bot_factory
):
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await settings(standin, alice, chan, where="dm")
        await settings(standin, bob, chan, where="dm")
        thread, board = await start_game(standin, bot, chan, alice, bob)
        first, session = await to_move(bot, thread, (alice, bob))
        assert first.id not in board.pinged  # DMs only: the board names them without a ping
        dm = await standin.next_message(standin.dm(first))
        assert f"**Nim** #{session.id} on **{standin.guild.name}**" in dm.content
        assert f"https://discord.com/channels/{standin.guild.id}/{thread.id}/{board.id}" in dm.content
        image = Image.open(io.BytesIO(bytes(dm.files[0])))
        assert image.format == "PNG"
        assert f"secret {session.state.secrets[session.seat_of(first.id).seat]}" not in dm.content

        # The next player's notice tells what happened since they last moved.
        board = await play_one(standin, bot, thread, (alice, bob))
        second, _ = await to_move(bot, thread, (alice, bob))
        dm2 = await standin.next_message(standin.dm(second))
        assert "Since your last move:" in dm2.content and first.name.title() in dm2.content
        view = await standin.click(second, dm2, "My view")
        answer = await view.original()
        assert answer.ephemeral and "Your view of **Nim**" in answer.content and answer.files


async def test_a_refused_dm_falls_back_to_a_mention_and_is_told_once(standin, bot_factory):
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        for user in (alice, bob):
            await settings(standin, user, chan, where="dm")
            standin.close_dms(user)
        thread, board = await start_game(standin, bot, chan, alice, bob)
        first, _ = await to_move(bot, thread, (alice, bob))
        fallback = await standin.next_message(
            thread, lambda m: "it is your turn" in m.content and not m.files
        )
        assert first.id in fallback.pinged and f"<@{first.id}>" in fallback.content
        assert standin.messages(standin.dm(first)) == []
        assert (await bot.store.people.person(first.id)).dm_failed
        r = await standin.slash(first, thread, "game status")
        told = await r.followups(1)
        assert told[0].ephemeral and "could not send you a direct message" in told[0].content
        again = await standin.slash(first, thread, "game status")
        await again.original()
        assert len(again.followup_messages) <= 0 or all(
            "direct message" not in m.content for m in again.followup_messages
        )
        assert not (await bot.store.people.person(first.id)).dm_failed


async def test_reminders_fire_after_a_restart_one_dm_for_all_games(standin, bot_factory, table_clock):
    alice, bob = standin.add_users("alice", "bob")
    games = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await settings(standin, alice, games, where="dm", reminders=6)
        threads = [(await start_game(standin, bot, games, alice, bob))[0] for _ in range(2)]
        # Make it alice's turn in both games.
        for thread in threads:
            first, _ = await to_move(bot, thread, (alice, bob))
            if first is bob:
                await play_one(standin, bot, thread, (alice, bob))
        assert (await bot.store.jobs.job("remind", str(alice.id))) is not None
        standin.skip_messages(standin.dm(alice))
    table_clock.advance(6 * 3600 - 5)
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        fired = await bot.scheduler.run_due()
        assert (await bot.store.jobs.job("remind", str(alice.id))).due_at > table_clock.time()
        table_clock.advance(5)
        fired = await bot.scheduler.run_due()
        assert fired >= 1
        digest = await standin.next_message(standin.dm(alice), lambda m: m.content.startswith("Reminder"))
        assert "your turn in 2 games" in digest.content
        for thread in threads:
            assert f"/{thread.id}" in digest.content
        assert "waiting 6 hours" in digest.content
        # Re-armed for the next interval, one job for all the games.
        job = await bot.store.jobs.job("remind", str(alice.id))
        assert job is not None and job.due_at == table_clock.time() + 6 * 3600
        assert [j.key for j in await bot.store.jobs.pending("remind")].count(str(alice.id)) == 1


async def test_a_reminder_armed_for_a_turn_already_played_waits_the_whole_interval_of_the_new_one(
    standin, bot_factory, table_clock
):
    """Alice wants a reminder every 12 hours.  Her first turn arms one; she moves an hour later,
    and her next turn begins at 11 hours.  The reminder armed for the first turn does not come an
    hour into the new one: it waits until that turn has waited 12 hours, and then says so."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        for user in (alice, bob):
            await settings(standin, user, chan, where="dm", reminders=12)
        thread, _ = await start_game(standin, bot, chan, alice, bob, piles=5)
        first, _ = await to_move(bot, thread, (alice, bob))
        table_clock.advance(3600)
        await play_one(standin, bot, thread, (alice, bob))  # first moves after an hour
        table_clock.advance(10 * 3600)
        await play_one(standin, bot, thread, (alice, bob))  # first's turn again, at 11 hours
        await settled(standin)
        standin.skip_messages(standin.dm(first))
        table_clock.advance(3600)  # 12 hours: when the first turn's reminder was due
        await bot.scheduler.run_due()
        await settled(standin)
        assert [m.content for m in standin.messages(standin.dm(first)) if "Reminder" in m.content] == []
        job = await bot.store.jobs.job("remind", str(first.id))
        assert job is not None and job.due_at == table_clock.time() + 11 * 3600
        table_clock.advance(11 * 3600)
        await bot.scheduler.run_due()
        digest = await standin.next_message(standin.dm(first), lambda m: m.content.startswith("Reminder"))
        assert "your turn in 1 game" in digest.content and "waiting 12 hours" in digest.content
        job = await bot.store.jobs.job("remind", str(first.id))
        assert job is not None and job.due_at == table_clock.time() + 12 * 3600


async def test_quiet_hours_hold_dms_and_reminders_back(standin, bot_factory, table_clock):
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    # The manual clock starts at 2027-01-15 08:00 UTC: 03:00 in Lima.
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread, first = await quiet_lima_game(standin, bot, chan, alice, bob, 1)
        assert standin.messages(standin.dm(first)) == []  # quiet: no DM now
        table_clock.advance(3600)  # 04:00 in Lima: the reminder waits for 07:00
        assert await bot.scheduler.run_due() == 1
        job = await bot.store.jobs.job("remind", str(first.id))
        assert job.due_at == table_clock.time() + 3 * 3600
        assert standin.messages(standin.dm(first)) == []
        table_clock.advance(3 * 3600)
        assert await bot.scheduler.run_due() == 1
        digest = await standin.next_message(standin.dm(first))
        assert "your turn in 1 game" in digest.content


async def test_a_turn_notice_due_in_quiet_hours_comes_when_they_end_even_without_reminders(
    standin, bot_factory, table_clock
):
    """Alice and Bob want DMs, no reminders, quiet hours 22-7 in Lima; the game starts at 03:00
    there.  The first to move is told nothing now, and once at 07:00, when the quiet hours end
    (the DM waits, it is not lost); nothing more comes after (they want no reminders), and nothing
    comes at 07:00 to someone who moved meanwhile."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread, first = await quiet_lima_game(standin, bot, chan, alice, bob, 0)
        second = bob if first is alice else alice
        assert standin.messages(standin.dm(first)) == []
        job = await bot.store.jobs.job("remind", str(first.id))
        assert job is not None and job.due_at == table_clock.time() + 4 * 3600  # 07:00 in Lima
        table_clock.advance(4 * 3600)
        assert await bot.scheduler.run_due() == 1
        (told,) = standin.messages(standin.dm(first))
        assert "your turn in 1 game" in told.content and f"/{thread.id}" in told.content
        assert await bot.store.jobs.job("remind", str(first.id)) is None  # no reminders after it
        table_clock.advance(15 * 3600)  # 22:00 in Lima: quiet again; first moves, second's turn
        await play_one(standin, bot, thread, (alice, bob))
        await settled(standin)
        assert standin.messages(standin.dm(second)) == []
        assert await bot.store.jobs.job("remind", str(second.id)) is not None
        await play_one(standin, bot, thread, (alice, bob))  # second moves before 07:00
        table_clock.advance(9 * 3600)
        await bot.scheduler.run_due()
        await settled(standin)
        assert standin.messages(standin.dm(second)) == []


async def test_game_mine_lists_games_and_lobbies_across_two_servers(standin, bot_factory, table_clock):
    alice, bob, carol = standin.add_users("alice", "bob", "carol")
    other = standin.add_guild("Second server")
    for user in (alice, bob):
        standin.join(user, other)
    async with standin.run_client(bot_factory(EXTENSIONS, dev_guild_id=None)) as bot:  # global commands
        await standin.wait_synced()
        here, there = standin.channel("games"), other.channel("games")
        thread, _ = await start_game(standin, bot, here, alice, bob)
        table_clock.advance(3 * 3600)
        r = await standin.slash(bob, there, "nim new", thread=False)
        lobby = await r.original()
        await standin.click(alice, lobby, "Join")
        await standin.click(bob, lobby, "Start")
        await standin.next_message(there, is_board)
        await board_recorded(standin, bot, there)  # (the link to a game is its recorded board's)
        await (
            await standin.slash(carol, here, "nim new", thread=False)
        ).original()  # alice does not sit here
        table_clock.advance(2 * 3600)
        await (await standin.slash(bob, here, "game list")).original()
        answer = await (await standin.slash(alice, here, "game mine")).original()
        text = answer.content
        assert answer.ephemeral and answer.visible_to == frozenset({alice.id})
        assert "**Your games** (2 games" in text
        assert standin.guild.name in text and "Second server" in text
        assert f"https://discord.com/channels/{standin.guild.id}/{thread.id}/" in text
        assert f"https://discord.com/channels/{other.id}/{there.id}/" in text
        assert "waiting 5 hours; no turn timer" in text and "waiting 2 hours; no turn timer" in text
        first, _ = await to_move(bot, thread, (alice, bob))
        second_session = await bot.sessions.core.in_channel(there.id)
        (seat,) = second_session.to_move()
        mine_first = [first is alice, second_session.by_seat(seat).user_id == alice.id]
        entries = text.split("\n**")[1:]
        turn_entries = [e for e in entries if "your turn" in e]
        assert len(turn_entries) == sum(mine_first)
        assert entries[: len(turn_entries)] == turn_entries  # their turn first
        lobby_only = await (await standin.slash(carol, here, "game mine")).original()
        assert "lobby, 1 seat of 2 taken" in lobby_only.content


async def test_away_pauses_clocks_in_two_games_and_back_restarts_them(standin, bot_factory, table_clock):
    alice, bob = standin.add_users("alice", "bob")
    games = standin.channel("games")
    hour = 3600
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        threads = [(await start_game(standin, bot, games, alice, bob, piles=5))[0] for _ in range(2)]
        for thread in threads:
            first, _ = await to_move(bot, thread, (alice, bob))
            if first is bob:
                await play_one(standin, bot, thread, (alice, bob))
        for thread in threads:
            await (await standin.slash(alice, thread, "game timer", hours=24)).original()
        t0 = table_clock.time()
        versions = [(await bot.sessions.core.in_channel(t.id)).version for t in threads]

        table_clock.advance(hour)
        r = await (await standin.slash(alice, games, "me away", days=2, reason="a trip")).original()
        assert "You are away until" in r.content and "28 days of time away are left" in r.content
        until = t0 + hour + 2 * 86400
        for thread in threads:
            status = await (await standin.slash(bob, thread, "game status")).original()
            assert "Alice, away until" in status.content

        # The 24-hour timers would run out now: the clocks are paused, nothing is played.
        table_clock.advance(23 * hour)
        await bot.scheduler.run_due()
        for thread, version in zip(threads, versions, strict=True):
            session = await bot.sessions.core.in_channel(thread.id)
            assert session.version == version
            job = await bot.store.jobs.job("deadline", str(session.id))
            assert job.due_at == until + 23 * hour  # the 23 hours alice had left when she went away
            assert not [m for m in standin.messages(thread) if "Time is up" in m.content]
            status = await (await standin.slash(bob, thread, "game status")).original()
            assert "⏱ 2 days left for Alice (turn timer 24 h)" in status.content

        # Back a day later: the clocks run again from now with what was left.
        table_clock.advance(hour)
        back = await (await standin.slash(alice, games, "me back")).original()
        assert "Welcome back" in back.content and "29 days" in back.content
        await bot.scheduler.run_due()
        for thread in threads:
            job = await bot.store.jobs.job(
                "deadline", str((await bot.sessions.core.in_channel(thread.id)).id)
            )
            assert job.due_at == table_clock.time() + 23 * hour
        table_clock.advance(23 * hour)
        await bot.scheduler.run_due()
        for thread, version in zip(threads, versions, strict=True):
            await standin.next_message(thread, lambda m: "Time is up" in m.content)  # the table skipped her
            assert (await bot.sessions.core.in_channel(thread.id)).version == version + 1
        refused = await (await standin.slash(alice, games, "me back")).original()
        assert "not away" in refused.content
        too_long = await (await standin.slash(alice, games, "me away", days=30)).original()
        assert "you can still take this year: 1 to 29 (30 a year), not 30" in too_long.content


async def test_a_dm_is_written_in_the_persons_language_as_last_seen_else_the_servers(standin, bot_factory):
    """Discord gives a person's language only with an interaction: the table keeps the last one
    seen and writes that person's DMs in it; a person never seen gets the server's language."""
    ana, bob = standin.add_users("ana", "bob")
    ana.locale = "es-ES"  # a Spanish client in an English server
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await settings_in(standin, ana, chan, "Guardado.", where="dm")
        await settings(standin, bob, chan, where="dm")
        assert (await bot.store.people.person(ana.id)).locale == "es-ES"
        assert (await bot.store.people.person(bob.id)).locale == "en-US"
        thread, board = await start_game(standin, bot, chan, ana, bob)
        for _ in range(2):  # each gets a turn notice
            first, session = await to_move(bot, thread, (ana, bob))
            dm = await standin.next_message(standin.dm(first))
            if first is ana:
                assert dm.content.startswith(
                    f"Es tu turno en **Nim** #{session.id} en **{standin.guild.name}**."
                )
                assert (
                    "Juega allí: https://discord.com/channels/" in dm.content
                    and "your turn" not in dm.content
                )
                assert [b["label"] for b in dm.buttons] == ["Mi vista"]
                view = await (await standin.click(ana, dm, "Mi vista")).original()
                assert view.ephemeral and view.files  # the button still works, whatever its label
            else:
                assert dm.content.startswith(f"It is your turn in **Nim** #{session.id}")
                assert [b["label"] for b in dm.buttons] == ["My view"]
            await play_one(standin, bot, thread, (ana, bob))
        # Ana's client switches to English: her next interaction is kept, and her DMs follow it.
        ana.locale = "en-GB"
        await (await standin.slash(ana, chan, "me show")).original()
        assert (await bot.store.people.person(ana.id)).locale == "en-GB"


async def test_a_person_never_seen_gets_dms_in_the_servers_language(standin, bot_factory, monkeypatch):
    """With no locale kept for a person (their last interaction came before the bot kept them: the
    keeping is switched off here), their DMs are in the server's language."""
    from bot.surface.direct import Notifier

    async def forget(self, user_id, locale):
        return None

    monkeypatch.setattr(Notifier, "remember_locale", forget)
    ana, bob = standin.add_users("ana", "bob")
    standin.guild.locale = "es-419"  # a Spanish server; both clients are en-US
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await settings_in(standin, ana, chan, "Saved.", where="dm")  # a private answer: her client's English
        await settings_in(standin, bob, chan, "Saved.", where="dm")
        assert (await bot.store.people.person(ana.id)).locale is None
        thread, _ = await start_game(standin, bot, chan, ana, bob)
        first, session = await to_move(bot, thread, (ana, bob))
        dm = await standin.next_message(standin.dm(first))
        assert dm.content.startswith(f"Es tu turno en **Nim** #{session.id}")
        assert [b["label"] for b in dm.buttons] == ["Mi vista"]


async def settings_in(standin, user, chan, saved: str, **options):
    r = await standin.slash(user, chan, "me notify", **options)
    answer = await r.original()
    assert answer.ephemeral and answer.content.startswith(saved), answer.content
    return answer


async def test_a_dm_notice_keeps_the_newest_lines_and_counts_the_older_ones_left_out(
    standin, bot_factory, table_clock
):
    """Alice's turns run out while Bob keeps moving: her notice has more lines than it shows; the
    turn just before hers is shown, and a first line counts the older lines left out."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await settings(standin, alice, chan, where="dm", reminders=0)
        await settings(standin, bob, chan, where="thread", reminders=0)
        thread, _ = await start_game(standin, bot, chan, alice, bob, piles=5)
        first, _ = await to_move(bot, thread, (alice, bob))
        if first is bob:
            await play_one(standin, bot, thread, (alice, bob))
        await (await standin.slash(alice, thread, "game timer", hours=1)).original()
        for _ in range(7):  # alice runs out of time, bob moves: two lines a round, none of them hers
            table_clock.advance(3601)
            await bot.scheduler.run_due()
            await standin.next_message(thread, lambda m: "Time is up" in m.content)
            await bot.front.catchup.drain()
            await play_one(standin, bot, thread, (alice, bob))
        dm = standin.messages(standin.dm(alice))[-1]
        listed = [line[2:] for line in dm.content.splitlines() if line.startswith("- ")]
        session = await bot.sessions.core.in_channel(thread.id)
        newest = (await bot.sessions.logbook.log(session, last=1))[-1]
        assert newest.seat == session.seat_of(bob.id).seat
        assert len(listed) == 10
        assert listed[0].startswith("… ") and "earlier lines left out (see /game log)" in listed[0]
        assert listed[-1].startswith("Bob took 1 from pile ") and "more line" not in dm.content


async def test_the_end_of_a_game_reaches_every_player_as_they_chose(standin, bot_factory, table_clock):
    """The last board names every player: those who want a mention are pinged by it, those who
    want a DM get the result by DM (in their quiet hours, when those end), and a refused DM
    becomes a mention."""
    alice, bob, carol, dave = standin.add_users("alice", "bob", "carol", "dave")
    chan = standin.channel("games")
    users = (alice, bob, carol, dave)
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await settings(standin, alice, chan, where="both", reminders=0)
        await settings(standin, bob, chan, where="dm", reminders=0)
        await settings(standin, carol, chan, where="dm", reminders=0)
        standin.close_dms(carol)
        # the manual clock reads 08:00 UTC: dave's quiet hours hold
        await settings(standin, dave, chan, where="dm", reminders=0, time_zone="UTC", quiet="7-9")
        r = await standin.slash(alice, chan, "nim new", piles=1, players=4)
        lobby = await r.original(lambda m: "pk:lobby:join:" in " ".join(m.custom_ids))
        thread = standin.channel(lobby.id)
        for guest in (bob, carol, dave):
            await standin.click(guest, lobby, lobby_button(lobby, "join"))
        await standin.click(alice, lobby, lobby_button(lobby, "start"))
        await standin.next_message(thread, is_board)
        await bot.front.catchup.drain()
        session = await bot.sessions.core.in_channel(thread.id)
        for _ in range(40):
            session = await bot.sessions.core.get(session.id)
            if session.status != "active":
                break
            await play_one(standin, bot, thread, users)
        assert session.status == "finished"

        (last,) = [m for m in standin.messages(thread) if is_board(m) and "**Game over**" in m.content]
        assert all(f"<@{u.id}>" in last.content for u in users), last.content
        assert set(last.pinged) == {alice.id}
        link = f"https://discord.com/channels/{standin.guild.id}/{thread.id}/{last.id}"
        for user in (alice, bob):
            (told,) = [m for m in standin.messages(standin.dm(user)) if "is over" in m.content]
            assert told.content.startswith(f"**Nim** #{session.id} on **{standin.guild.name}** is over.")
            assert "**Game over**" in told.content and "1st: " in told.content and link in told.content
        assert not [m for m in standin.messages(standin.dm(dave)) if "is over" in m.content]
        (fallback,) = [m for m in standin.messages(thread) if "this game is over" in m.content]
        assert fallback.content.startswith(f"<@{carol.id}>") and set(fallback.pinged) == {carol.id}

        # 09:00: dave's quiet hours end, and the result he was not told at 08:00 comes then, once.
        table_clock.advance(3600 - 1)
        await bot.scheduler.run_due()
        assert not [m for m in standin.messages(standin.dm(dave)) if "is over" in m.content]
        table_clock.advance(1)
        await bot.scheduler.run_due()
        (told,) = [m for m in standin.messages(standin.dm(dave)) if "is over" in m.content]
        assert "**Game over**" in told.content and link in told.content
        table_clock.advance(86400)
        await bot.scheduler.run_due()
        assert len([m for m in standin.messages(standin.dm(dave)) if "is over" in m.content]) == 1


async def test_reminders_put_off_by_time_away_start_again_when_she_comes_back_early(
    standin, bot_factory, table_clock
):
    """Alice wants a reminder every 2 hours.  Her reminder comes due while she is away for 3 days,
    so it waits for the end of her time away; she comes back after 5 hours instead, and her
    reminders start again then (one now, the next 2 hours later), not three days later."""
    alice, bob = standin.add_users("alice", "bob")
    games = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await settings(standin, alice, games, where="dm", reminders=2)
        thread, _ = await start_game(standin, bot, games, alice, bob)
        first, _ = await to_move(bot, thread, (alice, bob))
        if first is bob:
            await play_one(standin, bot, thread, (alice, bob))
        table_clock.advance(3600)
        assert not (
            await (await standin.slash(alice, games, "me away", days=3)).original()
        ).content.startswith("⚠️")
        table_clock.advance(3600)
        await bot.scheduler.run_due()  # due while she is away: none is sent
        await settled(standin)

        def reminders():
            return [m for m in standin.messages(standin.dm(alice)) if m.content.startswith("Reminder")]

        assert reminders() == []
        table_clock.advance(3 * 3600)
        back = await (await standin.slash(alice, games, "me back")).original()
        assert "Welcome back" in back.content
        await bot.scheduler.run_due()
        await settled(standin)
        assert len(reminders()) == 1 and "your turn in 1 game" in reminders()[0].content
        table_clock.advance(2 * 3600)
        await bot.scheduler.run_due()
        await settled(standin)
        assert len(reminders()) == 2


async def test_reminders_turned_on_during_a_turn_remind_of_the_games_already_waiting(
    standin, bot_factory, table_clock
):
    """Alice had reminders off when her turns began in two games.  She turns them on (every 3
    hours), then shortens them to every hour while a 3-hour one is armed: the first reminder
    comes an hour later, listing both games, though no turn of hers began since."""
    alice, bob = standin.add_users("alice", "bob")
    games = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await settings(standin, alice, games, where="dm", reminders=0)
        threads = [(await start_game(standin, bot, games, alice, bob))[0] for _ in range(2)]
        for thread in threads:
            first, _ = await to_move(bot, thread, (alice, bob))
            if first is bob:
                await play_one(standin, bot, thread, (alice, bob))
        assert await bot.store.jobs.job("remind", str(alice.id)) is None
        table_clock.advance(3600)
        await settings(standin, alice, games, reminders=3)
        job = await bot.store.jobs.job("remind", str(alice.id))
        assert job is not None and job.due_at == table_clock.time() + 3 * 3600
        await settings(standin, alice, games, reminders=1)
        table_clock.advance(3600)
        await bot.scheduler.run_due()
        digest = await standin.next_message(standin.dm(alice), lambda m: m.content.startswith("Reminder"))
        assert "your turn in 2 games" in digest.content
        job = await bot.store.jobs.job("remind", str(alice.id))
        assert job is not None and job.due_at == table_clock.time() + 3600


async def test_a_turn_timer_shows_the_time_away_at_once(standin, bot_factory, table_clock):
    """Alice's turn has a 24-hour timer; an hour in, she goes away for 2 days.  Her timer is
    paused: /game status and /game mine say at once that the table acts in 2 days 23 hours (when
    her time away has ended and her 23 hours have run), not in 23 hours."""
    alice, bob = standin.add_users("alice", "bob")
    games = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread, _ = await start_game(standin, bot, games, alice, bob)
        first, _ = await to_move(bot, thread, (alice, bob))
        if first is bob:
            await play_one(standin, bot, thread, (alice, bob))
        await (await standin.slash(alice, thread, "game timer", hours=24)).original()
        table_clock.advance(3600)
        away = await (await standin.slash(alice, games, "me away", days=2)).original()
        assert "You are away until" in away.content
        await bot.scheduler.run_due()
        status = await (await standin.slash(bob, thread, "game status")).original()
        assert "⏱ 2 days 23 hours left for Alice (turn timer 24 h)" in status.content
        mine = await (await standin.slash(bob, games, "game mine")).original()
        assert "⏱ 2 days 23 hours left for Alice" in mine.content


async def test_someone_who_left_a_server_gets_no_reminders_or_mine_lines_for_its_games(
    standin, bot_factory, table_clock
):
    """Alice has her turn in a game on each of two servers, then leaves the first: her reminder
    and her ``/game mine`` (asked on the second) list only the second server's game."""
    alice, bob = standin.add_users("alice", "bob")
    other = standin.add_guild("Second server")
    for user in (alice, bob):
        standin.join(user, other)
    async with standin.run_client(bot_factory(EXTENSIONS, dev_guild_id=None)) as bot:  # global commands
        await standin.wait_synced()
        here, there = standin.channel("games"), other.channel("games")
        await settings(standin, alice, here, where="dm", reminders=6)
        left_thread, _ = await start_game(standin, bot, here, alice, bob)
        stay_thread, _ = await start_game(standin, bot, there, alice, bob)
        for thread in (left_thread, stay_thread):
            first, _ = await to_move(bot, thread, (alice, bob))
            if first is bob:
                await play_one(standin, bot, thread, (alice, bob))
        await bot.front.catchup.drain()
        standin.skip_messages(standin.dm(alice))
        standin.leave(alice, standin.guild)
        table_clock.advance(6 * 3600)
        await bot.scheduler.run_due()
        digest = await standin.next_message(standin.dm(alice), lambda m: m.content.startswith("Reminder"))
        assert "your turn in 1 game:" in digest.content, digest.content
        assert f"/{stay_thread.id}" in digest.content and f"/{left_thread.id}" not in digest.content
        mine = await (await standin.slash(alice, there, "game mine")).original()
        assert f"/{stay_thread.id}/" in mine.content and f"/{left_thread.id}/" not in mine.content
        assert standin.guild.name not in mine.content


async def test_a_turn_keeps_its_wait_while_others_move_and_starts_again_after_her_own_move(
    standin, bot_factory, table_clock
):
    """Nowa Gwinea, three builders at once.  Alice wants a reminder every 24 hours.  Bob finishes
    his round after 20 hours: Alice has still waited 20 hours (not 5 minutes), and her reminder
    still comes at 24 hours, saying so.  Once she finishes building herself, the game waits on
    Carol, since the start; Alice's next turn's wait starts at the next round."""
    alice, bob, carol = standin.add_users("alice", "bob", "carol")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory((*EXTENSIONS, "cogs.nowa_gwinea"))) as bot:
        await standin.wait_synced()
        await settings(standin, alice, chan, where="dm", reminders=24)
        await start(standin, bot, chan, "nowa_gwinea", (alice, bob, carol), seed=3)
        await bot.front.catchup.drain()
        began = table_clock.time()
        assert (await bot.store.jobs.job("remind", str(alice.id))).due_at == began + 24 * 3600

        async def done(user):
            await (await standin.slash(user, chan, "nowa_gwinea move", move="done")).original()
            await settled(standin)
            await bot.front.catchup.drain()

        async def mine() -> str:
            return (await (await standin.slash(alice, chan, "game mine")).original()).content

        table_clock.advance(20 * 3600)
        await done(bob)
        table_clock.advance(300)
        assert "your turn (with Carol), waiting 20 hours" in await mine()
        assert (await bot.store.jobs.job("remind", str(alice.id))).due_at == began + 24 * 3600
        # a board posted for those to move (a call of Gwinea! is one) looks at her reminder again:
        # it stays when her wait reaches 24 hours
        session = await bot.sessions.core.in_channel(chan.id)
        person = await bot.store.people.person(alice.id)
        await bot.front.reminders.arm_reminder(session, person, table_clock.time())
        assert (await bot.store.jobs.job("remind", str(alice.id))).due_at == began + 24 * 3600
        standin.skip_messages(standin.dm(alice))
        table_clock.advance(4 * 3600 - 300)
        await bot.scheduler.run_due()
        digest = await standin.next_message(standin.dm(alice), lambda m: m.content.startswith("Reminder"))
        assert "waiting 24 hours" in digest.content

        table_clock.advance(3600)
        await done(alice)
        table_clock.advance(3600)
        # on someone else: how long the one waited on longest has waited (Carol, since the start)
        assert "Carol to play, waiting 26 hours" in await mine()
        await done(carol)  # the round ends: a new one, everyone to build
        table_clock.advance(600)
        assert "waiting 10 minutes" in await mine()

"""Reliability and pace end to end: games played through the stand-in (finished, abandoned, timed
out), then /me profile (words and picture) against a hand count; /gate table refusing a person
below the minimum and admitting one above; the cap refusing a fourth game of a new player."""

from __future__ import annotations

import asyncio

import pytest

from bot import profiles
from tests.e2e.conftest import BASE_EXTENSIONS, png_of
from tests.e2e.players import lobby_button, settled, to_move
from tests.e2e.test_notices import is_board
from tests.support import nim

EXTENSIONS = (*BASE_EXTENSIONS, "cogs.me", "cogs.gates")
HOUR = 3600


@pytest.fixture(autouse=True)
def no_table_moves(monkeypatch):
    """A late turn is played by the computer (no Nim table move)."""
    monkeypatch.setattr(nim, "TABLE_MOVES", False)


def is_lobby(message) -> bool:
    return "pk:lobby:join:" in " ".join(message.custom_ids)


async def open_lobby(standin, host):
    """A Nim lobby (one pile) opened in #games; its game's thread."""
    r = await standin.slash(host, standin.channel("games"), "nim new", piles=1)
    lobby = await r.original(is_lobby)
    return standin.channel(lobby.id), lobby


async def open_game(standin, host, guest):
    """A started two-player game; its thread."""
    thread, lobby = await open_lobby(standin, host)
    await standin.click(guest, lobby, lobby_button(lobby, "join"))
    await standin.click(host, lobby, lobby_button(lobby, "start"))
    await standin.next_message(thread, is_board)
    return thread


async def running(bot, thread) -> bool:
    session = await bot.sessions.core.in_channel(thread.id)
    return session is not None and session.status == "active"


async def move(
    standin, bot, table_clock, chan, users, hours: float, ledger: list, late: bool, *, take: int = 1
):
    """The player to move waits ``hours``, then takes ``take`` stones; the hand ledger notes the
    turn (``late``: as the test chose the wait)."""
    user, session = await to_move(bot, chan, users)
    table_clock.advance(hours * HOUR)
    r = await standin.slash(user, chan, "nim move", move=f"A{take}")
    assert "You played" in (await r.original()).text
    ledger.append((user.id, hours, late))
    await bot.front.catchup.drain()
    return user


async def test_a_profile_after_finished_abandoned_and_timed_out_games_matches_a_hand_count(
    standin, bot_factory, table_clock
):
    alice, bob = standin.add_users("alice", "bob")
    users = (alice, bob)
    ledger: list[tuple[int, float, bool]] = []
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        # Game one, no clock (reminders every 12 h): Alice's turns take 1 h, Bob's 13 h (late);
        # one stone a turn until the pile is gone: finished.
        one = await open_game(standin, alice, bob)
        while await running(bot, one):
            user, _ = await to_move(bot, one, users)
            slow = user is bob
            await move(standin, bot, table_clock, one, users, 13 if slow else 1, ledger, late=slow)
        # Game two: two turns of 2 h, then the host abandons it.
        two = await open_game(standin, bob, alice)
        await move(standin, bot, table_clock, two, users, 2, ledger, late=False)
        await move(standin, bot, table_clock, two, users, 2, ledger, late=False)
        await (await standin.slash(bob, two, "game abandon")).original()
        # Game three, a turn timer of one hour: the first to move takes 30 minutes, the next lets
        # the timer run out (the computer plays for them), then the host abandons it.
        three = await open_game(standin, alice, bob)
        first = await move(standin, bot, table_clock, three, users, 0.5, ledger, late=False)
        await (await standin.slash(alice, three, "game timer", hours=1)).original()
        late_user, _ = await to_move(bot, three, users)
        assert late_user is not first
        table_clock.advance(2 * HOUR)
        assert await bot.scheduler.run_due() >= 1
        await bot.front.catchup.drain()
        if await running(bot, three):  # the computer may have won it for the late player
            await (await standin.slash(alice, three, "game abandon")).original()
        third = (await bot.sessions.store.games.last_session(three.id)).status

        def hand(user) -> tuple[int, int, list[float]]:
            mine = [(h, late) for u, h, late in ledger if u == user.id]
            return len(mine), sum(1 for _, late in mine if not late), sorted(h for h, _ in mine)

        for user in users:
            turns, on_time, hours = hand(user)
            missed = 1 if user is late_user else 0
            turns += missed
            median = (hours[(len(hours) - 1) // 2] + hours[len(hours) // 2]) / 2
            reliability = (100 * (on_time + 8)) // (turns + 10)
            r = await standin.slash(alice, standin.channel("games"), "me profile", person=user)
            answer = await r.original()
            assert answer.ephemeral
            text = answer.content
            assert f"Reliability: {reliability} %." in text, text
            said = "1 missed: the computer played it." if missed else "None missed."
            assert f"of {turns} turns. {said}" in text, text
            assert f"On time: {100 * on_time / turns:.0f} %" in text, text
            time = (
                f"{int(median)} h" if median == int(median) else f"{int(median)} h {int(median % 1 * 60)} min"
            )
            assert f"median time to move {time}." in text, (time, text)
            # the game's median is over the turns they made themselves, a missed one left out
            made = turns - missed
            assert f"Nim: median time to move {time} over {made} turn{'s' if made != 1 else ''}." in text, (
                text
            )
            if missed:  # game three: timed out, however it ended
                ended = "1 finished, 1 abandoned, 1 timed out"
            elif third == "finished":
                ended = "2 finished, 1 abandoned, 0 timed out"
            else:
                ended = "1 finished, 2 abandoned, 0 timed out"
            assert f"3 games ended: {ended}, 0 resigned." in text, text
            image = png_of(answer)
            assert image.width == 800 and image.height > 300
            assert (answer.files[0].description or "").startswith(f"{user.name.title()}'s reliability")

        # A new player's profile says they start neutral.
        carol = standin.add_users("carol")[0]
        answer = await (await standin.slash(carol, standin.channel("games"), "me profile")).original()
        assert "New player: no turns yet, so the reliability starts neutral at 80 %" in answer.content


async def test_a_gated_table_refuses_a_person_below_the_minimum_and_admits_one_above(
    standin, bot_factory, table_clock
):
    alice, bob, carol = standin.add_users("alice", "bob", "carol")
    ledger: list = []
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        # Bob is late in every turn of one game (no clock: later than 12 h); Alice is on time.
        one = await open_game(standin, alice, bob)
        while await running(bot, one):
            user, _ = await to_move(bot, one, (alice, bob))
            await move(standin, bot, table_clock, one, (alice, bob), 20 if user is bob else 1, ledger, False)
        two, lobby = await open_lobby(standin, carol)
        refused = await (await standin.slash(bob, two, "gate table", reliability=80)).original()
        assert refused.ephemeral and "Only the host" in refused.content
        answer = await (await standin.slash(carol, two, "gate table", reliability=80)).original()
        assert "This table asks for reliability 80 % or more of who joins" in answer.content
        assert (
            "This table asks for reliability 80 % or more (/gate table)." in standin.message(lobby.id).content
        )
        assert "Carol: new player (reliability 80 %)" in standin.message(lobby.id).content
        joined = await standin.click(bob, lobby, lobby_button(lobby, "join"))
        words = (await joined.original()).content
        assert (
            "our reliability is" in words
            and "this table asks for 80 %" in words
            and "more turns on time" in words
        )
        session = await bot.sessions.core.in_channel(two.id)
        assert [s.user_id for s in session.seats] == [carol.id]
        await standin.click(alice, lobby, lobby_button(lobby, "join"))
        session = await bot.sessions.core.in_channel(two.id)
        assert [s.user_id for s in session.seats] == [carol.id, alice.id]
        assert "Alice: reliability" in standin.message(lobby.id).content


async def at_the_cap(standin, hosts, dora):
    """Four Nim lobbies, one of each host's; ``dora``, a new player, sits at the first three (her
    cap: 3).  The lobbies' threads and messages."""
    await standin.wait_synced()
    threads, lobbies = zip(*[await open_lobby(standin, host) for host in hosts], strict=True)
    for lobby in lobbies[:3]:
        await standin.click(dora, lobby, lobby_button(lobby, "join"))
    return threads, lobbies


async def test_the_cap_refuses_a_fourth_running_game_for_a_new_player(standin, bot_factory):
    hosts = standin.add_users("h1", "h2", "h3", "h4")
    dora = standin.add_users("dora")[0]
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        threads, lobbies = await at_the_cap(standin, hosts, dora)
        r = await standin.click(dora, lobbies[3], lobby_button(lobbies[3], "join"))
        words = (await r.original()).content
        assert "have 3 games running or waiting in this server and the most is 3" in words, words
        assert "finish a game to take another seat" in words
        session = await bot.sessions.core.in_channel(threads[3].id)
        assert [s.user_id for s in session.seats] == [hosts[3].id]
        mine = await (await standin.slash(dora, standin.channel("games"), "nim new")).original()
        assert "the most is 3" in mine.content  # nor may she open a fourth
        shown = await (await standin.slash(dora, threads[3], "gate show")).original()
        assert "You may not take a seat" in shown.content
        lifted = await (await standin.slash(hosts[0], threads[0], "gate server", cap=0)).original()
        assert "Manage Server" in lifted.content


async def live_seats(bot, user) -> int:
    return sum(g.status in ("lobby", "active") for g in await bot.store.profiles.games_of(user.id))


async def test_six_tables_opened_at_once_by_a_new_player_open_three(standin, bot_factory):
    """The cap holds for requests sent together: six ``/nim new`` at once in #games (each lobby
    opens a thread of its own) open three lobbies; the other three are refused with the cap's
    words."""
    dora = standin.add_users("dora")[0]
    channels = [standin.channel("games")] * 6
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        sent = await asyncio.gather(
            *(standin.slash(dora, channel, "nim new", piles=1, wait=False) for channel in channels)
        )
        await settled(standin)
        answers = [standin.message((await r.original()).id).content for r in sent]
        assert await live_seats(bot, dora) == 3
        refused = [a for a in answers if a.startswith("No game was opened") and "the most is 3" in a]
        assert len(refused) == 3, answers


async def test_three_lobbies_joined_at_once_at_two_seats_from_the_cap_seat_one(standin, bot_factory):
    """Dora holds two seats (one under her cap of three) and presses Join on three lobbies at
    once: one seats her, the other two refuse her with the cap's words."""
    hosts = standin.add_users("h1", "h2", "h3", "h4", "h5")
    dora = standin.add_users("dora")[0]
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        lobbies = [(await open_lobby(standin, host))[1] for host in hosts]
        for lobby in lobbies[:2]:
            await standin.click(dora, lobby, lobby_button(lobby, "join"))
        pressed = await asyncio.gather(
            *(standin.click(dora, lobby, lobby_button(lobby, "join"), wait=False) for lobby in lobbies[2:])
        )
        await settled(standin)
        words = [(await r.original()).content for r in pressed]
        assert await live_seats(bot, dora) == 3
        assert sum("the most is 3" in w for w in words) == 2, words


async def test_gate_show_in_a_lobby_the_person_sits_in_does_not_count_that_seat_against_the_cap(
    standin, bot_factory
):
    hosts = standin.add_users("h1", "h2", "h3", "h4")
    dora = standin.add_users("dora")[0]
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        threads, lobbies = await at_the_cap(standin, hosts, dora)
        # Her three seats reach the cap of a new player: one more table is refused ...
        elsewhere = await (await standin.slash(dora, threads[3], "gate show")).original()
        assert "You may not take a seat" in elsewhere.content
        # ... but a table she sits at is one of the three, not a fourth: she has her seat there.
        for thread in threads[:3]:
            mine = await (await standin.slash(dora, thread, "gate show")).original()
            assert "You already have a seat at this table." in mine.content, mine.content
            assert "You may not take a seat" not in mine.content
        session = await bot.sessions.core.in_channel(threads[0].id)
        store = bot.store
        assert await profiles.table_admissible(store, session.id, session.row.guild_id, dora.id) is None
        other = await bot.sessions.core.in_channel(threads[3].id)
        assert await profiles.table_admissible(store, other.id, other.row.guild_id, dora.id) is not None


async def test_gate_show_in_a_lobby_tells_its_host_and_a_guest_they_sit_there_and_others_whether_they_may(
    standin, bot_factory
):
    """The host of a lobby and a guest who joined it are seated: /gate show says so, not that they
    may take a seat; someone else may take the seat left, and once every seat is taken may not,
    told why."""
    alice, bob, carol = standin.add_users("alice", "bob", "carol")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        thread, lobby = await open_lobby(standin, alice)  # two seats, Alice's taken

        async def shown(user) -> str:
            return (await (await standin.slash(user, thread, "gate show")).original()).content

        host = await shown(alice)
        assert host.endswith("\nYou already have a seat at this table."), host
        assert "You may take a seat" not in host
        assert (await shown(bob)).endswith("\nYou may take a seat."), await shown(bob)
        await standin.click(bob, lobby, lobby_button(lobby, "join"))
        assert (await shown(bob)).endswith("\nYou already have a seat at this table.")
        full = await shown(carol)
        assert full.endswith("\nYou may not take a seat: every seat at this table is taken."), full
        session = await bot.sessions.core.in_channel(thread.id)
        assert session.status == "lobby" and [s.user_id for s in session.seats] == [alice.id, bob.id]


async def test_gate_show_in_a_running_game_says_no_gate_applies_to_it_and_answers_for_a_new_table(
    standin, bot_factory
):
    alice, bob = standin.add_users("alice", "bob")
    hosts = standin.add_users("h1", "h2")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        game = await open_game(standin, alice, bob)
        for user in (alice, hosts[0]):  # a player in it, and someone who is not
            shown = (await (await standin.slash(user, game, "gate show")).original()).content
            assert "This game has already started: its seats are taken, so no gate applies to it" in shown
            assert "At a new table in this server, you may take a seat." in shown, shown
            assert "\nYou may take a seat." not in shown  # not as if a seat here were open
        # Bob at his cap of three (this game and two lobbies): a new table would be a fourth.
        for host in hosts:
            _, lobby = await open_lobby(standin, host)
            await standin.click(bob, lobby, lobby_button(lobby, "join"))
        shown = (await (await standin.slash(bob, game, "gate show")).original()).content
        assert "no gate applies to it" in shown
        assert "At a new table in this server, you may not take a seat: you have 3 games running" in shown, (
            shown
        )
        assert await running(bot, game)

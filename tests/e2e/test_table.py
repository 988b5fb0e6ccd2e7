"""The table end to end: the real bot, over HTTP and the gateway, against the Discord stand-in."""

from __future__ import annotations

import asyncio

import pytest

from tests.e2e.conftest import nim_to_the_end, pick_from_menu, png_of
from tests.e2e.players import to_move
from tests.support import nim
from tests.support.polling import until


def is_board(message) -> bool:
    return bool(message.files) and not message.ephemeral


def nim_session(bot, chan):
    return bot.sessions.core.in_channel(chan.id)


async def open_and_start(standin, chan, alice, bob, **options):
    lobby = await standin.slash(alice, chan, "nim new", thread=False, **options)
    assert lobby.type == 4 and not lobby.ephemeral
    assert "pk:lobby:join:" in " ".join(lobby.message.custom_ids)
    joined = await standin.click(bob, lobby.message, "Join")
    assert joined.type == 7 and "bob" in joined.content.lower()
    standin.skip_messages(chan)
    started = await standin.click(alice, lobby.message, "Start")
    assert started.type == 7 and "started" in started.content
    board = await standin.next_message(chan, is_board)
    return lobby, board


async def test_a_lobby_clicked_before_its_message_is_recorded_is_edited_all_the_same(standin, bot_factory):
    """Bob clicks Join as Discord answers the lobby's post, before the bot has recorded which
    message holds the lobby: the click edits the lobby message, as any other does (not a private
    "Bob joined." under a lobby left saying one seat is taken)."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory()) as bot:
        await standin.wait_synced()
        games, reached, go = bot.store.games, asyncio.Event(), asyncio.Event()
        record = games.set_lobby_message

        async def held(*args, **kwargs):
            reached.set()
            await go.wait()
            return await record(*args, **kwargs)

        games.set_lobby_message = held
        lobby = await standin.slash(alice, chan, "nim new", thread=False)
        await reached.wait()
        joined = await standin.click(bob, lobby.message, "Join")
        assert joined.type == 7 and not joined.ephemeral and "1. Alice (host)\n2. Bob" in joined.content
        go.set()

        async def recorded():  # (the record goes on once let go)
            session = await nim_session(bot, chan)
            return session if session.row.lobby_message_id == lobby.message.id else None

        await until(recorded, "the lobby's message recorded")
        assert "2. Bob" in standin.message(lobby.message.id).content
        started = await standin.click(alice, lobby.message, "Start")
        assert started.type == 7 and "started" in started.content


async def test_whole_flow_by_commands_and_buttons(standin, bot_factory):
    """Lobby, join by button, start, autocomplete, moves, refusals, private view, Play menu, resign."""
    alice, bob, carol = standin.add_users("alice", "bob", "carol")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory()) as bot:
        await standin.wait_synced()
        for name in ("game", "nim"):
            assert standin.command(name)["name"] == name  # synced and accepted by the limits check

        lobby, board = await open_and_start(standin, chan, alice, bob, piles=3, players=2)
        image = png_of(board)
        assert image.width > 100
        mover, session = await to_move(bot, chan, (alice, bob))
        other = bob if mover is alice else alice
        assert f"<@{mover.id}>" in board.content and mover.id in board.pinged
        assert {"Play", "My view"} <= {b.get("label") for b in board.buttons}

        # Autocomplete offers exactly the legal moves, filtered by what was typed.
        legal = [str(m) for m in nim.legal_moves(session.state, session.seat_of(mover.id).seat)]
        choices = await standin.autocomplete(mover, chan, "nim move", "move", move="B")
        assert [c["value"] for c in choices] == [m for m in legal if m.startswith("B")][:25]
        assert await standin.autocomplete(other, chan, "nim move", "move", move="") == []

        # Refusals are ephemeral, say what is allowed, and change nothing.
        before = (session.version, nim.to_dict(session.state))
        for user, text, expect in (
            (mover, "A99", "take 1 to"),
            (mover, "hello", "not a Nim move"),
            (mover, "A", "is the start of"),  # an autocomplete group sent as it is: keep typing
            (other, legal[0], f"it is {mover.name.title()}'s turn"),
            (carol, legal[0], "not playing"),
        ):
            r = await standin.slash(user, chan, "nim move", move=text)
            answer = await r.original()
            assert answer.ephemeral and answer.visible_to == frozenset({user.id})
            assert expect in answer.content, answer.content
        session = await nim_session(bot, chan)
        assert (session.version, nim.to_dict(session.state)) == before

        # A legal move: the board goes to the channel, the private confirmation to the mover.
        r = await standin.slash(mover, chan, "nim move", move=legal[0])
        confirm = await r.original()
        assert confirm.ephemeral and f"`{legal[0]}`" in confirm.content
        png_of(confirm)
        board2 = await standin.next_message(chan, is_board)
        assert not board2.ephemeral and f"<@{other.id}>" in board2.content
        assert png_of(board2).tobytes() != image.tobytes()

        # /game hand is private; the Play button gives a menu of legal moves that plays.
        hand = await (await standin.slash(other, chan, "game hand")).original()
        assert hand.ephemeral and "your secret" not in hand.content and hand.files
        play = await standin.click(other, board2, "Play")
        menu = await play.original()
        assert menu.ephemeral and (menu.selects or menu.buttons)
        session = await nim_session(bot, chan)
        legal_other = [str(m) for m in nim.legal_moves(session.state, session.seat_of(other.id).seat)]
        picked, chosen = await pick_from_menu(standin, other, menu)
        assert chosen in legal_other
        assert picked.type == 6  # the private menu is replaced by the answer
        await picked.original(lambda m: "You played" in m.text)
        await standin.next_message(chan, lambda m: is_board(m) and "took" in m.content)

        # The log lists moves with who made them.
        log = await (await standin.slash(carol, chan, "game log")).original()
        assert legal[0] in log.content and chosen in log.content

        # Resigning a two-player game ends it with results.
        r = await standin.slash(alice, chan, "game resign")
        await r.original(lambda m: "resigned" in m.content.lower())
        final = await standin.next_message(chan, lambda m: "Game over" in m.content)
        assert "1st" in final.content and "resigned" in final.content
        # The finished game stays visible in its channel until a new one opens there.
        status = await (await standin.slash(bob, chan, "game status")).original()
        assert "Game over" in status.content and "1st: <@" in status.content
        log = await (await standin.slash(carol, chan, "game log")).original()
        assert legal[0] in log.content

        # Both people's ratings moved; the winner leads.
        stats = await (await standin.slash(carol, chan, "game stats", player=bob)).original()
        assert "Nim" in stats.content and "(1 game, 1 win)" in stats.content
        stats = await (await standin.slash(alice, chan, "game stats")).original()
        assert "(1 game, 0 wins)" in stats.content
        league = await (await standin.slash(alice, chan, "game ratings", game="guacamole")).original()
        assert "No rated Guacamole games" in league.content


async def test_stale_menu_after_the_board_moved(standin, bot_factory):
    """A move picked from an old menu is refused with the new board, and nothing changes."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory()) as bot:
        await standin.wait_synced()
        _, board = await open_and_start(standin, chan, alice, bob, piles=4)
        mover, session = await to_move(bot, chan, (alice, bob))
        menu = await (await standin.click(mover, board, "Play")).original()
        legal = [str(m) for m in nim.legal_moves(session.state, session.seat_of(mover.id).seat)]
        await (await standin.slash(mover, chan, "nim move", move=legal[0])).original()
        picked, _ = await pick_from_menu(standin, mover, menu, choose=lambda moves: moves[-1])
        answer = await picked.original(lambda m: "changed" in m.text)
        assert answer.ephemeral and "Nothing was played" in answer.text
        png_of(answer)
        assert (await nim_session(bot, chan)).version == session.version + 1


async def test_second_game_in_channel_and_no_game_refusals(standin, bot_factory):
    """One live game per channel; commands in a channel with no game say so."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory()):
        await standin.wait_synced()
        r = await standin.slash(alice, chan, "nim move", move="A1")
        assert "no game in this channel" in (await r.original()).content
        await (await standin.slash(alice, chan, "nim new", thread=False)).original()
        second = await standin.slash(bob, chan, "nim new", thread=False)
        assert second.ephemeral and "already has a Nim game" in second.content
        thread = standin.guild.threads[0]
        other = await standin.slash(bob, thread, "nim new")
        assert not other.ephemeral and "Nim" in other.content


async def test_restart_keeps_lobby_buttons_and_game(standin, bot_factory):
    """Stop the bot, start a new one on the same database: old buttons work and the game goes on."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    make = bot_factory()
    async with standin.run_client(make):
        await standin.wait_synced()
        lobby = await standin.slash(alice, chan, "nim new", thread=False, piles=2)
    async with standin.run_client(make) as bot:
        await standin.click(bob, lobby.message, "Join")
        standin.skip_messages(chan)
        await standin.click(alice, lobby.message, "Start")
        board = await standin.next_message(chan, is_board)
        mover, session = await to_move(bot, chan, (alice, bob))
        move = str(nim.legal_moves(session.state, session.seat_of(mover.id).seat)[0])
    async with standin.run_client(make) as bot:
        menu = await (await standin.click(mover, board, "Play")).original()
        assert menu.selects or menu.buttons
        await (await standin.slash(mover, chan, "nim move", move=move)).original()
        await standin.next_message(chan, lambda m: is_board(m) and "took" in m.content)
        session = await nim_session(bot, chan)
        assert [m.move for m in await bot.store.history.moves(session.id)] == [move]


async def test_rate_limit_is_retried(standin, bot_factory):
    """A 429 on posting the board is retried and the board arrives."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory()) as bot:
        await standin.wait_synced()
        _, board = await open_and_start(standin, chan, alice, bob)
        mover, session = await to_move(bot, chan, (alice, bob))
        move = str(nim.legal_moves(session.state, session.seat_of(mover.id).seat)[0])
        injection = standin.inject("POST /channels/*/messages", status=429, times=1, retry_after=0.05)
        await (await standin.slash(mover, chan, "nim move", move=move)).original()
        await standin.next_message(chan, lambda m: is_board(m) and "took" in m.content)
        assert injection.remaining == 0


async def test_server_error_on_board_keeps_the_move(standin, bot_factory, discord_errors):
    """A 503 when posting the board: the move stays committed and /game board reposts it."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory()) as bot:
        await standin.wait_synced()
        await open_and_start(standin, chan, alice, bob)
        mover, session = await to_move(bot, chan, (alice, bob))
        move = str(nim.legal_moves(session.state, session.seat_of(mover.id).seat)[0])
        standin.inject("POST /channels/*/messages", status=503, times=1)
        answer = await (await standin.slash(mover, chan, "nim move", move=move)).original()
        assert "recorded" in answer.content and "/game board" in answer.content
        session = await nim_session(bot, chan)
        assert [m.move for m in await bot.store.history.moves(session.id)] == [move]
        standin.skip_messages(chan)
        await (await standin.slash(alice, chan, "game board")).original()
        board = await standin.next_message(chan, is_board)
        png_of(board)


@pytest.mark.parametrize("command", ["game join", "game start", "game resign", "game board", "game hand"])
async def test_table_commands_without_a_game(standin, bot_factory, command):
    """Every table command in an empty channel answers ephemerally that there is no game."""
    alice = standin.add_user("alice")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory()):
        await standin.wait_synced()
        answer = await (await standin.slash(alice, chan, command)).original()
        assert answer.ephemeral and "no game in this channel" in answer.content


@pytest.mark.parametrize("discord_error_loggers", [("discord",)])  # the bot's own log is checked below
async def test_unexpected_error_is_logged_and_the_game_unchanged(standin, bot_factory, caplog):
    """An engine crash answers 'something went wrong, the game is unchanged' and logs the traceback."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory()) as bot:
        await standin.wait_synced()
        await open_and_start(standin, chan, alice, bob)
        mover, session = await to_move(bot, chan, (alice, bob))
        answer = await (await standin.slash(mover, chan, "nim move", move="crash")).original()
        assert answer.ephemeral and "Something went wrong" in answer.content and "unchanged" in answer.content
        after = await nim_session(bot, chan)
        assert after.version == session.version and nim.to_dict(after.state) == nim.to_dict(session.state)
    logged = [r for r in caplog.records if r.name == "bot.surface.replies" and r.levelname == "ERROR"]
    assert logged and "crashed on purpose" in str(logged[0].exc_info[1])
    # the command and its option's name, not the move typed (a move may be a secret one)
    assert logged[0].getMessage() == "unexpected error handling /nim move move:…", logged[0].getMessage()


async def test_turn_timer_runs_out(standin, bot_factory, table_clock):
    """/game timer by a non-host is refused; when the timer runs out the table acts and says so."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory()) as bot:
        await standin.wait_synced()
        await open_and_start(standin, chan, alice, bob)
        refused = await (await standin.slash(bob, chan, "game timer", hours=1)).original()
        assert "Only the host" in refused.content
        await (await standin.slash(alice, chan, "game timer", hours=24)).original()
        await standin.next_message(chan, lambda m: "Turn timer set: 24 h" in m.content)
        session = await nim_session(bot, chan)
        late, _ = await to_move(bot, chan, (alice, bob))
        assert await bot.front.catchup.drain()  # the start's notices are sent, its reminder armed
        assert await bot.store.jobs.cancel("remind", str(late.id))  # a 12-hour reminder (tested elsewhere)
        # the timer set during the turn warns at 80 % of it (tested elsewhere)
        (warning,) = [
            j for j in await bot.store.jobs.pending("clock_warning") if j.key.startswith(f"{session.id}:")
        ]
        assert await bot.store.jobs.cancel("clock_warning", warning.key)
        table_clock.advance(24 * 3600 - 1)
        assert await bot.scheduler.run_due() == 0  # a second early
        table_clock.advance(1)
        assert await bot.scheduler.run_due() == 1
        board = await standin.next_message(chan, lambda m: is_board(m) and "Time is up" in m.content)
        assert "ran out of time" in board.content and f"<@{late.id}>" not in board.content.split("Next:")[-1]
        assert (await nim_session(bot, chan)).version == session.version + 1


async def test_commands_after_the_game_ended_say_it_is_over(standin, bot_factory):
    """A move, a join or a resign typed in a channel whose game has ended was told "there is no
    game in this channel": now the game is named as over, with where to read how it ended, in the
    reader's language; nothing changes."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory()) as bot:
        await standin.wait_synced()
        await nim_to_the_end(standin, bot, chan, alice, bob)
        session = await bot.sessions.store.games.last_session(chan.id)
        assert session.status == "finished"
        for command, options in (("nim move", {"move": "A1"}), ("game join", {}), ("game resign", {})):
            answer = await (await standin.slash(alice, chan, command, **options)).original()
            assert answer.ephemeral and answer.content.startswith(
                f"⚠️ The Nim game #{session.id} here is over (/game status shows how it ended); "
                "to play again, start one with /"
            ), answer.content
        bob.locale = "es-ES"
        answer = await (await standin.slash(bob, chan, "nim move", move="A1")).original()
        assert answer.content.startswith(
            f"⚠️ La partida n.º {session.id} de Nim de aquí terminó (/juego estado muestra cómo acabó)"
        ), answer.content
        status = await (await standin.slash(alice, chan, "game status")).original()
        assert "Nim" in status.content and not status.content.startswith("⚠️")
        assert (await bot.sessions.store.games.last_session(chan.id)).version == session.version


async def test_a_host_who_leaves_hands_the_lobby_to_the_next_person(standin, bot_factory):
    """The host left a lobby others sat in: the lobby message marked nobody as host yet said "the
    host presses Start", and when the table filled the one pinged to start it was the person who
    had left.  The person seated first after the host now hosts it, after a restart too."""
    alice, bob, carol = standin.add_users("alice", "bob", "carol")
    chan = standin.channel("games")
    make = bot_factory()
    async with standin.run_client(make):
        await standin.wait_synced()
        lobby = await standin.slash(alice, chan, "nim new", thread=False, piles=2, players=3)
        await standin.click(bob, lobby.message, "Join")
        left = await standin.click(alice, lobby.message, "Leave")
        assert "1. Bob (host)\n" in left.content and "Alice" not in left.content, left.content
    async with standin.run_client(make) as bot:
        await standin.wait_synced()
        await standin.click(carol, lobby.message, "Join")
        await standin.click(alice, lobby.message, "Join")
        full = await standin.next_message(chan, lambda m: "your Nim table is full" in m.content)
        assert full.pinged == frozenset({bob.id}), full.content
        assert (await nim_session(bot, chan)).row.host_id == bob.id


async def test_any_seated_player_may_press_start_not_someone_unseated(standin, bot_factory):
    """The lobby says anyone seated can press Start: a seated player who is not the host starts
    the game with it, after someone not seated was refused and the lobby stayed as it was."""
    alice, bob, carol = standin.add_users("alice", "bob", "carol")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory()) as bot:
        await standin.wait_synced()
        lobby = await standin.slash(alice, chan, "nim new", thread=False, piles=2)
        joined = await standin.click(bob, lobby.message, "Join")
        assert "anyone seated can press Start" in joined.content, joined.content
        before = await nim_session(bot, chan)
        refused = await (await standin.click(carol, lobby.message, "Start")).original()
        assert refused.ephemeral and "not playing in this game" in refused.content, refused.content
        assert (await nim_session(bot, chan)).version == before.version
        started = await standin.click(bob, lobby.message, "Start")
        assert "The game has started." in started.content, started.content
        await standin.next_message(chan, is_board)
        session = await nim_session(bot, chan)
        assert session.status == "active" and session.row.host_id == alice.id


async def test_a_lobby_closed_by_its_button_shows_the_lobby_as_it_ended(standin, bot_factory):
    """The last person's Leave turned the lobby message into "This lobby is closed: everyone left."
    and then, in a second edit, into the closed lobby (game, options, seats, why it closed): it is
    the closed lobby at once, in one edit."""
    (alice,) = standin.add_users("alice")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory()):
        await standin.wait_synced()
        lobby = await standin.slash(alice, chan, "nim new", thread=False, piles=2)
        shown = standin.message(lobby.message.id)
        edits = shown.edits
        await standin.click(alice, lobby.message, "Leave")
        await standin.wait_for(lambda: "(everyone left the lobby)" in shown.content, what="the closed lobby")
    assert shown.content.startswith("**Nim**: new game\nOptions: piles: 2\n1. Alice (host)\n"), shown.content
    assert shown.content.endswith("This lobby is closed (everyone left the lobby).") and not shown.buttons
    assert shown.edits == edits + 1

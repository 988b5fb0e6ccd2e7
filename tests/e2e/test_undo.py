"""/game undo end to end: accepted and refused by the other player's buttons, refused after a
card was drawn, and a stale request's button answered plainly."""

from __future__ import annotations

import logging

from bot.app import EXTENSIONS
from engines.core import rng_for
from tests.e2e.forge import forged_click
from tests.e2e.players import board_recorded, settled, to_move
from tests.standin.model import READ_MESSAGE_HISTORY
from tests.support import nim

ALL = (*EXTENSIONS, "tests.support.nim_cog")


def is_board(message) -> bool:
    return bool(message.files) and not message.ephemeral


async def nim_game(standin, bot, chan, alice, bob, piles: int = 3):
    """A Nim game of alice and bob started in ``chan``: its session, who is to move, the other."""
    lobby = await standin.slash(alice, chan, "nim new", thread=False, piles=piles)
    await standin.click(bob, lobby.message, "Join")
    await standin.click(alice, lobby.message, "Start")
    await standin.next_message(chan, is_board)
    first, session = await to_move(bot, chan, (alice, bob))
    return session, first, (bob if first is alice else alice)


async def play_first(standin, bot, chan, user):
    """``user`` plays their first legal move by ``/nim move``: its answer."""
    legal = await bot.sessions.play.legal_moves(chan.id, user.id)
    return await (await standin.slash(user, chan, "nim move", move=legal[0])).original()


async def asked_back(standin, bot, chan, first):
    """``first`` plays a move and asks to take it back: the request's message."""
    await play_first(standin, bot, chan, first)
    await (await standin.slash(first, chan, "game undo")).original()
    return await standin.next_message(chan, lambda m: "asks to take back" in m.content and m.buttons)


async def test_undo_agreed_and_refused_by_buttons(standin, bot_factory):
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(ALL)) as bot:
        await standin.wait_synced()
        session, first, other = await nim_game(standin, bot, chan, alice, bob)
        legal = await bot.sessions.play.legal_moves(chan.id, first.id)
        start = nim.to_dict(session.state)
        await (await standin.slash(first, chan, "nim move", move=legal[0])).original()

        # Refused by the other player's button: nothing changes.
        asked = await (await standin.slash(first, chan, "game undo")).original()
        assert asked.ephemeral and "Asked" in asked.content
        request = await standin.next_message(chan, lambda m: "asks to take back" in m.content)
        assert other.id in request.pinged and first.id not in request.pinged
        mine = await standin.click(first, request, "Agree")
        assert "You asked" in (await mine.original()).content
        refused = await standin.click(other, request, "Refuse")
        assert refused.type == 7 and refused.content.endswith("refused: the move stands.")  # one move
        after = await bot.sessions.core.get(session.id)
        assert nim.to_dict(after.state) != start and after.status == "active"

        # Agreed: the game goes back before the move, and a new board says so.
        await (await standin.slash(first, chan, "game undo")).original()
        request = await standin.next_message(chan, lambda m: "asks to take back" in m.content and m.buttons)
        agreed = await standin.click(other, request, "Agree")
        assert agreed.type == 7 and agreed.content.endswith("agreed: everyone did, the move was taken back.")
        board = await standin.next_message(chan, lambda m: is_board(m) and "took back" in m.content)
        assert first.id in board.pinged
        after = await bot.sessions.core.get(session.id)
        assert nim.to_dict(after.state) == start
        rows = await bot.sessions.store.history.moves(session.id)
        assert len(rows) == 2 and rows[1].move == "!undo 1"  # the log keeps the move and the undo
        log = await (await standin.slash(other, chan, "game log")).original()
        assert "took back" in log.content

        # A request voided by a move: its message says it is closed and loses its buttons, and a
        # button of it (one still on a screen) says so.
        request = await asked_back(standin, bot, chan, first)
        agree = request.buttons[0]["custom_id"]
        await play_first(standin, bot, chan, other)
        closed = standin.message(request.id)
        assert not closed.buttons
        assert "asks to take back" in closed.content and "Closed: a move was played" in closed.content
        late = await forged_click(standin, other, chan, agree, request)
        assert "no longer open" in (await late.original()).content
        assert await bot.sessions.store.history.undo_request(session.id) is None


async def test_a_request_closed_without_an_answer_says_so(standin, bot_factory, caplog):
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(ALL)) as bot:
        await standin.wait_synced()
        session, first, other = await nim_game(standin, bot, chan, alice, bob)
        await play_first(standin, bot, chan, first)
        await play_first(standin, bot, chan, other)

        # A newer request takes the place of an older one: the older one's message says so.
        await (await standin.slash(first, chan, "game undo")).original()
        older = await standin.next_message(chan, lambda m: "asks to take back" in m.content and m.buttons)
        await (await standin.slash(other, chan, "game undo")).original()
        newer = await standin.next_message(chan, lambda m: "asks to take back" in m.content and m.buttons)
        older = standin.message(older.id)
        assert not older.buttons and "Closed: a newer request" in older.content
        assert standin.message(newer.id).buttons

        # Its message deleted, a request voided by a move: the move stands, one line is logged.
        await standin.delete(newer)
        version = (await bot.sessions.core.get(session.id)).version
        legal = await bot.sessions.play.legal_moves(chan.id, first.id)
        with caplog.at_level(logging.WARNING, logger="bot.surface.undo"):
            moved = await (await standin.slash(first, chan, "nim move", move=legal[0])).original()
        assert moved.content.startswith("You played")
        assert (await bot.sessions.core.get(session.id)).version > version
        lines = [r for r in caplog.records if r.name == "bot.surface.undo"]
        assert len(lines) == 1 and "could not close" in lines[0].getMessage() and lines[0].exc_info is None
        assert await bot.sessions.store.history.undo_request(session.id) is None

        # The game abandoned with a request open: its message says the game ended.
        await (await standin.slash(other, chan, "game undo")).original()
        last = await standin.next_message(chan, lambda m: "asks to take back" in m.content and m.buttons)
        await (await standin.slash(standin.owner, chan, "game abandon")).original()
        last = standin.message(last.id)
        assert not last.buttons and "Closed: the game ended" in last.content


async def test_undo_refused_after_a_card_was_drawn(standin, bot_factory):
    alice = standin.add_user("alice")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        lobby = await standin.slash(alice, chan, "guacamole new", thread=False, players=2)
        await standin.click(alice, lobby.message, "Add computer")
        await standin.click(alice, lobby.message, "Start")
        await standin.next_message(chan, is_board)
        session = await bot.sessions.core.in_channel(chan.id)
        module, seat, i = session.engine, session.seat_of(alice.id).seat, 0
        while True:
            legal = list(module.legal_moves(session.state, seat))
            move = str(module.computer_move(module.view_for(session.state, seat), legal, rng_for(2, i)))
            await (await standin.slash(alice, chan, "guacamole move", move=move)).original()
            session = await bot.sessions.core.get(session.id)
            i += 1
            if move.startswith("draw"):
                break
        version = session.version
        refused = await (await standin.slash(alice, chan, "game undo")).original()
        assert refused.ephemeral and "involved chance" in refused.content
        assert (await bot.sessions.core.get(session.id)).version == version


async def test_status_counts_the_moves_that_stand(standin, bot_factory):
    """/game status counts the moves that stand: a move and its undo read "0 moves played", not 2."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(ALL)) as bot:
        await standin.wait_synced()
        session, first, other = await nim_game(standin, bot, chan, alice, bob)
        await play_first(standin, bot, chan, first)
        status = await (await standin.slash(other, chan, "game status")).original()
        assert "1 move played" in status.content

        await (await standin.slash(first, chan, "game undo")).original()
        request = await standin.next_message(chan, lambda m: "asks to take back" in m.content and m.buttons)
        await standin.click(other, request, "Agree")
        await standin.next_message(chan, lambda m: is_board(m) and "took back" in m.content)
        await board_recorded(standin, bot, chan)  # the count follows the board's record
        status = await (await standin.slash(other, chan, "game status")).original()
        assert "0 moves played" in status.content

        await play_first(standin, bot, chan, first)
        status = await (await standin.slash(other, chan, "game status")).original()
        assert "1 move played" in status.content


async def test_a_request_voided_by_a_clock_change_or_a_time_running_out_says_so(
    standin, bot_factory, table_clock, monkeypatch
):
    """A request made void without a move (the host changes the clock; later the other player's
    time runs out while asked) closes its message with what happened and how to ask again,
    instead of keeping buttons that answer "the game moved on"."""
    monkeypatch.setattr(nim, "TABLE_MOVES", False)  # a time running out asks the others
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(ALL)) as bot:
        await standin.wait_synced()
        session, first, other = await nim_game(standin, bot, chan, alice, bob)
        request = await asked_back(standin, bot, chan, first)
        await (await standin.slash(alice, chan, "game clock", clock="move:4h")).original()
        await bot.front.replies.idle()
        closed = standin.message(request.id)
        assert not closed.buttons and "Closed: the game's clock changed" in closed.content
        assert "/game undo" in closed.content
        assert await bot.sessions.store.history.undo_request(session.id) is None

        await (await standin.slash(first, chan, "game undo")).original()
        request = await standin.next_message(chan, lambda m: "asks to take back" in m.content and m.buttons)
        table_clock.advance(4 * 3600)  # the other player's 4 hours run out while they are asked
        await bot.scheduler.run_due()
        await standin.next_message(chan, lambda m: "time ran out" in m.content)
        await bot.front.replies.idle()
        closed = standin.message(request.id)
        assert not closed.buttons and "a player's time ran out" in closed.content


async def test_an_undo_request_names_the_dropped_player_for_their_moves(standin, bot_factory):
    """A league's game whose seat went to a substitute after its player's last move: the other
    player asks to take back a move made before the handover, and the request lists the moves it
    takes back each under whoever made it (the dropped player, not the substitute)."""
    from bot.storage.noshows import Substitute
    from tests.league.test_storage import new_league

    alice, bob, cusi = standin.add_users("alice", "bob", "cusi")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(ALL)) as bot:
        await standin.wait_synced()
        session, first, other = await nim_game(standin, bot, chan, alice, bob)
        store = bot.store
        lid = await new_league(store)
        for user in (first, other):
            await store.leagues.join_league(lid, user.id, user.name)
        await store.leagues.start_league(lid, store.clock.time(), 3)
        (gid,) = await store.leagues.open_round(lid, 1, [[first.id, other.id]], [], store.clock.time() + 10)
        await store.leagues.attach_session(gid, session.id)
        for user in (first, other, first):
            await play_first(standin, bot, chan, user)
        gone = (await bot.sessions.core.get(session.id)).seat_of(first.id)
        await store.leagues.drop_player(lid, first.id)
        await store.noshows.add_substitute(lid, cusi.id, "Cusi")
        assert await store.noshows.hand_seat(
            lid, gid, session.id, gone.seat, first.id, Substitute(cusi.id, "Cusi"), "original"
        )
        await (await standin.slash(other, chan, "game undo")).original()
        request = await standin.next_message(chan, lambda m: "asks to take back 2 moves" in m.content)
        assert f"{gone.name}: `" in request.content and "Cusi" not in request.content, request.content


async def test_after_an_agreed_undo_the_askers_turn_dm_tells_what_happened_since_their_last_move(
    standin, bot_factory
):
    """Alice moves, Bob moves, Alice moves and asks to take it back; Bob agrees.  Her turn DM says
    what happened since her last move that stands: Bob's move, and the taking back."""
    from tests.e2e.test_notices import EXTENSIONS, play_one, settings, start_game

    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(EXTENSIONS)) as bot:
        await standin.wait_synced()
        await settings(standin, alice, chan, where="dm")
        await settings(standin, bob, chan, where="dm")
        thread, _ = await start_game(standin, bot, chan, alice, bob, piles=5)
        first, session = await to_move(bot, thread, (alice, bob))
        other = bob if first is alice else alice
        for _ in range(3):
            await play_one(standin, bot, thread, (alice, bob))
            await bot.front.catchup.drain()
        seen = {m.id for m in standin.messages(standin.dm(first))}
        await (await standin.slash(first, thread, "game undo")).original()
        request = await standin.next_message(thread, lambda m: "asks to take back" in m.content and m.buttons)
        await standin.click(other, request, "Agree")
        await standin.next_message(thread, lambda m: is_board(m) and "took back" in m.content)
        await bot.front.catchup.drain()
        dm = await standin.next_message(standin.dm(first), lambda m: m.id not in seen)
        assert "It is your turn" in dm.content
        assert "Since your last move:" in dm.content, dm.content
        assert other.name.title() in dm.content.split("Since your last move:")[1], dm.content
        assert "took back 1 move, from move 3" in dm.content


async def test_an_undo_request_closes_without_read_message_history(standin, bot_factory, caplog):
    """An undo request is asked; the bot then loses Read Message History in the channel, and the
    other player moves: the request's message still says it closed and loses its buttons (editing
    the bot's own message needs no history), and no warning is logged about it."""
    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory(ALL)) as bot:
        await standin.wait_synced()
        session, first, other = await nim_game(standin, bot, chan, alice, bob, piles=5)
        move = min(nim.legal_moves(session.state, session.seat_of(first.id).seat), key=lambda m: m.count)
        await (await standin.slash(first, chan, "nim move", move=str(move))).original()
        await (await standin.slash(first, chan, "game undo")).original()
        request = await standin.next_message(chan, lambda m: "asks to take back" in m.content)
        asked = request.content
        assert request.buttons
        standin.set_permissions(chan, standin.bot_user, deny=READ_MESSAGE_HISTORY)
        await settled(standin)
        _, session = await to_move(bot, chan, (alice, bob))
        move = min(nim.legal_moves(session.state, session.seat_of(other.id).seat), key=lambda m: m.count)
        await (await standin.slash(other, chan, "nim move", move=str(move))).original()
        await bot.front.catchup.drain()
        closed = standin.message(request.id)
        assert (
            closed.content == f"{asked}\nClosed: a move was played before everyone answered; the moves stand."
        )
        assert not closed.buttons
        assert not [r for r in caplog.records if "could not close undo request" in r.getMessage()]


async def test_a_request_to_take_back_a_move_refuses_plainly_those_whose_seat_the_computer_plays(
    standin, bot_factory
):
    """Three play Nim; one resigns, so the computer plays their seat.  A request to take back a
    move asks only the two still playing; the one who resigned pressing Agree or Refuse is told
    they resigned, not that they 'already agreed', and the request still waits for its player."""
    alice, bob, carol = standin.add_users("alice", "bob", "carol")
    chan = standin.channel("games")
    users = (alice, bob, carol)
    async with standin.run_client(bot_factory(ALL)) as bot:
        await standin.wait_synced()
        lobby = await standin.slash(alice, chan, "nim new", thread=False, piles=3, players=3)
        await standin.click(bob, lobby.message, "Join")
        await standin.click(carol, lobby.message, "Join")
        await standin.click(alice, lobby.message, "Start")
        await standin.next_message(chan, is_board)
        first, session = await to_move(bot, chan, users)
        quitter = next(u for u in users if u is not first)
        other = next(u for u in users if u not in (first, quitter))
        await (await standin.slash(quitter, chan, "game resign")).original()
        session = await bot.sessions.core.get(session.id)
        assert session.seat_of(quitter.id).resigned
        while True:  # the computer may have moved for the seat: play until first moves
            mover, session = await to_move(bot, chan, users)
            await play_first(standin, bot, chan, mover)
            if mover is first:
                break
        asked = await (await standin.slash(first, chan, "game undo")).original()
        assert "Asked" in asked.content, asked.content
        request = await standin.next_message(chan, lambda m: "asks to take back" in m.content and m.buttons)
        assert quitter.id not in request.pinged
        for label in ("Agree", "Refuse"):
            answer = await (await standin.click(quitter, request, label)).original()
            assert answer.ephemeral and "you resigned from this game" in answer.content.lower(), (
                answer.content
            )
            assert "already agreed" not in answer.content
        waiting = await bot.sessions.store.history.undo_request(session.id)
        assert waiting is not None and waiting.waiting == {session.seat_of(other.id).seat}
        agreed = await standin.click(other, request, "Agree")
        assert agreed.type == 7 and "taken back" in agreed.content


async def test_an_undo_request_reaches_each_person_asked_as_their_notices_ask(standin, bot_factory):
    """The request pings only those asked who want a mention in the thread (``/me notify``); one who
    wants a direct message gets one with a link to the request (and no ping), one who wants none
    gets neither, and a refused direct message becomes a mention under the request."""
    from tests.e2e.test_notices import settings

    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory((*ALL, "cogs.me"))) as bot:
        await standin.wait_synced()
        session, first, other = await nim_game(standin, bot, chan, alice, bob)
        await play_first(standin, bot, chan, first)
        await bot.front.catchup.drain()

        async def ask():
            await (await standin.slash(first, chan, "game undo")).original()
            request = await standin.next_message(
                chan, lambda m: "asks to take back" in m.content and m.buttons
            )
            await settled(standin)
            return request

        def dms():
            return [m for m in standin.messages(standin.dm(other)) if "take back" in m.content]

        await settings(standin, other, chan, where="none")
        request = await ask()
        assert request.pinged == frozenset() and f"<@{other.id}>: do you agree?" in request.content
        assert dms() == []

        await settings(standin, other, chan, where="dm")
        request = await ask()
        assert request.pinged == frozenset()
        (told,) = dms()
        assert f"**Nim** #{session.id} on **{standin.guild.name}**" in told.content, told.content
        assert f"/{chan.id}/{request.id}" in told.content and "1 move" in told.content
        assert "Press Agree or Refuse there: https://" in told.content

        standin.close_dms(other)
        request = await ask()
        assert request.pinged == frozenset() and len(dms()) == 1
        above = await standin.next_message(chan, lambda m: "request to take back" in m.content)
        assert above.pinged == frozenset({other.id}) and above.content.startswith(f"<@{other.id}>:")

        await settings(standin, other, chan, where="both")
        standin.close_dms(other, False)
        request = await ask()
        assert request.pinged == frozenset({other.id}) and len(dms()) == 2

        # In the person's own language: Spanish for one whose Discord speaks it.
        other.locale = "es-ES"
        await (await standin.slash(other, chan, "me notify", where="dm")).original()
        request = await ask()
        told = standin.messages(standin.dm(other))[-1]
        assert told.content.startswith(
            f"↩️ {session.seat_of(first.id).name} pide deshacer 1 jugada en **Nim**"
        )
        assert f"/{chan.id}/{request.id}" in told.content and request.pinged == frozenset()
        assert "Pulsa De acuerdo o Rechazar allí: https://" in told.content


async def test_an_undo_request_asked_in_quiet_hours_is_told_when_they_end_if_still_open(
    standin, bot_factory, table_clock
):
    """One who wants direct messages only, asked in their quiet hours (07:00 to 09:00 UTC; the clock
    starts at 08:00): no ping and no direct message then; when the quiet hours end, the direct message
    about the request, if it is still open; a request closed meanwhile is not told."""
    from tests.e2e.test_notices import settings

    alice, bob = standin.add_users("alice", "bob")
    chan = standin.channel("games")
    async with standin.run_client(bot_factory((*ALL, "cogs.me"))) as bot:
        await standin.wait_synced()
        session, first, other = await nim_game(standin, bot, chan, alice, bob, piles=5)
        await settings(standin, other, chan, where="dm", reminders=0, time_zone="UTC", quiet="7-9")

        def dms():
            return [m for m in standin.messages(standin.dm(other)) if "take back" in m.content]

        async def move(user):
            await play_first(standin, bot, chan, user)
            await bot.front.catchup.drain()

        await move(first)
        await (await standin.slash(first, chan, "game undo")).original()
        request = await standin.next_message(chan, lambda m: "asks to take back" in m.content and m.buttons)
        await settled(standin)
        assert request.pinged == frozenset() and dms() == []
        table_clock.advance(3600)
        await bot.scheduler.run_due()
        await settled(standin)
        (told,) = dms()
        assert (
            f"/{chan.id}/{request.id}" in told.content
            and "asks to take back 1 move in **Nim**" in told.content
        )

        # The next request, closed by a move before the quiet hours end, is not told.
        await (await standin.slash(other, chan, "game undo")).original()  # (refused: no move yet)
        await move(other)
        await move(first)
        table_clock.advance(22 * 3600)  # 07:00 the next day: quiet again
        await (await standin.slash(first, chan, "game undo")).original()
        await standin.next_message(chan, lambda m: "asks to take back" in m.content and m.buttons)
        await move(other)
        table_clock.advance(2 * 3600)
        await bot.scheduler.run_due()
        await settled(standin)
        assert len(dms()) == 1
        assert await bot.store.jobs.job("undo_notice", f"{session.id}:{other.id}") is None
